import { REAL_DTYPES, type DType, type ImplDtypes } from '@torch-ts/core';
import { cpuImpls } from './impls';

/**
 * Note [CPU dtype support]
 * What each CPU impl computes in (core's Note [Dtype support is data]). The CPU's loops are
 * specialised for every real dtype, as PyTorch's CPU kernels are, so an impl computes in all ten
 * (complex ops are core's composites over real views: core Note [Complex tensors are pairs of reals]);
 * the dtypes PyTorch's CPU kernels reject (`neg` of bool, `softmax` of int32) are rejected by
 * core's meta, on every device, before an impl runs. The exceptions are the fused NN kernels,
 * which take float32 and float64 rows (core widens the 16-bit floats: core Note [NN kernels
 * take contiguous float32/float64 operands]), and the impls the CPU opts out of
 * (`notImplemented`: random draws come from core's host generator), which compute in none.
 */
const ALL: readonly DType[] = REAL_DTYPES;
const FLOAT_ROWS: readonly DType[] = ['float32', 'float64'];
const NN = ['luFactor', 'luSolve', 'solveTriangular', 'cholesky', 'svd', 'geqrf', 'householderProduct', 'eigh', 'lstsq', 'lstsqSvd', 'matrixExp', 'luFactorComplex', 'luSolveComplex', 'solveTriangularComplex', 'choleskyComplex', 'eighComplex', 'geqrfComplex', 'householderProductComplex', 'svdComplex', 'eigComplex', 'lstsqComplex', 'lstsqSvdComplex', 'matrixExpComplex', 'fft', 'softmax', 'softmaxBackward', 'nllLoss', 'nllLossBackward', 'pointwiseLoss', 'batchNorm', 'batchNormBackward', 'batchNormChannelsLast', 'batchNormBackwardChannelsLast', 'maxPool2dChannelsLast', 'avgPool2dChannelsLast', 'adaptiveAvgPool2dChannelsLast', 'maxPool2dBackwardChannelsLast', 'avgPool2dBackwardChannelsLast', 'adaptiveAvgPool2dBackwardChannelsLast', 'adaptiveMaxPool2dChannelsLast', 'adaptiveMaxPool2dBackwardChannelsLast', 'groupNormChannelsLast', 'groupNormBackwardChannelsLast', 'layerNorm', 'layerNormBackward'] as const;

export const cpuDtypes = Object.fromEntries(
  Object.entries(cpuImpls).map(([name, impl]) => [name, typeof impl !== 'function' ? [] : NN.some((n) => n === name) ? FLOAT_ROWS : ALL]),
) as ImplDtypes;
