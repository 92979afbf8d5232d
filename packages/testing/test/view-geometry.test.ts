/**
 * Every case of goldens/views.json (scripts/goldens/views.py, real PyTorch) run against the
 * pure view-geometry functions of @torch-ts/core: sizes, strides, storage offsets, whether
 * the result aliases the input, and the error class and message of each failing case.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  advancedIndexShape,
  applyBasicIndexing,
  asStridedGeometry,
  chunkGeometries,
  contiguousGeometry,
  contiguousResult,
  diagonalGeometry,
  expandGeometry,
  flattenGeometry,
  isContiguous,
  mTGeometry,
  movedimGeometry,
  narrowGeometry,
  numelOf,
  permuteGeometry,
  reshapeGeometry,
  selectGeometry,
  slice,
  sliceGeometry,
  splitGeometries,
  squeezeGeometry,
  tGeometry,
  transposeGeometry,
  unbindGeometries,
  unflattenGeometry,
  unfoldGeometry,
  unsqueezeGeometry,
  viewGeometry,
  type AdvancedIndexShape,
  type Geometry,
  type ReshapeResult,
  type TensorIndexLike,
} from '@torch-ts/core';

type Json = unknown;
interface Step {
  op: string;
  args: Json[];
}
interface Expected {
  sizes: number[];
  strides: number[];
  offset: number;
  contiguous: boolean;
  aliases: boolean;
}
interface Case {
  name: string;
  base: { shape: number[]; steps: Step[] };
  op: string;
  args: Json[];
  expected?: Expected | Expected[];
  error?: { type: string; match: string; torch: string };
}
interface Goldens {
  torch_version: string;
  cases: Case[];
}

const goldens = JSON.parse(readFileSync(new URL('../goldens/views.json', import.meta.url), 'utf8')) as Goldens;

/** A stand-in index tensor: what the indexing parser sees of a Tensor, plus its values. */
class FakeIndex implements TensorIndexLike {
  constructor(
    readonly shape: readonly number[],
    readonly dtype: string,
    readonly data: readonly (number | boolean)[],
  ) {}

  static from(value: Json, dtype: string): FakeIndex {
    const shape: number[] = [];
    for (let v = value; Array.isArray(v); v = v[0]) shape.push(v.length);
    const data = [value].flat(Infinity) as (number | boolean)[];
    return new FakeIndex(shape, dtype, data);
  }
}

const indexOptions = {
  isTensorIndex: (x: unknown): x is TensorIndexLike => x instanceof FakeIndex,
  scalarValue: (x: TensorIndexLike) => (x as FakeIndex).data[0],
};

/** A JSON index item as the torch-ts call would receive it. */
function indexItem(x: Json): unknown {
  if (typeof x === 'object' && x !== null && !Array.isArray(x)) {
    const o = x as { slice?: (number | null)[]; tensor?: Json; dtype?: string };
    if (o.slice) return slice(o.slice[0], o.slice[1], o.slice[2]);
    if (o.dtype) return FakeIndex.from(o.tensor, o.dtype);
  }
  return x;
}

/** One result: its geometry, whether it aliases the input, and whether its strides are ours to check. */
interface Outcome {
  geometry: Geometry;
  aliases: boolean;
  stridesKnown: boolean;
}

const view = (geometry: Geometry): Outcome => ({ geometry, aliases: true, stridesKnown: true });
const reshaped = (r: ReshapeResult): Outcome =>
  r.view ? view(r.view) : { geometry: contiguousGeometry(r.sizes), aliases: false, stridesKnown: true };

function indexOutcome(g: Geometry, items: unknown[]): Outcome {
  const { geometry, advanced } = applyBasicIndexing('index', g, items, indexOptions);
  if (advanced.length === 0) return view(geometry);
  const entries: AdvancedIndexShape[] = advanced.map((a) => {
    if (a.kind === 'bool') {
      const on = typeof a.index === 'boolean' ? a.index : Boolean((a.index as FakeIndex).data[0]);
      return { dim: a.dim, dims: 1, shape: [on ? 1 : 0] };
    }
    const t = a.index as FakeIndex;
    if (t.dtype === 'bool' || t.dtype === 'uint8') {
      return { dim: a.dim, dims: a.dims, shape: [t.data.filter(Boolean).length], maskShape: t.shape };
    }
    return { dim: a.dim, dims: 1, shape: t.shape };
  });
  const sizes = advancedIndexShape('index', geometry.sizes, entries);
  // Advanced indexing copies; its output strides come from TensorIterator, not from here.
  return { geometry: { sizes, strides: [], offset: 0 }, aliases: false, stridesKnown: false };
}

const num = (x: Json) => x as number;
const nums = (x: Json) => x as number[];
const dimsArg = (x: Json) => x as number | number[];

function run(g: Geometry, storageSize: number, op: string, a: Json[]): Outcome | Outcome[] {
  switch (op) {
    case 'view':
      return view(viewGeometry(op, g, nums(a[0])));
    case 'reshape':
      return reshaped(reshapeGeometry(op, g, nums(a[0])));
    case 'asStrided':
      return view(asStridedGeometry(op, g, nums(a[0]), nums(a[1]), a[2] as number | undefined, storageSize));
    case 'permute':
      return view(permuteGeometry(op, g, nums(a[0])));
    case 'transpose':
      return view(transposeGeometry(op, g, num(a[0]), num(a[1])));
    case 't':
      return view(tGeometry(op, g));
    case 'mT':
      return view(mTGeometry(op, g));
    case 'narrow':
      return view(narrowGeometry(op, g, num(a[0]), num(a[1]), num(a[2])));
    case 'select':
      return view(selectGeometry(op, g, num(a[0]), num(a[1])));
    case 'slice':
      return view(sliceGeometry(op, g, num(a[0]), a[1] as number | null, a[2] as number | null, a[3] as number | null));
    case 'unsqueeze':
      return view(unsqueezeGeometry(op, g, num(a[0])));
    case 'squeeze':
      return view(squeezeGeometry(op, g, a.length === 0 ? undefined : dimsArg(a[0])));
    case 'expand':
      return view(expandGeometry(op, g, nums(a[0])));
    case 'flatten':
      return reshaped(flattenGeometry(op, g, a[0] as number | undefined, a[1] as number | undefined));
    case 'unflatten':
      return view(unflattenGeometry(op, g, num(a[0]), nums(a[1])));
    case 'unfold':
      return view(unfoldGeometry(op, g, num(a[0]), num(a[1]), num(a[2])));
    case 'diagonal':
      return view(diagonalGeometry(op, g, a[0] as number | undefined, a[1] as number | undefined, a[2] as number | undefined));
    case 'movedim':
      return view(movedimGeometry(op, g, dimsArg(a[0]), dimsArg(a[1])));
    case 'split':
      return splitGeometries(op, g, dimsArg(a[0]), a[1] as number | undefined).map(view);
    case 'chunk':
      return chunkGeometries(op, g, num(a[0]), a[1] as number | undefined).map(view);
    case 'unbind':
      return unbindGeometries(op, g, a[0] as number | undefined).map(view);
    case 'index':
      return indexOutcome(g, a.map(indexItem));
    case 'contiguous': {
      const r = contiguousResult(g);
      return { geometry: r, aliases: r === g, stridesKnown: true };
    }
    case 'detach':
      return view(g);
    default:
      throw new Error(`no geometry function for op '${op}'`);
  }
}

/** The input of a case: a contiguous tensor of `shape` through the setup steps (all views). */
function buildBase(c: Case): { g: Geometry; storageSize: number } {
  let g: Geometry = contiguousGeometry(c.base.shape);
  const storageSize = numelOf(c.base.shape);
  for (const s of c.base.steps) {
    const r = run(g, storageSize, s.op, s.args);
    if (Array.isArray(r) || !r.aliases) throw new Error(`setup step ${s.op} of '${c.name}' is not a single view`);
    g = r.geometry;
  }
  return { g, storageSize };
}

function check(got: Outcome, want: Expected): void {
  expect(got.geometry.sizes).toEqual(want.sizes);
  expect(got.aliases).toBe(want.aliases);
  if (!got.stridesKnown) return;
  expect(got.geometry.strides).toEqual(want.strides);
  expect(got.geometry.offset).toBe(want.offset);
  expect(isContiguous(got.geometry.sizes, got.geometry.strides)).toBe(want.contiguous);
}

describe(`view geometry goldens (torch ${goldens.torch_version})`, () => {
  it('has the cases it promises', () => {
    expect(goldens.cases.length).toBeGreaterThanOrEqual(80);
    expect(goldens.cases.filter((c) => c.error).length).toBeGreaterThan(20);
  });

  it.each(goldens.cases.map((c) => [`${c.op}: ${c.name}`, c] as const))('%s', (_name, c) => {
    const { g, storageSize } = buildBase(c);
    if (c.error) {
      let thrown: unknown = null;
      try {
        run(g, storageSize, c.op, c.args);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, `expected ${c.error.type}: ${c.error.torch}`).toBeInstanceOf(Error);
      const err = thrown as Error;
      expect(err.name).toBe(c.error.type);
      expect(err.message).toContain(c.error.match);
      expect(err.message.startsWith(`${c.op}: `)).toBe(true);
      return;
    }
    const got = run(g, storageSize, c.op, c.args);
    const want = c.expected as Expected | Expected[];
    if (Array.isArray(want)) {
      expect(Array.isArray(got)).toBe(true);
      const outs = got as Outcome[];
      expect(outs.length).toBe(want.length);
      outs.forEach((o, i) => check(o, want[i]));
    } else {
      expect(Array.isArray(got)).toBe(false);
      check(got as Outcome, want);
    }
  });
});
