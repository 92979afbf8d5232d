// The user-facing functions of core, re-exported by @torch-ts/torch.
import { AUTOGRAD_KEYS, DispatchKey } from '../dispatch/dispatch-key';
import { FALLTHROUGH, registerFallback } from '../dispatch/dispatcher';
import { installTensorMethods } from './methods';
import { META_IMPLS } from './meta-backend';
import { registerLinalgComplexKernels } from './linalg-complex';
import { registerBackend } from './registry';
import { registerComplexKernels } from './complex';
import { registerConjugateFallback } from './conjugate';
import { registerComplexMathKernels } from './complex-math';
import { registerSparseKernels } from '../sparse/sparse-ops';

export * from './pointwise';
export * from './aliases';
export * from './generated/table-ops';
export {
  ACTIVATION_OPS,
  BINARY_OPS,
  TERNARY_OPS,
  UNARY_OPS,
  type ActivationFn,
  type ActivationInplace,
  type ActivationArgsReader,
  type ActivationOptions,
  type ActivationTableOp,
  type BinaryArgsReader,
  type BinaryFn,
  type BinaryInplace,
  type BinaryOptions,
  type BinaryTableOp,
  type TernaryFn,
  type TernaryInplace,
  type TernaryOptions,
  type TernaryTableOp,
  type InplaceOption,
} from './pointwise-table';
export { ACTIVATION_TABLE, type ActivationTableName } from './table/activation';
export { BINARY_TABLE, type BinaryTableName } from './table/binary';
export { TERNARY_TABLE, type TernaryTableName } from './table/ternary';
export { UNARY_TABLE, type UnaryTableName } from './table/unary';
export { binaryRow, dispatcherName, ternaryRow } from './table/types';
export type {
  ActivationArg,
  ActivationArgs,
  ActivationDerivative,
  ActivationNode,
  ActivationRow,
  ArgChoices,
  RowArgs,
  RowChoices,
  BinaryArg,
  BinaryArgs,
  BinaryRow,
  TernaryDerivative,
  TernaryRow,
  TernarySaved,
  BinaryDerivative,
  BinaryNoDerivative,
  BinarySaved,
  DispatcherName,
  NoDerivative,
  Rejects,
  UnaryRow,
  UnaryDerivative,
  UnaryDtypeRule,
} from './table/types';
export { ACTIVATION_TABLE_NAMES, BINARY_TABLE_NAMES, TERNARY_TABLE_NAMES, UNARY_TABLE_NAMES } from './generated/table-names';
export { REDUCTION_TABLE, expandReduced, restoreReducedDims, type ReductionTableName } from './table/reduction';
export { REDUCTION_TABLE_NAMES } from './generated/table-names';
export { reductionOperators, type ReductionFn, type ReductionOperatorName, type ReductionOperators } from './reduction-table';
export type {
  ReductionArgs,
  ReductionContext,
  ReductionDerivative,
  ReductionDtypeRule,
  ReductionKernel,
  ReductionOptionsOf,
  ReductionRest,
  ReductionRow,
} from './table/reduction-types';
export * from './rounding';
export * from './activations';
export * from './pointwise-binary';
export * from './logical';
export * from './closeness';
export * from './reduction';
export * from './reduction-stats';
export * from './nan-stats';
export * from './histograms';
export * from './random-samplers';
export * from './scan';
export * from './linalg';
export * from './copy';
export * from './factories';
export * from './new-factories';
export * from './fill-diagonal';
export * from './scatter-views';
export * from './grid-sample';
export * from './attention';
export * from './shape-numpy';
export * from './math-numpy';
export * from './pointwise-numpy';
export * from './stats-numpy';
export * from './activations-more';
export * from './feature-dropout';
export * from './norm-composites';
export * from './lp-pool';
export * from './nn-composites-more';
export * from './numpy-gradient';
export * from './unique-consecutive';
export * from './random';
export * from './softmax';
export * from './losses';
export * from './losses-pointwise';
export * from './losses-distance';
export * from './losses-margin';
export * from './ctc-loss';
export * from './special';
export * from './normalization';
export * from './nn-misc';
export * from './embedding-bag';
export * from './random-extra';
export * from './random-inplace';
export type { NnImpls, PointwiseLossKind } from './nn-impls';
export * from './gather-scatter';
export * from './masked';
export * from './conv';
export * from './pooling';
export * from './pooling-1d';
export * from './pooling-3d';
export * from './pooling-adaptive-max';
export * from './conv3d';
export * from './pixel-shuffle';
export * from './resample';
export { upsampleTrilinear3dBackward } from './interpolate-separable';
export * from './im2col';
export type { Conv2dGeometry, Pool2dGeometry, Pads2d, PadMode, SpatialImpls } from './spatial-impls';
export type { ConvImpls } from './conv-impls';
export { indexPut, indexPut_, indexPacked, indexPutPacked_, type IndexPutOptions } from './indexing';
export type { IndexedAccess, IndexErrorStyle, IndexingImpls, ScatterMode } from './indexing-impls';
export {
  view,
  asStrided,
  permute,
  transpose,
  swapaxes,
  swapdims,
  select,
  unsqueeze,
  squeeze,
  expand,
  unfold,
  diagonal,
  detach,
  sliceDim,
  t_,
  transpose_,
  swapaxes_,
  swapdims_,
  squeeze_,
  unsqueeze_,
  asStrided_,
  type DiagonalOptions,
  type SliceOptions,
  type IntListArgs,
} from './views';
export * from './shape-ops';
export * from './join';
export * from './reorder';
export * from './sorting';
export * from './tensor-queries';
export type { SortingImpls } from './sorting-impls';
export type { ReorderImpls } from './reorder-impls';
export type { JoinImpls } from './join-impls';
export * from './linalg-extra';
export * from './linalg-misc';
export * from './linalg-front';
export * from './complex-views';
export { complex, polar, angle, conj, conjPhysical, conjPhysical_, isComplex, isConj, resolveConj, registerComplexKernel } from './complex';
export type { LinalgImpls } from './linalg-solve-impls';
export * from './linalg-svd-front';
export type { SvdImpls } from './linalg-svd-impls';
export { lstsqWorkSize, type LinalgQrImpls } from './linalg-qr-impls';
export type { FftImpls } from './fft-impls';
export { FftNorm, fftC2cPairs } from './fft';
export * from './fft-front';
export * from './linalg-qr-front';
export type { EigImpls } from './linalg-eig-impls';
export { linalgEig, linalgEigvals, type EigResult } from './linalg-eig';
export { index, indexAsync } from './indexing';
export { countsAreAsync } from './data-dependent';
export * from './sparse';
export type { Scalar } from './meta-utils';
export type { TensorMethods } from './methods';

installTensorMethods();
registerComplexKernels();
registerConjugateFallback();
registerLinalgComplexKernels();
registerComplexMathKernels();
registerSparseKernels();
registerBackend(DispatchKey.Meta, META_IMPLS);
// Until the autograd package registers kernels, the autograd and view-tracking keys pass
// every call straight down to the backend.
for (const k of [...AUTOGRAD_KEYS, DispatchKey.ADInplaceOrView]) registerFallback(k, FALLTHROUGH);
