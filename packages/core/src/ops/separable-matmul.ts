import type { Tensor } from '../tensor/tensor';
import { matmul } from './linalg';
import { movedim, reshape } from './shape-ops';
import { transpose } from './views';

/**
 * Note [Gradient layout of separable matmuls]
 * The separable composites (Note [Separable interpolation], Note [Pooling as window tables])
 * apply one [in, out] matrix per spatial dim. Their input gradient is whatever the backward of
 * the first op on the input makes, and matmul's backward makes a fresh contiguous result in
 * the operand's own order: a `movedim(x, d, -1)` operand gives the input a permuted gradient
 * (strides no layout has) where PyTorch's kernels give a dense one. So the last spatial dim
 * goes first, in an order that is already the input's:
 *  - 'contiguous': x as [rows, W] times the [W, W_out] matrix; the gradient is
 *    grad [rows, W_out] times its transpose, [rows, W] contiguous, reshaped (a view) to x's
 *    shape: contiguous, whatever x's layout (a channels-last x is copied by the reshape, as
 *    PyTorch's 3-d pooling and nearest kernels make a contiguous gradient);
 *  - 'channels_last': x with channels moved last (a contiguous view of a channels_last_3d x) as
 *    [rows, W, C], the transposed matrix [W_out, W] times it; the gradient [rows, W, C] is
 *    contiguous, so through the view it is channels-last (trilinear's, for a channels-last
 *    grad_output).
 * The other dims follow as before; they do not touch the input. Values are the same sums in
 * another order.
 */

/**
 * `input` with each of its last `mats.length` dims multiplied by that dim's [in, out] matrix
 * (Note [Gradient layout of separable matmuls]); the input gradient in `gradFormat`.
 */
export function separableMatmul(input: Tensor, mats: readonly Tensor[], gradFormat: 'contiguous' | 'channels_last'): Tensor {
  const sp = mats.length;
  const lead = input.dim() - sp;
  if (sp === 0) return input;
  const shape = input.shape;
  const n = shape[shape.length - 1];
  const o = mats[sp - 1].shape[1];
  let t: Tensor;
  if (gradFormat === 'channels_last' && lead >= 2) {
    // [N, C, S..., W] -> [N, S..., W, C] -> [rows, W, C]
    const moved = movedim(input, 1, -1);
    const C = shape[1];
    const rows = moved.shape.slice(0, -2).reduce((a, b) => a * b, 1);
    const r = matmul(transpose(mats[sp - 1], 0, 1), reshape(moved, [rows, n, C]));
    t = movedim(reshape(r, [...moved.shape.slice(0, -2), o, C]), -1, 1);
  } else {
    const rows = shape.slice(0, -1).reduce((a, b) => a * b, 1);
    t = reshape(matmul(reshape(input, [rows, n]), mats[sp - 1]), [...shape.slice(0, -1), o]);
  }
  for (let j = sp - 2; j >= 0; j--) t = movedim(matmul(movedim(t, lead + j, -1), mats[j]), -1, lead + j);
  return t;
}
