/**
 * Type promotion and 16-bit float conversion against real PyTorch
 * (goldens/promotion.json, written by scripts/goldens/promotion.py).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  REAL_DTYPES,
  canCast,
  f16BitsToNumber,
  bf16BitsToNumber,
  f32ToBf16Bits,
  f32ToF16Bits,
  f64ToBf16Bits,
  f64ToF16Bits,
  promoteTypes,
  resultType,
  setDefaultDtype,
  type DType,
  type Operand,
} from '@torch-ts/core';

type GoldenNumber = number | 'nan' | 'inf' | '-inf';

interface Golden {
  torch_version: string;
  dtypes: DType[];
  promote_types: [DType, DType, DType][];
  can_cast: [DType, DType, boolean][];
  /** `"<default dtype>: <operand> ... -> <result>"`, see scripts/goldens/promotion.py. */
  result_type: string[];
  conversions: Record<'f64_to_f16' | 'f64_to_bf16' | 'f32_to_f16' | 'f32_to_bf16', [GoldenNumber, number][]>;
}

const golden = JSON.parse(
  readFileSync(new URL('../goldens/promotion.json', import.meta.url), 'utf8'),
) as Golden;

function num(x: GoldenNumber): number {
  if (x === 'nan') return NaN;
  if (x === 'inf') return Infinity;
  if (x === '-inf') return -Infinity;
  return x;
}

/** Reads `int8[2,3]`, `float64[]`, `int:3`, `float:2.5`, `float:nan` or `bool:true`. */
function operand(text: string): Operand {
  const tensor = /^(\w+)\[([\d,]*)\]$/.exec(text);
  if (tensor) {
    const shape = tensor[2] === '' ? [] : tensor[2].split(',').map(Number);
    return { dtype: tensor[1] as DType, shape };
  }
  const [kind, value] = text.split(':');
  if (kind === 'bool') return value === 'true';
  // Python's repr spells the specials 'nan', 'inf', '-inf', which Number() does not read.
  const x = num(value === 'nan' || value === 'inf' || value === '-inf' ? value : Number(value));
  // Note [Integer-valued numbers are integers]: the generator never writes an
  // integer-valued float scalar, so the JS number means what the Python scalar meant.
  expect(Number.isNaN(x)).toBe(value === 'nan');
  expect(Number.isInteger(x)).toBe(kind === 'int');
  return x;
}

function parseCase(line: string): { defaultDtype: DType; operands: Operand[]; result: DType } {
  const m = /^(\w+): (.+) -> (\w+)$/.exec(line);
  if (!m) throw new Error(`malformed result_type golden: ${line}`);
  return { defaultDtype: m[1] as DType, operands: m[2].split(' ').map(operand), result: m[3] as DType };
}

describe('promotion goldens', () => {
  afterEach(() => setDefaultDtype('float32'));

  it('lists the same dtypes as torch-ts', () => {
    // (the real dtypes: the complex ones' promotion goldens are packages/torch/test/complex.test.ts's)
    expect(golden.dtypes).toEqual([...REAL_DTYPES]);
  });

  it('promoteTypes matches torch.promote_types for all pairs', () => {
    expect(golden.promote_types).toHaveLength(100);
    const got = golden.promote_types.map(([a, b]) => [a, b, promoteTypes(a, b)]);
    expect(got).toEqual(golden.promote_types);
  });

  it('canCast matches torch.can_cast for all pairs', () => {
    expect(golden.can_cast).toHaveLength(100);
    const got = golden.can_cast.map(([a, b]) => [a, b, canCast(a, b)]);
    expect(got).toEqual(golden.can_cast);
  });

  it('resultType matches torch.result_type', () => {
    expect(golden.result_type.length).toBeGreaterThan(3000);
    const wrong: string[] = [];
    for (const line of golden.result_type) {
      const c = parseCase(line);
      setDefaultDtype(c.defaultDtype);
      const got = resultType('result_type', c.operands);
      if (got !== c.result) wrong.push(`${line}: got ${got}`);
    }
    expect(wrong).toEqual([]);
  });

  // Note [NaN bit patterns]: torch's vectorised float32 -> bfloat16 kernel writes 0xffff
  // for NaN and float16 keeps a NaN's sign, which a JS number cannot carry: for NaN
  // inputs the check is that the result decodes as NaN.
  const conversions = [
    ['f64_to_f16', f64ToF16Bits, f16BitsToNumber],
    ['f64_to_bf16', f64ToBf16Bits, bf16BitsToNumber],
    ['f32_to_f16', f32ToF16Bits, f16BitsToNumber],
    ['f32_to_bf16', f32ToBf16Bits, bf16BitsToNumber],
  ] as const;
  for (const [key, convert, decode] of conversions) {
    it(`${key} matches torch's cast bit for bit`, () => {
      const cases = golden.conversions[key];
      expect(cases.length).toBeGreaterThan(200);
      const wrong: string[] = [];
      for (const [value, bits] of cases) {
        const x = num(value);
        const got = convert(x);
        const ok = Number.isNaN(x) ? Number.isNaN(decode(got)) && Number.isNaN(decode(bits)) : got === bits;
        if (!ok) wrong.push(`${key}(${x}): got 0x${got.toString(16)}, want 0x${bits.toString(16)}`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
