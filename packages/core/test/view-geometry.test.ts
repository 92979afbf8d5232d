import { describe, expect, it } from 'vitest';
import { IndexError, ShapeError, TorchError } from '../src/errors';
import {
  asStridedGeometry,
  checkInt,
  chunkSizes,
  contiguousGeometry,
  contiguousResult,
  contiguousStrides,
  diagonalGeometry,
  expandGeometry,
  flattenGeometry,
  inferSize,
  isContiguous,
  movedimPermutation,
  narrowGeometry,
  normalizeDim,
  normalizeDims,
  numelOf,
  permuteGeometry,
  reshapeGeometry,
  sameGeometry,
  selectGeometry,
  sliceGeometry,
  splitGeometries,
  splitSizes,
  squeezeGeometry,
  storageExtent,
  tryViewStrides,
  unbindGeometries,
  unflattenGeometry,
  unfoldGeometry,
  unsqueezeGeometry,
  viewGeometry,
  type Geometry,
} from '../src/views';

const g = (sizes: number[], strides?: number[], offset = 0): Geometry => ({
  sizes,
  strides: strides ?? contiguousStrides(sizes),
  offset,
});

/** Runs `fn`, expecting it to throw `cls` (exactly) with a message containing `text`. */
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

describe('dims', () => {
  it('wraps negative dims and accepts [-1, 0] on 0-dim tensors', () => {
    expect(normalizeDim('sum', -1, 3)).toBe(2);
    expect(normalizeDim('sum', 0, 0)).toBe(0);
    expect(normalizeDim('sum', -1, 0)).toBe(0);
  });

  it('names the op and the range when out of range', () => {
    throws(() => normalizeDim('sum', 2, 2), IndexError, 'sum: Dimension out of range (expected to be in range of [-2, 1], but got 2)');
    throws(() => normalizeDim('sum', 1, 0), IndexError, 'expected to be in range of [-1, 0], but got 1');
    throws(() => normalizeDim('unbind', 0, 0, { wrapScalar: false }), IndexError, 'unbind: Dimension specified as 0 but tensor has no dimensions');
  });

  it('refuses fractional dims and integer arguments', () => {
    throws(() => normalizeDim('sum', 0.5, 2), TorchError, 'sum: expected an integer for dim, but got 0.5');
    throws(() => checkInt('view', 'a size', NaN), TorchError, 'got NaN');
  });

  it('normalizes lists and finds duplicates after wrapping', () => {
    expect(normalizeDims('amax', [0, -1], 3)).toEqual([0, 2]);
    expect(normalizeDims('amax', 1, 3)).toEqual([1]);
    throws(() => normalizeDims('amax', [1, -1], 2), TorchError, 'amax: dim 1 appears multiple times in the list of dims');
  });
});

describe('contiguity', () => {
  it('counts size-0 dims as 1 in strides', () => {
    expect(contiguousStrides([2, 0, 3, 0])).toEqual([3, 3, 1, 1]);
    expect(contiguousStrides([])).toEqual([]);
    expect(numelOf([])).toBe(1);
    expect(numelOf([2, 0])).toBe(0);
  });

  it('ignores the strides of size-1 dims and calls empty tensors contiguous', () => {
    expect(isContiguous([3, 1], [1, 7])).toBe(true);
    expect(isContiguous([2, 3], [1, 2])).toBe(false);
    expect(isContiguous([2, 0], [5, 9])).toBe(true);
    expect(isContiguous([4], [0])).toBe(false);
    expect(isContiguous([], [])).toBe(true);
  });

  it('contiguous() keeps a contiguous geometry, offset included', () => {
    const sliced = g([1, 3], [3, 1], 3);
    expect(contiguousResult(sliced)).toBe(sliced);
    expect(contiguousResult(g([3, 2], [1, 3]))).toEqual(contiguousGeometry([3, 2]));
    expect(sameGeometry(g([2]), { sizes: [2], strides: [1], offset: 0 })).toBe(true);
  });

  it('measures the storage a window needs', () => {
    expect(storageExtent([2, 2], [1, 2], 11)).toBe(15);
    expect(storageExtent([0, 2], [1, 2], 100)).toBe(0);
    expect(storageExtent([], [], 4)).toBe(5);
  });
});

describe('inferSize and view', () => {
  it('infers -1', () => {
    expect(inferSize('view', [-1, 4], 12)).toEqual([3, 4]);
    expect(inferSize('view', [2, -1], 0)).toEqual([2, 0]);
    expect(inferSize('view', [], 1)).toEqual([]);
  });

  it('throws PyTorch errors', () => {
    throws(() => inferSize('view', [-1, -1], 6), ShapeError, 'view: only one dimension can be inferred');
    throws(() => inferSize('view', [2, 5], 6), ShapeError, "view: shape '[2, 5]' is invalid for input of size 6");
    throws(() => inferSize('view', [-2, 3], 6), ShapeError, 'invalid shape dimension -2');
    throws(() => inferSize('view', [0, -1], 0), ShapeError, 'the unspecified dimension size -1 can be any value and is ambiguous');
    throws(() => inferSize('view', [0, -1], 3), ShapeError, "shape '[0, -1]' is invalid for input of size 3");
    throws(() => inferSize('view', [1.5, 4], 6), TorchError, 'expected an integer');
  });

  it('finds views of non-contiguous layouts (Note [Viewing a strided tensor])', () => {
    // [4, 6] transposed: splitting a dim is always possible.
    expect(tryViewStrides([6, 4], [1, 6], [3, 2, 4])).toEqual([2, 1, 6]);
    // Merging across the transposition is not.
    expect(tryViewStrides([3, 2], [1, 3], [6])).toBeNull();
    // Size-1 dims with arbitrary strides do not break a run.
    expect(tryViewStrides([2, 1, 4], [4, 77, 1], [8])).toEqual([1]);
    // Expanded (stride-0) dims can be split but not merged with real ones.
    expect(tryViewStrides([3, 4], [0, 1], [3, 2, 2])).toEqual([0, 2, 1]);
    expect(tryViewStrides([3, 4], [0, 1], [12])).toBeNull();
    // 0-dim: every new dim is size 1 with stride 1.
    expect(tryViewStrides([], [], [1, 1])).toEqual([1, 1]);
  });

  it('keeps the offset and names the op in the incompatibility error', () => {
    expect(viewGeometry('view', g([3, 4], [4, 1], 4), [2, 6])).toEqual({ sizes: [2, 6], strides: [6, 1], offset: 4 });
    throws(() => viewGeometry('view', g([3, 2], [1, 3]), [6]), ShapeError, 'view: view size is not compatible');
  });

  it('reshape returns null views when a copy is needed', () => {
    expect(reshapeGeometry('reshape', g([3, 2], [1, 3]), [-1])).toEqual({ sizes: [6], view: null });
    const r = reshapeGeometry('reshape', g([2, 3]), [3, 2]);
    expect(r.view).toEqual({ sizes: [3, 2], strides: [2, 1], offset: 0 });
  });
});

describe('flatten and unflatten', () => {
  it('flatten of equal dims returns the input geometry itself', () => {
    const x = g([3, 2], [1, 3]);
    expect(flattenGeometry('flatten', x, 1, -1).view).toBe(x);
  });

  it('flatten reports copies', () => {
    expect(flattenGeometry('flatten', g([3, 2], [1, 3])).view).toBeNull();
    expect(flattenGeometry('flatten', g([3, 2], [1, 3])).sizes).toEqual([6]);
    throws(() => flattenGeometry('flatten', g([2, 3]), 1, 0), TorchError, 'flatten: flatten() has invalid args');
  });

  it('unflatten errors', () => {
    throws(() => unflattenGeometry('unflatten', g([2, 4]), 1, [-1, -1]), ShapeError, 'unflatten: only one dimension can be inferred');
    throws(() => unflattenGeometry('unflatten', g([2, 0]), 1, [0, -1]), ShapeError, 'ambiguous');
  });
});

describe('permutations', () => {
  it('movedim fills the other dims in order', () => {
    expect(movedimPermutation('movedim', 4, [3, 0], [1, 3])).toEqual([1, 3, 2, 0]);
    expect(movedimPermutation('movedim', 3, 0, 2)).toEqual([1, 2, 0]);
    expect(movedimPermutation('movedim', 0, 0, -1)).toEqual([]);
  });

  it('permute of a 0-dim tensor takes no dims', () => {
    expect(permuteGeometry('permute', g([]), [])).toEqual(g([]));
    throws(() => permuteGeometry('permute', g([]), [0]), ShapeError, 'input.dim() = 0 is not equal to len(dims) = 1');
  });
});

describe('slicing', () => {
  it('slice clamps like Python and moves the offset to the clamped start', () => {
    expect(sliceGeometry('slice', g([2, 3, 4]), 0, 5, 10)).toEqual({ sizes: [0, 3, 4], strides: [12, 4, 1], offset: 24 });
    expect(sliceGeometry('slice', g([4, 6]), 1, null, null, 4)).toEqual({ sizes: [4, 2], strides: [6, 4], offset: 0 });
    throws(() => sliceGeometry('slice', g([4]), 0, 0, 2, -1), TorchError, 'slice: slice step must be positive');
    throws(() => sliceGeometry('slice', g([]), 0), IndexError, 'slice() cannot be applied to a 0-dim tensor.');
  });

  it('narrow checks length and start', () => {
    throws(() => narrowGeometry('narrow', g([3]), 0, 1, -1), TorchError, 'narrow: narrow(): length must be non-negative.');
    throws(() => narrowGeometry('narrow', g([3]), 0, 4, 0), IndexError, 'start out of range (expected to be in range of [-3, 3], but got 4)');
    throws(() => narrowGeometry('narrow', g([]), 0, 0, 1), ShapeError, 'narrow() cannot be applied to a 0-dim tensor.');
    expect(narrowGeometry('narrow', g([3]), 0, -3, 3)).toEqual(g([3]));
  });

  it('select names the normalised dim', () => {
    throws(() => selectGeometry('select', g([2, 3]), -1, 3), IndexError, 'select: index 3 out of range for tensor of size [2, 3] at dimension 1');
  });

  it('split and chunk sizes follow PyTorch (Note [Chunk sizes])', () => {
    expect(splitSizes('split', 7, 3)).toEqual([3, 3, 1]);
    expect(splitSizes('split', 0, 2)).toEqual([0]);
    expect(splitSizes('split', 0, 0)).toEqual([0]);
    expect(splitSizes('split', 7, [7, 0])).toEqual([7, 0]);
    expect(chunkSizes('chunk', 6, 4)).toEqual([2, 2, 2]);
    expect(chunkSizes('chunk', 5, 4)).toEqual([2, 2, 1]);
    expect(chunkSizes('chunk', 7, 10)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(chunkSizes('chunk', 0, 3)).toEqual([0, 0, 0]);
    throws(() => chunkSizes('chunk', 3, -1), TorchError, 'chunk: chunk expects `chunks` to be greater than 0, got: -1');
    throws(() => splitSizes('split', 7, 2.5), TorchError, 'expected an integer for split_size');
  });

  it('split and unbind produce consecutive views', () => {
    const parts = splitGeometries('split', g([5, 2], [1, 5]), 2);
    expect(parts.map((p) => [p.sizes, p.offset])).toEqual([
      [[2, 2], 0],
      [[2, 2], 2],
      [[1, 2], 4],
    ]);
    expect(unbindGeometries('unbind', g([2, 3]), -1).map((p) => p.offset)).toEqual([0, 1, 2]);
  });
});

describe('unsqueeze, squeeze, expand', () => {
  it('unsqueeze picks the contiguous-preserving stride', () => {
    expect(unsqueezeGeometry('unsqueeze', g([4, 3], [1, 4]), 0).strides).toEqual([4, 1, 4]);
    expect(unsqueezeGeometry('unsqueeze', g([4, 3], [1, 4]), 2).strides).toEqual([1, 4, 1]);
    expect(unsqueezeGeometry('unsqueeze', g([]), 0)).toEqual({ sizes: [1], strides: [1], offset: 0 });
  });

  it('squeeze with a list drops only size-1 dims and refuses duplicates', () => {
    expect(squeezeGeometry('squeeze', g([1, 3, 1, 1]), [0, 1, -1]).sizes).toEqual([3, 1]);
    expect(squeezeGeometry('squeeze', g([1, 3]), []).sizes).toEqual([1, 3]);
    expect(squeezeGeometry('squeeze', g([]), [-1]).sizes).toEqual([]);
    throws(() => squeezeGeometry('squeeze', g([1, 3]), [0, -2]), TorchError, 'squeeze: dim 0 appears multiple times in the list of dims');
  });

  it('expand follows Note [Expand strides]', () => {
    expect(expandGeometry('expand', g([]), [1])).toEqual({ sizes: [1], strides: [0], offset: 0 });
    expect(expandGeometry('expand', g([]), [])).toEqual(g([]));
    expect(expandGeometry('expand', g([3], [2], 5), [1, 1, 3])).toEqual({ sizes: [1, 1, 3], strides: [6, 6, 2], offset: 5 });
    throws(() => expandGeometry('expand', g([]), [-1]), ShapeError, "isn't allowed in a leading, non-existing dimension 0");
    throws(() => expandGeometry('expand', g([1]), [-2]), ShapeError, 'expand: Trying to create tensor with negative dimension -2');
    throws(() => expandGeometry('expand', g([3]), [2, -2]), ShapeError, 'The expanded size of the tensor (-2) must match the existing size (3)');
  });
});

describe('asStrided, diagonal, unfold', () => {
  it('asStrided validates sizes, strides and storage bounds', () => {
    const x = g([3, 4]);
    throws(() => asStridedGeometry('asStrided', x, [2, -2], [1, 2]), ShapeError, 'negative dimension -2');
    throws(() => asStridedGeometry('asStrided', x, [20], [1], 0, 12), ShapeError, 'requiring a storage size of 20 elements are out of bounds for storage of size 12 elements');
    // Without a storage size there is nothing to check the window against.
    expect(asStridedGeometry('asStrided', x, [20], [1])).toEqual({ sizes: [20], strides: [1], offset: 0 });
  });

  it('diagonal of an empty range keeps the offset', () => {
    expect(diagonalGeometry('diagonal', g([3, 4], [4, 1], 7), -5)).toEqual({ sizes: [0], strides: [5], offset: 7 });
    expect(diagonalGeometry('diagonal', g([2, 2, 2]), 0, 2, 0)).toEqual({ sizes: [2, 2], strides: [2, 5], offset: 0 });
  });

  it('unfold of a 0-dim tensor and bad sizes', () => {
    expect(unfoldGeometry('unfold', g([]), -1, 0, 3)).toEqual({ sizes: [0], strides: [1], offset: 0 });
    throws(() => unfoldGeometry('unfold', g([]), 0, 2, 1), ShapeError, 'maximum size for tensor at dimension 0 is 1 but size is 2');
    throws(() => unfoldGeometry('unfold', g([4]), 0, -1, 1), TorchError, 'unfold: size is -1 but must be >= 0');
  });
});
