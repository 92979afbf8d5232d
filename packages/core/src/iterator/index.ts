export { broadcastShapes, broadcastStrides } from './broadcast';
export { computeOutputLayout, type OperandGeometry } from './output-layout';
export {
  TensorIterator,
  isContiguousIteration,
  isFlatIteration,
  type TensorIteratorOptions,
} from './tensor-iterator';
export {
  forEachPlane,
  forEachRow,
  forEachRowInRange,
  type PlaneLoop,
  type RowLoop,
} from './for-each-row';
export { reductionGeometry, restrideReductionOutput, type ReductionGeometry } from './reduction';
