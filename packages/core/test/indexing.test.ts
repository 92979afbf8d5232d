import { describe, expect, it } from 'vitest';
import { IndexError, TorchError } from '../src/errors';
import {
  advancedIndexShape,
  applyBasicIndexing,
  contiguousGeometry,
  isSliceSpec,
  parseIndexItems,
  parseIndexString,
  slice,
  type IndexingOptions,
  type TensorIndexLike,
} from '../src/views';

class Idx implements TensorIndexLike {
  constructor(
    readonly shape: readonly number[],
    readonly dtype: string,
    readonly value?: number | boolean,
  ) {}
}

const opts: IndexingOptions = { isTensorIndex: (x: unknown): x is TensorIndexLike => x instanceof Idx };
const withValues: IndexingOptions = { ...opts, scalarValue: (x) => (x as Idx).value };

const x234 = contiguousGeometry([2, 3, 4]);
const index = (items: unknown[], o: IndexingOptions = opts) => applyBasicIndexing('index', x234, items, o);

function throws(fn: () => unknown, cls: new (m: string) => Error, text: string): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(cls);
  expect((err as Error).constructor).toBe(cls);
  expect((err as Error).message).toContain(text);
}

describe('slice objects and strings', () => {
  it('slice() makes a frozen, branded spec with null defaults', () => {
    const s = slice(1);
    expect(s).toMatchObject({ start: 1, end: null, step: null });
    expect(Object.isFrozen(s)).toBe(true);
    expect(isSliceSpec(s)).toBe(true);
    expect(isSliceSpec({ start: 1, end: null, step: null })).toBe(false);
  });

  it('parses every colon form', () => {
    expect(parseIndexString('index', '1:5:2')).toEqual({ kind: 'slice', start: 1, end: 5, step: 2 });
    expect(parseIndexString('index', '::2')).toEqual({ kind: 'slice', start: null, end: null, step: 2 });
    expect(parseIndexString('index', '1:')).toEqual({ kind: 'slice', start: 1, end: null, step: 1 });
    expect(parseIndexString('index', ':')).toEqual({ kind: 'slice', start: null, end: null, step: 1 });
    expect(parseIndexString('index', '-3:')).toEqual({ kind: 'slice', start: -3, end: null, step: 1 });
    expect(parseIndexString('index', ' 2 : -1 ')).toEqual({ kind: 'slice', start: 2, end: -1, step: 1 });
    expect(parseIndexString('index', '...')).toEqual({ kind: 'ellipsis' });
  });

  it('refuses malformed strings and bad steps', () => {
    throws(() => parseIndexString('index', '3'), IndexError, "index: invalid index string '3'");
    throws(() => parseIndexString('index', '1:2:3:4'), IndexError, 'invalid index string');
    throws(() => parseIndexString('index', 'a:'), IndexError, 'invalid index string');
    throws(() => parseIndexString('index', '::0'), TorchError, 'index: slice step cannot be zero');
    throws(() => parseIndexString('index', '::-1'), TorchError, 'index: step must be greater than zero');
    throws(() => index([slice(0, 2, -1)]), TorchError, 'step must be greater than zero');
    throws(() => index([slice(0.5)]), IndexError, 'are valid indices (got 0.5)');
  });
});

describe('parsing', () => {
  it('classifies items; undefined is None like null', () => {
    const kinds = parseIndexItems('index', [0, ':', null, undefined, '...', true, new Idx([2], 'int64')], opts).map(
      (i) => i.kind,
    );
    expect(kinds).toEqual(['int', 'slice', 'newaxis', 'newaxis', 'ellipsis', 'bool', 'tensor']);
  });

  it('refuses a second ellipsis (Note [Single ellipsis])', () => {
    throws(() => index(['...', 0, '...']), IndexError, "index: an index can only have a single ellipsis ('...')");
  });

  it('refuses items of other types', () => {
    throws(() => index([1.5]), IndexError, 'index: only integers, slices');
    throws(() => index([[0, 1]]), IndexError, 'wrap it in an index tensor');
    throws(() => index([{}]), IndexError, '(got object)');
  });

  it('a mask covers as many dims as it has', () => {
    const items = parseIndexItems('index', [new Idx([2, 3], 'bool'), new Idx([2], 'uint8'), new Idx([2, 3], 'int64')], opts);
    expect(items.map((i) => (i.kind === 'tensor' ? i.dims : -1))).toEqual([2, 1, 1]);
  });
});

describe('basic indexing', () => {
  it('numbers, slices, new axes and ellipsis compose into one view', () => {
    const { geometry, advanced } = index([1, '...', null, '1:3']);
    // PyTorch: x[1, ..., None, 1:3] has strides (4, 4, 1) and offset 13.
    expect(geometry).toEqual({ sizes: [3, 1, 2], strides: [4, 4, 1], offset: 13 });
    expect(advanced).toEqual([]);
  });

  it('an empty index is the whole tensor', () => {
    expect(index([]).geometry).toEqual(x234);
  });

  it('a boolean inserts a size-1 dim and is left to advanced indexing', () => {
    const { geometry, advanced } = index([':', false]);
    expect(geometry.sizes).toEqual([2, 1, 3, 4]);
    expect(advanced).toEqual([{ kind: 'bool', dim: 1, dims: 1, index: false }]);
  });

  it('index tensors are set aside at their dim; a mask shifts the dims after it', () => {
    const m = new Idx([2, 3], 'bool');
    const t = new Idx([5], 'int64');
    const { geometry, advanced } = index([m, t]);
    expect(geometry).toEqual(x234);
    expect(advanced).toEqual([
      { kind: 'tensor', dim: 0, dims: 2, index: m },
      { kind: 'tensor', dim: 2, dims: 1, index: t },
    ]);
  });

  it('a 0-dim integer tensor is a select when its value is readable, else advanced', () => {
    const t = new Idx([], 'int64', 1);
    expect(index([t], withValues)).toEqual({
      geometry: { sizes: [3, 4], strides: [4, 1], offset: 12 },
      steps: [{ kind: 'select', dim: 0, index: 1 }],
      advanced: [],
    });
    expect(index([t]).advanced).toEqual([{ kind: 'tensor', dim: 0, dims: 1, index: t }]);
    throws(() => index([new Idx([], 'int32', 7)], withValues), IndexError, 'index 7 is out of bounds for dimension 0 with size 2');
  });

  it("lists the view ops PyTorch's __getitem__ records (Note [Basic indexing as view ops])", () => {
    // a [2, 3, 4]; PyTorch 1.13: x[1:] slice; x[:, 1] slice, select; x[0:2, 1] select only
    expect(index(['1:']).steps).toEqual([{ kind: 'slice', dim: 0, start: 1, end: null, step: 1 }]);
    expect(index(['0:2']).steps).toEqual([{ kind: 'slice', dim: 0, start: 0, end: 2, step: 1 }]);
    expect(index([':', 1]).steps).toEqual([
      { kind: 'slice', dim: 0, start: null, end: null, step: 1 },
      { kind: 'select', dim: 1, index: 1 },
    ]);
    expect(index(['0:2', 1]).steps).toEqual([{ kind: 'select', dim: 1, index: 1 }]);
    expect(index(['0:2', '0:3']).steps).toEqual([]);
    expect(index(['...']).steps).toEqual([]);
    expect(index([null, '...', 0]).steps).toEqual([
      { kind: 'unsqueeze', dim: 0 },
      { kind: 'select', dim: 3, index: 0 },
    ]);
    expect(index([true]).steps).toEqual([{ kind: 'unsqueeze', dim: 0 }]);
  });

  it('a 0-dim bool tensor is a boolean', () => {
    const t = new Idx([], 'bool', true);
    expect(index([t], withValues).advanced).toEqual([{ kind: 'bool', dim: 0, dims: 1, index: true }]);
    expect(index([t]).advanced).toEqual([{ kind: 'bool', dim: 0, dims: 1, index: t }]);
  });

  it('counts dims for "too many indices" as PyTorch does', () => {
    throws(() => index([0, 0, 0, 0]), IndexError, 'index: too many indices for tensor of dimension 3');
    throws(() => index([new Idx([2, 3, 4, 1], 'bool')]), IndexError, 'too many indices for tensor of dimension 3');
    // None, ellipsis and booleans consume no dims.
    expect(index([null, true, 0, 0, 0, '...']).geometry.sizes).toEqual([1, 1]);
  });

  it('0-dim tensors', () => {
    const s = contiguousGeometry([]);
    throws(() => applyBasicIndexing('index', s, [0], opts), IndexError, 'index: invalid index of a 0-dim tensor');
    throws(() => applyBasicIndexing('index', s, ['1:'], opts), IndexError, 'slice() cannot be applied to a 0-dim tensor.');
    throws(() => applyBasicIndexing('index', s, [0, null], opts), IndexError, 'too many indices for tensor of dimension 0');
    throws(() => applyBasicIndexing('index', s, [new Idx([], 'int64', 0)], withValues), IndexError, 'too many indices');
    expect(applyBasicIndexing('index', s, [null, null], opts).geometry.sizes).toEqual([1, 1]);
  });
});

describe('advanced index shape (Note [Advanced index placement])', () => {
  it('adjacent indices stay in place, separated ones go first', () => {
    expect(advancedIndexShape('index', [2, 3, 4], [{ dim: 1, dims: 1, shape: [5] }])).toEqual([2, 5, 4]);
    expect(
      advancedIndexShape('index', [2, 3, 4], [
        { dim: 1, dims: 1, shape: [2, 1] },
        { dim: 2, dims: 1, shape: [3] },
      ]),
    ).toEqual([2, 2, 3]);
    expect(
      advancedIndexShape('index', [2, 3, 4], [
        { dim: 0, dims: 1, shape: [5] },
        { dim: 2, dims: 1, shape: [5] },
      ]),
    ).toEqual([5, 3]);
    expect(advancedIndexShape('index', [2, 3], [])).toEqual([2, 3]);
  });

  it('a mask replaces the dims it covers by its count of trues', () => {
    expect(advancedIndexShape('index', [2, 3, 4], [{ dim: 1, dims: 2, shape: [7], maskShape: [3, 4] }])).toEqual([2, 7]);
  });

  it('checks masks, broadcasting and coverage', () => {
    throws(
      () => advancedIndexShape('index', [2, 4], [{ dim: 0, dims: 2, shape: [6], maskShape: [2, 3] }]),
      IndexError,
      'index: The shape of the mask [2, 3] at index 1 does not match the shape of the indexed tensor [2, 4] at index 1',
    );
    throws(
      () =>
        advancedIndexShape('index', [2, 3], [
          { dim: 0, dims: 1, shape: [2] },
          { dim: 1, dims: 1, shape: [3] },
        ]),
      IndexError,
      'shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]',
    );
    throws(() => advancedIndexShape('index', [2], [{ dim: 0, dims: 2, shape: [1] }]), IndexError, 'too many indices');
  });
});
