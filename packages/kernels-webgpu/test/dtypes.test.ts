/**
 * int64 emulation on WebGPU (Note [int64 on WebGPU]): the pointwise kernels against BigInt
 * arithmetic in JS, on edge values where a 32-bit shortcut would show (carries between the
 * words, 2^40, -2^63, wrap-around modulo 2^64, products whose high words matter), and the
 * DTypeErrors of the dtypes WebGPU has no kernels for.
 */
import { describe, expect, it } from 'vitest';
import {
  CPU,
  DTypeError,
  Tensor,
  TensorImpl,
  abs,
  add,
  add_,
  bitwiseAnd,
  bitwiseNot,
  bitwiseOr,
  bitwiseXor,
  clamp,
  div,
  eq,
  fmod,
  ge,
  gt,
  le,
  logicalAnd,
  lt,
  maximum,
  minimum,
  mul,
  ne,
  neg,
  pow,
  relu,
  remainder,
  sign,
  sub,
  to,
  where,
  type DType,
} from '@torch-ts/core';
import { readToHost, uploadFromHost } from '../src/runtime/transfer';
import { gpuTensor, WEBGPU, webgpuReady } from './helpers';

const M64 = (1n << 64n) - 1n;
const wrap = (v: bigint): bigint => BigInt.asIntN(64, v);

/** A WebGPU int64 tensor of exact values. */
function gpu64(values: readonly bigint[], sizes: readonly number[] = [values.length]): Tensor {
  const host = TensorImpl.empty('test', sizes, 'int64', CPU);
  const arr = host.storage.typed(BigInt64Array as never) as unknown as BigInt64Array;
  values.forEach((v, i) => {
    arr[host.storageOffset + i] = v;
  });
  try {
    return new Tensor(uploadFromHost(host, WEBGPU));
  } finally {
    host.release();
  }
}

const ARRAYS: Partial<Record<DType, unknown>> = { int64: BigInt64Array, float32: Float32Array, int32: Int32Array, uint8: Uint8Array, bool: Uint8Array };

/** The logical elements, row-major: bigint for int64, numbers otherwise. */
async function read(t: Tensor): Promise<(bigint | number | boolean)[]> {
  const host = await readToHost(t.impl);
  try {
    const arr = host.storage.typed(ARRAYS[host.dtype] as never) as unknown as ArrayLike<bigint | number>;
    const out: (bigint | number | boolean)[] = [];
    const nd = host.sizes.length;
    const idx = new Array<number>(nd).fill(0);
    for (let i = 0; i < host.numel; i++) {
      let off = host.storageOffset;
      for (let d = 0; d < nd; d++) off += idx[d] * host.strides[d];
      out.push(host.dtype === 'bool' ? arr[off] !== 0 : arr[off]);
      for (let d = nd - 1; d >= 0; d--) {
        if (++idx[d] < host.sizes[d]) break;
        idx[d] = 0;
      }
    }
    return out;
  } finally {
    host.release();
  }
}

// Values where the words interact: carries, borrows, 2^31/2^32 boundaries, the extremes.
const EDGE: readonly bigint[] = [
  0n, 1n, -1n, 2n ** 31n - 1n, 2n ** 31n, -(2n ** 31n), 2n ** 32n - 1n, 2n ** 32n, 2n ** 40n, -(2n ** 40n),
  2n ** 53n + 1n, 2n ** 62n, 2n ** 63n - 1n, -(2n ** 63n), 0x123456789abcdefn, -987654321012345n,
];
const N = EDGE.length;
/** All pairs (a_i, b_j), as the [N, N] broadcast of a [N, 1] and a [1, N] tensor computes them. */
const PAIRS: [bigint, bigint][] = EDGE.flatMap((a) => EDGE.map((b): [bigint, bigint] => [a, b]));

function cols(): [Tensor, Tensor] {
  return [gpu64(EDGE, [N, 1]), gpu64(EDGE, [1, N])];
}

/** Round-to-nearest-even of a 64-bit integer to float32, in exact integer arithmetic. */
function toF32Exact(v: bigint): number {
  const neg = v < 0n;
  let m = neg ? -v : v;
  const bits = m.toString(2).length;
  if (bits <= 24) return neg ? -Number(m) : Number(m);
  const shift = BigInt(bits - 24);
  let mant = m >> shift;
  const rest = m & ((1n << shift) - 1n);
  const half = 1n << (shift - 1n);
  if (rest > half || (rest === half && (mant & 1n) === 1n)) mant += 1n;
  m = mant << shift;
  return neg ? -Number(m) : Number(m);
}

describe.skipIf(!webgpuReady)('int64 on WebGPU (two 32-bit words)', () => {
  it('add, sub (with alpha) and mul wrap modulo 2^64 with carries between the words', async () => {
    const [a, b] = cols();
    expect(await read(add(a, b))).toEqual(PAIRS.map(([x, y]) => wrap(x + y)));
    expect(await read(sub(a, b))).toEqual(PAIRS.map(([x, y]) => wrap(x - y)));
    expect(await read(mul(a, b))).toEqual(PAIRS.map(([x, y]) => wrap(x * y)));
    expect(await read(add(a, b, { alpha: 3 }))).toEqual(PAIRS.map(([x, y]) => wrap(x + 3n * y)));
    expect(await read(sub(a, b, { alpha: 2 ** 33 + 7 }))).toEqual(PAIRS.map(([x, y]) => wrap(x - (2n ** 33n + 7n) * y)));
    // a Python-int scalar operand keeps int64 (a 0-dim int64 tensor on the device)
    expect(await read(add(gpu64(EDGE), 2 ** 40))).toEqual(EDGE.map((x) => wrap(x + 2n ** 40n)));
    expect(await read(mul(gpu64(EDGE), -(2 ** 35)))).toEqual(EDGE.map((x) => wrap(x * -(2n ** 35n))));
  });

  it('products of large factors keep every bit of the low 64 (16-bit limb mulhi)', async () => {
    const xs = [0xffffffffn, 0xfffffffffn, 0x7fffffffffffffffn, 0x1234567890abcdefn, -0x1234567890abn, 3037000499n, 3037000500n];
    const a = gpu64(xs, [xs.length, 1]);
    const b = gpu64(xs, [1, xs.length]);
    expect(await read(mul(a, b))).toEqual(xs.flatMap((x) => xs.map((y) => wrap(x * y))));
  });

  it('comparisons, maximum/minimum and clamp order by the signed 64-bit value', async () => {
    const [a, b] = cols();
    expect(await read(eq(a, b))).toEqual(PAIRS.map(([x, y]) => x === y));
    expect(await read(ne(a, b))).toEqual(PAIRS.map(([x, y]) => x !== y));
    expect(await read(lt(a, b))).toEqual(PAIRS.map(([x, y]) => x < y));
    expect(await read(le(a, b))).toEqual(PAIRS.map(([x, y]) => x <= y));
    expect(await read(gt(a, b))).toEqual(PAIRS.map(([x, y]) => x > y));
    expect(await read(ge(a, b))).toEqual(PAIRS.map(([x, y]) => x >= y));
    expect(await read(maximum(a, b))).toEqual(PAIRS.map(([x, y]) => (x > y ? x : y)));
    expect(await read(minimum(a, b))).toEqual(PAIRS.map(([x, y]) => (x < y ? x : y)));
    const lo = -(2n ** 40n);
    const hi = 2n ** 32n;
    const c = (x: bigint) => (x < lo ? lo : x > hi ? hi : x);
    expect(await read(clamp(gpu64(EDGE), -(2 ** 40), 2 ** 32))).toEqual(EDGE.map(c));
    expect(await read(clamp(gpu64(EDGE), gpu64([lo]), gpu64([hi])))).toEqual(EDGE.map(c));
  });

  it('neg, abs, sign, relu, bitwise ops, logical ops and where', async () => {
    const x = gpu64(EDGE);
    expect(await read(neg(x))).toEqual(EDGE.map((v) => wrap(-v)));
    expect(await read(abs(x))).toEqual(EDGE.map((v) => wrap(v < 0n ? -v : v)));
    expect(await read(sign(x))).toEqual(EDGE.map((v) => (v > 0n ? 1n : v < 0n ? -1n : 0n)));
    expect(await read(relu(x))).toEqual(EDGE.map((v) => (v < 0n ? 0n : v)));
    expect(await read(bitwiseNot(x))).toEqual(EDGE.map((v) => ~v));
    const [a, b] = cols();
    expect(await read(bitwiseAnd(a, b))).toEqual(PAIRS.map(([p, q]) => p & q));
    expect(await read(bitwiseOr(a, b))).toEqual(PAIRS.map(([p, q]) => p | q));
    expect(await read(bitwiseXor(a, b))).toEqual(PAIRS.map(([p, q]) => p ^ q));
    expect(await read(logicalAnd(a, b))).toEqual(PAIRS.map(([p, q]) => p !== 0n && q !== 0n));
    const cond = gt(a, b);
    expect(await read(where(cond, a, b))).toEqual(PAIRS.map(([p, q]) => (p > q ? p : q)));
  });

  it('floor and trunc division, remainder and fmod by long division (INT64_MIN / -1 wraps)', async () => {
    const divisors = EDGE.filter((v) => v !== 0n);
    const a = gpu64(EDGE, [N, 1]);
    const b = gpu64(divisors, [1, divisors.length]);
    const pairs = EDGE.flatMap((x) => divisors.map((y): [bigint, bigint] => [x, y]));
    const trunc = (x: bigint, y: bigint) => wrap(x / y);
    const floor = (x: bigint, y: bigint) => {
      const q = x / y;
      return wrap(x % y !== 0n && x < 0n !== y < 0n ? q - 1n : q);
    };
    const rem = (x: bigint, y: bigint) => {
      const m = x % y;
      return m !== 0n && m < 0n !== y < 0n ? m + y : m;
    };
    expect(await read(div(a, b, { roundingMode: 'trunc' }))).toEqual(pairs.map(([x, y]) => trunc(x, y)));
    expect(await read(div(a, b, { roundingMode: 'floor' }))).toEqual(pairs.map(([x, y]) => floor(x, y)));
    expect(await read(remainder(a, b))).toEqual(pairs.map(([x, y]) => rem(x, y)));
    expect(await read(fmod(a, b))).toEqual(pairs.map(([x, y]) => x % y));
  });

  it('pow by squaring modulo 2^64, negative exponents as powi', async () => {
    const bases = [0n, 1n, -1n, 2n, -3n, 7n, 2n ** 32n + 1n];
    const exps = [0n, 1n, 2n, 5n, 31n, 32n, 63n, 64n, 65n, -1n, -2n];
    const a = gpu64(bases, [bases.length, 1]);
    const b = gpu64(exps, [1, exps.length]);
    const powi = (x: bigint, e: bigint): bigint => {
      if (e < 0n) return x === 1n ? 1n : x === -1n ? (e % 2n === 0n ? 1n : -1n) : 0n;
      let r = 1n;
      for (let i = 0n; i < e; i++) r = wrap(r * x);
      return r;
    };
    expect(await read(pow(a, b))).toEqual(bases.flatMap((x) => exps.map((e) => powi(x, e))));
  });

  it('casts: int64 -> float32 rounds once (to nearest even), float32 -> int64 truncates (NaN/inf/out of range: INT64_MIN)', async () => {
    // 2^53 + 2^29 + 1 rounds to 2^53 + 2^30 exactly, but to 2^53 through a double.
    const vals = [...EDGE, 2n ** 53n + 2n ** 29n + 1n, 2n ** 24n + 1n, 2n ** 24n + 3n, -(2n ** 60n) - 2n ** 36n, 2n ** 40n + 2n ** 16n];
    const x = gpu64(vals);
    expect(await read(to(x, 'float32'))).toEqual(vals.map(toF32Exact));
    expect(await read(to(x, 'int32'))).toEqual(vals.map((v) => Number(BigInt.asIntN(32, v))));
    expect(await read(to(x, 'uint8'))).toEqual(vals.map((v) => Number(BigInt.asUintN(8, v))));
    expect(await read(to(x, 'bool'))).toEqual(vals.map((v) => v !== 0n));
    const fs = [0, -0, 3.7, -3.7, 2 ** 40, -(2 ** 40), 1.5e18, -9.2e18, 2 ** 63, -(2 ** 63), NaN, Infinity, -Infinity, 16777217];
    const f = gpuTensor(fs, 'float32');
    const INT64_MIN = -(2n ** 63n);
    const want = fs.map((v) => {
      const r = Math.fround(v);
      return Number.isFinite(r) && Math.abs(r) < 2 ** 63 ? BigInt(Math.trunc(r)) : INT64_MIN;
    });
    expect(await read(to(f, 'int64'))).toEqual(want);
    expect(await read(to(gpuTensor([-5, 7, 2147483647, -2147483648], 'int32'), 'int64'))).toEqual([-5n, 7n, 2147483647n, -2147483648n]);
    expect(await read(to(gpuTensor([0, 200, 255], 'uint8'), 'int64'))).toEqual([0n, 200n, 255n]);
    expect(await read(to(gpuTensor([1, 0], 'bool'), 'int64'))).toEqual([1n, 0n]);
    expect(M64).toBe(0xffffffffffffffffn);
  });

  it('strided and in-place int64 operands', async () => {
    const x = gpu64(EDGE, [4, 4]);
    const xt = x.t();
    const want = EDGE.map((_, i) => EDGE[(i % 4) * 4 + Math.floor(i / 4)]);
    expect(await read(add(xt, xt))).toEqual(want.map((v) => wrap(2n * v)));
    const y = gpu64(EDGE);
    add_(y, gpu64(EDGE), { alpha: -1 });
    expect(await read(y)).toEqual(EDGE.map(() => 0n));
  });
});

describe.skipIf(!webgpuReady)('float32 -> int32 / uint8 casts as on x86 (CPU)', () => {
  it('truncate; NaN, ±inf and out-of-range give INT32_MIN (int32) or the int64 cast\'s low byte (uint8)', async () => {
    const fs = [300.7, -1.5, -0.5, 2147483520, -2147483648, 2147483648, 3e9, -3e9, -5e9, 1e20, NaN, Infinity, -Infinity];
    const f = gpuTensor(fs, 'float32');
    const MIN = -2147483648;
    expect(await read(to(f, 'int32'))).toEqual(fs.map((v) => (Math.abs(v) < 2 ** 31 ? Math.trunc(v) | 0 : MIN)));
    const viaInt64 = (v: number): number => {
      const r = Math.fround(v);
      return Number.isFinite(r) && Math.abs(r) < 2 ** 63 ? Number(BigInt.asUintN(8, BigInt(Math.trunc(r)))) : 0;
    };
    expect(await read(to(f, 'uint8'))).toEqual(fs.map(viaInt64));
  });
});

describe.skipIf(!webgpuReady)('integer division by zero on WebGPU', () => {
  it('raises ZeroDivisionError at every read of the result (int32, uint8, int64; div floor/trunc, remainder, fmod), and not at reads of others', async () => {
    const cases: [string, () => Tensor][] = [
      ['div', () => div(gpuTensor([7, -7, 3], 'int32'), gpuTensor([2, 0, 1], 'int32'), { roundingMode: 'floor' })],
      ['div', () => div(gpuTensor([7, 9], 'uint8'), gpuTensor([0, 2], 'uint8'), { roundingMode: 'trunc' })],
      ['remainder', () => remainder(gpu64([2n ** 40n, 5n]), gpu64([3n, 0n]))],
      ['fmod', () => fmod(gpu64([2n ** 40n]), 0)],
      ['div', () => div(gpu64([-(2n ** 63n), 1n]), gpu64([0n, 1n]), { roundingMode: 'trunc' })],
    ];
    for (const [op, make] of cases) {
      const r = make(); // returns: the error is found on the device
      const other = gpuTensor([1, 2], 'int32').add(1);
      await expect(read(r), op).rejects.toThrow(new RegExp(`${op}: ZeroDivisionError`));
      // the result stays poisoned (Note [Poisoned storages]); a tensor not computed from it reads fine
      await expect(read(r), op).rejects.toThrow(new RegExp(`${op}: ZeroDivisionError`));
      expect(await read(other)).toEqual([2, 3]);
    }
    // no error where no divisor is zero
    expect(await read(div(gpu64([-7n, 2n ** 40n]), gpu64([2n, -(2n ** 20n)]), { roundingMode: 'floor' }))).toEqual([-4n, -(2n ** 20n)]);
  });
});

describe.skipIf(!webgpuReady)('dtypes WebGPU has no kernels for', () => {
  // (int8 and int16 run in 32-bit lanes: test/int8-int16.test.ts)
  it('float64 raises a DTypeError that names the op and says why', () => {
    const cases: [DType, RegExp][] = [['float64', /no 64-bit floats/]];
    for (const [dtype, why] of cases) {
      const host = TensorImpl.empty('test', [3], dtype, CPU);
      const t = new Tensor(uploadFromHost(host, WEBGPU));
      host.release();
      expect(() => neg(t), dtype).toThrow(DTypeError);
      expect(() => neg(t), dtype).toThrow(why);
      expect(() => mul(t, t), dtype).toThrow(/mul/);
    }
  });
});
