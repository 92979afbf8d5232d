import type { DType } from '../dtype';
import { tidy } from '../tensor/scope';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { front, overloadedFront, type OptionsOf } from './front';
import { callFunctional, callMulti, unwrapOptionalTensor, unwrapTensor } from './call';
import { commonDevice, releaseAll, torchTypeName } from './meta-utils';
import { defineStructured, implOf, type Backend } from './registry';
import type { BackendImpls, NotImplemented } from './backend-impls';
import type { Conv2dGeometry } from './spatial-impls';
import { squeeze, unsqueeze } from './views';
import { pad } from './resample';
import { formatOf, inFormat } from './output-format';
import { channelsLastConvolution, channelsLastGradients } from './conv-channels-last';

/**
 * Note [Convolution as GEMM]
 * `convolution` (PyTorch's aten::convolution, Node ConvolutionBackward0) covers conv1d,
 * conv2d and their transposes. A 1-d convolution runs as a 2-d one with height 1. Per batch
 * element and group, with K = C_in/g * kH * kW and L = outH * outW:
 *   forward          out[n, g] [C_out/g, L] = W_g [C_out/g, K] @ im2col(x[n, g]) [K, L]
 *   grad input       grad_x[n, g] = col2im(W_g^T @ grad_out[n, g])
 *   grad weight      grad_W_g += grad_out[n, g] @ im2col(x[n, g])^T
 * and a transposed convolution swaps the roles (its forward is the grad input above, its
 * grad input a convolution). The products are the backend's own `mm` on views of the
 * tensors and of one reused column workspace, so a backend needs only im2col / col2im. A
 * 1x1 kernel with stride 1 and no padding needs no columns at all: the image is the matrix.
 * A backend with its own batched kernels convolves directly instead (Note [Direct convolution impls]).
 */

/** A convolution's parameters: each list has one entry per spatial dim (1 or 2). */
export interface ConvParams {
  readonly stride: readonly number[];
  readonly padding: readonly number[];
  readonly dilation: readonly number[];
  readonly transposed: boolean;
  readonly outputPadding: readonly number[];
  readonly groups: number;
}

/** The parameters in 4-d terms (a 1-d convolution's with a height of 1 in front). */
interface Params2d extends ConvParams {
  readonly stride: readonly [number, number];
  readonly padding: readonly [number, number];
  readonly dilation: readonly [number, number];
  readonly outputPadding: readonly [number, number];
}

/**
 * PyTorch's CPU convolution takes every dtype but bool (integers wrap as its integer GEMM
 * does); its transposed and dilated convolutions take the floating dtypes and int64.
 */
const CONV_DTYPES: readonly DType[] = ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int16', 'int32', 'int64'];
const TRANSPOSED_DTYPES: readonly DType[] = ['float32', 'float64', 'float16', 'bfloat16', 'int64'];

export function intList(op: string, name: string, v: unknown, n: number): number[] {
  const a = typeof v === 'number' ? Array(n).fill(v) : Array.isArray(v) ? [...v] : null;
  if (a === null || !a.every((x) => Number.isInteger(x))) {
    throw new TorchError(`${op}(): argument '${name}' must be an int or a tuple of ${n} ints, but got ${String(v)}`);
  }
  if (a.length === 1 && n > 1) return Array(n).fill(a[0]);
  if (a.length !== n) throw new TorchError(`${op}: expected ${name} to be a single integer value or a list of ${n} values to match the convolution dimensions, but got ${name}=[${a.join(', ')}]`);
  return a;
}

/** Validates a convolution's operands (PyTorch's messages) and returns its output sizes. */
export function convOutputSizes(op: string, input: TensorImpl, weight: TensorImpl, bias: TensorImpl | null | undefined, p: ConvParams, volumetric = false): number[] {
  const k = weight.dim;
  if (volumetric ? k !== 5 : k !== 3 && k !== 4) {
    if (volumetric) throw new ShapeError(`${op}: expected weight to be 5-D, but got weight of size ${fmtShape(weight.sizes)}`);
    throw new ShapeError(`${op}: expected weight to be 3-D or 4-D (1-d or 2-d convolution), but got weight of size ${fmtShape(weight.sizes)}`);
  }
  if (input.dim !== k) {
    throw new ShapeError(
      `${op}: Expected ${k}-dimensional input for ${k}-dimensional weight ${fmtShape(weight.sizes)}, but got ${input.dim}-dimensional input of size ${fmtShape(input.sizes)} instead`,
    );
  }
  const sp = k - 2;
  const { stride, padding, dilation, outputPadding, groups } = p;
  for (let i = 0; i < sp; i++) {
    if (stride[i] <= 0) throw new TorchError(`${op}: non-positive stride is not supported`);
    if (padding[i] < 0) throw new TorchError(`${op}: negative padding is not supported`);
    if (dilation[i] <= 0) throw new TorchError(`${op}: dilation should be greater than zero`);
    if (outputPadding[i] < 0) throw new TorchError(`${op}: negative output_padding is not supported`);
  }
  if (groups <= 0) throw new TorchError(`${op}: non-positive groups is not supported`);
  if (input.dtype !== weight.dtype) {
    throw new DTypeError(`${op}: Input type (${torchTypeName(input.dtype)}) and weight type (${torchTypeName(weight.dtype)}) should be the same`);
  }
  if (bias && bias.dtype !== input.dtype) {
    throw new DTypeError(`${op}: Input type (${torchTypeName(input.dtype)}) and bias type (${torchTypeName(bias.dtype)}) should be the same`);
  }
  const dilated = !p.transposed && dilation.slice(0, sp).some((d) => d !== 1);
  if (!(p.transposed || dilated ? TRANSPOSED_DTYPES : CONV_DTYPES).includes(input.dtype)) {
    const kernel = volumetric
      ? p.transposed ? 'slow_conv_transpose3d_out_cpu' : dilated ? 'slow_conv_dilated<>' : 'slow_conv3d_cpu'
      : p.transposed ? 'slow_conv_transpose2d_out_cpu' : dilated ? 'slow_conv_dilated<>' : 'slow_conv2d_cpu'; // prettier-ignore
    throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(input.dtype)}'`);
  }
  commonDevice(op, [input, weight, bias]);
  const cin = input.sizes[1];
  const w0 = weight.sizes[0];
  if (!p.transposed) {
    if (w0 < groups) {
      throw new ShapeError(`${op}: Given groups=${groups}, expected weight to be at least ${groups} at dimension 0, but got weight of size [${fmtShape(weight.sizes)}] instead`);
    }
    if (w0 % groups !== 0) {
      throw new ShapeError(`${op}: Given groups=${groups}, expected weight to be divisible by ${groups} at dimension 0, but got weight of size [${fmtShape(weight.sizes)}] instead`);
    }
    if (cin !== weight.sizes[1] * groups) {
      throw new ShapeError(
        `${op}: Given groups=${groups}, weight of size ${fmtShape(weight.sizes)}, expected input${fmtShape(input.sizes)} to have ${weight.sizes[1] * groups} channels, but got ${cin} channels instead`,
      );
    }
  } else {
    if (cin !== w0) {
      throw new ShapeError(
        `${op}: Given transposed=1, weight of size ${fmtShape(weight.sizes)}, expected input${fmtShape(input.sizes)} to have ${w0} channels, but got ${cin} channels instead`,
      );
    }
    if (w0 % groups !== 0) {
      throw new ShapeError(`${op}: Given groups=${groups}, expected weight to be divisible by ${groups} at dimension 0, but got weight of size [${fmtShape(weight.sizes)}] instead`);
    }
  }
  const cout = p.transposed ? weight.sizes[1] * groups : w0;
  if (bias && (bias.dim !== 1 || bias.sizes[0] !== cout)) {
    throw new ShapeError(
      `${op}: Given weight of size ${fmtShape(weight.sizes)}, expected bias to be 1-dimensional with ${cout} elements, but got bias of size ${fmtShape(bias.sizes)} instead`,
    );
  }
  const out = [input.sizes[0], cout];
  if (!p.transposed) {
    const padded: number[] = [];
    const kernel: number[] = [];
    for (let i = 0; i < sp; i++) {
      padded.push(input.sizes[2 + i] + 2 * padding[i]);
      kernel.push(dilation[i] * (weight.sizes[2 + i] - 1) + 1);
    }
    if (padded.some((s, i) => s < kernel[i])) {
      throw new ShapeError(
        `${op}: Calculated padded input size per channel: (${padded.join(' x ')}). Kernel size: (${kernel.join(' x ')}). Kernel size can't be greater than actual input size`,
      );
    }
    for (let i = 0; i < sp; i++) out.push(Math.floor((padded[i] - kernel[i]) / stride[i]) + 1);
  } else {
    for (let i = 0; i < sp; i++) {
      if (outputPadding[i] >= stride[i] && outputPadding[i] >= dilation[i]) {
        if (volumetric) {
          const dims = ['depth', 'height', 'width'];
          const all = (name: string, v: readonly number[]) => dims.map((d, j) => `${name}_${d}: ${v[j]}`).join(' ');
          throw new TorchError(`${op}: output padding must be smaller than either stride or dilation, but got ${all('output_padding', outputPadding)} ${all('stride', stride)} ${all('dilation', dilation)}`);
        }
        throw new TorchError(
          `${op}: output padding must be smaller than either stride or dilation, but got output_padding: ${outputPadding[i]}, stride: ${stride[i]}, dilation: ${dilation[i]}`,
        );
      }
      const o = (input.sizes[2 + i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (weight.sizes[2 + i] - 1) + outputPadding[i] + 1;
      if (o < 0) {
        throw new ShapeError(`${op}: Given input size per channel: (${input.sizes.slice(2).join(' x ')}), calculated output size per channel would be negative (${o})`);
      }
      out.push(o);
    }
  }
  return out;
}

/** The 4-d view of a 3-d (1-d convolution) tensor: a height of 1 inserted at dim 2. */
function as4d(t: TensorImpl): TensorImpl {
  if (t.dim === 4) return t.retain();
  const [a, c, l] = t.sizes;
  const [sa, sc, sl] = t.strides;
  return t.view([a, c, 1, l], [sa, sc, l * sl, sl], t.storageOffset);
}

function contiguous(b: Backend, op: string, t: TensorImpl): TensorImpl {
  if (t.isContiguous) return t.retain();
  const c = TensorImpl.empty(op, t.sizes, t.dtype, t.device);
  implOf(b, 'copy', op)(c, t);
  return c;
}

function params2d(p: ConvParams, spatial: number): Params2d {
  const two = (a: readonly number[], fill: number): [number, number] => (spatial === 1 ? [fill, a[0]] : [a[0], a[1]]);
  return {
    stride: two(p.stride, 1),
    padding: two(p.padding, 0),
    dilation: two(p.dilation, 1),
    transposed: p.transposed,
    outputPadding: two(p.outputPadding, 0),
    groups: p.groups,
  };
}

function readParams(
  op: string,
  spatial: number,
  stride: readonly number[],
  padding: readonly number[],
  dilation: readonly number[],
  transposed: boolean,
  outputPadding: readonly number[],
  groups: number,
): ConvParams {
  return {
    stride: intList(op, 'stride', stride, spatial),
    padding: intList(op, 'padding', padding, spatial),
    dilation: intList(op, 'dilation', dilation, spatial),
    transposed,
    outputPadding: intList(op, 'output_padding', outputPadding, spatial),
    groups,
  };
}

/** The geometry of the image a (transposed) convolution slides over, in 4-d terms. */
function geometry(image: readonly number[], positions: readonly number[], weight: TensorImpl, p: Params2d, channels: number): Conv2dGeometry {
  return {
    channels,
    height: image[2],
    width: image[3],
    kernelH: weight.sizes[2],
    kernelW: weight.sizes[3],
    strideH: p.stride[0],
    strideW: p.stride[1],
    padH: p.padding[0],
    padW: p.padding[1],
    dilationH: p.dilation[0],
    dilationW: p.dilation[1],
    outH: positions[2],
    outW: positions[3],
  };
}

/** The backend's direct convolution impl, or null where it takes the im2col path (Note [Direct convolution impls]). */
function direct<K extends 'conv2d' | 'conv2dInputGrad' | 'conv2dWeightGrad'>(b: Backend, name: K): BackendImpls[K] | null {
  const f = b.impls[name] as BackendImpls[K] | NotImplemented;
  return typeof f === 'function' ? f : null;
}

function isPointwise(g: Conv2dGeometry): boolean {
  return g.kernelH === 1 && g.kernelW === 1 && g.strideH === 1 && g.strideW === 1 && g.padH === 0 && g.padW === 0;
}

/** Views of one (batch element, group) slice of a contiguous [N, C, H, W] tensor as a [c, H * W] matrix or [c, H, W] image. */
function mat(t: TensorImpl, n: number, c0: number, c: number): TensorImpl {
  const [, C, H, W] = t.sizes;
  return t.view([c, H * W], [H * W, 1], t.storageOffset + (n * C + c0) * H * W);
}
function img(t: TensorImpl, n: number, c0: number, c: number): TensorImpl {
  const [, C, H, W] = t.sizes;
  return t.view([c, H, W], [H * W, W, 1], t.storageOffset + (n * C + c0) * H * W);
}
/** The [rows, K] matrix of a contiguous weight's slice starting at dim-0 index r0. */
function wmat(w: TensorImpl, r0: number, rows: number): TensorImpl {
  const k = w.sizes[1] * w.sizes[2] * w.sizes[3];
  return w.view([rows, k], [k, 1], w.storageOffset + r0 * k);
}
function tr(m: TensorImpl): TensorImpl {
  return m.view([m.sizes[1], m.sizes[0]], [m.strides[1], m.strides[0]], m.storageOffset);
}

/** Runs `f` with views that are released afterwards. */
function withViews(views: TensorImpl[], f: (...v: TensorImpl[]) => void): void {
  try {
    f(...views);
  } finally {
    releaseAll(views);
  }
}

/**
 * out = slide(x, w): x [N, C_in, H, W], w [C_out, C_in/g, kH, kW] contiguous; the
 * convolution proper (im2col + mm per batch element and group).
 */
function convForward(b: Backend, op: string, out: TensorImpl, x: TensorImpl, w: TensorImpl, p: Params2d, bias: TensorImpl | null = null): boolean {
  const [N, Cin] = x.sizes;
  const Cout = w.sizes[0];
  const G = p.groups;
  const cig = Cin / G;
  const cog = Cout / G;
  const g = geometry(x.sizes, out.sizes, w, p, cig);
  const conv2d = direct(b, 'conv2d');
  if (conv2d && conv2d(out, x, w, g, G, bias) !== false) return true;
  const K = cig * g.kernelH * g.kernelW;
  const L = g.outH * g.outW;
  const mm = implOf(b, 'mm', op);
  const im2col = implOf(b, 'im2col', op);
  const col = isPointwise(g) ? null : TensorImpl.empty(op, [K, L], x.dtype, x.device);
  try {
    for (let n = 0; n < N; n++) {
      for (let gi = 0; gi < G; gi++) {
        withViews([mat(out, n, gi * cog, cog), wmat(w, gi * cog, cog)], (o, wg) => {
          if (col === null) withViews([mat(x, n, gi * cig, cig)], (xm) => mm(o, wg, xm));
          else {
            withViews([img(x, n, gi * cig, cig)], (xi) => im2col(col, xi, g));
            mm(o, wg, col);
          }
        });
      }
    }
  } finally {
    col?.release();
  }
  return false;
}

/**
 * out = the transposed convolution of x [N, C_in, H, W] with w [C_in, C_out/g, kH, kW]:
 * col2im(W_g^T @ x[n, g]) per batch element and group (the grad input of a convolution).
 */
function convTransposeForward(b: Backend, op: string, out: TensorImpl, x: TensorImpl, w: TensorImpl, p: Params2d): void {
  const [N, Cin] = x.sizes;
  const G = p.groups;
  const cig = Cin / G;
  const cog = w.sizes[1];
  const g = geometry(out.sizes, x.sizes, w, p, cog);
  const inputGrad = direct(b, 'conv2dInputGrad');
  if (inputGrad && inputGrad(out, x, w, g, G) !== false) return;
  const K = cog * g.kernelH * g.kernelW;
  const L = g.outH * g.outW;
  const mm = implOf(b, 'mm', op);
  const col2im = implOf(b, 'col2im', op);
  const pointwise = isPointwise(g) && out.sizes[2] === x.sizes[2] && out.sizes[3] === x.sizes[3];
  const col = pointwise ? null : TensorImpl.empty(op, [K, L], x.dtype, x.device);
  try {
    for (let n = 0; n < N; n++) {
      for (let gi = 0; gi < G; gi++) {
        withViews([mat(x, n, gi * cig, cig), wmat(w, gi * cig, cig)], (xm, wg) => {
          withViews([tr(wg)], (wt) => {
            if (col === null) withViews([mat(out, n, gi * cog, cog)], (o) => mm(o, wt, xm));
            else {
              mm(col, wt, xm);
              withViews([img(out, n, gi * cog, cog)], (oi) => col2im(oi, col, g));
            }
          });
        });
      }
    }
  } finally {
    col?.release();
  }
}

/**
 * grad_weight [rows, K] (the weight's dim-0 slice of group gi) = sum over n of a @ c^T,
 * a [rows, L] and c [K, L] given per n; the first product writes, the rest accumulate.
 */
function accumulateProducts(
  b: Backend,
  op: string,
  gw: TensorImpl,
  N: number,
  make: (n: number, use: (a: TensorImpl, c: TensorImpl) => void) => void,
): void {
  const mm = implOf(b, 'mm', op);
  const add = implOf(b, 'add', op);
  const tmp = N > 1 ? TensorImpl.empty(op, gw.sizes, gw.dtype, gw.device) : null;
  // computed transposed, grad_W^T [K, rows] = c [K, L] @ a^T [L, rows]: the big operand c is
  // then read by rows (unit stride) and only the small one, a, column-wise
  const gwt = tr(gw);
  const tmpt = tmp ? tr(tmp) : null;
  try {
    for (let n = 0; n < N; n++) {
      make(n, (a, c) => withViews([tr(a)], (at) => {
        if (n === 0) mm(gwt, c, at);
        else {
          mm(tmpt!, c, at);
          add(gw, gw, tmp!, 1);
        }
      }));
    }
  } finally {
    releaseAll([tmp, gwt, tmpt]);
  }
}

function addBias(b: Backend, op: string, out: TensorImpl, bias: TensorImpl): void {
  const [N, C, H, W] = out.sizes;
  const bv = bias.view([N, C, H, W], [0, bias.strides[0], 0, 0], bias.storageOffset);
  try {
    implOf(b, 'add', op)(out, out, bv, 1);
  } finally {
    bv.release();
  }
}

export const CONVOLUTION = defineStructured(
  'convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor',
  (args, b) => {
    const [input, weight, bias, stride, padding, dilation, transposed, outputPadding, groups] = args;
    const op = 'convolution';
    const sp = weight.dim - 2;
    const p = readParams(op, sp < 1 ? 2 : sp, stride, padding, dilation, transposed, outputPadding, groups);
    const sizes = convOutputSizes(op, input, weight, bias, p);
    const p2 = params2d(p, sp);
    const format = convFormat(input, weight, p);
    if (format === 'channels_last') {
      // Note [Channels-last convolution impl]
      const g = geometry(input.sizes, sizes, weight, p2, input.sizes[1] / p.groups);
      const direct = channelsLastConvolution(b, op, input, weight, bias ?? null, sizes, g, p.groups);
      if (direct !== null) return direct;
    }
    const out = TensorImpl.empty(op, sizes, input.dtype, input.device);
    const cd = computeDtype(input.dtype);
    const held: TensorImpl[] = [];
    const hold = (t: TensorImpl) => (held.push(t), t);
    try {
      const xc = hold(prepare(b, op, hold(as4d(input)), cd));
      const wc = hold(prepare(b, op, hold(as4d(weight)), cd));
      const o4 = hold(as4d(out));
      const r4 = cd === out.dtype ? o4 : hold(TensorImpl.empty(op, o4.sizes, cd, out.device));
      if (o4.numel > 0) {
        const bc = bias ? hold(prepare(b, op, bias, cd)) : null;
        let biased = false; // (a direct convolution adds the bias itself: Note [Direct convolution impls])
        if (xc.numel === 0 || wc.numel === 0) implOf(b, 'fill', op)(r4, 0);
        else if (p.transposed) convTransposeForward(b, op, r4, xc, wc, p2);
        else biased = convForward(b, op, r4, xc, wc, p2, bc);
        if (bc && !biased) addBias(b, op, r4, bc);
        if (r4 !== o4) implOf(b, 'copy', op)(o4, r4);
      }
    } catch (e) {
      out.release();
      throw e;
    } finally {
      releaseAll(held);
    }
    return inFormat(b, op, out, format);
  },
);

/**
 * The memory format of a convolution's output and gradients (Note [Outputs in the input's
 * memory format]): channels-last when the input or the weight suggests it, for a 2-d
 * convolution (PyTorch 1.13's thnn/mkldnn_conv_use_channels_last); its CPU transposed
 * convolution stays contiguous.
 */
function convFormat(input: TensorImpl, weight: TensorImpl, p: ConvParams): 'contiguous' | 'channels_last' {
  if (p.transposed || weight.dim !== 4) return 'contiguous';
  return formatOf(input) === 'channels_last' || formatOf(weight) === 'channels_last' ? 'channels_last' : 'contiguous';
}

/**
 * Note [16-bit convolutions compute in float32]
 * float16 and bfloat16 convolutions run on float32 copies and round once at the end (bias
 * included), as PyTorch 2.x's CPU kernels accumulate them in float32: rounding the GEMM's
 * result and then the bias sum separately would round twice.
 */
function computeDtype(d: DType): DType {
  return d === 'float16' || d === 'bfloat16' ? 'float32' : d;
}

/** `t` contiguous in dtype `cd` (a new reference: the same tensor, or a copy). */
function prepare(b: Backend, op: string, t: TensorImpl, cd: DType): TensorImpl {
  if (t.dtype === cd) return contiguous(b, op, t);
  const c = TensorImpl.empty(op, t.sizes, cd, t.device);
  try {
    implOf(b, 'copy', op)(c, t);
  } catch (e) {
    c.release(); // (a backend may lack the cast, e.g. float16 -> float32 on WebGPU)
    throw e;
  }
  return c;
}

/**
 * PyTorch's aten::convolution_backward: (grad_input, grad_weight, grad_bias) for the outputs
 * `output_mask` asks for; an output not asked for is an empty [0] tensor.
 */
export const CONVOLUTION_BACKWARD = defineStructured(
  'convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor)',
  (args, b) => {
    const [gradOutput, input, weight, , stride, padding, dilation, transposed, outputPadding, groups, mask] = args;
    const op = 'convolution_backward';
    const sp = weight.dim - 2;
    const p = readParams(op, sp < 1 ? 2 : sp, stride, padding, dilation, transposed, outputPadding, groups);
    const sizes = convOutputSizes(op, input, weight, null, p);
    if (gradOutput.sizes.length !== sizes.length || gradOutput.sizes.some((s, i) => s !== sizes[i])) {
      throw new ShapeError(`${op}: expected grad_output of size ${fmtShape(sizes)}, but got ${fmtShape(gradOutput.sizes)}`);
    }
    if (gradOutput.dtype !== input.dtype) {
      throw new DTypeError(`${op}: expected grad_output of dtype ${torchTypeName(input.dtype)}, but got ${torchTypeName(gradOutput.dtype)}`);
    }
    const p2 = params2d(p, sp);
    const format = convFormat(input, weight, p);
    // Note [Channels-last convolution impl]: what the backend's channels-last impls compute
    let [clInput, clWeight]: (TensorImpl | null)[] = [null, null];
    if (format === 'channels_last' && sp === 2 && !p.transposed) {
      const g = geometry(input.sizes, sizes, weight, p2, input.sizes[1] / p.groups);
      [clInput, clWeight] = channelsLastGradients(b, op, gradOutput, input, weight, g, p.groups, mask);
    }
    const empty = () => TensorImpl.empty(op, [0], input.dtype, input.device);
    const gi = clInput ?? (mask[0] ? TensorImpl.empty(op, input.sizes, input.dtype, input.device) : empty());
    const gw = clWeight ?? (mask[1] ? TensorImpl.empty(op, weight.sizes, input.dtype, input.device) : empty());
    const cout = sizes[1];
    const gb = mask[2] ? TensorImpl.empty(op, [cout], input.dtype, input.device) : empty();
    const held: TensorImpl[] = [];
    const hold = (t: TensorImpl) => (held.push(t), t);
    const cd = computeDtype(input.dtype);
    // results computed in cd (Note [16-bit convolutions compute in float32]), copied out at the end
    const wide = (t: TensorImpl) => (cd === t.dtype ? t : hold(TensorImpl.empty(op, t.sizes, cd, t.device)));
    // (operands copied contiguous only for what the channels-last impls left; where they ran
    // for both, the CPU's bias sum reads the channels-last grad_output in place)
    const needed = (clInput === null && clWeight === null) || (mask[0] && clInput === null) || (mask[1] && clWeight === null);
    try {
      const go = needed || cd !== gradOutput.dtype ? hold(prepare(b, op, hold(as4d(gradOutput)), cd)) : hold(as4d(gradOutput));
      const x = needed ? hold(prepare(b, op, hold(as4d(input)), cd)) : input;
      const w = needed ? hold(prepare(b, op, hold(as4d(weight)), cd)) : weight;
      if (mask[0] && clInput === null && gi.numel > 0) {
        const gi4 = hold(as4d(gi));
        const ri = wide(gi4);
        if (go.numel === 0 || w.numel === 0) implOf(b, 'fill', op)(ri, 0);
        else if (p.transposed) convForward(b, op, ri, go, w, { ...p2, transposed: false });
        else convTransposeForward(b, op, ri, go, w, { ...p2, transposed: true });
        if (ri !== gi4) implOf(b, 'copy', op)(gi4, ri);
      }
      if (mask[1] && clWeight === null && gw.numel > 0) {
        const gw4 = hold(as4d(gw));
        const rw = wide(gw4);
        if (go.numel === 0 || x.numel === 0) implOf(b, 'fill', op)(rw, 0);
        else weightGrad(b, op, rw, go, x, w, p2);
        if (rw !== gw4) implOf(b, 'copy', op)(gw4, rw);
      }
      if (mask[2] && gb.numel > 0) {
        const keep = hold(TensorImpl.empty(op, [1, cout, 1, 1], cd, input.device));
        if (go.numel === 0) implOf(b, 'fill', op)(keep, 0);
        else implOf(b, 'sum', op)(keep, go, [0, 2, 3]);
        implOf(b, 'copy', op)(gb, hold(keep.view([cout], [1], 0)));
      }
    } catch (e) {
      releaseAll([gi, gw, gb]);
      throw e;
    } finally {
      releaseAll(held);
    }
    return [inFormat(b, op, gi, format), inFormat(b, op, gw, format), gb];
  },
);

function weightGrad(b: Backend, op: string, gw: TensorImpl, go: TensorImpl, x: TensorImpl, w: TensorImpl, p: Params2d): void {
  const G = p.groups;
  const N = x.sizes[0];
  const im2col = implOf(b, 'im2col', op);
  if (!p.transposed) {
    // grad_W_g [C_out/g, K] = sum_n grad_out[n, g] [C_out/g, L] @ cols(x[n, g])^T
    const cig = x.sizes[1] / G;
    const cog = w.sizes[0] / G;
    const g = geometry(x.sizes, go.sizes, w, p, cig);
    const weightGrad = direct(b, 'conv2dWeightGrad');
    if (weightGrad && weightGrad(gw, go, x, g, G) !== false) return;
    const pointwise = isPointwise(g);
    const col = pointwise ? null : TensorImpl.empty(op, [cig * g.kernelH * g.kernelW, g.outH * g.outW], x.dtype, x.device);
    try {
      for (let gi = 0; gi < G; gi++) {
        withViews([wmat(gw, gi * cog, cog)], (gwg) =>
          accumulateProducts(b, op, gwg, N, (n, use) =>
            withViews([mat(go, n, gi * cog, cog), (col === null ? mat : img)(x, n, gi * cig, cig)], (a, xi) => {
              if (col === null) use(a, xi);
              else {
                im2col(col, xi, g);
                use(a, col);
              }
            }),
          ),
        );
      }
    } finally {
      col?.release();
    }
  } else {
    // transposed: grad_W_g [C_in/g, C_out/g * kH * kW] = sum_n x[n, g] [C_in/g, L] @ cols(grad_out[n, g])^T
    const cig = x.sizes[1] / G;
    const cog = w.sizes[1];
    const g = geometry(go.sizes, x.sizes, w, p, cog);
    // (the transposed convolution's weight grad is a convolution's, with x and grad_out swapped)
    const weightGrad = direct(b, 'conv2dWeightGrad');
    if (weightGrad && weightGrad(gw, x, go, g, G) !== false) return;
    const pointwise = isPointwise(g) && go.sizes[2] === x.sizes[2] && go.sizes[3] === x.sizes[3];
    const col = pointwise ? null : TensorImpl.empty(op, [cog * g.kernelH * g.kernelW, g.outH * g.outW], x.dtype, x.device);
    try {
      for (let gi = 0; gi < G; gi++) {
        withViews([wmat(gw, gi * cig, cig)], (gwg) =>
          accumulateProducts(b, op, gwg, N, (n, use) =>
            withViews([mat(x, n, gi * cig, cig), (col === null ? mat : img)(go, n, gi * cog, cog)], (a, gi2) => {
              if (col === null) use(a, gi2);
              else {
                im2col(col, gi2, g);
                use(a, col);
              }
            }),
          ),
        );
      }
    } finally {
      col?.release();
    }
  }
}

// ---- front ends ----
/** Conv1d/conv2d's declaration: `padding` an int, a list, or 'valid' / 'same' (PyTorch's two overloads). */
const CONV = { method: false, namespaces: ['torch', 'nn.functional'], choices: { padding: ['valid', 'same'] } } as const;

/** Convolution's bound arguments after `bias`: `padding` a list or a string, which convNd refuses unless it is 'valid' or 'same'. */
interface BoundConvOptions {
  readonly stride?: number | readonly number[];
  readonly padding?: number | readonly number[] | string;
  readonly dilation?: number | readonly number[];
  readonly groups?: number;
}

function convNd(op: string, sp: number, input: Tensor, weight: Tensor, bias: Tensor | null, o: BoundConvOptions): Tensor {
  const x = unwrapTensor(op, 'input', input);
  const w = unwrapTensor(op, 'weight', weight);
  unwrapOptionalTensor(op, 'bias', bias);
  if (x.dim !== sp + 1 && x.dim !== sp + 2) {
    throw new ShapeError(
      `${op}: Expected ${sp + 1}D (unbatched) or ${sp + 2}D (batched) input to ${op}, but got input of size: ${fmtShape(x.sizes)}`,
    );
  }
  if (x.dim === sp + 1) return tidy(() => squeeze(convNd(op, sp, unsqueeze(input, 0), weight, bias, o), 0));
  const stride = intList(op, 'stride', o.stride ?? 1, sp);
  const dilation = intList(op, 'dilation', o.dilation ?? 1, sp);
  const groups = o.groups ?? 1;
  let padding: number[];
  let x2 = input;
  if (o.padding === 'valid') padding = Array(sp).fill(0);
  else if (o.padding === 'same') {
    if (stride.some((s) => s !== 1)) throw new TorchError(`${op}: padding='same' is not supported for strided convolutions`);
    if (w.dim !== sp + 2) convOutputSizes(op, x, w, null, { stride, padding: Array(sp).fill(0), dilation, transposed: false, outputPadding: Array(sp).fill(0), groups });
    // PyTorch's 'same': total padding d * (k - 1) split evenly; an odd remainder is padded on the right first
    padding = [];
    const extra: number[] = [];
    for (let i = 0; i < sp; i++) {
      const total = dilation[i] * (w.sizes[2 + i] - 1);
      const left = Math.floor(total / 2);
      padding.push(left);
      extra.push(total - 2 * left);
    }
    if (extra.some((e) => e > 0)) {
      const pads: number[] = [];
      for (let i = sp - 1; i >= 0; i--) pads.push(0, extra[i]);
      const padded = pad(input, pads);
      try {
        return convNd(op, sp, padded, weight, bias, { ...o, padding });
      } finally {
        padded.dispose();
      }
    }
  } else if (typeof o.padding === 'string') {
    throw new TorchError(`${op}: Invalid padding string: '${o.padding}'`);
  } else padding = intList(op, 'padding', o.padding ?? 0, sp);
  const p: ConvParams = { stride, padding, dilation, transposed: false, outputPadding: Array(sp).fill(0), groups };
  convOutputSizes(op, unwrapTensor(op, 'input', x2), w, bias?.impl ?? null, p);
  return callFunctional(CONVOLUTION, [x2.impl, w, bias?.impl ?? null, stride, padding, dilation, false, [...p.outputPadding], groups]);
}

/** F.conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1); padding an int, a list, 'valid' or 'same'. */
export const conv1d = overloadedFront(
  [
    'conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, int[1] dilation=1, int groups=1) -> Tensor',
    'conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, str padding="valid", int[1] dilation=1, int groups=1) -> Tensor',
  ],
  CONV,
).run(({ values: [input, weight, bias, stride, padding, dilation, groups] }): Tensor => convNd('conv1d', 1, input, weight, bias ?? null, { stride, padding, dilation, groups }));

/** F.conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1); padding an int, a pair, 'valid' or 'same'. */
export const conv2d = overloadedFront(
  [
    'conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor',
    'conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, str padding="valid", int[2] dilation=1, int groups=1) -> Tensor',
  ],
  CONV,
).run(({ values: [input, weight, bias, stride, padding, dilation, groups] }): Tensor => convNd('conv2d', 2, input, weight, bias ?? null, { stride, padding, dilation, groups }));

/** Conv1d/conv2d's keywords: `{ stride, padding, dilation, groups, bias }`, padding a list or 'valid' / 'same'. */
export type ConvOptions = OptionsOf<typeof conv2d>;

/** convTranspose2d's bound arguments after `bias`. */
interface ConvTransposeParams {
  readonly stride: readonly number[];
  readonly padding: readonly number[];
  readonly outputPadding: readonly number[];
  readonly groups: number;
  readonly dilation: readonly number[];
}

function convTransposeNd(op: string, sp: number, input: Tensor, weight: Tensor, bs: Tensor | null, o: ConvTransposeParams): Tensor {
  const x = unwrapTensor(op, 'input', input);
  const w = unwrapTensor(op, 'weight', weight);
  unwrapOptionalTensor(op, 'bias', bs);
  if (x.dim !== sp + 1 && x.dim !== sp + 2) {
    throw new ShapeError(`${op}: Expected ${sp + 1}D (unbatched) or ${sp + 2}D (batched) input to ${op}, but got input of size: ${fmtShape(x.sizes)}`);
  }
  if (x.dim === sp + 1) return tidy(() => squeeze(convTransposeNd(op, sp, unsqueeze(input, 0), weight, bs, o), 0));
  const p: ConvParams = {
    stride: intList(op, 'stride', o.stride, sp),
    padding: intList(op, 'padding', o.padding, sp),
    dilation: intList(op, 'dilation', o.dilation, sp),
    transposed: true,
    outputPadding: intList(op, 'output_padding', o.outputPadding, sp),
    groups: o.groups,
  };
  convOutputSizes(op, x, w, bs?.impl ?? null, p);
  return callFunctional(CONVOLUTION, [x, w, bs?.impl ?? null, [...p.stride], [...p.padding], [...p.dilation], true, [...p.outputPadding], p.groups]);
}

/** F.conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1). */
export const convTranspose1d = front(
  'conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, int[1] output_padding=0, int groups=1, int[1] dilation=1) -> Tensor',
  { method: false, namespaces: ['torch', 'nn.functional'] },
).run(([input, weight, bias, stride, padding, outputPadding, groups, dilation]): Tensor =>
  convTransposeNd('conv_transpose1d', 1, input, weight, bias ?? null, { stride, padding, outputPadding, groups, dilation }),
);

/** F.conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1). */
export const convTranspose2d = front(
  'conv_transpose2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] output_padding=0, int groups=1, int[2] dilation=1) -> Tensor',
  { method: false, namespaces: ['torch', 'nn.functional'] },
).run(([input, weight, bias, stride, padding, outputPadding, groups, dilation]): Tensor =>
  convTransposeNd('conv_transpose2d', 2, input, weight, bias ?? null, { stride, padding, outputPadding, groups, dilation }),
);
export type ConvTransposeOptions = OptionsOf<typeof convTranspose2d>;

/** The whole aten::convolution (the Tensor-level op the derivatives call). */
export function convolution(
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  stride: readonly number[],
  padding: readonly number[],
  dilation: readonly number[],
  transposed: boolean,
  outputPadding: readonly number[],
  groups: number,
): Tensor {
  const op = 'convolution';
  return callFunctional(CONVOLUTION, [
    unwrapTensor(op, 'input', input),
    unwrapTensor(op, 'weight', weight),
    unwrapOptionalTensor(op, 'bias', bias) ?? null,
    [...stride], [...padding], [...dilation], transposed, [...outputPadding], groups,
  ]);
}

/** aten::convolution_backward: [gradInput, gradWeight, gradBias], null where the mask says false. */
export function convolutionBackward(
  gradOutput: Tensor,
  input: Tensor,
  weight: Tensor,
  biasSizes: readonly number[] | null,
  stride: readonly number[],
  padding: readonly number[],
  dilation: readonly number[],
  transposed: boolean,
  outputPadding: readonly number[],
  groups: number,
  outputMask: readonly [boolean, boolean, boolean],
): (Tensor | null)[] {
  const op = 'convolution_backward';
  const r = callMulti(CONVOLUTION_BACKWARD, [
    unwrapTensor(op, 'grad_output', gradOutput),
    unwrapTensor(op, 'input', input),
    unwrapTensor(op, 'weight', weight),
    biasSizes ? [...biasSizes] : null,
    [...stride], [...padding], [...dilation], transposed, [...outputPadding], groups, [...outputMask],
  ]);
  return r.map((t, i) => {
    if (outputMask[i]) return t;
    t.dispose();
    return null;
  });
}
