import { zerosLike } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';

/**
 * Copy derivatives. The engine casts each gradient to its input's dtype and sums it to its
 * input's shape (Note [Derivatives are data]), which is all `_to_copy` (a dtype change) and
 * `copy_` (a broadcast `src`) need.
 */

// copy_(self, src): self's old values are overwritten (no gradient); src's pass through.
const CopyBackwards: DerivativeOf<'copy_'> = {
  name: 'torch::autograd::CopyBackwards',
  inputs: ['self', 'src'],
  saves: [],
  backward: ({ grad, needs }) => [needs[0] ? zerosLike(grad) : null, needs[1] ? grad : null],
};

// fill_.Scalar(self, value): every old value is overwritten. PyTorch numbers fill.Scalar,
// fill.Tensor, fill_.Scalar, fill_.Tensor 0 to 3, so fill_ records FillBackward2.
const FillBackward2: DerivativeOf<'fill_.Scalar'> = {
  name: 'FillBackward2',
  inputs: ['self'],
  saves: [],
  backward: ({ grad, needs }) => [needs[0] ? zerosLike(grad) : null],
};

// _to_copy: grad as is; the engine casts it back to the input's dtype
const ToCopyBackward0: DerivativeOf<'_to_copy'> = {
  name: 'ToCopyBackward0',
  inputs: ['self'],
  saves: [],
  backward: ({ grad, needs }) => [needs[0] ? grad : null],
};

const CloneBackward0: DerivativeOf<'clone'> = {
  name: 'CloneBackward0',
  inputs: ['self'],
  saves: [],
  backward: ({ grad, needs }) => [needs[0] ? grad : null],
};

export const COPY_DERIVATIVES = {
  copy_: CopyBackwards,
  'fill_.Scalar': FillBackward2,
  _to_copy: ToCopyBackward0,
  clone: CloneBackward0,
} satisfies DerivativeFamily;
