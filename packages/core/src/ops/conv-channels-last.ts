import { TensorImpl } from '../tensor/tensor-impl';
import { formatStrides } from '../tensor/memory-format';
import { UNINITIALIZED, releaseAll } from './meta-utils';
import { implOf, type Backend } from './registry';
import type { Conv2dGeometry } from './spatial-impls';

/**
 * Note [Channels-last convolution impl]
 * A 2-d convolution whose output is channels-last (Note [Outputs in the input's memory
 * format]) computed on contiguous planes costs two layout copies: the input into NCHW, the
 * result back into NHWC. A backend with a kernel that reads and writes NHWC directly
 * registers `conv2dChannelsLast`; core then hands it the input as it is (when it is dense
 * channels-last and already in its compute dtype: float16 / bfloat16 still go through
 * float32 copies, Note [16-bit convolutions compute in float32]), the weight and bias
 * contiguous, and an output allocated with the channels-last strides `inFormat` would give,
 * so the result's layout is exactly the contiguous path's. The impl may decline a call
 * (false, before writing anything): shapes where its contiguous kernel plus the two copies
 * is faster (the CPU's measured heuristic), dtypes it has no kernel for; core then takes the
 * contiguous path. The gradients of a (not transposed) 2-d convolution follow the same
 * rules through `conv2dChannelsLastInputGrad` / `conv2dChannelsLastWeightGrad`
 * (`channelsLastGradients`): grad_output and input dense channels-last in the compute dtype,
 * the weight contiguous, the input gradient allocated with the channels-last strides
 * `inFormat` would give (PyTorch 1.13's), the weight gradient contiguous (then laid out by
 * `inFormat` as before); each impl may decline on its own, and core computes what was
 * declined on contiguous copies.
 */

/** Whether `t` [N, C, H, W] is laid out densely in channels-last order (strides of size-1 dims are free). */
export function denseChannelsLast(t: TensorImpl): boolean {
  const [N, C, H, W] = t.sizes;
  const want = [H * W * C, 1, W * C, C];
  return [N, C, H, W].every((s, d) => s <= 1 || t.strides[d] === want[d]);
}

function contiguousCopy(b: Backend, op: string, t: TensorImpl): TensorImpl {
  if (t.isContiguous) return t.retain();
  const c = TensorImpl.empty(op, t.sizes, t.dtype, t.device);
  implOf(b, 'copy', op)(c, t);
  return c;
}

/**
 * The convolution of a channels-last `input` [N, C_in, H, W] by the backend's channels-last
 * impl, in a new channels-last output of `sizes`, or null where the impl is missing or
 * declines (then nothing was allocated that survives).
 */
export function channelsLastConvolution(
  b: Backend,
  op: string,
  input: TensorImpl,
  weight: TensorImpl,
  bias: TensorImpl | null,
  sizes: readonly number[],
  g: Conv2dGeometry,
  groups: number,
): TensorImpl | null {
  const f = b.impls.conv2dChannelsLast;
  if (typeof f !== 'function') return null;
  const dt = input.dtype;
  if (dt === 'float16' || dt === 'bfloat16' || weight.dtype !== dt || (bias !== null && bias.dtype !== dt)) return null;
  if (input.dim !== 4 || weight.dim !== 4 || input.numel === 0 || weight.numel === 0 || !denseChannelsLast(input)) return null;
  const out = TensorImpl.emptyStrided(op, sizes, formatStrides(op, sizes, 'channels_last'), dt, input.device, UNINITIALIZED);
  if (out.numel === 0) {
    out.release();
    return null;
  }
  const held: TensorImpl[] = [];
  try {
    const w = contiguousCopy(b, op, weight);
    held.push(w);
    const bc = bias === null ? null : contiguousCopy(b, op, bias);
    if (bc !== null) held.push(bc);
    if (f(out, input, w, g, groups, bc) !== false) return out;
  } catch (e) {
    out.release();
    throw e;
  } finally {
    releaseAll(held);
  }
  out.release();
  return null;
}

/**
 * The gradients of a channels-last 2-d convolution by the backend's channels-last impls
 * (Note [Channels-last convolution impl]): [grad_input (channels-last), grad_weight
 * (contiguous)], each null where it was not asked for, the impl is missing or declines.
 */
export function channelsLastGradients(
  b: Backend,
  op: string,
  gradOutput: TensorImpl,
  input: TensorImpl,
  weight: TensorImpl,
  g: Conv2dGeometry,
  groups: number,
  mask: readonly boolean[],
): [TensorImpl | null, TensorImpl | null] {
  const fi = b.impls.conv2dChannelsLastInputGrad;
  const fw = b.impls.conv2dChannelsLastWeightGrad;
  const dt = input.dtype;
  if (dt === 'float16' || dt === 'bfloat16' || weight.dtype !== dt || gradOutput.dtype !== dt) return [null, null];
  if (input.dim !== 4 || weight.dim !== 4 || gradOutput.dim !== 4) return [null, null];
  if (input.numel === 0 || weight.numel === 0 || gradOutput.numel === 0) return [null, null];
  if (!denseChannelsLast(input) || !denseChannelsLast(gradOutput)) return [null, null];
  let gi: TensorImpl | null = null;
  let gw: TensorImpl | null = null;
  const held: TensorImpl[] = [];
  try {
    if (mask[0] && typeof fi === 'function') {
      const w = contiguousCopy(b, op, weight);
      held.push(w);
      gi = TensorImpl.emptyStrided(op, input.sizes, formatStrides(op, input.sizes, 'channels_last'), dt, input.device, UNINITIALIZED);
      if (fi(gi, gradOutput, w, g, groups) === false) {
        gi.release();
        gi = null;
      }
    }
    if (mask[1] && typeof fw === 'function') {
      gw = TensorImpl.empty(op, weight.sizes, dt, weight.device);
      if (fw(gw, gradOutput, input, g, groups) === false) {
        gw.release();
        gw = null;
      }
    }
  } catch (e) {
    releaseAll([gi, gw].filter((t): t is TensorImpl => t !== null));
    throw e;
  } finally {
    releaseAll(held);
  }
  return [gi, gw];
}
