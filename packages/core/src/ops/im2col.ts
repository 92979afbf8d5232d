/**
 * `F.unfold` (im2col, nn.Unfold's function) and `F.fold` (col2im, its adjoint), named
 * `im2col` and `col2im` in core, where `unfold` is Tensor.unfold's view (Note [aten's own
 * signatures on torch]).
 *
 * Note [unfold and fold as index_select and index_add]
 * Each column of im2col is the input read at a fixed set of places of its (padded) plane,
 * the same for every batch and channel: one index over the flattened plane, of kh * kw * L
 * positions (kernel offset major, then block), picks them all. So unfold is constant_pad_nd,
 * a reshape and one index_select along the plane, and fold, its adjoint, is one index_add of
 * the columns into a zero plane (overlapping blocks sum there), then a crop of the padding.
 * Both run on every backend that has the two index kernels, and autograd differentiates them
 * through their parts (index_select's gradient is an index_add and back), where PyTorch
 * records Im2ColBackward0 / Col2ImBackward0: the same gradients under other Node names.
 */
import { isFloatingType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { front } from './front';
import { unwrapTensor } from './call';
import { tensor, zeros } from './factories';
import { indexAdd, indexSelect } from './gather-scatter';
import { torchTypeName } from './meta-utils';
import { constantPadNd } from './resample';
import { narrow, reshape } from './shape-ops';
import { squeeze, unsqueeze } from './views';

type Pair = readonly [number, number];

interface Geometry {
  readonly kernel: Pair;
  readonly dilation: Pair;
  readonly padding: Pair;
  readonly stride: Pair;
}

function pairArg(op: string, name: string, v: readonly number[]): Pair {
  if (v.length !== 2) throw new TorchError(`${op}: It is expected ${name} equals to 2, but got size ${v.length}`);
  return [v[0], v[1]];
}

function geometry(op: string, kernel: readonly number[], dilation: readonly number[], padding: readonly number[], stride: readonly number[]): Geometry {
  const g = { kernel: pairArg(op, 'kernel_size', kernel), dilation: pairArg(op, 'dilation', dilation), padding: pairArg(op, 'padding', padding), stride: pairArg(op, 'stride', stride) };
  const [kh, kw] = g.kernel;
  if (!(kh > 0 && kw > 0)) throw new ShapeError(`${op}: kernel size should be greater than zero, but got kernel_height: ${kh} kernel_width: ${kw}`);
  const [dh, dw] = g.dilation;
  if (!(dh > 0 && dw > 0)) throw new ShapeError(`${op}: dilation should be greater than zero, but got dilation_height: ${dh} dilation_width: ${dw}`);
  const [ph, pw] = g.padding;
  if (!(ph >= 0 && pw >= 0)) throw new ShapeError(`${op}: padding should be non-negative, but got pad_height: ${ph} pad_width: ${pw}`);
  const [sh, sw] = g.stride;
  if (!(sh > 0 && sw > 0)) throw new ShapeError(`${op}: stride should be greater than zero, but got stride_height: ${sh} stride_width: ${sw}`);
  return g;
}

/** The number of blocks along one dim (C's integer division, as PyTorch's, so it may be negative). */
function blocks(size: number, k: number, d: number, p: number, s: number): number {
  return Math.trunc((size + 2 * p - (d * (k - 1) + 1)) / s) + 1;
}

const fmtPair = (p: Pair) => `(${p[0]}, ${p[1]})`;

/** Where each column entry reads from in the padded plane (width `wp`), kernel offset major (Note above). */
function planeIndex(g: Geometry, bh: number, bw: number, wp: number): number[] {
  const [kh, kw] = g.kernel;
  const [dh, dw] = g.dilation;
  const [sh, sw] = g.stride;
  const idx: number[] = [];
  for (let i = 0; i < kh; i++) {
    for (let j = 0; j < kw; j++) {
      for (let oh = 0; oh < bh; oh++) {
        const row = (oh * sh + i * dh) * wp;
        for (let ow = 0; ow < bw; ow++) idx.push(row + ow * sw + j * dw);
      }
    }
  }
  return idx;
}

function checkFloating(op: string, kernelName: string, x: Tensor): void {
  if (!isFloatingType(x.dtype)) throw new DTypeError(`${op}: "${kernelName}" not implemented for '${torchTypeName(x.dtype)}'`);
}

/** Runs `f` on `x` with a batch dim added where `x` has none, and takes it off the result. */
function batched(x: Tensor, unbatchedDim: number, f: (b: Tensor) => Tensor): Tensor {
  return x.dim() === unbatchedDim ? tidy(() => squeeze(f(unsqueeze(x, 0)), 0)) : tidy(() => f(x));
}

/**
 * `F.unfold(input, kernelSize, dilation = 1, padding = 0, stride = 1)`: the sliding blocks of
 * (N, C, H, W) (or unbatched (C, H, W)) as columns, (N, C * kh * kw, L).
 */
export const im2col = front('unfold(Tensor input, int[2] kernel_size, int[2] dilation=1, int[2] padding=0, int[2] stride=1) -> Tensor', {
  method: false,
  namespaces: ['nn.functional'],
  name: 'im2col',
  exportAs: 'unfold',
}).run(([input, kernelSize, dilation, padding, stride]): Tensor => {
  const op = 'unfold';
  const x = unwrapTensor(op, 'input', input);
  const g = geometry(op, kernelSize, dilation, padding, stride);
  const batch = x.dim === 4;
  if ((x.dim !== 3 && x.dim !== 4) || x.sizes.some((s, i) => s === 0 && !(batch && i === 0))) {
    throw new ShapeError(`${op}: Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ${fmtShape(x.sizes)}`);
  }
  const [h, w] = x.sizes.slice(-2);
  const [ph, pw] = g.padding;
  const bh = blocks(h, g.kernel[0], g.dilation[0], ph, g.stride[0]);
  const bw = blocks(w, g.kernel[1], g.dilation[1], pw, g.stride[1]);
  if (bh < 1 || bw < 1) {
    throw new ShapeError(
      `${op}: Given input with spatial size ${fmtPair([h, w])}, kernel_size=${fmtPair(g.kernel)}, dilation=${fmtPair(g.dilation)}, padding=${fmtPair(g.padding)}, calculated shape of the array of sliding blocks as ${fmtPair([bh, bw])}, but its components must be at least one.`,
    );
  }
  checkFloating(op, 'im2col_out_cpu', input);
  const [kh, kw] = g.kernel;
  return batched(input, 3, (b) => {
    const [n, c] = b.shape;
    const padded = ph > 0 || pw > 0 ? constantPadNd(b, [pw, pw, ph, ph]) : b;
    const wp = w + 2 * pw;
    const plane = reshape(padded, [n, c, (h + 2 * ph) * wp]);
    const index = tensor(planeIndex(g, bh, bw, wp), { dtype: 'int64', device: b.device });
    return reshape(indexSelect(plane, 2, index), [n, c * kh * kw, bh * bw]);
  });
});

/**
 * `F.fold(input, outputSize, kernelSize, dilation = 1, padding = 0, stride = 1)`: columns
 * (N, C * kh * kw, L) (or unbatched (C * kh * kw, L)) summed back into (N, C, H, W), where
 * overlapping blocks add (unfold's adjoint).
 */
export const col2im = front(
  'fold(Tensor input, int[2] output_size, int[2] kernel_size, int[2] dilation=1, int[2] padding=0, int[2] stride=1) -> Tensor',
  { method: false, namespaces: ['nn.functional'], name: 'col2im', exportAs: 'fold' },
).run(([input, outputSize, kernelSize, dilation, padding, stride]): Tensor => {
  const op = 'fold';
  const x = unwrapTensor(op, 'input', input);
  const [h, w] = pairArg(op, 'output_size', outputSize);
  const g = geometry(op, kernelSize, dilation, padding, stride);
  const batch = x.dim === 3;
  if ((x.dim !== 2 && x.dim !== 3) || x.sizes.some((s, i) => s === 0 && !(batch && i === 0))) {
    throw new ShapeError(`${op}: Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: ${fmtShape(x.sizes)}`);
  }
  const [kh, kw] = g.kernel;
  const [ck, l] = x.sizes.slice(-2);
  if (ck % (kh * kw) !== 0) {
    throw new ShapeError(
      `${op}: Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=${ck} and kernel_size=${fmtPair(g.kernel)}.`,
    );
  }
  const [ph, pw] = g.padding;
  const bh = blocks(h, kh, g.dilation[0], ph, g.stride[0]);
  const bw = blocks(w, kw, g.dilation[1], pw, g.stride[1]);
  if (bh * bw !== l) {
    throw new ShapeError(
      `${op}: Given output_size=${fmtPair([h, w])}, kernel_size=${fmtPair(g.kernel)}, dilation=${fmtPair(g.dilation)}, padding=${fmtPair(g.padding)}, stride=${fmtPair(g.stride)}, expected size of input's dimension 2 to match the calculated number of sliding blocks ${bh} * ${bw} = ${bh * bw}, but got input.size(2)=${l}.`,
    );
  }
  if (bh < 1 || bw < 1) {
    throw new ShapeError(
      `${op}: Given output_size=${fmtPair([h, w])}, kernel_size=${fmtPair(g.kernel)}, dilation=${fmtPair(g.dilation)}, padding=${fmtPair(g.padding)}, stride=${fmtPair(g.stride)}, calculated shape of the array of sliding blocks as ${fmtPair([bh, bw])}, which is too small (non-positive).`,
    );
  }
  checkFloating(op, 'col2im_out_cpu', input);
  const c = ck / (kh * kw);
  const hp = h + 2 * ph;
  const wp = w + 2 * pw;
  return batched(input, 2, (b) => {
    const n = b.shape[0];
    const index = tensor(planeIndex(g, bh, bw, wp), { dtype: 'int64', device: b.device });
    const plane = indexAdd(zeros([n, c, hp * wp], { dtype: b.dtype, device: b.device }), 2, index, reshape(b, [n, c, kh * kw * l]));
    const image = reshape(plane, [n, c, hp, wp]);
    return ph > 0 || pw > 0 ? narrow(narrow(image, 2, ph, h), 3, pw, w) : image;
  });
});
