import { IndexError, TorchError } from '../errors';
import { unsqueezeGeometry } from './strided';
import { selectGeometry, sliceGeometry } from './slicing';
import type { Geometry } from './geometry';

/**
 * Parsing of `x.index(...)` arguments and the basic (view) part of indexing, independent of
 * the Tensor class: index tensors are recognised through a predicate the caller supplies.
 */

const SLICE_BRAND = 'torch-ts.slice';

/** A Python slice `start:end:step`; null parts take their defaults. Made by `slice()`. */
export interface SliceSpec {
  readonly brand: typeof SLICE_BRAND;
  readonly start: number | null;
  readonly end: number | null;
  readonly step: number | null;
}

/**
 * `torch.slice(start, end, step)`, the object form of `'start:end:step'`. Unlike Python's
 * one-argument `slice(5)` (which means `:5`), the first argument is always the start.
 */
export function slice(start?: number | null, end?: number | null, step?: number | null): SliceSpec {
  return Object.freeze({ brand: SLICE_BRAND, start: start ?? null, end: end ?? null, step: step ?? null });
}

export function isSliceSpec(x: unknown): x is SliceSpec {
  return typeof x === 'object' && x !== null && (x as { brand?: unknown }).brand === SLICE_BRAND;
}

/** What the parser needs to know about an index tensor. */
export interface TensorIndexLike {
  readonly shape: readonly number[];
  readonly dtype: string;
}

export interface IndexingOptions {
  /** Whether an index item is an index tensor (the caller's Tensor class). */
  readonly isTensorIndex: (x: unknown) => x is TensorIndexLike;
  /**
   * The value of a 0-dim integer or bool index tensor, when it can be read synchronously;
   * undefined otherwise (a device tensor). PyTorch reads it: a 0-dim integer tensor then
   * indexes like a number (a view), a 0-dim bool tensor like `true`/`false`. Without a value
   * the former is left to advanced indexing (same shape, but a copy) and the latter is
   * passed on as an advanced `bool` entry holding the tensor.
   */
  readonly scalarValue?: (x: TensorIndexLike) => number | boolean | undefined;
}

/** One parsed index item. */
export type IndexItem =
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'slice'; readonly start: number | null; readonly end: number | null; readonly step: number }
  | { readonly kind: 'newaxis' }
  | { readonly kind: 'ellipsis' }
  | { readonly kind: 'bool'; readonly value: boolean | TensorIndexLike }
  | { readonly kind: 'tensor'; readonly index: TensorIndexLike; readonly dims: number };

/**
 * An index tensor left for the caller's advanced indexing, after all basic indexing.
 * `dim` is the dim of the basic result where it applies and `dims` how many dims it covers
 * (a k-dim bool/uint8 mask covers k dims, anything else one).
 * `kind: 'bool'` marks a Python-style boolean: a size-1 dim was inserted at `dim`, to be
 * indexed by the int64 tensor `[0]` when the value is true and by an empty one when it is
 * false (PyTorch turns `x[True]` into a copy, not a view). `index` is the boolean, or a
 * 0-dim bool/uint8 tensor whose value decides when it could not be read.
 */
export type AdvancedIndex =
  | { readonly kind: 'tensor'; readonly dim: number; readonly dims: number; readonly index: TensorIndexLike }
  | { readonly kind: 'bool'; readonly dim: number; readonly dims: 1; readonly index: boolean | TensorIndexLike };

/**
 * One view op of the basic part, at a dim of the running view (Note [Basic indexing as view
 * ops]).
 */
export type BasicViewStep =
  | { readonly kind: 'select'; readonly dim: number; readonly index: number }
  | { readonly kind: 'slice'; readonly dim: number; readonly start: number | null; readonly end: number | null; readonly step: number }
  | { readonly kind: 'unsqueeze'; readonly dim: number };

export interface BasicIndexingResult {
  /** The view after all numbers, slices, new axes and ellipses. */
  readonly geometry: Geometry;
  /**
   * The view ops that make `geometry`, in order (Note [Basic indexing as view ops]); empty
   * when the view is the tensor itself (then `x.index(...)` is an alias).
   */
  readonly steps: readonly BasicViewStep[];
  /** Index tensors and booleans, in order; empty when the whole result is a view. */
  readonly advanced: readonly AdvancedIndex[];
}

const SLICE_RE = /^\s*([+-]?\d+)?\s*:\s*([+-]?\d+)?\s*(?::\s*([+-]?\d+)?\s*)?$/;

function isMaskDtype(dtype: string): boolean {
  return dtype === 'bool' || dtype === 'uint8';
}

function isIntegralDtype(dtype: string): boolean {
  return /^u?int(8|16|32|64)$/.test(dtype) || dtype === 'bool';
}

function describe(x: unknown): string {
  if (typeof x === 'string') return `'${x}'`;
  if (typeof x === 'number') return String(x);
  if (Array.isArray(x)) return 'an array (wrap it in an index tensor)';
  return typeof x;
}

function badItem(op: string, x: unknown): IndexError {
  return new IndexError(
    `${op}: only integers, slices ('1:5:2' or torch.slice), ellipsis ('...'), null, booleans and index tensors are valid indices (got ${describe(x)})`,
  );
}

function sliceItem(op: string, start: number | null, end: number | null, step: number | null): IndexItem {
  for (const v of [start, end, step]) if (v !== null && !Number.isInteger(v)) throw badItem(op, v);
  if (step === 0) throw new TorchError(`${op}: slice step cannot be zero`);
  if (step !== null && step < 0) throw new TorchError(`${op}: step must be greater than zero`);
  return { kind: 'slice', start, end, step: step ?? 1 };
}

/** A `':'`-style string (`'1:5:2'`, `'::2'`, `'-3:'`) or `'...'` as an index item. */
export function parseIndexString(op: string, s: string): IndexItem {
  if (s.trim() === '...') return { kind: 'ellipsis' };
  const m = SLICE_RE.exec(s);
  if (m === null) {
    throw new IndexError(`${op}: invalid index string '${s}' (expected a slice like '1:5:2', '::2', ':' or '...')`);
  }
  const num = (t: string | undefined): number | null => (t === undefined ? null : Number(t));
  return sliceItem(op, num(m[1]), num(m[2]), num(m[3]));
}

/** Classifies every item of `x.index(...)`; `undefined` means None, as `null` does. */
export function parseIndexItems(op: string, items: readonly unknown[], options: IndexingOptions): IndexItem[] {
  const out: IndexItem[] = [];
  let ellipses = 0;
  for (const x of items) {
    let item: IndexItem;
    if (x === null || x === undefined) item = { kind: 'newaxis' };
    else if (typeof x === 'number') {
      if (!Number.isInteger(x)) throw badItem(op, x);
      item = { kind: 'int', value: x };
    } else if (typeof x === 'boolean') item = { kind: 'bool', value: x };
    else if (typeof x === 'string') item = parseIndexString(op, x);
    else if (isSliceSpec(x)) item = sliceItem(op, x.start, x.end, x.step);
    else if (options.isTensorIndex(x)) item = tensorItem(x, options);
    else throw badItem(op, x);
    // Note [Single ellipsis]: PyTorch silently accepts several ellipses (pytorch#59787, an
    // undefined meaning); torch-ts refuses them as NumPy and the array API do.
    if (item.kind === 'ellipsis' && ++ellipses > 1) {
      throw new IndexError(`${op}: an index can only have a single ellipsis ('...')`);
    }
    out.push(item);
  }
  return out;
}

function tensorItem(x: TensorIndexLike, options: IndexingOptions): IndexItem {
  if (x.shape.length === 0 && isIntegralDtype(x.dtype)) {
    const v = options.scalarValue?.(x);
    if (isMaskDtype(x.dtype)) return { kind: 'bool', value: v === undefined ? x : Boolean(v) };
    if (typeof v === 'number') return { kind: 'int', value: v };
  }
  return { kind: 'tensor', index: x, dims: isMaskDtype(x.dtype) ? x.shape.length : 1 };
}

/** How many tensor dims the items consume (PyTorch's count for "too many indices"). */
function specifiedDims(items: readonly IndexItem[]): number {
  let n = 0;
  for (const it of items) {
    if (it.kind === 'int' || it.kind === 'slice') n += 1;
    else if (it.kind === 'tensor') n += it.dims;
  }
  return n;
}

/**
 * Note [Basic indexing walk]
 * Items are applied left to right to a running view, with a cursor `dim` into it: a number
 * selects (removing the dim, cursor stays), a slice narrows (cursor advances), null and a
 * boolean insert a size-1 dim, and an ellipsis skips the dims no item names. An index tensor
 * is set aside at the cursor and the cursor advances by ONE dim even for a k-dim mask, as in
 * PyTorch (so `x.index(mask2d, 0)` selects along dim 1, not dim 2); the advanced entry then
 * reports where the mask really starts in the view. Out-of-range messages name the item's
 * position in the index, which is what PyTorch prints as "dimension".
 *
 * Note [Basic indexing as view ops]
 * The walk also lists the view ops PyTorch's `__getitem__` records, so that autograd names
 * them as PyTorch does (`x[0]` is SelectBackward0, `x[1:]` SliceBackward0, `x[None]`
 * UnsqueezeBackward0, `x[...]` AliasBackward0). A lone slice is always a slice; among
 * several items, a slice that starts at 0 with an explicit end equal to the dim's size and
 * step 1 is skipped (PyTorch's applySlice shortcut: `x[0:3, 1]` of a [3, 4] is one select,
 * `x[:, 1]` a slice then a select, since `:`'s end is unbounded, not the size).
 */
export function applyBasicIndexing(
  op: string,
  g: Geometry,
  items: readonly unknown[],
  options: IndexingOptions,
): BasicIndexingResult {
  const parsed = parseIndexItems(op, items, options);
  const ndim = g.sizes.length;
  // A lone number or slice on a 0-dim tensor gets PyTorch's dedicated message (a lone
  // 0-dim index tensor does not: it is "too many indices", as in PyTorch).
  if (ndim === 0 && parsed.length === 1) {
    if (typeof items[0] === 'number') {
      throw new IndexError(`${op}: invalid index of a 0-dim tensor. Use \`tensor.item()\` to convert a 0-dim tensor to a number`);
    }
    if (parsed[0].kind === 'slice') throw new IndexError(`${op}: slice() cannot be applied to a 0-dim tensor.`);
  }
  const specified = specifiedDims(parsed);
  if (specified > ndim) throw new IndexError(`${op}: too many indices for tensor of dimension ${ndim}`);

  let geometry = g;
  let dim = 0;
  let maskExtra = 0; // dims covered by masks beyond the one the cursor advanced
  const advanced: AdvancedIndex[] = [];
  const steps: BasicViewStep[] = [];
  parsed.forEach((it, position) => {
    switch (it.kind) {
      case 'int': {
        const size = geometry.sizes[dim];
        if (it.value < -size || it.value >= size) {
          throw new IndexError(`${op}: index ${it.value} is out of bounds for dimension ${position} with size ${size}`);
        }
        geometry = selectGeometry(op, geometry, dim, it.value);
        steps.push({ kind: 'select', dim, index: it.value });
        break;
      }
      case 'slice': {
        const whole = parsed.length > 1 && (it.start ?? 0) === 0 && it.end === geometry.sizes[dim] && it.step === 1;
        if (!whole) {
          geometry = sliceGeometry(op, geometry, dim, it.start, it.end, it.step);
          steps.push({ kind: 'slice', dim, start: it.start, end: it.end, step: it.step });
        }
        dim++;
        break;
      }
      case 'newaxis':
        geometry = unsqueezeGeometry(op, geometry, dim);
        steps.push({ kind: 'unsqueeze', dim });
        dim++;
        break;
      case 'ellipsis':
        dim += ndim - specified;
        break;
      case 'bool':
        geometry = unsqueezeGeometry(op, geometry, dim);
        steps.push({ kind: 'unsqueeze', dim });
        advanced.push({ kind: 'bool', dim: dim + maskExtra, dims: 1, index: it.value });
        dim++;
        break;
      case 'tensor':
        advanced.push({ kind: 'tensor', dim: dim + maskExtra, dims: it.dims, index: it.index });
        maskExtra += Math.max(it.dims - 1, 0);
        dim++;
        break;
    }
  });
  return { geometry, steps, advanced };
}
