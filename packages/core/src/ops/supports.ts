import { DispatchKey, backendKeyOf } from '../dispatch/dispatch-key';
import { allOperators } from '../dispatch/dispatcher';
import { toDevice, type DeviceLike } from '../device';
import { DTYPES, isComplexType, parseDType, toRealValueType, type DType } from '../dtype';
import { TorchError } from '../errors';
import type { ImplName } from './backend-impls';
import { backendOf, type Backend } from './registry';

/**
 * Note [Dtype support is data]
 * Which dtypes a device computes an op in is data, declared once per backend next to its
 * kernels: `registerBackend(key, impls, { dtypes })` takes, for every impl, the dtypes it
 * computes in (`ImplDtypes`, complete, so a new impl needs its entry), and optional
 * variants for impls whose support depends on an argument (`indexScatter.add`). A backend
 * registered without the table computes every impl it has in every dtype.
 *
 * `supports(op, dtype, device)` answers for the ops users call. An op computed by the impl
 * of its own name in its own dtype needs nothing more; the others (composites, overloads,
 * ops whose meta casts before the kernel) list here the impls they call (OP_KERNELS), each
 * in the op's dtype or, with a suffix, in the dtype core casts to first:
 *   - `impl@opmath`: float16 and bfloat16 widened to float32 (the NN kernels: Note [NN
 *     kernels take contiguous float32/float64 operands]), other dtypes as they are;
 *   - `impl@bool`: cast to bool first (all, any).
 * A cast needs the backend's `copy` to convert the op's dtype. `a|b` takes the first of the
 * impls the backend implements (the others are core's paths for a backend that opts out:
 * `randomFill|host`, where `host` is core drawing on the host, Note [Counter-based random
 * streams]; `nonzeroCountAsync|nonzeroCount`). An op that only moves
 * elements (views, same-dtype copies) needs no impl: every backend does it for every dtype.
 * So the kernels' tables stay the one source of truth, and this map only says what core's
 * composites call, which core's own code decides.
 *
 * `dtype` is the op's dtype: its result's, or its inputs' after promotion where the result
 * is bool or an index. The dtypes PyTorch rejects for an op on every device (`neg` of bool,
 * `mean` of int64) raise the DTypeError of core's meta before any kernel and are not the
 * backend's to declare: `supports` says whether the device has the kernels.
 */
export const OP_KERNELS: Readonly<Record<string, readonly KernelNeed[]>> = {
  // pointwise ops computed by another impl
  sub: ['add'],
  'div.trunc': ['divTrunc'],
  'div.floor': ['divFloor'],
  trueDivide: ['div'],
  floorDivide: ['divFloor'],
  square: ['mul'],
  selu: ['elu'],
  relu6: ['hardtanh'],
  specialNdtr: ['mul', 'erf', 'add'],
  clamp: ['clampMin', 'clampMax'],
  'clamp.min': ['clampMin'],
  'clamp.max': ['clampMax'],
  clip: ['clampMin', 'clampMax'],
  isnan: ['ne'],
  isinf: ['abs', 'eq'],
  isfinite: ['abs', 'eq', 'ne'],
  // (sub is add's impl; integral and bool inputs compare in the default float dtype past the first eq: copy casts them)
  isclose: ['eq', 'ne', 'logicalOr', 'logicalAnd', 'le', 'abs', 'add', 'mul', 'copy'],
  maskedFill: ['where'],
  // reductions and statistics
  mean: ['sum', 'div'],
  max: ['amax', 'maxDim'],
  min: ['amin', 'minDim'],
  countNonzero: ['ne', 'sum'],
  all: ['all@bool'],
  any: ['any@bool'],
  // (the row statistics read float32 rows, core widening the 16-bit floats, and write the result's dtype)
  var: ['varMean'],
  std: ['varMean'],
  stdMean: ['varMean'],
  norm: ['vectorNorm'],
  median: ['medianDim'],
  mode: ['modeDim'],
  // the NaN-ignoring statistics (Note [NaN-ignoring statistics are composites]); logcumsumexp computes 16-bit floats in float32
  nansum: ['ne', 'where', 'sum'],
  nanmean: ['ne', 'where', 'sum', 'div'],
  logcumsumexp: ['where@opmath', 'logsumexp@opmath', 'cat@opmath', 'fill@opmath'],
  nanmedian: ['sort', 'ne', 'indexGather'],
  quantile: ['sort', 'ne', 'indexGather', 'lerp', 'where', 'fill'],
  nanquantile: ['sort', 'ne', 'indexGather', 'lerp', 'clampMin', 'fill'],
  argsort: ['sort'],
  bucketize: ['searchsorted'],
  // the bin counts (Note [bincount, histc and histogram are composites]): index_add into zeros
  bincount: ['amin', 'amax', 'cat', 'copy', 'fill', 'indexScatter.add'],
  histc: ['amin', 'amax', 'cat', 'add', 'mul', 'div', 'trunc', 'eq', 'ge', 'le', 'bitwiseAnd@bool', 'where', 'fill', 'indexScatter.add'],
  histogram: ['amin', 'amax', 'cat', 'add', 'mul', 'div', 'lt', 'eq', 'ge', 'le', 'bitwiseAnd@bool', 'where', 'searchsorted', 'clampMax', 'fill', 'sum', 'indexScatter.add'],
  unique: ['unique', 'uniqueCountAsync|unique'],
  // linear algebra
  mv: ['mm'],
  dot: ['mm'],
  matmul: ['mm', 'bmm'],
  // (16-bit in float32, Note [Fused addmm]: the fused impl is only a faster mm + add)
  addmm: ['mm@opmath', 'mul@opmath', 'add@opmath'],
  baddbmm: ['bmm@opmath', 'mul@opmath', 'add@opmath'],
  outer: ['mul'],
  einsum: ['mul', 'sum', 'mm', 'bmm'],
  tensordot: ['mm'],
  // the common composites (Note [The common composites]): sub is add's impl; cdist's direct
  // path is sub and the vector norm, its matmul path (Note [cdist's two paths]) the rest
  trace: ['sum'],
  kron: ['mul'],
  cross: ['mul', 'add', 'cat'],
  cdist: ['add', 'vectorNorm', 'pow', 'sum', 'mul', 'cat', 'mm', 'bmm', 'gt', 'where', 'sqrt'],
  diff: ['add', 'cat'],
  blockDiag: ['cat'],
  cartesianProd: ['cat'],
  combinations: ['indexGather'],
  linear: ['mm@opmath', 'mul@opmath', 'add@opmath'],
  // torch.linalg part 1 (Note [The linalg primitives]): the factorizations (info zeroed by
  // fill), and what the composites compute in the op's dtype (det's permutation sign is
  // int32 / int64 arithmetic on the pivots, which every backend has)
  linalgLuFactorEx: ['fill', 'luFactor'],
  linalgLuFactor: ['fill', 'luFactor'],
  linalgLu: ['fill', 'luFactor', 'luSolve', 'triZero', 'add', 'cat'],
  linalgLuSolve: ['fill', 'luFactor', 'luSolve'],
  linalgSolveTriangular: ['solveTriangular'],
  linalgCholeskyEx: ['fill', 'cholesky'],
  linalgCholesky: ['fill', 'cholesky'],
  linalgInv: ['fill', 'luFactor', 'luSolve'],
  linalgInvEx: ['fill', 'luFactor', 'luSolve'],
  inverse: ['fill', 'luFactor', 'luSolve'],
  linalgSolve: ['fill', 'luFactor', 'luSolve'],
  linalgSolveEx: ['fill', 'luFactor', 'luSolve'],
  linalgDet: ['fill', 'luFactor', 'prod', 'mul'],
  det: ['fill', 'luFactor', 'prod', 'mul'],
  linalgSlogdet: ['fill', 'luFactor', 'prod', 'sign', 'abs', 'log', 'sum', 'mul'],
  slogdet: ['fill', 'luFactor', 'prod', 'sign', 'abs', 'log', 'sum', 'mul'],
  logdet: ['fill', 'luFactor', 'prod', 'sign', 'abs', 'log', 'sum', 'mul', 'ne', 'where'],
  // (A^-n inverts first: linalgInv's kernels, in the float dtypes it takes)
  linalgMatrixPower: ['mm', 'bmm'],
  matrixPower: ['mm', 'bmm'],
  linalgMultiDot: ['mm'],
  linalgVectorNorm: ['vectorNorm'],
  linalgMatrixNorm: ['vectorNorm', 'amax', 'amin'],
  linalgVecdot: ['mul', 'sum'],
  linalgCross: ['mul', 'add', 'cat'],
  // torch.linalg part 2b (Note [The SVD primitive]): the SVD (fill: the identity vectors of
  // empty matrices), and what the composites compute with its results in the op's dtype
  linalgSvd: ['fill', 'svd'],
  linalgSvdvals: ['svd'],
  linalgPinv: ['svd', 'gt', 'reciprocal', 'where', 'mul', 'mm', 'bmm', 'eigh', 'abs', 'amax'],
  pinverse: ['svd', 'gt', 'reciprocal', 'where', 'mul', 'mm', 'bmm'],
  linalgMatrixRank: ['svd', 'gt', 'mul', 'where', 'sum', 'eigh', 'abs', 'amax'],
  linalgCond: ['svd', 'div', 'fill', 'luFactor', 'luSolve', 'vectorNorm', 'amax', 'amin', 'mul', 'where', 'nanToNum'],
  // (its vector norms and 'fro' / 1 / inf take every float dtype; 2, -2 and 'nuc' the SVD's)
  linalgNorm: ['vectorNorm', 'amax', 'amin'],
  // torch.linalg part 2a (Note [The QR, eigh, lstsq and matrix_exp primitives]); matrix_exp
  // exponentiates 16-bit floats in float32
  linalgHouseholderProduct: ['fill', 'householderProduct'],
  orgqr: ['fill', 'householderProduct'],
  linalgQr: ['fill', 'geqrf', 'householderProduct', 'triZero'],
  qr: ['fill', 'geqrf', 'householderProduct', 'triZero'],
  linalgEigh: ['eigh'],
  linalgEigvalsh: ['eigh'],
  linalgLstsq: ['fill', 'lstsq', 'mul', 'sum', 'svd', 'lstsqSvd'],
  linalgMatrixExp: ['matrixExp@opmath'],
  matrixExp: ['matrixExp@opmath'],
  // data movement
  stack: ['cat'],
  hstack: ['cat'],
  vstack: ['cat'],
  repeat: [],
  tile: [],
  roll: [],
  // torch.fft (Note [torch.fft on one complex-to-complex impl]): the fft impl, and the pairs' stack / padding / conjugation
  fftFftshift: [],
  fftIfftshift: [],
  fftFftfreq: ['mul'],
  fftRfftfreq: ['mul'],
  ...Object.fromEntries(
    ['fft', 'ifft', 'rfft', 'irfft', 'hfft', 'ihfft'].flatMap((f) => [f, `${f}2`, `${f}n`]).map((f) => [`fft${f[0].toUpperCase()}${f.slice(1)}`, ['fft', 'cat', 'fill', 'mul']]),
  ),
  triu: ['triZero'],
  tril: ['triZero'],
  pad: ['fill', 'padIndexed'],
  repeatInterleave: ['indexGather'],
  // F.unfold / F.fold (Note [unfold and fold as index_select and index_add]): constant_pad_nd's fill, then the index kernels
  im2col: ['fill', 'indexGather'],
  col2im: ['fill', 'indexScatter.add'],
  // indexing (the scatters by their combining mode: Note [Indexed access kernels] in kernels-webgpu)
  index: ['indexGather'],
  gather: ['indexGather'],
  indexSelect: ['indexGather'],
  take: ['indexGather'],
  maskedSelect: ['indexGather'],
  indexFill: ['indexScatter.set'],
  scatter: ['indexScatter.set'],
  'scatter.add': ['indexScatter.add'],
  'scatter.multiply': ['indexScatter'],
  scatterAdd: ['indexScatter.add'],
  indexAdd: ['indexScatter.add'],
  scatterReduce: ['indexScatter'],
  'scatterReduce.sum': ['indexScatter.add'],
  // (a sum and a count, then div for floats, divFloor for integers: their rows agree on the float dtypes)
  'scatterReduce.mean': ['indexScatter.add', 'fill', 'maximum', 'divFloor'],
  'scatterReduce.prod': ['indexScatter'],
  'scatterReduce.amax': ['indexScatter'],
  'scatterReduce.amin': ['indexScatter'],
  indexPut: ['indexScatter.set'],
  'indexPut.accumulate': ['indexScatter.add'],
  // one bool mask on an async-read backend: where(mask, self + values, self) (Note
  // [Data-dependent sizes on async-read backends])
  'indexPut.maskAccumulate': ['add', 'where'],
  maskedScatter: ['maskedScatterOrdered|indexScatter.set'],
  nonzero: ['nonzeroCountAsync|nonzeroCount', 'nonzeroFill'],
  oneHot: ['fill', 'indexScatter.set'],
  // NN: the fused kernels compute in float32 for the 16-bit floats
  softmax: ['softmax@opmath'],
  logSoftmax: ['softmax@opmath'],
  nllLoss: ['nllLoss@opmath'],
  crossEntropy: ['softmax@opmath', 'nllLoss@opmath'],
  mseLoss: ['pointwiseLoss@opmath'],
  l1Loss: ['add@opmath', 'abs@opmath', 'sum@opmath'],
  smoothL1Loss: ['pointwiseLoss@opmath'],
  binaryCrossEntropy: ['pointwiseLoss@opmath'],
  binaryCrossEntropyWithLogits: ['pointwiseLoss@opmath'],
  batchNorm: ['batchNorm@opmath'],
  layerNorm: ['layerNorm@opmath'],
  groupNorm: ['layerNorm@opmath'],
  dropout: ['randomFill|host', 'div', 'mul'],
  bernoulli: ['bernoulliTensor|host'],
  multinomial: ['multinomial|host'],
  conv1d: ['conv2d@opmath'],
  conv2d: ['conv2d@opmath'],
  convTranspose2d: ['conv2d@opmath'],
  maxPool2d: ['maxPool2d'],
  'maxPool2d.indices': ['maxPool2d'],
  interpolate: ['upsampleNearest2d'],
  'interpolate.bilinear': ['upsampleBilinear2d'],
};

/**
 * An impl (or impl variant) an op calls, and the dtype it runs in (Note [Dtype support is
 * data]): `impl[.variant][@opmath|@bool][|alternative]`. The compiler checks the leading
 * impl name; test/supports.test.ts checks the rest.
 */
export type KernelNeed = `${ImplName}${string}`;

/** Whether `impl` (or `impl.variant`) of backend `b` computes in `dtype`. */
function implSupports(b: Backend, impl: string, dtype: DType): boolean {
  const base = impl.split('.')[0] as ImplName;
  if (typeof b.impls[base] !== 'function') return false;
  const table = b.dtypes;
  if (!table) return true;
  const list = (table as Readonly<Record<string, readonly DType[] | undefined>>)[impl] ?? table[base];
  // (an optional impl's entry may be absent: OptionalImplName)
  return list?.includes(dtype) ?? false;
}

function implemented(b: Backend, need: string): boolean {
  return need === 'host' || typeof b.impls[need.split(/[.@]/)[0] as ImplName] === 'function';
}

function needMet(b: Backend, alternatives: string, dtype: DType): boolean {
  const options = alternatives.split('|');
  const need = options.find((n) => implemented(b, n)) ?? options[0];
  if (need === 'host') return true;
  const [impl, mode] = need.split('@');
  const wide = mode === 'bool' ? 'bool' : mode === 'opmath' && (dtype === 'float16' || dtype === 'bfloat16') ? 'float32' : dtype;
  return implSupports(b, impl, wide) && (wide === dtype || implSupports(b, 'copy', dtype));
}

/**
 * Whether `device` has the kernels to compute `op` in `dtype` (Note [Dtype support is data]):
 * `torch.supports('sort', 'float16', 'webgpu')`. `op` is an operator's API name (`add`,
 * `crossEntropy`), an overload where support differs (`div.trunc`, `scatterReduce.amax`; any
 * other overload, `sub.numberSelf`, is its op), or an impl name of BackendImpls. Throws a TorchError for an unknown op, and for a device
 * whose backend is not registered (import its package, or `await torch.webgpu.init()`).
 */
export function supports(op: string, dtype: DType, device: DeviceLike): boolean {
  const d = parseDType('supports', dtype);
  const dev = toDevice('supports', device);
  const b = backendOf(backendKeyOf(dev.type));
  if (!b) throw new TorchError(`supports: no backend registered for device '${dev.type}'`);
  // (an overload whose support does not differ, `sub.numberSelf`, needs what its op needs)
  const base = op.split('.')[0];
  const needs = OP_KERNELS[op] ?? OP_KERNELS[base] ?? (op in b.impls || base in b.impls ? [op] : undefined);
  if (!needs) throw new TorchError(`supports: unknown op '${op}'`);
  // a complex op runs its Complex-key kernel (or a composite's ops) on the parts' real dtype
  // (core's Note [Complex tensors are pairs of reals])
  if (isComplexType(d)) {
    const complexNeeds = COMPLEX_LINALG_KERNELS[op] ?? COMPLEX_LINALG_KERNELS[base] ?? [];
    return hasComplexKernel(base) && [...needs, ...complexNeeds].every((n) => needMet(b, n, toRealValueType(d)));
  }
  return needs.every((n) => needMet(b, n, d));
}

/**
 * The complex factorizations the linalg functions need besides their real kernels (Note
 * [Complex linalg primitives]); linalg.solve and inv are not here: a backend without them
 * solves by the real embedding (Note [Complex linear solves by the real embedding]).
 */
const COMPLEX_LINALG_KERNELS: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(['linalgLuFactorEx', 'linalgLuFactor', 'linalgDet', 'det', 'linalgSlogdet', 'slogdet', 'logdet'].map((n) => [n, ['luFactorComplex']])),
  linalgLu: ['luFactorComplex', 'luSolveComplex'],
  linalgLuSolve: ['luSolveComplex'],
  linalgSolveTriangular: ['solveTriangularComplex'],
  linalgCholeskyEx: ['choleskyComplex'],
  linalgCholesky: ['choleskyComplex'],
  linalgEigh: ['eighComplex'],
  linalgEigvalsh: ['eighComplex'],
  geqrf: ['geqrfComplex'],
  linalgHouseholderProduct: ['householderProductComplex'],
  orgqr: ['householderProductComplex'],
  linalgQr: ['geqrfComplex', 'householderProductComplex'],
  qr: ['geqrfComplex', 'householderProductComplex'],
  // the SVD family (Note [Complex SVD]); pinv / matrix_rank's hermitian path takes eigh's, cond's
  // 1 / inf / 'fro' the complex LU's
  ...Object.fromEntries(['linalgSvd', 'linalgSvdvals', 'svd', 'pinverse'].map((n) => [n, ['svdComplex']])),
  linalgPinv: ['svdComplex', 'eighComplex'],
  linalgMatrixRank: ['svdComplex', 'eighComplex'],
  linalgCond: ['svdComplex', 'luFactorComplex', 'luSolveComplex'],
  // lstsq and matrix_exp (Note [CPU complex lstsq and matrix_exp])
  linalgLstsq: ['lstsqComplex', 'lstsqSvdComplex', 'svdComplex'],
  linalgMatrixExp: ['matrixExpComplex'],
  matrixExp: ['matrixExpComplex'],
};

/** Whether an operator behind an API name (`indexSelect` is aten::index_select, any overload) computes on complex tensors. */
function hasComplexKernel(apiName: string): boolean {
  const name = apiName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const ops = allOperators().filter((h) => h.schema.name === name || h.schema.name === `${name}_`);
  // (a front end with no operator of its name, `pad` or `square`, composes operators that say for themselves)
  if (ops.length === 0) return true;
  return ops.some((h) => h.kernels[DispatchKey.Complex] !== undefined || h.def.composite !== undefined || (h.def.tags ?? []).includes('view'));
}

/** The dtypes `device` computes `op` in, in DTYPES order. */
export function supportedDtypes(op: string, device: DeviceLike): DType[] {
  return DTYPES.filter((d) => supports(op, d, device));
}
