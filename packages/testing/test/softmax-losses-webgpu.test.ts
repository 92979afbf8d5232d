/**
 * Training on WebGPU (issue 5: what MNIST needs): the softmax and loss kernels' backward on
 * WebGPU against CPU in float32, for option combinations the gradcheck samples of
 * grads-webgpu-suite.ts do not cover (weights with mean reductions, label smoothing over
 * spatial dims, pos_weight, a softmax over an inner dim, non-contiguous inputs), and a tiny
 * MLP (linear -> relu -> linear -> crossEntropy) trained for a few SGD steps on both devices:
 * losses, gradients and updated parameters must agree.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

const F = torch.nn.functional;
type Device = 'cpu' | 'webgpu';

/** mulberry32: the same pseudo-random values on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function values(n: number, seed: number, lo = -1, hi = 1): Float32Array {
  const r = rng(seed);
  return Float32Array.from({ length: n }, () => lo + (hi - lo) * r());
}

async function host(t: Tensor): Promise<number[]> {
  const c = await t.toAsync('cpu');
  return Array.from(c.contiguous().dataSync() as Float32Array);
}

function expectClose(gpu: number[], cpu: number[], what: string): void {
  expect(gpu.length, what).toBe(cpu.length);
  let scale = 1;
  for (const v of cpu) if (Number.isFinite(v)) scale = Math.max(scale, Math.abs(v));
  const bad: string[] = [];
  cpu.forEach((x, i) => {
    const y = gpu[i];
    if (Number.isNaN(x) && Number.isNaN(y)) return;
    if (!(Math.abs(x - y) <= 1e-4 * Math.abs(x) + 1e-5 * scale)) bad.push(`${what}[${i}]: cpu ${x}, webgpu ${y}`);
  });
  expect(bad.slice(0, 5)).toEqual([]);
}

interface Case {
  readonly name: string;
  /** Float inputs (gradients wanted) as [values, shape]. */
  readonly inputs: readonly [Float32Array, number[]][];
  /** Inputs without gradients (targets, weights), made on `device`. */
  readonly extra?: (device: Device) => Tensor[];
  readonly fn: (xs: Tensor[], extra: Tensor[]) => Tensor;
}

/** The loss value and the input gradients of `sum(fn(...) * w)` (w fixed pseudo-random), on `device`. */
async function run(c: Case, device: Device): Promise<number[][]> {
  const xs = c.inputs.map(([v, shape]) => torch.tensor(v).reshape(shape).to(device).requiresGrad_(true));
  const extra = c.extra?.(device) ?? [];
  const out = c.fn(xs, extra);
  const w = torch.tensor(values(out.numel(), 99)).reshape(out.shape).to(device);
  const loss = torch.mul(out, w).sum();
  loss.backward();
  const result = [await host(out)];
  for (const x of xs) result.push(await host(x.grad!));
  return result;
}

const long = (v: number[], device: Device, shape?: number[]) => {
  const t = torch.tensor(v.map(BigInt), { dtype: 'int64' });
  return (shape ? t.reshape(shape) : t).to(device);
};
const f32 = (v: number[], device: Device) => torch.tensor(Float32Array.from(v)).to(device);

const CASES: Case[] = [
  {
    name: 'nllLoss: weights, an ignored target, mean (the backward divides by total_weight)',
    inputs: [[values(6 * 5, 1, -3, 0), [6, 5]]],
    extra: (d) => [long([0, 4, -100, 2, 2, 1], d), f32([0.5, 1, 2, 1.5, 0.25], d)],
    fn: ([x], [t, w]) => F.nllLoss(x, t, { weight: w }),
  },
  {
    name: 'nllLoss: spatial dims, sum, ignore_index 1',
    inputs: [[values(2 * 3 * 4, 2, -3, 0), [2, 3, 2, 2]]],
    extra: (d) => [long([0, 1, 2, 1, 2, 2, 0, 1], d, [2, 2, 2])],
    fn: ([x], [t]) => F.nllLoss(x, t, { reduction: 'sum', ignoreIndex: 1 }),
  },
  {
    name: 'crossEntropy: weights and label smoothing over spatial dims',
    inputs: [[values(2 * 4 * 3, 3, -2, 2), [2, 4, 3]]],
    extra: (d) => [long([0, 3, 1, 2, 2, 0], d, [2, 3]), f32([1, 0.5, 2, 1], d)],
    fn: ([x], [t, w]) => F.crossEntropy(x, t, { weight: w, labelSmoothing: 0.2 }),
  },
  {
    name: 'crossEntropy: class probabilities, reduction none',
    inputs: [
      [values(3 * 4, 4, -2, 2), [3, 4]],
      [values(3 * 4, 5, 0, 0.5), [3, 4]],
    ],
    fn: ([x, p]) => F.crossEntropy(x, p, { reduction: 'none' }),
  },
  {
    name: 'softmax and logSoftmax over an inner dim of a 3-D input',
    inputs: [[values(2 * 5 * 3, 6, -4, 4), [2, 5, 3]]],
    fn: ([x]) => torch.add(F.softmax(x, 1), F.logSoftmax(x, 0)),
  },
  {
    name: 'mseLoss and smoothL1Loss (beta 0.3) of non-contiguous inputs, reduction none',
    inputs: [
      [values(4 * 3, 7, -1, 1), [4, 3]],
      [values(3 * 4, 8, -1, 1), [3, 4]],
    ],
    fn: ([a, b]) => torch.add(F.mseLoss(a, b.t(), { reduction: 'none' }), F.smoothL1Loss(a.t(), b, { beta: 0.3, reduction: 'none' }).t()),
  },
  {
    name: 'binaryCrossEntropy with a broadcast weight, sum',
    inputs: [[values(3 * 4, 9, 0.05, 0.95), [3, 4]]],
    extra: (d) => [f32(Array.from(values(12, 10, 0, 1)), d).reshape([3, 4]), f32([0.5, 1, 2, 1], d)],
    fn: ([p], [y, w]) => F.binaryCrossEntropy(p, y, { weight: w, reduction: 'sum' }),
  },
  {
    name: 'binaryCrossEntropyWithLogits with weight and pos_weight, mean',
    inputs: [[values(3 * 4, 11, -6, 6), [3, 4]]],
    extra: (d) => [f32(Array.from(values(12, 12, 0, 1)), d).reshape([3, 4]), f32([1, 2, 0.5], d).reshape([3, 1]), f32([3, 1, 0.5, 2], d)],
    fn: ([x], [y, w, pw]) => F.binaryCrossEntropyWithLogits(x, y, { weight: w, posWeight: pw }),
  },
];

const ready = await torch.webgpu.init();
describe.skipIf(!ready)('softmax and losses: backward on webgpu equals CPU (float32)', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const cpu = await run(c, 'cpu');
      const gpu = await run(c, 'webgpu');
      cpu.forEach((v, i) => expectClose(gpu[i], v, i === 0 ? 'output' : `grad ${i - 1}`));
    });
  }

  it('a tiny MLP (linear -> relu -> linear -> crossEntropy) trains the same on webgpu as on CPU', async () => {
    const [n, din, dh, dout] = [16, 12, 10, 7];
    const x = values(n * din, 20, -1, 1);
    const labels = Array.from({ length: n }, (_, i) => (i * 5) % dout);
    const init = [values(dh * din, 21, -0.3, 0.3), values(dh, 22, -0.1, 0.1), values(dout * dh, 23, -0.3, 0.3), values(dout, 24, -0.1, 0.1)];
    const shapes = [[dh, din], [dh], [dout, dh], [dout]];
    const lr = 0.5;
    const train = async (device: Device) => {
      const params = init.map((v, i) => torch.tensor(v).reshape(shapes[i]).to(device).requiresGrad_(true));
      const xs = torch.tensor(x).reshape([n, din]).to(device);
      const ys = long(labels, device);
      const trace: number[][] = [];
      for (let step = 0; step < 3; step++) {
        const [w1, b1, w2, b2] = params;
        const logits = F.linear(F.relu(F.linear(xs, w1, b1)), w2, b2);
        const loss = F.crossEntropy(logits, ys);
        loss.backward();
        trace.push(await host(loss));
        for (const p of params) trace.push(await host(p.grad!));
        torch.noGrad(() => {
          for (const p of params) {
            p.sub_(p.grad!.mul(lr));
            p.grad!.zero_();
          }
        });
      }
      for (const p of params) trace.push(await host(p));
      return trace;
    };
    const cpu = await train('cpu');
    const gpu = await train('webgpu');
    // the loss goes down, and every loss, gradient and parameter matches
    expect(cpu[5][0]).toBeLessThan(cpu[0][0]);
    cpu.forEach((v, i) => expectClose(gpu[i], v, `trace ${i}`));
  });
});
