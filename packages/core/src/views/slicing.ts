import { IndexError, ShapeError, TorchError, fmtShape } from '../errors';
import { checkInt, normalizeDim } from './dims';
import type { Geometry } from './geometry';

/** A copy of `g` with dim `d` replaced. */
function withDim(g: Geometry, d: number, size: number, stride: number, offset: number): Geometry {
  const sizes = [...g.sizes];
  const strides = [...g.strides];
  sizes[d] = size;
  strides[d] = stride;
  return { sizes, strides, offset };
}

/**
 * `x.slice(dim, start, end, step)` (aten::slice): Python slice semantics with a positive
 * step. Negative bounds count from the end; out-of-range bounds are clamped, so the result
 * may be empty, and its offset then still moves to the clamped start.
 */
export function sliceGeometry(
  op: string,
  g: Geometry,
  dim = 0,
  start?: number | null,
  end?: number | null,
  step?: number | null,
): Geometry {
  const ndim = g.sizes.length;
  if (ndim === 0) throw new IndexError(`${op}: slice() cannot be applied to a 0-dim tensor.`);
  const d = normalizeDim(op, dim, ndim);
  const st = step == null ? 1 : checkInt(op, 'step', step);
  if (st <= 0) throw new TorchError(`${op}: slice step must be positive`);
  const [lo, hi] = clampSliceBounds(op, g.sizes[d], start, end);
  const size = Math.floor((hi - lo + st - 1) / st);
  return withDim(g, d, size, g.strides[d] * st, g.offset + lo * g.strides[d]);
}

/** `[start, end)` of a slice of a dim of `size`, with PyTorch's wrapping and clamping. */
export function clampSliceBounds(
  op: string,
  size: number,
  start: number | null | undefined,
  end: number | null | undefined,
): [number, number] {
  let lo = start == null ? 0 : checkInt(op, 'start', start);
  let hi = end == null ? size : checkInt(op, 'end', end);
  if (lo < 0) lo += size;
  if (hi < 0) hi += size;
  lo = Math.min(Math.max(lo, 0), size);
  hi = Math.min(Math.max(hi, lo), size);
  return [lo, hi];
}

/** `x.narrow(dim, start, length)`: `length` elements from `start` (which may be negative). */
export function narrowGeometry(op: string, g: Geometry, dim: number, start: number, length: number): Geometry {
  if (g.sizes.length === 0) throw new ShapeError(`${op}: narrow() cannot be applied to a 0-dim tensor.`);
  checkInt(op, 'start', start);
  checkInt(op, 'length', length);
  if (length < 0) throw new TorchError(`${op}: narrow(): length must be non-negative.`);
  const d = normalizeDim(op, dim, g.sizes.length);
  const size = g.sizes[d];
  if (start < -size || start > size) {
    throw new IndexError(`${op}: start out of range (expected to be in range of [${-size}, ${size}], but got ${start})`);
  }
  const s = start < 0 ? start + size : start;
  if (s > size - length) {
    throw new IndexError(`${op}: start (${s}) + length (${length}) exceeds dimension size (${size}).`);
  }
  return withDim(g, d, length, g.strides[d], g.offset + s * g.strides[d]);
}

/** `x.select(dim, index)`: drops dim `dim`, keeping the slice at `index` (may be negative). */
export function selectGeometry(op: string, g: Geometry, dim: number, index: number): Geometry {
  const ndim = g.sizes.length;
  if (ndim === 0) throw new IndexError(`${op}: select() cannot be applied to a 0-dim tensor.`);
  const d = normalizeDim(op, dim, ndim);
  checkInt(op, 'index', index);
  const size = g.sizes[d];
  if (index < -size || index >= size) {
    throw new IndexError(
      `${op}: index ${index} out of range for tensor of size ${fmtShape(g.sizes)} at dimension ${d}`,
    );
  }
  const i = index < 0 ? index + size : index;
  return {
    sizes: g.sizes.filter((_, k) => k !== d),
    strides: g.strides.filter((_, k) => k !== d),
    offset: g.offset + i * g.strides[d],
  };
}

/**
 * The piece sizes of `split(splitSizeOrSections)` along a dim of `dimSize`: an int gives
 * equal pieces with a smaller last one (one empty piece for an empty dim); a list is taken
 * as is and must sum to `dimSize`. `dim` is only for the message (PyTorch prints it as given).
 */
export function splitSizes(
  op: string,
  dimSize: number,
  splitSizeOrSections: number | readonly number[],
  dim = 0,
): number[] {
  if (typeof splitSizeOrSections !== 'number') {
    const sizes = splitSizeOrSections.map((s) => checkInt(op, 'a split size', s));
    if (sizes.some((s) => s < 0)) {
      throw new TorchError(
        `${op}: split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=${fmtShape(sizes)}`,
      );
    }
    const total = sizes.reduce((a, b) => a + b, 0);
    if (total !== dimSize) {
      throw new ShapeError(
        `${op}: split_with_sizes expects split_sizes to sum exactly to ${dimSize} (input tensor's size at dimension ${dim}), but got split_sizes=${fmtShape(sizes)}`,
      );
    }
    return sizes;
  }
  const size = checkInt(op, 'split_size', splitSizeOrSections);
  if (size < 0) throw new TorchError(`${op}: split expects split_size be non-negative, but got split_size=${size}`);
  if (size === 0 && dimSize !== 0) {
    throw new TorchError(`${op}: split_size can only be 0 if dimension size is 0, but got dimension size of ${dimSize}`);
  }
  const pieces = size === 0 ? 1 : Math.max(Math.ceil(dimSize / size), 1);
  const out = new Array<number>(pieces).fill(size);
  out[pieces - 1] = size - (size * pieces - dimSize);
  return out;
}

/**
 * Note [Chunk sizes]
 * `chunk(n)` is `split(ceil(dimSize / n))`, so it may return fewer than `n` pieces
 * (6 into 4 gives [2, 2, 2]) and never a piece bigger than the first. The one exception is an
 * empty dim, which gives `n` empty pieces rather than split's single one.
 */
export function chunkSizes(op: string, dimSize: number, chunks: number): number[] {
  checkInt(op, 'chunks', chunks);
  if (chunks <= 0) throw new TorchError(`${op}: chunk expects \`chunks\` to be greater than 0, got: ${chunks}`);
  if (dimSize === 0) return new Array<number>(chunks).fill(0);
  return splitSizes(op, dimSize, Math.ceil(dimSize / chunks));
}

/** Consecutive narrows of dim `d` with the given piece sizes. */
function pieces(op: string, g: Geometry, d: number, sizes: readonly number[]): Geometry[] {
  const out: Geometry[] = [];
  let start = 0;
  for (const len of sizes) {
    out.push(narrowGeometry(op, g, d, start, len));
    start += len;
  }
  return out;
}

/** `x.split(splitSizeOrSections, dim)`. */
export function splitGeometries(
  op: string,
  g: Geometry,
  splitSizeOrSections: number | readonly number[],
  dim = 0,
): Geometry[] {
  if (g.sizes.length === 0) throw new ShapeError(`${op}: split expects at least a 1-dimensional tensor`);
  const d = normalizeDim(op, dim, g.sizes.length);
  return pieces(op, g, d, splitSizes(op, g.sizes[d], splitSizeOrSections, dim));
}

/** `x.chunk(chunks, dim)` (Note [Chunk sizes]). */
export function chunkGeometries(op: string, g: Geometry, chunks: number, dim = 0): Geometry[] {
  if (g.sizes.length === 0) throw new ShapeError(`${op}: chunk expects at least a 1-dimensional tensor`);
  checkInt(op, 'chunks', chunks);
  if (chunks <= 0) throw new TorchError(`${op}: chunk expects \`chunks\` to be greater than 0, got: ${chunks}`);
  const d = normalizeDim(op, dim, g.sizes.length);
  return pieces(op, g, d, chunkSizes(op, g.sizes[d], chunks));
}

/** `x.unbind(dim)`: every select along `dim` (none for an empty dim). */
export function unbindGeometries(op: string, g: Geometry, dim = 0): Geometry[] {
  const d = normalizeDim(op, dim, g.sizes.length, { wrapScalar: false });
  const out: Geometry[] = [];
  for (let i = 0; i < g.sizes[d]; i++) out.push(selectGeometry(op, g, d, i));
  return out;
}
