/**
 * What the OpInfo table cannot match on WebGPU yet, each with its reason (Note [Strict
 * xfails]), expanded here into the harness's xfail keys (`caseId/dtype`, every check of that
 * case):
 *   - a case whose dtype WebGPU has no kernel for: from core's `supports(op, dtype,
 *     'webgpu')`, which answers from the WebGPU backend's dtype table (kernels-webgpu Note
 *     [WebGPU dtype support]) and core's map of what each op calls (core Note [Dtype support
 *     is data]); the case's op name picks the overload where support differs (`kernelOp`);
 *   - `notOnWebgpu`: ops that WebGPU computes in no dtype (an impl opted out of with
 *     `notImplemented`: Note [The WebGPU impl table]): they raise "no kernel for aten::op on
 *     WebGPU";
 *   - DEVIATIONS: single cases that run but differ, with the reason.
 * What stays here is about cases, not dtypes: samples that reach no dtype-specific kernel
 * (empty inputs, constant results) and the index inputs that kernels read themselves.
 * Error cases are never expanded: their errors come from core's meta, before any kernel, or
 * from a kernel at the next read (integer division by zero: Note [Device-side errors]), and
 * must match on WebGPU as on CPU.
 */
import '@torch-ts/kernels-webgpu';
import { DTYPES, type DType } from '@torch-ts/torch';
import { resultType, supports, type Operand } from '@torch-ts/core';
import { caseId, expectedList, isScalarInput, loadOpGoldens, type GoldenCase, type GoldenTensor } from './goldens';
import { layoutApplies } from './inputs';
import { outApplies } from './op-forms';
import type { OpInfo } from './op-info/types';

/** Why a dtype has no WebGPU kernel for an op (the xfail reason). */
const WHY_NOT: Readonly<Record<DType, string>> = {
  float64: 'float64 has no WGSL type: WebGPU kernels raise a DTypeError',
  int64: 'int64 is emulated on WebGPU (Note [int64 on WebGPU]) in the kernels that declare it; this op has no int64 kernel there yet',
  float16: 'float16 is emulated on WebGPU (Note [float16 on WebGPU]) in the kernels that declare it; this op has no float16 kernel there yet',
  bfloat16: 'bfloat16 is emulated on WebGPU (Note [float16 on WebGPU]) in the kernels that declare it; this op has no bfloat16 kernel there yet',
  float32: 'this op has no float32 kernel on WebGPU', int32: 'this op has no int32 kernel on WebGPU', uint8: 'this op has no uint8 kernel on WebGPU',
  bool: 'this op has no bool kernel on WebGPU', int8: 'this op has no int8 kernel on WebGPU', int16: 'this op has no int16 kernel on WebGPU',
  complex64: 'complex64 runs on float32 kernels (core Note [Complex tensors are pairs of reals]); one this op calls has no float32 kernel on WebGPU', complex128: 'complex128 has float64 parts, which have no WGSL type',
};

/** What every xfail reason for a dtype without kernels says (docs/ops.md shows those cells as `n/a`). */
export const unsupportedMark = (d: string, device: string) => `, '${d}', '${device}') is false`;
const unsupportedReason = (op: string, d: DType) => `${WHY_NOT[d]} (supports('${op}'${unsupportedMark(d, 'webgpu')}: kernels-webgpu Note [WebGPU dtype support])`;

/**
 * The op whose support a case needs: the OpInfo name, or the overload its keyword arguments
 * select where the kernels differ (a scatter's combining mode, an accumulating index_put_).
 */
export function kernelOp(opName: string, c: GoldenCase): string {
  const reduce = typeof c.kwargs.reduce === 'string' ? c.kwargs.reduce : undefined;
  if (opName === 'scatter' && reduce) return `scatter.${reduce}`;
  if (opName === 'scatterReduce' && reduce) return `scatterReduce.${reduce}`;
  if (opName === 'indexPut' && c.kwargs.accumulate === true) return c.sample.startsWith('mask') ? 'indexPut.maskAccumulate' : 'indexPut.accumulate';
  if (opName === 'interpolate' && c.kwargs.mode === 'bilinear') return 'interpolate.bilinear';
  return opName;
}

/** Samples that run only some of their op's kernels: einsum's elementwise products and sums run no GEMM. */
const SAMPLE_OPS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  einsum: Object.fromEntries(['outer', 'hadamard', 'trace', 'sum-all', 'ellipsis-sum'].map((s) => [s, ['mul', 'sum']])),
  // (no distance to compute: the empty differences summed, Note [cdist's two paths] in core)
  cdist: Object.fromEntries(['empty-rows', 'zero-cols', 'empty-batch'].map((s) => [s, ['add', 'sum']])),
  // (no matrix to factor: L is the empty LU's triangle plus the identity, P the identity)
  linalgLu: { batch0: ['triZero', 'add'] },
};

/** Joins and copies, which skip empty inputs: nothing of an empty input's dtype is converted. */
const DATA_MOVEMENT_OPS: readonly string[] = ['repeat', 'tile', 'roll', 'pad', 'cat', 'stack', 'hstack', 'vstack', 'flip', 'triu', 'tril'];
/** Ops with index (or mask) tensor inputs, which the WebGPU kernels read themselves. */
const INDEX_INPUT_OPS: readonly string[] = ['repeatInterleave', 'gather', 'indexSelect', 'take', 'indexFill', 'embedding', 'index', 'maskedSelect', 'maskedScatter', 'scatter', 'scatterAdd', 'scatterReduce', 'indexAdd', 'indexPut'];
/**
 * Ops whose case dtype is the one dtype their kernels see: the data's, next to index inputs
 * that are read as they are, or nonzero's input, whose elements are tested bit by bit.
 */
const OWN_DTYPE_OPS: readonly string[] = [...INDEX_INPUT_OPS, 'nonzero'];

/**
 * Samples that run only copies and fills in float16 and bfloat16 (which WebGPU has for both:
 * Note [float16 on WebGPU]), in ops whose own kernels lack one of them: no 16-bit xfail there.
 */
const HALF_FREE_SAMPLES: Readonly<Record<string, readonly string[]>> = {
  var: ['empty-reduced-dim'],
  // (the determinant of no matrix: a product over nothing, no factorization)
  det: ['empty', 'batch0'],
  linalgDet: ['empty', 'batch0'],
  std: ['empty-reduced-dim'],
  varMean: ['empty-reduced-dim'],
  stdMean: ['empty-reduced-dim'],
  logsumexp: ['empty-reduced-dim'],
  norm: ['empty-reduced-dim'],
  dropout: ['p1'],
  // (nothing to count: zeros)
  histc: ['empty', 'empty-range'],
};

/** Ops that run no kernel on integral or bool inputs (a constant result, or a raw copy): no dtype xfail there. */
const CONSTANT_FOR_INTEGRAL: readonly string[] = ['isinf', 'isfinite', 'nanToNum'];

/**
 * Op (OpInfo name) -> why it does not run on WebGPU (Note [The WebGPU impl table]): the ops
 * that `supports` says WebGPU computes in no dtype. They are not run case by case; each gets
 * one strict probe instead (ops-webgpu-suite.ts): some case must still raise the "no kernel
 * ... on WebGPU" (or WebGPU dtype) error.
 */
export function notOnWebgpu(table: readonly OpInfo[]): Record<string, string> {
  return Object.fromEntries(
    table.filter((op) => !DTYPES.some((d) => supports(op.name, d, 'webgpu'))).map((op) => [op.name, `no WebGPU kernel in any dtype (supports('${op.name}', dtype, 'webgpu') is false for all)`]),
  );
}

const ONE_HOT_DEVICE_CHECK =
  "as PyTorch on CUDA, one_hot on WebGPU does not read the class values back to check them: scatter's device-side index check reports the bad value at the next read, with scatter's message";

const HUGE_TRIG =
  'sin/cos/tan of |x| > 2^18 (3e38, 2^31, 1e6 here) use WGSL builtins: without a Payne-Hanek reduction the result differs from C\'s';

const POLE_TRIG =
  'trigamma near a negative integer is pi^2 / sin^2(pi x) with sin(pi x) ~1e-7: the last bits of float32 sine that WGSL computes differ from C\'s, and the result by ~1e-6';

const AIRY_PHASE =
  "deviation (not a bug): Ai(x) below -2.09 oscillates with the phase (2/3)|x|^1.5 + pi/4, which float32 (WebGPU, as PyTorch 2.x's float32 kernel) holds to ~1e-7 relative: at x = -100 and beyond (-1000.5, -2^31, -3e38 here) the sine is off by more than the tolerance; the goldens and the CPU compute the phase in float64";
const F32_LARGE_N =
  "deviation (not a bug): WebGPU evaluates in float32, as PyTorch 2.x's float32 kernel does: cos(n acos x) and the n-step recurrences lose about n ulp at degrees in the hundreds, which the goldens (float64, rounded) and the CPU (doubles) keep";
const F32_OVERFLOW =
  "deviation (not a bug): WebGPU's float32 recurrence overflows as PyTorch 2.x's float32 kernel does (inf, then inf - inf = nan); the goldens and the CPU compute in float64 and round the finite value to ±inf";

/** The polynomial samples where float32 arithmetic departs from the float64 goldens. */
function f32Poly(samples: readonly ('large-n' | 'overflow')[]): Record<string, string> {
  return Object.fromEntries(
    samples.flatMap((s) => {
      const why = s === 'overflow' ? F32_OVERFLOW : F32_LARGE_N;
      return [[`forward@${s}/float32`, why], [`oracle@${s}/float32`, why]];
    }),
  );
}

const COMPLEX_POW_F32 =
  "deviation (not a bug): complex64 pow is exp(w log z) (glibc's cpow) over WebGPU's float32 builtins (log, atan2, exp, cos, sin), which WGSL lets err more than the CPU's float32 kernels: w log z is off by ~1e-6, and exp amplifies that into the result (8900.370 against 8900.332 at an element of magnitude 9e3)";

/** Op -> xfail key (`check@caseId/dtype`) -> reason, for cases that run but cannot match yet. */
export const DEVIATIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  pow: { 'forward@c-same-shape/complex64': COMPLEX_POW_F32, 'oracle@c-same-shape/complex64': COMPLEX_POW_F32 },
  // Note [repeat_interleave without a host read]: negative repeats cannot be seen without a read
  repeatInterleave: Object.fromEntries(
    (['float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int16', 'int32', 'int64', 'bool'] as const).map((d) => [
      `forward@tensor-negative/${d}`,
      "negative repeats are not checked on WebGPU (CPU's check is a synchronous read): they give a wrong index, not the error",
    ]),
  ),
  // core's Note [lstsq by the SVD]: 1.13 returns the SVD drivers' residuals only when every
  // matrix has rank n, a host read of the ranks that WebGPU does not make
  linalgLstsq: Object.fromEntries(
    ['gelsd-rcond', 'gelsd-zero', 'gelsd-batch-deficient', 'gelss-rcond', 'gelss-zero', 'gelss-batch-deficient', 'gelss-rcond-big'].flatMap((c) =>
      [`forward@${c}/float32`, `oracle@${c}/float32`].map((k) => [
        k,
        'a tall matrix of rank < n: WebGPU computes the residuals (|A x - b|^2 of the returned solution) where 1.13 and the CPU return an empty tensor, as the ranks are not read on the host',
      ]),
    ),
  ),
  oneHot: {
    'forward@too-small/int64': ONE_HOT_DEVICE_CHECK,
    'forward@negative/int64': ONE_HOT_DEVICE_CHECK,
  },
  sin: trig(['edge/float32', 'edge/int32', 'edge/int64', 'edge/bfloat16']),
  cos: trig(['edge/float32', 'edge/int32', 'edge/int64', 'edge/bfloat16']),
  tan: trig(['edge/float32', 'edge/int32', 'edge/int64', 'domain/float32', 'edge/bfloat16', 'domain/bfloat16']),
  // trigamma's reflection pi^2 / sin^2(pi x): sin of a huge float32 pi * x, or of one a rounding away from a multiple of pi
  polygamma: {
    ...trig(['edge/int32', 'edge/int64']),
    'forward@random/int32': POLE_TRIG,
    'oracle@random/int32': POLE_TRIG,
  },
  // Hankel's expansion of J and Y at a huge x: the cosine of its phase
  specialBesselJ0: trig(['edge/int32']),
  specialBesselJ1: trig(['edge/int32']),
  specialBesselY0: trig(['edge/int32']),
  specialBesselY1: trig(['edge/int32']),
  // torch.special's 2.x functions in float32 (kernels-webgpu Note [Orthogonal polynomials in WGSL])
  specialAiryAi: Object.fromEntries(
    ['edge/float32', 'edge/int16', 'edge/int32', 'edge/int64', 'domain/float32'].flatMap((c) => [[`forward@${c}`, AIRY_PHASE], [`oracle@${c}`, AIRY_PHASE]]),
  ),
  specialChebyshevPolynomialT: f32Poly(['large-n', 'overflow']),
  specialChebyshevPolynomialU: f32Poly(['large-n', 'overflow']),
  specialChebyshevPolynomialV: f32Poly(['large-n', 'overflow']),
  specialChebyshevPolynomialW: f32Poly(['large-n', 'overflow']),
  specialShiftedChebyshevPolynomialT: f32Poly(['large-n', 'overflow']),
  specialShiftedChebyshevPolynomialU: f32Poly(['large-n', 'overflow']),
  specialShiftedChebyshevPolynomialV: f32Poly(['large-n', 'overflow']),
  specialShiftedChebyshevPolynomialW: f32Poly(['large-n', 'overflow']),
  specialHermitePolynomialH: f32Poly(['overflow']),
  specialHermitePolynomialHe: f32Poly(['overflow']),
  specialLaguerrePolynomialL: f32Poly(['large-n', 'overflow']),
  specialLegendrePolynomialP: f32Poly(['overflow']),
  // core's Note [Checking info without a device read]: the raising forms do not read info on WebGPU
  linalgInv: noInfoCheck(['singular', 'batch-singular']),
  inverse: noInfoCheck(['singular', 'batch-singular']),
  linalgSolve: noInfoCheck(['singular']),
  linalgCholesky: noInfoCheck(['not-pd', 'batch-not-pd']),
  // PyTorch checks q's range on the CPU only, so as not to wait for an accelerator: so does torch-ts
  quantile: quantileRange(),
  nanquantile: quantileRange(),
  histc: unreadRange('histc', ['float32', 'float64', 'bfloat16'], []),
  histogram: unreadRange('histogram', ['float32', 'float64'], ['edges-data-range:7', 'edges-data-range:13', 'edges-data-range:15', 'edges-data-range:40']),
  scatterReduce: {
    'error-input@an out-of-range index (scatter_reduce)':
      'the error input reduces int64 data with amax: int64 scatters on WebGPU add only (a 64-bit compare-exchange is not in WGSL), so the DTypeError comes first',
  },
};


function noInfoCheck(samples: readonly string[]): Record<string, string> {
  const why =
    "a failed factorization raises no LinAlgError on WebGPU (core's Note [Checking info without a device read]: reading info is a sync, which torch-ts never makes behind a call; the _ex forms return info to read): the result holds inf / NaN or a partial factor";
  return Object.fromEntries(samples.map((s) => [`forward@${s}/float32`, why]));
}

function quantileRange(): Record<string, string> {
  const why = "q's range is not checked on WebGPU (as PyTorch checks it on the CPU only: the check would be a synchronous read); an out-of-range q gives no error";
  return { 'forward@q-tensor-out-of-range/float32': why, 'forward@q-tensor-out-of-range/float64': why };
}

/**
 * Note [bincount, histc and histogram are composites] in core: on WebGPU a range taken from the
 * data is not read, so a non-finite one is not refused (in float64 and bfloat16 the first
 * kernel's DTypeError comes first, naming that kernel), and the edges between its min and max
 * are computed on the device, where some differ from the CPU's in their last bit: the
 * `onEdges` samples put elements exactly on the CPU's edges and one ulp beside them.
 */
function unreadRange(op: string, dtypes: readonly DType[], onEdges: readonly string[]): Record<string, string> {
  const finite = `${op} on WebGPU does not read the data's range (a synchronous read): a non-finite one gives no error`;
  const edges = `${op} on WebGPU computes the edges between the data's min and max on the device, some a bit off the CPU's (no fused multiply-add); these elements lie exactly on the CPU's edges`;
  return {
    ...Object.fromEntries(dtypes.map((d) => [`forward@inf-data/${d}`, finite])),
    ...Object.fromEntries(onEdges.flatMap((c) => [`forward@${c}/float32`, `oracle@${c}/float32`].map((k) => [k, edges]))),
  };
}

function trig(cases: readonly string[]): Record<string, string> {
  return Object.fromEntries(cases.flatMap((c) => [[`forward@${c}`, HUGE_TRIG], [`oracle@${c}`, HUGE_TRIG]]));
}

/**
 * Samples whose result core makes without a dtype-specific kernel (a fill or a raw copy,
 * which WebGPU has for every dtype), so they pass in every dtype.
 */
const DTYPE_FREE_SAMPLES: Readonly<Record<string, readonly string[]>> = {
  dropout: ['eval'],
  einsum: ['diag', 'transpose'],
  sort: ['0d', 'empty'],
  argsort: ['0d', 'empty'],
  unique: ['empty'],
  topk: ['k0', '0d'],
  mode: ['0dim', 'empty-kept-dim'],
  median: ['0dim-dim', 'empty-kept-dim'],
  nanmedian: ['0dim-dim', 'empty-kept-dim'],
  logcumsumexp: ['empty'],
  searchsorted: ['empty-values'],
  clamp: ['scalar-nan'],
  clampMin: ['scalar-nan'],
  clampMax: ['scalar-nan'],
  clip: ['scalar-nan'],
  max: ['0dim-dim'],
  min: ['0dim-dim'],
  argmax: ['0dim-dim'],
  argmin: ['0dim-dim'],
  conv2d: ['empty-batch'],
  softmax: ['empty'],
  logSoftmax: ['empty'],
  scatterAdd: ['empty-index'],
  indexAdd: ['empty-index'],
  col2im: ['batch0'],
  // (n = 0, or nothing to difference: a copy of the input)
  diff: ['n0', 'empty'],
  // empty matrices: the factorizations return before their kernels (as PyTorch's), and the
  // composites have nothing to solve; matrix_power's n = 0 is the identity, n = 1 a copy
  ...Object.fromEntries(['linalgLuFactorEx', 'linalgLuFactor', 'linalgCholeskyEx', 'linalgCholesky', 'linalgInv', 'linalgInvEx', 'inverse'].map((op) => [op, ['empty', 'batch0']])),
  linalgSolveTriangular: ['batch0'],
  linalgLuSolve: ['k0'],
  linalgSolve: ['empty'],
  linalgSolveEx: ['empty'],
  linalgMatrixPower: ['n0', 'n1'],
  matrixPower: ['n0', 'n1'],
  // (the SVD of empty matrices: core fills the results, the identity for full_matrices; cond's are zeros)
  linalgSvd: ['empty', 'm0-full', 'n0-full', 'm0-thin', 'batch0'],
  linalgSvdvals: ['empty', 'n0', 'batch0'],
  svd: ['empty'],
  linalgCond: ['empty', 'batch0-one'],
  linalgMatrixRank: ['empty', 'batch0'],
  // torch.linalg part 2a: empty matrices reach no kernel (an empty Q or R is only allocated)
  geqrf: ['batch0', 'cols0', 'empty', 'rows0'],
  linalgQr: ['batch0', 'batch0-complete', 'batch0-r', 'cols0', 'cols0-r', 'empty', 'empty-complete', 'empty-r', 'rows0', 'rows0-complete', 'rows0-r'],
  linalgHouseholderProduct: ['batch0'],
  orgqr: ['batch0'],
  linalgEigh: ['batch0', 'batch0-upper', 'empty', 'empty-upper'],
  linalgEigvalsh: ['batch0', 'batch0-upper', 'empty', 'empty-upper'],
  linalgMatrixExp: ['batch0', 'empty'],
  linalgLstsq: ['batch0', 'k0', 'rows0', 'gelsd-rows0', 'gelsd-batch0', 'gelss-rows0', 'gelss-batch0'],
  matrixExp: ['batch0', 'empty'],
};

/** Ops whose int64 results are indices, written by the arg-reduction kernel (no int64 arithmetic). */
const INDEX_RESULT_OPS: readonly string[] = ['argmax', 'argmin', 'max', 'min', 'maxPool2d.indices', 'sort', 'argsort', 'topk', 'median', 'mode', 'cummax', 'cummin', 'searchsorted', 'bucketize', 'multinomial', 'unique'];

/**
 * Factorizations whose int32 results (pivots, info) their kernels write themselves (core Note
 * [The linalg primitives]), and lstsq, whose int64 rank is its kernel's int32 one cast by the
 * copy kernel: they compute in the input's dtype.
 */
const LINALG_INFO_OPS: readonly string[] = ['linalgLuFactorEx', 'linalgLuFactor', 'linalgCholeskyEx', 'linalgInvEx', 'linalgSolveEx', 'linalgLstsq'];

/** Ops whose int64 result is a count of a bool mask (sum of comparisons: matrix_rank), computed in the input's dtype up to the mask. */
const COUNT_RESULT_OPS: readonly string[] = ['linalgMatrixRank'];

/** Samples whose result core makes with a cast copy alone (median of nothing: NaN cast to the dtype): they run wherever the device casts. */
const CAST_ONLY_SAMPLES: Readonly<Record<string, readonly string[]>> = { median: ['empty-all'], nanmedian: ['empty-all'] };

/** Whether WebGPU converts to and from `d` (its copy kernel's dtypes; a same-dtype copy is raw, for every dtype). */
const castsOnDevice = (d: DType) => supports('copy', d, 'webgpu');

/**
 * The dtype a case cannot run in on WebGPU, if any: an input WebGPU cannot even cast, the
 * result's dtype, or the dtype the kernel computes in (a comparison of int64 tensors
 * computes in int64 though its result is bool).
 */
export function unsupportedDtypeOf(c: GoldenCase, opName: string): DType | null {
  // (cat skips empty inputs: nothing of their dtype is converted)
  const tensors = c.inputs.filter((x): x is GoldenTensor => !isScalarInput(x) && !(DATA_MOVEMENT_OPS.includes(opName) && x.shape.some((n) => n === 0)));
  const results = expectedList(c) ?? [];
  // (an input in the result's dtype is not converted; one in another dtype is, to the result's)
  const to = results[0]?.dtype;
  const converted = tensors.filter((t) => t.dtype !== to);
  const bad = converted.find((t) => !castsOnDevice(t.dtype))?.dtype ?? (to !== undefined && converted.length > 0 && !castsOnDevice(to) ? to : undefined);
  if (bad) return bad;
  const ops = SAMPLE_OPS[opName]?.[c.sample] ?? [kernelOp(opName, c)];
  const supported: readonly DType[] = DTYPES.filter((d) => ops.every((o) => supports(o, d, 'webgpu')));
  if (INDEX_RESULT_OPS.includes(opName) || LINALG_INFO_OPS.includes(opName) || COUNT_RESULT_OPS.includes(opName)) {
    // The kernel runs in the input's dtype and writes int64 indices itself.
    // (searchsorted's third input, the sorter, is an int64 index its kernel reads itself)
    const data = opName === 'searchsorted' ? tensors.slice(0, 2) : tensors;
    return data.find((t) => !supported.includes(t.dtype))?.dtype ?? null;
  }
  const badResult = results.find((r) => !supported.includes(r.dtype));
  if (badResult) return badResult.dtype;
  // (an indexing op's int64 index tensors are not a compute dtype)
  if (results.length > 0 && results[0].dtype === 'bool' && tensors.length > 0 && !INDEX_INPUT_OPS.includes(opName)) {
    const operands: Operand[] = c.inputs.map((x) => (isScalarInput(x) ? scalarOperand(x.scalar) : { dtype: x.dtype, shape: x.shape }));
    const compute = resultType('webgpu xfails', operands);
    if (!supported.includes(compute)) return compute;
  }
  return null;
}

function scalarOperand(v: number | boolean | string): number | boolean {
  return typeof v === 'string' ? Number.NaN : v;
}

/** The harness's xfail keys for `table`; every name in the lists must be an op of `allOps` (typos fail). */
export function webgpuXfails(table: readonly OpInfo[], allOps: readonly OpInfo[] = table): Record<string, Record<string, string>> {
  const goldens = loadOpGoldens();
  const names = new Set(allOps.map((op) => op.name));
  for (const name of Object.keys(DEVIATIONS)) {
    if (!names.has(name)) throw new Error(`webgpu xfails: '${name}' is not an op of the OpInfo table`);
  }
  const out: Record<string, Record<string, string>> = {};
  for (const op of table) {
    const keys: Record<string, string> = { ...DEVIATIONS[op.name] };
    for (const c of goldens.get(op.name) ?? []) {
      const id = `${caseId(c)}/${c.dtype}`;
      // (in a dtype WebGPU lacks, the DTypeError naming the op comes first and is accepted;
      // an integer division by zero surfaces at the next read: Note [Device-side errors])
      if (c.error) continue;
      const integralInput = c.inputs.some((x) => !isScalarInput(x) && !['float32', 'float64', 'float16', 'bfloat16', 'complex64', 'complex128'].includes(x.dtype));
      if (CONSTANT_FOR_INTEGRAL.includes(op.name) && integralInput) continue;
      if ((c.dtype === 'float16' || c.dtype === 'bfloat16') && HALF_FREE_SAMPLES[op.name]?.includes(c.sample)) continue;
      if (DTYPE_FREE_SAMPLES[op.name]?.includes(c.sample)) continue;
      if (CAST_ONLY_SAMPLES[op.name]?.includes(c.sample) && castsOnDevice(c.dtype)) continue;
      // (ops that move elements with the index inputs their kernels read themselves: the
      // case's dtype is the data's; the index tensors are not converted)
      const own = OWN_DTYPE_OPS.includes(op.name);
      const bad = own ? (supports(kernelOp(op.name, c), c.dtype, 'webgpu') ? null : c.dtype) : unsupportedDtypeOf(c, op.name);
      if (!bad) continue;
      const reason = unsupportedReason(kernelOp(op.name, c), bad);
      // The checks run-op-info.ts declares for a case without an error; an in-place form
      // that PyTorch rejects fails in core's meta, before any kernel, so it is not listed.
      const checks = ['forward', 'oracle'];
      if (op.variants.method) checks.push('method');
      if (outApplies(op, c)) checks.push('out');
      if (layoutApplies(c, 'strided')) checks.push('noncontig');
      if (op.variants.inplace && c.inplace === 'ok') checks.push('inplace');
      for (const check of checks) keys[`${check}@${id}`] = reason;
    }
    if (Object.keys(keys).length) out[op.name] = keys;
  }
  return out;
}

/**
 * Gradient samples (`op/caseId`, or a whole op) whose float32 gradients on WebGPU cannot
 * match CPU's yet, with the reason (test/grads-webgpu-suite.ts; strict).
 */
export const GRAD_XFAILS_WEBGPU: Readonly<Record<string, string>> = {
  'softmax/dtype': 'the sample casts to float64 first ({ dtype: float64 }), which WebGPU lacks',
  'logSoftmax/dtype': 'the sample casts to float64 first ({ dtype: float64 }), which WebGPU lacks',
  'sum/dtype-float64': 'the sample reduces into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'sum/dtype-same': 'the sample reduces into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'mean/dtype-float64': 'the sample reduces into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'nansum/dtype-float64': 'the sample reduces into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'nanmean/dtype-float64': 'the sample reduces into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'prod/dtype-float64': 'the sample reduces into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'norm/dtype-float64': 'the sample reduces into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'cumsum/dtype-float64': 'the sample scans into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'cumsum/dtype-same': 'the sample scans into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'cumprod/dtype-float64': 'the sample scans into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'cumprod/dtype-same': 'the sample scans into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
};

/**
 * Ops (OpInfo names) whose vmap on WebGPU cannot match the CPU loop yet, with the reason
 * (test/ops-webgpu-sweeps.ts, Note [The vmap sweep]; strict: a listed op that passes fails
 * the run).
 */
const VMAP_UNREAD_RANGE =
  "WebGPU does not read the data's range on the host (DEVIATIONS' unreadRange), so there is no data-dependent read for vmap to refuse with functorch's message: vmap runs the per-sample fallback instead (not in STILL_LOOPED)";
const VMAP_F32_POLY =
  "deviation (not a bug): with only the first input mapped, WebGPU's float32 recurrence differs from the CPU loop's (double inside) by ~3e-6 relative at large values, as in DEVIATIONS' f32Poly";
export const VMAP_XFAILS_WEBGPU: Readonly<Record<string, string>> = {
  histc: VMAP_UNREAD_RANGE,
  histogram: VMAP_UNREAD_RANGE,
  specialShiftedChebyshevPolynomialW: VMAP_F32_POLY,
  specialHermitePolynomialH: VMAP_F32_POLY,
  maskedSelect:
    "vmap over self with an unbatched mask (the 'first' variant): the result's length is the mask's count, which the rule reads on the host; WebGPU refuses that synchronous read (the sync masked_select raises, naming maskedSelectAsync), and vmap has no async form",
};

/**
 * Ops (OpInfo names) whose forward-AD tangent on WebGPU cannot match the CPU's yet, with the
 * reason (test/ops-webgpu-sweeps.ts, Note [The forward-AD sweep]; strict).
 */
export const JVP_XFAILS_WEBGPU: Readonly<Record<string, string>> = {};
