import { ShapeError, TorchError, fmtShape } from '../errors';
import { normalizeDim } from './dims';
import type { Geometry } from './geometry';

/** Reorders dims: result dim `i` is input dim `dims[i]`. */
export function permuteGeometry(op: string, g: Geometry, dims: readonly number[]): Geometry {
  const ndim = g.sizes.length;
  if (dims.length !== ndim) {
    throw new ShapeError(
      `${op}: number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = ${ndim} is not equal to len(dims) = ${dims.length}`,
    );
  }
  const seen = new Set<number>();
  const sizes: number[] = [];
  const strides: number[] = [];
  for (const dim of dims) {
    const d = normalizeDim(op, dim, ndim);
    if (seen.has(d)) throw new TorchError(`${op}: duplicate dims are not allowed.`);
    seen.add(d);
    sizes.push(g.sizes[d]);
    strides.push(g.strides[d]);
  }
  return { sizes, strides, offset: g.offset };
}

/** Swaps two dims (a 0-dim tensor accepts dims 0 and -1 and is unchanged). */
export function transposeGeometry(op: string, g: Geometry, dim0: number, dim1: number): Geometry {
  const ndim = g.sizes.length;
  const a = normalizeDim(op, dim0, ndim);
  const b = normalizeDim(op, dim1, ndim);
  if (ndim === 0) return { sizes: [], strides: [], offset: g.offset };
  const sizes = [...g.sizes];
  const strides = [...g.strides];
  [sizes[a], sizes[b]] = [sizes[b], sizes[a]];
  [strides[a], strides[b]] = [strides[b], strides[a]];
  return { sizes, strides, offset: g.offset };
}

/** `x.t()`: transposes a matrix; 0-d and 1-d tensors come back unchanged; more dims throw. */
export function tGeometry(op: string, g: Geometry): Geometry {
  const ndim = g.sizes.length;
  if (ndim > 2) throw new ShapeError(`${op}: t() expects a tensor with <= 2 dimensions, but self is ${ndim}D`);
  return ndim < 2 ? { ...g } : transposeGeometry(op, g, 0, 1);
}

/** `x.mT`: swaps the last two dims of a (batch of) matrix. */
export function mTGeometry(op: string, g: Geometry): Geometry {
  const ndim = g.sizes.length;
  if (ndim < 2) {
    throw new ShapeError(
      `${op}: tensor.mT is only supported on matrices or batches of matrices. Got ${ndim}-D tensor.`,
    );
  }
  return transposeGeometry(op, g, -2, -1);
}

/**
 * The permutation `movedim(source, destination)` applies: each source dim lands at its
 * destination, and the other dims keep their relative order in the remaining positions.
 */
export function movedimPermutation(
  op: string,
  ndim: number,
  source: number | readonly number[],
  destination: number | readonly number[],
): number[] {
  const src = typeof source === 'number' ? [source] : [...source];
  const dst = typeof destination === 'number' ? [destination] : [...destination];
  if (src.length !== dst.length) {
    throw new ShapeError(
      `${op}: Invalid source or destination dims: source (${fmtShape(src)} dims) should contain the same number of dims as destination (${fmtShape(dst)} dims)`,
    );
  }
  const nsrc = src.map((d) => normalizeDim(op, d, ndim));
  const ndst = dst.map((d) => normalizeDim(op, d, ndim));
  if (new Set(nsrc).size !== nsrc.length) throw new TorchError(`${op}: repeated dim in \`source\` (${fmtShape(src)})`);
  if (new Set(ndst).size !== ndst.length) {
    throw new TorchError(`${op}: repeated dim in \`destination\` (${fmtShape(dst)})`);
  }
  if (ndim === 0) return [];
  const order = new Array<number>(ndim).fill(-1);
  nsrc.forEach((s, i) => (order[ndst[i]] = s));
  const rest = [...Array(ndim).keys()].filter((d) => !nsrc.includes(d));
  let next = 0;
  for (let pos = 0; pos < ndim; pos++) if (order[pos] === -1) order[pos] = rest[next++];
  return order;
}

/** `x.movedim(source, destination)` with numbers or equally long lists. */
export function movedimGeometry(
  op: string,
  g: Geometry,
  source: number | readonly number[],
  destination: number | readonly number[],
): Geometry {
  const order = movedimPermutation(op, g.sizes.length, source, destination);
  return permuteGeometry(op, g, order);
}
