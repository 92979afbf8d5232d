/**
 * What the playground computes, as one function of the device: the page runs it on
 * `webgpu` (navigator.gpu) and shows the numbers; the test runs the very same code on `cpu`
 * in Node and compares. Inputs come from a small seeded generator (no RNG state shared with
 * any backend), so both runs start from identical float32 values.
 */
import * as torch from '@torch-ts/torch';

type Tensor = torch.Tensor;

/** Where the playground runs: the page on `webgpu`, the test's reference on `cpu`. */
export type DeviceName = 'cpu' | 'webgpu';

/** The result of one op: its shape and its elements (row-major), or why it could not run. */
export type OpResult = { readonly shape: number[]; readonly values: number[] } | { readonly na: string };

export interface TrainingResult {
  /** The loss before each SGD step. */
  readonly losses: number[];
  /** The parameters after the last step, flattened in the order w1, b1, w2, b2. */
  readonly params: number[];
}

export interface PlaygroundResults {
  /** The device the result tensors live on, as PyTorch prints it (`webgpu:0`, `cpu`). */
  readonly device: string;
  readonly ops: Record<string, OpResult>;
  readonly training: TrainingResult;
}

/** The ops the page shows, in order. */
export const OP_NAMES = ['mm', 'add', 'mul', 'exp', 'relu', 'sum', 'mean', 'amax', 'softmax', 'mlp-forward'] as const;
export type OpName = (typeof OP_NAMES)[number];

/** mulberry32: `n` floats in [lo, hi) from `seed`, rounded to float32. */
export function seeded(n: number, seed: number, lo = -1, hi = 1): number[] {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = lo + (((t ^ (t >>> 14)) >>> 0) / 4294967296) * (hi - lo);
  }
  return Array.from(out);
}

/** A float32 tensor with `values` and `shape`, on `device`. */
function input(values: number[], shape: number[], device: DeviceName): Tensor {
  const cpu = torch.tensor(Float32Array.from(values)).view(...shape);
  if (device === 'cpu') return cpu;
  const t = cpu.to(device);
  cpu.dispose();
  return t;
}

async function read(t: Tensor): Promise<OpResult> {
  const data = await t.data();
  return { shape: [...t.shape], values: Array.from(data, Number) };
}

function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Runs `f` and reads its result; an op this backend lacks yet is reported, not thrown. */
async function tryOp(f: () => Tensor): Promise<OpResult> {
  let t: Tensor | null = null;
  try {
    t = torch.tidy(f);
    return await read(t);
  } catch (e) {
    return { na: reason(e) };
  } finally {
    t?.dispose();
  }
}

export const TRAIN_STEPS = 20;
const LR = 0.1;
const HIDDEN = 8;

/**
 * A tiny MLP (2 -> 8 -> 1, ReLU) fitted by SGD to y = x0 * x1 + 0.5 * x0 on 16 points, the
 * loss (mean squared error) read at every step. The loss is written with pointwise ops
 * and `mean`, so it runs on every backend that has the basic ops.
 */
export async function train(device: DeviceName, onStep?: (step: number, loss: number) => void): Promise<TrainingResult> {
  const n = 16;
  const xs = seeded(n * 2, 7);
  const ys = Array.from({ length: n }, (_, i) => xs[2 * i] * xs[2 * i + 1] + 0.5 * xs[2 * i]);
  const x = input(xs, [n, 2], device);
  const y = input(ys, [n, 1], device);
  const params = [
    input(seeded(2 * HIDDEN, 11, -0.7, 0.7), [2, HIDDEN], device),
    input(seeded(HIDDEN, 12, -0.7, 0.7), [HIDDEN], device),
    input(seeded(HIDDEN, 13, -0.35, 0.35), [HIDDEN, 1], device),
    input(seeded(1, 14, -0.35, 0.35), [1], device),
  ].map((p) => p.requiresGrad_(true));
  const [w1, b1, w2, b2] = params;
  const opt = new torch.optim.SGD(params, { lr: LR });
  const losses: number[] = [];
  try {
    for (let step = 0; step < TRAIN_STEPS; step++) {
      const loss = torch.tidy(() => {
        const h = x.mm(w1).add(b1).relu();
        const pred = h.mm(w2).add(b2);
        const l = pred.sub(y).pow(2).mean();
        opt.zeroGrad();
        l.backward();
        opt.step();
        return l;
      });
      const v = Number(await loss.itemAsync());
      loss.dispose();
      losses.push(v);
      onStep?.(step, v);
    }
    const out: number[] = [];
    for (const p of params) out.push(...Array.from(await p.data(), Number));
    return { losses, params: out };
  } finally {
    for (const t of [x, y, ...params]) {
      t.grad?.dispose();
      t.dispose();
    }
  }
}

/** The ops of OP_NAMES on small seeded inputs. */
export async function ops(device: DeviceName): Promise<Record<OpName, OpResult>> {
  const a = input(seeded(4 * 3, 1), [4, 3], device);
  const b = input(seeded(3 * 5, 2), [3, 5], device);
  const row = input(seeded(3, 3), [3], device);
  const w = input(seeded(3 * 6, 4, -0.5, 0.5), [3, 6], device);
  const F = torch.nn.functional;
  try {
    return {
      mm: await tryOp(() => a.mm(b)),
      add: await tryOp(() => a.add(row)),
      mul: await tryOp(() => a.mul(a.t().mm(a).sum(0))),
      exp: await tryOp(() => a.exp()),
      relu: await tryOp(() => a.relu()),
      sum: await tryOp(() => a.sum(1)),
      mean: await tryOp(() => a.mean(0, { keepdim: true })),
      amax: await tryOp(() => a.amax(1)),
      softmax: await tryOp(() => F.softmax(a.mm(b), { dim: 1 })),
      'mlp-forward': await tryOp(() => a.mm(w).relu().mm(w.t()).exp().sum(1)),
    };
  } finally {
    for (const t of [a, b, row, w]) t.dispose();
  }
}

/** Everything the page shows, on `device`. */
export async function runPlayground(device: DeviceName, onStep?: (step: number, loss: number) => void): Promise<PlaygroundResults> {
  const probe = torch.zeros([1], { device });
  const where = String(probe.device);
  probe.dispose();
  const opResults = await ops(device);
  const training = await train(device, onStep);
  return { device: where, ops: opResults, training };
}

/** The CPU part of the page: a matmul large enough to split over the CPU thread pool. */
export interface CpuThreadsResult {
  /** Whether the page is cross-origin isolated (SharedArrayBuffer, so worker threads). */
  readonly isolated: boolean;
  readonly capability: string;
  readonly threads: number;
  readonly workers: number;
  /** Kernel tasks the workers ran during this computation. */
  readonly workerTasks: number;
  /** Row sums of tanh(a @ b), [192]. */
  readonly rowSums: number[];
}

export const CPU_THREADS = 2;

/** Runs a GEMM on the CPU backend with `CPU_THREADS` threads, until the workers have taken part. */
export async function runCpuThreads(): Promise<CpuThreadsResult> {
  torch.setNumThreads(CPU_THREADS);
  await torch.backends.cpu.threadsReady();
  const a = input(seeded(192 * 300, 11), [192, 300], 'cpu');
  const b = input(seeded(300 * 160, 12), [300, 160], 'cpu');
  const before = torch.backends.cpu.poolStats().workerTasks;
  let rowSums: number[] = [];
  // Workers take tasks whenever they are awake: a few repeats make sure one of them did.
  for (let i = 0; i < 50 && (i === 0 || torch.backends.cpu.poolStats().workerTasks === before); i++) {
    rowSums = torch.tidy(() => Array.from(a.matmul(b).tanh().sum(1).dataSync(), Number));
  }
  const stats = torch.backends.cpu.poolStats();
  return {
    // (undefined outside a browser: Node's workers need no isolation)
    isolated: globalThis.crossOriginIsolated ?? true,
    capability: torch.backends.cpu.getCpuCapability(),
    threads: torch.getNumThreads(),
    workers: stats.workers,
    workerTasks: stats.workerTasks - before,
    rowSums,
  };
}
