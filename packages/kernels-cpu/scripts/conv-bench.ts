// Times conv2d forward and both backward products through core's dispatcher (a timing
// script, not a test): best of several runs, GFLOP/s counted as 2 * N * C_out * outH * outW * K.
// Run from packages/kernels-cpu:
//   node --experimental-wasm-relaxed-simd --import tsx --conditions=@torch-ts/source scripts/conv-bench.ts
// (without the flag: the plain-SIMD build). TORCH_TS_NUM_THREADS sets the threads (default 1 here).
import { conv2d, convolutionBackward, randn, type DType, type Tensor } from '@torch-ts/core';
import { setNumThreads, threadsReady, wasmLevel } from '../src/index';

interface Case {
  name: string;
  x: number[];
  w: number[];
  padding: number;
  stride?: number;
  groups?: number;
  dtype?: DType;
}

const cases: Case[] = [
  { name: 'resnet 64x56x56 3x3', x: [8, 64, 56, 56], w: [64, 64, 3, 3], padding: 1 },
  { name: 'apps/mnist conv1 1->16', x: [32, 1, 28, 28], w: [16, 1, 3, 3], padding: 1 },
  { name: 'apps/mnist conv2 16->32', x: [32, 16, 14, 14], w: [32, 16, 3, 3], padding: 1 },
  { name: 'mnist conv2 32->64 5x5', x: [64, 32, 14, 14], w: [64, 32, 5, 5], padding: 2 },
  { name: 'float64 32x28x28 3x3', x: [4, 32, 28, 28], w: [32, 32, 3, 3], padding: 1, dtype: 'float64' },
  { name: 'depthwise 64x56x56 3x3', x: [8, 64, 56, 56], w: [64, 1, 3, 3], padding: 1, groups: 64 },
];

function best(reps: number, f: () => void): number {
  f();
  let t = Infinity;
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    f();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
}

const threads = Number(process.env.TORCH_TS_NUM_THREADS ?? 1);
setNumThreads(threads);
await threadsReady();
const only = process.argv[2];
console.log(`wasm ${wasmLevel}, ${threads} thread(s)`);
for (const c of cases) {
  if (only && !c.name.includes(only)) continue;
  const dtype = c.dtype ?? 'float32';
  const x = randn(c.x, { dtype });
  const w = randn(c.w, { dtype });
  const b = randn([c.w[0]], { dtype });
  const o = { padding: c.padding, stride: c.stride ?? 1, groups: c.groups ?? 1 };
  let y: Tensor = conv2d(x, w, b, o);
  const flops = 2 * y.numel() * c.w[1] * c.w[2] * c.w[3];
  const reps = flops > 2e9 ? 3 : 8;
  const tf = best(reps, () => {
    y.dispose();
    y = conv2d(x, w, b, o);
  });
  const s = [o.stride, o.stride], p = [o.padding, o.padding];
  const back = (mask: [boolean, boolean, boolean]) => () => {
    for (const r of convolutionBackward(y, x, w, [c.w[0]], s, p, [1, 1], false, [0, 0], o.groups, mask)) r?.dispose();
  };
  const ti = best(reps, back([true, false, false]));
  const tw = best(reps, back([false, true, false]));
  const g = (t: number) => (flops / t / 1e6).toFixed(1).padStart(6);
  console.log(`${c.name.padEnd(26)} fwd ${tf.toFixed(1).padStart(7)} ms ${g(tf)} GF/s | dX ${ti.toFixed(1).padStart(7)} ms ${g(ti)} | dW ${tw.toFixed(1).padStart(7)} ms ${g(tw)}`);
  for (const t of [x, w, b, y]) t.dispose();
}
