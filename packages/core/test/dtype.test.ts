import { afterEach, describe, expect, it } from 'vitest';
import { DTypeError, TorchError } from '../src/errors';
import {
  DTYPES,
  bf16BitsToNumber,
  canCast,
  checkCanCast,
  f16BitsToNumber,
  f32BitsToBf16Bits,
  f32BitsToF16Bits,
  f32ToBf16Bits,
  f32ToF16Bits,
  f64ToBf16Bits,
  f64ToF16Bits,
  getDefaultDtype,
  isDType,
  isFloatingType,
  isIntegralType,
  parseDType,
  promoteTypes,
  resultType,
  scalarDType,
  setDefaultDtype,
  typeMeta,
  type DType,
} from '../src/dtype';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function bitsOf(x: number): number {
  f32[0] = x;
  return u32[0];
}
function fromBits(b: number): number {
  u32[0] = b;
  return f32[0];
}

/**
 * An oracle independent of the bit tricks in half.ts: the sorted finite non-negative
 * values of a 16-bit format, and round-to-nearest-even by binary search over them.
 */
function finiteValues(decode: (h: number) => number, maxFinite: number): number[] {
  const out: number[] = [];
  for (let h = 0; h <= maxFinite; h++) out.push(decode(h));
  return out;
}
const F16_VALUES = finiteValues(f16BitsToNumber, 0x7bff);
const BF16_VALUES = finiteValues(bf16BitsToNumber, 0x7f7f);

function roundBySearch(values: number[], infBits: number, x: number): number {
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  const top = values[values.length - 1];
  const ulp = top - values[values.length - 2];
  // Beyond the largest finite value plus half an ulp (the tie goes to the even Inf).
  if (a >= top + ulp / 2) return sign | infBits;
  let lo = 0;
  let hi = values.length - 1;
  if (a >= top) return sign | hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (values[mid] <= a) lo = mid;
    else hi = mid;
  }
  const dLo = a - values[lo];
  const dHi = values[hi] - a;
  const pick = dLo < dHi ? lo : dHi < dLo ? hi : lo % 2 === 0 ? lo : hi;
  return sign | pick;
}

/**
 * Collects failed checks of a big loop and asserts once: a per-element `expect` would
 * make the exhaustive loops slow. Keeps the first few failures for the report.
 */
class Mismatches {
  readonly found: string[] = [];
  check(what: string, got: unknown, want: unknown): void {
    if (!Object.is(got, want) && this.found.length < 20) this.found.push(`${what}: got ${String(got)}, want ${String(want)}`);
  }
}

// A deterministic PRNG so a failure reproduces.
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}

describe('scalar types', () => {
  it('lists the twelve dtypes in a fixed order', () => {
    expect(DTYPES).toEqual([
      'float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int16', 'int32', 'int64', 'bool', 'complex64', 'complex128',
    ]);
    expect(Object.isFrozen(DTYPES)).toBe(true);
  });

  it('describes each dtype like torch does', () => {
    const facts: [DType, number, unknown, boolean, boolean, string][] = [
      ['float32', 4, Float32Array, true, true, 'floating'],
      ['float64', 8, Float64Array, true, true, 'floating'],
      ['float16', 2, Uint16Array, true, true, 'floating'],
      ['bfloat16', 2, Uint16Array, true, true, 'floating'],
      ['int8', 1, Int8Array, false, true, 'integral'],
      ['uint8', 1, Uint8Array, false, false, 'integral'],
      ['int16', 2, Int16Array, false, true, 'integral'],
      ['int32', 4, Int32Array, false, true, 'integral'],
      ['int64', 8, BigInt64Array, false, true, 'integral'],
      ['bool', 1, Uint8Array, false, false, 'bool'],
      // (a complex element is two parts in its parts' array: Note [Complex tensors are pairs of reals])
      ['complex64', 8, Float32Array, false, true, 'complex'],
      ['complex128', 16, Float64Array, false, true, 'complex'],
    ];
    for (const [d, size, Arr, isFloat, signed, category] of facts) {
      const m = typeMeta(d);
      expect(m.name).toBe(d);
      expect(m.itemSize).toBe(size);
      expect(m.ArrayType).toBe(Arr);
      expect(m.ArrayType.BYTES_PER_ELEMENT * (category === 'complex' ? 2 : 1)).toBe(size);
      expect(m.isComplex).toBe(category === 'complex');
      expect(m.isFloatingPoint).toBe(isFloat);
      expect(m.isSigned).toBe(signed);
      expect(m.category).toBe(category);
      expect(Object.isFrozen(m)).toBe(true);
      expect(typeMeta(d)).toBe(m);
      expect(isFloatingType(d)).toBe(isFloat);
      expect(isIntegralType(d, false)).toBe(category === 'integral');
      expect(isIntegralType(d, true)).toBe(category === 'integral' || category === 'bool');
    }
  });

  it('recognises dtype names and nothing else', () => {
    for (const d of DTYPES) expect(isDType(d)).toBe(true);
    for (const x of ['float', 'Float32', 'toString', 'complex32', '', 3, null, undefined, {}]) {
      expect(isDType(x)).toBe(false);
    }
    expect(() => typeMeta('toString' as DType)).toThrow(DTypeError);
  });

  it('parses names and torch aliases', () => {
    expect(parseDType('to', 'float')).toBe('float32');
    expect(parseDType('to', 'double')).toBe('float64');
    expect(parseDType('to', 'half')).toBe('float16');
    expect(parseDType('to', 'long')).toBe('int64');
    expect(parseDType('to', 'int')).toBe('int32');
    expect(parseDType('to', 'short')).toBe('int16');
    for (const d of DTYPES) expect(parseDType('to', d)).toBe(d);
  });

  it('rejects anything else with a DTypeError naming the op', () => {
    for (const bad of ['complex32', 'byte', 'char', 'Float', 'hasOwnProperty', 7, null, undefined, ['float32']]) {
      expect(() => parseDType('zeros', bad)).toThrow(DTypeError);
      expect(() => parseDType('zeros', bad)).toThrow(/^zeros: expected a dtype/);
    }
    expect(() => parseDType('zeros', 'complex32')).toThrow("zeros: expected a dtype (one of float32, float64, float16, bfloat16, int8, uint8, int16, int32, int64, bool, complex64, complex128), got 'complex32'");
    expect(parseDType('zeros', 'cfloat')).toBe('complex64');
    expect(parseDType('zeros', 'cdouble')).toBe('complex128');
  });
});

describe('default dtype', () => {
  afterEach(() => setDefaultDtype('float32'));

  it('starts as float32 and accepts every floating dtype', () => {
    expect(getDefaultDtype()).toBe('float32');
    for (const d of ['float64', 'float16', 'bfloat16', 'float32'] as const) {
      setDefaultDtype(d);
      expect(getDefaultDtype()).toBe(d);
    }
    setDefaultDtype('double' as DType);
    expect(getDefaultDtype()).toBe('float64');
  });

  it('refuses non-floating dtypes and leaves the default alone', () => {
    setDefaultDtype('float64');
    for (const d of ['int32', 'int64', 'bool', 'uint8'] as const) {
      expect(() => setDefaultDtype(d)).toThrow(DTypeError);
      expect(() => setDefaultDtype(d)).toThrow(
        `setDefaultDtype: only floating-point types are supported as the default type, got ${d}`,
      );
    }
    expect(() => setDefaultDtype('nope' as DType)).toThrow(/^setDefaultDtype: expected a dtype/);
    expect(getDefaultDtype()).toBe('float64');
  });

  it('decides the dtype of non-integer scalars', () => {
    expect(scalarDType(2.5)).toBe('float32');
    expect(scalarDType(NaN)).toBe('float32');
    expect(scalarDType(-Infinity)).toBe('float32');
    expect(scalarDType(3)).toBe('int64');
    expect(scalarDType(-0)).toBe('int64');
    expect(scalarDType(2 ** 62)).toBe('int64');
    expect(scalarDType(2 ** 63)).toBe('float32');
    expect(scalarDType(3n)).toBe('int64');
    expect(scalarDType(true)).toBe('bool');
    setDefaultDtype('float64');
    expect(scalarDType(2.5)).toBe('float64');
    expect(resultType('add', [{ dtype: 'int32', shape: [2] }, 2.5])).toBe('float64');
    expect(resultType('add', [{ dtype: 'float32', shape: [2] }, 2.5])).toBe('float32');
  });
});

describe('float16', () => {
  it('round-trips every bit pattern through a number', () => {
    const bad = new Mismatches();
    let nans = 0;
    for (let h = 0; h < 0x10000; h++) {
      const v = f16BitsToNumber(h);
      const isNaN16 = (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;
      if (isNaN16) {
        nans++;
        bad.check(`isNaN ${h}`, Number.isNaN(v), true);
        bad.check(`f32ToF16Bits ${h}`, f32ToF16Bits(v), 0x7e00);
        // Through float32 bits a NaN keeps its sign and becomes quiet, as in c10: the
        // float32 pattern with h's sign, exponent and payload in the top 16 bits.
        const asF32 = (((h & 0x8000) << 16) | 0x7f800000 | ((h & 0x3ff) << 13)) >>> 0;
        bad.check(`f32BitsToF16Bits ${h}`, f32BitsToF16Bits(asF32), (h & 0x8000) | 0x7e00);
      } else {
        bad.check(`f32ToF16Bits ${h}`, f32ToF16Bits(v), h);
        bad.check(`f64ToF16Bits ${h}`, f64ToF16Bits(v), h);
        bad.check(`f32BitsToF16Bits ${h}`, f32BitsToF16Bits(bitsOf(v)), h);
        bad.check(`exact in float32 ${h}`, Math.fround(v), v);
      }
    }
    expect(bad.found).toEqual([]);
    expect(nans).toBe(2 * 1023);
  });

  it('decodes known values exactly', () => {
    expect(f16BitsToNumber(0x3c00)).toBe(1);
    expect(f16BitsToNumber(0xc000)).toBe(-2);
    expect(f16BitsToNumber(0x7bff)).toBe(65504);
    expect(f16BitsToNumber(0x0400)).toBe(2 ** -14);
    expect(f16BitsToNumber(0x0001)).toBe(2 ** -24);
    expect(f16BitsToNumber(0x03ff)).toBe(1023 * 2 ** -24);
    expect(f16BitsToNumber(0x7c00)).toBe(Infinity);
    expect(f16BitsToNumber(0xfc00)).toBe(-Infinity);
    expect(Object.is(f16BitsToNumber(0x8000), -0)).toBe(true);
    expect(Object.is(f16BitsToNumber(0x0000), 0)).toBe(true);
    expect(f16BitsToNumber(0x3555)).toBe(0.333251953125);
  });

  it('rounds ties to even', () => {
    expect(f32ToF16Bits(1 + 2 ** -11)).toBe(0x3c00); // tie between 0x3c00 and 0x3c01
    expect(f32ToF16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie between 0x3c01 and 0x3c02
    expect(f32ToF16Bits(1 + 2 ** -11 + 2 ** -22)).toBe(0x3c01);
    expect(f32ToF16Bits(-(1 + 3 * 2 ** -11))).toBe(0xbc02);
    expect(f32ToF16Bits(2049)).toBe(0x6800); // 2048, even
    expect(f32ToF16Bits(2051)).toBe(0x6802); // 2052, even
  });

  it('handles subnormals, zeros and overflow', () => {
    expect(f32ToF16Bits(2 ** -24)).toBe(0x0001);
    expect(f32ToF16Bits(2 ** -25)).toBe(0x0000); // tie with 2^-24 goes to even 0
    expect(f32ToF16Bits(-(2 ** -25))).toBe(0x8000);
    expect(f32ToF16Bits(2 ** -25 * (1 + 2 ** -23))).toBe(0x0001);
    expect(f32ToF16Bits(3 * 2 ** -25)).toBe(0x0002); // 1.5 units -> 2
    expect(f32ToF16Bits(5 * 2 ** -25)).toBe(0x0002); // 2.5 units -> 2
    expect(f32ToF16Bits(1023.5 * 2 ** -24)).toBe(0x0400); // rounds up into the normals
    expect(f32ToF16Bits(2 ** -26)).toBe(0x0000);
    expect(f32ToF16Bits(1e-45)).toBe(0x0000);
    expect(f32ToF16Bits(-0)).toBe(0x8000);
    expect(f32ToF16Bits(0)).toBe(0x0000);
    expect(f32ToF16Bits(65504)).toBe(0x7bff);
    expect(f32ToF16Bits(65519.99)).toBe(0x7bff);
    expect(f32ToF16Bits(65520)).toBe(0x7c00); // tie with 2^16 goes to the even Inf
    expect(f32ToF16Bits(-65520)).toBe(0xfc00);
    expect(f32ToF16Bits(1e10)).toBe(0x7c00);
    expect(f32ToF16Bits(Infinity)).toBe(0x7c00);
    expect(f32ToF16Bits(-Infinity)).toBe(0xfc00);
    expect(f32ToF16Bits(NaN)).toBe(0x7e00);
    expect(f32BitsToF16Bits(0xffc00000)).toBe(0xfe00);
    expect(f32BitsToF16Bits(0x7f800001)).toBe(0x7e00); // a signalling NaN stays NaN, quiet
  });

  it('rounds float64 through float32 first, as PyTorch does', () => {
    // Note [Float64 to 16-bit floats rounds twice]: single rounding would give 0x3c01.
    expect(f64ToF16Bits(1 + 2 ** -11 + 2 ** -40)).toBe(0x3c00);
    expect(f64ToF16Bits(1 + 2 ** -11 + 2 ** -20)).toBe(0x3c01);
    expect(f64ToF16Bits(1e300)).toBe(0x7c00);
    expect(f64ToF16Bits(5e-324)).toBe(0x0000);
  });

  it('agrees with a search-based oracle on every tie and its neighbours', () => {
    const bad = new Mismatches();
    for (let i = 0; i + 1 < F16_VALUES.length; i++) {
      const mid = (F16_VALUES[i] + F16_VALUES[i + 1]) / 2;
      const b = bitsOf(mid);
      bad.check(`midpoint ${i} exact in float32`, fromBits(b), mid);
      for (const x of [fromBits(b - 1), mid, fromBits(b + 1)]) {
        bad.check(`f32ToF16Bits(${x})`, f32ToF16Bits(x), roundBySearch(F16_VALUES, 0x7c00, x));
        bad.check(`f32ToF16Bits(${-x})`, f32ToF16Bits(-x), roundBySearch(F16_VALUES, 0x7c00, -x));
      }
    }
    expect(bad.found).toEqual([]);
  });

  it('agrees with the oracle on random float32 values', () => {
    const bad = new Mismatches();
    const next = lcg(7);
    let checked = 0;
    for (let i = 0; i < 200_000; i++) {
      const x = fromBits(next());
      if (Number.isNaN(x)) continue;
      checked++;
      bad.check(`f32ToF16Bits(${x})`, f32ToF16Bits(x), roundBySearch(F16_VALUES, 0x7c00, x));
      bad.check(`f32ToBf16Bits(${x})`, f32ToBf16Bits(x), roundBySearch(BF16_VALUES, 0x7f80, x));
    }
    expect(bad.found).toEqual([]);
    expect(checked).toBeGreaterThan(199_000);
  });
});

describe('bfloat16', () => {
  it('round-trips every bit pattern through a number', () => {
    const bad = new Mismatches();
    let nans = 0;
    for (let h = 0; h < 0x10000; h++) {
      const v = bf16BitsToNumber(h);
      const isNaN16 = (h & 0x7f80) === 0x7f80 && (h & 0x7f) !== 0;
      if (isNaN16) {
        nans++;
        bad.check(`isNaN ${h}`, Number.isNaN(v), true);
        bad.check(`f32ToBf16Bits ${h}`, f32ToBf16Bits(v), 0x7fc0);
        bad.check(`f32BitsToBf16Bits ${h}`, f32BitsToBf16Bits((h << 16) >>> 0), 0x7fc0);
      } else {
        bad.check(`f32ToBf16Bits ${h}`, f32ToBf16Bits(v), h);
        bad.check(`f64ToBf16Bits ${h}`, f64ToBf16Bits(v), h);
        bad.check(`f32BitsToBf16Bits ${h}`, f32BitsToBf16Bits((h << 16) >>> 0), h);
        bad.check(`bits ${h}`, bitsOf(v), (h << 16) >>> 0);
      }
    }
    expect(bad.found).toEqual([]);
    expect(nans).toBe(2 * 127);
  });

  it('decodes known values exactly', () => {
    expect(bf16BitsToNumber(0x3f80)).toBe(1);
    expect(bf16BitsToNumber(0x4049)).toBe(3.140625);
    expect(bf16BitsToNumber(0x7f7f)).toBe(Math.fround(3.3895313892515355e38));
    expect(bf16BitsToNumber(0x0001)).toBe(2 ** -133);
    expect(bf16BitsToNumber(0x7f80)).toBe(Infinity);
    expect(bf16BitsToNumber(0xff80)).toBe(-Infinity);
    expect(Object.is(bf16BitsToNumber(0x8000), -0)).toBe(true);
  });

  it('rounds ties to even, keeps subnormals and overflows to Inf', () => {
    expect(f32ToBf16Bits(1 + 2 ** -8)).toBe(0x3f80);
    expect(f32ToBf16Bits(1 + 3 * 2 ** -8)).toBe(0x3f82);
    expect(f32ToBf16Bits(1 + 2 ** -8 + 2 ** -20)).toBe(0x3f81);
    expect(f32ToBf16Bits(fromBits(0x00008000))).toBe(0x0000); // subnormal tie -> even
    expect(f32ToBf16Bits(fromBits(0x00018000))).toBe(0x0002);
    expect(f32ToBf16Bits(fromBits(0x007fffff))).toBe(0x0080); // rounds up into the normals
    expect(f32ToBf16Bits(fromBits(0x7f7fffff))).toBe(0x7f80); // largest float32 -> Inf
    expect(f32ToBf16Bits(fromBits(0x7f7f7fff))).toBe(0x7f7f);
    expect(f32ToBf16Bits(fromBits(0x7f7f8000))).toBe(0x7f80); // tie with Inf, Inf is even
    expect(f32ToBf16Bits(-0)).toBe(0x8000);
    expect(f32ToBf16Bits(-Infinity)).toBe(0xff80);
    expect(f32ToBf16Bits(NaN)).toBe(0x7fc0);
    expect(f32BitsToBf16Bits(0xffc00001)).toBe(0x7fc0);
  });

  it('rounds float64 through float32 first, as PyTorch does', () => {
    expect(f64ToBf16Bits(1 + 2 ** -8 + 2 ** -40)).toBe(0x3f80);
    expect(f64ToBf16Bits(1 + 2 ** -8 + 2 ** -20)).toBe(0x3f81);
    expect(f64ToBf16Bits(1e39)).toBe(0x7f80);
  });

  it('agrees with a search-based oracle on every tie and its neighbours', () => {
    const bad = new Mismatches();
    for (let i = 0; i + 1 < BF16_VALUES.length; i++) {
      const mid = (BF16_VALUES[i] + BF16_VALUES[i + 1]) / 2;
      const b = bitsOf(mid);
      bad.check(`midpoint ${i} exact in float32`, fromBits(b), mid);
      for (const x of [fromBits(b - 1), mid, fromBits(b + 1)]) {
        bad.check(`f32ToBf16Bits(${x})`, f32ToBf16Bits(x), roundBySearch(BF16_VALUES, 0x7f80, x));
        bad.check(`f32ToBf16Bits(${-x})`, f32ToBf16Bits(-x), roundBySearch(BF16_VALUES, 0x7f80, -x));
      }
    }
    expect(bad.found).toEqual([]);
  });
});

describe('promotion', () => {
  const t = (dtype: DType, ...shape: number[]) => ({ dtype, shape });

  it('promoteTypes is symmetric and idempotent', () => {
    for (const a of DTYPES) {
      expect(promoteTypes(a, a)).toBe(a);
      expect(promoteTypes(a, 'bool')).toBe(a);
      for (const b of DTYPES) expect(promoteTypes(a, b)).toBe(promoteTypes(b, a));
    }
  });

  it('promoteTypes meets where neither type holds the other', () => {
    expect(promoteTypes('float16', 'bfloat16')).toBe('float32');
    expect(promoteTypes('uint8', 'int8')).toBe('int16');
    expect(promoteTypes('uint8', 'int16')).toBe('int16');
    expect(promoteTypes('int64', 'float16')).toBe('float16');
    expect(promoteTypes('bfloat16', 'float64')).toBe('float64');
    expect(promoteTypes('int32', 'int8')).toBe('int32');
  });

  it('resultType follows the three priority classes', () => {
    expect(resultType('add', [t('float32', 2), t('float64')])).toBe('float32');
    expect(resultType('add', [t('int8', 2), t('float64')])).toBe('float64');
    expect(resultType('add', [t('int8', 2), t('uint8')])).toBe('int8');
    expect(resultType('add', [t('int8'), t('uint8')])).toBe('int16');
    expect(resultType('add', [t('bool', 2), t('uint8')])).toBe('uint8');
    expect(resultType('add', [t('bfloat16', 2), t('float16')])).toBe('bfloat16');
    expect(resultType('add', [t('int8', 0), t('int64')])).toBe('int8'); // an empty 1-d tensor is dim>0
    expect(resultType('add', [t('int32', 2), 7])).toBe('int32');
    expect(resultType('add', [t('int32', 2), 7n])).toBe('int32');
    expect(resultType('add', [t('int32', 2), 2.5])).toBe('float32');
    expect(resultType('add', [t('int32', 2), NaN])).toBe('float32');
    expect(resultType('add', [t('float16', 2), 2.5])).toBe('float16');
    expect(resultType('add', [t('bool', 2), 3])).toBe('int64');
    expect(resultType('add', [t('bool', 2), true])).toBe('bool');
    expect(resultType('add', [t('int32'), 2.5])).toBe('float32');
    expect(resultType('add', [t('float64'), 2.5])).toBe('float64');
    expect(resultType('add', [1, 2.5])).toBe('float32');
    expect(resultType('add', [true, 2])).toBe('int64');
    expect(resultType('addcmul', [t('float16', 2), t('float64'), t('int8')])).toBe('float16');
    expect(resultType('addcmul', [t('int8', 2), t('float64'), t('uint8')])).toBe('float64');
  });

  it('resultType rejects bad operands', () => {
    expect(() => resultType('add', [])).toThrow(TorchError);
    expect(() => resultType('add', [])).toThrow(/^add: /);
    expect(() => resultType('mul', [{ dtype: 'complex32', shape: [] } as never])).toThrow(DTypeError);
    expect(() => resultType('mul', ['x' as never])).toThrow("mul: expected tensors or scalars for type promotion, got 'x'");
    expect(() => resultType('mul', [{ dtype: 'complex32', shape: [] } as never])).toThrow(
      'mul: expected tensors or scalars for type promotion, got an object with dtype complex32',
    );
    expect(() => resultType('mul', [{ dtype: 'int8' } as never])).toThrow(/got an object without a shape array$/);
  });

  it('canCast refuses only casts down the category lattice', () => {
    expect(canCast('float32', 'int64')).toBe(false);
    expect(canCast('int64', 'bool')).toBe(false);
    expect(canCast('float64', 'bool')).toBe(false);
    expect(canCast('float64', 'float16')).toBe(true);
    expect(canCast('int64', 'int8')).toBe(true);
    expect(canCast('bool', 'uint8')).toBe(true);
    expect(canCast('int8', 'bfloat16')).toBe(true);
    expect(() => checkCanCast('add', 'float32', 'int64')).toThrow(DTypeError);
    expect(() => checkCanCast('add', 'float32', 'int64')).toThrow(
      "add: result type float32 can't be cast to the desired output type int64",
    );
    expect(() => checkCanCast('add', 'int64', 'float32')).not.toThrow();
  });
});
