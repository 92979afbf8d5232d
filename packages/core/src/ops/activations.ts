import { isFloatingType, type DType } from '../dtype';
import { DTypeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { callFunctional, callMutating, unwrapOptionalTensor, unwrapTensor } from './call';
import { torchTypeName } from './meta-utils';
import { definePointwise, type OutOptions, type PointwiseOp } from './pointwise';
import { implOf } from './registry';

/**
 * The activations of API.md. Those with a kernel of their own in PyTorch (and so their own
 * values and Node names: GeluBackward0, SiluBackward0...) are primitives here too; selu and
 * relu6 are composites as in PyTorch (`elu` with SELU's constants, `hardtanh(x, 0, 6)`), so
 * their Nodes are EluBackward0 and HardtanhBackward0, as PyTorch's are.
 */

/** PyTorch's CPU kernels of these ops are floating only; the message names the kernel. */
function floatOnly(kernel: string) {
  return (op: string, compute: DType) => {
    if (!isFloatingType(compute)) throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(compute)}'`);
  };
}

const num = (v: unknown, fallback: number): number => (v === undefined || v === null ? fallback : Number(v));

export const LEAKY_RELU = definePointwise({
  name: 'leaky_relu',
  arity: 1,
  extraArgs: 'Scalar negative_slope=0.01',
  rule: 'promote',
  check: floatOnly('leaky_relu_cpu'),
  compute: (b, op, out, [x], args) => implOf(b, 'leakyRelu', op)(out, x, num(args[1], 0.01)),
});
export const ELU = definePointwise({
  name: 'elu',
  arity: 1,
  extraArgs: 'Scalar alpha=1, Scalar scale=1, Scalar input_scale=1',
  rule: 'promote',
  check: floatOnly('elu_cpu'),
  compute: (b, op, out, [x], args) => implOf(b, 'elu', op)(out, x, num(args[1], 1), num(args[2], 1), num(args[3], 1)),
});
export const HARDTANH = definePointwise({
  name: 'hardtanh',
  arity: 1,
  extraArgs: 'Scalar min_val=-1, Scalar max_val=1',
  rule: 'promote',
  check: (op, compute, _o, args) => {
    if (compute === 'bool') throw new DTypeError(`${op}: Bool inputs not supported for hardtanh`);
    if (compute === 'uint8' && (num(args[1], -1) < 0 || num(args[2], 1) < 0)) {
      throw new TorchError(`${op}: cannot do hardtanh on an unsigned type with negative limits`);
    }
  },
  compute: (b, op, out, [x], args) => implOf(b, 'hardtanh', op)(out, x, num(args[1], -1), num(args[2], 1)),
});
export const GELU = definePointwise({
  name: 'gelu',
  arity: 1,
  extraArgs: "*, str approximate='none'",
  rule: 'promote',
  inplace: false,
  check: (op, compute, _o, args) => {
    const a = args[1] ?? 'none';
    if (a !== 'none' && a !== 'tanh') throw new TorchError(`${op}: approximate argument must be either none or tanh.`);
    floatOnly('GeluKernelImpl')(op, compute);
  },
  compute: (b, op, out, [x], args) => implOf(b, 'gelu', op)(out, x, (args[1] ?? 'none') as 'none' | 'tanh'),
});
export const SILU = definePointwise({
  name: 'silu',
  arity: 1,
  rule: 'promote',
  check: floatOnly('silu_cpu'),
  compute: (b, op, out, [x]) => implOf(b, 'silu', op)(out, x),
});
export const MISH = definePointwise({
  name: 'mish',
  arity: 1,
  rule: 'promote',
  check: floatOnly('mish_cpu'),
  compute: (b, op, out, [x]) => implOf(b, 'mish', op)(out, x),
});
export const SOFTPLUS = definePointwise({
  name: 'softplus',
  arity: 1,
  extraArgs: 'Scalar beta=1, Scalar threshold=20',
  rule: 'promote',
  inplace: false,
  check: floatOnly('softplus_cpu'),
  compute: (b, op, out, [x], args) => implOf(b, 'softplus', op)(out, x, num(args[1], 1), num(args[2], 20)),
});
export const HARDSIGMOID = definePointwise({
  name: 'hardsigmoid',
  arity: 1,
  rule: 'promote',
  check: floatOnly('hardsigmoid_cpu'),
  compute: (b, op, out, [x]) => implOf(b, 'hardsigmoid', op)(out, x),
});
export const HARDSWISH = definePointwise({
  name: 'hardswish',
  arity: 1,
  rule: 'promote',
  check: floatOnly('hardswish_cpu'),
  compute: (b, op, out, [x]) => implOf(b, 'hardswish', op)(out, x),
});
export const LOGIT = definePointwise({
  name: 'logit',
  arity: 1,
  extraArgs: 'float? eps=None',
  rule: 'float',
  compute: (b, op, out, [x], args) => {
    const eps = args[1] == null ? null : Number(args[1]);
    // PyTorch treats a negative eps as no eps
    implOf(b, 'logit', op)(out, x, eps !== null && eps >= 0 ? eps : null);
  },
});

// ---- front ends ----
/** `inplace: true` is F.*'s spelling of the in-place form. */
export interface InplaceOption {
  inplace?: boolean;
}

function front<O extends object>(p: PointwiseOp, extra: (o: O) => unknown[]) {
  const name = p.functional.schema.name;
  return {
    fn: (self: Tensor, options: O & OutOptions & InplaceOption = {} as O): Tensor => {
      if (options.inplace) {
        if (!p.inplace) throw new TorchError(`${name}: there is no in-place variant of ${name}`);
        return callMutating(p.inplace, [unwrapTensor(`${name}_`, 'self', self), ...extra(options)], self);
      }
      const a = [unwrapTensor(name, 'input', self), ...extra(options)];
      const out = unwrapOptionalTensor(name, 'out', options.out);
      return out ? callMutating(p.out, [...a, out], options.out as Tensor) : callFunctional(p.functional, a);
    },
    inplace: (self: Tensor, options: O = {} as O): Tensor => {
      if (!p.inplace) throw new TorchError(`${name}_: there is no in-place variant of ${name}`);
      return callMutating(p.inplace, [unwrapTensor(`${name}_`, 'self', self), ...extra(options)], self);
    },
  };
}

export interface LeakyReluOptions {
  negativeSlope?: number;
}
export interface EluOptions {
  alpha?: number;
}
export interface HardtanhOptions {
  minVal?: number;
  maxVal?: number;
}
export interface GeluOptions {
  approximate?: 'none' | 'tanh';
}
export interface SoftplusOptions {
  beta?: number;
  threshold?: number;
}
export interface LogitOptions {
  eps?: number | null;
}
type NoOptions = Record<never, never>;

const _leakyRelu = front<LeakyReluOptions>(LEAKY_RELU, (o) => [o.negativeSlope ?? 0.01]);
const _elu = front<EluOptions>(ELU, (o) => [o.alpha ?? 1, 1, 1]);
const _hardtanh = front<HardtanhOptions>(HARDTANH, (o) => [o.minVal ?? -1, o.maxVal ?? 1]);
const _gelu = front<GeluOptions>(GELU, (o) => [o.approximate ?? 'none']);
const _silu = front<NoOptions>(SILU, () => []);
const _mish = front<NoOptions>(MISH, () => []);
const _softplus = front<SoftplusOptions>(SOFTPLUS, (o) => [o.beta ?? 1, o.threshold ?? 20]);
const _hardsigmoid = front<NoOptions>(HARDSIGMOID, () => []);
const _hardswish = front<NoOptions>(HARDSWISH, () => []);
const _logit = front<LogitOptions>(LOGIT, (o) => [o.eps ?? null]);

type Fn<O> = (self: Tensor, options?: O & OutOptions & InplaceOption) => Tensor;
type Inplace<O> = (self: Tensor, options?: O) => Tensor;

export const leakyRelu: Fn<LeakyReluOptions> = _leakyRelu.fn;
export const leakyRelu_: Inplace<LeakyReluOptions> = _leakyRelu.inplace;
export const elu: Fn<EluOptions> = _elu.fn;
export const elu_: Inplace<EluOptions> = _elu.inplace;
export const hardtanh: Fn<HardtanhOptions> = _hardtanh.fn;
export const hardtanh_: Inplace<HardtanhOptions> = _hardtanh.inplace;
export const gelu: (self: Tensor, options?: GeluOptions & OutOptions) => Tensor = _gelu.fn;
export const silu: Fn<NoOptions> = _silu.fn;
export const silu_: Inplace<NoOptions> = _silu.inplace;
export const mish: Fn<NoOptions> = _mish.fn;
export const mish_: Inplace<NoOptions> = _mish.inplace;
export const softplus: (self: Tensor, options?: SoftplusOptions & OutOptions) => Tensor = _softplus.fn;
export const hardsigmoid: Fn<NoOptions> = _hardsigmoid.fn;
export const hardsigmoid_: Inplace<NoOptions> = _hardsigmoid.inplace;
export const hardswish: Fn<NoOptions> = _hardswish.fn;
export const hardswish_: Inplace<NoOptions> = _hardswish.inplace;
export const logit: (self: Tensor, options?: LogitOptions & OutOptions) => Tensor = _logit.fn;
export const logit_: Inplace<LogitOptions> = _logit.inplace;

// PyTorch's SELU constants (torch/nn/functional.py, Activation.cpp)
const SELU_ALPHA = 1.6732632423543772848170429916717;
const SELU_SCALE = 1.0507009873554804934193349852946;

/** `selu(x)` is `elu(x, alpha, scale)` with SELU's constants, as in PyTorch (Node EluBackward0). */
export function selu(self: Tensor, options: OutOptions & InplaceOption = {}): Tensor {
  if (options.inplace) return selu_(self);
  const a = [unwrapTensor('selu', 'input', self), SELU_ALPHA, SELU_SCALE, 1];
  const out = unwrapOptionalTensor('selu', 'out', options.out);
  return out ? callMutating(ELU.out, [...a, out], options.out as Tensor) : callFunctional(ELU.functional, a);
}
export function selu_(self: Tensor): Tensor {
  return callMutating(ELU.inplace!, [unwrapTensor('selu_', 'self', self), SELU_ALPHA, SELU_SCALE, 1], self);
}

/** `relu6(x)` is `hardtanh(x, 0, 6)`, as in PyTorch (Node HardtanhBackward0); F.relu6's `inplace` is `hardtanh_`. */
export function relu6(self: Tensor, options: OutOptions & InplaceOption = {}): Tensor {
  unwrapTensor(options.inplace ? 'relu6_' : 'relu6', 'input', self);
  return hardtanh(self, { ...options, minVal: 0, maxVal: 6 });
}
