import {
  adaptiveAvgPool2dBackward,
  adaptiveMaxPool2dBackward,
  adaptiveAvgPool2dRaw,
  add,
  avgPool2dBackward,
  avgPool2dRaw,
  constantPadNd,
  convolution,
  convolutionBackward,
  expand,
  flatten,
  gather,
  indexedPad,
  indexedPadBackward,
  maxPool2dWithIndicesBackward,
  upsampleBilinear2d,
  upsampleBilinear2dBackward,
  upsampleNearest2d,
  upsampleNearest2dBackward,
  upsampleTrilinear3dBackward,
  view,
  type PadMode,
  type Tensor,
} from '@torch-ts/core';
import type { Derivative, DerivativeArgs, DerivativeFamily, DerivativeOf } from '../derivative';
import { inputSizes, savedTensor } from './common';

/**
 * Derivatives of the spatial ops (convolution, pooling, padding, interpolation). Each
 * backward runs the op's own backward op (with kernels), and each backward op has a
 * derivative of its own written with the forward ops, so double backward works throughout
 * (PyTorch's ...BackwardBackward0 Nodes).
 */

/** stride, padding, dilation, transposed, output_padding, groups */
type Conv = [number[], number[], number[], boolean, number[], number];

// convolution(input, weight, bias?, stride, padding, dilation, transposed, output_padding, groups)
const ConvolutionBackward0: DerivativeOf<'convolution'> = {
  name: 'ConvolutionBackward0',
  inputs: ['input', 'weight', 'bias'],
  saves: ['input', 'weight'],
  backward: (ctx) => {
    const input = savedTensor(ctx, 'input', 'convolution');
    const weight = savedTensor(ctx, 'weight', 'convolution');
    const biasSizes = ctx.inputs[2] ? [...ctx.inputs[2].sizes] : null;
    const [, , , ...conv] = ctx.args;
    const [gi, gw, gb] = convolutionBackward(ctx.grad, input, weight, biasSizes, ...conv, [
      ctx.needs[0],
      ctx.needs[1],
      ctx.needs[2] === true && biasSizes !== null,
    ]);
    return [gi, gw, gb];
  },
};

/**
 * convolution_backward is linear in grad_output and bilinear in (grad_output, input) and
 * (grad_output, weight): with F(x, W) the convolution, grad_input = dF/dx^T g and
 * grad_weight = dF/dW^T g, so for incoming ggI, ggW, ggB:
 *   grad_output: F(ggI, W) + F(x, ggW) + ggB,   input: dF(x, ggW)/dx^T g,   weight: dF(ggI, W)/dW^T g.
 */
const ConvolutionBackwardBackward0: DerivativeOf<'convolution_backward'> = {
  name: 'ConvolutionBackwardBackward0',
  inputs: ['grad_output', 'input', 'weight'],
  saves: ['grad_output', 'input', 'weight'],
  backward: (ctx) => {
    const op = 'convolution_backward';
    const go = savedTensor(ctx, 'grad_output', op);
    const input = savedTensor(ctx, 'input', op);
    const weight = savedTensor(ctx, 'weight', op);
    const [, , , , stride, padding, dilation, transposed, outputPadding, groups] = ctx.args;
    const p: Conv = [stride, padding, dilation, transposed, outputPadding, groups];
    const [ggI, ggW, ggB] = ctx.grads;
    let gGo: Tensor | null = null;
    if (ctx.needs[0]) {
      const terms: Tensor[] = [];
      if (ggI) terms.push(convolution(ggI, weight, null, ...p));
      if (ggW) terms.push(convolution(input, ggW, null, ...p));
      if (ggB && ggB.numel() > 0) {
        const shape = go.shape.map((n, i) => (i === 1 ? n : 1));
        terms.push(expand(view(ggB, shape), go.shape));
      }
      gGo = terms.reduce<Tensor | null>((acc, t) => (acc ? add(acc, t) : t), null);
    }
    const gIn = ctx.needs[1] && ggW ? convolutionBackward(go, input, ggW, null, ...p, [true, false, false])[0] : null;
    const gW = ctx.needs[2] && ggI ? convolutionBackward(go, ggI, weight, null, ...p, [false, true, false])[1] : null;
    return [gGo, gIn, gW];
  },
};

// ---- pooling ----
type MaxArgs = [number[], number[], number[], number[], boolean];
/** kernel_size, stride, padding, dilation, ceil_mode with their defaults (an empty stride is kernel_size) */
const maxArgs = ([, k, s, p, d, c]: Readonly<DerivativeArgs<'max_pool2d_with_indices'>>): MaxArgs => {
  return [k, s && s.length ? s : k, p ?? [0], d ?? [1], c ?? false];
};

const MaxPool2DWithIndicesBackward0: DerivativeOf<'max_pool2d_with_indices'> = {
  name: 'MaxPool2DWithIndicesBackward0',
  inputs: ['self'],
  saves: ['self', 'result1'],
  backward: (ctx) => {
    if (!ctx.needs[0] || !ctx.grads[0]) return [null];
    const op = 'max_pool2d';
    return [maxPool2dWithIndicesBackward(ctx.grads[0], savedTensor(ctx, 'self', op), ...maxArgs(ctx.args), savedTensor(ctx, 'result1', op))];
  },
};

/** The gradient of grad_output is the incoming gradient gathered at the indices (PyTorch's max_pool_double_backward). */
const MaxPool2DWithIndicesBackwardBackward0: DerivativeOf<'max_pool2d_with_indices_backward'> = {
  name: 'MaxPool2DWithIndicesBackwardBackward0',
  inputs: ['grad_output', 'self'],
  saves: ['indices'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null, null];
    const indices = savedTensor(ctx, 'indices', 'max_pool2d_with_indices_backward');
    const gg = flatten(ctx.grad, -2);
    return [view(gather(gg, -1, flatten(indices, -2)), indices.shape), null];
  },
};

// adaptive_max_pool2d(self, output_size): the kernel op of a channels-last input (core Note
// [Channels-last pooling impls]); its gradient added at the indices, channels-last
const AdaptiveMaxPool2DBackward0: DerivativeOf<'adaptive_max_pool2d'> = {
  name: 'AdaptiveMaxPool2DBackward0',
  inputs: ['self'],
  saves: ['self', 'result1'],
  backward: (ctx) => {
    if (!ctx.needs[0] || !ctx.grads[0]) return [null];
    const op = 'adaptive_max_pool2d';
    return [adaptiveMaxPool2dBackward(ctx.grads[0], savedTensor(ctx, 'self', op), savedTensor(ctx, 'result1', op))];
  },
};

/** As max_pool2d's: the gradient of grad_output is the incoming gradient gathered at the indices. */
const AdaptiveMaxPool2DBackwardBackward0: DerivativeOf<'adaptive_max_pool2d_backward'> = {
  name: 'AdaptiveMaxPool2DBackwardBackward0',
  inputs: ['grad_output', 'self'],
  saves: ['indices'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null, null];
    const indices = savedTensor(ctx, 'indices', 'adaptive_max_pool2d_backward');
    return [view(gather(flatten(ctx.grad, -2), -1, flatten(indices, -2)), indices.shape), null];
  },
};

/** kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override */
type AvgArgs = [number[], number[], number[], boolean, boolean, number | null];
const avgArgs = ([k, s, p, c, cip, div]: readonly [number[], number[], number[], boolean, boolean, number | null | undefined]): AvgArgs => {
  return [k, s && s.length ? s : k, p ?? [0], c ?? false, cip ?? true, div ?? null];
};

const AvgPool2DBackward0: DerivativeOf<'avg_pool2d'> = {
  name: 'AvgPool2DBackward0',
  inputs: ['self'],
  saves: ['self'],
  backward: (ctx) => {
    const [, ...params] = ctx.args;
    return [ctx.needs[0] ? avgPool2dBackward(ctx.grad, savedTensor(ctx, 'self', 'avg_pool2d'), ...avgArgs(params)) : null];
  },
};

const AvgPool2DBackwardBackward0: DerivativeOf<'avg_pool2d_backward'> = {
  name: 'AvgPool2DBackwardBackward0',
  inputs: ['grad_output', 'self'],
  saves: [],
  backward: (ctx) => {
    const [, , ...params] = ctx.args;
    return [ctx.needs[0] ? avgPool2dRaw(ctx.grad, ...avgArgs(params)) : null, null];
  },
};

const AdaptiveAvgPool2DBackward0: DerivativeOf<'_adaptive_avg_pool2d'> = {
  name: 'AdaptiveAvgPool2DBackward0',
  inputs: ['self'],
  saves: ['self'],
  backward: (ctx) => [ctx.needs[0] ? adaptiveAvgPool2dBackward(ctx.grad, savedTensor(ctx, 'self', 'adaptive_avg_pool2d')) : null],
};

const AdaptiveAvgPool2DBackwardBackward0: DerivativeOf<'_adaptive_avg_pool2d_backward'> = {
  name: 'AdaptiveAvgPool2DBackwardBackward0',
  inputs: ['grad_output', 'self'],
  saves: [],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null, null];
    const s = inputSizes(ctx, 0, 'adaptive_avg_pool2d_backward');
    return [adaptiveAvgPool2dRaw(ctx.grad, s.slice(-2)), null];
  },
};

// ---- padding ----
const ConstantPadNdBackward0: DerivativeOf<'constant_pad_nd'> = {
  name: 'ConstantPadNdBackward0',
  inputs: ['self'],
  saves: [],
  backward: (ctx) => [ctx.needs[0] ? constantPadNd(ctx.grad, ctx.args[1].map((p) => -p)) : null],
};

/** The reflection, replication and circular pads: `op(self, padding)` and `op_backward(grad_output, self, padding)`. */
function indexedPadDerivatives(mode: PadMode, node: string) {
  const forward: Derivative<readonly [unknown, number[]]> = {
    name: `${node}Backward0`,
    inputs: ['self'],
    saves: ['self'],
    backward: (ctx) => [ctx.needs[0] ? indexedPadBackward(ctx.grad, savedTensor(ctx, 'self', node), ctx.args[1], mode) : null],
  };
  const backward: Derivative<readonly [unknown, unknown, number[]]> = {
    name: `${node}BackwardBackward0`,
    inputs: ['grad_output', 'self'],
    saves: [],
    backward: (ctx) => [ctx.needs[0] ? indexedPad(ctx.grad, ctx.args[2], mode) : null, null],
  };
  return [forward, backward] as const;
}

const [ReflectionPad1D, ReflectionPad1DBack] = indexedPadDerivatives('reflect', 'ReflectionPad1D');
const [ReflectionPad2D, ReflectionPad2DBack] = indexedPadDerivatives('reflect', 'ReflectionPad2D');
const [ReplicationPad1D, ReplicationPad1DBack] = indexedPadDerivatives('replicate', 'ReplicationPad1D');
const [ReplicationPad2D, ReplicationPad2DBack] = indexedPadDerivatives('replicate', 'ReplicationPad2D');
const [PadCircular1D, PadCircular1DBack] = indexedPadDerivatives('circular', 'PadCircular1D');
const [PadCircular2D, PadCircular2DBack] = indexedPadDerivatives('circular', 'PadCircular2D');

// ---- interpolation ----
const scale = (v: number | null | undefined): number | null => (v == null ? null : Number(v));

const UpsampleNearest2DBackward0: DerivativeOf<'upsample_nearest2d'> = {
  name: 'UpsampleNearest2DBackward0',
  inputs: ['self'],
  saves: [],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const inSize = inputSizes(ctx, 0, 'upsample_nearest2d');
    return [upsampleNearest2dBackward(ctx.grad, ctx.args[1], inSize, scale(ctx.args[2]), scale(ctx.args[3]))];
  },
};

const UpsampleNearest2DBackwardBackward0: DerivativeOf<'upsample_nearest2d_backward'> = {
  name: 'UpsampleNearest2DBackwardBackward0',
  inputs: ['grad_output'],
  saves: [],
  backward: (ctx) => [ctx.needs[0] ? upsampleNearest2d(ctx.grad, ctx.args[1], scale(ctx.args[3]), scale(ctx.args[4])) : null],
};

const UpsampleBilinear2DBackward0: DerivativeOf<'upsample_bilinear2d'> = {
  name: 'UpsampleBilinear2DBackward0',
  inputs: ['self'],
  saves: [],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const inSize = inputSizes(ctx, 0, 'upsample_bilinear2d');
    return [upsampleBilinear2dBackward(ctx.grad, ctx.args[1], inSize, ctx.args[2] === true, scale(ctx.args[3]), scale(ctx.args[4]))];
  },
};

const UpsampleBilinear2DBackwardBackward0: DerivativeOf<'upsample_bilinear2d_backward'> = {
  name: 'UpsampleBilinear2DBackwardBackward0',
  inputs: ['grad_output'],
  saves: [],
  backward: (ctx) => [
    ctx.needs[0] ? upsampleBilinear2d(ctx.grad, ctx.args[1], ctx.args[3] === true, scale(ctx.args[4]), scale(ctx.args[5])) : null,
  ],
};

// (the input gradient in grad_output's memory format: core's Note [Trilinear gradient layout])
const UpsampleTrilinear3DBackward0: DerivativeOf<'upsample_trilinear3d'> = {
  name: 'UpsampleTrilinear3DBackward0',
  inputs: ['self'],
  saves: [],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const inSize = inputSizes(ctx, 0, 'upsample_trilinear3d');
    return [upsampleTrilinear3dBackward(ctx.grad, ctx.args[1], inSize, ctx.args[2] === true, [scale(ctx.args[3]), scale(ctx.args[4]), scale(ctx.args[5])])];
  },
};

export const SPATIAL_DERIVATIVES = {
  convolution: ConvolutionBackward0,
  convolution_backward: ConvolutionBackwardBackward0,
  max_pool2d_with_indices: MaxPool2DWithIndicesBackward0,
  max_pool2d_with_indices_backward: MaxPool2DWithIndicesBackwardBackward0,
  adaptive_max_pool2d: AdaptiveMaxPool2DBackward0,
  adaptive_max_pool2d_backward: AdaptiveMaxPool2DBackwardBackward0,
  avg_pool2d: AvgPool2DBackward0,
  avg_pool2d_backward: AvgPool2DBackwardBackward0,
  _adaptive_avg_pool2d: AdaptiveAvgPool2DBackward0,
  _adaptive_avg_pool2d_backward: AdaptiveAvgPool2DBackwardBackward0,
  constant_pad_nd: ConstantPadNdBackward0,
  reflection_pad1d: ReflectionPad1D,
  reflection_pad1d_backward: ReflectionPad1DBack,
  reflection_pad2d: ReflectionPad2D,
  reflection_pad2d_backward: ReflectionPad2DBack,
  replication_pad1d: ReplicationPad1D,
  replication_pad1d_backward: ReplicationPad1DBack,
  replication_pad2d: ReplicationPad2D,
  replication_pad2d_backward: ReplicationPad2DBack,
  _pad_circular1d: PadCircular1D,
  _pad_circular1d_backward: PadCircular1DBack,
  _pad_circular2d: PadCircular2D,
  _pad_circular2d_backward: PadCircular2DBack,
  upsample_nearest2d: UpsampleNearest2DBackward0,
  upsample_nearest2d_backward: UpsampleNearest2DBackwardBackward0,
  upsample_bilinear2d: UpsampleBilinear2DBackward0,
  upsample_bilinear2d_backward: UpsampleBilinear2DBackwardBackward0,
  upsample_trilinear3d: UpsampleTrilinear3DBackward0,
} satisfies DerivativeFamily;
