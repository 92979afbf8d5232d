import type { ReorderImpls, TensorImpl } from '@torch-ts/core';
import { bytes, itemWidth, raw1, raw2, raw4 } from '../loops/arrays';
import { copy } from './copy';

/**
 * triu / tril's zeroing (core copies the input first, or writes in place): per row of the
 * last two dims, the dropped columns form one range, zeroed with `TypedArray.fill` when the
 * columns are contiguous, element by element otherwise. Zero has all bits clear in every
 * dtype, so the fill works on raw words by width.
 */
type RawArray = Uint8Array | Uint16Array | Int32Array;

function rawOf(t: TensorImpl): [RawArray, number] {
  switch (itemWidth(t)) {
    case 1:
      return [raw1(t), 1];
    case 2:
      return [raw2(t), 1];
    case 4:
      return [raw4(t), 1];
    case 8:
      return [raw4(t), 2]; // two words per element
  }
}

/** Offsets of every matrix (the last two dims) of `t`. */
function matrixStarts(t: TensorImpl): number[] {
  let starts = [t.storageOffset];
  for (let d = t.sizes.length - 3; d >= 0; d--) {
    const next: number[] = [];
    for (let i = 0; i < t.sizes[d]; i++) for (const s of starts) next.push(s + i * t.strides[d]);
    starts = next;
  }
  return starts;
}

export const triZero: ReorderImpls['triZero'] = (t, upper, k) => {
  const nd = t.sizes.length;
  const rows = t.sizes[nd - 2];
  const cols = t.sizes[nd - 1];
  if (t.numel === 0) return;
  const rs = t.strides[nd - 2];
  const cs = t.strides[nd - 1];
  const [a, w] = rawOf(t);
  for (const base of matrixStarts(t)) {
    for (let i = 0; i < rows; i++) {
      const lo = upper ? 0 : Math.min(Math.max(i + k + 1, 0), cols);
      const hi = upper ? Math.min(Math.max(i + k, 0), cols) : cols;
      if (hi <= lo) continue;
      const row = base + i * rs;
      if (cs === 1) a.fill(0, (row + lo) * w, (row + hi) * w);
      else for (let j = lo; j < hi; j++) a.fill(0, (row + j * cs) * w, (row + j * cs + 1) * w);
    }
  }
};

/**
 * flip of a contiguous tensor: with L the last flipped dim, every index of the dims up to L
 * maps to a block of `inner` consecutive elements (the product of the sizes after L), moved
 * with one `TypedArray.set` of bytes from its mirrored position; when L is the last dim the
 * rows are reversed element by element by width. Other layouts copy the negative-stride view.
 */
export const flip: ReorderImpls['flip'] = (out, self, dims, flipped) => {
  if (!self.isContiguous || !out.isContiguous) {
    copy(out, flipped);
    return;
  }
  const sizes = self.sizes;
  const last = Math.max(...dims);
  let inner = 1;
  for (let d = last + 1; d < sizes.length; d++) inner *= sizes[d];
  const isFlipped = sizes.map((_, d) => dims.includes(d));
  const strides = sizes.map((_, d) => {
    let s = inner;
    for (let e = d + 1; e <= last; e++) s *= sizes[e];
    return s;
  });
  const width = itemWidth(self);
  const src = bytes(self);
  const dst = bytes(out);
  const n = sizes[last];
  const idx = new Array<number>(last).fill(0);
  const blocks = self.numel / (inner * n);
  const row = rowReverser(out, self);
  let dOff = out.storageOffset;
  for (let b = 0; b < blocks; b++) {
    let sOff = self.storageOffset;
    for (let d = 0; d < last; d++) sOff += (isFlipped[d] ? sizes[d] - 1 - idx[d] : idx[d]) * strides[d];
    if (inner === 1) row(n, dOff, sOff + n - 1);
    else {
      for (let j = 0; j < n; j++) {
        const s = (sOff + (n - 1 - j) * inner) * width;
        dst.set(src.subarray(s, s + inner * width), (dOff + j * inner) * width);
      }
    }
    dOff += n * inner;
    for (let d = last - 1; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
};

/** Writes n elements at dOff.. from sEnd, sEnd - 1, ... (raw bits by width). */
function rowReverser(out: TensorImpl, self: TensorImpl): (n: number, dOff: number, sEnd: number) => void {
  switch (itemWidth(self)) {
    case 1: {
      const D = raw1(out);
      const S = raw1(self);
      return (n, d, s) => {
        for (let j = 0; j < n; j++) D[d + j] = S[s - j];
      };
    }
    case 2: {
      const D = raw2(out);
      const S = raw2(self);
      return (n, d, s) => {
        for (let j = 0; j < n; j++) D[d + j] = S[s - j];
      };
    }
    case 4: {
      const D = raw4(out);
      const S = raw4(self);
      return (n, d, s) => {
        for (let j = 0; j < n; j++) D[d + j] = S[s - j];
      };
    }
    case 8: {
      const D = raw4(out);
      const S = raw4(self);
      return (n, d, s) => {
        for (let j = 0; j < n; j++) {
          D[2 * (d + j)] = S[2 * (s - j)];
          D[2 * (d + j) + 1] = S[2 * (s - j) + 1];
        }
      };
    }
  }
}
