import { notImplemented, type BackendImplTable } from '@torch-ts/core';
import { matmulImpls } from './kernels/matmul';
import { randomImpls } from './kernels/random';
import { convImpls } from './kernels/conv';
import { poolingImpls } from './kernels/pooling';
import { resampleImpls } from './kernels/resample';
import { binaryImpls, copy, fill, scalarImpls, unaryImpls } from './kernels/pointwise';
import { argReduceImpls, reduceImpls } from './kernels/reduce';
import { statsImpls } from './kernels/stats';
import { normalizationImpls } from './kernels/normalization';
import { joinImpls, reorderImpls } from './kernels/join';
import { scanImpls } from './kernels/scan';
import { selectImpls, sortImpls } from './kernels/sort';
import { indexingImpls } from './kernels/indexing';
import { softmaxImpls } from './kernels/softmax';
import { lossImpls } from './kernels/losses';
import { linalgImpls } from './kernels/linalg';
import { svdComplexImpls } from './kernels/linalg-complex-svd';
import { svdImpls } from './kernels/linalg-svd';
import { eigImpls } from './kernels/linalg-eig';
import { eigComplexImpls } from './kernels/linalg-complex-eig';
import { linalgQrImpls } from './kernels/linalg-qr';
import { linalgComplexImpls } from './kernels/linalg-complex';
import { linalgComplexQrImpls } from './kernels/linalg-complex-qr';
import { linalgComplexLstsqImpls } from './kernels/linalg-complex-lstsq';
import { gammaImpls } from './kernels/gamma';
import { samplerImpls } from './kernels/samplers';
import { fftImpls } from './kernels/fft';
import { poisonsArgument } from './runtime/poison';

/**
 * Note [The WebGPU impl table]
 * Like the CPU's, the WebGPU table `satisfies BackendImplTable`: every impl of core's
 * BackendImpls is here or opted out of with `notImplemented('reason')`, so an impl that a
 * family adds to BackendImpls is a compile error here until WebGPU has it or says why not
 * (it then raises, from core's `implOf`, "op: no kernel for aten::op on WebGPU (reason)",
 * never a silent CPU round trip). Today only the optional fused `addmm` opts out; a few impls raise a TorchError by
 * design (`nonzeroCount`: a size that needs a synchronous read, Note [Data-dependent sizes on
 * async-read backends] in core), and an impl that exists may still lack a dtype: what each
 * computes in is dtypes.ts (Note [WebGPU dtype support]), from which core's `supports()`
 * answers and the test package derives its WebGPU xfails.
 */
export const webgpuImpls = {
  copy,
  fill,
  ...unaryImpls,
  ...binaryImpls,
  ...scalarImpls,
  ...reduceImpls,
  ...argReduceImpls,
  ...statsImpls,
  ...normalizationImpls,
  ...joinImpls,
  ...reorderImpls,
  ...scanImpls,
  ...sortImpls,
  ...selectImpls,
  ...matmulImpls,
  // the bias is added by a second kernel; a fused GEMM epilogue is future work
  addmm: notImplemented('WebGPU composes mm and add (Note [Fused addmm])'),
  // complex64 linalg (Note [WebGPU complex LU, Cholesky, triangular solves and eigh])
  ...linalgComplexImpls,
  // complex64 QR (Note [WebGPU complex QR])
  ...linalgComplexQrImpls,
  // complex64 SVD (Note [WebGPU complex SVD: complex rotations, a workgroup per matrix])
  ...svdComplexImpls,
  // complex64 lstsq and matrix_exp (Note [WebGPU complex lstsq and matrix_exp])
  ...linalgComplexLstsqImpls,
  // complex64 eig (Note [WebGPU complex eig: zgeev, an invocation per matrix])
  ...eigComplexImpls,
  ...gammaImpls,
  ...samplerImpls,
  ...randomImpls,
  ...indexingImpls,
  ...convImpls,
  ...poolingImpls,
  ...resampleImpls,
  ...softmaxImpls,
  ...lossImpls,
  ...linalgImpls,
  ...svdImpls,
  ...eigImpls,
  ...linalgQrImpls,
  ...fftImpls,
  // core calls these outside a structured op (Note [Poisoned storages])
  bernoulliTensor: poisonsArgument(randomImpls.bernoulliTensor, 0),
  multinomial: poisonsArgument(randomImpls.multinomial, 0),
  poisson: poisonsArgument(samplerImpls.poisson, 0),
} satisfies BackendImplTable;
