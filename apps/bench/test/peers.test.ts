import { beforeAll, describe, expect, it } from 'vitest';
import type { ChildMessage } from '../src/child';
import { loadLibrary } from '../src/libs';
import { torchTsCpu } from '../src/libs/torch-ts';
import type { LibName, Library, NodeLibName } from '../src/libs/types';
import { measure, type Measurement } from '../src/measure';
import { pytorchMissing, runPytorch } from '../src/pytorch';
import { cellOf, checkCells } from '../src/report';
import { TINY_WORKLOADS } from '../src/workloads';

// The CPU peers of `pnpm bench`, on tiny sizes, checked against torch-ts the way the harness
// checks them (checkCells): every workload a peer can run agrees with torch-ts, and every one
// it cannot is n/a for the reason written here. No timing is asserted.
const OPTIONS = { targetMs: 1, maxReps: 2, warmupMs: 0, maxWarmups: 1, slowMs: 10_000, probe: true };
const torchTs = torchTsCpu('one');
const reference = new Map<string, Promise<Measurement>>();
const ref = (id: string) => {
  if (!reference.has(id)) reference.set(id, measure(torchTs, TINY_WORKLOADS.find((w) => w.id === id)!, OPTIONS));
  return reference.get(id)!;
};

/** What each peer cannot run, and why. */
const NA: Record<Exclude<LibName, 'torch-ts' | 'torch-ts-threads' | 'torch-ts-webgpu' | 'tfjs-webgpu' | 'pytorch-cuda'>, Record<string, RegExp>> = {
  'tfjs-cpu': { 'per-sample-vmap': /no vmap/, 'per-sample-loop': /no vmap/, 'per-sample-cnn-vmap': /no vmap/, 'per-sample-cnn-loop': /no vmap/ },
  'tfjs-wasm': {
    'conv2d-bwd': /^no Conv2DBackpropFilter kernel/,
    'conv2d-1x1-bwd': /^no Conv2DBackpropFilter kernel/,
    'conv2d-cl-bwd': /^no Conv2DBackpropFilter kernel/,
    'conv2d-cl-1x1-bwd': /^no Conv2DBackpropFilter kernel/,
    rfft: /no FFT kernel/,
    fft: /no FFT kernel/,
    'per-sample-vmap': /no vmap/,
    'per-sample-loop': /no vmap/,
    'per-sample-cnn-vmap': /no vmap/,
    'per-sample-cnn-loop': /no vmap/,
  },
  'js-pytorch': {
    conv2d: /^no conv2d in js-pytorch$/,
    'conv2d-cl': /^no conv2d in js-pytorch$/,
    'conv2d-cl-1x1': /^no conv2d in js-pytorch$/,
    'conv2d-bwd': /^no conv2d in js-pytorch$/,
    'conv2d-1x1-bwd': /^no conv2d in js-pytorch$/,
    'conv2d-cl-bwd': /^no conv2d in js-pytorch$/,
    'conv2d-cl-1x1-bwd': /^no conv2d in js-pytorch$/,
    rfft: /^no FFT in js-pytorch$/,
    fft: /^no FFT in js-pytorch$/,
    'per-sample-vmap': /no function transforms/,
    'per-sample-loop': /no function transforms/,
    'per-sample-cnn-vmap': /no function transforms/,
    'per-sample-cnn-loop': /no function transforms/,
  },
  onnxruntime: {
    'conv2d-cl': /NCHW/,
    'conv2d-cl-1x1': /NCHW/,
    'conv2d-bwd': /inference only \(no backward\)/,
    'conv2d-1x1-bwd': /inference only \(no backward\)/,
    'conv2d-cl-bwd': /inference only \(no backward\)/,
    'conv2d-cl-1x1-bwd': /inference only \(no backward\)/,
    'mlp-step': /inference only/,
    'tiny-fwd-bwd': /no autograd/,
    rfft: /opset 17/,
    fft: /opset 17/,
    'per-sample-vmap': /no autograd/,
    'per-sample-loop': /no autograd/,
    'per-sample-cnn-vmap': /no autograd/,
    'per-sample-cnn-loop': /no autograd/,
  },
  pytorch: {},
};

async function expectAgrees(lib: LibName, m: Measurement): Promise<void> {
  const why = NA[lib as keyof typeof NA][m.id];
  if (why) {
    expect(m.na).toMatch(why);
    return;
  }
  expect(m.na, `${m.id} on ${lib}`).toBeUndefined();
  expect(m.samples.length).toBeGreaterThan(0);
  expect(m.readSamples?.length).toBe(m.samples.length);
  const cells = new Map([
    ['torch-ts', cellOf([await ref(m.id)])],
    [lib, cellOf([m])],
  ] as [LibName, ReturnType<typeof cellOf>][]);
  checkCells(cells);
  expect(cells.get(lib)!.mismatch, `${m.id} on ${lib}`).toBeUndefined();
}

for (const name of ['tfjs-cpu', 'tfjs-wasm', 'js-pytorch', 'onnxruntime'] as NodeLibName[]) {
  describe(`bench (${name}, tiny sizes, checked against torch-ts)`, () => {
    // Loaded when its suite starts, not when the file is collected: tfjs-cpu and tfjs-wasm
    // share tfjs's one global backend (the bench gives each a process of its own), and two
    // initialisations at once left tensors on the other backend now and then.
    let lib: Library;
    beforeAll(async () => {
      lib = await loadLibrary(name);
    });
    for (const w of TINY_WORKLOADS) {
      it(w.id, async () => expectAgrees(name, await measure(lib, w, OPTIONS)));
    }
  });
}

// PyTorch runs where /usr/bin/python3 imports it; elsewhere the bench leaves its column out,
// and so does this suite, with a notice.
const missing = pytorchMissing();
if (missing) console.warn(`[bench] pytorch tests SKIPPED: ${missing}`);

describe.skipIf(missing !== null)('bench (pytorch through py/bench_torch.py, tiny sizes, checked against torch-ts)', () => {
  it('runs every workload on the same inputs', async () => {
    const got: Measurement[] = [];
    let described = '';
    const config = { lib: 'pytorch' as const, ids: TINY_WORKLOADS.map((w) => w.id), options: OPTIONS, predictLimitMs: 10_000 };
    // The config carries the tiny shapes: runPytorch sends the full ones for these ids.
    const ended = await runPytorch(config, (msg: ChildMessage) => (msg.kind === 'describe' ? (described = msg.text) : got.push(msg.m)), TINY_WORKLOADS);
    expect(ended).toBe('exit 0');
    expect(described).toMatch(/^PyTorch \S+ \(\/usr\/bin\/python3, 1 thread\)$/);
    expect(got.map((m) => m.id)).toEqual(config.ids);
    for (const m of got) await expectAgrees('pytorch', m);
  });
});
