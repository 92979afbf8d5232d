import type { DType, ImplDtypeVariants, ImplDtypes } from '@torch-ts/core';
import { BINARY_OPS, SCALAR_OPS, UNARY_OPS, type OpRow } from './kernels/pointwise-ops';

/**
 * Note [WebGPU dtype support]
 * What each WebGPU impl computes in (core's Note [Dtype support is data]), next to the
 * kernels and in their terms (Note [WebGPU dtypes]):
 *   - the pointwise impls: read off their rows (Note [The WebGPU pointwise op table]): `f`
 *     is float32 and, emulated, float16 and bfloat16; `i` int32, int8, int16; `u` uint8;
 *     `b` bool; `l` int64;
 *   - kernels that only move bits (same-dtype copies, fills, gathers, flips, pads) run for
 *     every dtype, float64 included: bytes are bytes;
 *   - the rest take what their `kindOf(op, dtype, allowInt64, allowF16)` call admits, and
 *     the fused NN kernels float32 alone (core widens 16-bit inputs for them);
 *   - float64 is never computed in: WGSL has no 64-bit float.
 * `copy` lists the dtypes it converts between (a same-dtype copy is raw, for every dtype).
 * core's `supports()` answers from this table and the test package derives its WebGPU
 * xfails from it, so a wrong entry fails the strict xfails (Note [Strict xfails]) and
 * test/supports-webgpu.test.ts; the kernels' own DTypeErrors come from `kindOf`.
 */
const F = ['float32', 'float16', 'bfloat16'] as const;
const BASE = ['float32', 'int32', 'uint8', 'bool', 'int8', 'int16'] as const;
const WITH_I64_F16_BF16: readonly DType[] = [...BASE, 'int64', 'float16', 'bfloat16'];
const WITH_I64_F16: readonly DType[] = [...BASE, 'int64', 'float16'];
const WITH_F16_BF16: readonly DType[] = [...BASE, 'float16', 'bfloat16'];
const RAW: readonly DType[] = [...BASE, 'int64', 'float16', 'bfloat16', 'float64'];
const F32: readonly DType[] = ['float32'];
/** conv2d's direct kernels: float32 and int32, and uint8/int8/int16 widened to int32 (kernels/conv.ts). */
const CONV: readonly DType[] = ['float32', 'int32', 'uint8', 'int8', 'int16'];

const LETTERS: Readonly<Record<'f' | 'i' | 'u' | 'b' | 'l', readonly DType[]>> = {
  f: F,
  i: ['int32', 'int8', 'int16'],
  u: ['uint8'],
  b: ['bool'],
  l: ['int64'],
};

/** The dtypes every one of `rows` has an expression for. */
function rowDtypes(...rows: OpRow[]): readonly DType[] {
  const of = (row: OpRow) => (['f', 'i', 'u', 'b', 'l'] as const).flatMap((k) => (row[k] === undefined ? [] : LETTERS[k]));
  return rows.map(of).reduce((a, b) => a.filter((d) => b.includes(d)));
}

const rowsOf = <T extends Record<string, OpRow>>(rows: T) =>
  Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, rowDtypes(row)])) as { [K in keyof T]: readonly DType[] };

export const webgpuDtypes = {
  ...rowsOf(UNARY_OPS),
  ...rowsOf(BINARY_OPS),
  add: rowDtypes(SCALAR_OPS.add),
  leakyRelu: rowDtypes(SCALAR_OPS.leakyRelu),
  elu: rowDtypes(SCALAR_OPS.elu),
  hardtanh: rowDtypes(SCALAR_OPS.hardtanh),
  gelu: rowDtypes(SCALAR_OPS.geluNone, SCALAR_OPS.geluTanh),
  softplus: rowDtypes(SCALAR_OPS.softplus),
  logit: rowDtypes(SCALAR_OPS.logit),
  polygamma: rowDtypes(SCALAR_OPS.polygamma),
  mvlgamma: rowDtypes(SCALAR_OPS.mvlgamma),
  nanToNum: rowDtypes(SCALAR_OPS.nanToNum),
  lerp: rowDtypes(SCALAR_OPS.lerp, SCALAR_OPS.lerpScalar),
  addcmul: rowDtypes(SCALAR_OPS.addcmul),
  addcdiv: rowDtypes(SCALAR_OPS.addcdiv),
  round: rowDtypes(SCALAR_OPS.round),
  where: rowDtypes(SCALAR_OPS.where),
  copy: WITH_I64_F16_BF16,
  fill: RAW,
  // reductions (Note [int64 in reductions]; f32 accumulation for the 16-bit floats)
  sum: WITH_I64_F16_BF16,
  prod: WITH_I64_F16_BF16,
  amax: WITH_I64_F16_BF16,
  amin: WITH_I64_F16_BF16,
  maxDim: WITH_I64_F16_BF16,
  minDim: WITH_I64_F16_BF16,
  argmax: WITH_I64_F16_BF16,
  argmin: WITH_I64_F16_BF16,
  // row statistics: core hands them float32 rows (16-bit inputs widened), and they write
  // float32 or float16 results themselves (kindOf(_, _, false, true): no bfloat16 yet);
  // all/any reduce bool rows
  varMean: ['float32', 'float16'],
  logsumexp: ['float32', 'float16'],
  vectorNorm: ['float32', 'float16'],
  all: ['bool'],
  any: ['bool'],
  // sorts, selections and scans: half keys widened exactly; no bfloat16 kernels yet
  sort: WITH_I64_F16,
  topk: WITH_I64_F16,
  searchsorted: WITH_I64_F16,
  unique: WITH_I64_F16,
  uniqueCountAsync: WITH_I64_F16,
  medianDim: WITH_I64_F16,
  modeDim: WITH_I64_F16,
  cumsum: WITH_I64_F16,
  cumprod: WITH_I64_F16,
  cummax: WITH_I64_F16,
  cummin: WITH_I64_F16,
  // data movement: raw bits by element size
  cat: RAW,
  flip: RAW,
  triZero: RAW,
  indexGather: RAW,
  // combining scatters: int64 'add' only (Note [Indexed access kernels]); see the variants
  indexScatter: BASE,
  // sizes that need a synchronous read raise by design (Note [Data-dependent sizes on async-read backends])
  nonzeroCount: [],
  nonzeroCountAsync: RAW,
  nonzeroFill: RAW,
  maskedScatterOrdered: RAW,
  embedding: RAW,
  embeddingBackward: F32,
  mm: WITH_F16_BF16,
  // Note [WebGPU LU, Cholesky and triangular solves]
  luFactor: F32,
  luSolve: F32,
  solveTriangular: F32,
  cholesky: F32,
  // Note [WebGPU SVD: one-sided Jacobi, a workgroup per matrix]
  svd: F32,
  // Note [WebGPU QR, eigh, lstsq and matrix_exp]
  geqrf: F32,
  householderProduct: F32,
  eigh: F32,
  lstsq: F32,
  lstsqSvd: F32,
  matrixExp: F32,
  bmm: WITH_F16_BF16,
  addmm: [],
  // Note [WebGPU FFT: Stockham passes, Bluestein for large primes]: complex64 as float32 pairs
  fft: F32,
  // Note [WebGPU eig: dgeev, an invocation per matrix]
  eig: F32,
  // Note [WebGPU complex LU, Cholesky, triangular solves and eigh]: complex64 as float32 pairs
  luFactorComplex: F32,
  luSolveComplex: F32,
  solveTriangularComplex: F32,
  choleskyComplex: F32,
  eighComplex: F32,
  // Note [WebGPU complex QR]: complex64 as float32 pairs
  geqrfComplex: F32,
  householderProductComplex: F32,
  // Note [WebGPU complex SVD: complex rotations, a workgroup per matrix]: complex64 as float32 pairs
  svdComplex: F32,
  // Note [WebGPU complex lstsq and matrix_exp]: complex64 as float32 pairs
  lstsqComplex: F32,
  lstsqSvdComplex: F32,
  matrixExpComplex: F32,
  // Note [WebGPU complex eig: zgeev, an invocation per matrix]: complex64 as float32 pairs
  eigComplex: F32,
  standardGammaGrad: F32,
  randomFill: WITH_I64_F16_BF16,
  bernoulliTensor: WITH_I64_F16_BF16,
  multinomial: F32,
  standardGamma: F32,
  sampleDirichlet: F32,
  poisson: F32,
  binomial: F32,
  im2col: BASE,
  col2im: BASE,
  conv2d: CONV,
  // conv2d's kernels on NHWC strides (Note [WebGPU channels-last convolution]); the rest decline
  conv2dChannelsLast: ['float32', 'int32'],
  conv2dChannelsLastInputGrad: ['float32'],
  conv2dChannelsLastWeightGrad: ['float32'],
  // the pooling and batch norm kernels on NHWC operands (Note [WebGPU channels-last pooling],
  // Note [WebGPU channels-last batch norm]); other dtypes are declined
  maxPool2dChannelsLast: F,
  avgPool2dChannelsLast: F,
  adaptiveAvgPool2dChannelsLast: F,
  batchNormChannelsLast: F32,
  batchNormBackwardChannelsLast: F32,
  maxPool2dBackwardChannelsLast: F,
  avgPool2dBackwardChannelsLast: F,
  adaptiveAvgPool2dBackwardChannelsLast: F,
  conv2dInputGrad: CONV,
  conv2dWeightGrad: CONV,
  maxPool2d: F,
  maxPool2dBackward: F,
  avgPool2d: F,
  avgPool2dBackward: F,
  adaptiveAvgPool2d: F,
  adaptiveAvgPool2dBackward: F,
  upsampleNearest2d: WITH_F16_BF16,
  upsampleNearest2dBackward: F,
  upsampleBilinear2d: F,
  upsampleBilinear2dBackward: F,
  padIndexed: RAW,
  padIndexedBackward: F,
  // the fused NN kernels take float32 (core widens float16/bfloat16: core Note [NN kernels take contiguous float32/float64 operands])
  softmax: F32,
  softmaxBackward: F32,
  nllLoss: F32,
  nllLossBackward: F32,
  pointwiseLoss: F32,
  batchNorm: F32,
  batchNormBackward: F32,
  layerNorm: F32,
  layerNormBackward: F32,
} satisfies ImplDtypes;

/** Impls whose support depends on an argument (core's `ImplDtypeVariants`). */
export const webgpuDtypeVariants = {
  // a plain scatter moves bits; 'add' has int64 kernels, the other reductions do not
  'indexScatter.set': RAW,
  'indexScatter.add': [...BASE, 'int64'],
} satisfies ImplDtypeVariants;
