import { ShapeError, TorchError, fmtShape } from '../errors';
import { checkInt, normalizeDim, normalizeDims } from './dims';
import { storageExtent, type Geometry } from './geometry';

/**
 * `x.unsqueeze(dim)`, dim in [-(ndim+1), ndim]. The new size-1 dim gets the stride that
 * keeps the layout contiguous when it was (`size * stride` of the dim it lands before, or 1
 * at the end); any stride would address the same elements.
 */
export function unsqueezeGeometry(op: string, g: Geometry, dim: number): Geometry {
  const ndim = g.sizes.length;
  const d = normalizeDim(op, dim, ndim + 1);
  const stride = d >= ndim ? 1 : g.sizes[d] * g.strides[d];
  const sizes = [...g.sizes];
  const strides = [...g.strides];
  sizes.splice(d, 0, 1);
  strides.splice(d, 0, stride);
  return { sizes, strides, offset: g.offset };
}

/**
 * `x.squeeze()` drops every size-1 dim; `x.squeeze(dim)` and `x.squeeze([dims])` drop the
 * named dims that have size 1 and silently keep the others (as PyTorch 2.x).
 */
export function squeezeGeometry(op: string, g: Geometry, dims?: number | readonly number[] | null): Geometry {
  const ndim = g.sizes.length;
  const named = dims == null ? null : new Set(normalizeDims(op, dims, ndim));
  const sizes: number[] = [];
  const strides: number[] = [];
  for (let d = 0; d < ndim; d++) {
    const drop = g.sizes[d] === 1 && (named === null || named.has(d));
    if (drop) continue;
    sizes.push(g.sizes[d]);
    strides.push(g.strides[d]);
  }
  return { sizes, strides, offset: g.offset };
}

/**
 * Note [Expand strides]
 * `expand` aligns `shape` with the tensor's sizes from the right. A size-1 dim grown to n,
 * and a new leading dim of size n != 1, get stride 0: every index reads the same element.
 * A new leading dim of size 1 gets `size * stride` of the dim after it (the contiguous
 * choice), and a 0-dim tensor gets stride 0 everywhere, exactly as PyTorch computes them.
 * `-1` keeps an existing size and is refused for a new dim.
 */
export function expandGeometry(op: string, g: Geometry, shape: readonly number[]): Geometry {
  const ndim = shape.length;
  const tdim = g.sizes.length;
  if (ndim < tdim) {
    throw new ShapeError(
      `${op}: the number of sizes provided (${ndim}) must be greater or equal to the number of dimensions in the tensor (${tdim})`,
    );
  }
  const sizes = new Array<number>(ndim);
  const strides = new Array<number>(ndim);
  for (let i = ndim - 1; i >= 0; i--) {
    const d = tdim - (ndim - i);
    let target = checkInt(op, 'a size', shape[i]);
    if (d < 0 && target < 0) {
      throw new ShapeError(
        `${op}: The expanded size of the tensor (${target}) isn't allowed in a leading, non-existing dimension ${i}`,
      );
    }
    let size = d >= 0 ? g.sizes[d] : 1;
    let stride: number;
    if (d >= 0) stride = g.strides[d];
    else if (tdim === 0) stride = 0;
    else stride = sizes[i + 1] * strides[i + 1];
    if (target === -1) target = size;
    if (size !== target) {
      if (size !== 1) {
        throw new ShapeError(
          `${op}: The expanded size of the tensor (${target}) must match the existing size (${size}) at non-singleton dimension ${i}.  Target sizes: ${fmtShape(shape)}.  Tensor sizes: ${fmtShape(g.sizes)}`,
        );
      }
      if (target < 0) {
        throw new ShapeError(`${op}: Trying to create tensor with negative dimension ${target}: ${fmtShape(shape)}`);
      }
      size = target;
      stride = 0;
    }
    sizes[i] = size;
    strides[i] = stride;
  }
  return { sizes, strides, offset: g.offset };
}

/**
 * `x.asStrided(sizes, strides, offset?)`: any window on the same storage. The offset
 * defaults to the tensor's own. When `storageSize` (in elements) is known, a window that
 * reaches past it is refused.
 */
export function asStridedGeometry(
  op: string,
  g: Geometry,
  sizes: readonly number[],
  strides: readonly number[],
  offset?: number | null,
  storageSize?: number,
): Geometry {
  if (sizes.length !== strides.length) throw new ShapeError(`${op}: mismatch in length of strides and shape`);
  sizes.forEach((s) => checkInt(op, 'a size', s));
  strides.forEach((s) => checkInt(op, 'a stride', s));
  if (strides.some((s) => s < 0)) {
    throw new TorchError(`${op}: Negative strides are not supported at the moment, got strides: ${fmtShape(strides)}`);
  }
  if (sizes.some((s) => s < 0)) {
    const bad = sizes.find((s) => s < 0);
    throw new ShapeError(`${op}: Trying to create tensor with negative dimension ${bad}: ${fmtShape(sizes)}`);
  }
  const off = offset == null ? g.offset : checkInt(op, 'storage offset', offset);
  if (off < 0) throw new TorchError(`${op}: invalid storage offset ${off}`);
  if (storageSize !== undefined) {
    const needed = storageExtent(sizes, strides, off);
    if (needed > storageSize) {
      throw new ShapeError(
        `${op}: sizes ${fmtShape(sizes)}, strides ${fmtShape(strides)}, storage offset ${off} requiring a storage size of ${needed} elements are out of bounds for storage of size ${storageSize} elements`,
      );
    }
  }
  return { sizes: [...sizes], strides: [...strides], offset: off };
}

/**
 * `x.diagonal(offset, dim1, dim2)`: removes both dims and appends the diagonal, stepping
 * both at once. A positive offset starts above the main diagonal (along dim2), a negative
 * one below it (along dim1). An offset past the edge gives an empty diagonal whose storage
 * offset stays the input's.
 */
export function diagonalGeometry(op: string, g: Geometry, offset = 0, dim1 = 0, dim2 = 1): Geometry {
  const ndim = g.sizes.length;
  checkInt(op, 'offset', offset);
  const a = normalizeDim(op, dim1, ndim);
  const b = normalizeDim(op, dim2, ndim);
  if (a === b) throw new TorchError(`${op}: diagonal dimensions cannot be identical ${dim1}, ${dim2}`);
  const length =
    offset >= 0
      ? Math.max(Math.min(g.sizes[a], g.sizes[b] - offset), 0)
      : Math.max(Math.min(g.sizes[a] + offset, g.sizes[b]), 0);
  let start = g.offset;
  if (length > 0) start += offset >= 0 ? offset * g.strides[b] : -offset * g.strides[a];
  const sizes = g.sizes.filter((_, k) => k !== a && k !== b);
  const strides = g.strides.filter((_, k) => k !== a && k !== b);
  sizes.push(length);
  strides.push(g.strides[a] + g.strides[b]);
  return { sizes, strides, offset: start };
}

/**
 * `x.unfold(dim, size, step)`: dim `dim` becomes the number of windows (stepping `step`
 * elements) and a new last dim of `size` walks inside a window. A 0-dim tensor counts as
 * one element along dim 0.
 */
export function unfoldGeometry(op: string, g: Geometry, dim: number, size: number, step: number): Geometry {
  const ndim = g.sizes.length;
  const d = normalizeDim(op, dim, ndim);
  checkInt(op, 'size', size);
  checkInt(op, 'step', step);
  const maxSize = ndim === 0 ? 1 : g.sizes[d];
  if (size > maxSize) {
    throw new ShapeError(`${op}: maximum size for tensor at dimension ${d} is ${maxSize} but size is ${size}`);
  }
  if (size < 0) throw new TorchError(`${op}: size is ${size} but must be >= 0`);
  if (step <= 0) throw new TorchError(`${op}: step is ${step} but must be > 0`);
  const sizes = [...g.sizes];
  const strides = [...g.strides];
  if (ndim > 0) {
    sizes[d] = Math.floor((g.sizes[d] - size) / step) + 1;
    strides[d] = g.strides[d] * step;
  }
  sizes.push(size);
  strides.push(ndim === 0 ? 1 : g.strides[d]);
  return { sizes, strides, offset: g.offset };
}
