import { IndexError, fmtShape } from '../errors';

/**
 * One advanced index as the result-shape rule sees it, after the caller has turned masks and
 * booleans into integer indices: it covers `dims` dims of the basic result from `dim` on,
 * and its integer index (or indices, for a mask) have broadcastable shape `shape`: a
 * tensor's own shape, `[nnz]` for a mask, `[1]` or `[0]` for true or false.
 * Give `maskShape` for a mask, to check it against the dims it covers.
 */
export interface AdvancedIndexShape {
  readonly dim: number;
  readonly dims: number;
  readonly shape: readonly number[];
  readonly maskShape?: readonly number[];
}

/** Broadcasts index shapes against each other (right-aligned, size 1 stretches). */
export function broadcastIndexShapes(op: string, shapes: readonly (readonly number[])[]): number[] {
  const ndim = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(ndim).fill(1);
  for (const s of shapes) {
    for (let i = 0; i < s.length; i++) {
      const o = ndim - s.length + i;
      if (s[i] === out[o] || s[i] === 1) continue;
      if (out[o] !== 1) {
        throw new IndexError(
          `${op}: shape mismatch: indexing tensors could not be broadcast together with shapes ${shapes.map(fmtShape).join(', ')}`,
        );
      }
      out[o] = s[i];
    }
  }
  return out;
}

/**
 * Note [Advanced index placement]
 * The indices broadcast to one shape B. When the indexed dims are adjacent, B replaces them
 * where they stand (`x[:, i, j]` has shape `[n0, ...B, rest]`); when other dims separate
 * them, B goes first (`x[i, :, j]` has shape `[...B, n1, rest]`), as in NumPy and PyTorch.
 * `entries` must be in order of `dim` (as `applyBasicIndexing` lists them).
 */
export function advancedIndexShape(op: string, sizes: readonly number[], entries: readonly AdvancedIndexShape[]): number[] {
  if (entries.length === 0) return [...sizes];
  for (const e of entries) {
    if (e.dim + e.dims > sizes.length) throw new IndexError(`${op}: too many indices for tensor of dimension ${sizes.length}`);
    if (e.maskShape === undefined) continue;
    e.maskShape.forEach((m, j) => {
      if (m !== sizes[e.dim + j]) {
        throw new IndexError(
          `${op}: The shape of the mask ${fmtShape(e.maskShape ?? [])} at index ${j} does not match the shape of the indexed tensor ${fmtShape(sizes)} at index ${e.dim + j}`,
        );
      }
    });
  }
  const b = broadcastIndexShapes(
    op,
    entries.map((e) => e.shape),
  );
  const adjacent = entries.every((e, i) => i === 0 || e.dim === entries[i - 1].dim + entries[i - 1].dims);
  const first = entries[0];
  const last = entries[entries.length - 1];
  if (adjacent) return [...sizes.slice(0, first.dim), ...b, ...sizes.slice(last.dim + last.dims)];
  const covered = new Set<number>();
  for (const e of entries) for (let j = 0; j < e.dims; j++) covered.add(e.dim + j);
  return [...b, ...sizes.filter((_, d) => !covered.has(d))];
}
