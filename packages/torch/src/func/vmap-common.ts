/** What vmap's batched and per-sample paths share: option checks and output validation. */
import { Tensor, ValueError } from '@torch-ts/core';

export type Randomness = 'error' | 'different' | 'same';
export type InDim = number | null;

export const isInDim = (s: unknown): s is InDim => s === null || typeof s === 'number';
export const isOutDim = (s: unknown): s is number => typeof s === 'number';

export function normDim(where: string, dim: number, ndim: number): number {
  if (!Number.isInteger(dim) || dim < -ndim || dim >= ndim) {
    throw new ValueError(`${where}: dim ${dim} is out of bounds for a tensor of dimension ${ndim} (expected a dim in [${-ndim}, ${ndim - 1}])`);
  }
  return dim < 0 ? dim + ndim : dim;
}

export function checkOutputs(out: unknown): void {
  const bad = (v: unknown): boolean =>
    v instanceof Tensor ? false : Array.isArray(v) ? v.some(bad) : v !== null && typeof v === 'object' ? Object.values(v).some(bad) : true;
  if (bad(out)) {
    throw new ValueError(`vmap: fn must only return Tensors (or arrays / objects of them), got ${out === null ? 'null' : typeof out} among its outputs`);
  }
}
