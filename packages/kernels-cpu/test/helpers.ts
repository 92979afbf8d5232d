import {
  CPU,
  TensorImpl,
  bf16BitsToNumber,
  f16BitsToNumber,
  f64ToBf16Bits,
  f64ToF16Bits,
  typeMeta,
  type DType,
} from '@torch-ts/core';
import '../src/index';

/** A logical element value: bigint for int64, number otherwise (bool as 0/1). */
export type Value = number | bigint;

/**
 * Test tensors are built and read through core primitives only, never through the kernels
 * under test: elements are encoded into the storage's typed array by hand, and read back
 * by walking sizes/strides in row-major order.
 */
const created: TensorImpl[] = [];

/** Releases every tensor made by the helpers since the last call (tests end with it). */
export function releaseCreated(): void {
  for (const t of created.splice(0)) t.release();
}

function track(t: TensorImpl): TensorImpl {
  created.push(t);
  return t;
}

export function numelOf(sizes: readonly number[]): number {
  return sizes.reduce((a, b) => a * b, 1);
}

export function rowMajorStrides(sizes: readonly number[]): number[] {
  const s = new Array<number>(sizes.length);
  let step = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    s[d] = step;
    step *= Math.max(sizes[d], 1);
  }
  return s;
}

/** An uninitialised contiguous tensor. */
export function empty(dtype: DType, sizes: readonly number[]): TensorImpl {
  return track(TensorImpl.empty('test', sizes, dtype, CPU));
}

/** Storage array of a tensor, as core lays it out. */
export function storageArray(t: TensorImpl): ArrayLike<number | bigint> & { [i: number]: number | bigint } {
  return t.storage.typed(typeMeta(t.dtype).ArrayType as never);
}

/** Encodes one logical value at storage index `at`. */
export function poke(t: TensorImpl, at: number, v: Value): void {
  const a = storageArray(t);
  switch (t.dtype) {
    case 'int64':
      a[at] = BigInt(v);
      return;
    case 'float16':
      a[at] = f64ToF16Bits(Number(v));
      return;
    case 'bfloat16':
      a[at] = f64ToBf16Bits(Number(v));
      return;
    case 'bool':
      a[at] = Number(v) !== 0 ? 1 : 0;
      return;
    default:
      a[at] = Number(v);
  }
}

/** Decodes one logical value at storage index `at`. */
export function peek(t: TensorImpl, at: number): Value {
  const v = storageArray(t)[at];
  if (t.dtype === 'float16') return f16BitsToNumber(v as number);
  if (t.dtype === 'bfloat16') return bf16BitsToNumber(v as number);
  return v;
}

/** Visits every logical index in row-major order with its storage index. */
export function forEachIndex(t: TensorImpl, fn: (storageIndex: number, linear: number) => void): void {
  const n = t.numel;
  const nd = t.sizes.length;
  const idx = new Array<number>(nd).fill(0);
  for (let lin = 0; lin < n; lin++) {
    let at = t.storageOffset;
    for (let d = 0; d < nd; d++) at += idx[d] * t.strides[d];
    fn(at, lin);
    for (let d = nd - 1; d >= 0; d--) {
      if (++idx[d] < t.sizes[d]) break;
      idx[d] = 0;
    }
  }
}

/** The logical values of `t` in row-major order. */
export function read(t: TensorImpl): Value[] {
  const out: Value[] = [];
  forEachIndex(t, (at) => out.push(peek(t, at)));
  return out;
}

/** Writes logical values in row-major order into `t` (any layout). */
export function write(t: TensorImpl, values: readonly (Value | boolean)[]): TensorImpl {
  forEachIndex(t, (at, lin) => poke(t, at, typeof values[lin] === 'boolean' ? (values[lin] ? 1 : 0) : (values[lin] as Value)));
  return t;
}

/** A contiguous tensor holding `values` (row-major). */
export function tensor(dtype: DType, sizes: readonly number[], values: readonly (Value | boolean)[]): TensorImpl {
  return write(empty(dtype, sizes), values);
}

/** A view of `base`'s storage; tracked for release. */
export function view(base: TensorImpl, sizes: readonly number[], strides: readonly number[], offset: number): TensorImpl {
  return track(base.view(sizes, strides, offset));
}

/**
 * A tensor of `sizes` holding `values`, laid out as `layout` says:
 *  - 'contiguous': row-major;
 *  - 'strided': row-major strides doubled (a gap after every element), at offset 3;
 *  - 'transposed': the dims stored in reverse order (column-major for 2-d), at offset 1.
 */
export type Layout = 'contiguous' | 'strided' | 'transposed';

export function laidOut(dtype: DType, sizes: readonly number[], values: readonly (Value | boolean)[], layout: Layout): TensorImpl {
  if (layout === 'contiguous') return tensor(dtype, sizes, values);
  const nd = sizes.length;
  let strides: number[];
  let offset: number;
  if (layout === 'strided') {
    strides = rowMajorStrides(sizes).map((s) => 2 * s);
    offset = 3;
  } else {
    strides = new Array<number>(nd);
    let step = 1;
    for (let d = 0; d < nd; d++) {
      strides[d] = step;
      step *= Math.max(sizes[d], 1);
    }
    offset = 1;
  }
  let extent = offset + 1;
  for (let d = 0; d < nd; d++) extent += Math.max(sizes[d] - 1, 0) * strides[d];
  const base = empty(dtype, [extent]);
  // Garbage around the view: a kernel that reads or writes outside it shows up.
  write(base, new Array<Value>(extent).fill(dtype === 'int64' ? 99n : dtype === 'bool' ? 1 : 99));
  return write(view(base, sizes, strides, offset), values);
}

/** Whether two values are the same: NaN equals NaN, -0 differs from 0, bigints exactly. */
export function same(a: Value, b: Value): boolean {
  if (typeof a === 'bigint' || typeof b === 'bigint') return BigInt(a) === BigInt(b);
  return Object.is(a, b);
}

/** The indices where `actual` and `expected` differ, with both values, for readable failures. */
export function mismatches(actual: readonly Value[], expected: readonly Value[], close?: (a: number, b: number) => boolean): string[] {
  const bad: string[] = [];
  if (actual.length !== expected.length) return [`length ${actual.length} != ${expected.length}`];
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i];
    const e = expected[i];
    const ok = same(a, e) || (close !== undefined && typeof a === 'number' && typeof e === 'number' && close(a, e));
    if (!ok) bad.push(`[${i}] got ${String(a)}, expected ${String(e)}`);
  }
  return bad;
}

/** A deterministic pseudo-random stream in [-1, 1) (an LCG), for test inputs. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  };
}
