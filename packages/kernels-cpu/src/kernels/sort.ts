import { TorchError, type SortingImpls, type TensorImpl } from '@torch-ts/core';
import { bigints, itemWidth, raw1, raw2, raw4, words } from '../loops/arrays';
import { readerOf } from '../loops/convert';

/**
 * Note [Sorting kernels]
 * Each slice along `dim` is read into a key array (float64 for every dtype but int64, which
 * is exact; int64 keys stay BigInts so values beyond 2^53 order exactly), the positions are
 * sorted stably by key (Note [Stable index sort]; PyTorch's CPU sort with stable=True) with
 * NaN above every number, and the values are then moved as raw bits from their source
 * positions: no rounding, NaN payloads kept.
 */

type Keys = Float64Array | BigInt64Array;

/** Offsets of the first element of every slice along `dim` of a tensor's geometry. */
function sliceStarts(sizes: readonly number[], strides: readonly number[], offset: number, dim: number): number[] {
  const starts = [offset];
  for (let d = sizes.length - 1; d >= 0; d--) {
    if (d === dim) continue;
    const n = sizes[d];
    const st = strides[d];
    const prev = starts.length;
    for (let i = 1; i < n; i++) for (let j = 0; j < prev; j++) starts.push(starts[j] + i * st);
    if (n === 0) return [];
  }
  return starts;
}

function readKeys(t: TensorImpl, n: number): (keys: Keys, off: number, stride: number) => void {
  if (t.dtype === 'int64') {
    const a = bigints(t);
    return (keys, off, stride) => {
      if (!(keys instanceof BigInt64Array)) throw new TorchError('sort: internal error: int64 keys in a float buffer');
      for (let i = 0, j = off; i < n; i++, j += stride) keys[i] = a[j];
    };
  }
  const read = readerOf(t);
  return (keys, off, stride) => {
    if (!(keys instanceof Float64Array)) throw new TorchError('sort: internal error: float keys in an int64 buffer');
    read(n, keys, off, stride);
  };
}

function newKeys(t: TensorImpl, n: number): Keys {
  return t.dtype === 'int64' ? new BigInt64Array(n) : new Float64Array(n);
}

/**
 * Note [Stable index sort]
 * Sorting is a bottom-up merge sort of (key, position) pairs, insertion sort on runs of 32
 * first: stable by construction. Keys travel with their positions, so every pass reads and
 * writes sequentially (looking keys up through the positions made each pass a random walk,
 * 2x slower), and the inner loops are direct typed-array loads with no comparator call
 * (`Array.prototype.sort` with a comparator was ~4x slower). Descending order is the
 * ascending sort of reversed keys (-x for floats, ~x for int64: both keep ties equal, so
 * stability is kept); NaNs are set aside first and put after (ascending) or before
 * (descending) the rest, in their original order.
 */
const RUN = 32;

function sortF64(k: Float64Array, idx: Uint32Array, k2: Float64Array, idx2: Uint32Array, n: number): Uint32Array {
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = lo + RUN < n ? lo + RUN : n;
    for (let i = lo + 1; i < hi; i++) {
      const kv = k[i];
      const v = idx[i];
      let j = i - 1;
      while (j >= lo && k[j] > kv) {
        k[j + 1] = k[j];
        idx[j + 1] = idx[j];
        j--;
      }
      k[j + 1] = kv;
      idx[j + 1] = v;
    }
  }
  let sk = k;
  let si = idx;
  let dk = k2;
  let di = idx2;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = lo + width < n ? lo + width : n;
      const hi = lo + 2 * width < n ? lo + 2 * width : n;
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) {
        const a = sk[i];
        const b = sk[j];
        if (b < a) {
          dk[o] = b;
          di[o++] = si[j++];
        } else {
          dk[o] = a;
          di[o++] = si[i++];
        }
      }
      while (i < mid) {
        dk[o] = sk[i];
        di[o++] = si[i++];
      }
      while (j < hi) {
        dk[o] = sk[j];
        di[o++] = si[j++];
      }
    }
    const tk = sk;
    sk = dk;
    dk = tk;
    const ti = si;
    si = di;
    di = ti;
  }
  return si;
}

// The same merge sort as sortF64, over BigInt keys. Kept as a copy on purpose: one generic
// function sees both number and BigInt comparisons and V8 falls back to generic code,
// measured 2.5-4.5x slower on 1M elements once a process has sorted both kinds.
function sortBig(k: BigInt64Array, idx: Uint32Array, k2: BigInt64Array, idx2: Uint32Array, n: number): Uint32Array {
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = lo + RUN < n ? lo + RUN : n;
    for (let i = lo + 1; i < hi; i++) {
      const kv = k[i];
      const v = idx[i];
      let j = i - 1;
      while (j >= lo && k[j] > kv) {
        k[j + 1] = k[j];
        idx[j + 1] = idx[j];
        j--;
      }
      k[j + 1] = kv;
      idx[j + 1] = v;
    }
  }
  let sk = k;
  let si = idx;
  let dk = k2;
  let di = idx2;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = lo + width < n ? lo + width : n;
      const hi = lo + 2 * width < n ? lo + 2 * width : n;
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) {
        const a = sk[i];
        const b = sk[j];
        if (b < a) {
          dk[o] = b;
          di[o++] = si[j++];
        } else {
          dk[o] = a;
          di[o++] = si[i++];
        }
      }
      while (i < mid) {
        dk[o] = sk[i];
        di[o++] = si[i++];
      }
      while (j < hi) {
        dk[o] = sk[j];
        di[o++] = si[j++];
      }
    }
    const tk = sk;
    sk = dk;
    dk = tk;
    const ti = si;
    si = di;
    di = ti;
  }
  return si;
}

/** Scratch of one slice sort, reused across the slices of a call. */
class Sorter {
  private readonly idx: Uint32Array;
  private readonly idx2: Uint32Array;
  private readonly order: Uint32Array;
  private readonly nans: Uint32Array;
  private readonly fk: Float64Array | null;
  private readonly fk2: Float64Array | null;
  private readonly bk: BigInt64Array | null;
  private readonly bk2: BigInt64Array | null;

  constructor(
    private readonly n: number,
    big: boolean,
  ) {
    this.idx = new Uint32Array(n);
    this.idx2 = new Uint32Array(n);
    this.order = new Uint32Array(n);
    this.nans = new Uint32Array(n);
    this.fk = big ? null : new Float64Array(n);
    this.fk2 = big ? null : new Float64Array(n);
    this.bk = big ? new BigInt64Array(n) : null;
    this.bk2 = big ? new BigInt64Array(n) : null;
  }

  /** The positions 0..n-1 of `keys` in sorted order (Note [Stable index sort]); `keys` is left as it was. */
  run(keys: Keys, desc: boolean): Uint32Array {
    const n = this.n;
    if (keys instanceof BigInt64Array) {
      const k = this.bk!;
      for (let i = 0; i < n; i++) {
        k[i] = desc ? ~keys[i] : keys[i];
        this.idx[i] = i;
      }
      return sortBig(k, this.idx, this.bk2!, this.idx2, n);
    }
    const k = this.fk!;
    let m = 0;
    let nn = 0;
    for (let i = 0; i < n; i++) {
      const x = keys[i];
      if (x !== x) this.nans[nn++] = i;
      else {
        k[m] = desc ? -x : x;
        this.idx[m++] = i;
      }
    }
    const sorted = sortF64(k, this.idx, this.fk2!, this.idx2, m);
    if (nn === 0) return sorted;
    const out = this.order;
    if (desc) {
      out.set(this.nans.subarray(0, nn), 0);
      out.set(sorted.subarray(0, m), nn);
    } else {
      out.set(sorted.subarray(0, m), 0);
      out.set(this.nans.subarray(0, nn), m);
    }
    return out;
  }
}

/** Moves `count` elements: dst[dOff + j*dSt] = src[sOff + order[j]*sSt], raw bits of `width`. */
type Gather = (order: ArrayLike<number>, count: number, dOff: number, dSt: number, sOff: number, sSt: number) => void;

function gatherOf(dst: TensorImpl, src: TensorImpl): Gather {
  switch (itemWidth(dst)) {
    case 1:
      return gather1(raw1(dst), raw1(src));
    case 2:
      return gather2(raw2(dst), raw2(src));
    case 4:
      return gather4(raw4(dst), raw4(src));
    case 8:
      return gather8(raw4(dst), raw4(src));
  }
}

const gather1 =
  (D: Uint8Array, S: Uint8Array): Gather =>
  (order, count, dOff, dSt, sOff, sSt) => {
    for (let j = 0; j < count; j++) D[dOff + j * dSt] = S[sOff + order[j] * sSt];
  };
const gather2 =
  (D: Uint16Array, S: Uint16Array): Gather =>
  (order, count, dOff, dSt, sOff, sSt) => {
    for (let j = 0; j < count; j++) D[dOff + j * dSt] = S[sOff + order[j] * sSt];
  };
const gather4 =
  (D: Int32Array, S: Int32Array): Gather =>
  (order, count, dOff, dSt, sOff, sSt) => {
    for (let j = 0; j < count; j++) D[dOff + j * dSt] = S[sOff + order[j] * sSt];
  };
const gather8 =
  (D: Int32Array, S: Int32Array): Gather =>
  (order, count, dOff, dSt, sOff, sSt) => {
    for (let j = 0; j < count; j++) {
      const d = 2 * (dOff + j * dSt);
      const s = 2 * (sOff + order[j] * sSt);
      D[d] = S[s];
      D[d + 1] = S[s + 1];
    }
  };

/** int64 indices (positions < 2^31) written as two words. */
function writeIndices(w: Int32Array, order: ArrayLike<number>, count: number, off: number, stride: number): void {
  for (let j = 0; j < count; j++) {
    const at = 2 * (off + j * stride);
    w[at] = order[j];
    w[at + 1] = 0;
  }
}

/** Sorts the first `keep` positions of every slice into values/indices (sort: keep = n; topk: k). */
function sortSlices(values: TensorImpl, indices: TensorImpl, self: TensorImpl, dim: number, desc: boolean, keep: number): void {
  const n = self.sizes[dim];
  const ss = sliceStarts(self.sizes, self.strides, self.storageOffset, dim);
  const vs = sliceStarts(values.sizes, values.strides, values.storageOffset, dim);
  const is = sliceStarts(indices.sizes, indices.strides, indices.storageOffset, dim);
  const keys = newKeys(self, n);
  const read = readKeys(self, n);
  const sorter = new Sorter(n, self.dtype === 'int64');
  const gather = gatherOf(values, self);
  const w = words(indices);
  const sst = self.strides[dim];
  const vst = values.strides[dim];
  const ist = indices.strides[dim];
  for (let s = 0; s < ss.length; s++) {
    read(keys, ss[s], sst);
    const order = sorter.run(keys, desc);
    gather(order, keep, vs[s], vst, ss[s], sst);
    writeIndices(w, order, keep, is[s], ist);
  }
}

export const sort: SortingImpls['sort'] = (values, indices, self, dim, desc) => sortSlices(values, indices, self, dim, desc, self.sizes[dim]);

/**
 * Note [topk by selection]
 * For a small k, each slice is scanned once keeping the k best (key, position) pairs in a
 * binary heap whose root is the worst kept; then those k are sorted. "Better" is: a NaN
 * (largest) or a non-NaN (smallest) first, then the larger (largest) or smaller value,
 * then the smaller position, so ties go to the earlier element, as the full sort gives.
 * For a k near n the full stable sort is cheaper.
 */
class TopkHeap {
  readonly v: Float64Array;
  /** The entry's class: 1 is better than 0 (a NaN for largest, a number for smallest). */
  readonly nan: Uint8Array;
  readonly pos: Uint32Array;
  size = 0;
  constructor(readonly k: number) {
    this.v = new Float64Array(k);
    this.nan = new Uint8Array(k);
    this.pos = new Uint32Array(k);
  }

  /** Whether entry a is worse than entry b (values already oriented: larger is better). */
  private worse(a: number, b: number): boolean {
    if (this.nan[a] !== this.nan[b]) return this.nan[a] < this.nan[b];
    if (this.v[a] !== this.v[b]) return this.v[a] < this.v[b];
    return this.pos[a] > this.pos[b];
  }

  private swap(a: number, b: number): void {
    const v = this.v[a];
    this.v[a] = this.v[b];
    this.v[b] = v;
    const n = this.nan[a];
    this.nan[a] = this.nan[b];
    this.nan[b] = n;
    const p = this.pos[a];
    this.pos[a] = this.pos[b];
    this.pos[b] = p;
  }

  offer(value: number, nan: number, pos: number): void {
    if (this.size < this.k) {
      let i = this.size++;
      this.v[i] = value;
      this.nan[i] = nan;
      this.pos[i] = pos;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    // better than the worst kept? (a later position never wins a tie)
    const rn = this.nan[0];
    if (nan < rn || (nan === rn && !(value > this.v[0]))) return;
    this.v[0] = value;
    this.nan[0] = nan;
    this.pos[0] = pos;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.worse(l, m)) m = l;
      if (r < this.size && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
}

function topkSelect(values: TensorImpl, indices: TensorImpl, self: TensorImpl, k: number, dim: number, largest: boolean): void {
  const n = self.sizes[dim];
  const ss = sliceStarts(self.sizes, self.strides, self.storageOffset, dim);
  const vs = sliceStarts(values.sizes, values.strides, values.storageOffset, dim);
  const is = sliceStarts(indices.sizes, indices.strides, indices.storageOffset, dim);
  const read = readerOf(self);
  const keys = new Float64Array(n);
  const gather = gatherOf(values, self);
  const w = words(indices);
  const order = new Uint32Array(k);
  for (let s = 0; s < ss.length; s++) {
    read(n, keys, ss[s], self.strides[dim]);
    const heap = new TopkHeap(k);
    for (let i = 0; i < n; i++) {
      const x = keys[i];
      const isNan = x !== x;
      // oriented so that larger is better; a NaN is the best of largest, the worst of smallest
      heap.offer(isNan ? 0 : largest ? x : -x, largest ? (isNan ? 1 : 0) : isNan ? 0 : 1, i);
    }
    // the kept k, best first (k is small here: a comparator sort is fine)
    const kept = Array.from({ length: k }, (_, j) => j);
    kept.sort((a, b) => heap.nan[b] - heap.nan[a] || heap.v[b] - heap.v[a] || heap.pos[a] - heap.pos[b]);
    for (let j = 0; j < k; j++) order[j] = heap.pos[kept[j]];
    gather(order, k, vs[s], values.strides[dim], ss[s], self.strides[dim]);
    writeIndices(w, order, k, is[s], indices.strides[dim]);
  }
}

export const topk: SortingImpls['topk'] = (values, indices, self, k, dim, largest) => {
  const n = self.sizes[dim];
  if (self.dtype !== 'int64' && k > 0 && k * 8 < n) topkSelect(values, indices, self, k, dim, largest);
  else sortSlices(values, indices, self, dim, largest, k);
};

// ---- searchsorted ----
function readAll(t: TensorImpl): Float64Array {
  const a = new Float64Array(t.numel);
  if (t.numel > 0) readerOf(t)(t.numel, a, t.storageOffset, 1);
  return a;
}

export const searchsorted: SortingImpls['searchsorted'] = (out, boundaries, self, right, sorter) => {
  const m = boundaries.sizes[1];
  const rows = self.sizes[0];
  const k = self.sizes[1];
  const shared = boundaries.sizes[0] === 1;
  const bd = readAll(boundaries);
  const v = readAll(self);
  const perm = sorter ? readAll(sorter) : null;
  const res = new Float64Array(out.numel);
  for (let r = 0; r < rows; r++) {
    const base = shared ? 0 : r * m;
    for (let j = 0; j < k; j++) {
      const x = v[r * k + j];
      let lo = 0;
      let hi = m;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const b = perm ? bd[base + perm[base + mid]] : bd[base + mid];
        // PyTorch's predicates: a NaN value is never <= / < a boundary, so it goes last
        const before = right ? !(b > x) : !(b >= x);
        if (before) lo = mid + 1;
        else hi = mid;
      }
      res[r * k + j] = lo;
    }
  }
  if (out.dtype === 'int32') out.storage.typed(Int32Array).set(toInt32(res), out.storageOffset);
  else writeIndices(words(out), res, res.length, out.storageOffset, 1);
};

function toInt32(a: Float64Array): Int32Array {
  const r = new Int32Array(a.length);
  for (let i = 0; i < a.length; i++) r[i] = a[i];
  return r;
}

// ---- unique ----
export const unique: SortingImpls['unique'] = (values, inverse, counts, self) => {
  const n = self.sizes[0];
  const m = self.sizes[1];
  const big = self.dtype === 'int64';
  const fk = big ? null : readAll(self);
  const bk = big ? bigints(self).subarray(self.storageOffset, self.storageOffset + n * m) : null;
  const cmpRows = (a: number, b: number): number => {
    for (let c = 0; c < m; c++) {
      let r: number;
      if (bk) {
        const x = bk[a * m + c];
        const y = bk[b * m + c];
        r = x < y ? -1 : x > y ? 1 : 0;
      } else {
        const x = fk![a * m + c];
        const y = fk![b * m + c];
        const xn = x !== x;
        const yn = y !== y;
        r = xn || yn ? (xn && yn ? 0 : xn ? 1 : -1) : x < y ? -1 : x > y ? 1 : 0;
      }
      if (r !== 0) return r;
    }
    return a - b;
  };
  const sameRow = (a: number, b: number): boolean => {
    for (let c = 0; c < m; c++) {
      if (bk) {
        if (bk[a * m + c] !== bk[b * m + c]) return false;
      } else if (!(fk![a * m + c] === fk![b * m + c])) return false; // NaN equals nothing
    }
    return true;
  };
  let order: ArrayLike<number>;
  if (m === 1) {
    order = new Sorter(n, bk !== null).run(bk ?? fk!, false);
  } else {
    const rows: number[] = new Array<number>(n);
    for (let i = 0; i < n; i++) rows[i] = i;
    order = rows.sort(cmpRows);
  }
  const firsts: number[] = [];
  const cnt: number[] = [];
  const inv = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (i === 0 || !sameRow(order[i - 1], order[i])) {
      firsts.push(order[i]);
      cnt.push(0);
    }
    cnt[cnt.length - 1]++;
    inv[order[i]] = firsts.length - 1;
  }
  // each distinct row is m consecutive elements of its first occurrence
  const gather = gatherOf(values, self);
  const zero = [0];
  for (let g = 0; g < firsts.length; g++) {
    for (let c = 0; c < m; c++) gather(zero, 1, values.storageOffset + g * m + c, 1, self.storageOffset + firsts[g] * m + c, 0);
  }
  writeIndices(words(inverse), inv, n, inverse.storageOffset, 1);
  writeIndices(words(counts), cnt, cnt.length, counts.storageOffset, 1);
  return firsts.length;
};
