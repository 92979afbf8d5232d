// Timing of the row kernels (softmax, log-softmax, sums): not a test. Run from
// packages/kernels-cpu with
//   node --experimental-wasm-relaxed-simd --import tsx --conditions=@torch-ts/source scripts/softmax-bench.ts [threads]
// Prints the best of several runs (the machine is shared: the best is the least noisy).
import { CPU, TensorImpl } from '@torch-ts/core';
import { cpuImpls, setNumThreads, threadsReady } from '../src/index';

const threads = Number(process.argv[2] ?? 1);
setNumThreads(threads);
await threadsReady();

function filled(sizes: number[]): TensorImpl {
  const t = TensorImpl.empty('bench', sizes, 'float32', CPU);
  const a = t.storage.typed(Float32Array);
  for (let i = 0; i < a.length; i++) a[i] = Math.sin(i * 0.37) * 8;
  return t;
}

function best(fn: () => void, runs = 12): number {
  fn();
  let b = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    fn();
    b = Math.min(b, performance.now() - t0);
  }
  return b;
}

function report(name: string, ms: number, bytes: number): void {
  console.log(`${name.padEnd(36)} ${ms.toFixed(2).padStart(8)} ms  ${(bytes / ms / 1e6).toFixed(2).padStart(7)} GB/s`);
}

console.log(`threads ${threads}`);
{
  const x = filled([1024, 4096]);
  const out = TensorImpl.empty('bench', [1024, 4096], 'float32', CPU);
  report('softmax [1024,4096] dim -1', best(() => cpuImpls.softmax(out, x, 1024, 4096, 1, false)), 2 * x.numel * 4);
  report('log_softmax [1024,4096] dim -1', best(() => cpuImpls.softmax(out, x, 1024, 4096, 1, true)), 2 * x.numel * 4);
  report('softmax [64,256,256] dim 1', best(() => cpuImpls.softmax(out, x, 64, 256, 256, false)), 2 * x.numel * 4);
  const g = filled([1024, 4096]);
  const gi = TensorImpl.empty('bench', [1024, 4096], 'float32', CPU);
  report('softmax backward [1024,4096]', best(() => cpuImpls.softmaxBackward(gi, g, out, 1024, 4096, 1, false)), 3 * x.numel * 4);
  report('log_softmax backward [1024,4096]', best(() => cpuImpls.softmaxBackward(gi, g, out, 1024, 4096, 1, true)), 3 * x.numel * 4);
  report('softmax backward [64,256,256] dim 1', best(() => cpuImpls.softmaxBackward(gi, g, out, 64, 256, 256, false)), 3 * x.numel * 4);
}
{
  const x = filled([1 << 24]);
  const out = TensorImpl.empty('bench', [1], 'float32', CPU);
  report('sum 16M', best(() => cpuImpls.sum(out, x, [0])), x.numel * 4);
  const m = filled([4096, 4096]);
  const rows = TensorImpl.empty('bench', [4096, 1], 'float32', CPU);
  report('sum [4096,4096] dim -1', best(() => cpuImpls.sum(rows, m, [1])), m.numel * 4);
  const cols = TensorImpl.empty('bench', [1, 4096], 'float32', CPU);
  report('sum [4096,4096] dim 0', best(() => cpuImpls.sum(cols, m, [0])), m.numel * 4);
}
