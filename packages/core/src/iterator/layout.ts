/**
 * Layout predicates on raw sizes/strides, exactly as TensorImpl computes them in PyTorch,
 * for the fast setup of computeOutputLayout. Internal to iterator/ (not re-exported): the
 * tensor layer owns the public versions; these must stay bit-for-bit PyTorch's, because
 * they decide which strides a new output gets.
 */

/** Row-major strides; a 0 or 1 size counts as 1 so later strides stay nonzero. */
export function rowMajorStrides(sizes: readonly number[]): number[] {
  const out = new Array<number>(sizes.length);
  let next = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    out[d] = next;
    next *= Math.max(sizes[d], 1);
  }
  return out;
}

/** PyTorch's channels-last strides of a 4-d shape (dims ordered C, W, H, N), no max(1). */
export function channelsLastStrides(sizes: readonly number[]): number[] {
  const s3 = sizes[1];
  const s2 = s3 * sizes[3];
  return [s2 * sizes[2], 1, s2, s3];
}

/** `is_contiguous()`: size-1 dims are ignored and an empty tensor is contiguous. */
export function isRowMajor(sizes: readonly number[], strides: readonly number[]): boolean {
  if (sizes.includes(0)) return true;
  let expected = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    if (sizes[d] === 1) continue;
    if (strides[d] !== expected) return false;
    expected *= sizes[d];
  }
  return true;
}

/** `is_contiguous(memory_format=channels_last)`: 4-d only, size-1 dims ignored. */
export function isChannelsLast(sizes: readonly number[], strides: readonly number[]): boolean {
  if (sizes.length !== 4) return false;
  let expected = 1;
  for (const d of [1, 3, 2, 0]) {
    if (sizes[d] === 1) continue;
    if (strides[d] !== expected) return false;
    expected *= sizes[d];
  }
  return true;
}

/**
 * `is_non_overlapping_and_dense()`: some permutation of the dims is row-major. Dims of
 * size 0 or 1 do not constrain it (they sort last and end the check).
 */
export function isNonOverlappingAndDense(sizes: readonly number[], strides: readonly number[]): boolean {
  const ndim = sizes.length;
  if (ndim === 1) return sizes[0] < 2 || strides[0] === 1;
  const perm: number[] = [];
  for (let d = 0; d < ndim; d++) if (sizes[d] >= 2) perm.push(d);
  perm.sort((a, b) => strides[a] - strides[b]);
  let expected = 1;
  for (const d of perm) {
    if (strides[d] !== expected) return false;
    expected *= sizes[d];
  }
  return true;
}

export function sameList(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
