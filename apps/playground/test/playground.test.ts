/**
 * The playground page in headless Chromium on WebGPU (SwiftShader's Vulkan here): builds
 * the page with Vite, serves the build on a free local port, waits for the page to finish,
 * and checks every number it shows against the same computation (src/compute.ts) run by
 * torch-ts on the CPU in this Node process. No browser is ever downloaded: the system's
 * Chromium is used; without it (or without a WebGPU adapter in it) the test is skipped with
 * a notice, unless TORCH_TS_REQUIRE_WEBGPU=1, which makes that a failure (CI).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { CPU_THREADS, OP_NAMES, TRAIN_STEPS, runCpuThreads, runPlayground, type CpuThreadsResult, type OpResult } from '../src/compute';
import { CROSS_ORIGIN_ISOLATION } from '../vite.config';

const APP = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.TORCH_TS_CHROMIUM ?? '/usr/bin/chromium';
const REQUIRED = process.env.TORCH_TS_REQUIRE_WEBGPU === '1';
/** Chromium's flags for WebGPU on SwiftShader, headless, with no network chatter. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
/** Ops that other work is still bringing to WebGPU: n/a there is reported, not failed. */
const MAY_BE_MISSING = new Set(['softmax']);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

/** A static file server for the build on 127.0.0.1 and a free port. */
async function serve(root: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root + sep) && file !== root) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...CROSS_ORIGIN_ISOLATION }).end(readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

/** What the page shows, read back from its data attributes. */
interface Shown {
  state: string;
  reason: string | null;
  text: string;
  device: string | null;
  source: string | null;
  ops: Record<string, OpResult>;
  losses: { step: number; loss: number }[];
  params: number[] | null;
  cpu: CpuThreadsResult | null;
}

function skipOrFail(why: string, skip: () => void): void {
  if (REQUIRED) throw new Error(`playground: ${why} (TORCH_TS_REQUIRE_WEBGPU=1)`);
  console.warn(`[playground] browser WebGPU test SKIPPED: ${why} (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)`);
  skip();
}

/** Largest |got - want| seen per check, printed at the end: how far inside the tolerance WebGPU is. */
const worst: string[] = [];

function expectClose(got: readonly number[], want: readonly number[], rtol: number, atol: number, what: string): void {
  expect(got.length, `${what}: length`).toBe(want.length);
  let max = 0;
  for (let i = 0; i < want.length; i++) {
    const d = Math.abs(got[i] - want[i]);
    const ok = d <= atol + rtol * Math.abs(want[i]) || (Number.isNaN(got[i]) && Number.isNaN(want[i]));
    if (!ok) expect.fail(`${what}[${i}]: ${got[i]} on WebGPU, ${want[i]} on CPU (rtol ${rtol}, atol ${atol})`);
    if (d > max) max = d;
  }
  worst.push(`${what} ${max.toExponential(1)}`);
}

describe('playground page on WebGPU in headless Chromium', () => {
  let browser: Browser | null = null;
  let server: Server | null = null;
  let outDir: string | null = null;
  afterAll(async () => {
    await browser?.close();
    await new Promise((ok) => (server ? server.close(ok) : ok(undefined)));
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('shows on webgpu what torch-ts computes on the CPU', async (ctx) => {
    if (!existsSync(CHROMIUM)) return skipOrFail(`no Chromium at ${CHROMIUM}`, () => ctx.skip());

    outDir = mkdtempSync(join(tmpdir(), 'torch-ts-playground-'));
    await build({ root: APP, configFile: join(APP, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    const bundle = readFileSync(join(outDir, 'index.html'), 'utf8');
    expect(bundle).toMatch(/<script type="module"[^>]*src="\/assets\/[^"]+\.js"/);

    const served = await serve(outDir);
    server = served.server;
    // Playwright's own limits (30 s to launch, to load, to find a selector) time out on a
    // loaded CI machine with every check holding: only the test's hang limit bounds it
    // (Note [Timeouts only catch hangs]).
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 0 });
    const page = await browser.newPage();
    page.setDefaultTimeout(0);
    page.setDefaultNavigationTimeout(0);
    const logs: string[] = [];
    page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
    // An exception while the page loads fails the test at once, with its stack.
    const crashed = new Promise<never>((_, fail) => page.on('pageerror', (e) => fail(new Error(`the page threw: ${e.stack ?? e.message}`))));
    crashed.catch(() => {});
    await page.goto(served.url, { waitUntil: 'commit' });
    await Promise.race([page.waitForSelector('#status[data-state="done"], #status[data-state="error"]'), crashed]);
    const shown: Shown = await page.evaluate(() => {
      const byId = (id: string) => document.getElementById(id)!;
      const ops: Record<string, unknown> = {};
      for (const tr of Array.from(document.querySelectorAll<HTMLElement>('#ops tr[data-op]'))) {
        const d = tr.dataset;
        ops[d.op!] = d.na !== undefined ? { na: d.na } : { shape: JSON.parse(d.shape!), values: JSON.parse(d.values!) };
      }
      const losses = Array.from(document.querySelectorAll<HTMLElement>('#losses li')).map((li) => ({ step: Number(li.dataset.step), loss: JSON.parse(li.dataset.loss!) as number }));
      const params = byId('params').dataset.values;
      const cpu = byId('cpu').dataset.result;
      return {
        state: byId('status').dataset.state!,
        reason: byId('status').dataset.reason ?? null,
        text: byId('status').textContent ?? '',
        device: byId('device').dataset.device ?? null,
        source: byId('adapter').dataset.source ?? null,
        ops: ops as Record<string, OpResult>,
        losses,
        params: params ? (JSON.parse(params) as number[]) : null,
        cpu: cpu ? (JSON.parse(cpu) as CpuThreadsResult) : null,
      };
    });
    if (shown.state === 'error' && shown.reason === 'no-adapter') return skipOrFail(`the page found no WebGPU adapter: ${shown.text}`, () => ctx.skip());
    expect(shown.state, `the page failed: ${shown.text}\n${logs.join('\n')}`).toBe('done');

    // The CPU backend ran threaded in the page: isolated, workers up, tasks on them, and the
    // same numbers as in Node (within float32 rounding: the page may fuse multiply-adds).
    const threaded = shown.cpu!;
    expect(threaded.isolated).toBe(true);
    expect(threaded.threads).toBe(CPU_THREADS);
    expect(threaded.workers).toBeGreaterThanOrEqual(CPU_THREADS - 1);
    expect(threaded.workerTasks).toBeGreaterThan(0);
    expect(threaded.capability).toMatch(/^WASM_/);
    expectClose(threaded.rowSums, (await runCpuThreads()).rowSums, 1e-5, 1e-5, 'cpu threads');

    // It ran on the browser's WebGPU, not on the CPU and not on Dawn.
    expect(shown.device).toBe('webgpu:0');
    expect(shown.source).toBe('navigator.gpu');

    const cpu = await runPlayground('cpu');
    expect(cpu.device).toBe('cpu');
    const missing: string[] = [];
    for (const name of OP_NAMES) {
      const want = cpu.ops[name];
      const got = shown.ops[name];
      expect(got, `op ${name} is not on the page`).toBeDefined();
      if ('na' in want) throw new Error(`${name} failed on the CPU: ${want.na}`);
      if ('na' in got) {
        expect(MAY_BE_MISSING.has(name), `${name} failed on WebGPU: ${got.na}`).toBe(true);
        expect(got.na).toMatch(/no kernel for aten::\S+ on WebGPU/);
        missing.push(`${name} (${got.na})`);
        continue;
      }
      expect(got.shape, `${name}: shape`).toEqual(want.shape);
      expectClose(got.values, want.values, 2e-5, 1e-6, name);
    }
    if (missing.length) console.warn(`[playground] not on WebGPU yet, shown as n/a: ${missing.join('; ')}`);

    // One loss per step, shown as it went, the same trajectory as on the CPU, and learning.
    expect(shown.losses.map((l) => l.step)).toEqual([...Array(TRAIN_STEPS).keys()]);
    expectClose(
      shown.losses.map((l) => l.loss),
      cpu.training.losses,
      1e-4,
      1e-6,
      'loss',
    );
    expectClose(shown.params!, cpu.training.params, 1e-4, 1e-5, 'params');
    expect(cpu.training.losses[TRAIN_STEPS - 1]).toBeLessThan(cpu.training.losses[0] * 0.8);
    expect(logs.filter((l) => l.startsWith('pageerror') || l.startsWith('error'))).toEqual([]);
    console.log(`[playground] WebGPU vs CPU, largest differences: ${worst.join(', ')}`);
  });
});
