/**
 * The cases of goldens/closeness.json (scripts/goldens/closeness.py, PyTorch 1.13) and how to
 * build their operands, shared by closeness.test.ts (CPU) and closeness-webgpu.test.ts.
 */
import { readFileSync } from 'node:fs';
import * as torch from '@torch-ts/torch';
import type { DType, Tensor } from '@torch-ts/torch';

type Value = number | string | boolean | [number | string, number | string];
export interface Operand {
  readonly dtype: DType;
  readonly shape: number[];
  readonly values: Value[];
}
export interface CloseCase {
  readonly fn: 'allclose' | 'isclose' | 'equal';
  readonly a: Operand;
  readonly b: Operand;
  readonly kwargs: { rtol?: number | string; atol?: number | string; equalNan?: boolean };
  readonly expected?: boolean | boolean[];
  /** isclose's result shape. */
  readonly shape?: number[];
  readonly error?: string;
}

export const CASES: readonly CloseCase[] = (
  JSON.parse(readFileSync(new URL('./goldens/closeness.json', import.meta.url), 'utf8')) as { cases: CloseCase[] }
).cases;

const num = (v: number | string): number => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : Number(v));

/** The operand as a tensor on `device` (int64 through BigInt: 2^53 + 1 is exact). */
export function operand(o: Operand, device: 'cpu' | 'webgpu'): Tensor {
  let t: Tensor;
  if (o.dtype === 'complex64' || o.dtype === 'complex128') {
    const parts = (o.values as [number | string, number | string][]).flatMap(([re, im]) => [num(re), num(im)]);
    t = torch.viewAsComplex(torch.tensor(parts, { dtype: o.dtype === 'complex64' ? 'float32' : 'float64' }).reshape([...o.shape, 2]));
  } else if (o.dtype === 'int64') {
    t = torch.tensor((o.values as string[]).map((v) => BigInt(v)), { dtype: 'int64' }).reshape(o.shape);
  } else if (o.dtype === 'bool') {
    t = torch.tensor(o.values as boolean[], { dtype: 'bool' }).reshape(o.shape);
  } else {
    t = torch.tensor((o.values as (number | string)[]).map(num), { dtype: o.dtype }).reshape(o.shape);
  }
  return device === 'cpu' ? t : t.to(device);
}

/** The case's options object (infinite tolerances decoded), or undefined for none. */
export function options(c: CloseCase): { rtol?: number; atol?: number; equalNan?: boolean } | undefined {
  const k = c.kwargs;
  if (Object.keys(k).length === 0) return undefined;
  return {
    ...(k.rtol !== undefined ? { rtol: num(k.rtol) } : {}),
    ...(k.atol !== undefined ? { atol: num(k.atol) } : {}),
    ...(k.equalNan !== undefined ? { equalNan: k.equalNan } : {}),
  };
}

export const describeCase = (c: CloseCase): string =>
  `${c.fn}(${c.a.dtype}${JSON.stringify(c.a.shape)} ${JSON.stringify(c.a.values)}, ${c.b.dtype}${JSON.stringify(c.b.shape)} ${JSON.stringify(c.b.values)}, ${JSON.stringify(c.kwargs)})`;
