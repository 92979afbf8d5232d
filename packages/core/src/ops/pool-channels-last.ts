import { TensorImpl } from '../tensor/tensor-impl';
import { formatStrides } from '../tensor/memory-format';
import { denseChannelsLast } from './conv-channels-last';
import { UNINITIALIZED } from './meta-utils';
import { backendOf, implOf, type Backend } from './registry';
import { backendKeyOf } from '../dispatch/dispatch-key';
import type { Device } from '../device';
import type { BackendImpls } from './backend-impls';
import type { DType } from '../dtype';

/**
 * Note [Channels-last pooling impls]
 * As for convolution (Note [Channels-last convolution impl]), max_pool2d, avg_pool2d,
 * adaptive_avg_pool2d and batch norm on a channels-last input computed on NCHW planes cost
 * two layout copies: the input into contiguous planes (`planes`), the result back into
 * channels-last (`inFormat`, Note [Outputs in the input's memory format]). A backend with
 * kernels that read and write NHWC directly registers `maxPool2dChannelsLast`,
 * `avgPool2dChannelsLast`, `adaptiveAvgPool2dChannelsLast` and `batchNormChannelsLast`; core
 * hands them the input as it is when it is 4-d, suggests channels-last (so the result is
 * channels-last) and is dense in that order, and outputs allocated with exactly the strides
 * `inFormat` would give, so values and layout equal the NCHW path's. The impl may decline a
 * call (false, before writing anything: dtypes it has no kernel for); core then takes the
 * NCHW path. The backwards have hooks too (`maxPool2dBackwardChannelsLast`,
 * `avgPool2dBackwardChannelsLast`, `adaptiveAvgPool2dBackwardChannelsLast`,
 * `batchNormBackwardChannelsLast`), taken when the forward's input (`self`) is such an input;
 * a gradient or indices operand that is not dense channels-last is first copied into one (one
 * copy, where the NCHW path copies it into planes and the result back).
 * Who registers these eight: the CPU (kernels-cpu pooling-nhwc.ts, pooling and batch norm, float32 and
 * float64 WebAssembly kernels) and WebGPU (Note [WebGPU channels-last pooling] and Note
 * [WebGPU channels-last batch norm]: the NCHW kernels with an (n, c) plane base and a
 * c-fastest decode, float32 / float16 / bfloat16 pooling and float32 batch norm); the meta
 * backend opts out (it takes the NCHW path).
 *
 * adaptive_max_pool2d and group norm were composites on NCHW planes (window tables, the
 * layer-norm impl plus an affine) and follow the same rules through optional hooks
 * (OptionalImplName in backend-impls.ts: a backend's table may leave them out; the CPU
 * and WebGPU register all four; Note [WebGPU channels-last adaptive max pooling] and Note
 * [WebGPU channels-last group norm] in kernels-webgpu):
 *  - `adaptiveMaxPool2dChannelsLast` / `adaptiveMaxPool2dBackwardChannelsLast`: a 4-d dense
 *    channels-last input on a backend with the forward hook goes through the kernel ops
 *    `adaptive_max_pool2d` / `adaptive_max_pool2d_backward` (values, indices and the input
 *    gradient channels-last, as PyTorch 1.13's); everything else keeps the composite. A call
 *    the hook declines is computed inside the kernel op by that composite (its results laid
 *    out channels-last), the backward's by a scatter-add, so a decline changes no layout.
 *    The NaN rule is PyTorch's kernels' (`v > best || v != v`: the last NaN of a window
 *    gives the index), the composite's too (Note [Pooling as window tables]).
 *  - `groupNormChannelsLast`: native_group_norm on a dense channels-last input in its compute
 *    dtype; the output is channels-last, mean and rstd [N, G] as before; a decline takes the
 *    NCHW path. Its gradient (`groupNormBackwardChannelsLast`, through the kernel op
 *    native_group_norm_backward, taken by the derivative outside double backward when the
 *    input qualifies and the backend has the hook) reads channels-last grad and input and
 *    writes a *contiguous* grad_input: PyTorch 1.13's native_group_norm_backward allocates it
 *    contiguous whatever the layouts (a channels-last leaf's `.grad` is channels-last only by
 *    AccumulateGrad's layout contract). A decline runs the derivative's formula in the op.
 */

/** Whether `t` is a 4-d input whose result is channels-last and that an NHWC kernel can read as it is. */
export function nhwcInput(t: TensorImpl, format: string): boolean {
  return format === 'channels_last' && t.dim === 4 && t.numel > 0 && denseChannelsLast(t);
}

/** A new dense channels-last output of `sizes` (what `inFormat` gives for 'channels_last'). */
export function channelsLastOutput(op: string, sizes: readonly number[], dtype: DType, like: TensorImpl): TensorImpl {
  return TensorImpl.emptyStrided(op, sizes, formatStrides(op, sizes, 'channels_last'), dtype, like.device, UNINITIALIZED);
}

/**
 * Runs `f` (a channels-last impl call) on fresh channels-last `outputs`; returns them, or
 * null (all released) where the impl is missing or declines.
 */
type PoolHook =
  | 'maxPool2dChannelsLast'
  | 'avgPool2dChannelsLast'
  | 'adaptiveAvgPool2dChannelsLast'
  | 'maxPool2dBackwardChannelsLast'
  | 'avgPool2dBackwardChannelsLast'
  | 'adaptiveAvgPool2dBackwardChannelsLast'
  | 'adaptiveMaxPool2dChannelsLast'
  | 'adaptiveMaxPool2dBackwardChannelsLast'
  | 'groupNormChannelsLast'
  | 'groupNormBackwardChannelsLast'
  | 'upsampleNearest2dChannelsLast'
  | 'upsampleNearest2dBackwardChannelsLast'
  | 'upsampleBilinear2dChannelsLast'
  | 'upsampleBilinear2dBackwardChannelsLast';

/** Whether the backend registers channels-last hook `name`. */
export function hasHook(b: Backend, name: PoolHook): boolean {
  return typeof b.impls[name] === 'function';
}

/** Whether the backend of `device` registers hook `name` (for composites that pick a kernel op by it). */
export function deviceHasHook(device: Device, name: PoolHook): boolean {
  const b = backendOf(backendKeyOf(device.type));
  return b !== undefined && hasHook(b, name);
}

/**
 * `t` [N, C, h, w] as a dense channels-last operand for a hook: itself (retained) when it is
 * one, else one copy (a gradient from `sum().backward()` is an expanded view, say); the
 * caller releases it.
 */
export function channelsLastOperand(b: Backend, op: string, t: TensorImpl): TensorImpl {
  if (denseChannelsLast(t)) return t.retain();
  const c = channelsLastOutput(op, t.sizes, t.dtype, t);
  try {
    implOf(b, 'copy', op)(c, t);
  } catch (e) {
    c.release();
    throw e;
  }
  return c;
}

export function tryChannelsLast<K extends PoolHook>(
  b: Backend,
  name: K,
  outputs: TensorImpl[],
  f: (impl: BackendImpls[K]) => boolean | void,
): TensorImpl[] | null {
  const impl = b.impls[name];
  const release = () => outputs.forEach((o) => o.release());
  if (typeof impl !== 'function') {
    release();
    return null;
  }
  try {
    if (f(impl as BackendImpls[K]) !== false) return outputs;
  } catch (e) {
    release();
    throw e;
  }
  release();
  return null;
}
