/**
 * float16 on WebGPU by emulation (Note [float16 on WebGPU]): 16-bit storage, exact widening to
 * f32, f32 compute, one round-to-nearest-even narrowing in integer code. Checked bit for bit
 * against core's f32BitsToF16Bits (the CPU's cast, itself checked against torch) on every
 * half and on the f32 values that decide a rounding (midpoints and their neighbours), and the
 * kernels against the same computation done in JS with float32 steps.
 */
import { describe, expect, it } from 'vitest';
import {
  CPU,
  Tensor,
  TensorImpl,
  add,
  add_,
  amax,
  asStrided,
  contiguous,
  argmax,
  div,
  exp,
  bf16BitsToNumber,
  f16BitsToNumber,
  f32BitsToBf16Bits,
  f32BitsToF16Bits,
  matmul,
  mean,
  mul,
  neg,
  sum,
  to,
  where,
  gt,
} from '@torch-ts/core';
import { readToHost, uploadFromHost } from '../src/runtime/transfer';
import { gpuTensor, readValues, WEBGPU, webgpuReady } from './helpers';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const bitsOf = (x: number): number => ((f32[0] = x), u32[0]);

/** A WebGPU tensor holding raw element words (float32 as u32 bits, float16 as u16 bits). */
function rawTensor(words: readonly number[], dtype: 'float32' | 'float16' | 'bfloat16'): Tensor {
  const host = TensorImpl.empty('test', [words.length], dtype, CPU);
  const arr = host.storage.typed((dtype === 'float32' ? Uint32Array : Uint16Array) as never) as unknown as Uint32Array;
  words.forEach((w, i) => (arr[i] = w));
  try {
    return new Tensor(uploadFromHost(host, WEBGPU));
  } finally {
    host.release();
  }
}

/** The raw element words of a WebGPU tensor (row-major), float32 as u32, float16 as u16. */
async function rawWords(t: Tensor): Promise<number[]> {
  const c = contiguous(t);
  const host = await readToHost(c.impl);
  try {
    const arr = host.storage.typed((host.itemSize === 2 ? Uint16Array : Uint32Array) as never) as unknown as Uint32Array;
    return Array.from(arr.subarray(host.storageOffset, host.storageOffset + host.numel));
  } finally {
    host.release();
  }
}

/** float16 bits of a JS number as the CPU rounds it (to float32 first, then to half). */
const h = (x: number): number => f32BitsToF16Bits(bitsOf(x));
/** The value of half bits. */
const v = (b: number): number => f16BitsToNumber(b);

/** What widening half `b` to f32 gives, as bits: exact values, NaN payloads kept (c10's fp16_ieee_to_fp32_value). */
function widened(b: number): number {
  const s = (b & 0x8000) << 16;
  if ((b & 0x7c00) === 0x7c00) return (s | 0x7f800000 | ((b & 0x3ff) << 13)) >>> 0;
  return bitsOf(v(b));
}

describe.skipIf(!webgpuReady)('float16 on WebGPU (emulated)', () => {
  it('widens every half to float32 exactly (subnormals, -0, inf, NaN payloads)', async () => {
    const all = Array.from({ length: 65536 }, (_, i) => i);
    const got = await rawWords(to(rawTensor(all, 'float16'), 'float32'));
    const bad = all.filter((b) => got[b] !== widened(b));
    expect(bad.slice(0, 10).map((b) => [b.toString(16), got[b].toString(16), widened(b).toString(16)])).toEqual([]);
  });

  it('narrows float32 to half by round-to-nearest-even in integer code (ties, overflow, subnormals, NaN)', async () => {
    const words: number[] = [];
    for (let b = 0; b < 0x7c00; b++) {
      // each half, the midpoint to the next half and both its float32 neighbours, both signs
      const lo = bitsOf(v(b));
      const mid = bitsOf((v(b) + v(b + 1)) / 2);
      for (const w of [lo, mid - 1, mid, mid + 1]) words.push(w, (w | 0x80000000) >>> 0);
    }
    words.push(
      bitsOf(65504), bitsOf(65519.99), bitsOf(65520), bitsOf(65536), bitsOf(1e30), 0x7f800000, 0xff800000, 0x7f7fffff,
      0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345, // NaNs: quiet, sign kept, payload dropped
      0, 0x80000000, 1, 0x807fffff, 0x00800000, // zeros, float32 subnormals and the smallest normal
      bitsOf(2 ** -24), bitsOf(2 ** -25), bitsOf(2 ** -25) + 1, bitsOf(3 * 2 ** -25), bitsOf(2 ** -14), bitsOf(2 ** -14 - 2 ** -25),
    );
    const got = await rawWords(to(rawTensor(words, 'float32'), 'float16'));
    const bad = words.map((w, i) => [w, got[i], f32BitsToF16Bits(w)]).filter(([, g, want]) => g !== want);
    expect(bad.slice(0, 10).map((r) => r.map((x) => x.toString(16)))).toEqual([]);
    // the edge values spelled out
    const edge = async (x: number) => (await rawWords(to(gpuTensor([x]), 'float16')))[0];
    expect(await edge(65504)).toBe(0x7bff);
    expect(await edge(65520)).toBe(0x7c00);
    expect(await edge(-65520)).toBe(0xfc00);
    expect(await edge(2 ** -24)).toBe(0x0001);
    expect(await edge(2 ** -25)).toBe(0x0000); // tie: to even (0)
    expect(await edge(3 * 2 ** -25)).toBe(0x0002); // tie between 1 and 2 ulp: to even
    expect(await edge(-0)).toBe(0x8000);
    expect(await edge(1 + 2 ** -11)).toBe(0x3c00); // tie between 1 and 1 + 2^-10: to even
    expect(await edge(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(await edge(NaN)).toBe(0x7e00);
  });

  it('casts between float16 and int32, uint8, bool and int64 as the CPU does', async () => {
    const xs = [0, -0, 1.5, -2.5, 255.5, 300, -7.75, 65504, 1 / 0, -1 / 0, NaN, 2 ** -24];
    const x = rawTensor(xs.map(h), 'float16');
    // float -> int truncates; NaN, ±inf and out-of-range values give INT32_MIN (x86), and uint8
    // the low byte of the int64 (0 there), as kernels-cpu's casts
    const finite = (y: number) => Number.isFinite(y) && Math.abs(y) < 2 ** 31;
    expect(await readValues(to(x, 'int32'))).toEqual(xs.map((y) => (finite(y) ? Math.trunc(y) | 0 : -(2 ** 31))));
    expect(await readValues(to(x, 'uint8'))).toEqual(xs.map((y) => (finite(y) ? Math.trunc(y) & 255 : 0)));
    expect(await readValues(to(x, 'bool'))).toEqual(xs.map((y) => Number(y !== 0)));
    const fin = xs.filter(finite);
    expect(await readValues(to(rawTensor(fin.map(h), 'float16'), 'int64'))).toEqual(fin.map((y) => Math.trunc(y) + 0));
    // and back: integers round to half (twice: to float32, then to half, as c10::Half(float(i)))
    const ints = [0, 1, -1, 2049, 2051, 65504, 65519, 65520, 100000, -100000, 2147483647];
    expect(await rawWords(to(gpuTensor(ints, 'int32'), 'float16'))).toEqual(ints.map(h));
    expect(await rawWords(to(gpuTensor([0, 1, 255, 3], 'uint8'), 'float16'))).toEqual([0, 1, 255, 3].map(h));
    expect(await rawWords(to(gpuTensor([1, 0], 'bool'), 'float16'))).toEqual([h(1), h(0)]);
    expect(await rawWords(to(gpuTensor([-5, 70000, 2049], 'int64'), 'float16'))).toEqual([h(-5), h(70000), h(2049)]);
  });

  it('runs pointwise ops in float32 and rounds once on store (strided, odd offsets, in place)', async () => {
    const n = 37;
    const a = Array.from({ length: n }, (_, i) => h((i - 18) * 0.37 + 1e-3 * i * i));
    const b = Array.from({ length: n }, (_, i) => h(0.5 + ((i * 7919) % 23) / 9));
    const A = rawTensor(a, 'float16');
    const B = rawTensor(b, 'float16');
    const f = (x: number) => Math.fround(x);
    const want = (op: (x: number, y: number) => number) => a.map((x, i) => h(op(v(x), v(b[i]))));
    expect(await rawWords(add(A, B))).toEqual(want((x, y) => f(x + y)));
    expect(await rawWords(mul(A, B))).toEqual(want((x, y) => f(x * y)));
    expect(await rawWords(div(A, B))).toEqual(want((x, y) => f(x / y)));
    expect(await rawWords(neg(A))).toEqual(a.map((x) => x ^ 0x8000));
    // add's alpha: c10::Half arithmetic rounds alpha * other to half first (kernels-cpu's add):
    // 3 * (683 / 2048) = 1 + 2^-11 rounds (tie, to even) to 1, and 2048 + 1 (tie) to 2048;
    // without that rounding, 2049.0005 would give 2050
    expect(await rawWords(add(rawTensor([h(2048)], 'float16'), rawTensor([h(3)], 'float16'), { alpha: 683 / 2048 }))).toEqual([h(2048)]);
    // overflow on store: 300 * 300 = 90000 -> inf
    expect(await rawWords(mul(rawTensor([h(300), h(-300)], 'float16'), rawTensor([h(300), h(300)], 'float16')))).toEqual([0x7c00, 0xfc00]);
    // exp within one half ulp of the exact result rounded
    const e = await rawWords(exp(A));
    e.forEach((g, i) => expect(Math.abs(g - h(Math.exp(v(a[i])))), `exp(${v(a[i])})`).toBeLessThanOrEqual(1));
    // a strided view starting at an odd element, written in place: neighbours untouched
    const C = rawTensor(a, 'float16');
    const view = asStrided(C, [9], [3], 1);
    const bview = asStrided(B, [9], [4], 3);
    const sums = Array.from({ length: 9 }, (_, i) => h(f(v(a[1 + 3 * i]) + v(b[3 + 4 * i]))));
    expect(await rawWords(add(view, bview))).toEqual(sums);
    add_(view, bview);
    const after = a.slice();
    sums.forEach((x, i) => (after[1 + 3 * i] = x));
    expect(await rawWords(C)).toEqual(after);
    // where and comparisons on half values
    expect(await readValues(gt(A, B))).toEqual(a.map((x, i) => Number(v(x) > v(b[i]))));
    expect(await rawWords(where(gt(A, B), A, B))).toEqual(a.map((x, i) => (v(x) > v(b[i]) ? x : b[i])));
  });

  it('reduces in float32 and rounds once (sum, mean, amax, argmax), long rows included', async () => {
    const n = 20000;
    const a = Array.from({ length: n }, (_, i) => h(Math.sin(i) * 3));
    const A = rawTensor(a, 'float16');
    let s = 0;
    for (const x of a) s += v(x);
    // one rounding of a float32-accumulated sum: within a half ulp of the exact sum rounded
    const got = v((await rawWords(sum(A)))[0]);
    expect(Math.abs(got - v(h(s)))).toBeLessThanOrEqual(Math.abs(v(h(s) + 1) - v(h(s))));
    const m = v((await rawWords(mean(A)))[0]);
    expect(Math.abs(m - s / n)).toBeLessThan(1e-3);
    const mx = Math.max(...a.map(v));
    expect(v((await rawWords(amax(A)))[0])).toBe(mx);
    expect((await readValues(argmax(A)))[0]).toBe(a.findIndex((x) => v(x) === mx));
  });

  it('multiplies matrices with float32 accumulation and one rounding', async () => {
    const [n, k, p] = [5, 33, 7];
    const a = Array.from({ length: n * k }, (_, i) => h(((i * 37) % 17) / 8 - 1));
    const b = Array.from({ length: k * p }, (_, i) => h(((i * 53) % 13) / 4 - 1.5));
    const A = asStrided(rawTensor(a, 'float16'), [n, k], [k, 1], 0);
    const B = asStrided(rawTensor(b, 'float16'), [k, p], [p, 1], 0);
    const got = await rawWords(matmul(A, B));
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < p; j++) {
        let acc = 0;
        for (let q = 0; q < k; q++) acc += v(a[i * k + q]) * v(b[q * p + j]);
        // (these products and sums are exact in float32: multiples of 1/32 below 2^10)
        expect(got[i * p + j]).toBe(h(acc));
      }
    }
  });
});


describe.skipIf(!webgpuReady)('bfloat16 on WebGPU (emulated the same way)', () => {
  const hb = (x: number): number => f32BitsToBf16Bits(bitsOf(x));
  const vb = (b: number): number => bf16BitsToNumber(b);

  it('widens every bfloat16 exactly and narrows float32 by round-to-nearest-even (ties, overflow, NaN)', async () => {
    const all = Array.from({ length: 65536 }, (_, i) => i);
    const wide = await rawWords(to(rawTensor(all, 'bfloat16'), 'float32'));
    expect(all.filter((b) => wide[b] !== ((b << 16) >>> 0)).slice(0, 5)).toEqual([]);
    const words: number[] = [];
    for (let b = 0; b < 0x7f80; b += 7) {
      const lo = (b << 16) >>> 0;
      for (const w of [lo, lo + 0x7fff, lo + 0x8000, lo + 0x8001, lo + 0x18000]) words.push(w >>> 0, (w | 0x80000000) >>> 0);
    }
    words.push(0x7f7fffff, 0x7f7f8000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0, 0x80000000, 1, 0x00008000, 0x00018000);
    const got = await rawWords(to(rawTensor(words, 'float32'), 'bfloat16'));
    const bad = words.map((w, i) => [w, got[i], f32BitsToBf16Bits(w)]).filter(([, g, want]) => g !== want);
    expect(bad.slice(0, 10).map((r) => r.map((x) => x.toString(16)))).toEqual([]);
  });

  it('runs pointwise ops, reductions and matmul in float32 with one rounding', async () => {
    const n = 24;
    const a = Array.from({ length: n }, (_, i) => hb((i - 11) * 1.37 + 1e-3 * i * i));
    const b = Array.from({ length: n }, (_, i) => hb(0.5 + ((i * 7919) % 23) / 9));
    const A = rawTensor(a, 'bfloat16');
    const B = rawTensor(b, 'bfloat16');
    const f = Math.fround;
    expect(await rawWords(mul(A, B))).toEqual(a.map((x, i) => hb(f(vb(x) * vb(b[i])))));
    expect(await rawWords(div(A, B))).toEqual(a.map((x, i) => hb(f(vb(x) / vb(b[i])))));
    let s = 0;
    for (const x of a) s += vb(x);
    expect(await rawWords(sum(A))).toEqual([hb(f(s))]);
    expect(await rawWords(amax(A))).toEqual([a.reduce((m, x) => (vb(x) > vb(m) ? x : m))]);
    const M = asStrided(A, [4, 6], [6, 1], 0);
    const N = asStrided(B, [6, 4], [4, 1], 0);
    const got = await rawWords(matmul(M, N));
    for (let i = 0; i < 4; i++) {
      for (let j = 0; j < 4; j++) {
        let acc = 0;
        for (let q = 0; q < 6; q++) acc = f(acc + f(vb(a[i * 6 + q]) * vb(b[q * 4 + j])));
        expect(Math.abs(vb(got[i * 4 + j]) - vb(hb(acc)))).toBeLessThanOrEqual(Math.abs(vb(hb(acc))) * 2 ** -7);
      }
    }
  });
});
