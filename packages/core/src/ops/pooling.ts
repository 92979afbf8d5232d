import type { DType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { TensorImpl } from '../tensor/tensor-impl';
import { makeBinder, type OptionalArgs } from './binder';
import { front, type OptionsOf } from './front';
import { callFunctional, callMulti, unwrapTensor } from './call';
import { releaseAll, torchTypeName } from './meta-utils';
import { valuesIndices, type ValuesIndices } from './reduction';
import { defineStructured, implOf, type Backend } from './registry';
import { formatOf, inFormat } from './output-format';
import type { Pool2dGeometry } from './spatial-impls';
import { squeeze, unsqueeze } from './views';
import { channelsLastOperand, channelsLastOutput, hasHook, nhwcInput, tryChannelsLast } from './pool-channels-last';

/**
 * Pooling: max_pool2d_with_indices (MaxPool2DWithIndicesBackward0), avg_pool2d
 * (AvgPool2DBackward0) and _adaptive_avg_pool2d (AdaptiveAvgPool2DBackward0), each with its
 * backward op (with kernels, so that double backward can differentiate it). Inputs are 3-d
 * (unbatched) or 4-d; the impls see contiguous [N * C, H, W] planes (Note [Spatial impls]).
 */

const FLOATS: readonly DType[] = ['float32', 'float64', 'float16', 'bfloat16'];

export function checkDtype(op: string, kernel: string, t: TensorImpl, allowed: readonly DType[] = FLOATS): void {
  if (!allowed.includes(t.dtype)) throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(t.dtype)}'`);
}

/** The input as contiguous [planes, H, W] (a view or a copy; the caller releases it). */
export function planes(b: Backend, op: string, t: TensorImpl): TensorImpl {
  const H = t.sizes[t.dim - 2];
  const W = t.sizes[t.dim - 1];
  const P = t.sizes.slice(0, -2).reduce((a, c) => a * c, 1);
  let c = t;
  if (!t.isContiguous) {
    c = TensorImpl.empty(op, t.sizes, t.dtype, t.device);
    try {
      implOf(b, 'copy', op)(c, t);
    } catch (e) {
      c.release();
      throw e;
    }
  } else c.retain();
  const v = c.view([P, H, W], [H * W, W, 1], c.storageOffset);
  c.release();
  return v;
}

/** A fresh contiguous result of `sizes` and its [P, h, w] view; the view is released by the caller. */
export function planeOutput(op: string, sizes: readonly number[], dtype: DType, like: TensorImpl): [TensorImpl, TensorImpl] {
  const out = TensorImpl.empty(op, sizes, dtype, like.device);
  const h = sizes[sizes.length - 2];
  const w = sizes[sizes.length - 1];
  const P = sizes.slice(0, -2).reduce((a, c) => a * c, 1);
  return [out, out.view([P, h, w], [h * w, w, 1], 0)];
}

export function checkSpatialInput(op: string, t: TensorImpl, allowEmptyBatch = true): void {
  const ok3 = t.dim === 3 && t.sizes.every((s) => s > 0);
  const ok4 = t.dim === 4 && t.sizes.slice(1).every((s) => s > 0) && (allowEmptyBatch || t.sizes[0] > 0);
  if (!ok3 && !ok4) {
    throw new ShapeError(`${op}: Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got: ${fmtShape(t.sizes)}`);
  }
}

function pair(op: string, name: string, v: unknown, fallback?: readonly number[]): [number, number] {
  const a = v == null || (Array.isArray(v) && v.length === 0) ? fallback : typeof v === 'number' ? [v, v] : Array.isArray(v) ? v : null;
  if (!a || (a.length !== 1 && a.length !== 2) || !a.every((x) => Number.isInteger(x))) {
    throw new TorchError(`${op}: ${name} must either be a single int, or a tuple of two ints`);
  }
  return a.length === 1 ? [a[0], a[0]] : [a[0], a[1]];
}

/** PyTorch's pooling_output_shape. */
function outputSize(inSize: number, k: number, pad: number, stride: number, dilation: number, ceil: boolean): number {
  const num = inSize + 2 * pad - dilation * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  let out = Math.floor(num / stride) + 1;
  if (ceil && (out - 1) * stride >= inSize + pad) out--;
  return out;
}

interface PoolArgs {
  kernel: [number, number];
  stride: [number, number];
  padding: [number, number];
  dilation: [number, number];
  ceilMode: boolean;
}

function poolGeometry(op: string, t: TensorImpl, a: PoolArgs): Pool2dGeometry {
  const [kH, kW] = a.kernel;
  const [sH, sW] = a.stride;
  const [pH, pW] = a.padding;
  const [dH, dW] = a.dilation;
  if (kH <= 0 || kW <= 0) throw new TorchError(`${op}: kernel size should be greater than zero, but got kH: ${kH} kW: ${kW}`);
  if (sH <= 0 || sW <= 0) throw new TorchError(`${op}: stride should be greater than zero, but got dH: ${sH} dW: ${sW}`);
  if (dH <= 0 || dW <= 0) throw new TorchError(`${op}: dilation should be greater than zero, but got dilationH: ${dH} dilationW: ${dW}`);
  if (pH < 0 || pW < 0) throw new TorchError(`${op}: pad must be non-negative, but got padH: ${pH} padW: ${pW}`);
  if (pH > Math.floor(kH / 2) || pW > Math.floor(kW / 2)) {
    throw new TorchError(`${op}: pad should be at most half of effective kernel size, but got pad=${pH > Math.floor(kH / 2) ? pH : pW}, kernel_size=${pH > Math.floor(kH / 2) ? kH : kW} and dilation=${pH > Math.floor(kH / 2) ? dH : dW}`);
  }
  checkSpatialInput(op, t);
  const H = t.sizes[t.dim - 2];
  const W = t.sizes[t.dim - 1];
  const oH = outputSize(H, kH, pH, sH, dH, a.ceilMode);
  const oW = outputSize(W, kW, pW, sW, dW, a.ceilMode);
  if (oH < 1 || oW < 1) {
    const C = t.sizes[t.dim - 3];
    throw new ShapeError(`${op}: Given input size: (${C}x${H}x${W}). Calculated output size: (${C}x${oH}x${oW}). Output size is too small`);
  }
  return { height: H, width: W, kernelH: kH, kernelW: kW, strideH: sH, strideW: sW, padH: pH, padW: pW, dilationH: dH, dilationW: dW, outH: oH, outW: oW };
}

function readPoolArgs(op: string, args: readonly unknown[], withDilation: boolean): PoolArgs {
  const kernel = pair(op, 'kernel_size', args[0]);
  return {
    kernel,
    stride: pair(op, 'stride', args[1], kernel),
    padding: pair(op, 'padding', args[2], [0]),
    dilation: withDilation ? pair(op, 'dilation', args[3], [1]) : [1, 1],
    ceilMode: Boolean(args[withDilation ? 4 : 3]),
  };
}

const outSizes = (t: TensorImpl, g: { outH: number; outW: number }) => [...t.sizes.slice(0, -2), g.outH, g.outW];

export const MAX_POOL2D_WITH_INDICES = defineStructured(
  'max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)',
  (args, b) => {
    const op = 'max_pool2d';
    const self = args[0];
    const g = poolGeometry(op, self, readPoolArgs(op, args.slice(1), true));
    checkDtype(op, 'max_pool2d', self);
    const sizes = outSizes(self, g);
    const format = formatOf(self);
    if (nhwcInput(self, format)) {
      const outs = [channelsLastOutput(op, sizes, self.dtype, self), channelsLastOutput(op, sizes, 'int64', self)];
      const r = tryChannelsLast(b, 'maxPool2dChannelsLast', outs, (f) => f(outs[0], outs[1], self, g));
      if (r) return r;
    }
    const [out, o3] = planeOutput(op, sizes, self.dtype, self);
    const [idx, i3] = planeOutput(op, sizes, 'int64', self);
    const x = planes(b, op, self);
    try {
      if (out.numel > 0) implOf(b, 'maxPool2d', op)(o3, i3, x, g);
    } catch (e) {
      releaseAll([out, idx]);
      throw e;
    } finally {
      releaseAll([o3, i3, x]);
    }
    return [inFormat(b, op, out, format), inFormat(b, op, idx, format)];
  },
);

export const MAX_POOL2D_WITH_INDICES_BACKWARD = defineStructured(
  'max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor',
  (args, b) => {
    const op = 'max_pool2d_with_indices_backward';
    const [go, self] = args;
    const indices = args[7];
    const g = poolGeometry(op, self, readPoolArgs(op, args.slice(2), true));
    checkGrad(op, go, self, outSizes(self, g));
    if (indices.dtype !== 'int64' || indices.sizes.length !== go.sizes.length || indices.sizes.some((s, i) => s !== go.sizes[i])) {
      throw new ShapeError(`${op}: expected indices of dtype Long and size ${fmtShape(go.sizes)}, but got ${torchTypeName(indices.dtype)} ${fmtShape(indices.sizes)}`);
    }
    if (nhwcInput(self, formatOf(self)) && hasHook(b, 'maxPool2dBackwardChannelsLast')) {
      const held = [channelsLastOperand(b, op, go), channelsLastOperand(b, op, indices)];
      const outs = [channelsLastOutput(op, self.sizes, self.dtype, self)];
      try {
        const r = tryChannelsLast(b, 'maxPool2dBackwardChannelsLast', outs, (f) => f(outs[0], held[0], held[1], g));
        if (r) return r[0];
      } finally {
        releaseAll(held);
      }
    }
    const [gi, gi3] = planeOutput(op, self.sizes, self.dtype, self);
    const g3 = planes(b, op, go);
    const i3 = planes(b, op, indices);
    try {
      if (gi.numel > 0) implOf(b, 'maxPool2dBackward', op)(gi3, g3, i3, g);
    } catch (e) {
      gi.release();
      throw e;
    } finally {
      releaseAll([gi3, g3, i3]);
    }
    return inFormat(b, op, gi, formatOf(self));
  },
);

function checkGrad(op: string, go: TensorImpl, self: TensorImpl, sizes: readonly number[]): void {
  if (go.sizes.length !== sizes.length || go.sizes.some((s, i) => s !== sizes[i])) {
    throw new ShapeError(`${op}: expected grad_output of size ${fmtShape(sizes)}, but got ${fmtShape(go.sizes)}`);
  }
  if (go.dtype !== self.dtype) {
    throw new DTypeError(`${op}: expected grad_output of dtype ${torchTypeName(self.dtype)}, but got ${torchTypeName(go.dtype)}`);
  }
}

const AVG_DTYPES: readonly DType[] = ['float32', 'float64', 'float16', 'bfloat16', 'int64'];

function readDivisor(op: string, v: number | null | undefined): number | null {
  if (v == null) return null;
  if (!Number.isInteger(v) || v === 0) throw new TorchError(`${op}: divisor must be not zero`);
  return v;
}

export const AVG_POOL2D = defineStructured(
  'avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor',
  (args, b) => {
    const op = 'avg_pool2d';
    const self = args[0];
    const g = poolGeometry(op, self, readPoolArgs(op, args.slice(1), false));
    const divisor = readDivisor(op, args[6]);
    checkDtype(op, 'avg_pool2d', self, AVG_DTYPES);
    if (nhwcInput(self, formatOf(self))) {
      const outs = [channelsLastOutput(op, outSizes(self, g), self.dtype, self)];
      const r = tryChannelsLast(b, 'avgPool2dChannelsLast', outs, (f) => f(outs[0], self, g, args[5] !== false, divisor));
      if (r) return r[0];
    }
    const [out, o3] = planeOutput(op, outSizes(self, g), self.dtype, self);
    const x = planes(b, op, self);
    try {
      if (out.numel > 0) implOf(b, 'avgPool2d', op)(o3, x, g, args[5] !== false, divisor);
    } catch (e) {
      out.release();
      throw e;
    } finally {
      releaseAll([o3, x]);
    }
    return inFormat(b, op, out, formatOf(self));
  },
);

export const AVG_POOL2D_BACKWARD = defineStructured(
  'avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor',
  (args, b) => {
    const op = 'avg_pool2d_backward';
    const [go, self] = args;
    const g = poolGeometry(op, self, readPoolArgs(op, args.slice(2), false));
    const divisor = readDivisor(op, args[7]);
    checkDtype(op, 'avg_pool2d_backward', self);
    checkGrad(op, go, self, outSizes(self, g));
    if (nhwcInput(self, formatOf(self)) && hasHook(b, 'avgPool2dBackwardChannelsLast')) {
      const held = channelsLastOperand(b, op, go);
      const outs = [channelsLastOutput(op, self.sizes, self.dtype, self)];
      try {
        const r = tryChannelsLast(b, 'avgPool2dBackwardChannelsLast', outs, (f) => f(outs[0], held, g, args[6] !== false, divisor));
        if (r) return r[0];
      } finally {
        held.release();
      }
    }
    const [gi, gi3] = planeOutput(op, self.sizes, self.dtype, self);
    const g3 = planes(b, op, go);
    try {
      if (gi.numel > 0) implOf(b, 'avgPool2dBackward', op)(gi3, g3, g, args[6] !== false, divisor);
    } catch (e) {
      gi.release();
      throw e;
    } finally {
      releaseAll([gi3, g3]);
    }
    return inFormat(b, op, gi, formatOf(self));
  },
);

export const ADAPTIVE_AVG_POOL2D = defineStructured('_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor', (args, b) => {
  const op = 'adaptive_avg_pool2d';
  const self = args[0];
  const size = args[1];
  if (!Array.isArray(size) || size.length !== 2) throw new TorchError(`${op}: output_size must be 2`);
  if (size.some((s) => !Number.isInteger(s) || s < 0)) throw new TorchError(`${op}: elements of output_size must be greater than or equal to 0 but received {${size.join(', ')}}`);
  if (!((self.dim === 3 || self.dim === 4) && self.sizes.slice(-2).every((s) => s > 0))) {
    throw new ShapeError(`${op}(): Expected 3D or 4D tensor, but got ${fmtShape(self.sizes)}`);
  }
  checkDtype(op, 'adaptive_avg_pool2d', self);
  if (nhwcInput(self, formatOf(self)) && size[0] > 0 && size[1] > 0) {
    const outs = [channelsLastOutput(op, [...self.sizes.slice(0, -2), size[0], size[1]], self.dtype, self)];
    const r = tryChannelsLast(b, 'adaptiveAvgPool2dChannelsLast', outs, (f) => f(outs[0], self));
    if (r) return r[0];
  }
  const [out, o3] = planeOutput(op, [...self.sizes.slice(0, -2), size[0], size[1]], self.dtype, self);
  const x = planes(b, op, self);
  try {
    if (out.numel > 0) implOf(b, 'adaptiveAvgPool2d', op)(o3, x);
  } catch (e) {
    out.release();
    throw e;
  } finally {
    releaseAll([o3, x]);
  }
  return inFormat(b, op, out, formatOf(self));
});

export const ADAPTIVE_AVG_POOL2D_BACKWARD = defineStructured(
  '_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor',
  (args, b) => {
    const op = 'adaptive_avg_pool2d_backward';
    const [go, self] = args;
    if (go.dim !== self.dim || go.sizes.slice(0, -2).some((s, i) => s !== self.sizes[i])) {
      throw new ShapeError(`${op}: expected grad_output of size ${fmtShape([...self.sizes.slice(0, -2), go.sizes[go.dim - 2], go.sizes[go.dim - 1]])}, but got ${fmtShape(go.sizes)}`);
    }
    checkGrad(op, go, self, go.sizes);
    checkDtype(op, 'adaptive_avg_pool2d_backward', self);
    if (nhwcInput(self, formatOf(self)) && go.numel > 0 && hasHook(b, 'adaptiveAvgPool2dBackwardChannelsLast')) {
      const held = channelsLastOperand(b, op, go);
      const outs = [channelsLastOutput(op, self.sizes, self.dtype, self)];
      try {
        const r = tryChannelsLast(b, 'adaptiveAvgPool2dBackwardChannelsLast', outs, (f) => f(outs[0], held));
        if (r) return r[0];
      } finally {
        held.release();
      }
    }
    const [gi, gi3] = planeOutput(op, self.sizes, self.dtype, self);
    const g3 = planes(b, op, go);
    try {
      if (gi.numel > 0) {
        if (go.numel === 0) implOf(b, 'fill', op)(gi3, 0);
        else implOf(b, 'adaptiveAvgPool2dBackward', op)(gi3, g3);
      }
    } catch (e) {
      gi.release();
      throw e;
    } finally {
      releaseAll([gi3, g3]);
    }
    return inFormat(b, op, gi, formatOf(self));
  },
);

// ---- front ends ----
type Size2 = number | readonly number[];

export interface MaxPool2dOptions {
  stride?: Size2 | null;
  padding?: Size2;
  dilation?: Size2;
  ceilMode?: boolean;
  returnIndices?: boolean;
}

/** Runs `f` on a 4-d input, adding and removing a batch dim around a 3-d (unbatched) one. */
function batched(op: string, input: Tensor, f: (x: Tensor) => Tensor[]): Tensor[] {
  const x = unwrapTensor(op, 'input', input);
  if (x.dim !== 3) return f(input);
  return tidy(() => f(unsqueeze(input, 0)).map((t) => squeeze(t, 0)));
}

const maxPool2dArgs = makeBinder(
  'max_pool2d',
  'max_pool2d(Tensor input, int[2] kernel_size, int[2]? stride=None, int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, bool return_indices=False) -> Tensor',
);
// (not a front end: its result is a Tensor or (values, indices) by `return_indices`, which its
// hand-written overloads type and one derived signature would not)
/** F.max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False). */
export function maxPool2d(input: Tensor, kernelSize: Size2, options: MaxPool2dOptions & { returnIndices: true }): ValuesIndices;
export function maxPool2d(input: Tensor, kernelSize: Size2, stride: Size2 | null, padding: Size2, dilation: Size2, ceilMode: boolean, returnIndices: true): ValuesIndices;
export function maxPool2d(
  input: Tensor,
  kernelSize: Size2,
  ...rest: OptionalArgs<[stride: Size2, padding: Size2, dilation: Size2, ceilMode: boolean, returnIndices: false], MaxPool2dOptions & { returnIndices?: false }>
): Tensor;
export function maxPool2d(input: Tensor, kernelSize: Size2, ...rest: OptionalArgs<[stride: Size2, padding: Size2, dilation: Size2, ceilMode: boolean, returnIndices: boolean], MaxPool2dOptions>): Tensor | ValuesIndices;
export function maxPool2d(...a: unknown[]): Tensor | ValuesIndices {
  const op = 'max_pool2d';
  const [input, kernelSize, stride, padding, dilation, ceilMode, returnIndices] = maxPool2dArgs.bind(a);
  const x = unwrapTensor(op, 'input', input);
  if (x.dim !== 3 && x.dim !== 4) checkSpatialInput(op, x);
  const pair = batched(op, input, (t) => callMulti(MAX_POOL2D_WITH_INDICES, [t.impl, kernelSize, stride ?? [], padding, dilation, ceilMode]));
  if (returnIndices) return valuesIndices(pair);
  pair[1].dispose();
  return pair[0];
}

// (torch.avg_pool2d... and F.avg_pool2d...; no Tensor methods)
const POOL_NAMESPACES = { method: false, namespaces: ['torch', 'nn.functional'] } as const;

/** F.avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None). */
export const avgPool2d = front(
  'avg_pool2d(Tensor input, int[2] kernel_size, int[2]? stride=None, int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor',
  POOL_NAMESPACES,
).run(([input, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride]): Tensor => {
  const op = 'avg_pool2d';
  unwrapTensor(op, 'input', input);
  const [out] = batched(op, input, (t) => [callFunctional(AVG_POOL2D, [t.impl, kernelSize, stride ?? [], padding, ceilMode, countIncludePad, divisorOverride ?? null])]);
  return out;
});
export type AvgPool2dOptions = OptionsOf<typeof avgPool2d>;

/** `outputSize`: an int, or [h, w] where null keeps the input's size. */
export const adaptiveAvgPool2d = front('adaptive_avg_pool2d(Tensor input, int?[2] output_size) -> Tensor', POOL_NAMESPACES).run(([input, req]): Tensor => {
  const op = 'adaptive_avg_pool2d';
  const x = unwrapTensor(op, 'input', input);
  if (req.length !== 2) throw new TorchError(`${op}: output_size must be 2`);
  const size = req.map((s, i) => (s == null ? x.sizes[x.dim - 2 + i] : s));
  return callFunctional(ADAPTIVE_AVG_POOL2D, [x, size]);
});

// Tensor-level calls of the backward ops (for the derivatives and double backward)
export function maxPool2dWithIndicesBackward(
  gradOutput: Tensor,
  self: Tensor,
  kernelSize: readonly number[],
  stride: readonly number[],
  padding: readonly number[],
  dilation: readonly number[],
  ceilMode: boolean,
  indices: Tensor,
): Tensor {
  return callFunctional(MAX_POOL2D_WITH_INDICES_BACKWARD, [gradOutput.impl, self.impl, [...kernelSize], [...stride], [...padding], [...dilation], ceilMode, indices.impl]);
}

export function avgPool2dBackward(
  gradOutput: Tensor,
  self: Tensor,
  kernelSize: readonly number[],
  stride: readonly number[],
  padding: readonly number[],
  ceilMode: boolean,
  countIncludePad: boolean,
  divisorOverride: number | null,
): Tensor {
  return callFunctional(AVG_POOL2D_BACKWARD, [gradOutput.impl, self.impl, [...kernelSize], [...stride], [...padding], ceilMode, countIncludePad, divisorOverride]);
}

export function adaptiveAvgPool2dBackward(gradOutput: Tensor, self: Tensor): Tensor {
  return callFunctional(ADAPTIVE_AVG_POOL2D_BACKWARD, [gradOutput.impl, self.impl]);
}

/** avg_pool2d with the raw argument lists (the double-backward formula of avg_pool2d_backward). */
export function avgPool2dRaw(
  self: Tensor,
  kernelSize: readonly number[],
  stride: readonly number[],
  padding: readonly number[],
  ceilMode: boolean,
  countIncludePad: boolean,
  divisorOverride: number | null,
): Tensor {
  return callFunctional(AVG_POOL2D, [self.impl, [...kernelSize], [...stride], [...padding], ceilMode, countIncludePad, divisorOverride]);
}

export function adaptiveAvgPool2dRaw(self: Tensor, outputSize: readonly number[]): Tensor {
  return callFunctional(ADAPTIVE_AVG_POOL2D, [self.impl, [...outputSize]]);
}
