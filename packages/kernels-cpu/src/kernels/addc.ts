import type { TensorImpl } from '@torch-ts/core';
import { bigints } from '../loops/arrays';
import { readerOf, writerOf } from '../loops/convert';
import { forEachRowOf } from '../loops/iterate';
import { CHUNK } from '../loops/pointwise';
import { roundModeOf, roundTo } from './float-math';
import { checkedScalar } from './scalar';

const S0 = new Float64Array(CHUNK);
const S1 = new Float64Array(CHUNK);
const S2 = new Float64Array(CHUNK);
const S3 = new Float64Array(CHUNK);

type Row = (n: number, o: Float64Array, s: Float64Array, t1: Float64Array, t2: Float64Array, v: number, mode: number) => void;

/**
 * PyTorch's addcmul / addcdiv kernels compute `self + value * t1 * t2` (or `/ t2`) left to
 * right, each step rounded to the opmath type (float32 for float32 and the 16-bit floats,
 * which round once more on the store); integers wrap (Math.imul keeps the low 32 bits).
 * `value` is converted to the dtype first (0.5 is 0 for integers).
 */
const mulFloatRow: Row = (n, o, s, t1, t2, v, mode) => {
  for (let i = 0; i < n; i++) o[i] = roundTo(s[i] + roundTo(roundTo(v * t1[i], mode) * t2[i], mode), mode);
};
const mulIntRow: Row = (n, o, s, t1, t2, v) => {
  for (let i = 0; i < n; i++) o[i] = s[i] + Math.imul(Math.imul(v, t1[i]), t2[i]);
};
const divFloatRow: Row = (n, o, s, t1, t2, v, mode) => {
  for (let i = 0; i < n; i++) o[i] = roundTo(s[i] + roundTo(roundTo(v * t1[i], mode) / t2[i], mode), mode);
};

function run(op: string, out: TensorImpl, self: TensorImpl, t1: TensorImpl, t2: TensorImpl, value: number | bigint, floatRow: Row, intRow: Row | null): void {
  const d = out.dtype;
  // int64 truncates a float value (c10's Scalar::to<int64_t>), which checkedScalar leaves to BigInt
  const v = d === 'int64' && typeof value === 'number' ? (checkedScalar(op, value, 'float64'), BigInt(Math.trunc(value))) : checkedScalar(op, value, d);
  if (typeof v === 'bigint') {
    const [O, A, B, C] = [out, self, t1, t2].map(bigints);
    forEachRowOf([out, self, t1, t2], (n, base, st) => {
      for (let i = 0, oo = base[0], ao = base[1], bo = base[2], co = base[3]; i < n; i++, oo += st[0], ao += st[1], bo += st[2], co += st[3]) {
        O[oo] = A[ao] + v * B[bo] * C[co];
      }
    });
    return;
  }
  const isFloat = d === 'float32' || d === 'float64' || d === 'float16' || d === 'bfloat16';
  const row = isFloat ? floatRow : intRow;
  if (row === null) throw new Error(`${op}: the CPU kernel does not support dtype ${d}`);
  // bfloat16 (and float16, which follows PyTorch 2.x: 1.13 has no Half kernel) compute in
  // float32, PyTorch's opmath type, and round once on the store
  const mode = isFloat ? roundModeOf(d === 'float16' || d === 'bfloat16' ? 'float32' : d) : 0;
  const vv = Number(v);
  const [rs, r1, r2] = [self, t1, t2].map((t) => readerOf(t));
  const w = writerOf(out);
  forEachRowOf([out, self, t1, t2], (n, base, st) => {
    for (let k = 0; k < n; k += CHUNK) {
      const m = n - k < CHUNK ? n - k : CHUNK;
      rs(m, S1, base[1] + k * st[1], st[1]);
      r1(m, S2, base[2] + k * st[2], st[2]);
      r2(m, S3, base[3] + k * st[3], st[3]);
      row(m, S0, S1, S2, S3, vv, mode);
      w(m, S0, base[0] + k * st[0], st[0]);
    }
  });
}

export function addcmul(out: TensorImpl, self: TensorImpl, t1: TensorImpl, t2: TensorImpl, value: number | bigint): void {
  run('addcmul', out, self, t1, t2, value, mulFloatRow, mulIntRow);
}

/** Floating only: core rejects two integral tensors as PyTorch does. */
export function addcdiv(out: TensorImpl, self: TensorImpl, t1: TensorImpl, t2: TensorImpl, value: number | bigint): void {
  run('addcdiv', out, self, t1, t2, value, divFloatRow, null);
}
