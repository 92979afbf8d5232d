import { isFloatingType } from '../dtype';
import { DTypeError, NotImplementedError, ShapeError, TorchError, ValueError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { linspace, ones } from './factories';
import { front } from './front';
import { gather } from './gather-scatter';
import { stack } from './join';
import { bmm } from './linalg';
import { torchTypeName } from './meta-utils';
import { where } from './pointwise';

/**
 * Note [grid_sample as gathers]
 * F.grid_sample and F.affine_grid for 4-d inputs, as compositions of ordinary ops (so every
 * backend runs them and autograd differentiates them), with PyTorch 1.13's arithmetic
 * (aten/src/ATen/native/GridSampler.h and its CPU kernel):
 *  - a grid coordinate in [-1, 1] is unnormalised to a pixel position, `(c + 1) (size - 1) / 2`
 *    with align_corners, else `(c + 1) size / 2 - 1 / 2`; `border` clips it to [0, size - 1],
 *    `reflection` reflects it about the edges (align_corners: about pixels 0 and size - 1, else
 *    about -1/2 and size - 1/2) and then clips;
 *  - `bilinear` weighs the four neighbours by (1 - w, w) x (1 - n, n), `nearest` takes the
 *    neighbour at the position rounded half to even, `bicubic` the 4 x 4 neighbours with the
 *    cubic convolution (A = -0.75), each neighbour's position padded on its own;
 *  - a neighbour outside the image contributes zero (it is never read).
 * Each neighbour is one `gather` from the image viewed as [N, C, H W], so the input gradient
 * is gather's (a scatter-add) and the grid gradient comes from the weights' dependence on
 * the position (floor and rounding have none), as PyTorch's backward computes it; where
 * PyTorch's clip and reflection derivatives treat a position exactly on an edge as clipped,
 * clamp's treats it as inside (positions exactly on an edge only).
 * PyTorch records GridSampler2DBackward0 and AffineGridGeneratorBackward0: the same numbers
 * (nearest's grid gradient, zeros in PyTorch, is none here: its value does not depend on the grid).
 */

type Padding = 'zeros' | 'border' | 'reflection';
const A = -0.75;

/** PyTorch's grid_sampler_unnormalize. */
function unnormalize(c: Tensor, size: number, align: boolean): Tensor {
  return align ? c.add(1).mul((size - 1) / 2) : c.add(1).mul(size / 2).sub(0.5);
}

/** PyTorch's reflect_coordinates: `x` reflected into [low / 2, high / 2]. */
function reflect(x: Tensor, twiceLow: number, twiceHigh: number): Tensor {
  if (twiceLow === twiceHigh) return x.mul(0);
  const min = twiceLow / 2;
  const span = (twiceHigh - twiceLow) / 2;
  const a = x.sub(min).abs();
  const extra = a.fmod(span);
  const flips = a.div(span).floor();
  return where(flips.remainder(2).eq(0), extra.add(min), extra.neg().add(span + min));
}

/** PyTorch's compute_coordinates: the padding mode applied to a pixel position. */
function pad(x: Tensor, size: number, padding: Padding, align: boolean): Tensor {
  if (padding === 'zeros') return x;
  const r = padding === 'border' ? x : align ? reflect(x, 0, 2 * (size - 1)) : reflect(x, -1, 2 * size - 1);
  return r.clamp(0, size - 1);
}

/**
 * The image's values at integer positions (x, y) ([N, Ho, Wo] float tensors), as [N, C, Ho,
 * Wo]: zero where a position is outside the image (Note [grid_sample as gathers]).
 */
function tap(flat: Tensor, x: Tensor, y: Tensor, H: number, W: number): Tensor {
  const [N, C] = flat.shape;
  const out = x.shape;
  const inside = x.ge(0).logicalAnd(x.le(W - 1)).logicalAnd(y.ge(0)).logicalAnd(y.le(H - 1));
  const index = where(inside, y.mul(W).add(x), 0).to('int64').reshape([N, 1, -1]).expand([N, C, -1]);
  const v = gather(flat, 2, index);
  return where(inside.reshape([N, 1, -1]), v, 0).reshape([N, C, out[1], out[2]]);
}

/** The cubic convolution's four weights for a fraction t (PyTorch's get_cubic_upsample_coefficients). */
function cubicWeights(t: Tensor): Tensor[] {
  const c1 = (x: Tensor) => x.mul(A + 2).sub(A + 3).mul(x).mul(x).add(1);
  const c2 = (x: Tensor) => x.mul(A).sub(5 * A).mul(x).add(8 * A).mul(x).sub(4 * A);
  const u = t.neg().add(1);
  return [c2(t.add(1)), c1(t), c1(u), c2(u.add(1))];
}

/** `F.grid_sample(input, grid, { mode, paddingMode, alignCorners })`: `input` sampled at the grid's positions. */
export const gridSample = front(
  "grid_sample(Tensor input, Tensor grid, str mode='bilinear', str padding_mode='zeros', bool? align_corners=None) -> Tensor",
  { method: false, namespaces: ['nn.functional'], choices: { mode: ['bilinear', 'nearest', 'bicubic'], padding_mode: ['zeros', 'border', 'reflection'] } },
).run(([input, grid, mode, paddingMode, alignCorners]): Tensor => {
  const op = 'grid_sample';
  if (mode !== 'bilinear' && mode !== 'nearest' && mode !== 'bicubic') {
    throw new ValueError(`nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '${String(mode)}'`);
  }
  if (paddingMode !== 'zeros' && paddingMode !== 'border' && paddingMode !== 'reflection') {
    throw new ValueError(`nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', but got: '${String(paddingMode)}'`);
  }
  const align = alignCorners ?? false;
  if (input.dim() === 5) throw new NotImplementedError(`${op}: 5-d (volumetric) inputs are not supported by torch-ts yet`);
  if (input.dim() !== 4 || grid.dim() !== 4) {
    throw new ShapeError(`grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but got input with sizes ${fmtShape(input.shape)} and grid with sizes ${fmtShape(grid.shape)}`);
  }
  if (input.dtype !== grid.dtype) throw new DTypeError(`${op}: expected scalar type ${torchTypeName(input.dtype)} but found ${torchTypeName(grid.dtype)}`);
  if (!isFloatingType(input.dtype)) throw new DTypeError(`${op}: grid_sampler_2d_cpu not implemented for ${torchTypeName(input.dtype)}`);
  if (input.device.toString() !== grid.device.toString()) {
    throw new TorchError(`grid_sampler(): expected input and grid to be on same device, but input is on ${input.device} and grid is on ${grid.device}`);
  }
  const [N, C, H, W] = input.shape;
  if (grid.shape[0] !== N) {
    throw new ShapeError(`grid_sampler(): expected grid and input to have same batch size, but got input with sizes ${fmtShape(input.shape)} and grid with sizes ${fmtShape(grid.shape)}`);
  }
  if (grid.shape[3] !== 2) {
    throw new ShapeError(`grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes ${fmtShape(grid.shape)}`);
  }
  for (const d of [2, 3]) {
    if (input.shape[d] === 0) {
      throw new ShapeError(`grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes ${fmtShape(input.shape)} with dimension ${d} being empty`);
    }
  }
  return tidy(() => {
    const flat = input.reshape([N, C, H * W]);
    const gx = grid.select(3, 0);
    const gy = grid.select(3, 1);
    if (mode === 'bicubic') {
      const ix = unnormalize(gx, W, align);
      const iy = unnormalize(gy, H, align);
      const x0 = ix.detach().floor();
      const y0 = iy.detach().floor();
      const cx = cubicWeights(ix.sub(x0));
      const cy = cubicWeights(iy.sub(y0));
      const at = (dx: number, dy: number) =>
        tap(flat, pad(x0.add(dx), W, paddingMode, align).trunc(), pad(y0.add(dy), H, paddingMode, align).trunc(), H, W);
      let out: Tensor | null = null;
      for (let i = 0; i < 4; i++) {
        let row: Tensor | null = null;
        for (let j = 0; j < 4; j++) {
          const term = at(j - 1, i - 1).mul(cx[j].unsqueeze(1));
          row = row === null ? term : row.add(term);
        }
        const term = row!.mul(cy[i].unsqueeze(1));
        out = out === null ? term : out.add(term);
      }
      return out!;
    }
    const ix = pad(unnormalize(gx, W, align), W, paddingMode, align);
    const iy = pad(unnormalize(gy, H, align), H, paddingMode, align);
    if (mode === 'nearest') return tap(flat, ix.detach().round(), iy.detach().round(), H, W);
    const x0 = ix.detach().floor();
    const y0 = iy.detach().floor();
    const w = ix.sub(x0).unsqueeze(1);
    const n = iy.sub(y0).unsqueeze(1);
    const e = w.neg().add(1);
    const s = n.neg().add(1);
    const x1 = x0.add(1);
    const y1 = y0.add(1);
    return tap(flat, x0, y0, H, W)
      .mul(s.mul(e))
      .add(tap(flat, x1, y0, H, W).mul(s.mul(w)))
      .add(tap(flat, x0, y1, H, W).mul(n.mul(e)))
      .add(tap(flat, x1, y1, H, W).mul(n.mul(w)));
  });
});

/** PyTorch's linspace_from_neg_one: the pixel centres of `steps` pixels in [-1, 1]. */
function fromNegOne(theta: Tensor, steps: number, align: boolean): Tensor {
  if (steps <= 1) return linspace(0, 0, 1, { dtype: theta.dtype, device: theta.device });
  const r = linspace(-1, 1, steps, { dtype: theta.dtype, device: theta.device });
  return align ? r : r.mul(steps - 1).div(steps);
}

/**
 * `F.affine_grid(theta, size, { alignCorners })`: the sampling grid [N, H, W, 2] of the affine
 * maps `theta` [N, 2, 3] for an output of `size` [N, C, H, W] (PyTorch's base grid of pixel
 * centres (x, y, 1), times theta transposed).
 */
export const affineGrid = front('affine_grid(Tensor theta, int[] size, bool? align_corners=None) -> Tensor', { method: false, namespaces: ['nn.functional'] }).run(
  ([theta, size, alignCorners]): Tensor => {
    const align = alignCorners ?? false;
    if (!isFloatingType(theta.dtype)) throw new ValueError(`Expected theta to have floating point type, but got torch.${theta.dtype}`);
    if (size.length === 5) throw new NotImplementedError('affine_grid: 5-d sizes (3-d affine transforms) are not supported by torch-ts yet');
    if (size.length !== 4) {
      throw new NotImplementedError(`affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. Got size ${fmtShape(size)}.`);
    }
    if (theta.dim() !== 3 || theta.shape[1] !== 2 || theta.shape[2] !== 3) {
      throw new ValueError(`Expected a batch of 2D affine matrices of shape Nx2x3 for size ${fmtShape(size)}. Got torch.Size(${fmtShape(theta.shape)}).`);
    }
    if (size.some((s) => s <= 0)) throw new ValueError(`Expected non-zero, positive output size. Got ${fmtShape(size)}`);
    const [N, , H, W] = size;
    if (theta.shape[0] !== N) {
      throw new ShapeError(`bmm: Expected size for first two dimensions of batch2 tensor to be: [${N}, 3] but got: [${theta.shape[0]}, 3].`);
    }
    return tidy(() => {
      const xs = fromNegOne(theta, W, align).reshape([1, W]).expand([H, W]);
      const ys = fromNegOne(theta, H, align).reshape([H, 1]).expand([H, W]);
      const base = stack([xs, ys, ones([H, W], { dtype: theta.dtype, device: theta.device })], 2).reshape([1, H * W, 3]).expand([N, H * W, 3]);
      return bmm(base, theta.transpose(1, 2)).reshape([N, H, W, 2]);
    });
  },
);
