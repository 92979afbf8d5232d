import { IndexError, TorchError } from '../errors';

/**
 * Dim and integer-argument checks shared by every view op. Each takes the op's name so
 * that its message starts with it (`transpose: Dimension out of range ...`).
 */

/** Throws unless `value` is an integer (JS numbers may be fractional; PyTorch's ints may not). */
export function checkInt(op: string, what: string, value: number): number {
  if (!Number.isInteger(value)) {
    throw new TorchError(`${op}: expected an integer for ${what}, but got ${String(value)}`);
  }
  return value;
}

export interface NormalizeDimOptions {
  /**
   * Whether a 0-dim tensor accepts dim 0 and -1 (PyTorch's `wrap_scalar`, true for most
   * ops). `unbind` and `unflatten` pass false: a 0-dim tensor has no dim to act on.
   */
  readonly wrapScalar?: boolean;
}

/**
 * `dim` in `[0, ndim)`, wrapping negative dims. A 0-dim tensor behaves as if it had one
 * dim, so it accepts dims in [-1, 0] (unless `wrapScalar` is false).
 */
export function normalizeDim(op: string, dim: number, ndim: number, options: NormalizeDimOptions = {}): number {
  checkInt(op, 'dim', dim);
  if (ndim <= 0) {
    if (options.wrapScalar === false) {
      throw new IndexError(`${op}: Dimension specified as ${dim} but tensor has no dimensions`);
    }
    ndim = 1;
  }
  if (dim < -ndim || dim >= ndim) {
    throw new IndexError(
      `${op}: Dimension out of range (expected to be in range of [${-ndim}, ${ndim - 1}], but got ${dim})`,
    );
  }
  return dim < 0 ? dim + ndim : dim;
}

/** Each dim of `dims` normalised (a single number is a list of one); a repeated dim throws. */
export function normalizeDims(op: string, dims: number | readonly number[], ndim: number): number[] {
  const list = typeof dims === 'number' ? [dims] : dims;
  const seen = new Set<number>();
  const out: number[] = [];
  for (const d of list) {
    const n = normalizeDim(op, d, ndim);
    if (seen.has(n)) throw new TorchError(`${op}: dim ${n} appears multiple times in the list of dims`);
    seen.add(n);
    out.push(n);
  }
  return out;
}
