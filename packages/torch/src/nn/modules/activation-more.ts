import type { DType, DeviceLike, OptionalArgs } from '@torch-ts/core';
import * as F from '../functional';
import { FACTORY_PARAMS, initBinder } from '../init-args';
import { Tensor, TorchError, noGradGuard } from '../internal';
import { Module } from '../module';
import type { Parameter } from '../parameter';
import { pyFloat, pyRepr } from '../repr';
import { emptyParam } from './linear';
import type { InplaceOptions } from './activation';

/**
 * The rest of torch.nn's activation modules (PyTorch 1.13's constructors, defaults and
 * reprs), each calling its F function: ReLU6, SELU, CELU, Softplus, Hardtanh, Hardswish,
 * Hardsigmoid, Mish, LogSigmoid, Softmin, Softmax2d, GLU, PReLU (a learnable slope `weight`,
 * one or one per channel), Threshold, Hardshrink, Softshrink, Tanhshrink, Softsign and RReLU
 * (random slopes in training mode, their mean in eval).
 */

const inplaceRepr = (inplace: boolean) => (inplace ? 'inplace=True' : '');
const withInplace = (s: string, inplace: boolean) => (inplace ? `${s}, inplace=True` : s);

const relu6Args = initBinder('ReLU6', 'bool inplace=False');
export class ReLU6 extends Module {
  readonly inplace: boolean;
  constructor(...args: OptionalArgs<[inplace: boolean], InplaceOptions>) {
    super();
    [this.inplace] = relu6Args.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return F.relu6(input, this.inplace);
  }
  override extraRepr(): string {
    return inplaceRepr(this.inplace);
  }
}

const seluArgs = initBinder('SELU', 'bool inplace=False');
export class SELU extends Module {
  readonly inplace: boolean;
  constructor(...args: OptionalArgs<[inplace: boolean], InplaceOptions>) {
    super();
    [this.inplace] = seluArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return F.selu(input, this.inplace);
  }
  override extraRepr(): string {
    return inplaceRepr(this.inplace);
  }
}

const celuArgs = initBinder('CELU', 'float alpha=1.0, bool inplace=False');
export class CELU extends Module {
  readonly alpha: number;
  readonly inplace: boolean;
  constructor(...args: OptionalArgs<[alpha: number, inplace: boolean], InplaceOptions & { alpha?: number | null }>) {
    super();
    [this.alpha, this.inplace] = celuArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return F.celu(input, this.alpha, this.inplace);
  }
  override extraRepr(): string {
    return withInplace(`alpha=${pyRepr(pyFloat(this.alpha))}`, this.inplace);
  }
}

const softplusArgs = initBinder('Softplus', 'float beta=1, float threshold=20');
export class Softplus extends Module {
  readonly beta: number;
  readonly threshold: number;
  constructor(...args: OptionalArgs<[beta: number, threshold: number], { beta?: number | null; threshold?: number | null }>) {
    super();
    [this.beta, this.threshold] = softplusArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return F.softplus(input, this.beta, this.threshold);
  }
  override extraRepr(): string {
    return `beta=${this.beta}, threshold=${this.threshold}`;
  }
}

const hardtanhArgs = initBinder('Hardtanh', 'float min_val=-1.0, float max_val=1.0, bool inplace=False');
export class Hardtanh extends Module {
  readonly minVal: number;
  readonly maxVal: number;
  readonly inplace: boolean;
  constructor(...args: OptionalArgs<[minVal: number, maxVal: number, inplace: boolean], InplaceOptions & { minVal?: number | null; maxVal?: number | null }>) {
    super();
    [this.minVal, this.maxVal, this.inplace] = hardtanhArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return this.inplace ? F.hardtanh_(input, this.minVal, this.maxVal) : F.hardtanh(input, this.minVal, this.maxVal);
  }
  override extraRepr(): string {
    return withInplace(`min_val=${pyRepr(pyFloat(this.minVal))}, max_val=${pyRepr(pyFloat(this.maxVal))}`, this.inplace);
  }
}

/** Hardswish, Hardsigmoid and Mish: an `inplace` flag PyTorch does not print. */
abstract class InplaceActivation extends Module {
  readonly inplace: boolean;
  constructor(binder: { bind(args: readonly unknown[]): [boolean] }, args: readonly unknown[]) {
    super();
    [this.inplace] = binder.bind(args);
  }
}

const hardswishArgs = initBinder('Hardswish', 'bool inplace=False');
export class Hardswish extends InplaceActivation {
  constructor(...args: OptionalArgs<[inplace: boolean], InplaceOptions>) {
    super(hardswishArgs, args);
  }
  override forward(input: Tensor): Tensor {
    return F.hardswish(input, this.inplace);
  }
}

const hardsigmoidArgs = initBinder('Hardsigmoid', 'bool inplace=False');
export class Hardsigmoid extends InplaceActivation {
  constructor(...args: OptionalArgs<[inplace: boolean], InplaceOptions>) {
    super(hardsigmoidArgs, args);
  }
  override forward(input: Tensor): Tensor {
    return F.hardsigmoid(input, this.inplace);
  }
}

const mishArgs = initBinder('Mish', 'bool inplace=False');
export class Mish extends InplaceActivation {
  constructor(...args: OptionalArgs<[inplace: boolean], InplaceOptions>) {
    super(mishArgs, args);
  }
  override forward(input: Tensor): Tensor {
    return F.mish(input, this.inplace);
  }
}

const logSigmoidArgs = initBinder('LogSigmoid', '');
export class LogSigmoid extends Module {
  constructor(...args: []) {
    super();
    logSigmoidArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return F.logsigmoid(input);
  }
}

const tanhshrinkArgs = initBinder('Tanhshrink', '');
export class Tanhshrink extends Module {
  constructor(...args: []) {
    super();
    tanhshrinkArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return F.tanhshrink(input);
  }
}

const softsignArgs = initBinder('Softsign', '');
export class Softsign extends Module {
  constructor(...args: []) {
    super();
    softsignArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return F.softsign(input);
  }
}

const softmax2dArgs = initBinder('Softmax2d', '');
/** Softmax over the channels of a [C, H, W] or [N, C, H, W] input (dim -3). */
export class Softmax2d extends Module {
  constructor(...args: []) {
    super();
    softmax2dArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    if (input.dim() !== 3 && input.dim() !== 4) throw new TorchError(`Softmax2d: expected input to be 3D or 4D, got ${input.dim()}D instead`);
    return F.softmax(input, -3);
  }
}

const softminArgs = initBinder('Softmin', 'int? dim=None');
export class Softmin extends Module {
  readonly dim: number | null;
  constructor(...args: OptionalArgs<[dim: number], { dim?: number | null }>) {
    super();
    this.dim = softminArgs.bind(args)[0] ?? null;
  }
  override forward(input: Tensor): Tensor {
    return F.softmin(input, this.dim);
  }
  override extraRepr(): string {
    return `dim=${pyRepr(this.dim)}`;
  }
}

const gluArgs = initBinder('GLU', 'int dim=-1');
export class GLU extends Module {
  readonly dim: number;
  constructor(...args: OptionalArgs<[dim: number], { dim?: number | null }>) {
    super();
    [this.dim] = gluArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return F.glu(input, this.dim);
  }
  override extraRepr(): string {
    return `dim=${this.dim}`;
  }
}

const preluArgs = initBinder('PReLU', `int num_parameters=1, float init=0.25, ${FACTORY_PARAMS}`);
export interface PReLUOptions {
  numParameters?: number;
  init?: number;
  device?: DeviceLike | null;
  dtype?: DType | null;
}
export class PReLU extends Module {
  declare weight: Parameter;
  readonly numParameters: number;
  constructor(...args: OptionalArgs<[numParameters: number, init: number], PReLUOptions>) {
    super();
    const [numParameters, init, device, dtype] = preluArgs.bind(args);
    this.numParameters = numParameters;
    this.weight = emptyParam([numParameters], { device: device ?? undefined, dtype: dtype ?? undefined });
    noGradGuard(() => this.weight.fill_(init));
  }
  override forward(input: Tensor): Tensor {
    return F.prelu(input, this.weight);
  }
  override extraRepr(): string {
    return `num_parameters=${this.numParameters}`;
  }
}

const thresholdArgs = initBinder('Threshold', 'float threshold, float value, bool inplace=False');
export class Threshold extends Module {
  readonly threshold: number;
  readonly value: number;
  readonly inplace: boolean;
  constructor(...args: OptionalArgs<[threshold: number, value: number, inplace: boolean], InplaceOptions & { threshold?: number; value?: number }>) {
    super();
    [this.threshold, this.value, this.inplace] = thresholdArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return F.threshold(input, this.threshold, this.value, this.inplace);
  }
  override extraRepr(): string {
    return withInplace(`threshold=${pyRepr(pyFloat(this.threshold))}, value=${pyRepr(pyFloat(this.value))}`, this.inplace);
  }
}

const hardshrinkArgs = initBinder('Hardshrink', 'float lambd=0.5');
export class Hardshrink extends Module {
  readonly lambd: number;
  constructor(...args: OptionalArgs<[lambd: number], { lambd?: number | null }>) {
    super();
    [this.lambd] = hardshrinkArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return F.hardshrink(input, this.lambd);
  }
  override extraRepr(): string {
    return pyRepr(pyFloat(this.lambd));
  }
}

const softshrinkArgs = initBinder('Softshrink', 'float lambd=0.5');
export class Softshrink extends Module {
  readonly lambd: number;
  constructor(...args: OptionalArgs<[lambd: number], { lambd?: number | null }>) {
    super();
    [this.lambd] = softshrinkArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return F.softshrink(input, this.lambd);
  }
  override extraRepr(): string {
    return pyRepr(pyFloat(this.lambd));
  }
}

const rreluArgs = initBinder('RReLU', 'float lower=0.125, float upper=0.3333333333333333, bool inplace=False');
export class RReLU extends Module {
  readonly lower: number;
  readonly upper: number;
  readonly inplace: boolean;
  constructor(...args: OptionalArgs<[lower: number, upper: number, inplace: boolean], InplaceOptions & { lower?: number | null; upper?: number | null }>) {
    super();
    [this.lower, this.upper, this.inplace] = rreluArgs.bind(args);
  }
  override forward(input: Tensor): Tensor {
    return F.rrelu(input, this.lower, this.upper, this.training, this.inplace);
  }
  override extraRepr(): string {
    return withInplace(`lower=${this.lower}, upper=${this.upper}`, this.inplace);
  }
}
