import { notImplemented, type BackendImplTable } from '@torch-ts/core';
import { specialAiryAi, specialBesselJ0, specialBesselJ1, specialBesselY0, specialBesselY1, specialModifiedBesselI0, specialModifiedBesselI1, specialModifiedBesselK0, specialModifiedBesselK1, specialScaledModifiedBesselK0, specialScaledModifiedBesselK1, specialSphericalBesselJ0, mvlgamma, polygamma, specialEntr, specialErfcx, specialI0e, specialI1, specialI1e, specialLogNdtr, specialNdtri, standardGammaGrad } from './kernels/special';
import { elu, gelu, hardsigmoid, hardswish, hardtanh, leakyRelu, logit, mish, silu, softplus } from './kernels/activations';
import { argmax, argmin, maxDim, minDim } from './kernels/arg-reduce';
import { add, div, divFloor, divTrunc, pow } from './kernels/binary';
import { BINARY_MATH_IMPLS, clampMax, clampMin } from './kernels/binary-math';
import { lerp } from './kernels/lerp';
import { nanToNum } from './kernels/logical';
import { addcdiv, addcmul } from './kernels/addc';
import { copy } from './kernels/copy';
import { fill } from './kernels/fill';
import { addmm, bmm, mm } from './kernels/matmul';
import { amax, amin, prod, sum } from './kernels/reduce';
import { UNARY_IMPLS } from './kernels/unary';
import { where } from './kernels/where';
import { softmax, softmaxBackward } from './kernels/softmax';
import { nllLoss, nllLossBackward, pointwiseLoss } from './kernels/losses';
import { batchNorm, batchNormBackward, layerNorm, layerNormBackward } from './kernels/normalization';
import { embedding, embeddingBackward } from './kernels/embedding';
import { all, any, logsumexp, medianDim, modeDim, varMean, vectorNorm } from './kernels/stats';
import { cummax, cummin, cumprod, cumsum } from './kernels/scan';
import { round } from './kernels/round';
import { col2im, im2col } from './kernels/im2col';
import { conv2d, conv2dChannelsLast, conv2dChannelsLastInputGrad, conv2dChannelsLastWeightGrad, conv2dInputGrad, conv2dWeightGrad } from './kernels/conv2d';
import { adaptiveAvgPool2d, adaptiveAvgPool2dBackward, avgPool2d, avgPool2dBackward, maxPool2d, maxPool2dBackward } from './kernels/pooling';
import {
  adaptiveAvgPool2dBackwardChannelsLast,
  adaptiveAvgPool2dChannelsLast,
  adaptiveMaxPool2dBackwardChannelsLast,
  adaptiveMaxPool2dChannelsLast,
  groupNormBackwardChannelsLast,
  groupNormChannelsLast,
  avgPool2dBackwardChannelsLast,
  avgPool2dChannelsLast,
  batchNormBackwardChannelsLast,
  batchNormChannelsLast,
  maxPool2dBackwardChannelsLast,
  maxPool2dChannelsLast,
} from './kernels/pooling-nhwc';
import { padIndexed, padIndexedBackward, upsampleBilinear2d, upsampleBilinear2dBackward, upsampleNearest2d, upsampleNearest2dBackward } from './kernels/resample';
import {
  upsampleBilinear2dBackwardChannelsLast,
  upsampleBilinear2dChannelsLast,
  upsampleNearest2dBackwardChannelsLast,
  upsampleNearest2dChannelsLast,
} from './kernels/resample-nhwc';
import { indexGather, indexScatter, nonzeroCount, nonzeroFill } from './kernels/index-ops';
import { searchsorted, sort, topk, unique } from './kernels/sort';
import { flip, triZero } from './kernels/reorder';
import { cat } from './kernels/join';
import { cholesky, luFactor, luSolve, solveTriangular } from './kernels/linalg';
import { svd } from './kernels/linalg-svd';
import { eig, eigComplex } from './kernels/linalg-eig';
import { choleskyComplex, eighComplex, luFactorComplex, luSolveComplex, solveTriangularComplex } from './kernels/linalg-complex';
import { geqrfComplex, householderProductComplex } from './kernels/linalg-complex-qr';
import { svdComplex } from './kernels/linalg-complex-svd';
import { lstsqComplex, lstsqSvdComplex, matrixExpComplex } from './kernels/linalg-complex-lstsq';
import { eigh, geqrf, householderProduct, lstsq, lstsqSvd, matrixExp } from './kernels/linalg-qr';
import { fft } from './kernels/fft';

/** Note [Counter-based random streams] (core): the CPU's random ops draw on the host. */
const CPU_RANDOM = 'random ops on CPU draw on the host from MT19937, as PyTorch CPU does';

/**
 * The CPU backend's impls (Note [What a backend implements]): every entry computes into a
 * preallocated output from inputs core has already cast and broadcast. The compiler checks
 * the table against `BackendImplTable`, so a missing impl is a type error.
 */
export const cpuImpls = {
  sort, topk, searchsorted, unique, triZero, cat, flip,
  round,
  copy,
  fill,
  add,
  div,
  divTrunc,
  divFloor,
  pow,
  ...BINARY_MATH_IMPLS,
  clampMin,
  clampMax,
  lerp,
  addcmul,
  addcdiv,
  nanToNum,
  ...UNARY_IMPLS,
  where,
  sum,
  prod,
  amax,
  amin,
  maxDim,
  minDim,
  argmax,
  argmin,
  mm,
  bmm,
  addmm,
  // Note [CPU LU, Cholesky and triangular solves]
  luFactor,
  luSolve,
  solveTriangular,
  cholesky,
  // Note [CPU SVD: one-sided Jacobi]
  svd,
  // Note [CPU QR, eigh, lstsq and matrix_exp]
  geqrf,
  householderProduct,
  eigh,
  lstsq,
  lstsqSvd,
  matrixExp,
  // Note [CPU FFT plans]
  fft,
  // Note [CPU eig: LAPACK's dgeev]
  eig,
  // Note [CPU complex eig: LAPACK's zgeev]
  eigComplex,
  // Note [CPU complex LU, Cholesky, triangular solves and eigh]
  luFactorComplex,
  luSolveComplex,
  solveTriangularComplex,
  choleskyComplex,
  eighComplex,
  geqrfComplex,
  svdComplex,
  householderProductComplex,
  lstsqComplex,
  lstsqSvdComplex,
  matrixExpComplex,
  leakyRelu,
  elu,
  hardtanh,
  gelu,
  silu,
  mish,
  softplus,
  hardsigmoid,
  hardswish,
  logit,
  polygamma,
  mvlgamma,
  specialEntr,
  specialNdtri,
  specialLogNdtr,
  specialErfcx,
  specialI0e,
  specialI1,
  specialI1e,
  specialBesselJ0,
  specialBesselJ1,
  specialBesselY0,
  specialBesselY1,
  specialModifiedBesselI0,
  specialModifiedBesselI1,
  specialModifiedBesselK0,
  specialModifiedBesselK1,
  specialScaledModifiedBesselK0,
  specialScaledModifiedBesselK1,
  specialSphericalBesselJ0,
  specialAiryAi,
  varMean,
  logsumexp,
  vectorNorm,
  all,
  any,
  medianDim,
  modeDim,
  cumsum,
  cumprod,
  cummax,
  cummin,
  indexGather,
  indexScatter,
  nonzeroCount,
  nonzeroFill,
  // CPU reads synchronously: core counts with nonzeroCount and scatters through nonzero (Note [Data-dependent sizes on async-read backends])
  nonzeroCountAsync: notImplemented('cpu counts synchronously (nonzeroCount)'),
  maskedScatterOrdered: notImplemented('cpu takes the nonzero path of masked_scatter_'),
  uniqueCountAsync: notImplemented('cpu counts the distinct rows synchronously (unique)'),
  im2col,
  col2im,
  maxPool2d,
  maxPool2dBackward,
  avgPool2d,
  avgPool2dBackward,
  adaptiveAvgPool2d,
  adaptiveAvgPool2dBackward,
  maxPool2dChannelsLast,
  avgPool2dChannelsLast,
  adaptiveAvgPool2dChannelsLast,
  maxPool2dBackwardChannelsLast,
  avgPool2dBackwardChannelsLast,
  adaptiveAvgPool2dBackwardChannelsLast,
  adaptiveMaxPool2dChannelsLast,
  adaptiveMaxPool2dBackwardChannelsLast,
  upsampleNearest2d,
  upsampleNearest2dBackward,
  upsampleBilinear2d,
  upsampleBilinear2dBackward,
  // Note [CPU channels-last upsampling]
  upsampleNearest2dChannelsLast,
  upsampleNearest2dBackwardChannelsLast,
  upsampleBilinear2dChannelsLast,
  upsampleBilinear2dBackwardChannelsLast,
  padIndexed,
  padIndexedBackward,
  softmax,
  softmaxBackward,
  nllLoss,
  nllLossBackward,
  batchNorm,
  batchNormBackward,
  batchNormChannelsLast,
  batchNormBackwardChannelsLast,
  groupNormChannelsLast,
  groupNormBackwardChannelsLast,
  layerNorm,
  layerNormBackward,
  embedding,
  embeddingBackward,
  standardGammaGrad,
  pointwiseLoss,
  // CPU random values come from core's host draws (MT19937, PyTorch CPU's exact values)
  randomFill: notImplemented(CPU_RANDOM),
  bernoulliTensor: notImplemented(CPU_RANDOM),
  multinomial: notImplemented(CPU_RANDOM),
  standardGamma: notImplemented(CPU_RANDOM),
  sampleDirichlet: notImplemented(CPU_RANDOM),
  poisson: notImplemented(CPU_RANDOM),
  binomial: notImplemented(CPU_RANDOM),
  // float32 / float64 on the kernels' GEMM; other dtypes decline to core's im2col + mm (Note [CPU direct convolution])
  conv2d,
  conv2dChannelsLast,
  conv2dChannelsLastInputGrad,
  conv2dChannelsLastWeightGrad,
  conv2dInputGrad,
  conv2dWeightGrad,
} satisfies BackendImplTable;
