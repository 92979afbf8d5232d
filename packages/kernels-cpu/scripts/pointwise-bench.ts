// Timing of the pointwise family as the bench measures it: the op into a fresh output
// (allocation included), median of many runs, on 4M float32 elements. Not a test.
// Run in packages/kernels-cpu:
//   node --experimental-wasm-relaxed-simd --import tsx --conditions=@torch-ts/source scripts/pointwise-bench.ts [threads]
import { CPU, Tensor, TensorImpl, add, div, exp, gelu, log, mul, relu, sigmoid, silu, tanh, erf, type DType } from '@torch-ts/core';
import { setNumThreads, threadsReady } from '../src/index';

function filled(dtype: DType, sizes: number[], seed: number, lo = -5, hi = 5): Tensor {
  const t = TensorImpl.empty('bench', sizes, dtype, CPU);
  const a = dtype === 'float64' ? t.storage.typed(Float64Array) : t.storage.typed(Float32Array);
  for (let i = 0; i < a.length; i++) a[i] = lo + ((((i * 2654435761 + seed) >>> 0) % 100000) / 100000) * (hi - lo);
  return new Tensor(t);
}

/** The median and the best of `reps` runs (the machine is shared: the best is the steadier). */
function timing(f: () => Tensor, reps: number): [number, number] {
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    const y = f();
    times.push(performance.now() - t0);
    y.dispose();
  }
  times.sort((x, y) => x - y);
  return [times[times.length >> 1], times[0]];
}

const threads = Number(process.argv[2] ?? 1);
const only = process.argv[3];
setNumThreads(threads);
await threadsReady();
const N = 4 * 1024 * 1024;
const a = filled('float32', [N], 1);
const b = filled('float32', [N], 2);
const pos = filled('float32', [N], 3, 1e-3, 100);
const m = filled('float32', [2048, 2048], 4);
const m2 = filled('float32', [2048, 2048], 5);
const row = filled('float32', [2048], 6);
const mT = new Tensor(m.impl.view([2048, 2048], [1, 2048], 0));
const a64 = filled('float64', [N], 7);
const b64 = filled('float64', [N], 8);

const cases: [string, () => Tensor, number][] = [
  ['add 4M+4M', () => add(a, b), 3 * 4 * N],
  ['add alpha 4M+4M', () => add(a, b, { alpha: 0.5 }), 3 * 4 * N],
  ['mul 4M*scalar', () => mul(a, 1.5), 2 * 4 * N],
  ['div 4M/4M', () => div(a, b), 3 * 4 * N],
  ['add [2048,2048]+[2048]', () => add(m, row), 2 * 4 * N],
  ['add a.T + b [2048,2048]', () => add(mT, m2), 3 * 4 * N],
  ['add f64 4M+4M', () => add(a64, b64), 3 * 8 * N],
  ['exp 4M', () => exp(a), 2 * 4 * N],
  ['log 4M', () => log(pos), 2 * 4 * N],
  ['tanh 4M', () => tanh(a), 2 * 4 * N],
  ['sigmoid 4M', () => sigmoid(a), 2 * 4 * N],
  ['silu 4M', () => silu(a), 2 * 4 * N],
  ['gelu 4M', () => gelu(a), 2 * 4 * N],
  ['gelu tanh 4M', () => gelu(a, { approximate: 'tanh' }), 2 * 4 * N],
  ['erf 4M', () => erf(a), 2 * 4 * N],
  ['relu 4M', () => relu(a), 2 * 4 * N],
];
console.log(`threads ${threads}`);
for (const [name, f, bytes] of cases) {
  if (only !== undefined && !name.includes(only)) continue;
  timing(f, 3);
  const [med, best] = timing(f, 21);
  const gbs = (ms: number): string => (bytes / ms / 1e6).toFixed(1).padStart(6);
  console.log(`${name.padEnd(28)} median ${med.toFixed(3).padStart(8)} ms ${gbs(med)} GB/s   best ${best.toFixed(3).padStart(8)} ms ${gbs(best)} GB/s`);
}
