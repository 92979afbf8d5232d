/// <reference types="@webgpu/types" />
import { TensorImpl, TorchError, type BackendImpls } from '@torch-ts/core';
import { commandQueue, type CommandQueue } from '../runtime/queue';
import { bindingOf, f32Word, grid } from './launch';
import { requireF32 } from './softmax';
import { beginTableUse, bluesteinFilter, chirpTable, rootsTable, table } from './fft-plans';
import { FFT_BLUESTEIN, FFT_PASS, FFT_SHARED, FFT_WORDS, PASS_WG, SHARED_MAX, SHARED_STAGES } from './fft-wgsl';

/**
 * Note [WebGPU FFT: Stockham passes, Bluestein for large primes]
 * core's `fft` impl (core/src/ops/fft-impls.ts) on WebGPU: one DFT of length n along `dim`
 * of complex float32 values stored as (re, im) pairs, for every line of the batch, all of
 * it enqueued (nothing is read back, so it returns at once like every WebGPU op).
 *  - Lengths whose prime factors are all 2, 3, 5 or 7 ("smooth") run the Stockham
 *    autosort FFT (Govindaraju et al., "High performance discrete Fourier transforms on
 *    graphics processors", 2008), mixed radix: radix 4 while 4 divides what is left, then
 *    2, 3, 5, 7. Each pass reads one array and writes another in sorted order, so there is
 *    no bit reversal; a pass is its radix's kernel (the butterfly unrolled, its constants
 *    w_R^e written into the source) with the stride Ns as a parameter (fft-wgsl.ts,
 *    FFT_PASS). A line of n <= 1024 runs every pass in ONE dispatch in workgroup memory
 *    (FFT_SHARED: two 8 KiB arrays, barriers between passes, as many lines per workgroup
 *    as fit, so short transforms of a big batch fill the device); longer lines take one
 *    dispatch per pass over all lines, ping-ponging between `out` and one scratch of out's
 *    shape from the caching allocator, arranged so that the last pass lands in `out`. The
 *    input is only read. Where lines interleave (a dim before the last, inner > 1),
 *    neighbouring invocations take neighbouring lines, which are neighbours in memory.
 *    Future work, for speed on long lines: a four-step split so that all passes but one
 *    run in workgroup memory, and radix 8 (65536 takes eight passes over memory today).
 *  - Other lengths (a prime factor of 11 or more) run Bluestein's chirp z: with
 *    c[k] = exp(-pi i k^2 / n) (conjugated for the inverse), X[k] = c[k] sum_j (x[j] c[j])
 *    conj(c[k - j]), a convolution done by power-of-two FFTs of length m >= 2n - 1: chirp
 *    multiply and zero pad into a [lines, m] scratch, forward FFT, multiply by the
 *    precomputed DFT of the filter (divided by m, so the unnormalised inverse needs no
 *    scaling), inverse FFT, chirp multiply and scale into `out` (FFT_BLUESTEIN's three
 *    modes around the two transforms; two scratches of [lines, m, 2]).
 *  - Every root of unity comes from a float32 table computed on the host in float64 with
 *    the angle reduced exactly in integers (Note [WebGPU FFT tables], fft-plans.ts): no WGSL
 *    sin/cos, and no twiddle by repeated multiplication. The scale is fused into the last
 *    pass (or Bluestein's last step). No float division happens in WGSL (only u32 index
 *    arithmetic), so Note [Division on WebGPU] does not arise.
 *  - Index arithmetic is u32: a tensor (or Bluestein scratch) of 2^32 floats or more raises.
 * Accuracy is that of any FFT in float32: each output's error is a small multiple of
 * eps * log2(n) * max|X| (test/fft.test.ts checks every n up to 70 and larger smooth,
 * prime and power-of-two lengths against a float64 DFT). Every kernel is compiled once;
 * a new length builds only its tables.
 */

/** The name errors start with: PyTorch's primitive for complex-to-complex transforms. */
const OP = '_fft_c2c';

/** Where a line lives: element j of line l at base + (((l / inner) * len + j) * inner + l % inner) * 2. */
interface Loc {
  readonly t: TensorImpl;
  readonly base: number;
  readonly len: number;
  readonly inner: number;
}

/** The radices of a smooth n (4 first, then 2, 3, 5, 7), or null when n has another prime factor. */
export function radices(n: number): number[] | null {
  const r: number[] = [];
  let left = n;
  while (left % 4 === 0) {
    r.push(4);
    left /= 4;
  }
  for (const p of [2, 3, 5, 7]) {
    while (left % p === 0) {
      r.push(p);
      left /= p;
    }
  }
  return left === 1 ? r : null;
}

/** Dispatches of a smooth transform of length n: one in workgroup memory, else one per radix. */
function passCount(rad: readonly number[], n: number): number {
  return n <= SHARED_MAX ? 1 : rad.length;
}

/**
 * Transforms every line of `src` (length n, smooth) into `a` or `b`: dispatch i writes `a`
 * when i is even, `b` when odd, and reads `src` first, then what the previous one wrote (so
 * `src` may be `b`, never `a`). Returns where the result is.
 */
function transform(q: CommandQueue, stamp: number, n: number, lines: number, src: Loc, a: Loc, b: Loc | null, inverse: boolean, scale: number): Loc {
  const rad = radices(n)!;
  const tw = table(q, `roots:${n}`, stamp, () => rootsTable(n));
  const twBinding: GPUBufferBinding = { buffer: tw, offset: 0, size: tw.size };
  const params = new Uint32Array(FFT_WORDS);
  if (n <= SHARED_MAX) {
    if (rad.length > SHARED_STAGES) throw new TorchError(`${OP}: internal error: ${rad.length} radix stages for n = ${n}`);
    const perGroup = Math.floor(SHARED_MAX / n);
    params.set([lines, n, perGroup, rad.length, inverse ? 1 : 0, f32Word(scale), src.base, src.len, src.inner, a.base, a.len, a.inner]);
    params.set(rad, 12);
    params[20] = src.inner > 1 || a.inner > 1 ? 1 : 0;
    q.dispatch(FFT_SHARED, [bindingOf(src.t), bindingOf(a.t), twBinding], params, grid(OP, Math.ceil(lines / perGroup), 1));
    return a;
  }
  let from = src;
  let ns = 1;
  rad.forEach((r, i) => {
    const to = i % 2 === 0 ? a : b!;
    const last = i === rad.length - 1;
    const count = lines * (n / r);
    const lineFastest = to.inner > 1 ? 1 : 0;
    params.set([count, n, r, ns, n / r, from.base, from.len, from.inner, to.base, to.len, to.inner, inverse ? 1 : 0, f32Word(last ? scale : 1), lines, lineFastest]);
    q.dispatch(FFT_PASS[r], [bindingOf(from.t), bindingOf(to.t), twBinding], params, grid(OP, count, PASS_WG));
    from = to;
    ns *= r;
  });
  return from;
}

/** One of Bluestein's pointwise steps (FFT_BLUESTEIN): `span` elements of each line, from `src` into `dst`. */
function bluesteinStep(q: CommandQueue, mode: 0 | 1 | 2, tab: GPUBuffer, n: number, m: number, lines: number, span: number, src: Loc, dst: Loc, inverse: boolean, scale: number): void {
  const params = new Uint32Array(FFT_WORDS);
  const count = lines * span;
  params.set([count, mode, n, m, inverse ? 1 : 0, f32Word(scale), src.base, src.len, src.inner, dst.base, dst.len, dst.inner, span]);
  q.dispatch(FFT_BLUESTEIN, [bindingOf(src.t), bindingOf(dst.t), { buffer: tab, offset: 0, size: tab.size }], params, grid(OP, count, PASS_WG));
}

/** The power-of-two length of Bluestein's convolution for length n: the least m >= 2n - 1. */
export function bluesteinLength(n: number): number {
  let m = 1;
  while (m < 2 * n - 1) m *= 2;
  return m;
}

function bluestein(q: CommandQueue, stamp: number, n: number, lines: number, input: Loc, out: Loc, inverse: boolean, scale: number): void {
  const m = bluesteinLength(n);
  if (lines * m * 2 >= 2 ** 32) throw new TorchError(`${OP}: ${lines} lines of length ${n} need a Bluestein scratch of ${lines} x ${m} complex values, past WebGPU's 32-bit indexing`);
  const chirp = table(q, `chirp:${n}`, stamp, () => chirpTable(n));
  const filter = table(q, `bluestein:${n}:${inverse ? 'inverse' : 'forward'}`, stamp, () => bluesteinFilter(n, m, inverse));
  const s1 = TensorImpl.empty(OP, [lines, m, 2], 'float32', out.t.device);
  try {
    const s2 = TensorImpl.empty(OP, [lines, m, 2], 'float32', out.t.device);
    try {
      const loc1: Loc = { t: s1, base: s1.storageOffset, len: m, inner: 1 };
      const loc2: Loc = { t: s2, base: s2.storageOffset, len: m, inner: 1 };
      bluesteinStep(q, 0, chirp, n, m, lines, m, input, loc1, inverse, 1);
      const spectrum = transform(q, stamp, m, lines, loc1, loc2, loc1, false, 1);
      const other = spectrum === loc1 ? loc2 : loc1;
      bluesteinStep(q, 1, filter, n, m, lines, m, spectrum, other, inverse, 1);
      const conv = transform(q, stamp, m, lines, other, spectrum, other, true, 1);
      bluesteinStep(q, 2, chirp, n, m, lines, n, conv, out, inverse, scale);
    } finally {
      s2.release(); // the dispatches are recorded (Note [Block reuse in submission order])
    }
  } finally {
    s1.release();
  }
}

export const fftImpls: Pick<BackendImpls, 'fft'> = {
  fft: (out, input, dim, inverse, scale) => {
    requireF32(OP, input);
    requireF32(OP, out);
    const sizes = input.sizes;
    const nd = sizes.length;
    if (nd < 2 || sizes[nd - 1] !== 2 || dim < 0 || dim >= nd - 1 || !input.isContiguous || !out.isContiguous) {
      throw new TorchError(`${OP}: internal error: expected contiguous (re, im) pairs [..., 2] and a dim before the last, got sizes [${sizes.join(', ')}] and dim ${dim}`);
    }
    const n = sizes[dim];
    const outer = sizes.slice(0, dim).reduce((x, y) => x * y, 1);
    const inner = sizes.slice(dim + 1, nd - 1).reduce((x, y) => x * y, 1);
    const lines = outer * inner;
    if (lines === 0 || n === 0) return;
    if (input.numel >= 2 ** 32) throw new TorchError(`${OP}: a tensor of sizes [${sizes.join(', ')}] is past WebGPU's 32-bit indexing`);
    const q = commandQueue(OP);
    const stamp = beginTableUse();
    const src: Loc = { t: input, base: input.storageOffset, len: n, inner };
    const dst: Loc = { t: out, base: out.storageOffset, len: n, inner };
    const rad = radices(n);
    if (rad === null) {
      bluestein(q, stamp, n, lines, src, dst, inverse, scale);
      return;
    }
    const passes = passCount(rad, n);
    if (passes === 1) {
      transform(q, stamp, n, lines, src, dst, null, inverse, scale);
      return;
    }
    const spare = TensorImpl.empty(OP, sizes, 'float32', out.device);
    try {
      const other: Loc = { t: spare, base: spare.storageOffset, len: n, inner };
      // the last dispatch, number passes - 1, writes `a` when passes is odd
      const [a, b] = passes % 2 === 1 ? [dst, other] : [other, dst];
      transform(q, stamp, n, lines, src, a, b, inverse, scale);
    } finally {
      spare.release();
    }
  },
};
