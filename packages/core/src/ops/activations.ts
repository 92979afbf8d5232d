import { isFloatingType, type DType } from '../dtype';
import { DTypeError, TorchError } from '../errors';
import { Tensor } from '../tensor/tensor';
import { makeBinder, type OptionalArgs } from './binder';
import { callFunctional, callMutating, unwrapTensor } from './call';
import { torchTypeName } from './meta-utils';
import { definePointwise, type OutOptions, type PointwiseOp } from './pointwise';
import { implOf } from './registry';

/**
 * The activations of docs/api.md. Those with a kernel of their own in PyTorch (and so their own
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
/** gelu's `approximate`, checked: 'none' (the default) or 'tanh'. */
function geluApproximate(op: string, a: unknown): 'none' | 'tanh' {
  const v = a ?? 'none';
  if (v === 'none' || v === 'tanh') return v;
  throw new TorchError(`${op}: approximate argument must be either none or tanh.`);
}

export const GELU = definePointwise({
  name: 'gelu',
  arity: 1,
  extraArgs: "*, str approximate='none'",
  rule: 'promote',
  inplace: false,
  check: (op, compute, _o, args) => {
    geluApproximate(op, args[1]);
    floatOnly('GeluKernelImpl')(op, compute);
  },
  compute: (b, op, out, [x], args) => implOf(b, 'gelu', op)(out, x, geluApproximate(op, args[1])),
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

/**
 * An activation's front ends, bound by Note [The argument binder]: the function form takes
 * PyTorch's F.* positional arguments (`extra`, schema syntax), `inplace` where F.* has it,
 * and `out`; the in-place form takes `extra`. `kernelArgs` maps the bound extras to the op's.
 */
function front(p: PointwiseOp, extra: string, kernelArgs: (bound: unknown[]) => unknown[], hasInplace = p.inplace !== undefined) {
  const name = p.functional.schema.name;
  const kwOnly = extra.includes('*');
  const fnArgs = makeBinder(name, `${name}(Tensor self${extra ? `, ${extra}` : ''}${hasInplace ? ', bool inplace=False' : ''}${kwOnly ? '' : ', *'}, Tensor? out=None) -> Tensor`);
  const inplaceArgs = makeBinder(`${name}_`, `${name}_(Tensor self${extra ? `, ${extra}` : ''}) -> Tensor`);
  const nExtra = inplaceArgs.schema.args.length - 1;
  const inplace = (...args: unknown[]): Tensor => {
    const bound = inplaceArgs.bind(args);
    const self = bound[0];
    if (!p.inplace) throw new TorchError(`${name}_: there is no in-place variant of ${name}`);
    return callMutating(p.inplace, [unwrapTensor(`${name}_`, 'self', self), ...kernelArgs(bound.slice(1))], self);
  };
  return {
    fn: (...args: unknown[]): Tensor => {
      const bound = fnArgs.bind(args);
      const self = bound[0];
      const extras = bound.slice(1, 1 + nExtra);
      // (the binder checked it: `Tensor? out`)
      const last = bound[bound.length - 1];
      const out = last instanceof Tensor ? last : undefined;
      if (hasInplace && bound[1 + nExtra] === true) {
        if (out) throw new TorchError(`${name}: out= cannot be combined with inplace=True`);
        return callMutating(p.inplace!, [unwrapTensor(`${name}_`, 'self', self), ...kernelArgs(extras)], self);
      }
      const a = [unwrapTensor(name, 'input', self), ...kernelArgs(extras)];
      return out ? callMutating(p.out, [...a, unwrapTensor(name, 'out', out)], out) : callFunctional(p.functional, a);
    },
    inplace,
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

const same = (bound: unknown[]) => bound;
const _leakyRelu = front(LEAKY_RELU, 'Scalar negative_slope=0.01', same);
const _elu = front(ELU, 'Scalar alpha=1', ([alpha]) => [alpha, 1, 1]);
const _hardtanh = front(HARDTANH, 'Scalar min_val=-1, Scalar max_val=1', same);
const _gelu = front(GELU, "*, str approximate='none'", same);
const _silu = front(SILU, '', same);
const _mish = front(MISH, '', same);
const _softplus = front(SOFTPLUS, 'Scalar beta=1, Scalar threshold=20', same);
const _hardsigmoid = front(HARDSIGMOID, '', same);
const _hardswish = front(HARDSWISH, '', same);
const _logit = front(LOGIT, 'float? eps=None', same, false);

/** F.*'s options: any argument by keyword, `inplace` where F.* has it, and `out`. */
type Fn<P extends unknown[], O> = (input: Tensor, ...rest: OptionalArgs<P, O & OutOptions & InplaceOption>) => Tensor;
type Inplace<P extends unknown[], O> = (self: Tensor, ...rest: OptionalArgs<P, O>) => Tensor;

export const leakyRelu: Fn<[negativeSlope: number, inplace: boolean], LeakyReluOptions> = _leakyRelu.fn;
export const leakyRelu_: Inplace<[negativeSlope: number], LeakyReluOptions> = _leakyRelu.inplace;
export const elu: Fn<[alpha: number, inplace: boolean], EluOptions> = _elu.fn;
export const elu_: Inplace<[alpha: number], EluOptions> = _elu.inplace;
export const hardtanh: Fn<[minVal: number, maxVal: number, inplace: boolean], HardtanhOptions> = _hardtanh.fn;
export const hardtanh_: Inplace<[minVal: number, maxVal: number], HardtanhOptions> = _hardtanh.inplace;
export const gelu: (input: Tensor, options?: GeluOptions & OutOptions) => Tensor = _gelu.fn;
export const silu: Fn<[inplace: boolean], NoOptions> = _silu.fn;
export const silu_: Inplace<[], NoOptions> = _silu.inplace;
export const mish: Fn<[inplace: boolean], NoOptions> = _mish.fn;
export const mish_: Inplace<[], NoOptions> = _mish.inplace;
export const softplus: (input: Tensor, ...rest: OptionalArgs<[beta: number, threshold: number], SoftplusOptions & OutOptions>) => Tensor = _softplus.fn;
export const hardsigmoid: Fn<[inplace: boolean], NoOptions> = _hardsigmoid.fn;
export const hardsigmoid_: Inplace<[], NoOptions> = _hardsigmoid.inplace;
export const hardswish: Fn<[inplace: boolean], NoOptions> = _hardswish.fn;
export const hardswish_: Inplace<[], NoOptions> = _hardswish.inplace;
export const logit: (input: Tensor, ...rest: OptionalArgs<[eps: number], LogitOptions & OutOptions>) => Tensor = _logit.fn;
export const logit_: Inplace<[eps: number], LogitOptions> = _logit.inplace;

// PyTorch's SELU constants (torch/nn/functional.py, Activation.cpp)
const SELU_ALPHA = 1.6732632423543772848170429916717;
const SELU_SCALE = 1.0507009873554804934193349852946;

const seluArgs = makeBinder('selu', 'selu(Tensor self, bool inplace=False, *, Tensor? out=None) -> Tensor');
const seluInplaceArgs = makeBinder('selu_', 'selu_(Tensor self) -> Tensor');
const relu6Args = makeBinder('relu6', 'relu6(Tensor self, bool inplace=False, *, Tensor? out=None) -> Tensor');

/** `selu(x)` is `elu(x, alpha, scale)` with SELU's constants, as in PyTorch (Node EluBackward0). */
export function selu(input: Tensor, ...rest: OptionalArgs<[inplace: boolean], OutOptions & InplaceOption>): Tensor;
export function selu(...args: unknown[]): Tensor {
  const [self, inplace, out] = seluArgs.bind(args);
  if (inplace) return selu_(self);
  const a = [unwrapTensor('selu', 'input', self), SELU_ALPHA, SELU_SCALE, 1];
  return out ? callMutating(ELU.out, [...a, unwrapTensor('selu', 'out', out)], out) : callFunctional(ELU.functional, a);
}
export function selu_(self: Tensor): Tensor;
export function selu_(...args: unknown[]): Tensor {
  const [self] = seluInplaceArgs.bind(args);
  return callMutating(ELU.inplace!, [unwrapTensor('selu_', 'self', self), SELU_ALPHA, SELU_SCALE, 1], self);
}

/** `relu6(x)` is `hardtanh(x, 0, 6)`, as in PyTorch (Node HardtanhBackward0); F.relu6's `inplace` is `hardtanh_`. */
export function relu6(input: Tensor, ...rest: OptionalArgs<[inplace: boolean], OutOptions & InplaceOption>): Tensor;
export function relu6(...args: unknown[]): Tensor {
  const [self, inplace, out] = relu6Args.bind(args);
  unwrapTensor(inplace ? 'relu6_' : 'relu6', 'input', self);
  return hardtanh(self, 0, 6, { inplace, out });
}
