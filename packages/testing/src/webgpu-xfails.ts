/**
 * What the OpInfo table cannot match on WebGPU yet, each with its reason (Note [Strict
 * xfails]). Two lists, expanded here into the harness's xfail keys (`caseId/dtype`, every
 * check of that case):
 *   - UNSUPPORTED_DTYPES: a case that involves one of them (an input, the case dtype or the
 *     result) cannot run: WebGPU kernels exist for float32, int32, uint8, bool, int8 and
 *     int16 (Note [int8 and int16 on WebGPU] in kernels-webgpu), int64
 *     for the ops of INT64_OPS, float16 for those of FLOAT16_OPS and bfloat16 for those of
 *     BFLOAT16_OPS (Note [WebGPU dtypes] in kernels-webgpu);
 *   - NOT_ON_WEBGPU: ops whose impls the WebGPU table lacks (Note [A partial WebGPU impl
 *     table]): they raise "no kernel for aten::op on WebGPU".
 *   - DEVIATIONS: single cases that run but differ, with the reason.
 * Error cases are never expanded: their errors come from core's meta, before any kernel, or
 * from a kernel at the next read (integer division by zero: Note [Device-side errors]), and
 * must match on WebGPU as on CPU.
 */
import type { DType } from '@torch-ts/torch';
import { resultType, type Operand } from '@torch-ts/core';
import { caseId, isScalarInput, loadOpGoldens, type GoldenCase, type GoldenTensor } from './goldens';
import { layoutApplies } from './inputs';
import { outApplies } from './op-forms';
import type { OpInfo } from './op-info/types';

export const WEBGPU_DTYPES: readonly DType[] = ['float32', 'int32', 'uint8', 'bool', 'int8', 'int16'];

export const UNSUPPORTED_DTYPES: Readonly<Partial<Record<DType, string>>> = {
  float64: 'float64 has no WGSL type: WebGPU kernels raise a DTypeError (issue 5)',
  int64: 'int64 is emulated on WebGPU for copies, casts and the pointwise ops (INT64_OPS) only; this op has no int64 kernel there yet',
  float16: 'float16 is emulated on WebGPU (Note [float16 on WebGPU]) for copies, casts and the ops of FLOAT16_OPS only; this op has no float16 kernel there yet',
  bfloat16: 'bfloat16 is emulated on WebGPU (Note [float16 on WebGPU]) for copies, casts and the ops of BFLOAT16_OPS only; this op has no bfloat16 kernel there yet',
};

/**
 * OpInfo ops whose int64 cases run on WebGPU: their kernels emulate int64 with two 32-bit
 * words (Note [int64 on WebGPU] in kernels-webgpu: the pointwise table, and composites made
 * only of it). Other ops keep the int64 xfail of UNSUPPORTED_DTYPES.
 */
const INT64_OPS: readonly string[] = [
  'oneHot',
  'add', 'sub', 'mul', 'div.trunc', 'div.floor', 'floorDivide', 'pow', 'remainder', 'fmod', 'square',
  'maximum', 'minimum', 'fmax', 'fmin', 'clamp', 'clamp.min', 'clamp.max', 'clampMin', 'clampMax', 'clip', 'hardtanh', 'relu6',
  'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'isnan', 'neg', 'abs', 'relu', 'sign', 'floor', 'ceil', 'trunc', 'round',
  'where', 'maskedFill', 'addcmul', 'outer',
  'logicalNot', 'logicalAnd', 'logicalOr', 'logicalXor', 'bitwiseNot', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor',
  // the reductions (kernels-webgpu reduce.ts, Note [int64 in reductions]; all/any cast int64 to bool)
  'sum', 'prod', 'amax', 'amin', 'argmax', 'argmin', 'max', 'min', 'countNonzero', 'all', 'any',
  // data movement that converts to int64 with the copy kernel (join-sort-scan)
  'cat', 'stack', 'hstack', 'vstack', 'cumsum', 'cumprod',
  // int64 keys and values (kernels-webgpu sort.ts, scan.ts)
  'sort', 'argsort', 'topk', 'median', 'mode', 'cummax', 'cummin', 'searchsorted', 'bucketize', 'unique',
  // scatters that add (kernels-webgpu Note [Indexed access kernels]: int64 'add' only)
  'scatterAdd', 'indexAdd',
];

/**
 * OpInfo ops whose float16 cases run on WebGPU (Note [float16 on WebGPU] in kernels-webgpu:
 * halves stored 2 per word, widened exactly, computed in float32 and rounded once on store,
 * as PyTorch's CPU computes half): the pointwise table, the reductions, matmul, the copy
 * kernel that widens 16-bit inputs of the NN kernels to float32, and composites of those.
 */
const FLOAT16_OPS: readonly string[] = [
  // the pointwise table (kernels-webgpu pointwise-ops.ts) and its composites
  'add', 'sub', 'mul', 'div', 'div.trunc', 'div.floor', 'trueDivide', 'floorDivide', 'pow', 'remainder', 'maximum', 'minimum',
  'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'neg', 'abs', 'relu', 'floor', 'ceil', 'exp', 'log', 'sqrt', 'sin', 'cos', 'tanh', 'sigmoid',
  'rsqrt', 'reciprocal', 'square', 'sign', 'trunc', 'frac', 'exp2', 'expm1', 'log2', 'log10', 'log1p', 'tan', 'asin', 'acos', 'atan',
  'sinh', 'cosh', 'asinh', 'acosh', 'atanh', 'erf', 'erfc', 'erfinv', 'where',
  'isnan', 'isinf', 'isfinite', 'addcmul', 'addcdiv', 'lerp', 'fmod', 'atan2', 'hypot', 'fmax', 'fmin',
  'clamp', 'clamp.min', 'clamp.max', 'clampMin', 'clampMax', 'clip', 'nanToNum', 'round',
  'logicalNot', 'logicalAnd', 'logicalOr', 'logicalXor', 'maskedFill',
  'leakyRelu', 'elu', 'selu', 'relu6', 'hardtanh', 'gelu', 'silu', 'mish', 'softplus', 'hardsigmoid', 'hardswish', 'logit',
  // the reductions (f32 accumulation, one rounding)
  'sum', 'mean', 'prod', 'amax', 'amin', 'max', 'min', 'argmax', 'argmin', 'all', 'any', 'countNonzero',
  // the row statistics (kernels-webgpu stats.ts; core hands them float32, widening 16-bit inputs)
  'var', 'std', 'varMean', 'stdMean', 'logsumexp', 'norm',
  // matmul (f32 accumulation, rounding on store) and its composites
  'mm', 'bmm', 'mv', 'dot', 'matmul', 'addmm', 'baddbmm', 'outer', 'einsum', 'tensordot', 'linear',
  // data movement that converts with the copy kernel
  'cat', 'stack', 'hstack', 'vstack',
  // sorts, selections and scans (kernels-webgpu sort.ts, scan.ts: half keys widened exactly; scans accumulate in f32)
  'sort', 'argsort', 'topk', 'median', 'mode', 'cummax', 'cummin', 'cumsum', 'cumprod', 'searchsorted', 'bucketize', 'unique',
  // NN kernels core hands float32 (16-bit inputs widened by the copy kernel, results rounded back)
  'softmax', 'logSoftmax', 'nllLoss', 'crossEntropy', 'mseLoss', 'l1Loss', 'smoothL1Loss', 'binaryCrossEntropy',
  'binaryCrossEntropyWithLogits', 'batchNorm', 'layerNorm', 'groupNorm', 'dropout',
  // random draws (kernels-webgpu random.ts store float16 as the other kernels do)
  'bernoulli',
  'conv1d', 'conv2d', 'convTranspose2d',
  // pooling and interpolation (kernels-webgpu pooling.ts, resample.ts: f32 compute, one rounding on store)
  'maxPool2d', 'maxPool2d.indices', 'avgPool2d', 'adaptiveAvgPool2d', 'interpolate',
];

/**
 * OpInfo ops whose bfloat16 cases run on WebGPU: the same emulation as float16 (Note [float16
 * on WebGPU]: bfloat16 is the top half of a float32, rounded to nearest even on store), in the
 * kernels that opt in to bfloat16 (`kindOf(op, dtype, _, 'bf16')`): the pointwise table, the
 * reductions, matmul, and the copy kernel that widens 16-bit inputs of the NN kernels.
 */
const BFLOAT16_OPS: readonly string[] = [
  'add', 'sub', 'mul', 'div', 'div.trunc', 'div.floor', 'trueDivide', 'floorDivide', 'pow', 'remainder', 'maximum', 'minimum',
  'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'neg', 'abs', 'relu', 'floor', 'ceil', 'exp', 'log', 'sqrt', 'sin', 'cos', 'tanh', 'sigmoid',
  'rsqrt', 'reciprocal', 'square', 'sign', 'trunc', 'frac', 'exp2', 'expm1', 'log2', 'log10', 'log1p', 'tan', 'asin', 'acos', 'atan',
  'sinh', 'cosh', 'asinh', 'acosh', 'atanh', 'erf', 'erfc', 'erfinv', 'where', 'dropout', 'bernoulli',
  'isnan', 'isinf', 'isfinite', 'addcmul', 'addcdiv', 'lerp', 'fmod', 'atan2', 'hypot', 'fmax', 'fmin',
  'clamp', 'clamp.min', 'clamp.max', 'clampMin', 'clampMax', 'clip', 'nanToNum', 'round',
  'logicalNot', 'logicalAnd', 'logicalOr', 'logicalXor', 'maskedFill',
  'leakyRelu', 'elu', 'selu', 'relu6', 'hardtanh', 'gelu', 'silu', 'mish', 'softplus', 'hardsigmoid', 'hardswish', 'logit',
  'sum', 'mean', 'prod', 'amax', 'amin', 'max', 'min', 'argmax', 'argmin', 'all', 'any', 'countNonzero',
  'mm', 'bmm', 'mv', 'dot', 'matmul', 'addmm', 'baddbmm', 'outer', 'einsum', 'tensordot', 'linear',
  'cat', 'stack', 'hstack', 'vstack',
  'softmax', 'logSoftmax', 'nllLoss', 'crossEntropy', 'mseLoss', 'l1Loss', 'smoothL1Loss', 'binaryCrossEntropy',
  'binaryCrossEntropyWithLogits', 'batchNorm', 'layerNorm', 'groupNorm', 'conv1d', 'conv2d', 'convTranspose2d',
  // pooling and interpolation (kernels-webgpu pooling.ts, resample.ts: f32 compute, one rounding on store)
  'maxPool2d', 'maxPool2d.indices', 'avgPool2d', 'adaptiveAvgPool2d', 'interpolate',
];

/** Whether WebGPU has kernels for `dtype` in op `opName` (for docs: int64 only for INT64_OPS, float16 for FLOAT16_OPS, bfloat16 for BFLOAT16_OPS). */
export function webgpuRunsDtype(opName: string, dtype: DType): boolean {
  return (
    WEBGPU_DTYPES.includes(dtype) ||
    (dtype === 'int64' && INT64_OPS.includes(opName)) ||
    (dtype === 'float16' && FLOAT16_OPS.includes(opName)) ||
    (dtype === 'bfloat16' && BFLOAT16_OPS.includes(opName))
  );
}

/** Samples of other ops whose int64 cases (inputs or results) run only INT64_OPS kernels: einsum's elementwise products and sums. */
const INT64_SAMPLES: Readonly<Record<string, readonly string[]>> = {
  einsum: ['outer', 'hadamard', 'trace', 'sum-all', 'ellipsis-sum'],
};

/** Pure data movement (raw copies, which WebGPU has for every dtype): no dtype xfail at all. */
const DATA_MOVEMENT_OPS: readonly string[] = ['repeat', 'tile', 'roll', 'pad', 'cat', 'stack', 'hstack', 'vstack', 'flip', 'triu', 'tril'];
/** Indexing ops that move raw element bits on WebGPU (Note [Indexed access kernels]); scatter without `reduce` too. */
const INDEXED_MOVEMENT_OPS: readonly string[] = ['repeatInterleave', 'gather', 'indexSelect', 'take', 'indexFill', 'embedding', 'index', 'maskedSelect', 'maskedScatter'];
/** nonzero tests each element's bits by width (NaN counts, -0 does not) and writes int64 positions: every dtype runs. */
const BITWISE_TEST_OPS: readonly string[] = ['nonzero'];
/** Ops with int64 index tensor inputs, which the WebGPU kernels read themselves. */
const INDEX_INPUT_OPS: readonly string[] = [...INDEXED_MOVEMENT_OPS, 'scatter', 'scatterAdd', 'scatterReduce', 'indexAdd', 'indexPut', 'maskedScatter'];

/**
 * Samples that run only copies and fills in float16 and bfloat16 (which WebGPU has for both:
 * Note [float16 on WebGPU]), in ops whose own kernels lack one of them: no 16-bit xfail there.
 */
const HALF_FREE_SAMPLES: Readonly<Record<string, readonly string[]>> = {
  var: ['empty-reduced-dim'],
  std: ['empty-reduced-dim'],
  varMean: ['empty-reduced-dim'],
  stdMean: ['empty-reduced-dim'],
  logsumexp: ['empty-reduced-dim'],
  norm: ['empty-reduced-dim'],
  dropout: ['p1'],
};

/** Ops that run no kernel on integral or bool inputs (a constant result, or a raw copy): no dtype xfail there. */
const CONSTANT_FOR_INTEGRAL: readonly string[] = ['isinf', 'isfinite', 'nanToNum'];

/**
 * Op (OpInfo name) -> why it does not run on WebGPU yet (Note [A partial WebGPU impl table]).
 * These ops are not run case by case; each gets one strict probe instead: some case in a
 * WebGPU dtype must still raise the "no kernel ... on WebGPU" (or WebGPU dtype) error, so
 * the entry fails the run once the op works and must then be removed.
 */
export const NOT_ON_WEBGPU: Readonly<Record<string, string>> = {
};

const ONE_HOT_DEVICE_CHECK =
  "as PyTorch on CUDA, one_hot on WebGPU does not read the class values back to check them: scatter's device-side index check reports the bad value at the next read, with scatter's message";

const HUGE_TRIG =
  'sin/cos/tan of |x| > 8192 (3e38, 2^31, 1e6 here; 60000 in float16, 32767 in int16) use WGSL builtins: without a Payne-Hanek reduction the result differs from C\'s';

/** Op -> xfail key (`check@caseId/dtype`) -> reason, for cases that run but cannot match yet. */
export const DEVIATIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // Note [repeat_interleave without a host read]: negative repeats cannot be seen without a read
  repeatInterleave: Object.fromEntries(
    (['float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int16', 'int32', 'int64', 'bool'] as const).map((d) => [
      `forward@tensor-negative/${d}`,
      "negative repeats are not checked on WebGPU (CPU's check is a synchronous read): they give a wrong index, not the error",
    ]),
  ),
  oneHot: {
    'forward@too-small/int64': ONE_HOT_DEVICE_CHECK,
    'forward@negative/int64': ONE_HOT_DEVICE_CHECK,
  },
  sin: trig(['edge/float32', 'edge/int32', 'edge/int16', 'edge/int64', 'edge/float16', 'edge/bfloat16']),
  cos: trig(['edge/float32', 'edge/int32', 'edge/int16', 'edge/int64', 'edge/float16', 'edge/bfloat16']),
  tan: trig(['edge/float32', 'edge/int32', 'edge/int16', 'edge/int64', 'domain/float32', 'edge/float16', 'edge/bfloat16', 'domain/bfloat16']),
  scatterReduce: {
    'error-input@an out-of-range index (scatter_reduce)':
      'the error input reduces int64 data with amax: int64 scatters on WebGPU add only (a 64-bit compare-exchange is not in WGSL), so the DTypeError comes first',
  },
};


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
};

/** Ops whose int64 results are indices, written by the arg-reduction kernel (no int64 arithmetic). */
const INDEX_RESULT_OPS: readonly string[] = ['argmax', 'argmin', 'max', 'min', 'maxPool2d.indices', 'sort', 'argsort', 'topk', 'median', 'mode', 'cummax', 'cummin', 'searchsorted', 'bucketize', 'multinomial', 'unique'];

/** Samples whose result core makes with a cast copy alone (median of nothing: NaN cast to the dtype): they run wherever the device casts. */
const CAST_ONLY_SAMPLES: Readonly<Record<string, readonly string[]>> = { median: ['empty-all'] };

/** Dtypes WebGPU can hold but not convert on the device (copy/cast kernels exist for int64, float16 and bfloat16). */
const NO_DEVICE_CAST: readonly DType[] = ['float64'];

/**
 * The dtype a case cannot run in on WebGPU, if any: an input WebGPU cannot even cast, the
 * result's dtype, or the dtype the kernel computes in (a comparison of int64 tensors
 * computes in int64 though its result is bool).
 */
export function unsupportedDtypeOf(c: GoldenCase, opName: string): DType | null {
  // (cat skips empty inputs: nothing of their dtype is converted)
  const tensors = c.inputs.filter((x): x is GoldenTensor => !isScalarInput(x) && !(DATA_MOVEMENT_OPS.includes(opName) && x.shape.some((n) => n === 0)));
  const bad = tensors.find((t) => NO_DEVICE_CAST.includes(t.dtype));
  if (bad) return bad.dtype;
  const int64 = INT64_OPS.includes(opName) || INT64_SAMPLES[opName]?.includes(c.sample) === true;
  const supported: readonly DType[] = [...WEBGPU_DTYPES, ...(int64 ? ['int64' as const] : []), ...(FLOAT16_OPS.includes(opName) ? ['float16' as const] : []), ...(BFLOAT16_OPS.includes(opName) ? ['bfloat16' as const] : [])];
  if (INDEX_RESULT_OPS.includes(opName)) {
    // The kernel runs in the input's dtype and writes int64 indices itself.
    // (searchsorted's third input, the sorter, is an int64 index its kernel reads itself)
    const data = opName === 'searchsorted' ? tensors.slice(0, 2) : tensors;
    return data.find((t) => !supported.includes(t.dtype))?.dtype ?? null;
  }
  const results = (c.expected === undefined ? [] : Array.isArray(c.expected) ? c.expected : [c.expected]) as GoldenTensor[];
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

/** A case whose non-empty tensor inputs differ from the result's dtype: a data-movement op (cat) then converts, which needs the dtypes' kernels. */
function mixedDtypes(c: GoldenCase): boolean {
  const result = (Array.isArray(c.expected) ? c.expected[0] : c.expected) as GoldenTensor | undefined;
  return c.inputs.some((x) => !isScalarInput(x) && x.shape.every((n) => n > 0) && x.dtype !== result?.dtype);
}

function scalarOperand(v: number | boolean | string): number | boolean {
  return typeof v === 'string' ? Number.NaN : v;
}

/** The harness's xfail keys for `table`; every name in the lists must be an op of `allOps` (typos fail). */
export function webgpuXfails(table: readonly OpInfo[], allOps: readonly OpInfo[] = table): Record<string, Record<string, string>> {
  const goldens = loadOpGoldens();
  const names = new Set(allOps.map((op) => op.name));
  for (const name of [...Object.keys(NOT_ON_WEBGPU), ...Object.keys(DEVIATIONS)]) {
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
      const integralInput = c.inputs.some((x) => !isScalarInput(x) && !['float32', 'float64', 'float16', 'bfloat16'].includes(x.dtype));
      if (CONSTANT_FOR_INTEGRAL.includes(op.name) && integralInput) continue;
      if ((c.dtype === 'float16' || c.dtype === 'bfloat16') && HALF_FREE_SAMPLES[op.name]?.includes(c.sample)) continue;
      if (DTYPE_FREE_SAMPLES[op.name]?.includes(c.sample) || (DATA_MOVEMENT_OPS.includes(op.name) && !mixedDtypes(c))) continue;
      if (CAST_ONLY_SAMPLES[op.name]?.includes(c.sample) && !NO_DEVICE_CAST.includes(c.dtype)) continue;
      if (INDEXED_MOVEMENT_OPS.includes(op.name) || BITWISE_TEST_OPS.includes(op.name) || (op.name === 'scatter' && !c.kwargs.reduce) || (op.name === 'indexPut' && !c.kwargs.accumulate)) continue;
      // (indexPut with one bool mask and accumulate is `where(mask, self + values, self)` there:
      // it runs in every dtype that add and where run in; core Note [Data-dependent sizes on async-read backends])
      if (op.name === 'indexPut' && c.sample.startsWith('mask') && ['add', 'where'].every((o) => webgpuRunsDtype(o, c.dtype))) continue;
      if (c.dtype === 'int64' && (['add', 'sum', 'mean'].includes(c.kwargs.reduce as string) || c.kwargs.accumulate === true) && ['scatter', 'scatterReduce', 'indexPut'].includes(op.name)) continue;
      const bad = unsupportedDtypeOf(c, op.name);
      const reason = bad ? UNSUPPORTED_DTYPES[bad] : null;
      if (!reason) continue;
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
 * match CPU's yet, with the reason (test/grads-webgpu.test.ts; strict).
 */
export const GRAD_XFAILS_WEBGPU: Readonly<Record<string, string>> = {
  'softmax/dtype': 'the sample casts to float64 first ({ dtype: float64 }), which WebGPU lacks',
  'logSoftmax/dtype': 'the sample casts to float64 first ({ dtype: float64 }), which WebGPU lacks',
  'sum/dtype-float64': 'the sample reduces into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'sum/dtype-same': 'the sample reduces into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'mean/dtype-float64': 'the sample reduces into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'prod/dtype-float64': 'the sample reduces into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'norm/dtype-float64': 'the sample reduces into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'cumsum/dtype-float64': 'the sample scans into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'cumsum/dtype-same': 'the sample scans into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'cumprod/dtype-float64': 'the sample scans into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
  'cumprod/dtype-same': 'the sample scans into a float64 result ({ dtype: float64 } in gradcheck), which WebGPU lacks',
};
