/**
 * The page: initialises torch-ts's WebGPU backend on the browser's navigator.gpu, runs
 * compute.ts on `webgpu`, and shows every number. Each result is also kept, exactly, in
 * data attributes (JSON), and `#status[data-state]` ends as `done` or `error`: what the
 * Playwright test reads (test/playground.test.ts).
 */
import * as torch from '@torch-ts/torch';
// The WebGPU backend is an optional package that a bundler only includes when the app imports
// it; importing it registers it, and torch.webgpu.init() then finds it.
import '@torch-ts/kernels-webgpu';
import { OP_NAMES, runCpuThreads, runPlayground } from './compute';

const $ = (id: string): HTMLElement => document.getElementById(id)!;

function fmt(values: readonly number[]): string {
  const shown = values.slice(0, 12).map((v) => (Number.isInteger(v) ? String(v) : v.toPrecision(5)));
  return shown.join(', ') + (values.length > 12 ? `, … (${values.length})` : '');
}

function setStatus(state: 'running' | 'done' | 'error', text: string): void {
  const s = $('status');
  s.dataset.state = state;
  s.textContent = text;
}

/** The CPU backend on worker threads (needs cross-origin isolation: COOP/COEP headers). */
async function cpuThreads(): Promise<void> {
  const r = await runCpuThreads();
  const el = $('cpu');
  el.textContent = `${r.capability}, ${r.threads} threads (${r.workers} workers ran ${r.workerTasks} tasks), cross-origin isolated: ${r.isolated}`;
  el.dataset.result = JSON.stringify(r);
}

async function main(): Promise<void> {
  await cpuThreads();
  if (!(await torch.webgpu.init())) {
    const why = torch.webgpu.unavailableReason() ?? 'no WebGPU adapter';
    $('status').dataset.reason = 'no-adapter';
    setStatus('error', `WebGPU is not available here: ${why}`);
    return;
  }
  const info = torch.webgpu.deviceInfo();
  $('adapter').textContent = `${info.source}: ${info.adapter}`;
  $('adapter').dataset.source = info.source;
  setStatus('running', 'Running ops and training on WebGPU…');
  const losses = $('losses');
  const results = await runPlayground('webgpu', (step, loss) => {
    const li = document.createElement('li');
    li.dataset.step = String(step);
    li.dataset.loss = JSON.stringify(loss);
    li.textContent = `step ${step}: loss ${loss.toPrecision(6)}`;
    losses.append(li);
  });
  $('device').textContent = results.device;
  $('device').dataset.device = results.device;
  const body = $('ops');
  for (const name of OP_NAMES) {
    const r = results.ops[name];
    const tr = document.createElement('tr');
    tr.dataset.op = name;
    const cells = 'na' in r ? [name, '', `n/a (${r.na})`] : [name, `[${r.shape.join(', ')}]`, fmt(r.values)];
    for (const c of cells) {
      const td = document.createElement('td');
      td.textContent = c;
      tr.append(td);
    }
    if ('na' in r) {
      tr.className = 'na';
      tr.dataset.na = r.na;
    } else {
      tr.dataset.shape = JSON.stringify(r.shape);
      tr.dataset.values = JSON.stringify(r.values);
    }
    body.append(tr);
  }
  const params = $('params');
  params.textContent = fmt(results.training.params);
  params.dataset.values = JSON.stringify(results.training.params);
  setStatus('done', `Done on ${results.device} (${info.source}).`);
}

main().catch((e: unknown) => {
  console.error(e);
  setStatus('error', `Failed: ${e instanceof Error ? e.message : String(e)}`);
});
