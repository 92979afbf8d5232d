/**
 * Seeded fuzz cases against real PyTorch (issue 14): goldens/fuzz.json, written by
 * scripts/goldens/fuzz.py (the format is described there): random view chains over the
 * view ops, checked for sizes, strides, storage offset, aliasing and values, and random
 * binary ops with broadcasting, mixed dtypes and Python scalars, checked for the result's
 * dtype, shape and values. Where PyTorch raises, torch-ts must raise the matching error
 * class with PyTorch's message (KNOWN_MESSAGES lists where the wording differs, and why).
 * Mismatches are collected and asserted once per suite. The loaders' fuzzing (random bytes,
 * truncations and bit flips of valid files) is packages/torch/test/serialization-fuzz.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { DType, Tensor } from '@torch-ts/torch';

type Value = number | boolean | string;
type ViewStep = [string, ...unknown[]];
interface ViewGeometry {
  s: number[];
  t: number[];
  o: number;
  v?: Value[];
}
interface ErrorCase {
  e: [string, string];
}
type Operand = [DType, number[], Value[]] | ['scalar', number | boolean];
type ViewCase = [number[], ViewStep[], ViewGeometry | ErrorCase];
type BinaryCase = [string, Operand, Operand, [DType, number[], Value[]] | ErrorCase];

const fuzz = JSON.parse(readFileSync(new URL('../goldens/fuzz.json', import.meta.url), 'utf8')) as {
  torch_version: string;
  seed: number;
  views: ViewCase[];
  binary: BinaryCase[];
};

/**
 * Errors whose torch-ts message differs from PyTorch 1.13's (the goldens' version) on
 * purpose: [PyTorch's message pattern, torch-ts's message pattern].
 */
const KNOWN_MESSAGES: [RegExp, RegExp][] = [
  // as_strided's bounds check names the op and counts elements where PyTorch's setStorage counts bytes
  [/^setStorage: sizes .* are out of bounds for storage of size \d+$/, /^asStrided: sizes .* are out of bounds for storage of size \d+ elements$/],
];

/** A message without its leading op name: PyTorch writes `select(): ...` or `select: ...`, torch-ts `select: ...` (STYLE.md). */
function body(message: string): string {
  return message.replace(/^[A-Za-z_][\w.]*(\(\))?: /, '');
}

function isError(x: unknown): x is ErrorCase {
  return typeof x === 'object' && x !== null && 'e' in x;
}

/** Whether `e` is the torch-ts counterpart of PyTorch's `[type, message]`, or what is wrong. */
function errorProblem(e: unknown, [type, message]: [string, string]): string | null {
  if (!(e instanceof Error)) return `threw a non-Error ${String(e)}`;
  const classOk =
    type === 'IndexError' ? e instanceof torch.IndexError : type === 'TypeError' ? e instanceof TypeError || e instanceof torch.TorchError : e instanceof torch.TorchError;
  if (!classOk) return `threw ${e.constructor.name}: ${e.message}; PyTorch raises ${type}`;
  if (e.message.includes(message) || body(e.message).includes(body(message))) return null;
  if (KNOWN_MESSAGES.some(([py, ts]) => py.test(message) && ts.test(e.message))) return null;
  return `message "${e.message}" does not contain PyTorch's "${message}"`;
}

function num(v: Value): number {
  if (v === 'nan') return NaN;
  if (v === 'inf') return Infinity;
  if (v === '-inf') return -Infinity;
  return typeof v === 'boolean' ? Number(v) : Number(v);
}

function flatValues(t: Tensor): Value[] {
  const l = t.reshape([-1]).tolist() as Value[];
  return l;
}

// ---- views ------------------------------------------------------------------------------

function applyView(t: Tensor, [op, ...a]: ViewStep): Tensor {
  const n = a as number[];
  const sizes = a[0] as number[];
  switch (op) {
    case 'view':
      return t.view(sizes);
    case 'reshape':
      return t.reshape(sizes);
    case 'permute':
      return t.permute(sizes);
    case 'transpose':
      return t.transpose(n[0], n[1]);
    case 'narrow':
      return t.narrow(n[0], n[1], n[2]);
    case 'select':
      return t.select(n[0], n[1]);
    case 'expand':
      return t.expand(sizes);
    case 'unsqueeze':
      return t.unsqueeze(n[0]);
    case 'squeeze':
      return a.length === 0 ? t.squeeze() : t.squeeze(n[0]);
    case 'flatten':
      return t.flatten(n[0], n[1]);
    case 'unfold':
      return t.unfold(n[0], n[1], n[2]);
    case 'diagonal':
      return t.diagonal(n[0], n[1], n[2]);
    case 'asStrided':
      return t.asStrided(sizes, a[1] as number[], a[2] as number);
    default:
      throw new Error(`fuzz: unknown view op ${op}`);
  }
}

/** The values a view of an arange storage holds: its storage positions, row-major. */
function positions(g: ViewGeometry): number[] {
  const n = g.s.reduce((a, b) => a * b, 1);
  const out: number[] = [];
  const idx = new Array<number>(g.s.length).fill(0);
  for (let i = 0; i < n; i++) {
    out.push(g.o + idx.reduce((acc, x, d) => acc + x * g.t[d], 0));
    for (let d = g.s.length - 1; d >= 0; d--) {
      if (++idx[d] < g.s[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

function viewProblem([shape, steps, expected]: ViewCase): string | null {
  const numel = shape.reduce((a, b) => a * b, 1);
  const base = torch.arange(numel, { dtype: 'int64' }).view(shape);
  let t = base;
  try {
    for (const s of steps) t = applyView(t, s);
  } catch (e) {
    if (isError(expected)) return errorProblem(e, expected.e);
    return `threw ${(e as Error).message}; PyTorch gives sizes [${expected.s}]`;
  }
  if (isError(expected)) return `did not throw; PyTorch raises ${expected.e[0]}: ${expected.e[1]}`;
  const got = { s: [...t.shape], t: [...t.stride()], o: t.storageOffset() };
  if (JSON.stringify(got.s) !== JSON.stringify(expected.s)) return `sizes [${got.s}], PyTorch [${expected.s}]`;
  const aliases = t.impl.storage === base.impl.storage;
  if (aliases !== (expected.v === undefined)) return `${aliases ? 'aliases' : 'copies'} where PyTorch ${aliases ? 'copies' : 'aliases'}`;
  const values = flatValues(t).map(num);
  if (expected.v === undefined) {
    if (JSON.stringify(got.t) !== JSON.stringify(expected.t) || got.o !== expected.o) {
      return `strides [${got.t}] offset ${got.o}, PyTorch [${expected.t}] offset ${expected.o}`;
    }
    if (JSON.stringify(values) !== JSON.stringify(positions(expected))) return `values [${values}], expected [${positions(expected)}]`;
  } else if (JSON.stringify(values) !== JSON.stringify(expected.v.map(num))) {
    return `values [${values}], PyTorch [${expected.v}]`;
  }
  return null;
}

// ---- binary ops -------------------------------------------------------------------------

type BinaryFn = (a: Tensor, b: Tensor | number | boolean) => Tensor;
const BINARY: Record<string, BinaryFn> = {
  add: (a, b) => torch.add(a, b),
  sub: (a, b) => torch.sub(a, b),
  mul: (a, b) => torch.mul(a, b),
  div: (a, b) => torch.div(a, b),
  maximum: (a, b) => torch.maximum(a, b as Tensor),
  minimum: (a, b) => torch.minimum(a, b as Tensor),
  eq: (a, b) => torch.eq(a, b),
  ne: (a, b) => torch.ne(a, b),
  lt: (a, b) => torch.lt(a, b),
  ge: (a, b) => torch.ge(a, b),
  remainder: (a, b) => torch.remainder(a, b),
  floorDivide: (a, b) => torch.floorDivide(a, b),
  bitwiseAnd: (a, b) => torch.bitwiseAnd(a, b),
  bitwiseOr: (a, b) => torch.bitwiseOr(a, b),
  logicalXor: (a, b) => torch.logicalXor(a, b as Tensor),
  atan2: (a, b) => torch.atan2(a, b as Tensor),
  fmod: (a, b) => torch.fmod(a, b),
  pow: (a, b) => torch.pow(a, b),
};

/** Relative tolerance of a result dtype against 7 significant digits of PyTorch's values. */
const RTOL: Partial<Record<DType, number>> = { float64: 1e-6, float32: 1e-6, float16: 1e-3, bfloat16: 8e-3 };

function operand(x: Operand): Tensor | number | boolean {
  if (x[0] === 'scalar') return x[1];
  const [dtype, shape, values] = x;
  return torch.tensor(values.map((v) => (typeof v === 'boolean' ? v : num(v))) as number[], { dtype }).reshape(shape);
}

function close(got: number, want: number, rtol: number): boolean {
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (!Number.isFinite(want)) return got === want;
  return Math.abs(got - want) <= rtol * Math.abs(want) + 1e-30;
}

function binaryProblem([op, a, b, expected]: BinaryCase): string | null {
  let r: Tensor;
  try {
    r = BINARY[op](operand(a) as Tensor, operand(b));
  } catch (e) {
    if (isError(expected)) return errorProblem(e, expected.e);
    return `threw ${(e as Error).constructor.name}: ${(e as Error).message}; PyTorch gives ${expected[0]} [${expected[1]}]`;
  }
  if (isError(expected)) return `did not throw; PyTorch raises ${expected.e[0]}: ${expected.e[1]}`;
  const [dtype, shape, values] = expected;
  if (r.dtype !== dtype) return `dtype ${r.dtype}, PyTorch ${dtype}`;
  if (JSON.stringify(r.shape) !== JSON.stringify(shape)) return `shape [${r.shape}], PyTorch [${shape}]`;
  const got = flatValues(r).map(num);
  const rtol = RTOL[dtype] ?? 0;
  const bad = values.findIndex((v, i) => !close(got[i], num(v), rtol));
  return bad < 0 ? null : `element ${bad}: ${got[bad]}, PyTorch ${values[bad]} (all: [${got}] vs [${values}])`;
}

// ---- the suites ---------------------------------------------------------------------------

function report(kind: string, problems: string[], total: number): string {
  return `${problems.length} of ${total} ${kind} cases (seed ${fuzz.seed}) differ from PyTorch ${fuzz.torch_version}:\n${problems.slice(0, 25).join('\n')}`;
}

describe('fuzz against PyTorch', () => {
  it('has thousands of cases, of every kind', () => {
    expect(fuzz.views.length).toBeGreaterThanOrEqual(1000);
    expect(fuzz.binary.length).toBeGreaterThanOrEqual(1000);
    const ops = new Set(fuzz.views.flatMap(([, steps]) => steps.map((s) => s[0])));
    expect([...ops].sort()).toEqual(['asStrided', 'diagonal', 'expand', 'flatten', 'narrow', 'permute', 'reshape', 'select', 'squeeze', 'transpose', 'unfold', 'unsqueeze', 'view']);
    expect(new Set(fuzz.binary.map((c) => c[0])).size).toBe(Object.keys(BINARY).length);
  });

  it('random view chains: sizes, strides, offsets, aliasing, values and errors', () => {
    const live = torch.memory.stats('cpu').liveTensors;
    const problems: string[] = [];
    torch.tidy(() => {
      fuzz.views.forEach((c, i) => {
        const p = viewProblem(c);
        if (p) problems.push(`#${i} ${JSON.stringify(c[0])} ${JSON.stringify(c[1])}: ${p}`);
      });
    });
    expect(problems, report('view', problems, fuzz.views.length)).toEqual([]);
    expect(torch.memory.stats('cpu').liveTensors).toBe(live);
  });

  it('random binary ops: broadcasting, promotion with mixed dtypes and scalars, values and errors', () => {
    const live = torch.memory.stats('cpu').liveTensors;
    const problems: string[] = [];
    torch.tidy(() => {
      fuzz.binary.forEach((c, i) => {
        const p = binaryProblem(c);
        if (p) problems.push(`#${i} ${c[0]}(${JSON.stringify(c[1])}, ${JSON.stringify(c[2])}): ${p}`);
      });
    });
    expect(problems, report('binary', problems, fuzz.binary.length)).toEqual([]);
    expect(torch.memory.stats('cpu').liveTensors).toBe(live);
  });
});
