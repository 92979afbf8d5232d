import { isFloatingType } from '../dtype';
import { DTypeError, ShapeError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { suggestMemoryFormat } from '../tensor/memory-format';
import { tidy } from '../tensor/scope';
import { tensor } from './factories';
import { matmul } from './linalg';
import { torchTypeName } from './meta-utils';
import { movedim, reshape } from './shape-ops';
import { separableMatmul } from './separable-matmul';

/**
 * Note [Separable interpolation]
 * F.interpolate's trilinear and bicubic modes (and nearest on 5-d input) are separable: the
 * value at an output point is a product of one weight per spatial dim, summed over the input
 * points each dim's weights touch. So each mode is one [in, out] weight matrix per dim, built
 * here from PyTorch's own index arithmetic (area_pixel_compute_source_index, the cubic
 * convolution with A = -0.75 and indices clamped to the border, nearest's floor(dst * scale)),
 * and the resize is one matmul per dim. The gradient is matmul's (the transposed weights), so
 * these modes need no kernels or derivatives and run on any backend.
 */

export type SeparableMode = 'linear' | 'cubic' | 'nearest';

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

/** Resizes the spatial dims (all after the first two) of `input` to `outSize` (Note [Separable interpolation]). */
export function separableResize(op: string, input: Tensor, mode: SeparableMode, outSize: readonly number[], alignCorners: boolean, scales: readonly (number | null)[]): Tensor {
  if (!isFloatingType(input.dtype)) {
    const kernel = mode === 'cubic' ? 'upsample_bicubic2d_out_frame' : mode === 'linear' ? 'upsample_trilinear3d_out_frame' : 'upsample_nearest3d_out_frame';
    throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(input.dtype)}'`);
  }
  const spatial = input.shape.slice(2);
  if (spatial.some((n) => n <= 0) || outSize.some((n) => n <= 0)) {
    throw new ShapeError(`${op}: Input and output sizes should be greater than 0, but got input ${fmtShape(spatial)} output ${fmtShape(outSize)}`);
  }
  return tidy(() => {
    const mats = spatial.map((n, j) => reshape(tensor(resizeWeights(mode, n, outSize[j], alignCorners, scales[j] ?? null), { dtype: input.dtype, device: input.device }), [n, outSize[j]]));
    // a channels_last_3d input gives a channels_last_3d result, as PyTorch 1.13's nearest3d and
    // trilinear kernels (Note [Outputs in the input's memory format]); the 4-d bicubic keeps its layout
    const format = input.dim() === 5 && suggestMemoryFormat(input.shape, input.stride()) === 'channels_last_3d' ? 'channels_last_3d' : 'contiguous';
    let t: Tensor;
    if (input.dim() === 5) {
      // the input gradient (Note [Gradient layout of separable matmuls]): nearest3d's backward
      // kernel makes it contiguous; trilinear's makes it in grad_output's layout, which is the
      // input's when grad_output is laid out as the output (Note [Trilinear gradient layout])
      t = separableMatmul(input, mats, mode === 'linear' && format === 'channels_last_3d' ? 'channels_last' : 'contiguous');
    } else {
      t = input;
      mats.forEach((w, j) => (t = movedim(matmul(movedim(t, 2 + j, -1), w), -1, 2 + j)));
    }
    return t === input ? t.clone({ memoryFormat: format }) : t.contiguous({ memoryFormat: format });
  });
}
