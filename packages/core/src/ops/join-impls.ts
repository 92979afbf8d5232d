import type { TensorImpl } from '../tensor/tensor-impl';

/** The impls of the joining family (join.ts; Note [What a backend implements]). */
export interface JoinImpls {
  /**
   * cat: writes `parts` one after another along `dim` into `out` (preallocated, its sizes
   * the parts' summed along `dim`); a part may have any dtype (converted as `copy` does)
   * and layout; a part of size 0 along `dim` writes nothing. `out` has elements.
   */
  cat: (out: TensorImpl, parts: readonly TensorImpl[], dim: number) => void;
}
