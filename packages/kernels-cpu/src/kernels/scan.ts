import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { bigints, floatArray, words } from '../loops/arrays';
import { readerOf, writerOf } from '../loops/convert';
import { forEachLine } from './lines';

/**
 * The scans (Note [Scans] in core). `out` and `self` share a dtype; accumulators are
 * PyTorch's CPU `acc_type`: double for float32 and float64 (read and written directly),
 * float for float16/bfloat16 (Math.fround after each step, rounded to 16 bits on store),
 * int64 for the integers: int64 lines run on BigInt, narrower integers on 32-bit integer
 * arithmetic, which keeps the low bits an int64 accumulator would store into them.
 */

type Step = 'sum' | 'prod';

function scanFloat(out: TensorImpl, self: TensorImpl, dim: number, step: Step): void {
  const O = floatArray(out);
  const A = floatArray(self);
  const n = self.sizes[dim];
  const os = out.strides[dim];
  const as = self.strides[dim];
  forEachLine([out, self], dim, (offs) => {
    let acc = step === 'sum' ? 0 : 1;
    for (let i = 0, o = offs[0], a = offs[1]; i < n; i++, o += os, a += as) {
      if (step === 'sum') acc += A[a];
      else acc *= A[a];
      O[o] = acc;
    }
  });
}

function scanInt64(out: TensorImpl, self: TensorImpl, dim: number, step: Step): void {
  const O = bigints(out);
  const A = bigints(self);
  const n = self.sizes[dim];
  const os = out.strides[dim];
  const as = self.strides[dim];
  forEachLine([out, self], dim, (offs) => {
    let acc = step === 'sum' ? 0n : 1n;
    for (let i = 0, o = offs[0], a = offs[1]; i < n; i++, o += os, a += as) {
      O[o] = step === 'sum' ? acc + A[a] : acc * A[a];
      acc = O[o]; // the store wrapped it modulo 2^64
    }
  });
}

/** 16-bit floats (float accumulator) and the narrow integers and bool (int32 arithmetic), on float64 scratch. */
function scanScratch(out: TensorImpl, self: TensorImpl, dim: number, step: Step): void {
  const n = self.sizes[dim];
  const os = out.strides[dim];
  const as = self.strides[dim];
  const read = readerOf(self);
  const write = writerOf(out);
  const line = new Float64Array(n);
  const half = self.dtype === 'float16' || self.dtype === 'bfloat16';
  const bool = self.dtype === 'bool';
  forEachLine([out, self], dim, (offs) => {
    read(n, line, offs[1], as);
    if (half) {
      let acc = step === 'sum' ? 0 : 1;
      for (let i = 0; i < n; i++) line[i] = acc = Math.fround(step === 'sum' ? acc + line[i] : acc * line[i]);
    } else if (bool) {
      let acc = step === 'sum' ? 0 : 1;
      for (let i = 0; i < n; i++) line[i] = acc = step === 'sum' ? (acc !== 0 || line[i] !== 0 ? 1 : 0) : acc * line[i];
    } else {
      let acc = step === 'sum' ? 0 : 1;
      for (let i = 0; i < n; i++) line[i] = acc = step === 'sum' ? (acc + line[i]) | 0 : Math.imul(acc, line[i]);
    }
    write(n, line, offs[0], os);
  });
}

function scan(step: Step): BackendImpls['cumsum'] {
  return (out, self, dim) => {
    if (out.numel === 0) return;
    if (self.dtype === 'float32' || self.dtype === 'float64') scanFloat(out, self, dim, step);
    else if (self.dtype === 'int64') scanInt64(out, self, dim, step);
    else scanScratch(out, self, dim, step);
  };
}

export const cumsum: BackendImpls['cumsum'] = scan('sum');
export const cumprod: BackendImpls['cumprod'] = scan('prod');

/**
 * cummax/cummin, as PyTorch's cummax_cummin_helper: an element replaces the running value
 * when it is NaN, or when the running value is not NaN and the element is >= (<= for cummin)
 * it; so ties and NaNs move the index to the latest position. Values are written from the
 * float64 scratch (exact for every dtype but int64, which runs on BigInt).
 */
function cumExtremum(isMax: boolean): BackendImpls['cummax'] {
  return (values, indices, self, dim) => {
    if (values.numel === 0) return;
    const n = self.sizes[dim];
    const vs = values.strides[dim];
    const is = indices.strides[dim];
    const as = self.strides[dim];
    const I = words(indices);
    if (self.dtype === 'int64') {
      const A = bigints(self);
      const V = bigints(values);
      forEachLine([values, indices, self], dim, (offs) => {
        let best = A[offs[2]];
        let at = 0;
        for (let i = 0, v = offs[0], j = offs[1], a = offs[2]; i < n; i++, v += vs, j += is, a += as) {
          const x = A[a];
          if (isMax ? x >= best : x <= best) {
            best = x;
            at = i;
          }
          V[v] = best;
          I[2 * j] = at;
          I[2 * j + 1] = 0;
        }
      });
      return;
    }
    const read = readerOf(self);
    const write = writerOf(values);
    const line = new Float64Array(n);
    forEachLine([values, indices, self], dim, (offs) => {
      read(n, line, offs[2], as);
      let best = line[0];
      let at = 0;
      for (let i = 0, j = offs[1]; i < n; i++, j += is) {
        const x = line[i];
        if (x !== x || (best === best && (isMax ? x >= best : x <= best))) {
          best = x;
          at = i;
        }
        line[i] = best;
        I[2 * j] = at;
        I[2 * j + 1] = 0;
      }
      write(n, line, offs[0], vs);
    });
  };
}

export const cummax: BackendImpls['cummax'] = cumExtremum(true);
export const cummin: BackendImpls['cummin'] = cumExtremum(false);
