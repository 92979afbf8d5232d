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
 * contiguous path. Only the forward: gradients take the contiguous path.
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
