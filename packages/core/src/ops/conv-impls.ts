import type { TensorImpl } from '../tensor/tensor-impl';
import type { Conv2dGeometry } from './spatial-impls';

/**
 * Note [Direct convolution impls]
 * Core runs a convolution as im2col / col2im plus the backend's `mm` (Note [Convolution as
 * GEMM] in conv.ts), one product per batch element and group. A backend may instead
 * convolve whole batches at once with kernels of its own (WebGPU does: a dispatch per
 * batch element, and a materialised column matrix, cost far more there than the
 * arithmetic); when it registers these three impls core calls them, and when it opts out
 * (`notImplemented`, as the CPU does) core takes the im2col path. All operands are
 * contiguous 4-d tensors in one dtype (the convolution's compute dtype), `groups` divides
 * both channel counts, and `g` is the geometry im2col would get (`channels` = input
 * channels per group, `outH` / `outW` the sliding positions). Each overwrites its output.
 * An impl may decline a call by returning false before writing anything (the CPU declines
 * integer dtypes, and everything where WebAssembly SIMD is missing); core then takes the
 * im2col path for that call. Returning nothing (or true) means done.
 */
export interface ConvImpls {
  /**
   * out [N, C_out, outH, outW] = the convolution of x [N, C_in, H, W] with w [C_out, C_in / groups, kH, kW],
   * plus bias [C_out] (contiguous, the same dtype) per channel when given, added to each finished sum.
   */
  conv2d: (out: TensorImpl, x: TensorImpl, w: TensorImpl, g: Conv2dGeometry, groups: number, bias: TensorImpl | null) => boolean | void;
  /**
   * `conv2d` on channels-last operands (Note [Channels-last convolution impl] in conv.ts): x
   * [N, C_in, H, W] and out [N, C_out, outH, outW] both dense in channels-last order (strides
   * [H W C, 1, W C, C], at any storage offset); w and bias contiguous. A backend declines
   * (false) shapes where its contiguous kernel, with the two layout copies, is faster.
   */
  conv2dChannelsLast: (out: TensorImpl, x: TensorImpl, w: TensorImpl, g: Conv2dGeometry, groups: number, bias: TensorImpl | null) => boolean | void;
  /**
   * `conv2dInputGrad` on channels-last operands (Note [Channels-last convolution impl]): image
   * [N, C, H, W] and cols [N, C_out, outH, outW] both dense channels-last (at any storage
   * offset), w contiguous. A backend declines (false, before writing) where its contiguous
   * kernel with the layout copies is faster, or shapes it has no kernel for.
   */
  conv2dChannelsLastInputGrad: (image: TensorImpl, cols: TensorImpl, w: TensorImpl, g: Conv2dGeometry, groups: number) => boolean | void;
  /**
   * `conv2dWeightGrad` with cols [N, C_out, outH, outW] and x [N, C_in, H, W] dense
   * channels-last (at any storage offset), gw contiguous; declines as the input grad does.
   */
  conv2dChannelsLastWeightGrad: (gw: TensorImpl, cols: TensorImpl, x: TensorImpl, g: Conv2dGeometry, groups: number) => boolean | void;
  /**
   * image [N, C, H, W] = the adjoint of conv2d in its input, applied to cols [N, C_out, outH, outW]
   * with w [C_out, C / groups, kH, kW]: the grad input of a convolution, the forward of a transposed one.
   */
  conv2dInputGrad: (image: TensorImpl, cols: TensorImpl, w: TensorImpl, g: Conv2dGeometry, groups: number) => boolean | void;
  /**
   * gw [C_out, C_in / groups, kH, kW] = the adjoint of conv2d in its weight: gw[o, c, i, j] = the
   * sum over n, oh, ow of cols[n, o, oh, ow] * x[n, group(o) * C_in / groups + c, oh sH - pH + i dH, ow sW - pW + j dW].
   */
  conv2dWeightGrad: (gw: TensorImpl, cols: TensorImpl, x: TensorImpl, g: Conv2dGeometry, groups: number) => boolean | void;
}
