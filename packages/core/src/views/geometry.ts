/**
 * Note [View geometry]
 * A view is a window on a storage: element `(i0, ..., in)` lives at storage index
 * `offset + sum(ik * strides[k])`. Strides and offsets count elements, not bytes. Every
 * view op in this folder is a pure function from one Geometry (plus arguments) to another,
 * computing exactly the sizes, strides and storage offset PyTorch gives, so a tensor and
 * its views alias the same elements in torch-ts as in PyTorch. Nothing here touches data;
 * when a result cannot be a view (reshape of an incompatible layout), the function says so
 * (null) and the caller copies.
 */
export interface Geometry {
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
}

/** The number of elements of a tensor of `sizes` (1 for a 0-dim tensor). */
export function numelOf(sizes: readonly number[]): number {
  let n = 1;
  for (const s of sizes) n *= s;
  return n;
}

/**
 * Row-major strides for `sizes`. A size-0 dim counts as 1 when computing the strides of
 * the dims before it, as PyTorch does: `[2, 0, 3]` gets `[3, 3, 1]`, not `[0, 3, 1]`.
 */
export function contiguousStrides(sizes: readonly number[]): number[] {
  const strides = new Array<number>(sizes.length);
  let step = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    strides[d] = step;
    step *= Math.max(sizes[d], 1);
  }
  return strides;
}

/**
 * PyTorch's `is_contiguous()`: an empty tensor is contiguous, and the stride of a size-1
 * dim does not matter (no step is ever taken along it).
 */
export function isContiguous(sizes: readonly number[], strides: readonly number[]): boolean {
  if (numelOf(sizes) === 0) return true;
  let expected = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    if (sizes[d] === 1) continue;
    if (strides[d] !== expected) return false;
    expected *= sizes[d];
  }
  return true;
}

/** A fresh contiguous geometry of `sizes` at offset 0 (what a copy gets). */
export function contiguousGeometry(sizes: readonly number[]): Geometry {
  return { sizes: [...sizes], strides: contiguousStrides(sizes), offset: 0 };
}

/**
 * The geometry of `x.contiguous()`: `g` itself when already contiguous (PyTorch returns
 * the same tensor, offset included), else a fresh contiguous layout at offset 0.
 */
export function contiguousResult(g: Geometry): Geometry {
  return isContiguous(g.sizes, g.strides) ? g : contiguousGeometry(g.sizes);
}

/** Whether two geometries describe the same window. */
export function sameGeometry(a: Geometry, b: Geometry): boolean {
  return a.offset === b.offset && sameList(a.sizes, b.sizes) && sameList(a.strides, b.strides);
}

/**
 * The number of storage elements a window needs: one past its last element, or 0 when it
 * has no elements (then its offset is never dereferenced, so any offset is allowed).
 * Assumes non-negative strides.
 */
export function storageExtent(sizes: readonly number[], strides: readonly number[], offset: number): number {
  if (numelOf(sizes) === 0) return 0;
  let last = offset;
  for (let d = 0; d < sizes.length; d++) last += (sizes[d] - 1) * strides[d];
  return last + 1;
}

/** Element-wise equality of two size or stride lists. */
export function sameList(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
