import { getDefaultDtype, isComplexType, isFloatingType, toComplexType, type DType } from '../dtype';
import { DTypeError, ShapeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { normalizeDim } from '../views';
import { viewAsComplexOf, viewAsRealOf } from './complex-views';
import { to } from './copy';
import { arange, zeros } from './factories';
import { FftNorm, conjPairs, fftC2cPairs, fftC2rPairs, fftR2cPairs, realPairs } from './fft';
import { front } from './front';
import { mul } from './generated/table-ops';
import { cat } from './join';
import { torchTypeName } from './meta-utils';
import { roll } from './reorder';
import { narrow } from './shape-ops';

/**
 * torch.fft: PyTorch 1.13's front ends (SpectralOps.cpp) over the pairs primitive of Note
 * [torch.fft on one complex-to-complex impl] (fft.ts), with its checks in its order and
 * words, each message prefixed with the function (`fft.rfft: Invalid number of data points
 * (0) specified`). They are the `torch.fft` namespace of the facade (`torch.fft.rfft(x, { n,
 * dim, norm })`). Every transform works on pairs (a real tensor with a trailing dim of 2)
 * and views the result as complex at the end; n / s padding and trimming happen on the
 * pairs, so complex inputs need no complex kernels.
 */

const FFT = { method: false, namespaces: ['fft'] } as const;
const NORMS = { choices: { norm: ['backward', 'ortho', 'forward'] } } as const;

// ---- shared checks ----

/** PyTorch's norm_from_string: the normalization of a transform in direction `forward`. */
function normMode(op: string, norm: string | null | undefined, forward: boolean): FftNorm {
  if (norm == null || norm === 'backward') return forward ? FftNorm.None : FftNorm.ByN;
  if (norm === 'forward') return forward ? FftNorm.ByN : FftNorm.None;
  if (norm === 'ortho') return FftNorm.ByRootN;
  throw new TorchError(`${op}: Invalid normalization mode: "${norm}"`);
}

/**
 * PyTorch's promote_type_fft: complex stays, integers and bool become the default float
 * dtype, and (as 1.13's CPU) only float32 / float64 transform: "Unsupported dtype Half".
 */
function promotedDtype(op: string, dtype: DType, requireComplex: boolean): DType {
  if (isComplexType(dtype)) return dtype;
  const d = isFloatingType(dtype) ? dtype : getDefaultDtype();
  if (d !== 'float32' && d !== 'float64') throw new DTypeError(`${op}: Unsupported dtype ${torchTypeName(d)}`);
  return requireComplex ? toComplexType(d) : d;
}

/** A real input promoted to float32 / float64. */
function promoteReal(op: string, x: Tensor): Tensor {
  return to(x, promotedDtype(op, x.dtype, false));
}

/** The pairs of `x` promoted to complex (a real input's imaginary parts are zeros). */
function complexPairs(op: string, x: Tensor): Tensor {
  const d = promotedDtype(op, x.dtype, true);
  if (isComplexType(x.dtype)) return viewAsRealOf(x);
  return realPairs(to(x, d === 'complex64' ? 'float32' : 'float64'));
}

/** A complex result from pairs. */
function complexOf(p: Tensor): Tensor {
  return viewAsComplexOf(p.contiguous());
}

function checkPoints(op: string, n: number): void {
  if (n < 1) throw new TorchError(`${op}: Invalid number of data points (${n}) specified`);
}

/** PyTorch's resize_fft_input: each of `dims` narrowed, or zero-padded at its end, to `sizes`. */
function resized(t: Tensor, dims: readonly number[], sizes: readonly number[]): Tensor {
  for (let i = 0; i < dims.length; i++) {
    const d = dims[i];
    const cur = t.shape[d];
    if (sizes[i] < cur) t = narrow(t, d, 0, sizes[i]);
    else if (sizes[i] > cur) {
      const shape = [...t.shape];
      shape[d] = sizes[i] - cur;
      t = cat([t, zeros(shape, { dtype: t.dtype, device: t.device })], d);
    }
  }
  return t;
}

/** maybe_wrap_dim as 1.13's: a 0-dim tensor takes dims -1 and 0. */
function wrapDim(op: string, dim: number, ndim: number): number {
  return normalizeDim(op, dim, ndim);
}

/** The length along `d` of a possibly 0-dim input (0 there, as PyTorch reads it). */
const sizeAt = (x: Tensor, d: number): number => (x.dim() === 0 ? 0 : x.shape[d]);

// ---- one-dimensional transforms ----

/** PyTorch's fft_c2c (fft and ifft of a complex input). */
function c2c(op: string, x: Tensor, n: number | null | undefined, dim: number, norm: string | null | undefined, forward: boolean): Tensor {
  const d = wrapDim(op, dim, x.dim());
  const len = n ?? sizeAt(x, d);
  checkPoints(op, len);
  const p = resized(complexPairs(op, x), [d], [len]);
  return complexOf(fftC2cPairs(p, [d], normMode(op, norm, forward), forward));
}

/** PyTorch's fft_r2c (fft and ifft of a real input, rfft, ihfft): the inverse direction is the conjugate of the forward one. */
function r2c(op: string, name: string, x: Tensor, n: number | null | undefined, dim: number, norm: string | null | undefined, forward: boolean, onesided: boolean): Tensor {
  if (isComplexType(x.dtype)) throw new DTypeError(`${op}: ${name} expects a real input tensor, but got ${torchTypeName(x.dtype)}`);
  const input = promoteReal(op, x);
  const d = wrapDim(op, dim, input.dim());
  const len = n ?? sizeAt(input, d);
  checkPoints(op, len);
  const r = resized(input, [d], [len]);
  const p = fftR2cPairs(r, [d], normMode(op, norm, forward), onesided);
  return complexOf(forward ? p : conjPairs(p));
}

/** PyTorch's fft_c2r (irfft, and hfft of the conjugate). */
function c2r(op: string, x: Tensor, n: number | null | undefined, dim: number, norm: string | null | undefined, forward: boolean): Tensor {
  let p = complexPairs(op, x);
  const d = wrapDim(op, dim, x.dim());
  const len = n ?? 2 * (sizeAt(x, d) - 1);
  checkPoints(op, len);
  if (n != null) p = resized(p, [d], [Math.floor(len / 2) + 1]);
  const mode = normMode(op, norm, forward);
  if (forward) p = conjPairs(p);
  return fftC2rPairs(p, [d], mode, len).contiguous();
}

const ONE_D = 'Tensor self, int? n=None, int dim=-1, str? norm=None';

/** The one-dimensional discrete Fourier transform along `dim` (n points: trimmed or zero-padded). */
export const fftFft = front(`fft_fft(${ONE_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'fft' }).run(([self, n, dim, norm]): Tensor =>
  isComplexType(self.dtype) ? c2c('fft.fft', self, n, dim, norm, true) : r2c('fft.fft', 'fft', self, n, dim, norm, true, false),
);

/** The inverse of `fft` (scaled by 1 / n with the default norm). */
export const fftIfft = front(`fft_ifft(${ONE_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'ifft' }).run(([self, n, dim, norm]): Tensor =>
  isComplexType(self.dtype) ? c2c('fft.ifft', self, n, dim, norm, false) : r2c('fft.ifft', 'ifft', self, n, dim, norm, false, false),
);

/** The transform of a real signal: the n / 2 + 1 non-negative frequencies. */
export const fftRfft = front(`fft_rfft(${ONE_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'rfft' }).run(([self, n, dim, norm]): Tensor =>
  r2c('fft.rfft', 'rfft', self, n, dim, norm, true, true),
);

/** The inverse of `rfft`: n real points (default 2 (m - 1)) from m Hermitian bins. */
export const fftIrfft = front(`fft_irfft(${ONE_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'irfft' }).run(([self, n, dim, norm]): Tensor =>
  c2r('fft.irfft', self, n, dim, norm, false),
);

/** The transform of a Hermitian-symmetric signal given by its first half: n real points. */
export const fftHfft = front(`fft_hfft(${ONE_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'hfft' }).run(([self, n, dim, norm]): Tensor =>
  c2r('fft.hfft', self, n, dim, norm, true),
);

/** The inverse of `hfft`: the n / 2 + 1 first bins of the inverse transform of a real signal. */
export const fftIhfft = front(`fft_ihfft(${ONE_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'ihfft' }).run(([self, n, dim, norm]): Tensor =>
  r2c('fft.ihfft', 'ihfft', self, n, dim, norm, false, true),
);

// ---- n-dimensional transforms ----

interface ShapeAndDims {
  readonly shape: number[];
  readonly dims: number[];
}

/** PyTorch's canonicalize_fft_shape_and_dim_args. */
function shapeAndDims(op: string, x: Tensor, s: readonly number[] | null | undefined, dim: readonly number[] | null | undefined): ShapeAndDims {
  const ndim = x.dim();
  let dims: number[] = [];
  if (dim != null) {
    dims = dim.map((d) => normalizeDim(op, d, ndim));
    if (new Set(dims).size !== dims.length) throw new TorchError(`${op}: FFT dims must be unique`);
  }
  let shape: number[];
  if (s != null) {
    if (dim != null && dim.length !== s.length) throw new ShapeError(`${op}: When given, dim and shape arguments must have the same length`);
    if (s.length > ndim) throw new ShapeError(`${op}: Got shape with ${s.length} values but input tensor only has ${ndim} dimensions.`);
    if (dim == null) dims = s.map((_, i) => ndim - s.length + i);
    shape = s.map((n, i) => (n === -1 ? x.shape[dims[i]] : n));
  } else if (dim == null) {
    dims = x.shape.map((_, i) => i);
    shape = [...x.shape];
  } else shape = dims.map((d) => x.shape[d]);
  for (const n of shape) checkPoints(op, n);
  return { shape, dims };
}

/** PyTorch's canonicalize_fft_c2r_shape_and_dim_args: also the output length of the last dim. */
function c2rShapeAndDims(op: string, name: string, x: Tensor, s: readonly number[] | null | undefined, dim: readonly number[] | null | undefined): ShapeAndDims & { last: number } {
  const desc = shapeAndDims(op, x, s, dim);
  if (desc.shape.length === 0) throw new TorchError(`${op}: ${name} must transform at least one axis`);
  const last = s == null || s[s.length - 1] === -1 ? 2 * (x.shape[desc.dims[desc.dims.length - 1]] - 1) : desc.shape[desc.shape.length - 1];
  checkPoints(op, last);
  desc.shape[desc.shape.length - 1] = Math.floor(last / 2) + 1;
  return { ...desc, last };
}

function fftnOf(op: string, x: Tensor, s: readonly number[] | null | undefined, dim: readonly number[] | null | undefined, norm: string | null | undefined, forward: boolean): Tensor {
  const { shape, dims } = shapeAndDims(op, x, s, dim);
  const p = resized(complexPairs(op, x), dims, shape);
  const mode = normMode(op, norm, forward);
  if (dims.length === 0) throw new TorchError(`${op}: ndim must be >= 1`);
  return complexOf(fftC2cPairs(p, dims, mode, forward));
}

function rfftnOf(op: string, x: Tensor, s: readonly number[] | null | undefined, dim: readonly number[] | null | undefined, norm: string | null | undefined): Tensor {
  if (isComplexType(x.dtype)) throw new DTypeError(`${op}: rfftn expects a real-valued input tensor, but got ${torchTypeName(x.dtype)}`);
  const { shape, dims } = shapeAndDims(op, x, s, dim);
  if (shape.length === 0) throw new TorchError(`${op}: rfftn must transform at least one axis`);
  const r = resized(promoteReal(op, x), dims, shape);
  return complexOf(fftR2cPairs(r, dims, normMode(op, norm, true), true));
}

function irfftnOf(op: string, x: Tensor, s: readonly number[] | null | undefined, dim: readonly number[] | null | undefined, norm: string | null | undefined): Tensor {
  const { shape, dims, last } = c2rShapeAndDims(op, 'irfftn', x, s, dim);
  const p = resized(complexPairs(op, x), dims, shape);
  return fftC2rPairs(p, dims, normMode(op, norm, false), last).contiguous();
}

function hfftnOf(op: string, x: Tensor, s: readonly number[] | null | undefined, dim: readonly number[] | null | undefined, norm: string | null | undefined): Tensor {
  const { shape, dims, last } = c2rShapeAndDims(op, 'hfftn', x, s, dim);
  let p = resized(complexPairs(op, x), dims, shape);
  const mode = normMode(op, norm, true);
  if (dims.length > 1) p = fftC2cPairs(p, dims.slice(0, -1), mode, true);
  return fftC2rPairs(conjPairs(p), dims.slice(-1), mode, last).contiguous();
}

function ihfftnOf(op: string, x: Tensor, s: readonly number[] | null | undefined, dim: readonly number[] | null | undefined, norm: string | null | undefined): Tensor {
  // (1.13's words: its ihfftn asserts a floating input rather than naming the op)
  if (isComplexType(x.dtype)) throw new DTypeError(`${op}: Expected self.is_floating_point() to be true, but got false.`);
  const { shape, dims } = shapeAndDims(op, x, s, dim);
  if (shape.length === 0) throw new TorchError(`${op}: ihfftn must transform at least one axis`);
  const r = resized(promoteReal(op, x), dims, shape);
  const mode = normMode(op, norm, false);
  let p = conjPairs(fftR2cPairs(r, dims.slice(-1), mode, true));
  if (dims.length > 1) p = fftC2cPairs(p, dims.slice(0, -1), mode, false);
  return complexOf(p);
}

const N_D = 'Tensor self, int[1]? s=None, int[1]? dim=None, str? norm=None';
const TWO_D = 'Tensor self, int[1]? s=None, int[1] dim=[-2,-1], str? norm=None';

/** The n-dimensional transform over `dim` (default: all, or the last len(s)), sizes `s`. */
export const fftFftn = front(`fft_fftn(${N_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'fftn' }).run(([self, s, dim, norm]): Tensor => fftnOf('fft.fftn', self, s, dim, norm, true));
/** The inverse of `fftn`. */
export const fftIfftn = front(`fft_ifftn(${N_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'ifftn' }).run(([self, s, dim, norm]): Tensor => fftnOf('fft.ifftn', self, s, dim, norm, false));
/** The n-dimensional transform of a real input, onesided in the last of `dim`. */
export const fftRfftn = front(`fft_rfftn(${N_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'rfftn' }).run(([self, s, dim, norm]): Tensor => rfftnOf('fft.rfftn', self, s, dim, norm));
/** The inverse of `rfftn`: a real output, `s[-1]` (default 2 (m - 1)) points in the last dim. */
export const fftIrfftn = front(`fft_irfftn(${N_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'irfftn' }).run(([self, s, dim, norm]): Tensor => irfftnOf('fft.irfftn', self, s, dim, norm));
/** The n-dimensional transform of a Hermitian-symmetric signal given by its half: a real output. */
export const fftHfftn = front(`fft_hfftn(${N_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'hfftn' }).run(([self, s, dim, norm]): Tensor => hfftnOf('fft.hfftn', self, s, dim, norm));
/** The inverse of `hfftn`. */
export const fftIhfftn = front(`fft_ihfftn(${N_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'ihfftn' }).run(([self, s, dim, norm]): Tensor => ihfftnOf('fft.ihfftn', self, s, dim, norm));

/** `fftn` over the last two dims by default. */
export const fftFft2 = front(`fft_fft2(${TWO_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'fft2' }).run(([self, s, dim, norm]): Tensor => fftnOf('fft.fft2', self, s, dim, norm, true));
/** `ifftn` over the last two dims by default. */
export const fftIfft2 = front(`fft_ifft2(${TWO_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'ifft2' }).run(([self, s, dim, norm]): Tensor => fftnOf('fft.ifft2', self, s, dim, norm, false));
/** `rfftn` over the last two dims by default. */
export const fftRfft2 = front(`fft_rfft2(${TWO_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'rfft2' }).run(([self, s, dim, norm]): Tensor => rfftnOf('fft.rfft2', self, s, dim, norm));
/** `irfftn` over the last two dims by default. */
export const fftIrfft2 = front(`fft_irfft2(${TWO_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'irfft2' }).run(([self, s, dim, norm]): Tensor => irfftnOf('fft.irfft2', self, s, dim, norm));
/** `hfftn` over the last two dims by default. */
export const fftHfft2 = front(`fft_hfft2(${TWO_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'hfft2' }).run(([self, s, dim, norm]): Tensor => hfftnOf('fft.hfft2', self, s, dim, norm));
/** `ihfftn` over the last two dims by default. */
export const fftIhfft2 = front(`fft_ihfft2(${TWO_D}) -> Tensor`, { ...FFT, ...NORMS, exportAs: 'ihfft2' }).run(([self, s, dim, norm]): Tensor => ihfftnOf('fft.ihfft2', self, s, dim, norm));

// ---- helpers ----

const FREQ_KEYWORDS = "*, ScalarType? dtype=None, Layout layout='strided', Device? device=None, bool pin_memory=False, bool requires_grad=False";
const FREQ = { ...FFT, unsupported: ['layout', 'pinMemory'] } as const;

function freqDtype(op: string, dtype: DType | null | undefined): DType {
  const d = dtype ?? getDefaultDtype();
  if (!isFloatingType(d) && !isComplexType(d)) throw new DTypeError(`${op}: ${op.slice(4)} requires a floating point or complex dtype`);
  // (1.13 admits complex dtypes here, and then its arange has no complex kernel)
  if (isComplexType(d)) throw new DTypeError(`${op}: "arange_cpu" not implemented for '${torchTypeName(d)}'`);
  return d;
}

/** The sample frequencies of an n-point transform with sample spacing d: [0, 1, ..., -(n // 2), ..., -1] / (d n). */
export const fftFftfreq = front(`fft_fftfreq(int n, float d=1.0, ${FREQ_KEYWORDS}) -> Tensor`, { ...FREQ, exportAs: 'fftfreq' }).run(
  ([n, d, dtype, , device, , requiresGrad]): Tensor => {
    const dt = freqDtype('fft.fftfreq', dtype);
    const k = arange(n, { dtype: dt, device });
    const shifted = cat([narrow(k, 0, 0, Math.floor((n + 1) / 2)), arange(-Math.floor(n / 2), 0, { dtype: dt, device })]);
    const r = mul(shifted, 1 / (n * d));
    return requiresGrad ? r.requiresGrad_(true) : r;
  },
);

/** The sample frequencies of `rfft`: [0, 1, ..., n // 2] / (d n). */
export const fftRfftfreq = front(`fft_rfftfreq(int n, float d=1.0, ${FREQ_KEYWORDS}) -> Tensor`, { ...FREQ, exportAs: 'rfftfreq' }).run(
  ([n, d, dtype, , device, , requiresGrad]): Tensor => {
    const dt = freqDtype('fft.rfftfreq', dtype);
    const r = mul(arange(Math.floor(n / 2) + 1, { dtype: dt, device }), 1 / (n * d));
    return requiresGrad ? r.requiresGrad_(true) : r;
  },
);

function shiftOf(op: string, x: Tensor, dim: readonly number[] | null | undefined, inverse: boolean): Tensor {
  const dims = dim == null ? x.shape.map((_, i) => i) : dim.map((d) => normalizeDim(op, d, x.dim()));
  if (dims.length === 0) throw new TorchError(`${op}: \`shifts\` required`);
  const shifts = dims.map((d) => Math.floor((x.shape[d] + (inverse ? 1 : 0)) / 2));
  // (a complex input rolls as its pairs: the leading dims are the same)
  return isComplexType(x.dtype) ? complexOf(roll(viewAsRealOf(x), shifts, dims)) : roll(x, shifts, dims);
}

/** The zero frequency moved to the centre of `dim` (default: all dims). */
export const fftFftshift = front('fft_fftshift(Tensor self, int[1]? dim=None) -> Tensor', { ...FFT, exportAs: 'fftshift' }).run(([self, dim]): Tensor => shiftOf('fft.fftshift', self, dim, false));
/** The inverse of `fftshift`. */
export const fftIfftshift = front('fft_ifftshift(Tensor self, int[1]? dim=None) -> Tensor', { ...FFT, exportAs: 'ifftshift' }).run(([self, dim]): Tensor => shiftOf('fft.ifftshift', self, dim, true));

