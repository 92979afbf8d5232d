// Timing of the normalization and average pooling kernels, the WebAssembly kernels against
// the JS loops they replace, in one process: not a test. Run from packages/kernels-cpu with
//   node --import tsx --conditions=@torch-ts/source scripts/norm-bench.ts [threads] [runs]
// Prints the median of `runs` timings of each (the machine may be shared: compare medians).
import { CPU, TensorImpl, type Pool2dGeometry } from '@torch-ts/core';
import { cpuImpls, setNumThreads, threadsReady } from '../src/index';
import { batchNormBackwardLoops, batchNormLoops, layerNormBackwardLoops, layerNormLoops } from '../src/kernels/normalization';
import { adaptiveAvgPool2dLoops, avgPool2dBackwardLoops, avgPool2dLoops } from '../src/kernels/pooling';

const threads = Number(process.argv[2] ?? 1);
const runs = Number(process.argv[3] ?? 9);
setNumThreads(threads);
await threadsReady();

function filled(sizes: number[], f = (i: number) => Math.sin(i * 0.37) * 2 + 0.5): TensorImpl {
  const t = TensorImpl.empty('bench', sizes, 'float32', CPU);
  const a = t.storage.typed(Float32Array);
  for (let i = 0; i < a.length; i++) a[i] = f(i);
  return t;
}
const empty = (sizes: number[]): TensorImpl => TensorImpl.empty('bench', sizes, 'float32', CPU);

function median(fn: () => void): number {
  fn();
  const t: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return t[t.length >> 1];
}

function compare(name: string, js: () => void, simd: () => void): void {
  // Interleaved, so that a burst of load from other work hits both alike.
  const a = median(js);
  const b = median(simd);
  console.log(`${name.padEnd(44)} js ${a.toFixed(2).padStart(8)} ms   wasm ${b.toFixed(2).padStart(8)} ms   ${(a / b).toFixed(1).padStart(5)}x`);
}

console.log(`threads ${threads}, median of ${runs}`);
{
  const [m, k] = [8192, 1024];
  const x = filled([m, k]);
  const w = filled([k], (i) => 1 + i / k);
  const b = filled([k], (i) => i / k - 0.5);
  const out = empty([m, k]);
  const mean = empty([m]);
  const rstd = empty([m]);
  compare('layer_norm [8192,1024] affine', () => layerNormLoops(out, mean, rstd, x, w, b, m, k, 1e-5), () => cpuImpls.layerNorm(out, mean, rstd, x, w, b, m, k, 1e-5));
  const g = filled([m, k], (i) => Math.cos(i * 0.11));
  const gi = empty([m, k]);
  const gw = empty([k]);
  const gb = empty([k]);
  compare('layer_norm backward [8192,1024]', () => layerNormBackwardLoops(gi, gw, gb, g, x, mean, rstd, w, m, k), () => cpuImpls.layerNormBackward(gi, gw, gb, g, x, mean, rstd, w, m, k));
}
{
  const [n, c, h] = [32, 64, 56];
  const s = h * h;
  const x = filled([n, c, s]);
  const w = filled([c], (i) => 1 + i / c);
  const b = filled([c], (i) => i / c - 0.5);
  const rm = filled([c], () => 0);
  const rv = filled([c], () => 1);
  const out = empty([n, c, s]);
  const mean = empty([c]);
  const invstd = empty([c]);
  for (const train of [true, false]) {
    compare(
      `batch_norm [32,64,56,56] ${train ? 'train' : 'eval'}`,
      () => batchNormLoops(out, mean, invstd, x, w, b, rm, rv, n, c, s, train, 0.1, 1e-5),
      () => cpuImpls.batchNorm(out, mean, invstd, x, w, b, rm, rv, n, c, s, train, 0.1, 1e-5),
    );
  }
  cpuImpls.batchNorm(out, mean, invstd, x, w, b, rm, rv, n, c, s, true, 0.1, 1e-5);
  const g = filled([n, c, s], (i) => Math.cos(i * 0.11));
  const gi = empty([n, c, s]);
  const gw = empty([c]);
  const gb = empty([c]);
  compare(
    'batch_norm backward [32,64,56,56] train',
    () => batchNormBackwardLoops(gi, gw, gb, g, x, w, mean, invstd, n, c, s, true),
    () => cpuImpls.batchNormBackward(gi, gw, gb, g, x, w, mean, invstd, n, c, s, true),
  );
  // group_norm g=32: core's layer norm of [n * 32, 2 * 3136] rows (the affine is mul/add after).
  const rows = n * 32;
  const k = (c / 32) * s;
  const gm = empty([rows]);
  const gr = empty([rows]);
  compare('group_norm [32,64,56,56] g=32 (stats + normalize)', () => layerNormLoops(out, gm, gr, x, null, null, rows, k, 1e-5), () => cpuImpls.layerNorm(out, gm, gr, x, null, null, rows, k, 1e-5));
}
{
  const [P, H, W] = [8 * 64, 56, 56];
  const g: Pool2dGeometry = { height: H, width: W, kernelH: 3, kernelW: 3, strideH: 2, strideW: 2, padH: 0, padW: 0, dilationH: 1, dilationW: 1, outH: 27, outW: 27 };
  const x = filled([P, H, W]);
  const out = empty([P, 27, 27]);
  compare('avg_pool2d k3 s2 [8,64,56,56]', () => avgPool2dLoops(out, x, g, true, null), () => cpuImpls.avgPool2d(out, x, g, true, null));
  const gi = empty([P, H, W]);
  compare('avg_pool2d backward k3 s2 [8,64,56,56]', () => avgPool2dBackwardLoops(gi, out, g, true, null), () => cpuImpls.avgPool2dBackward(gi, out, g, true, null));
  const a = empty([P, 7, 7]);
  compare('adaptive_avg_pool2d 56->7 [8,64,56,56]', () => adaptiveAvgPool2dLoops(a, x), () => cpuImpls.adaptiveAvgPool2d(a, x));
}
