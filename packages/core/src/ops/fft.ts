import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import { TensorImpl } from '../tensor/tensor-impl';
import type { Tensor } from '../tensor/tensor';
import { callFunctional, unwrapTensor } from './call';
import { full, zerosLike } from './factories';
import { mul } from './generated/table-ops';
import { cat, stack } from './join';
import { freshCopy } from './linalg-solve';
import { torchTypeName } from './meta-utils';
import { defineStructured, implOf } from './registry';
import { flip } from './reorder';
import { narrow } from './shape-ops';
import { selectOf } from './views';

/**
 * Note [torch.fft on one complex-to-complex impl]
 * torch.fft rests on one primitive operator, `_fft_c2c_pairs(self, dim, normalization,
 * forward)`: the multi-dimensional discrete Fourier transform of complex values stored as
 * pairs, on a REAL float32 / float64 tensor whose trailing dim of 2 holds (re, im) (core
 * Note [Complex tensors are pairs of reals]). Its meta validates, hands the backend fresh
 * contiguous tensors and runs the backend's one impl, `fft(out, input, dim, inverse,
 * scale)` (FftImpls), once per transformed dim, the normalization applied by the last
 * pass. Because the primitive is a real op, autograd records a real op; the complex front
 * ends wrap it with view_as_real / view_as_complex as the kernels of ops/complex.ts do, and
 * gradients reach a complex input through view_as_real's derivative (Note [Complex
 * gradients]).
 *
 * Its derivative is the same op with !forward and the same normalization: the DFT is
 * complex-linear, and as a real-linear map on the pairs its adjoint is the conjugate
 * transpose, which is the transform in the other direction with the same scale. That is
 * PyTorch's `_fft_c2c` backward.
 *
 * PyTorch's other two transforms are composites of the primitive and real ops, so their
 * gradients follow with no formula of their own:
 *  - `_fft_r2c` (real to complex): the pairs (x, 0), c2c forward, and for a onesided
 *    result the last dim narrowed to n / 2 + 1. Autograd gives narrow's zero padding, the
 *    adjoint transform and the real part: PyTorch's fft_r2c_backward.
 *  - `_fft_c2r` (Hermitian to real, the inverse direction): c2c over every dim but the
 *    last, then along the last the Hermitian extension to n points (X[k] for k <= n / 2,
 *    conj(X[n - k]) above), c2c and the real part. The real part of the transform is
 *    blind to the imaginary parts of the DC bin and (n even) the Nyquist bin, as
 *    PyTorch's (pocketfft's) c2r, which never reads them; and the gradient of each bin
 *    mirrored twice is twice the transform's, as in PyTorch's fft_c2r_backward.
 * Integer and bool inputs are promoted to the default float dtype by the front ends (fft-front.ts);
 * float16 / bfloat16 are refused as PyTorch 1.13's CPU does ("Unsupported dtype Half").
 */

/** PyTorch's fft_norm_mode: none, 1 / sqrt(n) and 1 / n (the primitive's `normalization`). */
export const FftNorm = { None: 0, ByRootN: 1, ByN: 2 } as const;
export type FftNorm = (typeof FftNorm)[keyof typeof FftNorm];

export const FFT_C2C_PAIRS = defineStructured('_fft_c2c_pairs(Tensor self, int[] dim, int normalization, bool forward) -> Tensor', ([x, dims, normalization, forward], b) => {
  const op = '_fft_c2c_pairs';
  if (x.dtype !== 'float32' && x.dtype !== 'float64') {
    throw new DTypeError(`${op}: expected a float or double tensor of (real, imag) pairs, but got ${torchTypeName(x.dtype)}`);
  }
  if (x.dim < 1 || x.sizes[x.dim - 1] !== 2) throw new ShapeError(`${op}: expected a last dimension of size 2 holding (real, imag), but got shape ${fmtShape(x.sizes)}`);
  const complexDims = x.dim - 1;
  const seen = new Set<number>();
  for (const d of dims) {
    if (!Number.isInteger(d) || d < 0 || d >= complexDims || seen.has(d)) throw new TorchError(`${op}: invalid dims ${fmtShape(dims)} for ${complexDims} complex dimensions`);
    seen.add(d);
  }
  if (normalization !== FftNorm.None && normalization !== FftNorm.ByRootN && normalization !== FftNorm.ByN) {
    throw new TorchError(`${op}: invalid normalization ${normalization}`);
  }
  let cur = freshCopy(b, op, x, x.sizes);
  if (cur.numel === 0 || dims.length === 0) return cur;
  const count = dims.reduce((p, d) => p * x.sizes[d], 1);
  const scale = normalization === FftNorm.None ? 1 : normalization === FftNorm.ByN ? 1 / count : 1 / Math.sqrt(count);
  try {
    for (let i = 0; i < dims.length; i++) {
      const next = TensorImpl.empty(op, x.sizes, x.dtype, x.device);
      try {
        implOf(b, 'fft', op)(next, cur, dims[i], !forward, i === dims.length - 1 ? scale : 1);
      } catch (e) {
        next.release();
        throw e;
      }
      cur.release();
      cur = next;
    }
  } catch (e) {
    cur.release();
    throw e;
  }
  return cur;
});

/** The primitive on pairs (a real tensor, trailing dim 2): `dims` index the complex dims. */
export function fftC2cPairs(pairs: Tensor, dims: readonly number[], normalization: FftNorm | number, forward: boolean): Tensor {
  return callFunctional(FFT_C2C_PAIRS, [unwrapTensor('_fft_c2c_pairs', 'self', pairs), [...dims], normalization, forward]);
}

/** The pairs (x, 0) of a real float tensor. */
export function realPairs(x: Tensor): Tensor {
  return stack([x, zerosLike(x)], -1);
}

/** The complex conjugate of pairs (PyTorch's conj_physical): the imaginary parts negated. */
export function conjPairs(p: Tensor): Tensor {
  const o = { dtype: p.dtype, device: p.device };
  return mul(p, stack([full([], 1, o), full([], -1, o)]));
}

/** PyTorch's _fft_r2c on pairs: the forward transform of the real float `x`, the last of `dims` halved when `onesided`. */
export function fftR2cPairs(x: Tensor, dims: readonly number[], normalization: FftNorm, onesided: boolean): Tensor {
  const p = fftC2cPairs(realPairs(x), dims, normalization, true);
  if (!onesided) return p;
  const last = dims[dims.length - 1];
  // (contiguous, as PyTorch's result is: a narrowed view would keep the full length's strides)
  return narrow(p, last, 0, Math.floor(x.shape[last] / 2) + 1).contiguous();
}

/**
 * PyTorch's _fft_c2r on pairs: the inverse transform of the onesided Hermitian `p` (the
 * last of `dims` holds n / 2 + 1 bins) to a real tensor with n points there (Note
 * [torch.fft on one complex-to-complex impl]).
 */
export function fftC2rPairs(p: Tensor, dims: readonly number[], normalization: FftNorm, n: number): Tensor {
  const last = dims[dims.length - 1];
  if (dims.length > 1) p = fftC2cPairs(p, dims.slice(0, -1), normalization, false);
  const m = Math.floor(n / 2) + 1;
  if (p.shape[last] !== m) throw new ShapeError(`_fft_c2r: expected ${m} bins along dim ${last} for ${n} points, but got ${p.shape[last]}`);
  const mirrored = n - m;
  // conj(X[n - k]) for k = m .. n - 1: bins 1 .. mirrored reversed, imaginary parts negated
  if (mirrored > 0) p = cat([p, conjPairs(flip(narrow(p, last, 1, mirrored), [last]))], last);
  // (contiguous, as PyTorch's real result is, not every other element of the pairs)
  return selectOf(fftC2cPairs(p, [last], normalization, false), -1, 0).contiguous();
}
