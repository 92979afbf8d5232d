import { ShapeError, TorchError, fmtShape } from '../errors';
import { checkInt, normalizeDim } from './dims';
import { contiguousGeometry, numelOf, sameList, type Geometry } from './geometry';

/**
 * `shape` with its one `-1` replaced by the size that makes the element count `numel`.
 * Throws PyTorch's errors for two `-1`s, a negative size, an ambiguous `-1` next to a
 * zero size, and a count that does not fit.
 */
export function inferSize(op: string, shape: readonly number[], numel: number): number[] {
  return inferSizeOr(op, shape, numel, () => `${op}: shape '${fmtShape(shape)}' is invalid for input of size ${numel}`);
}

function inferSizeOr(op: string, shape: readonly number[], numel: number, mismatch: () => string): number[] {
  let inferAt = -1;
  let known = 1;
  for (let d = 0; d < shape.length; d++) {
    const s = checkInt(op, 'a size', shape[d]);
    if (s === -1) {
      if (inferAt >= 0) throw new ShapeError(`${op}: only one dimension can be inferred`);
      inferAt = d;
    } else if (s >= 0) {
      known *= s;
    } else {
      throw new ShapeError(`${op}: invalid shape dimension ${s}`);
    }
  }
  const out = [...shape];
  if (inferAt < 0) {
    if (known === numel) return out;
  } else if (known === numel || (known > 0 && numel % known === 0)) {
    if (known === 0) {
      throw new ShapeError(
        `${op}: cannot reshape tensor of 0 elements into shape ${fmtShape(shape)} because the unspecified dimension size -1 can be any value and is ambiguous`,
      );
    }
    out[inferAt] = numel / known;
    return out;
  }
  throw new ShapeError(mismatch());
}

/**
 * Note [Viewing a strided tensor]
 * A view to `newSizes` exists when the old dims can be cut into runs (chunks) in which each
 * dim steps exactly over the next one (`stride[d] == size[d+1] * stride[d+1]`, size-1 dims
 * ignored), and every run covers a whole number of consecutive new dims: then those new
 * dims are laid out row-major inside the run, starting from the run's innermost stride.
 * A new dim that straddles two runs would need two different steps, so no view exists.
 * Empty tensors have no elements to place: they keep their strides when the sizes do not
 * change and otherwise get contiguous strides. A 0-dim tensor has one element, so every
 * new dim has size 1 and gets stride 1.
 * `newSizes` must already hold the same number of elements (see `inferSize`).
 */
export function tryViewStrides(
  oldSizes: readonly number[],
  oldStrides: readonly number[],
  newSizes: readonly number[],
): number[] | null {
  if (oldSizes.length === 0) return newSizes.map(() => 1);
  if (numelOf(oldSizes) === 0) {
    return sameList(oldSizes, newSizes) ? [...oldStrides] : contiguousGeometry(newSizes).strides.slice();
  }
  const out = new Array<number>(newSizes.length);
  let v = newSizes.length - 1;
  let runStride = oldStrides[oldStrides.length - 1];
  let runNumel = 1;
  let viewNumel = 1;
  for (let d = oldSizes.length - 1; d >= 0; d--) {
    runNumel *= oldSizes[d];
    const runEnds = d === 0 || (oldSizes[d - 1] !== 1 && oldStrides[d - 1] !== runNumel * runStride);
    if (!runEnds) continue;
    // Size-1 new dims are taken greedily into this run: any stride works for them.
    while (v >= 0 && (viewNumel < runNumel || newSizes[v] === 1)) {
      out[v] = viewNumel * runStride;
      viewNumel *= newSizes[v];
      v--;
    }
    if (viewNumel !== runNumel) return null;
    if (d > 0) {
      runStride = oldStrides[d - 1];
      runNumel = 1;
      viewNumel = 1;
    }
  }
  return v === -1 ? out : null;
}

/** `x.view(shape)`: the aliasing geometry, or PyTorch's error when none exists. */
export function viewGeometry(op: string, g: Geometry, shape: readonly number[]): Geometry {
  const sizes = inferSize(op, shape, numelOf(g.sizes));
  const strides = tryViewStrides(g.sizes, g.strides, sizes);
  if (strides === null) {
    throw new ShapeError(
      `${op}: view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.`,
    );
  }
  return { sizes, strides, offset: g.offset };
}

/**
 * What `reshape`-like ops produce: the target sizes, and the aliasing geometry when a view
 * exists. When `view` is null the caller copies the elements into a fresh contiguous tensor
 * of `sizes` (offset 0), as PyTorch does.
 */
export interface ReshapeResult {
  readonly sizes: readonly number[];
  readonly view: Geometry | null;
}

/** `x.reshape(shape)`: a view when the layout allows one, else a copy (view null). */
export function reshapeGeometry(op: string, g: Geometry, shape: readonly number[]): ReshapeResult {
  const sizes = inferSize(op, shape, numelOf(g.sizes));
  const strides = tryViewStrides(g.sizes, g.strides, sizes);
  return { sizes, view: strides === null ? null : { sizes, strides, offset: g.offset } };
}

/**
 * `x.flatten(startDim, endDim)`, which PyTorch implements as a reshape: a 0-dim tensor
 * becomes `[1]`; `startDim == endDim` gives `g` itself (PyTorch returns the same tensor).
 */
export function flattenGeometry(op: string, g: Geometry, startDim = 0, endDim = -1): ReshapeResult {
  const ndim = g.sizes.length;
  const start = normalizeDim(op, startDim, ndim);
  const end = normalizeDim(op, endDim, ndim);
  if (start > end) throw new TorchError(`${op}: flatten() has invalid args: start_dim cannot come after end_dim`);
  if (ndim === 0) return reshapeGeometry(op, g, [1]);
  if (start === end) return { sizes: g.sizes, view: g };
  const merged = numelOf(g.sizes.slice(start, end + 1));
  return reshapeGeometry(op, g, [...g.sizes.slice(0, start), merged, ...g.sizes.slice(end + 1)]);
}

/** `x.unflatten(dim, sizes)`: dim `dim` split into `sizes` (one may be -1); always a view. */
export function unflattenGeometry(op: string, g: Geometry, dim: number, sizes: readonly number[]): Geometry {
  const d = normalizeDim(op, dim, g.sizes.length, { wrapScalar: false });
  if (sizes.length === 0) throw new TorchError(`${op}: sizes must be non-empty`);
  const inferred = inferSizeOr(
    op,
    sizes,
    g.sizes[d],
    () => `${op}: Provided sizes ${fmtShape(sizes)} don't multiply up to the size of dim ${d} (${g.sizes[d]}) in the input tensor`,
  );
  const newSizes = [...g.sizes.slice(0, d), ...inferred, ...g.sizes.slice(d + 1)];
  // Splitting one dim never straddles a run (Note [Viewing a strided tensor]).
  const strides = tryViewStrides(g.sizes, g.strides, newSizes);
  if (strides === null) throw new TorchError(`${op}: internal error: no view for an unflatten`);
  return { sizes: newSizes, strides, offset: g.offset };
}
