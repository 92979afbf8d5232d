/**
 * The op goldens (goldens/ops_*.json, written by scripts/goldens/ops_*.py from real PyTorch;
 * the case format is described in scripts/goldens/_ops_common.py), read and decoded.
 */
import { readFileSync } from 'node:fs';
import { DTYPES, type DType } from '@torch-ts/torch';

/**
 * A JSON element: a number, a bool, "nan"/"inf"/"-inf", or an int64 beyond 2^53 as decimal text.
 * A complex tensor's values are its view_as_real pairs, [re0, im0, re1, im1, ...].
 */
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
  /**
   * "upcast": computed on float32 copies, as PyTorch 2.x does (1.13 lacks the kernel); "2.x":
   * 1.13 lacks the op, and the golden script's reference implementation of 2.x's kernel
   * computed it (torch.special's orthogonal polynomials, airy_ai).
   */
  readonly reference?: 'upcast' | '2.x';
  readonly inplace?: 'ok' | GoldenError;
}

interface GoldenFile {
  readonly torch_version: string;
  readonly family: string;
  readonly ops: Readonly<Record<string, { readonly cases: readonly GoldenCase[] }>>;
}

export const GOLDEN_FILES = ['ops_pointwise', 'ops_activations', 'ops_binary', 'ops_logical', 'ops_rounding', 'ops_reduction', 'ops_linalg', 'ops_shape', 'ops_sorting', 'ops_linalg_extra', 'ops_stats', 'ops_nan_stats', 'ops_nn', 'ops_indexing', 'ops_spatial', 'ops_common', 'ops_histograms', 'ops_special', 'ops_special_2x', 'ops_linalg_solve', 'ops_linalg_svd', 'ops_linalg_qr', 'ops_complex'] as const;

/**
 * The golden file whose cases extend ops of the other files (Note [Complex OpInfo] in
 * op-info/complex.ts): complex64/complex128 cases only, merged into the op's real cases.
 */
const EXTENDING_FILE = 'ops_complex';

let cache: ReadonlyMap<string, readonly GoldenCase[]> | null = null;

/** Every op's cases, keyed by the op's OpInfo name. */
export function loadOpGoldens(): ReadonlyMap<string, readonly GoldenCase[]> {
  if (cache) return cache;
  const all = new Map<string, readonly GoldenCase[]>();
  for (const file of GOLDEN_FILES) {
    const data = goldenFile(JSON.parse(readFileSync(new URL(`../goldens/${file}.json`, import.meta.url), 'utf8')), file);
    for (const [op, { cases }] of Object.entries(data.ops)) {
      if (file === EXTENDING_FILE) {
        const real = cases.find((c) => !isComplexType(c.dtype));
        if (real) throw new Error(`goldens: ${file}.json: ${op} has a ${real.dtype} case; this file holds complex cases only`);
        all.set(op, [...(all.get(op) ?? []), ...cases]);
        continue;
      }
      if (all.has(op)) throw new Error(`goldens: op ${op} appears in more than one golden file (${file}.json)`);
      all.set(op, cases);
    }
  }
  cache = all;
  return all;
}

/**
 * The parsed JSON of a golden file, checked to have the shape GoldenFile declares (the
 * format of scripts/goldens/_ops_common.py), so that the types the runner relies on are
 * true; a file that does not fit names the op and case that does not.
 */
function goldenFile(data: unknown, file: string): GoldenFile {
  if (!isRecord(data) || typeof data.torch_version !== 'string' || typeof data.family !== 'string' || !isRecord(data.ops)) {
    throw new Error(`goldens: ${file}.json is not a golden file (torch_version, family, ops)`);
  }
  const ops: Record<string, { readonly cases: readonly GoldenCase[] }> = {};
  for (const [op, entry] of Object.entries(data.ops)) {
    const cases = isRecord(entry) ? entry.cases : undefined;
    if (!Array.isArray(cases)) throw new Error(`goldens: ${file}.json: ops.${op} has no cases list`);
    const bad = cases.findIndex((c: unknown) => !isGoldenCase(c));
    if (bad >= 0) throw new Error(`goldens: ${file}.json: ops.${op}.cases[${bad}] is not a golden case: ${JSON.stringify(cases[bad]).slice(0, 200)}`);
    ops[op] = { cases: cases.filter(isGoldenCase) };
  }
  return { torch_version: data.torch_version, family: data.family, ops };
}

function isRecord(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isDType = (v: unknown): v is DType => DTYPES.some((d) => d === v);
const isGoldenValue = (v: unknown): v is GoldenValue => typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string';

function isGoldenTensor(v: unknown): v is GoldenTensor {
  return (
    isRecord(v) &&
    isDType(v.dtype) &&
    Array.isArray(v.shape) &&
    v.shape.every((n: unknown) => typeof n === 'number') &&
    Array.isArray(v.values) &&
    v.values.every(isGoldenValue)
  );
}

const isGoldenScalar = (v: unknown): v is GoldenScalar => isRecord(v) && isGoldenValue(v.scalar);
const isGoldenError = (v: unknown): v is GoldenError => isRecord(v) && typeof v.type === 'string' && typeof v.message === 'string';

function isGoldenCase(v: unknown): v is GoldenCase {
  if (!isRecord(v)) return false;
  const { sample, variant, dtype, inputs, kwargs, expected, error, reference, inplace } = v;
  return (
    typeof sample === 'string' &&
    typeof variant === 'string' &&
    isDType(dtype) &&
    Array.isArray(inputs) &&
    inputs.every((x: unknown) => isGoldenScalar(x) || isGoldenTensor(x)) &&
    isRecord(kwargs) &&
    (expected === undefined || isGoldenTensor(expected) || (Array.isArray(expected) && expected.every(isGoldenTensor))) &&
    (error === undefined || isGoldenError(error)) &&
    (reference === undefined || reference === 'upcast' || reference === '2.x') &&
    (inplace === undefined || inplace === 'ok' || isGoldenError(inplace))
  );
}

/** complex64 or complex128 (torch's dtype predicates live in core, which testing does not import directly). */
export function isComplexType(d: DType): d is 'complex64' | 'complex128' {
  return d === 'complex64' || d === 'complex128';
}

/** The dtype of a complex dtype's parts. */
export function partsDtype(d: DType): DType {
  return d === 'complex64' ? 'float32' : d === 'complex128' ? 'float64' : d;
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
  return 'dtype' in c.expected ? [c.expected] : c.expected;
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
  if (g.dtype === 'int64') return g.values.map((v) => BigInt(v));
  return g.values.map(decodeNumber);
}

/** A JS scalar input: an integer-valued number is an int scalar, as in the goldens' Python. */
export function decodeScalar(s: GoldenScalar): number | boolean {
  return typeof s.scalar === 'boolean' ? s.scalar : decodeNumber(s.scalar);
}
