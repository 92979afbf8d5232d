import type { TensorImpl } from '../tensor/tensor-impl';

/**
 * Note [Spatial impls]
 * The impls behind convolution, pooling, interpolation and padding (conv.ts, pooling.ts,
 * resample.ts). Core validates every argument, allocates every result and workspace, and
 * hands a backend:
 *  - images as [planes, H, W] tensors (planes = N * C for the pooling / resample ops, the
 *    channels of one batch element and group for im2col / col2im), in one floating dtype;
 *  - the geometry (kernel, stride, padding, dilation, output sizes) already computed.
 * Convolution itself is im2col / col2im plus the backend's `mm` (Note [Convolution as GEMM]
 * in conv.ts), so a backend adds only data-movement kernels to get it.
 * Every impl overwrites its whole output (backward impls included: gradient buffers need
 * not be zeroed first).
 */
export interface Conv2dGeometry {
  /** The image's channels, height and width (the input of a convolution, the output of a transposed one). */
  readonly channels: number;
  readonly height: number;
  readonly width: number;
  readonly kernelH: number;
  readonly kernelW: number;
  readonly strideH: number;
  readonly strideW: number;
  readonly padH: number;
  readonly padW: number;
  readonly dilationH: number;
  readonly dilationW: number;
  /** The sliding positions: the output of a convolution, the input of a transposed one. */
  readonly outH: number;
  readonly outW: number;
}

export interface Pool2dGeometry {
  readonly height: number;
  readonly width: number;
  readonly kernelH: number;
  readonly kernelW: number;
  readonly strideH: number;
  readonly strideW: number;
  readonly padH: number;
  readonly padW: number;
  readonly dilationH: number;
  readonly dilationW: number;
  readonly outH: number;
  readonly outW: number;
}

/** Padding amounts of the last two dims (left, right, top, bottom), all >= 0. */
export type Pads2d = readonly [number, number, number, number];
export type PadMode = 'reflect' | 'replicate' | 'circular';

export interface SpatialImpls {
  /**
   * col [C * kH * kW, outH * outW] (any strides) from image [C, H, W]: row (c, i, j), column
   * (oh, ow) holds image[c, oh * sH - pH + i * dH, ow * sW - pW + j * dW], 0 outside.
   */
  im2col: (col: TensorImpl, image: TensorImpl, g: Conv2dGeometry) => void;
  /** The adjoint of im2col: image [C, H, W] = the sum of every col element into the pixel it came from. */
  col2im: (image: TensorImpl, col: TensorImpl, g: Conv2dGeometry) => void;
  /** out and indices (int64, flat h * W + w within the plane) [P, outH, outW] from self [P, H, W]; NaN wins. */
  maxPool2d: (out: TensorImpl, indices: TensorImpl, self: TensorImpl, g: Pool2dGeometry) => void;
  /**
   * gradInput [P, H, W] = gradOutput [P, outH, outW] summed into the positions `indices` name.
   * `g` (the forward's geometry) lets a backend gather per input element over the windows
   * that contain it, as PyTorch's CUDA kernel does, instead of scattering.
   */
  maxPool2dBackward: (gradInput: TensorImpl, gradOutput: TensorImpl, indices: TensorImpl, g: Pool2dGeometry) => void;
  /** avg_pool2d with PyTorch's divisor rules (windows clipped to the padded input). */
  avgPool2d: (out: TensorImpl, self: TensorImpl, g: Pool2dGeometry, countIncludePad: boolean, divisorOverride: number | null) => void;
  avgPool2dBackward: (
    gradInput: TensorImpl,
    gradOutput: TensorImpl,
    g: Pool2dGeometry,
    countIncludePad: boolean,
    divisorOverride: number | null,
  ) => void;
  /** out [P, oH, oW] from self [P, H, W]: window [floor(o * H / oH), ceil((o + 1) * H / oH)). */
  adaptiveAvgPool2d: (out: TensorImpl, self: TensorImpl) => void;
  adaptiveAvgPool2dBackward: (gradInput: TensorImpl, gradOutput: TensorImpl) => void;
  /**
   * `maxPool2d` on channels-last operands (Note [Channels-last pooling impls] in
   * pool-channels-last.ts): self [N, C, H, W], out and indices [N, C, outH, outW] all dense in
   * channels-last order (strides [H W C, 1, W C, C]); indices int64, flat h * W + w within the
   * plane, NaN wins, as `maxPool2d`. Returns false, before writing anything, to decline.
   */
  maxPool2dChannelsLast: (out: TensorImpl, indices: TensorImpl, self: TensorImpl, g: Pool2dGeometry) => boolean | void;
  /** `avgPool2d` on dense channels-last self [N, C, H, W] and out [N, C, outH, outW]; false declines. */
  avgPool2dChannelsLast: (out: TensorImpl, self: TensorImpl, g: Pool2dGeometry, countIncludePad: boolean, divisorOverride: number | null) => boolean | void;
  /** `adaptiveAvgPool2d` on dense channels-last self [N, C, H, W] and out [N, C, oH, oW]; false declines. */
  adaptiveAvgPool2dChannelsLast: (out: TensorImpl, self: TensorImpl) => boolean | void;
  /**
   * The channels-last backwards: gradInput [N, C, H, W], gradOutput and (max) the forward's
   * int64 indices [N, C, outH, outW], all dense channels-last; the gradients of `maxPool2dBackward`,
   * `avgPool2dBackward` and `adaptiveAvgPool2dBackward`. False, before writing anything, declines.
   */
  maxPool2dBackwardChannelsLast: (gradInput: TensorImpl, gradOutput: TensorImpl, indices: TensorImpl, g: Pool2dGeometry) => boolean | void;
  avgPool2dBackwardChannelsLast: (
    gradInput: TensorImpl,
    gradOutput: TensorImpl,
    g: Pool2dGeometry,
    countIncludePad: boolean,
    divisorOverride: number | null,
  ) => boolean | void;
  adaptiveAvgPool2dBackwardChannelsLast: (gradInput: TensorImpl, gradOutput: TensorImpl) => boolean | void;
  /**
   * adaptive_max_pool2d on channels-last operands: out and indices (int64) [N, C, oH, oW] from
   * self [N, C, H, W], all dense channels-last; window [floor(o * H / oH), ceil((o + 1) * H /
   * oH)) per dim, the index h * W + w within the plane, NaN wins (the last NaN of a window),
   * the first maximum otherwise. Optional (OptionalImplName); false, before writing anything,
   * declines.
   */
  adaptiveMaxPool2dChannelsLast: (out: TensorImpl, indices: TensorImpl, self: TensorImpl) => boolean | void;
  /**
   * Its gradient: gradInput [N, C, H, W] = gradOutput [N, C, oH, oW] added at `indices`, in
   * output order, all dense channels-last (gradInput written whole). False declines.
   */
  adaptiveMaxPool2dBackwardChannelsLast: (gradInput: TensorImpl, gradOutput: TensorImpl, indices: TensorImpl) => boolean | void;
  /**
   * Nearest: source index floor(dst * scale) clamped, scale = 1 / scaleFactor when one was
   * given, else inSize / outSize (PyTorch's 'nearest').
   */
  upsampleNearest2d: (out: TensorImpl, self: TensorImpl, scaleH: number | null, scaleW: number | null) => void;
  upsampleNearest2dBackward: (gradInput: TensorImpl, gradOutput: TensorImpl, scaleH: number | null, scaleW: number | null) => void;
  /** Bilinear with PyTorch's source-index rule (align_corners, or half-pixel centres clamped at 0). */
  upsampleBilinear2d: (out: TensorImpl, self: TensorImpl, alignCorners: boolean, scaleH: number | null, scaleW: number | null) => void;
  upsampleBilinear2dBackward: (
    gradInput: TensorImpl,
    gradOutput: TensorImpl,
    alignCorners: boolean,
    scaleH: number | null,
    scaleW: number | null,
  ) => void;
  /**
   * The four on dense channels-last [N, C, h, w] operands (Note [Channels-last upsampling]):
   * the same source indices and arithmetic per element; the backward writes gradInput whole.
   * Optional (OptionalImplName); false, before writing anything, declines.
   */
  upsampleNearest2dChannelsLast: (out: TensorImpl, self: TensorImpl, scaleH: number | null, scaleW: number | null) => boolean | void;
  upsampleNearest2dBackwardChannelsLast: (gradInput: TensorImpl, gradOutput: TensorImpl, scaleH: number | null, scaleW: number | null) => boolean | void;
  upsampleBilinear2dChannelsLast: (out: TensorImpl, self: TensorImpl, alignCorners: boolean, scaleH: number | null, scaleW: number | null) => boolean | void;
  upsampleBilinear2dBackwardChannelsLast: (
    gradInput: TensorImpl,
    gradOutput: TensorImpl,
    alignCorners: boolean,
    scaleH: number | null,
    scaleW: number | null,
  ) => boolean | void;
  /** out [P, H + t + b, W + l + r] from self [P, H, W], the border filled by `mode`. */
  padIndexed: (out: TensorImpl, self: TensorImpl, pads: Pads2d, mode: PadMode) => void;
  /** The adjoint of padIndexed: every gradOutput element summed into the input element it copies. */
  padIndexedBackward: (gradInput: TensorImpl, gradOutput: TensorImpl, pads: Pads2d, mode: PadMode) => void;
}
