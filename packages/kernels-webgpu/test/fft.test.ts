/**
 * The WebGPU FFT kernel (Note [WebGPU FFT: Stockham passes, Bluestein for large primes]),
 * called through the backend's impl table, against a float64 DFT in plain JS: every length
 * from 1 to 70 (smooth lengths through the workgroup-memory kernel, the others through
 * Bluestein), then the longer and awkward lengths (primes around powers of two, 1009 and
 * 4099, whose Bluestein transforms of 2048 and 16384 take the multi-pass path, and the
 * multi-pass lengths 1029 = 3 * 7^3, 2048, 2100 = 4 * 3 * 5^2 * 7, 4096, 65536: every radix's
 * pass kernel), forward and inverse, scales other than 1, and the
 * transform along the first dim, a middle dim and the last dim before the pair dim; views
 * at a storage offset. Also: the host tables against direct formulas, the error paths, a
 * loop that builds no table, compiles no pipeline and leaves the allocator's counters where
 * they were, and the table cache's bound.
 *
 * Tolerance: |got - want| <= C * eps32 * log2(n) * max|X| per line (max over the line's
 * exact outputs; log2 taken of max(n, 2)). An FFT's rounding error grows with the number of
 * passes, log_R(n), each pass adding a few float32 roundings of a sum of R products whose
 * size is bounded by max|X|-sized partial sums (Higham, Accuracy and Stability, 24.1: the
 * normwise error of radix-2 FFT is <= log2(n) * eta / (1 - log2(n) * eta) with eta = mu +
 * gamma_4 (sqrt(2) + mu), mu the twiddle error, about 5 eps for float32 tables). That is a
 * 2-norm bound; the elementwise error seen here stays well inside it. Bluestein runs two
 * transforms of length m < 4n and two extra complex products, roughly doubling the
 * constant. Measured on SwiftShader over every case below: at most 0.41 for the Stockham
 * path and 0.47 for Bluestein (the suite prints both at the end). C = 2 leaves a factor of 4
 * for hardware that contracts a*b + c into an FMA or orders its sums differently, yet fails
 * for a wrong twiddle, index or sign: those give errors of the order of max|X|, about 1e6
 * times the bound (a radix-4 or radix-3 butterfly with the inverse's sign fails at n = 3, 4).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DTypeError, Tensor, TensorImpl, TorchError, memoryStats as coreMemoryStats } from '@torch-ts/core';
import { memoryStats, queueCounters, synchronize } from '../src';
import { webgpuImpls } from '../src/impls';
import { bluesteinFilter, chirpTable, fftTableLimits, fftTableStats, hostFft, rootOfUnity } from '../src/kernels/fft-plans';
import { bluesteinLength, radices } from '../src/kernels/fft';
import { WEBGPU, gpuTensor, readValues, rng, webgpuReady } from './helpers';

const EPS = 2 ** -23;
const C = 2;
/** The largest error / (eps log2(n) max|X|) seen, by path: printed at the end, to keep C honest. */
const largest = { stockham: 0, bluestein: 0 };

/** float32 values in [-1, 1). */
function randoms(n: number, seed: number): Float64Array {
  const r = rng(seed);
  return Float64Array.from({ length: n }, () => Math.fround(r() * 2 - 1));
}

/** exp(sign 2 pi i r / d) as [re, im], the angle reduced in integers first (0 <= r < d). */
function root(r: number, d: number, sign: number): [number, number] {
  const a = (2 * Math.PI * r) / d;
  return [Math.cos(a), sign * Math.sin(a)];
}

/** The naive DFT of one line (interleaved), outputs `ks` only: X[k] = scale sum_j x[j] exp(sign 2 pi i jk/n). */
function naiveDft(x: Float64Array, n: number, inverse: boolean, scale: number, ks: readonly number[]): Float64Array {
  const sign = inverse ? 1 : -1;
  const out = new Float64Array(2 * ks.length);
  ks.forEach((k, o) => {
    let re = 0;
    let im = 0;
    for (let j = 0; j < n; j++) {
      const [c, s] = root((j * k) % n, n, sign);
      re += x[2 * j] * c - x[2 * j + 1] * s;
      im += x[2 * j] * s + x[2 * j + 1] * c;
    }
    out[2 * o] = scale * re;
    out[2 * o + 1] = scale * im;
  });
  return out;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Runs the impl on WebGPU over `values` of shape `sizes` (last dim 2) and reads the result. */
async function gpuFft(values: Float64Array, sizes: readonly number[], dim: number, inverse: boolean, scale: number): Promise<number[]> {
  const input = gpuTensor(Array.from(values), 'float32', sizes);
  const out = TensorImpl.empty('test', sizes, 'float32', WEBGPU);
  const result = new Tensor(out);
  try {
    webgpuImpls.fft(out, input.impl, dim, inverse, scale);
    return await readValues(result);
  } finally {
    input.dispose();
    result.dispose();
  }
}

/** The line (o, i) of a [outer, n, inner, 2] array, interleaved. */
function lineOf(a: ArrayLike<number>, n: number, inner: number, o: number, i: number): Float64Array {
  const x = new Float64Array(2 * n);
  for (let j = 0; j < n; j++) {
    const at = ((o * n + j) * inner + i) * 2;
    x[2 * j] = a[at];
    x[2 * j + 1] = a[at + 1];
  }
  return x;
}

/**
 * Checks every line of a transform along `dim` of `sizes` against the naive DFT (at `ks`, all
 * outputs by default) and returns the largest error / (eps log2(n) max|X|) seen.
 */
async function check(sizes: readonly number[], dim: number, inverse: boolean, scale: number, seed: number, ks?: readonly number[]): Promise<number> {
  const n = sizes[dim];
  const outer = sizes.slice(0, dim).reduce((a, b) => a * b, 1);
  const inner = sizes.slice(dim + 1, -1).reduce((a, b) => a * b, 1);
  const values = randoms(outer * n * inner * 2, seed);
  const got = await gpuFft(values, sizes, dim, inverse, scale);
  expect(got.length).toBe(values.length);
  const want = ks ?? range(n);
  let worst = 0;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const ref = naiveDft(lineOf(values, n, inner, o, i), n, inverse, scale, want);
      const line = lineOf(got, n, inner, o, i);
      let maxAbs = 0;
      for (let w = 0; w < want.length; w++) maxAbs = Math.max(maxAbs, Math.hypot(ref[2 * w], ref[2 * w + 1]));
      const unit = EPS * Math.log2(Math.max(n, 2)) * maxAbs;
      want.forEach((k, w) => {
        const err = Math.hypot(line[2 * k] - ref[2 * w], line[2 * k + 1] - ref[2 * w + 1]);
        const ratio = err / unit;
        if (!(ratio <= C)) {
          expect.fail(`n=${n} sizes [${sizes}] dim ${dim} ${inverse ? 'inverse' : 'forward'} line (${o}, ${i}) k=${k}: got (${line[2 * k]}, ${line[2 * k + 1]}), want (${ref[2 * w]}, ${ref[2 * w + 1]}), error ${ratio.toFixed(2)} eps log2(n) max|X|`);
        }
        worst = Math.max(worst, ratio);
      });
      const path = radices(n) === null ? 'bluestein' : 'stockham';
      largest[path] = Math.max(largest[path], worst);
    }
  }
  return worst;
}

describe('the FFT tables (host, float64)', () => {
  it('roots of unity folded to an octant match the direct formula', () => {
    for (const d of [1, 2, 3, 7, 8, 12, 97, 1000, 65536]) {
      for (const r of [0, 1, 2, Math.floor(d / 8), Math.floor(d / 4), Math.floor(d / 3), Math.floor(d / 2), d - 1].filter((x) => x < d)) {
        const [re, im] = rootOfUnity(r, d);
        const [c, s] = root(r, d, -1);
        expect(Math.abs(re - c)).toBeLessThan(1e-15);
        expect(Math.abs(im - s)).toBeLessThan(1e-15);
      }
    }
    // exact values at the axes and diagonals
    const exact = (r: number, d: number) => rootOfUnity(r, d).map((v) => v + 0); // (-0 + 0 is 0)
    expect(exact(0, 4)).toEqual([1, 0]);
    expect(exact(1, 4)).toEqual([0, -1]);
    expect(exact(2, 4)).toEqual([-1, 0]);
    expect(exact(3, 4)).toEqual([0, 1]);
  });

  it('the chirp reduces k^2 mod 2n exactly (BigInt check past 2^53)', () => {
    const n = 100_000_007;
    const c = chirpTable(8);
    for (let k = 0; k < 8; k++) {
      const [re, im] = root((k * k) % 16, 16, -1);
      expect(Math.abs(c[2 * k] - re)).toBeLessThan(1e-15);
      expect(Math.abs(c[2 * k + 1] - im)).toBeLessThan(1e-15);
    }
    // the stepping rule (k+1)^2 = k^2 + 2k + 1 reduced mod 2n agrees with BigInt at large k
    let sq = 0;
    const twoN = 2 * n;
    for (let k = 0; k < 3; k++) sq = (sq + ((2 * k + 1) % twoN)) % twoN;
    expect(sq).toBe(9);
    const k = n - 1;
    expect(Number((BigInt(k) * BigInt(k)) % BigInt(twoN))).toBe(((k % twoN) * (k % twoN)) % twoN); // (k^2 < 2^57: checked by BigInt)
  });

  it('the host float64 FFT is the naive DFT', () => {
    for (const m of [1, 2, 8, 64, 1024]) {
      const x = randoms(2 * m, m);
      const y = Float64Array.from(x);
      hostFft(y, m);
      const ref = naiveDft(x, m, false, 1, range(m));
      for (let i = 0; i < 2 * m; i++) expect(Math.abs(y[i] - ref[i])).toBeLessThan(1e-12 * Math.max(1, m));
    }
  });

  it("Bluestein's filter is the DFT of conj(chirp) wrapped around, over m", () => {
    for (const [n, inverse] of [[5, false], [11, true], [13, false]] as const) {
      const m = bluesteinLength(n);
      expect(m).toBeGreaterThanOrEqual(2 * n - 1);
      expect(m / 2).toBeLessThan(2 * n - 1);
      const c = chirpTable(n);
      const b = new Float64Array(2 * m);
      const s = inverse ? 1 : -1;
      for (let k = 0; k < n; k++) {
        for (const at of k === 0 ? [0] : [k, m - k]) {
          b[2 * at] = c[2 * k];
          b[2 * at + 1] = s * c[2 * k + 1];
        }
      }
      const ref = naiveDft(b, m, false, 1 / m, range(m));
      const got = bluesteinFilter(n, m, inverse);
      for (let i = 0; i < 2 * m; i++) expect(Math.abs(got[i] - ref[i])).toBeLessThan(1e-14);
    }
  });

  it('radices: 4 first, then 2, 3, 5, 7; null with a larger prime factor', () => {
    expect(radices(1)).toEqual([]);
    expect(radices(64)).toEqual([4, 4, 4]);
    expect(radices(2048)).toEqual([4, 4, 4, 4, 4, 2]);
    expect(radices(1000)).toEqual([4, 2, 5, 5, 5]);
    expect(radices(2 * 3 * 5 * 7)).toEqual([2, 3, 5, 7]);
    expect(radices(11)).toBeNull();
    expect(radices(2 * 97)).toBeNull();
  });
});

describe.skipIf(!webgpuReady)('the WebGPU FFT kernel', { timeout: 600_000 }, () => {
  afterAll(() => {
    console.log(`[fft] largest error / (eps log2(n) max|X|): Stockham ${largest.stockham.toFixed(3)}, Bluestein ${largest.bluestein.toFixed(3)} (bound C = ${C})`);
  });

  it('every n from 1 to 70, forward and inverse, along a middle dim of [2, n, 3, 2]', async () => {
    let worst = 0;
    for (let n = 1; n <= 70; n++) {
      worst = Math.max(worst, await check([2, n, 3, 2], 1, false, 1, n));
      worst = Math.max(worst, await check([2, n, 3, 2], 1, true, 1 / n, 1000 + n));
    }
    console.log(`[fft] n <= 70: largest error ${worst.toFixed(3)} eps log2(n) max|X| (bound ${C})`);
  });

  it.each([97, 127, 128, 255, 256, 257, 1000, 1009, 1029, 2048, 2100, 4096, 4099])('n = %i, forward and inverse, scale != 1, batched', async (n) => {
    await check([2, n, 2], 1, false, 1, n);
    await check([2, n, 2], 1, true, 1 / n, n + 1);
    await check([1, n, 2], 1, false, 0.5, n + 2);
  });

  it('n = 65536 (eight radix-4 passes), forward and inverse: every output against a float64 FFT, 64 of them against the naive DFT', async () => {
    const n = 65536;
    const ks = range(64).map((i) => (i * 1031 + 7) % n);
    for (const inverse of [false, true]) {
      const scale = inverse ? 1 / n : 1;
      const values = randoms(2 * n, 77 + Number(inverse));
      const got = await gpuFft(values, [n, 2], 0, inverse, scale);
      // the float64 radix-2 FFT (checked against the naive DFT above); the inverse through conj
      const ref = Float64Array.from(values);
      if (inverse) for (let j = 0; j < n; j++) ref[2 * j + 1] = -ref[2 * j + 1];
      hostFft(ref, n);
      for (let k = 0; k < n; k++) {
        ref[2 * k] *= scale;
        ref[2 * k + 1] *= inverse ? -scale : scale;
      }
      const naive = naiveDft(values, n, inverse, scale, ks);
      ks.forEach((k, w) => {
        expect(Math.abs(ref[2 * k] - naive[2 * w])).toBeLessThan(1e-9 * scale * n);
        expect(Math.abs(ref[2 * k + 1] - naive[2 * w + 1])).toBeLessThan(1e-9 * scale * n);
      });
      let maxAbs = 0;
      for (let k = 0; k < n; k++) maxAbs = Math.max(maxAbs, Math.hypot(ref[2 * k], ref[2 * k + 1]));
      const bound = C * EPS * Math.log2(n) * maxAbs;
      let worst = 0;
      for (let k = 0; k < n; k++) worst = Math.max(worst, Math.hypot(got[2 * k] - ref[2 * k], got[2 * k + 1] - ref[2 * k + 1]));
      expect(worst).toBeLessThanOrEqual(bound);
    }
  });

  it('along the first dim, a middle dim and the last dim before the pair dim', async () => {
    for (const n of [6, 13, 64, 97, 1024, 2048, 1009]) {
      await check([n, 3, 2], 0, false, 1, n);
      await check([2, n, 3, 2], 1, true, 1 / n, n + 5);
      await check([2, 3, n, 2], 2, false, 2, n + 9);
    }
  });

  it('many short lines: several lines per workgroup and a partial last workgroup', async () => {
    await check([5, 16, 41, 2], 1, false, 1, 3);
    await check([700, 3, 2], 0, true, 1, 4); // n = 700 is smooth: 4, 5, 5, 7
    await check([37, 11, 2], 1, false, 1, 5);
  });

  it('reads and writes contiguous views at a storage offset (all three paths)', async () => {
    for (const n of [12, 2048, 13]) {
      const sizes = [2, n, 2];
      const numel = 4 * n;
      const values = randoms(numel, n + 40);
      // input at offset 6 of a larger buffer; out at offset 10 of another, whose head must stay
      const big = gpuTensor([0, 0, 0, 0, 0, 0, ...values, 0, 0], 'float32', [numel + 8]);
      const outBig = gpuTensor(Array.from({ length: numel + 12 }, (_, i) => 1000 + i), 'float32', [numel + 12]);
      const input = big.impl.view(sizes, [2 * n, 2, 1], 6);
      const out = outBig.impl.view(sizes, [2 * n, 2, 1], 10);
      try {
        webgpuImpls.fft(out, input, 1, true, 0.25);
        const all = await readValues(outBig);
        expect(all.slice(0, 10)).toEqual(range(10).map((i) => 1000 + i));
        expect(all.slice(10 + numel)).toEqual([1010 + numel, 1011 + numel]);
        for (let o = 0; o < 2; o++) {
          const ref = naiveDft(values.subarray(2 * n * o, 2 * n * (o + 1)), n, true, 0.25, range(n));
          let maxAbs = 0;
          for (let k = 0; k < n; k++) maxAbs = Math.max(maxAbs, Math.hypot(ref[2 * k], ref[2 * k + 1]));
          for (let i = 0; i < 2 * n; i++) expect(Math.abs(all[10 + 2 * n * o + i] - ref[i])).toBeLessThanOrEqual(C * EPS * Math.log2(n) * maxAbs);
        }
      } finally {
        input.release();
        out.release();
        big.dispose();
        outBig.dispose();
      }
    }
  });

  it('a zero-line batch does nothing', async () => {
    const out = TensorImpl.empty('test', [0, 8, 2], 'float32', WEBGPU);
    const input = TensorImpl.empty('test', [0, 8, 2], 'float32', WEBGPU);
    webgpuImpls.fft(out, input, 1, false, 1);
    out.release();
    input.release();
  });

  it('complex128 (float64 pairs) and other dtypes raise a DTypeError naming the op and the dtype', () => {
    for (const dtype of ['float64', 'float16'] as const) {
      const x = TensorImpl.empty('test', [4, 2], dtype, WEBGPU);
      const out = TensorImpl.empty('test', [4, 2], dtype, WEBGPU);
      try {
        expect(() => webgpuImpls.fft(out, x, 0, false, 1)).toThrow(DTypeError);
        expect(() => webgpuImpls.fft(out, x, 0, false, 1)).toThrow(new RegExp(`^_fft_c2c: .*'${dtype}' on webgpu`));
      } finally {
        x.release();
        out.release();
      }
    }
  });

  it('raises on a tensor that is not (re, im) pairs or a dim that is the pair dim', () => {
    const x = TensorImpl.empty('test', [4, 3], 'float32', WEBGPU);
    const y = TensorImpl.empty('test', [4, 2], 'float32', WEBGPU);
    try {
      expect(() => webgpuImpls.fft(x, x, 0, false, 1)).toThrow(TorchError);
      expect(() => webgpuImpls.fft(x, x, 0, false, 1)).toThrow(/^_fft_c2c: .*sizes \[4, 3\]/);
      expect(() => webgpuImpls.fft(y, y, 1, false, 1)).toThrow(/^_fft_c2c: .*dim 1/);
    } finally {
      x.release();
      y.release();
    }
  });

  it('raises, before any work, where u32 indexing would overflow (the tensor, or Bluestein\'s scratch)', () => {
    // views far past their small storage: the impl must refuse them from their sizes alone
    const base = TensorImpl.empty('test', [8, 2], 'float32', WEBGPU);
    const huge = (sizes: number[]) => base.view(sizes, [sizes[1] * 2, 2, 1], 0);
    const big = huge([2 ** 20, 2053, 2]); // 2^32 floats and more
    const blue = huge([2 ** 19, 2053, 2]); // 2^31 floats, but 2053 is prime: a [2^19, 8192] scratch
    try {
      expect(() => webgpuImpls.fft(big, big, 1, false, 1)).toThrow(/^_fft_c2c: a tensor of sizes \[1048576, 2053, 2\] is past WebGPU's 32-bit indexing/);
      expect(() => webgpuImpls.fft(blue, blue, 1, false, 1)).toThrow(/^_fft_c2c: 524288 lines of length 2053 need a Bluestein scratch of 524288 x 8192 complex values/);
    } finally {
      big.release();
      blue.release();
      base.release();
    }
  });

  it('repeated calls reuse the cached tables and pipelines: memory, tables and pipelines stay flat', async () => {
    const shapes: [number[], number][] = [
      [[3, 60, 2], 1], // one dispatch in workgroup memory
      [[2, 2048, 2], 1], // passes with a scratch
      [[2, 1009, 2, 2], 1], // Bluestein
    ];
    const inputs = shapes.map(([s], i) => gpuTensor(Array.from(randoms(s.reduce((a, b) => a * b, 1), i)), 'float32', s));
    const run = () => {
      for (let i = 0; i < shapes.length; i++) {
        const [s, dim] = shapes[i];
        for (const inverse of [false, true]) {
          const out = TensorImpl.empty('test', s, 'float32', WEBGPU);
          webgpuImpls.fft(out, inputs[i].impl, dim, inverse, 1);
          out.release();
        }
      }
    };
    run();
    const a0 = memoryStats();
    const c0 = coreMemoryStats('webgpu');
    const t0 = fftTableStats();
    const p0 = queueCounters().pipelinesCompiled;
    for (let k = 0; k < 10; k++) run();
    const a1 = memoryStats();
    const c1 = coreMemoryStats('webgpu');
    expect(a1.allocatedBytes).toBe(a0.allocatedBytes);
    expect(a1.reservedBytes).toBe(a0.reservedBytes);
    expect(c1.liveTensors).toBe(c0.liveTensors);
    expect(c1.liveStorages).toBe(c0.liveStorages);
    expect(fftTableStats()).toEqual(t0);
    expect(queueCounters().pipelinesCompiled).toBe(p0);
    // and the last of those calls still computed the right thing
    const got = await gpuFft(randoms(2 * 1009, 9), [1009, 2], 0, false, 1);
    const ref = naiveDft(randoms(2 * 1009, 9), 1009, false, 1, range(1009));
    let maxAbs = 0;
    for (let k = 0; k < 1009; k++) maxAbs = Math.max(maxAbs, Math.hypot(ref[2 * k], ref[2 * k + 1]));
    for (let i = 0; i < 2 * 1009; i++) expect(Math.abs(got[i] - ref[i])).toBeLessThanOrEqual(C * EPS * Math.log2(1009) * maxAbs);
    for (const t of inputs) t.dispose();
  });

  it('a full table cache drops its least recently used tables (never the running call\'s) and stays correct', async () => {
    const saved = fftTableLimits.maxBytes;
    // room for about one length's tables: each call below evicts the previous length's
    fftTableLimits.maxBytes = 50_000;
    try {
      const d0 = fftTableStats().dropped;
      for (const n of [1009, 997, 2048, 1009]) {
        // Bluestein's three tables for 1009 / 997 (chirp, filter, roots of m = 2048) take
        // 8 (n + 2048 + 2048) bytes: all three must survive their own call
        await check([2, n, 2], 1, false, 1, n);
      }
      expect(fftTableStats().dropped).toBeGreaterThan(d0);
      expect(fftTableStats().bytes).toBeLessThanOrEqual(50_000);
      await synchronize(); // no WebGPU error from a destroyed table still in use
    } finally {
      fftTableLimits.maxBytes = saved;
    }
  });
});
