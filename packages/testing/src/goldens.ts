/**
 * The op goldens (goldens/ops_*.json, written by scripts/goldens/ops_*.py from real PyTorch;
 * the case format is described in scripts/goldens/_ops_common.py), read and decoded.
 */
import { readFileSync } from 'node:fs';
import type { DType } from '@torch-ts/torch';

/** A JSON element: a number, a bool, "nan"/"inf"/"-inf", or an int64 beyond 2^53 as decimal text. */
export type GoldenValue = number | boolean | string;

export interface GoldenTensor {
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly values: readonly GoldenValue[];
}

export interface GoldenScalar {
  readonly scalar: number | boolean | string;
}

export interface GoldenError {
  /** The Python exception class: RuntimeError, IndexError... */
  readonly type: string;
  readonly message: string;
}

export interface GoldenCase {
  readonly sample: string;
  readonly variant: string;
  readonly dtype: DType;
  readonly inputs: readonly (GoldenTensor | GoldenScalar)[];
  readonly kwargs: Readonly<Record<string, unknown>>;
  readonly expected?: GoldenTensor | readonly GoldenTensor[];
  readonly error?: GoldenError;
  /** "upcast": computed on float32 copies, as PyTorch 2.x does (1.13 lacks the kernel). */
  readonly reference?: 'upcast';
  readonly inplace?: 'ok' | GoldenError;
}

interface GoldenFile {
  readonly torch_version: string;
  readonly family: string;
  readonly ops: Readonly<Record<string, { readonly cases: readonly GoldenCase[] }>>;
}

export const GOLDEN_FILES = ['ops_pointwise', 'ops_activations', 'ops_binary', 'ops_logical', 'ops_rounding', 'ops_reduction', 'ops_linalg', 'ops_shape', 'ops_sorting', 'ops_linalg_extra', 'ops_stats', 'ops_nn', 'ops_indexing', 'ops_spatial'] as const;

let cache: ReadonlyMap<string, readonly GoldenCase[]> | null = null;

/** Every op's cases, keyed by the op's OpInfo name. */
export function loadOpGoldens(): ReadonlyMap<string, readonly GoldenCase[]> {
  if (cache) return cache;
  const all = new Map<string, readonly GoldenCase[]>();
  for (const file of GOLDEN_FILES) {
    const data = JSON.parse(readFileSync(new URL(`../goldens/${file}.json`, import.meta.url), 'utf8')) as GoldenFile;
    for (const [op, { cases }] of Object.entries(data.ops)) {
      if (all.has(op)) throw new Error(`goldens: op ${op} appears in more than one golden file (${file}.json)`);
      all.set(op, cases);
    }
  }
  cache = all;
  return all;
}

/** `sample` or `sample:variant`: unique among an op's cases of one dtype. */
export function caseId(c: GoldenCase): string {
  return c.variant ? `${c.sample}:${c.variant}` : c.sample;
}

export function isScalarInput(x: GoldenTensor | GoldenScalar): x is GoldenScalar {
  return 'scalar' in x;
}

/** The expected result as a list (one element for a single tensor). */
export function expectedList(c: GoldenCase): readonly GoldenTensor[] | null {
  if (!c.expected) return null;
  return Array.isArray(c.expected) ? (c.expected as readonly GoldenTensor[]) : [c.expected as GoldenTensor];
}

/** A float element: "nan", "inf", "-inf" are the driver's spellings of the non-finite values. */
export function decodeNumber(v: GoldenValue): number {
  if (v === 'nan') return NaN;
  if (v === 'inf') return Infinity;
  if (v === '-inf') return -Infinity;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw new Error(`goldens: cannot read ${JSON.stringify(v)} as a number`);
}

/** The elements of a golden tensor in the form `readBack` gives (see values.ts). */
export function decodeValues(g: GoldenTensor): number[] | bigint[] | boolean[] {
  if (g.dtype === 'bool') return g.values.map((v) => v === true);
  if (g.dtype === 'int64') return g.values.map((v) => BigInt(v as number | string));
  return g.values.map(decodeNumber);
}

/** A JS scalar input: an integer-valued number is an int scalar, as in the goldens' Python. */
export function decodeScalar(s: GoldenScalar): number | boolean {
  return typeof s.scalar === 'boolean' ? s.scalar : decodeNumber(s.scalar);
}
