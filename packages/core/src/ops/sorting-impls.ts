import type { TensorImpl } from '../tensor/tensor-impl';

/**
 * The impls of the sorting family (sorting.ts; Note [What a backend implements]). Outputs
 * are preallocated by core; `dim` is normalised; indices are int64 (searchsorted: int64 or
 * int32, as asked).
 */
export interface SortingImpls {
  /**
   * `values` and `indices` (shape of `self`) hold each slice along `dim` sorted, stably:
   * equal elements keep their order, NaN sorts above every number (first when descending).
   */
  sort: (values: TensorImpl, indices: TensorImpl, self: TensorImpl, dim: number, descending: boolean) => void;
  /**
   * The k largest (or smallest) of each slice along `dim`, in order (largest first, or
   * smallest first), NaN counting as the largest; ties in index order. `values`/`indices`
   * have size k in `dim`.
   */
  topk: (values: TensorImpl, indices: TensorImpl, self: TensorImpl, k: number, dim: number, largest: boolean) => void;
  /**
   * For each element of `self` ([B, K], contiguous) the insertion point into its row of
   * `boundaries` ([B, M] or [1, M] shared by every row; contiguous, same dtype as self),
   * read in the order `sorter` ([B, M] int64, or null) gives: the first i with
   * `boundaries[i] >= v` (`> v` when `right`); NaN goes last. `out` [B, K] int64 or int32.
   */
  searchsorted: (out: TensorImpl, boundaries: TensorImpl, self: TensorImpl, right: boolean, sorter: TensorImpl | null) => void;
  /**
   * The distinct rows of `self` ([n, m], contiguous; m = 1 for elementwise unique), sorted
   * (lexicographically); a row with a NaN equals no other. Writes the distinct rows into the
   * first rows of `values` ([n, m]), for each input row its group into `inverse` ([n] int64)
   * and each group's size into `counts` ([n] int64); returns the number of distinct rows.
   * `count` is that number when core knows it already (an async form awaited it: Note
   * [Data-dependent sizes on async-read backends]); a backend with `uniqueCountAsync` always
   * gets it and writes no group past it.
   */
  unique: (values: TensorImpl, inverse: TensorImpl, counts: TensorImpl, self: TensorImpl, count: number | null) => number;
  /**
   * The number of distinct rows of `self` (as `unique` takes it), read asynchronously, on a
   * backend that cannot read synchronously (WebGPU); CPU opts out (`notImplemented`).
   */
  uniqueCountAsync: (self: TensorImpl) => Promise<number>;
}
