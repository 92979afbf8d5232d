/**
 * What the OpInfo table cannot match on WebGPU yet, each with its reason (Note [Strict
 * xfails]). Two lists, expanded here into the harness's xfail keys (`caseId/dtype`, every
 * check of that case):
 *   - UNSUPPORTED_DTYPES: a case that involves one of them (an input, the case dtype or the
 *     result) cannot run: WebGPU kernels exist for float32, int32, uint8 and bool (Note
 *     [WebGPU dtypes] in kernels-webgpu);
 *   - NOT_ON_WEBGPU: ops whose impls the WebGPU table lacks (Note [A partial WebGPU impl
 *     table]): they raise "no kernel for aten::op on WebGPU".
 *   - DEVIATIONS: single cases that run but differ, with the reason.
 * Error cases are never expanded: their errors come from core's meta, before any kernel,
 * and must match on WebGPU as on CPU.
 */
import type { DType } from '@torch-ts/torch';
import { resultType, type Operand } from '@torch-ts/core';
import { caseId, isScalarInput, loadOpGoldens, type GoldenCase, type GoldenTensor } from './goldens';
import { layoutApplies } from './inputs';
import type { OpInfo } from './op-info/types';

export const WEBGPU_DTYPES: readonly DType[] = ['float32', 'int32', 'uint8', 'bool'];

export const UNSUPPORTED_DTYPES: Readonly<Partial<Record<DType, string>>> = {
  float64: 'float64 has no WGSL type: WebGPU kernels raise a DTypeError (issue 5)',
  int64: 'int64 is emulated for copy/fill/cast only; int64 arithmetic on WebGPU is not written yet',
  float16: 'float16 kernels (shader-f16) are not written yet',
  bfloat16: 'bfloat16 has no WGSL type and no emulation yet',
  int8: 'int8 kernels (packed bytes) are not written yet',
  int16: 'int16 kernels (packed halves) are not written yet',
};

/**
 * Errors that depend on the data (integer division by zero) are raised by CPU kernels; on
 * WebGPU they must surface at the next read (API.md), which is not written yet.
 */
export const DATA_DEPENDENT_ERRORS = 'data-dependent errors (integer division by zero) are not raised by WebGPU kernels yet';

/** Pure data movement (raw copies, which WebGPU has for every dtype): no dtype xfail at all. */
const DATA_MOVEMENT_OPS: readonly string[] = ['repeat', 'tile', 'roll'];

/** Ops that run no kernel on integral or bool inputs (a constant result, or a raw copy): no dtype xfail there. */
const CONSTANT_FOR_INTEGRAL: readonly string[] = ['isinf', 'isfinite', 'nanToNum'];

/**
 * Op (OpInfo name) -> why it does not run on WebGPU yet (Note [A partial WebGPU impl table]).
 * These ops are not run case by case; each gets one strict probe instead: some case in a
 * WebGPU dtype must still raise the "no kernel ... on WebGPU" (or WebGPU dtype) error, so
 * the entry fails the run once the op works and must then be removed.
 */
export const NOT_ON_WEBGPU: Readonly<Record<string, string>> = {
  softmax: 'no WebGPU kernel for aten::_softmax yet',
  logSoftmax: 'no WebGPU kernel for aten::_log_softmax yet',
  nllLoss: 'no WebGPU kernel for aten::nll_loss2d_forward, aten::nll_loss_forward yet',
  crossEntropy: 'no WebGPU kernel for aten::_log_softmax yet',
  mseLoss: 'no WebGPU kernel for aten::mse_loss yet',
  smoothL1Loss: 'no WebGPU kernel for aten::smooth_l1_loss yet',
  binaryCrossEntropy: 'no WebGPU kernel for aten::binary_cross_entropy yet',
  binaryCrossEntropyWithLogits: 'no WebGPU kernel for aten::binary_cross_entropy_with_logits yet',
  batchNorm: 'no WebGPU kernel for aten::native_batch_norm yet',
  layerNorm: 'no WebGPU kernel for aten::native_layer_norm yet',
  groupNorm: 'no WebGPU kernel for aten::native_group_norm yet',
  embedding: 'no WebGPU kernel for aten::embedding yet',
  index: 'no WebGPU kernel for aten::index, aten::nonzero yet',
  indexPut: 'no WebGPU kernel for aten::index_put_, aten::nonzero yet',
  gather: 'no WebGPU kernel for aten::gather yet',
  scatter: 'no WebGPU kernel for aten::scatter yet',
  scatterAdd: 'no WebGPU kernel for aten::scatter_add yet',
  scatterReduce: 'no WebGPU kernel for aten::scatter_reduce yet',
  indexSelect: 'no WebGPU kernel for aten::index_select yet',
  indexAdd: 'no WebGPU kernel for aten::index_add_ yet',
  indexFill: 'no WebGPU kernel for aten::index_fill_ yet',
  take: 'no WebGPU kernel for aten::take yet',
  maskedSelect: 'no WebGPU kernel for aten::masked_select yet',
  maskedScatter: 'no WebGPU kernel for aten::masked_scatter_ yet',
  cat: 'no WebGPU kernel for aten::cat yet',
  stack: 'no WebGPU kernel for aten::stack yet',
  hstack: 'no WebGPU kernel for aten::cat yet',
  vstack: 'no WebGPU kernel for aten::cat yet',
  flip: 'no WebGPU kernel for aten::flip yet',
  triu: 'no WebGPU kernel for aten::triu yet',
  tril: 'no WebGPU kernel for aten::tril yet',
  unique: 'no WebGPU kernel for aten::unique yet',
  searchsorted: 'no WebGPU kernel for aten::searchsorted yet',
  bucketize: 'no WebGPU kernel for aten::bucketize yet',
  conv1d: 'no WebGPU kernel for aten::convolution yet',
  conv2d: 'no WebGPU kernel for aten::convolution yet',
  convTranspose2d: 'no WebGPU kernel for aten::convolution yet',
  maxPool2d: 'no WebGPU kernel for aten::max_pool2d yet',
  avgPool2d: 'no WebGPU kernel for aten::avg_pool2d yet',
  adaptiveAvgPool2d: 'no WebGPU kernel for aten::adaptive_avg_pool2d yet',
  interpolate: 'no WebGPU kernel for aten::upsample_bilinear2d, aten::upsample_nearest2d yet',
  pad: 'no WebGPU kernel for aten::_pad_circular1d, aten::_pad_circular2d, aten::reflection_pad1d, aten::reflection_pad2d, aten::replication_pad1d, aten::replication_pad2d yet',
  var: 'no WebGPU kernel for aten::var yet',
  std: 'no WebGPU kernel for aten::std yet',
  varMean: 'no WebGPU kernel for aten::var_mean yet',
  stdMean: 'no WebGPU kernel for aten::std_mean yet',
  logsumexp: 'no WebGPU kernel for aten::logsumexp yet',
  norm: 'no WebGPU kernel for aten::linalg.vector_norm yet',
  all: 'no WebGPU kernel for aten::all yet',
  any: 'no WebGPU kernel for aten::any yet',
  median: 'no WebGPU kernel for aten::median yet',
  cumsum: 'no WebGPU kernel for aten::cumsum, aten::cumsum_ yet',
  cumprod: 'no WebGPU kernel for aten::cumprod, aten::cumprod_ yet',
  dropout: 'random ops draw float64 values on the host and cast them on the device, which WebGPU cannot do yet',
  bernoulli: 'random ops draw float64 values on the host and cast them on the device, which WebGPU cannot do yet',
  multinomial: 'random ops draw float64 values on the host and cast them on the device, which WebGPU cannot do yet',
  oneHot: 'one_hot checks its int64 classes with amin/amax, and int64 reductions are not on WebGPU yet',
  repeatInterleave: 'repeat_interleave reduces its int64 repeats, and int64 reductions are not on WebGPU yet',
};

const HUGE_TRIG =
  'sin/cos/tan of |x| > 8192 (3e38, 2^31, 1e6 here) use WGSL builtins: without a Payne-Hanek reduction the result differs from C\'s';

/** Op -> xfail key (`check@caseId/dtype`) -> reason, for cases that run but cannot match yet. */
export const DEVIATIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  sin: trig(['edge/float32', 'edge/int32', 'edge/int64']),
  cos: trig(['edge/float32', 'edge/int32', 'edge/int64']),
  tan: trig(['edge/float32', 'edge/int32', 'edge/int64', 'domain/float32']),
};

function trig(cases: readonly string[]): Record<string, string> {
  return Object.fromEntries(cases.flatMap((c) => [[`forward@${c}`, HUGE_TRIG], [`oracle@${c}`, HUGE_TRIG]]));
}

/**
 * Samples whose result core makes without a dtype-specific kernel (a fill or a raw copy,
 * which WebGPU has for every dtype), so they pass in every dtype.
 */
const DTYPE_FREE_SAMPLES: Readonly<Record<string, readonly string[]>> = {
  einsum: ['diag', 'transpose'],
  sort: ['0d', 'empty'],
  argsort: ['0d', 'empty'],
  topk: ['k0', '0d'],
  mode: ['0dim'],
  clamp: ['scalar-nan'],
  clampMin: ['scalar-nan'],
  clampMax: ['scalar-nan'],
  clip: ['scalar-nan'],
  max: ['0dim-dim'],
  min: ['0dim-dim'],
  argmax: ['0dim-dim'],
  argmin: ['0dim-dim'],
};

/** Ops whose int64 results are indices, written by the arg-reduction kernel (no int64 arithmetic). */
const INDEX_RESULT_OPS: readonly string[] = ['argmax', 'argmin', 'max', 'min'];

/** Dtypes WebGPU can hold but not convert on the device (copy/cast kernels exist for int64). */
const NO_DEVICE_CAST: readonly DType[] = ['float64', 'float16', 'bfloat16', 'int8', 'int16'];

/**
 * The dtype a case cannot run in on WebGPU, if any: an input WebGPU cannot even cast, the
 * result's dtype, or the dtype the kernel computes in (a comparison of int64 tensors
 * computes in int64 though its result is bool).
 */
export function unsupportedDtypeOf(c: GoldenCase, opName: string): DType | null {
  const tensors = c.inputs.filter((x): x is GoldenTensor => !isScalarInput(x));
  const bad = tensors.find((t) => NO_DEVICE_CAST.includes(t.dtype));
  if (bad) return bad.dtype;
  if (INDEX_RESULT_OPS.includes(opName)) {
    // The kernel runs in the input's dtype and writes int64 indices itself.
    return tensors.find((t) => !WEBGPU_DTYPES.includes(t.dtype))?.dtype ?? null;
  }
  const results = (c.expected === undefined ? [] : Array.isArray(c.expected) ? c.expected : [c.expected]) as GoldenTensor[];
  const badResult = results.find((r) => !WEBGPU_DTYPES.includes(r.dtype));
  if (badResult) return badResult.dtype;
  if (results.length > 0 && results[0].dtype === 'bool' && tensors.length > 0) {
    const operands: Operand[] = c.inputs.map((x) => (isScalarInput(x) ? scalarOperand(x.scalar) : { dtype: x.dtype, shape: x.shape }));
    const compute = resultType('webgpu xfails', operands);
    if (!WEBGPU_DTYPES.includes(compute)) return compute;
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
  for (const name of [...Object.keys(NOT_ON_WEBGPU), ...Object.keys(DEVIATIONS)]) {
    if (!names.has(name)) throw new Error(`webgpu xfails: '${name}' is not an op of the OpInfo table`);
  }
  const out: Record<string, Record<string, string>> = {};
  for (const op of table) {
    const keys: Record<string, string> = { ...DEVIATIONS[op.name] };
    for (const c of goldens.get(op.name) ?? []) {
      const id = `${caseId(c)}/${c.dtype}`;
      if (c.error) {
        // (in a dtype WebGPU lacks, the DTypeError naming the op comes first and is accepted)
        if (/ZeroDivisionError/.test(c.error.message) && WEBGPU_DTYPES.includes(c.dtype)) {
          keys[`forward@${id}`] = DATA_DEPENDENT_ERRORS;
          if (op.variants.inplace && c.inplace !== undefined && c.inplace !== 'ok') keys[`inplace@${id}`] = DATA_DEPENDENT_ERRORS;
        }
        continue;
      }
      const integralInput = c.inputs.some((x) => !isScalarInput(x) && !['float32', 'float64', 'float16', 'bfloat16'].includes(x.dtype));
      if (CONSTANT_FOR_INTEGRAL.includes(op.name) && integralInput) continue;
      if (DTYPE_FREE_SAMPLES[op.name]?.includes(c.sample) || DATA_MOVEMENT_OPS.includes(op.name)) continue;
      const bad = unsupportedDtypeOf(c, op.name);
      const reason = bad ? UNSUPPORTED_DTYPES[bad] : null;
      if (!reason) continue;
      // The checks run-op-info.ts declares for a case without an error; an in-place form
      // that PyTorch rejects fails in core's meta, before any kernel, so it is not listed.
      const checks = ['forward', 'oracle'];
      if (op.variants.method) checks.push('method');
      if (op.variants.out && !Array.isArray(c.expected)) checks.push('out');
      if (layoutApplies(c, 'strided')) checks.push('noncontig');
      if (op.variants.inplace && c.inplace === 'ok') checks.push('inplace');
      for (const check of checks) keys[`${check}@${id}`] = reason;
    }
    if (Object.keys(keys).length) out[op.name] = keys;
  }
  return out;
}
