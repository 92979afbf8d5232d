// The bench's CPU rows (apps/bench: add-4M, add-bcast, softmax, matmul-128) on one and two
// threads, interleaved in one process, each op call timed alone and its output read back and
// freed after, as the bench does. Prints min, p25 and median ms (on a shared machine the min
// is the steadiest A/B figure) and the load average. Not a test. Run in packages/kernels-cpu:
//   node --experimental-wasm-relaxed-simd --import tsx --conditions=@torch-ts/source scripts/threads-bench.ts [reps] [filter]
import { loadavg } from 'node:os';
import { CPU, Tensor, TensorImpl, add, matmul, softmax } from '@torch-ts/core';
import { setNumThreads, threadsReady } from '../src/index';

function filled(sizes: number[], seed: number, lo = -5, hi = 5): Tensor {
  const t = TensorImpl.empty('bench', sizes, 'float32', CPU);
  const a = t.storage.typed(Float32Array);
  for (let i = 0; i < a.length; i++) a[i] = lo + ((((i * 2654435761 + seed) >>> 0) % 100000) / 100000) * (hi - lo);
  return new Tensor(t);
}

const reps = Number(process.argv[2] ?? 40);
const filter = process.argv[3];
setNumThreads(2);
await threadsReady();
const N = 4 * 1024 * 1024;
const a = filled([N], 1);
const b = filled([N], 2);
const m = filled([2048, 2048], 3);
const row = filled([2048], 4);
const s = filled([1024, 4096], 5, -4, 4);
const g1 = filled([128, 128], 6, -1, 1);
const g2 = filled([128, 128], 7, -1, 1);
const ops: [string, () => Tensor][] = [
  ['matmul-128', () => matmul(g1, g2)],
  ['add-4M', () => add(a, b)],
  ['add-bcast', () => add(m, row)],
  ['softmax', () => softmax(s, { dim: -1 })],
];
const cases = ops.filter(([n]) => filter === undefined || n.includes(filter)).flatMap(([n, f]) => [1, 2].map((th) => ({ name: `${n} @${th}`, f, th, t: [] as number[] })));
let sink = 0;
for (let r = 0; r < reps; r++) {
  for (const c of cases) {
    setNumThreads(c.th);
    const t0 = performance.now();
    const y = c.f();
    c.t.push(performance.now() - t0);
    sink += (y.dataSync() as Float32Array)[0];
    y.dispose();
  }
}
console.log(`load ${loadavg()[0].toFixed(2)} (${sink > 0 ? '' : ' '}${reps} reps, the first dropped)`);
for (const c of cases) {
  const t = c.t.slice(1).sort((x, y) => x - y);
  console.log(`${c.name.padEnd(16)} min ${t[0].toFixed(3)}  p25 ${t[t.length >> 2].toFixed(3)}  med ${t[t.length >> 1].toFixed(3)} ms`);
}
