import { isFloatingType } from '../dtype';
import { DTypeError, ShapeError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { suggestMemoryFormat } from '../tensor/memory-format';
import { tidy } from '../tensor/scope';
import { tensor } from './factories';
import { torchTypeName } from './meta-utils';
import { reshape } from './shape-ops';
import { separableMatmul } from './separable-matmul';
import { BACKEND_KEYS } from '../dispatch/dispatch-key';
import { registerKernel, registerOperator } from '../dispatch/dispatcher';
import { callFunctional, unwrapTensor } from './call';
import { composite } from './composite';
import { contiguous } from './copy';
import { transpose } from './views';

/**
 * Note [Separable interpolation]
 * F.interpolate's trilinear and bicubic modes (and nearest on 5-d input) are separable: the
 * value at an output point is a product of one weight per spatial dim, summed over the input
 * points each dim's weights touch. So each mode is one [in, out] weight matrix per dim, built
 * here from PyTorch's own index arithmetic (area_pixel_compute_source_index, the cubic
 * convolution with A = -0.75 and indices clamped to the border, nearest's floor(dst * scale),
 * nearest-exact's floor((dst + 0.5) * scale) rounded to float first, as 1.13's kernels),
 * and the resize is one matmul per dim. The gradient is matmul's (the transposed weights), so
 * these modes need no kernels and run on any backend; trilinear alone is an operator with a
 * derivative of its own, for its gradient's memory format (Note [Trilinear gradient layout]).
 */

export type SeparableMode = 'linear' | 'cubic' | 'nearest' | 'nearest-exact';

/** PyTorch's area_pixel_compute_scale. */
function pixelScale(inSize: number, outSize: number, alignCorners: boolean, scale: number | null): number {
  if (alignCorners) return outSize > 1 ? (inSize - 1) / (outSize - 1) : 0;
  return scale != null && scale > 0 ? 1 / scale : inSize / outSize;
}

/** PyTorch's area_pixel_compute_source_index. */
function sourceIndex(scale: number, dst: number, alignCorners: boolean, cubic: boolean): number {
  if (alignCorners) return scale * dst;
  const src = scale * (dst + 0.5) - 0.5;
  return !cubic && src < 0 ? 0 : src;
}

const A = -0.75;
const cubic1 = (x: number): number => ((A + 2) * x - (A + 3)) * x * x + 1;
const cubic2 = (x: number): number => ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;

/** One dim's weights, [in, out] row-major: out[o] = sum_i w[i][o] in[i]. */
export function resizeWeights(mode: SeparableMode, inSize: number, outSize: number, alignCorners: boolean, scale: number | null): number[] {
  const w = new Array<number>(inSize * outSize).fill(0);
  const put = (i: number, o: number, v: number) => (w[i * outSize + o] += v);
  for (let o = 0; o < outSize; o++) {
    if (mode === 'nearest') {
      // (PyTorch's nearest_idx, in float as its kernel computes it)
      let src: number;
      if (outSize === inSize) src = o;
      else if (outSize === 2 * inSize) src = o >> 1;
      else {
        const s = Math.fround(scale != null && scale > 0 ? 1 / scale : inSize / outSize);
        src = Math.min(Math.floor(Math.fround(o * s)), inSize - 1);
      }
      put(src, o, 1);
      continue;
    }
    if (mode === 'nearest-exact') {
      const s = Math.fround(scale != null && scale > 0 ? 1 / scale : inSize / outSize);
      put(Math.min(Math.floor(Math.fround((o + 0.5) * s)), inSize - 1), o, 1);
      continue;
    }
    const s = pixelScale(inSize, outSize, alignCorners, scale);
    if (mode === 'linear') {
      const real = sourceIndex(s, o, alignCorners, false);
      const i0 = Math.floor(real);
      const step = i0 < inSize - 1 ? 1 : 0;
      const l1 = Math.min(Math.max(real - i0, 0), 1);
      put(i0, o, 1 - l1);
      put(i0 + step, o, l1);
    } else {
      const real = sourceIndex(s, o, alignCorners, true);
      const i0 = Math.floor(real);
      const t = real - i0;
      const coeffs = [cubic2(t + 1), cubic1(t), cubic1(1 - t), cubic2(2 - t)];
      coeffs.forEach((c, k) => put(Math.min(Math.max(i0 - 1 + k, 0), inSize - 1), o, c));
    }
  }
  return w;
}

/** The [in, out] matrix of each spatial dim (Note [Separable interpolation]). */
function resizeMats(mode: SeparableMode, like: Tensor, inSizes: readonly number[], outSize: readonly number[], alignCorners: boolean, scales: readonly (number | null)[]): Tensor[] {
  return inSizes.map((n, j) => reshape(tensor(resizeWeights(mode, n, outSize[j], alignCorners, scales[j] ?? null), { dtype: like.dtype, device: like.device }), [n, outSize[j]]));
}

/** The resize itself, its result in the input's memory format (Note [Outputs in the input's memory format]). */
function resize(input: Tensor, mode: SeparableMode, outSize: readonly number[], alignCorners: boolean, scales: readonly (number | null)[]): Tensor {
  return tidy(() => {
    const mats = resizeMats(mode, input, input.shape.slice(2), outSize, alignCorners, scales);
    // a channels_last_3d input gives a channels_last_3d result, as PyTorch 1.13's nearest3d and
    // trilinear kernels, and nearest-exact's channels_last 4-d input a channels_last one; the
    // 4-d bicubic keeps its layout
    const suggested = suggestMemoryFormat(input.shape, input.stride());
    const format = (input.dim() === 5 && suggested === 'channels_last_3d') || (mode === 'nearest-exact' && suggested === 'channels_last') ? suggested : 'contiguous';
    // (nearest3d's and bicubic's input gradients are contiguous, as their backward kernels':
    // Note [Gradient layout of separable matmuls]; trilinear runs below autograd here, Note
    // [Trilinear gradient layout])
    const t = separableMatmul(input, mats);
    // (an empty result counts as contiguous in any strides: cloned, so it has the format's)
    return t === input || t.numel() === 0 ? t.clone({ memoryFormat: format }) : t.contiguous({ memoryFormat: format });
  });
}

/**
 * Note [Trilinear gradient layout]
 * PyTorch 1.13's upsample_trilinear3d_backward makes the input gradient in grad_output's
 * memory format (suggest_memory_format), not the input's. A composite's input gradient has the
 * layout its first op's backward gives, fixed when the forward runs (Note [Gradient layout of
 * separable matmuls]), before grad_output exists. So trilinear is an operator of its own,
 * `upsample_trilinear3d` (PyTorch's schema), whose kernel at every backend key (PyTorch's
 * CompositeExplicitAutograd) is the separable composite, run below autograd; its derivative
 * (autograd's UpsampleTrilinear3DBackward0) is `upsampleTrilinear3dBackward`: the same
 * composite with each dim's matrix transposed, laid out in grad_output's format. Written with
 * ordinary ops, so its own gradient (double backward) comes from theirs.
 */
export const UPSAMPLE_TRILINEAR3D = registerOperator({
  schema: 'upsample_trilinear3d(Tensor self, SymInt[3] output_size, bool align_corners, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor',
});
{
  const kernel = composite((a) => resize(a[0] as Tensor, 'linear', a[1] as number[], a[2] as boolean, [a[3] as number | null, a[4] as number | null, a[5] as number | null]));
  for (const k of BACKEND_KEYS) registerKernel(UPSAMPLE_TRILINEAR3D, k, kernel);
}

/** upsample_trilinear3d's input gradient (Note [Trilinear gradient layout]). */
export function upsampleTrilinear3dBackward(
  grad: Tensor,
  outputSize: readonly number[],
  inputSize: readonly number[],
  alignCorners: boolean,
  scales: readonly (number | null | undefined)[],
): Tensor {
  return tidy(() => {
    const mats = resizeMats('linear', grad, inputSize.slice(2), outputSize, alignCorners, scales.map((s) => s ?? null));
    const format = suggestMemoryFormat(grad.shape, grad.stride()) === 'channels_last_3d' ? 'channels_last_3d' : 'contiguous';
    return contiguous(separableMatmul(grad, mats.map((m) => transpose(m, 0, 1))), format);
  });
}

/** Resizes the spatial dims (all after the first two) of `input` to `outSize` (Note [Separable interpolation]). */
export function separableResize(op: string, input: Tensor, mode: SeparableMode, outSize: readonly number[], alignCorners: boolean, scales: readonly (number | null)[]): Tensor {
  if (!isFloatingType(input.dtype)) {
    const kernel = mode === 'cubic' ? 'upsample_bicubic2d_out_frame' : mode === 'linear' ? 'upsample_trilinear3d_out_frame' : mode === 'nearest' ? 'upsample_nearest3d_out_frame' : `upsample_nearest_exact${outSize.length}d`;
    throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(input.dtype)}'`);
  }
  const spatial = input.shape.slice(2);
  if (spatial.some((n) => n <= 0) || outSize.some((n) => n <= 0)) {
    throw new ShapeError(`${op}: Input and output sizes should be greater than 0, but got input ${fmtShape(spatial)} output ${fmtShape(outSize)}`);
  }
  if (mode === 'linear') {
    const [d, h, w] = scales;
    return callFunctional(UPSAMPLE_TRILINEAR3D, [unwrapTensor(op, 'input', input), [...outSize], alignCorners, d ?? null, h ?? null, w ?? null]);
  }
  return resize(input, mode, outSize, alignCorners, scales);
}
