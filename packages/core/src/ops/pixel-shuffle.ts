import { ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import type { TensorImpl } from '../tensor/tensor-impl';
import { suggestMemoryFormat } from '../tensor/memory-format';
import { tidy } from '../tensor/scope';
import { front } from './front';
import { unwrapTensor } from './call';
import { contiguous } from './copy';
import { reshape } from './shape-ops';
import { permute } from './views';

/**
 * Note [Pixel and channel shuffles are reshapes]
 * pixel_shuffle, pixel_unshuffle and channel_shuffle only move elements: each is a reshape
 * that splits a dim, a permute, and a reshape that merges dims again (a copy, since the
 * permuted tensor is not contiguous), as PyTorch's math_pixel_shuffle and
 * math_channel_shuffle are. They take every dtype and run on every backend, and autograd
 * differentiates them through the views (PyTorch records PixelShuffleBackward0; the
 * gradients are the same permutation). A channels-last input gives a channels-last result, as
 * PyTorch 1.13's CPU kernels lay their outputs out in the input's suggested memory format: the
 * permute then puts channels innermost, and the merged tensor is viewed back as [N, C, H, W].
 */

/** Whether a 4-d input's suggested memory format is channels-last (PyTorch's suggest_memory_format). */
const channelsLast = (x: TensorImpl): boolean => x.dim === 4 && suggestMemoryFormat(x.sizes, x.strides) === 'channels_last';

// (torch.pixel_shuffle and F.pixel_shuffle; no Tensor methods)
const NAMESPACES = { method: false, namespaces: ['torch', 'nn.functional'] } as const;

/** F.pixel_shuffle(input, upscale_factor): [*, C * r^2, H, W] -> [*, C, H * r, W * r]. */
export const pixelShuffle = front('pixel_shuffle(Tensor self, int upscale_factor) -> Tensor', NAMESPACES).run(([self, r]): Tensor => {
  const op = 'pixel_shuffle';
  const x = unwrapTensor(op, 'self', self);
  if (x.dim < 3) throw new ShapeError(`${op} expects input to have at least 3 dimensions, but got input with ${x.dim} dimension(s)`);
  if (r <= 0) throw new TorchError(`${op} expects a positive upscale_factor, but got ${r}`);
  const [c, h, w] = x.sizes.slice(-3);
  if (c % (r * r) !== 0) {
    throw new ShapeError(`${op} expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)=${c} is not divisible by ${r * r}`);
  }
  const batch = x.sizes.slice(0, -3);
  const n = batch.length;
  return tidy(() => {
    const split = reshape(self, [...batch, c / (r * r), r, r, h, w]);
    // [n, h, i, w, j, c'] in memory: [N, H r, W r, C'] seen as channels-last [N, C', H r, W r]
    if (channelsLast(x)) return permute(reshape(contiguous(permute(split, [0, 4, 2, 5, 3, 1])), [batch[0], h * r, w * r, c / (r * r)]), [0, 3, 1, 2]);
    const moved = permute(split, [...batch.map((_, i) => i), n, n + 3, n + 1, n + 4, n + 2]);
    return reshape(contiguous(moved), [...batch, c / (r * r), h * r, w * r]);
  });
});

/** F.pixel_unshuffle(input, downscale_factor): [*, C, H * r, W * r] -> [*, C * r^2, H, W]. */
export const pixelUnshuffle = front('pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor', NAMESPACES).run(([self, r]): Tensor => {
  const op = 'pixel_unshuffle';
  const x = unwrapTensor(op, 'self', self);
  if (x.dim < 3) throw new ShapeError(`${op} expects input to have at least 3 dimensions, but got input with ${x.dim} dimension(s)`);
  if (r <= 0) throw new TorchError(`${op} expects a positive downscale_factor, but got ${r}`);
  const [c, h, w] = x.sizes.slice(-3);
  if (h % r !== 0) throw new ShapeError(`${op} expects height to be divisible by downscale_factor, but input.size(-2)=${h} is not divisible by ${r}`);
  if (w % r !== 0) throw new ShapeError(`${op} expects width to be divisible by downscale_factor, but input.size(-1)=${w} is not divisible by ${r}`);
  const batch = x.sizes.slice(0, -3);
  const n = batch.length;
  return tidy(() => {
    const split = reshape(self, [...batch, c, h / r, r, w / r, r]);
    // [n, h, w, c, i, j] in memory: [N, H, W, C r r] seen as channels-last [N, C r r, H, W]
    if (channelsLast(x)) return permute(reshape(contiguous(permute(split, [0, 2, 4, 1, 3, 5])), [batch[0], h / r, w / r, c * r * r]), [0, 3, 1, 2]);
    const moved = permute(split, [...batch.map((_, i) => i), n, n + 2, n + 4, n + 1, n + 3]);
    return reshape(contiguous(moved), [...batch, c * r * r, h / r, w / r]);
  });
});

/** F.channel_shuffle(input, groups): [N, g * k, *] -> channels regrouped as [N, k * g, *] (k major). */
export const channelShuffle = front('channel_shuffle(Tensor self, int groups) -> Tensor', NAMESPACES).run(([self, groups]): Tensor => {
  const op = 'channel_shuffle';
  const x = unwrapTensor(op, 'self', self);
  if (x.dim <= 2) throw new ShapeError(`${op} expects input with > 2 dims, but got input with sizes ${fmtShape(x.sizes)}`);
  if (groups <= 0) throw new TorchError(`${op}: Number of groups to divide channels in must be positive. Value of groups:${groups}`);
  const c = x.sizes[1];
  if (c % groups !== 0) throw new ShapeError(`${op}: Number of channels must be divisible by groups. Got ${c} channels and ${groups} groups.`);
  const rest = x.sizes.slice(2);
  return tidy(() => {
    const split = reshape(self, [x.sizes[0], groups, c / groups, ...rest]);
    const moved = permute(split, [0, 2, 1, ...rest.map((_, i) => 3 + i)]);
    return reshape(contiguous(moved), x.sizes);
  });
});
