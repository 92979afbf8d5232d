/**
 * Note [Iteration dim order]
 * A permutation `perm` of the dims, fastest first: `perm[0]` is the original dim the inner
 * loop runs along. It starts as the reversed dims (row-major: last dim fastest) and is
 * insertion-sorted with PyTorch's TensorIterator comparison of two dims d0 < d1 in the
 * current order, asking the operands in priority order:
 *   - an operand with stride 0 in either dim (broadcast) has no opinion: ask the next;
 *   - a smaller stride goes first (strictly smaller: `d0` before `d1`, stop);
 *   - equal strides: if `d0` is larger than `d1` (in size) they swap, else ask the next.
 * If nobody decides, the pair stays and the insertion goes on looking further left, so an
 * undecided dim can still pass a decided one. Sizes matter only in ties; size-1 dims keep
 * their (arbitrary) strides, so they are ordered like any other dim. Strides are compared
 * within one operand only, so element strides give the order byte strides would.
 */
export function iterationOrder(
  shape: readonly number[],
  strides: readonly (readonly number[])[],
): number[] {
  const ndim = shape.length;
  const perm = new Array<number>(ndim);
  for (let i = 0; i < ndim; i++) perm[i] = ndim - 1 - i;
  for (let i = 1; i < ndim; i++) {
    let dim1 = i;
    for (let dim0 = i - 1; dim0 >= 0; dim0--) {
      const cmp = compareDims(shape, strides, perm[dim0], perm[dim1]);
      if (cmp > 0) {
        const t = perm[dim0];
        perm[dim0] = perm[dim1];
        perm[dim1] = t;
        dim1 = dim0;
      } else if (cmp < 0) {
        break;
      }
    }
  }
  return perm;
}

/** 1 if `d0` should come after `d1`, -1 if before, 0 if no operand decides. */
function compareDims(
  shape: readonly number[],
  strides: readonly (readonly number[])[],
  d0: number,
  d1: number,
): number {
  for (let k = 0; k < strides.length; k++) {
    const s0 = strides[k][d0];
    const s1 = strides[k][d1];
    if (s0 === 0 || s1 === 0) continue;
    if (s0 < s1) return -1;
    if (s0 > s1) return 1;
    if (shape[d0] > shape[d1]) return 1;
  }
  return 0;
}

/** Whether `perm` is the reversed identity, i.e. plain row-major order. */
export function isRowMajorOrder(perm: readonly number[]): boolean {
  const ndim = perm.length;
  for (let i = 0; i < ndim; i++) if (perm[i] !== ndim - 1 - i) return false;
  return true;
}
