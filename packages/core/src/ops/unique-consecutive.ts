import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { normalizeDim } from '../views/dims';
import { empty, ones, tensor } from './factories';
import { front } from './front';
import { cat } from './join';
import { checkCountReadable, countNonzeroAsync, countsAreAsync, withKnownCounts } from './data-dependent';

/**
 * Note [unique_consecutive]
 * torch.unique_consecutive keeps the first of each run of equal elements (or of equal slices
 * along `dim`), in order: keep[0] = true, keep[i] = x[i] != x[i - 1] (so consecutive NaNs are
 * each kept, as 1.13's `!=` does). The values are the kept elements (a data-dependent size:
 * on a device that cannot size a result at once this raises as nonzero does), the inverse is
 * cumsum(keep) - 1 in the input's shape (or along `dim`), the counts are the gaps between
 * the kept positions.
 */
const SCHEMA = 'unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Tensor[]';

/** keep[i]: whether row i (element i, or slice i along `dim`) starts a run; and the rows. */
function runStarts(self: Tensor, dim0: number | null | undefined): { keep: Tensor; rows: Tensor; d: number; byDim: boolean } {
  const byDim = dim0 != null;
  const d = byDim ? normalizeDim('unique_consecutive', dim0, Math.max(self.dim(), 1)) : 0;
  const rows = byDim ? self.movedim(d, 0) : self.reshape([-1]);
  const n = rows.shape[0];
  if (n === 0) return { keep: empty([0], { dtype: 'bool', device: self.device }), rows, d, byDim };
  const flat = byDim ? rows.reshape([n, -1]) : rows;
  const differs = byDim ? flat.slice(0, 1).ne(flat.slice(0, 0, -1)).any(1) : flat.slice(0, 1).ne(flat.slice(0, 0, -1));
  return { keep: cat([ones([1], { dtype: 'bool', device: self.device }), differs]), rows, d, byDim };
}

function uniqueConsecutiveOf(self: Tensor, returnInverse: boolean, returnCounts: boolean, dim0: number | null | undefined): Tensor | Tensor[] {
  checkCountReadable('unique_consecutive', self.device);
  const parts = tidy(() => {
    const { keep, rows, d, byDim } = runStarts(self, dim0);
    const n = rows.shape[0];
    const longOpts = { dtype: 'int64' as const, device: self.device };
    if (n === 0) return [rows.clone().movedim(0, d), empty(byDim ? [0] : self.shape, longOpts), empty([0], longOpts)];
    const starts = keep.nonzero().reshape([-1]);
    const values = byDim ? rows.indexSelect(0, starts).movedim(0, d) : rows.indexSelect(0, starts);
    const inverse = keep.to('int64').cumsum(0).sub(1);
    const counts = cat([starts, tensor([n], longOpts)]).diff();
    return [values, byDim ? inverse : inverse.reshape(self.shape), counts];
  });
  const wanted = [true, returnInverse, returnCounts];
  parts.forEach((p, i) => {
    if (!wanted[i]) p.dispose();
  });
  const result = parts.filter((_, i) => wanted[i]);
  return result.length === 1 ? result[0] : result;
}

/** `torch.uniqueConsecutive(x, { returnInverse, returnCounts, dim })`: runs of equal elements (or slices) collapsed. */
export const uniqueConsecutive = front(SCHEMA).run(([self, inv, cnt, dim]): Tensor | Tensor[] => uniqueConsecutiveOf(self, inv, cnt, dim));

/**
 * `await torch.uniqueConsecutiveAsync(x, options)`: the same on any device; where tensors are
 * read asynchronously only, the number of runs is counted on the device and read first
 * (Note [Data-dependent sizes on async-read backends]).
 */
export const uniqueConsecutiveAsync = front(SCHEMA, { name: 'uniqueConsecutiveAsync', method: false }).run(
  async ([self, inv, cnt, dim]): Promise<Tensor | Tensor[]> => {
    if (!countsAreAsync(self.device)) return uniqueConsecutiveOf(self, inv, cnt, dim);
    const keep = tidy(() => runStarts(self, dim).keep);
    let n: number;
    try {
      n = await countNonzeroAsync(keep.impl);
    } finally {
      keep.dispose();
    }
    return withKnownCounts([n], () => uniqueConsecutiveOf(self, inv, cnt, dim));
  },
);
