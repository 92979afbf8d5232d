/**
 * The two shapes of mm/bmm above SMALL_MACS: the tiled kernel (workgroup memory and
 * barriers, for GPUs) and the barrier-free register-tile kernel (software adapters; Note
 * [Barrier-free matmul on a software adapter]). Each case runs under both tunings, whatever
 * the adapter, against a plain JS matmul; both sum every element's products in the same
 * order, so their float32 results are identical too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bmm, mm, narrow, type Tensor } from '@torch-ts/core';
import { setKernelTuning } from '../src';
import { gpuTensor, readValues, webgpuReady } from './helpers';

const seq = (n: number, f: (i: number) => number): number[] => Array.from({ length: n }, (_, i) => f(i));

/** JS matmul of row-major [n, m] and [m, p] given as element getters, f32-rounded each step for float32. */
function ref(n: number, m: number, p: number, a: (r: number, k: number) => number, b: (k: number, c: number) => number, f32: boolean): number[] {
  const round = f32 ? Math.fround : (x: number) => x | 0;
  return seq(n * p, (q) => {
    const r = Math.floor(q / p), c = q % p;
    let s = 0;
    for (let k = 0; k < m; k++) s = f32 ? round(s + round(a(r, k) * b(k, c))) : (s + Math.imul(a(r, k), b(k, c))) | 0;
    return s;
  });
}

afterEach(() => setKernelTuning({}));

const shapes = [
  { name: 'register (software adapters)', barrierFree: true },
  { name: 'tiled (GPUs)', barrierFree: false },
];

describe.skipIf(!webgpuReady)('WebGPU mm/bmm above the small-product size', () => {
  for (const { name, barrierFree } of shapes) {
    describe(name, () => {
      it('float32 with edge tiles, a transposed operand and an MNIST-classifier shape', async () => {
        setKernelTuning({ barrierFree });
        const n = 70, m = 33, p = 65; // 150k multiply-adds, no dim a multiple of 4
        const av = seq(n * m, (i) => ((i * 7) % 13) - 6);
        const bv = seq(p * m, (i) => ((i * 5) % 11) - 5); // stored [p, m], used transposed
        const got = await readValues(mm(gpuTensor(av, 'float32', [n, m]), gpuTensor(bv, 'float32', [p, m]).t()));
        expect(got).toEqual(ref(n, m, p, (r, k) => av[r * m + k], (k, c) => bv[c * m + k], true));
        const xv = seq(7 * 1568, (i) => ((i * 3) % 17) / 8 - 1); // [7, 1568] @ [1568, 10]
        const wv = seq(10 * 1568, (i) => ((i * 11) % 19) / 16 - 0.5);
        const lin = await readValues(mm(gpuTensor(xv, 'float32', [7, 1568]), gpuTensor(wv, 'float32', [10, 1568]).t()));
        const want = ref(7, 1568, 10, (r, k) => xv[r * 1568 + k], (k, c) => wv[c * 1568 + k], true);
        lin.forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThanOrEqual(1e-4 * Math.max(1, Math.abs(want[i]))));
      });

      it('bmm over a strided batch view, and x @ x on one storage', async () => {
        setKernelTuning({ barrierFree });
        const z = 3, n = 40, m = 50, p = 37;
        const av = seq((z + 1) * n * m, (i) => ((i * 13) % 9) - 4);
        const bv = seq(z * m * p, (i) => ((i * 7) % 5) - 2);
        const a: Tensor = narrow(gpuTensor(av, 'float32', [z + 1, n, m]), 0, 1, z); // offset batch
        const got = await readValues(bmm(a, gpuTensor(bv, 'float32', [z, m, p])));
        const want = Array.from({ length: z }, (_, b) => ref(n, m, p, (r, k) => av[(b + 1) * n * m + r * m + k], (k, c) => bv[b * m * p + k * p + c], true)).flat();
        expect(got).toEqual(want);
        const xv = seq(70 * 70, (i) => (i % 5) - 2);
        const x = gpuTensor(xv, 'float32', [70, 70]);
        expect(await readValues(mm(x, x))).toEqual(ref(70, 70, 70, (r, k) => xv[r * 70 + k], (k, c) => xv[k * 70 + c], true));
      });

      it('int32 wraps as PyTorch int matmul does', async () => {
        setKernelTuning({ barrierFree });
        const n = 45, m = 41, p = 43;
        const av = seq(n * m, (i) => ((i * 7919) % 100_003) * 1000 - 50_000_000);
        const bv = seq(m * p, (i) => ((i * 104_729) % 65_537) - 32_768);
        const got = await readValues(mm(gpuTensor(av, 'int32', [n, m]), gpuTensor(bv, 'int32', [m, p])));
        expect(got).toEqual(ref(n, m, p, (r, k) => av[r * m + k], (k, c) => bv[k * p + c], false));
      });
    });
  }
});
