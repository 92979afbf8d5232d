import { bmm, mm, mul, mv, transpose, unsqueeze, zeros, type Tensor } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';
import { savedTensor } from './common';

/**
 * Matrix-product derivatives: each operand's gradient is a product with the other
 * (transposed), so each operand is saved only when the OTHER one needs a gradient.
 */

// mm(self [n, k], mat2 [k, m]): self: grad @ mat2^T, mat2: self^T @ grad
const MmBackward0: DerivativeOf<'mm'> = {
  name: 'MmBackward0',
  inputs: ['self', 'mat2'],
  saves: ['self@mat2', 'mat2@self'],
  backward: (ctx) => {
    const self = ctx.needs[1] ? savedTensor(ctx, 'self', 'mm') : null;
    // mm(sparse COO, dense) (core Note [Sparse COO tensors]): mat2's gradient is self^T @ grad,
    // each entry's value times its row of grad added into its column's row (a sparse self never
    // needs a gradient here: torch.mm refuses one that requires grad, as PyTorch 1.13's does)
    if (self?.isSparse) return [null, sparseTransposedMm(self, ctx.grad)];
    return [
      ctx.needs[0] ? mm(ctx.grad, transpose(savedTensor(ctx, 'mat2', 'mm'), 0, 1)) : null,
      ctx.needs[1] && self ? mm(transpose(self, 0, 1), ctx.grad) : null,
    ];
  },
};

/** `self^T @ grad` for a sparse COO matrix `self`: each entry's value times its row of grad, added into its column's row. */
export function sparseTransposedMm(self: Tensor, grad: Tensor): Tensor {
  const idx = self._indices();
  const prod = self._values().unsqueeze(1).mul(grad.indexSelect(0, idx.select(0, 0)));
  return zeros([self.shape[1], grad.shape[1]], { dtype: grad.dtype }).indexAdd(0, idx.select(0, 1), prod);
}

// bmm(self [b, n, k], mat2 [b, k, m]): the same, per batch
const BmmBackward0: DerivativeOf<'bmm'> = {
  name: 'BmmBackward0',
  inputs: ['self', 'mat2'],
  saves: ['self@mat2', 'mat2@self'],
  backward: (ctx) => [
    ctx.needs[0] ? bmm(ctx.grad, transpose(savedTensor(ctx, 'mat2', 'bmm'), 1, 2)) : null,
    ctx.needs[1] ? bmm(transpose(savedTensor(ctx, 'self', 'bmm'), 1, 2), ctx.grad) : null,
  ],
};

// mv(self [n, k], vec [k]): self: the outer product grad ⊗ vec, vec: self^T @ grad
const MvBackward0: DerivativeOf<'mv'> = {
  name: 'MvBackward0',
  inputs: ['self', 'vec'],
  saves: ['self@vec', 'vec@self'],
  backward: (ctx) => [
    ctx.needs[0] ? mul(unsqueeze(ctx.grad, 1), unsqueeze(savedTensor(ctx, 'vec', 'mv'), 0)) : null,
    ctx.needs[1] ? mv(transpose(savedTensor(ctx, 'self', 'mv'), 0, 1), ctx.grad) : null,
  ],
};

// dot(self [n], tensor [n]) -> 0-dim: each operand's gradient is grad times the other
const DotBackward0: DerivativeOf<'dot'> = {
  name: 'DotBackward0',
  inputs: ['self', 'tensor'],
  saves: ['self@tensor', 'tensor@self'],
  backward: (ctx) => [
    ctx.needs[0] ? mul(ctx.grad, savedTensor(ctx, 'tensor', 'dot')) : null,
    ctx.needs[1] ? mul(ctx.grad, savedTensor(ctx, 'self', 'dot')) : null,
  ],
};

export const LINALG_DERIVATIVES = {
  mm: MmBackward0,
  bmm: BmmBackward0,
  mv: MvBackward0,
  dot: DotBackward0,
} satisfies DerivativeFamily;
