/**
 * Values read back from a device, and their comparison: exact for integral and bool
 * results, `assert_close`-style for floats (NaN equals NaN, infinities must match).
 */
import type { DType, Tensor } from '@torch-ts/torch';
import * as torch from '@torch-ts/torch';
import { decodeValues, isComplexType, type GoldenTensor } from './goldens';
import type { Tolerance } from './op-info/types';

/**
 * A tensor's logical elements, row-major: bigint for int64, boolean for bool, else number;
 * a complex tensor's as (re, im) pairs, twice as many numbers as elements (its golden form).
 */
export interface ReadBack {
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly values: readonly number[] | readonly bigint[] | readonly boolean[];
}

/** Reads a CPU tensor synchronously (int64 as BigInts, so wrap-around beyond 2^53 is exact). */
export function readBackSync(t: Tensor): ReadBack {
  const dtype = t.dtype;
  const shape = [...t.shape];
  if (isComplexType(dtype)) {
    const parts = torch.viewAsReal(t);
    try {
      return { dtype, shape, values: Array.from(parts.dataSync(), Number) };
    } finally {
      parts.dispose();
    }
  }
  const data = t.dataSync({ bigint: dtype === 'int64' });
  if (data instanceof BigInt64Array) return { dtype, shape, values: Array.from(data) };
  if (dtype === 'int64') throw new Error('readBackSync: an int64 tensor read with { bigint: true } gave no BigInt64Array');
  if (dtype === 'bool') return { dtype, shape, values: Array.from(data, (v) => v !== 0) };
  return { dtype, shape, values: Array.from(data) };
}

export function fromGolden(g: GoldenTensor): ReadBack {
  return { dtype: g.dtype, shape: g.shape, values: decodeValues(g) };
}

/** How two results must agree: `null` tolerance means element-for-element identical (`Object.is`). */
export interface CompareOptions {
  readonly tolerance: Tolerance | null;
  /** Compare dtypes too (off when one side was cast on purpose). */
  readonly dtype?: boolean;
}

const MAX_REPORTED = 8;

/** Every disagreement of `got` with `expected`, as readable lines; empty when they agree. */
export function compareReadBacks(got: ReadBack, expected: ReadBack, options: CompareOptions): string[] {
  const problems: string[] = [];
  if (options.dtype !== false && got.dtype !== expected.dtype) {
    problems.push(`dtype: got ${got.dtype}, expected ${expected.dtype}`);
  }
  if (!sameList(got.shape, expected.shape)) {
    problems.push(`shape: got [${got.shape.join(', ')}], expected [${expected.shape.join(', ')}]`);
    return problems;
  }
  const tol = isIntegral(expected.dtype) || isIntegral(got.dtype) ? null : options.tolerance;
  let bad = 0;
  for (let i = 0; i < expected.values.length; i++) {
    const g = got.values[i];
    const e = expected.values[i];
    if (agree(g, e, tol)) continue;
    bad++;
    if (bad <= MAX_REPORTED) {
      const at = isComplexType(expected.dtype) ? `${position(i >> 1, expected.shape)}.${i % 2 ? 'imag' : 'real'}` : position(i, expected.shape);
      problems.push(`at ${at}: got ${show(g)}, expected ${show(e)}`);
    }
  }
  if (bad > MAX_REPORTED) problems.push(`... ${bad - MAX_REPORTED} more of ${expected.values.length} ${isComplexType(expected.dtype) ? 'parts' : 'elements'} differ`);
  if (bad > 0 && tol) problems.push(`(tolerance rtol=${tol.rtol}, atol=${tol.atol})`);
  return problems;
}

function isIntegral(d: DType): boolean {
  return d !== 'float32' && d !== 'float64' && d !== 'float16' && d !== 'bfloat16' && !isComplexType(d);
}

function agree(g: number | bigint | boolean, e: number | bigint | boolean, tol: Tolerance | null): boolean {
  if (typeof e === 'bigint' || typeof g === 'bigint') return BigInt(g) === BigInt(e);
  if (typeof e === 'boolean' || typeof g === 'boolean') return g === e;
  if (tol === null) return Object.is(g, e);
  if (Number.isNaN(e)) return Number.isNaN(g);
  if (!Number.isFinite(e) || !Number.isFinite(g)) return g === e;
  return Math.abs(g - e) <= tol.atol + tol.rtol * Math.abs(e);
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** `[1, 2]` for flat index 6 of a [3, 4] tensor. */
function position(flat: number, shape: readonly number[]): string {
  const idx: number[] = [];
  let rest = flat;
  for (let d = shape.length - 1; d >= 0; d--) {
    idx.unshift(rest % shape[d]);
    rest = Math.floor(rest / shape[d]);
  }
  return `[${idx.join(', ')}]`;
}

function show(v: number | bigint | boolean | undefined): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (Object.is(v, -0)) return '-0';
  return String(v);
}

/** A short account of a golden input for failure messages: `float16[2, 3] [1, -0.5, nan, ...]`. */
export function describeValues(dtype: DType, shape: readonly number[], values: readonly unknown[], max = 12): string {
  const shown = values.slice(0, max).map((v) => (typeof v === 'bigint' ? `${v}n` : String(v)));
  const more = values.length > max ? `, ... (${values.length} in all)` : '';
  return `${dtype}[${shape.join(', ')}] [${shown.join(', ')}${more}]`;
}
