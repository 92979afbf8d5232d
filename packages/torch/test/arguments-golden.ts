import { expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import golden from './goldens/arguments.json';

// The inputs of scripts/goldens/arguments.py, rebuilt.
const f32 = { dtype: 'float32' } as const;
export const inputs = () => {
  const y = torch.arange(12, f32).view(3, 4);
  return {
    x: torch.arange(24, f32).view(2, 3, 4),
    y,
    s: torch.arange(6, f32).view(2, 1, 3, 1),
    col: torch.arange(3, f32).view(3, 1),
    idx: torch.tensor([[0, 1, 1, 0], [2, 2, 0, 1], [1, 0, 2, 2]]),
    mask: torch.remainder(y.long(), 3).eq(0),
    v: torch.arange(4, f32),
    w: torch.arange(4, f32).add(1),
    a: torch.arange(6, f32).view(2, 3),
    b: torch.arange(12, f32).view(3, 4),
    ba: torch.arange(12, f32).view(2, 2, 3),
    bb: torch.arange(12, f32).view(2, 3, 2),
    c: torch.ones([2, 4]),
    u: torch.tensor([[2, 1, 2], [0, 1, 0], [2, 1, 2]]),
    seq: torch.tensor([1, 3, 5, 7], f32),
    vals: torch.tensor([[3, 6], [1, 7]], f32),
    img: torch.arange(32, f32).view(1, 2, 4, 4),
  };
};

interface Golden {
  shape: number[];
  dtype: string;
  values: number[];
  stride: number[];
  offset: number;
}
type GoldenResult = Golden | GoldenResult[];
const OPS = golden.ops as unknown as Record<string, GoldenResult>;

/** PyTorch's dtype names (`float32`, `int64`, `bool`) are torch-ts's. */
function check(name: string, got: unknown, want: GoldenResult, view: boolean): void {
  if (Array.isArray(want)) {
    expect(Array.isArray(got), `${name}: a list of ${want.length}`).toBe(true);
    const g = got as unknown[];
    expect(g.length, name).toBe(want.length);
    want.forEach((w, i) => check(`${name}[${i}]`, g[i], w, view));
    return;
  }
  const t = got as Tensor;
  expect(t.shape, `${name} shape`).toEqual(want.shape);
  expect(t.dtype, `${name} dtype`).toBe(want.dtype);
  const values = [t.reshape(-1).tolist()].flat() as (number | boolean | bigint)[];
  expect(values.map(Number), `${name} values`).toEqual(want.values.map(Number));
  if (view) {
    expect(t.stride(), `${name} stride`).toEqual(want.stride);
    expect(t.storageOffset(), `${name} offset`).toBe(want.offset);
  }
}

/**
 * Every form equals PyTorch's keyword call `name` (scripts/goldens/arguments.py); `view`:
 * also its strides and storage offset. A `ValuesIndices` result is compared as its pair.
 */
export function expectForms(name: string, forms: readonly (() => unknown)[], view = false): void {
  const want = OPS[name];
  if (want === undefined) throw new Error(`no golden '${name}'`);
  expect(forms.length).toBeGreaterThan(1);
  forms.forEach((form, i) => {
    let got = form();
    // (a Tensor has values() and indices() methods too, for sparse tensors: only a named pair is one)
    if (got !== null && typeof got === 'object' && !(got instanceof torch.Tensor) && 'values' in got && 'indices' in got && !Array.isArray(got)) {
      got = [(got as { values: Tensor }).values, (got as { indices: Tensor }).indices];
    }
    check(`${name} (form ${i})`, got, want, view);
  });
}

export const MODULE_REPRS = golden.modules as Record<string, string>;

/** Calls `self[name](...args)` untyped: a call the types rightly refuse, to see the runtime refuse it too. */
export function untyped(self: object, name: string, ...args: unknown[]): unknown {
  return (self as Record<string, (...a: unknown[]) => unknown>)[name](...args);
}
