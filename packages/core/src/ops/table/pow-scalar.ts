import type { DType } from '../../dtype';
import { TensorImpl } from '../../tensor/tensor-impl';
import { broadcastTo, releaseAll } from '../meta-utils';
import type { ImplLookup } from './types';

/**
 * Note [pow with a scalar exponent]
 * PyTorch computes `x ** e` for a *scalar* e specially in float32, float64 and bfloat16:
 * 0.5, -0.5 and -1 run the sqrt, rsqrt (1 / sqrt) and reciprocal kernels, and 2, 3 and -2
 * multiply (`x*x`, `x*x*x`, `1/(x*x)`, rounding after each step). The results differ from
 * `pow` at the edges (`(-inf) ** 0.5` is nan, `(-0) ** -0.5` is -inf), so torch-ts composes
 * the same impls. A tensor exponent always uses `pow`.
 */
const POW_SPECIAL_DTYPES = new Set<DType>(['float32', 'float64', 'bfloat16']);

/** `out = x ** e` by PyTorch's special case for `e`, if it has one (false: run `pow`). */
export function powSpecial(impl: ImplLookup, out: TensorImpl, x: TensorImpl, e: number): boolean {
  if (!POW_SPECIAL_DTYPES.has(out.dtype)) return false;
  const op = 'pow';
  const mul = impl('mul');
  const div = impl('div');
  /** A 1 of `dtype` broadcast to out's shape (a view, which keeps its one element alive). */
  const one = (dtype: DType = out.dtype) => {
    const s = TensorImpl.empty(op, [], dtype, out.device);
    try {
      impl('fill')(s, 1);
      return broadcastTo(s, out.sizes);
    } finally {
      s.release();
    }
  };
  const withTemps = (n: number, fn: (...t: TensorImpl[]) => void) => {
    const temps = Array.from({ length: n }, (_, i) => (i === 0 ? one() : TensorImpl.empty(op, out.sizes, out.dtype, out.device)));
    try {
      fn(...temps);
    } finally {
      releaseAll(temps);
    }
  };
  switch (e) {
    case 0.5:
      impl('sqrt')(out, x);
      return true;
    case -0.5:
      if (out.dtype === 'bfloat16') {
        // PyTorch's bfloat16 rsqrt computes 1 / sqrt in float32 and rounds once.
        const x32 = TensorImpl.empty(op, out.sizes, 'float32', out.device);
        const c1 = one('float32');
        try {
          impl('copy')(x32, x);
          impl('sqrt')(x32, x32);
          div(x32, c1, x32);
          impl('copy')(out, x32);
        } finally {
          releaseAll([x32, c1]);
        }
        return true;
      }
      impl('sqrt')(out, x);
      withTemps(1, (c1) => div(out, c1, out));
      return true;
    case -1:
      withTemps(1, (c1) => div(out, c1, x));
      return true;
    case 2:
      mul(out, x, x);
      return true;
    case 3:
      withTemps(2, (_c1, sq) => {
        mul(sq, x, x);
        mul(out, sq, x);
      });
      return true;
    case -2:
      withTemps(2, (c1, sq) => {
        mul(sq, x, x);
        div(out, c1, sq);
      });
      return true;
    default:
      return false;
  }
}
