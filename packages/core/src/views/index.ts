// The view geometry of torch-ts (Note [View geometry]): pure stride arithmetic, no data.
export type { Geometry } from './geometry';
export {
  contiguousGeometry,
  contiguousResult,
  contiguousStrides,
  isContiguous,
  numelOf,
  sameGeometry,
  storageExtent,
} from './geometry';
export type { NormalizeDimOptions } from './dims';
export { checkInt, normalizeDim, normalizeDims } from './dims';
export type { ReshapeResult } from './reshape';
export { flattenGeometry, inferSize, reshapeGeometry, tryViewStrides, unflattenGeometry, viewGeometry } from './reshape';
export { mTGeometry, movedimGeometry, movedimPermutation, permuteGeometry, tGeometry, transposeGeometry } from './permute';
export {
  chunkGeometries,
  chunkSizes,
  clampSliceBounds,
  narrowGeometry,
  selectGeometry,
  sliceGeometry,
  splitGeometries,
  splitSizes,
  unbindGeometries,
} from './slicing';
export {
  asStridedGeometry,
  diagonalGeometry,
  expandGeometry,
  squeezeGeometry,
  unfoldGeometry,
  unsqueezeGeometry,
} from './strided';
export type {
  AdvancedIndex,
  BasicIndexingResult,
  BasicViewStep,
  IndexItem,
  IndexingOptions,
  SliceSpec,
  TensorIndexLike,
} from './indexing';
export { applyBasicIndexing, isSliceSpec, parseIndexItems, parseIndexString, slice } from './indexing';
export type { AdvancedIndexShape } from './advanced-shape';
export { advancedIndexShape, broadcastIndexShapes } from './advanced-shape';
