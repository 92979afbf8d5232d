import { ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { front, overloadedFront, type OptionsOf } from './front';
import { unwrapOptionalTensor, unwrapTensor } from './call';
import { conv2d, convOutputSizes, convTranspose2d, intList, type ConvParams } from './conv';
import { add } from './generated/table-ops';
import { cat, stack } from './join';
import { contiguous } from './copy';
import { zeros } from './factories';
import { pad } from './resample';
import { movedim, narrow, reshape } from './shape-ops';
import { permute, select, sliceDim, squeeze, unsqueeze } from './views';

/**
 * Note [3-d convolution over depth]
 * conv3d and conv_transpose3d are composites of the 2-d convolution, so they need no kernels
 * and no derivative entries of their own, and run wherever conv2d runs (CPU and WebGPU):
 *  - conv3d: the kD depth slices that each output depth reads (x[:, :, o*s + kd*d], depth
 *    zero-padded first) are stacked into the channels of one batch of planes
 *    [N * D_out, G * kD * C_in/g, H, W], the weight's depth moved into its input channels
 *    [C_out, kD * C_in/g, kH, kW] in the same (kd, c) order within each group: one conv2d
 *    with the original groups then sums over (kd, c) as the 3-d convolution does.
 *  - conv_transpose3d: one conv_transpose2d of the planes [N * D_in, C_in, H, W] with the
 *    weight's depth moved into its output channels gives each (input depth, kd) pair's
 *    contribution; the pair (i, kd) lands at output depth i*s + kd*d - p, which is a
 *    zero-interleave (stride s), a shift (kd*d) and a crop (p, output_padding) per kd.
 * Operands are checked first by the convolution's own checks (PyTorch's messages).
 */

const CONV = { method: false, namespaces: ['torch', 'nn.functional'], choices: { padding: ['valid', 'same'] } } as const;

interface Conv3dOptions {
  readonly stride?: number | readonly number[];
  readonly padding?: number | readonly number[] | string;
  readonly dilation?: number | readonly number[];
  readonly groups?: number;
}

function checkRank(op: string, x: { dim: number; sizes: readonly number[] }): void {
  if (x.dim !== 4 && x.dim !== 5) throw new ShapeError(`${op}: Expected 4D (unbatched) or 5D (batched) input to ${op}, but got input of size: ${fmtShape(x.sizes)}`);
}

function conv3dImpl(input: Tensor, weight: Tensor, bias: Tensor | null, o: Conv3dOptions): Tensor {
  const op = 'conv3d';
  const x = unwrapTensor(op, 'input', input);
  const w = unwrapTensor(op, 'weight', weight);
  const b = unwrapOptionalTensor(op, 'bias', bias) ?? null;
  checkRank(op, x);
  if (x.dim === 4) return tidy(() => squeeze(conv3dImpl(unsqueeze(input, 0), weight, bias, o), 0));
  const stride = intList(op, 'stride', o.stride ?? 1, 3);
  const dilation = intList(op, 'dilation', o.dilation ?? 1, 3);
  const groups = o.groups ?? 1;
  const zero3 = [0, 0, 0];
  let padding: number[];
  if (o.padding === 'valid') padding = zero3;
  else if (o.padding === 'same') {
    if (stride.some((s) => s !== 1)) throw new TorchError(`${op}: padding='same' is not supported for strided convolutions`);
    convOutputSizes(op, x, w, null, { stride, padding: zero3, dilation, transposed: false, outputPadding: zero3, groups }, true);
    // as conv2d's 'same': total d * (k - 1) split evenly, an odd remainder padded on the right
    padding = [];
    const extra: number[] = [];
    for (let i = 0; i < 3; i++) {
      const total = dilation[i] * (w.sizes[2 + i] - 1);
      padding.push(Math.floor(total / 2));
      extra.push(total - 2 * Math.floor(total / 2));
    }
    if (extra.some((e) => e > 0)) {
      return tidy(() => conv3dImpl(pad(input, [0, extra[2], 0, extra[1], 0, extra[0]]), weight, bias, { ...o, padding }));
    }
  } else if (typeof o.padding === 'string') throw new TorchError(`${op}: Invalid padding string: '${o.padding}'`);
  else padding = intList(op, 'padding', o.padding ?? 0, 3);
  const p: ConvParams = { stride, padding, dilation, transposed: false, outputPadding: zero3, groups };
  const out = convOutputSizes(op, x, w, b, p, true);
  const [N, , , H, W] = x.sizes;
  const [Co, Cg, kD, kH, kW] = w.sizes;
  const Do = out[2];
  if (N === 0 || Do === 0 || out[3] === 0 || out[4] === 0) return zeros(out, { dtype: x.dtype, device: input.device });
  return tidy(() => {
    const xp = padding[0] > 0 ? pad(input, [0, 0, 0, 0, padding[0], padding[0]]) : input;
    // the depth slices each output depth reads, [N, C, kD, D_out, H, W] (Note [3-d convolution over depth])
    const slices: Tensor[] = [];
    for (let kd = 0; kd < kD; kd++) slices.push(sliceDim(xp, 2, kd * dilation[0], kd * dilation[0] + (Do - 1) * stride[0] + 1, stride[0]));
    const G = groups;
    const st = reshape(stack(slices, 2), [N, G, Cg, kD, Do, H, W]);
    const planes = reshape(permute(st, [0, 4, 1, 3, 2, 5, 6]), [N * Do, G * kD * Cg, H, W]);
    const w2 = reshape(permute(weight, [0, 2, 1, 3, 4]), [Co, kD * Cg, kH, kW]);
    const y = conv2d(planes, w2, bias, { stride: stride.slice(1), padding: padding.slice(1), dilation: dilation.slice(1), groups });
    return contiguous(movedim(reshape(y, [N, Do, Co, out[3], out[4]]), 1, 2));
  });
}

/** F.conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1); padding an int, a triple, 'valid' or 'same'. */
export const conv3d = overloadedFront(
  [
    'conv3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] dilation=1, int groups=1) -> Tensor',
    'conv3d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, str padding="valid", int[3] dilation=1, int groups=1) -> Tensor',
  ],
  CONV,
).run(({ values: [input, weight, bias, stride, padding, dilation, groups] }): Tensor => conv3dImpl(input, weight, bias ?? null, { stride, padding, dilation, groups }));
export type Conv3dFunctionalOptions = OptionsOf<typeof conv3d>;

interface ConvTranspose3dOptions {
  readonly stride: readonly number[];
  readonly padding: readonly number[];
  readonly outputPadding: readonly number[];
  readonly groups: number;
  readonly dilation: readonly number[];
}

function convTranspose3dImpl(input: Tensor, weight: Tensor, bias: Tensor | null, o: ConvTranspose3dOptions): Tensor {
  const op = 'conv_transpose3d';
  const x = unwrapTensor(op, 'input', input);
  const w = unwrapTensor(op, 'weight', weight);
  const b = unwrapOptionalTensor(op, 'bias', bias) ?? null;
  checkRank(op, x);
  if (x.dim === 4) return tidy(() => squeeze(convTranspose3dImpl(unsqueeze(input, 0), weight, bias, o), 0));
  const p: ConvParams = {
    stride: intList(op, 'stride', o.stride, 3),
    padding: intList(op, 'padding', o.padding, 3),
    dilation: intList(op, 'dilation', o.dilation, 3),
    transposed: true,
    outputPadding: intList(op, 'output_padding', o.outputPadding, 3),
    groups: o.groups,
  };
  const out = convOutputSizes(op, x, w, b, p, true);
  const [N, Cin, Din, H, W] = x.sizes;
  const [, Cog, kD, kH, kW] = w.sizes;
  const G = p.groups;
  const [, Co, Do, Ho, Wo] = out;
  if (N === 0 || Din === 0 || out.some((s) => s === 0)) return zeros(out, { dtype: x.dtype, device: input.device });
  const [s, pd, d] = [p.stride[0], p.padding[0], p.dilation[0]];
  return tidy(() => {
    // (through a full-depth slice, whose backward writes the gradient into a contiguous zeros
    // of the input's shape: the input gradient comes back contiguous, as PyTorch 1.13's, not
    // in the permuted order of the planes)
    const planes = reshape(movedim(sliceDim(input, 2, 0, Din, 1), 2, 1), [N * Din, Cin, H, W]);
    // the weight's depth in its output channels, (kd, c) within each group
    const w2 = reshape(permute(reshape(weight, [G, Cin / G, Cog, kD, kH, kW]), [0, 1, 3, 2, 4, 5]), [Cin, kD * Cog, kH, kW]);
    const y = convTranspose2d(planes, w2, null, {
      stride: p.stride.slice(1),
      padding: p.padding.slice(1),
      outputPadding: p.outputPadding.slice(1),
      groups: G,
      dilation: p.dilation.slice(1),
    });
    // [N, D_in, G, kD, C_out/g, H_out, W_out] -> per kd, [N, D_in, C_out, H_out, W_out]
    const y7 = reshape(y, [N, Din, G, kD, Cog, Ho, Wo]);
    const spread = (Din - 1) * s + 1;
    const full = (Din - 1) * s + d * (kD - 1) + 1 + p.outputPadding[0];
    let acc: Tensor | null = null;
    for (let kd = 0; kd < kD; kd++) {
      let t = reshape(select(y7, 3, kd), [N, Din, Co, Ho, Wo]);
      if (s > 1) {
        // interleave s - 1 zero depths after each input depth (Note [3-d convolution over depth])
        const z = zeros([N, Din, s - 1, Co, Ho, Wo], { dtype: x.dtype, device: input.device });
        t = narrow(reshape(cat([unsqueeze(t, 2), z], 2), [N, Din * s, Co, Ho, Wo]), 1, 0, spread);
      }
      const shifted = pad(t, [0, 0, 0, 0, 0, 0, kd * d, full - kd * d - spread]);
      acc = acc === null ? shifted : add(acc, shifted);
    }
    let r = movedim(narrow(acc as Tensor, 1, pd, Do), 1, 2);
    if (bias) r = add(r, reshape(bias, [1, Co, 1, 1, 1]));
    return contiguous(r);
  });
}

/** F.conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1). */
export const convTranspose3d = front(
  'conv_transpose3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] output_padding=0, int groups=1, int[3] dilation=1) -> Tensor',
  { method: false, namespaces: ['torch', 'nn.functional'] },
).run(([input, weight, bias, stride, padding, outputPadding, groups, dilation]): Tensor =>
  convTranspose3dImpl(input, weight, bias ?? null, { stride, padding, outputPadding, groups, dilation }),
);
