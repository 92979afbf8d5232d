import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { bigints, bytes, floatArray, itemWidth, words, type FloatArray } from '../loops/arrays';
import { readerOf, writerOf } from '../loops/convert';
import { rawMoveRow } from '../loops/raw';
import { forEachLine } from './lines';

/**
 * Row reductions (Note [Row reductions] in core): `self` is contiguous, float32 or float64
 * (bool for all/any), one slice per `rowLength` elements; results go to float64 scratch,
 * one per row, and are stored into `out` once (rounded to its dtype). Accumulation is in
 * float64 throughout, as PyTorch's CPU var (Welford with double accumulators) does; var is
 * two-pass (mean, then squared deviations), which is as stable, with compensated sums.
 */

function rowCount(out: TensorImpl, self: TensorImpl, rowLength: number): number {
  return rowLength > 0 ? self.numel / rowLength : out.numel;
}

function store(out: TensorImpl, results: Float64Array): void {
  if (results.length > 0) writerOf(out)(results.length, results, out.storageOffset, 1);
}

/**
 * Mean and variance of row `a[o .. o + n)`, written into `res` (var at 0, mean at 1). Both
 * sums are compensated (Neumaier), so a float64 row keeps the accuracy PyTorch's cascade
 * sums give it; an infinite partial sum skips the compensation, which would turn it to NaN.
 */
function rowVar(a: FloatArray, o: number, n: number, correction: number, res: Float64Array): void {
  let s = 0;
  let c = 0;
  for (let i = 0; i < n; i++) {
    const x = a[o + i];
    const t = s + x;
    c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
    s = t;
  }
  const mean = (Number.isFinite(s) ? s + c : s) / n;
  let m2 = 0;
  c = 0;
  for (let i = 0; i < n; i++) {
    const d = a[o + i] - mean;
    const x = d * d;
    const t = m2 + x;
    c += m2 >= x ? m2 - t + x : x - t + m2;
    m2 = t;
  }
  if (Number.isFinite(m2)) m2 += c;
  const divisor = n - correction > 0 ? n - correction : 0;
  res[0] = m2 / divisor;
  res[1] = mean;
}

export const varMean: BackendImpls['varMean'] = (out, mean, self, rowLength, correction, takeSqrt) => {
  const rows = rowCount(out, self, rowLength);
  const a = floatArray(self);
  const vars = new Float64Array(rows);
  const means = mean === null ? null : new Float64Array(rows);
  const res = new Float64Array(2);
  for (let r = 0, o = self.storageOffset; r < rows; r++, o += rowLength) {
    rowVar(a, o, rowLength, correction, res);
    vars[r] = takeSqrt ? Math.sqrt(res[0]) : res[0];
    if (means !== null) means[r] = res[1];
  }
  store(out, vars);
  if (mean !== null && means !== null) store(mean, means);
};

/** log(sum(exp(x - m))) + m with m the row's max, 0 when the max is infinite (PyTorch's masking). */
function rowLogsumexp(a: FloatArray, o: number, n: number): number {
  let m = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = a[o + i];
    if (x > m) m = x;
    else if (x !== x) return NaN;
  }
  const shift = m === Infinity || m === -Infinity ? 0 : m;
  return Math.log(expSum(a, o, n, shift)) + shift;
}

function expSum(a: FloatArray, o: number, n: number, shift: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.exp(a[o + i] - shift);
  return s;
}

export const logsumexp: BackendImpls['logsumexp'] = (out, self, rowLength) => {
  const rows = rowCount(out, self, rowLength);
  const a = floatArray(self);
  const results = new Float64Array(rows);
  for (let r = 0, o = self.storageOffset; r < rows; r++, o += rowLength) results[r] = rowLogsumexp(a, o, rowLength);
  store(out, results);
};

/**
 * sum(|x|^p)^(1/p) of a row, with 0 (count of nonzeros) and ±inf (max/min of |x|) apart.
 * The sum is exact enough in float64; where PyTorch accumulates in float32 (`narrow`), the
 * sum is rounded to float32 before the root, so a float32 sum of squares that overflows is
 * inf as in PyTorch.
 */
function rowNorm(a: FloatArray, o: number, n: number, p: number, narrow: boolean): number {
  if (p === Infinity || p === -Infinity) {
    let m = p === Infinity ? 0 : Infinity;
    for (let i = 0; i < n; i++) {
      const x = Math.abs(a[o + i]);
      if (x !== x) return NaN;
      if (p === Infinity ? x > m : x < m) m = x;
    }
    return m;
  }
  let s = 0;
  if (p === 0) {
    for (let i = 0; i < n; i++) if (a[o + i] !== 0) s += 1;
    return s;
  }
  if (p === 1) for (let i = 0; i < n; i++) s += Math.abs(a[o + i]);
  else if (p === 2)
    for (let i = 0; i < n; i++) {
      const x = a[o + i];
      s += x * x;
    }
  else s = powerSum(a, o, n, p);
  if (narrow) s = Math.fround(s);
  if (p === 1) return s;
  if (p === 2) return Math.sqrt(s);
  return s ** (1 / p);
}

function powerSum(a: FloatArray, o: number, n: number, p: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.pow(Math.abs(a[o + i]), p);
  return s;
}

export const vectorNorm: BackendImpls['vectorNorm'] = (out, self, rowLength, ord) => {
  const rows = rowCount(out, self, rowLength);
  const a = floatArray(self);
  const narrow = self.dtype === 'float32';
  const results = new Float64Array(rows);
  for (let r = 0, o = self.storageOffset; r < rows; r++, o += rowLength) results[r] = rowNorm(a, o, rowLength, ord, narrow);
  store(out, results);
};

function logicalRows(isAll: boolean): BackendImpls['all'] {
  return (out, self, rowLength) => {
    const rows = rowCount(out, self, rowLength);
    const a = bytes(self);
    const results = new Float64Array(rows);
    for (let r = 0, o = self.storageOffset; r < rows; r++, o += rowLength) {
      let v = isAll;
      for (let i = 0; i < rowLength; i++) {
        if ((a[o + i] !== 0) !== isAll) {
          v = !isAll;
          break;
        }
      }
      results[r] = v ? 1 : 0;
    }
    store(out, results);
  };
}

export const all: BackendImpls['all'] = logicalRows(true);
export const any: BackendImpls['any'] = logicalRows(false);

// ---- median / mode along a dim ----

/**
 * Note [Selections along a dim]
 * median and mode order each line's positions by value, stably (equal values keep their
 * order), so the lower median is the element at position (n - 1) / 2 of the sorted order
 * and the mode's index is the last occurrence of the winning value (the smallest of the
 * most frequent), as PyTorch's CPU kernels give. The chosen element is moved into `values`
 * as raw bits.
 */
interface Line {
  /** Reads the line starting at `off` into the keys. */
  read(off: number, stride: number): void;
  /** The first position holding NaN, or -1. */
  firstNaN(): number;
  /** The position of the element at rank `r` of a stable ascending sort. */
  atRank(r: number): number;
  /** The position of the last occurrence of the most frequent value (ties: the smallest value). */
  mode(): number;
}

/**
 * A line of keys: float64 (exact for every dtype but int64) or BigInt64 for int64. The
 * typed arrays' own numeric sort (no comparator) orders a copy; the stable-sort position is
 * then recovered by counting, which is what a stable sort of (value, position) pairs gives.
 */
function lineOf(self: TensorImpl, n: number): Line {
  if (self.dtype === 'int64') {
    const A = bigints(self);
    const keys = new BigInt64Array(n);
    const sorted = new BigInt64Array(n);
    return {
      read(off, stride) {
        for (let i = 0, j = off; i < n; i++, j += stride) keys[i] = A[j];
      },
      firstNaN: () => -1,
      atRank(r) {
        sorted.set(keys);
        sorted.sort();
        const v = sorted[r];
        let k = r;
        while (k > 0 && sorted[k - 1] === v) k--;
        // the (r - k)-th occurrence of v, in position order
        for (let i = 0, seen = 0; i < n; i++) if (keys[i] === v && seen++ === r - k) return i;
        return 0;
      },
      mode() {
        sorted.set(keys);
        sorted.sort();
        let best = sorted[0];
        let bestFreq = 0;
        for (let i = 0, run = 0; i < n; i++) {
          run++;
          if (i === n - 1 || sorted[i] !== sorted[i + 1]) {
            if (run > bestFreq) {
              bestFreq = run;
              best = sorted[i];
            }
            run = 0;
          }
        }
        for (let i = n - 1; i >= 0; i--) if (keys[i] === best) return i;
        return 0;
      },
    };
  }
  const read = readerOf(self);
  const keys = new Float64Array(n);
  const sorted = new Float64Array(n);
  return {
    read(off, stride) {
      read(n, keys, off, stride);
    },
    firstNaN() {
      for (let i = 0; i < n; i++) if (keys[i] !== keys[i]) return i;
      return -1;
    },
    atRank(r) {
      sorted.set(keys);
      sorted.sort();
      const v = sorted[r];
      let k = r;
      while (k > 0 && sorted[k - 1] === v) k--; // -0 and 0 are one value, as for a comparison sort
      for (let i = 0, seen = 0; i < n; i++) if (keys[i] === v && seen++ === r - k) return i;
      return 0;
    },
    mode() {
      sorted.set(keys);
      sorted.sort();
      let best = sorted[0];
      let bestFreq = 0;
      for (let i = 0, run = 0; i < n; i++) {
        run++;
        if (i === n - 1 || sorted[i] !== sorted[i + 1]) {
          if (run > bestFreq) {
            bestFreq = run;
            best = sorted[i];
          }
          run = 0;
        }
      }
      for (let i = n - 1; i >= 0; i--) if (keys[i] === best) return i;
      return n - 1; // a NaN mode: PyTorch's order is unspecified there
    },
  };
}

function selectAlongDim(choose: (line: Line, n: number) => number): BackendImpls['medianDim'] {
  return (values, indices, self, dim) => {
    const n = self.sizes[dim];
    const stride = self.strides[dim];
    const line = lineOf(self, n);
    const move = rawMoveRow(itemWidth(values), values, self);
    const moveBase = new Int32Array(2);
    const unit = [1, 1];
    const idx = indices === null ? null : words(indices);
    const tensors = indices === null ? [values, self] : [values, self, indices];
    forEachLine(tensors, dim, (offs) => {
      line.read(offs[1], stride);
      const k = choose(line, n);
      moveBase[0] = offs[0];
      moveBase[1] = offs[1] + k * stride;
      move(1, moveBase, unit);
      if (idx !== null) {
        idx[2 * offs[2]] = k;
        idx[2 * offs[2] + 1] = 0;
      }
    });
  };
}

export const medianDim: BackendImpls['medianDim'] = selectAlongDim((line, n) => {
  const nan = line.firstNaN();
  return nan >= 0 ? nan : line.atRank((n - 1) >> 1);
});

export const modeDim: BackendImpls['modeDim'] = selectAlongDim((line) => line.mode());
