/**
 * Every case of goldens/repr.json (written by scripts/goldens/repr.py from real PyTorch)
 * must print character for character as PyTorch's `repr` did.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type ReprInput, formatTensor, setPrintOptions } from '@torch-ts/core';

type JsonValue = number | boolean | string;

interface GoldenCase {
  name: string;
  shape: number[];
  dtype: ReprInput['dtype'];
  values: JsonValue[];
  repr: string;
  device?: string;
  requires_grad?: boolean;
  grad_fn?: string;
  default_dtype?: ReprInput['dtype'];
  options?: {
    precision?: number;
    threshold?: number;
    edgeitems?: number;
    linewidth?: number;
    sci_mode?: boolean;
    profile?: 'default' | 'short' | 'full';
  };
}

const golden = JSON.parse(readFileSync(new URL('../goldens/repr.json', import.meta.url), 'utf8')) as {
  cases: GoldenCase[];
};

const NON_FINITE: Record<string, number> = { nan: NaN, inf: Infinity, '-inf': -Infinity };

/**
 * Rebuilds the elements as a tensor would hand them over: floats as numbers (non-finite ones
 * travel as strings), int64 as a BigInt64Array when some value is beyond 2^53 (those travel
 * as decimal strings), so both the number and the bigint paths are exercised.
 */
function decodeValues(c: GoldenCase): ArrayLike<number | bigint | boolean> {
  if (c.dtype === 'int64' && c.values.some((v) => typeof v === 'string')) {
    return BigInt64Array.from(c.values, (v) => BigInt(v as number | string));
  }
  return c.values.map((v) => {
    if (typeof v !== 'string') return v;
    const decoded = NON_FINITE[v];
    if (decoded === undefined) throw new Error(`repr.json: unexpected string value '${v}' in ${c.name}`);
    return decoded;
  });
}

afterEach(() => setPrintOptions({ profile: 'default' }));

describe('formatTensor matches PyTorch repr', () => {
  it('has the golden cases', () => {
    expect(golden.cases.length).toBeGreaterThanOrEqual(80);
  });

  for (const c of golden.cases) {
    it(c.name, () => {
      if (c.options !== undefined) {
        const o = c.options;
        setPrintOptions({
          precision: o.precision,
          threshold: o.threshold,
          edgeitems: o.edgeitems,
          linewidth: o.linewidth,
          sciMode: o.sci_mode,
          profile: o.profile,
        });
      }
      const text = formatTensor({
        shape: c.shape,
        dtype: c.dtype,
        values: decodeValues(c),
        device: c.device ?? 'cpu',
        defaultDtype: c.default_dtype ?? 'float32',
        requiresGrad: c.requires_grad ?? false,
        gradFnName: c.grad_fn ?? null,
      });
      expect(text).toBe(c.repr);
    });
  }
});
