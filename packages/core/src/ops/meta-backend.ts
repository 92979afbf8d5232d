import { notImplemented, type BackendImplTable } from './backend-impls';
import { ACTIVATION_TABLE_NAMES, BINARY_TABLE_NAMES, UNARY_TABLE_NAMES } from './generated/table-names';
import type { ActivationTableName } from './table/activation';
import type { BinaryTableName } from './table/binary';
import type { UnaryTableName } from './table/unary';

/**
 * The `meta` device: tensors with sizes and dtypes and no data. Every structured op's meta
 * (shape, dtype, validation, output allocation) runs as on any device, and the impls do
 * nothing, so shape inference costs no computation.
 */
const noop = () => {};

export const META_IMPLS = {
  copy: noop, fill: noop,
  divTrunc: noop, divFloor: noop,
  ...(Object.fromEntries([...UNARY_TABLE_NAMES, ...BINARY_TABLE_NAMES, ...ACTIVATION_TABLE_NAMES].map((n) => [n, noop])) as Record<
    UnaryTableName | BinaryTableName | ActivationTableName,
    typeof noop
  >),
  where: noop,
  sum: noop, prod: noop, amax: noop, amin: noop, maxDim: noop, minDim: noop, argmax: noop, argmin: noop,
  mm: noop, bmm: noop,
  luFactor: noop, luSolve: noop, solveTriangular: noop, cholesky: noop, svd: noop,
  geqrf: noop, householderProduct: noop, eigh: noop, eig: noop, luFactorComplex: noop, luSolveComplex: noop, solveTriangularComplex: noop, choleskyComplex: noop, eighComplex: noop, geqrfComplex: noop, householderProductComplex: noop, svdComplex: noop, eigComplex: noop, lstsqComplex: noop, lstsqSvdComplex: noop, matrixExpComplex: noop, lstsq: noop, lstsqSvd: noop, matrixExp: noop, fft: noop,
  round: noop,
  lerp: noop, addcmul: noop, addcdiv: noop,
  nanToNum: noop,
  varMean: noop, logsumexp: noop, vectorNorm: noop, all: noop, any: noop, medianDim: noop, modeDim: noop,
  cumsum: noop, cumprod: noop, cummax: noop, cummin: noop,
  indexGather: noop, indexScatter: noop, nonzeroFill: noop,
  nonzeroCount: notImplemented('nonzero: the meta device has no data, so the number of nonzero elements is unknown'),
  nonzeroCountAsync: notImplemented('nonzero: the meta device has no data, so the number of nonzero elements is unknown'),
  maskedScatterOrdered: notImplemented('meta tensors take the nonzero path of masked_scatter_'),
  sort: noop, topk: noop, searchsorted: noop, triZero: noop, cat: noop, flip: noop,
  unique: notImplemented('unique: the meta device has no data, so the number of distinct elements is unknown'),
  uniqueCountAsync: notImplemented('unique: the meta device has no data, so the number of distinct elements is unknown'),
  im2col: noop, col2im: noop, maxPool2d: noop, maxPool2dBackward: noop, avgPool2d: noop, avgPool2dBackward: noop,
  adaptiveAvgPool2d: noop, adaptiveAvgPool2dBackward: noop, upsampleNearest2d: noop, upsampleNearest2dBackward: noop,
  upsampleBilinear2d: noop, upsampleBilinear2dBackward: noop, padIndexed: noop, padIndexedBackward: noop,
  softmax: noop, softmaxBackward: noop, nllLoss: noop, nllLossBackward: noop, batchNorm: noop, batchNormBackward: noop,
  layerNorm: noop, layerNormBackward: noop, embedding: noop, embeddingBackward: noop, standardGammaGrad: noop, pointwiseLoss: noop,
  randomFill: notImplemented('meta tensors take the host path of random ops (Note [Counter-based random streams])'),
  bernoulliTensor: notImplemented('meta tensors take the host path of random ops (Note [Counter-based random streams])'),
  multinomial: notImplemented('meta tensors take the host path of random ops (Note [Counter-based random streams])'),
  standardGamma: notImplemented('meta tensors take the host path of random ops (Note [Counter-based random streams])'),
  sampleDirichlet: notImplemented('meta tensors take the host path of random ops (Note [Counter-based random streams])'),
  poisson: notImplemented('meta tensors take the host path of random ops (Note [Counter-based random streams])'),
  binomial: notImplemented('meta tensors take the host path of random ops (Note [Counter-based random streams])'),
  addmm: notImplemented('meta addmm composes mm and add (Note [Fused addmm])'),
  conv2d: notImplemented('meta convolutions take the im2col path (Note [Direct convolution impls])'),
  conv2dChannelsLast: notImplemented('meta convolutions take the im2col path (Note [Direct convolution impls])'),
  conv2dChannelsLastInputGrad: notImplemented('meta convolutions take the im2col path (Note [Direct convolution impls])'),
  conv2dChannelsLastWeightGrad: notImplemented('meta convolutions take the im2col path (Note [Direct convolution impls])'),
  maxPool2dChannelsLast: notImplemented('meta pooling takes the NCHW path (Note [Channels-last pooling impls])'),
  avgPool2dChannelsLast: notImplemented('meta pooling takes the NCHW path (Note [Channels-last pooling impls])'),
  adaptiveAvgPool2dChannelsLast: notImplemented('meta pooling takes the NCHW path (Note [Channels-last pooling impls])'),
  batchNormChannelsLast: notImplemented('meta batch norm takes the NCHW path (Note [Channels-last pooling impls])'),
  batchNormBackwardChannelsLast: notImplemented('meta batch norm takes the NCHW path (Note [Channels-last pooling impls])'),
  maxPool2dBackwardChannelsLast: notImplemented('meta pooling takes the NCHW path (Note [Channels-last pooling impls])'),
  adaptiveMaxPool2dChannelsLast: notImplemented('meta pooling takes the NCHW path (Note [Channels-last pooling impls])'),
  adaptiveMaxPool2dBackwardChannelsLast: notImplemented('meta pooling takes the NCHW path (Note [Channels-last pooling impls])'),
  groupNormChannelsLast: notImplemented('meta group norm takes the NCHW path (Note [Channels-last pooling impls])'),
  groupNormBackwardChannelsLast: notImplemented('meta group norm takes the NCHW path (Note [Channels-last pooling impls])'),
  upsampleNearest2dChannelsLast: notImplemented('meta upsampling takes the NCHW path (Note [Channels-last upsampling])'),
  upsampleNearest2dBackwardChannelsLast: notImplemented('meta upsampling takes the NCHW path (Note [Channels-last upsampling])'),
  upsampleBilinear2dChannelsLast: notImplemented('meta upsampling takes the NCHW path (Note [Channels-last upsampling])'),
  upsampleBilinear2dBackwardChannelsLast: notImplemented('meta upsampling takes the NCHW path (Note [Channels-last upsampling])'),
  avgPool2dBackwardChannelsLast: notImplemented('meta pooling takes the NCHW path (Note [Channels-last pooling impls])'),
  adaptiveAvgPool2dBackwardChannelsLast: notImplemented('meta pooling takes the NCHW path (Note [Channels-last pooling impls])'),
  conv2dInputGrad: notImplemented('meta convolutions take the im2col path (Note [Direct convolution impls])'),
  conv2dWeightGrad: notImplemented('meta convolutions take the im2col path (Note [Direct convolution impls])'),
} satisfies BackendImplTable;
