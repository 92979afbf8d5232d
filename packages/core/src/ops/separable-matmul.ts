import type { Tensor } from '../tensor/tensor';
import { matmul } from './linalg';
import { movedim, reshape } from './shape-ops';

/**
 * Note [Gradient layout of separable matmuls]
 * The separable composites (Note [Separable interpolation], Note [Pooling as window tables])
 * apply one [in, out] matrix per spatial dim. Their input gradient is whatever the backward of
 * the first op on the input makes, and matmul's backward makes a fresh contiguous result in
 * the operand's own order: a `movedim(x, d, -1)` operand gives the input a permuted gradient
 * (strides no memory format has) where PyTorch 1.13's 3-d pooling and nearest kernels give a
 * contiguous one. So the last spatial dim goes first, as x reshaped to [rows, W] times the
 * [W, W_out] matrix: the gradient is grad [rows, W_out] times its transpose, [rows, W]
 * contiguous, reshaped (a view) to x's shape, contiguous whatever x's layout (a channels-last
 * x is copied by the reshape) and whatever grad_output's. The other dims follow as before;
 * they do not touch the input. Values are the same sums in another order. (Trilinear's
 * gradient takes grad_output's layout instead: Note [Trilinear gradient layout].)
 */

/**
 * `input` with each of its last `mats.length` dims multiplied by that dim's [in, out] matrix;
 * the input gradient contiguous (Note [Gradient layout of separable matmuls]).
 */
export function separableMatmul(input: Tensor, mats: readonly Tensor[]): Tensor {
  const sp = mats.length;
  if (sp === 0) return input;
  const lead = input.dim() - sp;
  const shape = input.shape;
  const n = shape[shape.length - 1];
  const rows = shape.slice(0, -1).reduce((a, b) => a * b, 1);
  let t = reshape(matmul(reshape(input, [rows, n]), mats[sp - 1]), [...shape.slice(0, -1), mats[sp - 1].shape[1]]);
  for (let j = sp - 2; j >= 0; j--) t = movedim(matmul(movedim(t, lead + j, -1), mats[j]), -1, lead + j);
  return t;
}
