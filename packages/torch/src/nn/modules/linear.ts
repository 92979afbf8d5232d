import { empty, type BoundArgs, type DType, type DeviceLike, type OptionalArgs } from '@torch-ts/core';
import { FACTORY_PARAMS, initBinder } from '../init-args';
import * as init from '../init';
import { Tensor } from '../internal';
import { Module } from '../module';
import { Parameter } from '../parameter';
import * as F from '../functional';
import { pyRepr } from '../repr';

export interface FactoryKwargs {
  dtype?: DType | string | null;
  device?: DeviceLike | null;
}

/** A layer's `device=None, dtype=None` after binding: the dtype resolved from its name. */
export interface BoundFactoryKwargs {
  dtype?: DType | null;
  device?: DeviceLike | null;
}

/** `torch.empty(sizes, dtype=..., device=...)` for a layer's parameters. */
export function emptyParam(sizes: number[], o: BoundFactoryKwargs): Parameter {
  const t = empty(sizes, { dtype: o.dtype, device: o.device });
  const p = new Parameter(t);
  t.dispose();
  return p;
}


export class Identity extends Module {
  constructor(..._args: unknown[]) {
    super();
  }

  override forward(input: Tensor): Tensor {
    return input;
  }
}

export interface LinearOptions extends FactoryKwargs {
  bias?: boolean | null;
}

const linearArgs = initBinder('Linear', `int in_features, int out_features, bool bias=True, ${FACTORY_PARAMS}`);
const bilinearArgs = initBinder('Bilinear', `int in1_features, int in2_features, int out_features, bool bias=True, ${FACTORY_PARAMS}`);
const flattenArgs = initBinder('Flatten', 'int start_dim=1, int end_dim=-1');
const unflattenArgs = initBinder('Unflatten', 'int dim, int[] unflattened_size');

/** `nn.Linear(in, out, { bias })`: y = x W^T + b, initialised as PyTorch's `reset_parameters`. */
export class Linear extends Module {
  declare weight: Parameter;
  declare bias: Parameter | null;
  readonly inFeatures: number;
  readonly outFeatures: number;

  constructor(
    ...args: BoundArgs<[inFeatures: number, outFeatures: number], [bias: boolean, device: DeviceLike, dtype: DType | string], LinearOptions & { inFeatures?: number; outFeatures?: number }>
  ) {
    super();
    const [inFeatures, outFeatures, bias, device, dtype] = linearArgs.bind(args);
    const options = { device, dtype };
    this.inFeatures = inFeatures;
    this.outFeatures = outFeatures;
    this.weight = emptyParam([outFeatures, inFeatures], options);
    if (bias) this.bias = emptyParam([outFeatures], options);
    else this.registerParameter('bias', null);
    this.resetParameters();
  }

  resetParameters(): void {
    init.kaimingUniform_(this.weight, { a: Math.sqrt(5) });
    if (this.bias !== null) {
      const [fanIn] = init.calculateFanInAndFanOut(this.weight);
      const bound = fanIn > 0 ? 1 / Math.sqrt(fanIn) : 0;
      init.uniform_(this.bias, -bound, bound);
    }
  }

  override forward(input: Tensor): Tensor {
    return F.linear(input, this.weight, this.bias);
  }

  override extraRepr(): string {
    return `in_features=${this.inFeatures}, out_features=${this.outFeatures}, bias=${pyRepr(this.bias !== null)}`;
  }
}

/** `nn.Bilinear(in1, in2, out)`: y = x1^T A x2 + b. */
export class Bilinear extends Module {
  declare weight: Parameter;
  declare bias: Parameter | null;
  readonly in1Features: number;
  readonly in2Features: number;
  readonly outFeatures: number;

  constructor(
    ...args: BoundArgs<
      [in1Features: number, in2Features: number, outFeatures: number],
      [bias: boolean, device: DeviceLike, dtype: DType | string],
      LinearOptions & { in1Features?: number; in2Features?: number; outFeatures?: number }
    >
  ) {
    super();
    const [in1Features, in2Features, outFeatures, bias, device, dtype] = bilinearArgs.bind(args);
    const options = { device, dtype };
    this.in1Features = in1Features;
    this.in2Features = in2Features;
    this.outFeatures = outFeatures;
    this.weight = emptyParam([outFeatures, in1Features, in2Features], options);
    if (bias) this.bias = emptyParam([outFeatures], options);
    else this.registerParameter('bias', null);
    this.resetParameters();
  }

  resetParameters(): void {
    const bound = 1 / Math.sqrt(this.weight.size(1));
    init.uniform_(this.weight, -bound, bound);
    if (this.bias !== null) init.uniform_(this.bias, -bound, bound);
  }

  override forward(input1: Tensor, input2: Tensor): Tensor {
    return F.bilinear(input1, input2, this.weight, this.bias);
  }

  override extraRepr(): string {
    return `in1_features=${this.in1Features}, in2_features=${this.in2Features}, out_features=${this.outFeatures}, bias=${pyRepr(this.bias !== null)}`;
  }
}

export class Flatten extends Module {
  readonly startDim: number;
  readonly endDim: number;

  constructor(...args: OptionalArgs<[startDim: number, endDim: number], { startDim?: number | null; endDim?: number | null }>) {
    super();
    [this.startDim, this.endDim] = flattenArgs.bind(args);
  }

  override forward(input: Tensor): Tensor {
    return input.flatten(this.startDim, this.endDim);
  }

  override extraRepr(): string {
    return `start_dim=${this.startDim}, end_dim=${this.endDim}`;
  }
}

export class Unflatten extends Module {
  readonly dim: number;
  readonly unflattenedSize: number[];

  constructor(...args: BoundArgs<[dim: number, unflattenedSize: readonly number[]], [], { dim?: number; unflattenedSize?: readonly number[] }>) {
    super();
    [this.dim, this.unflattenedSize] = unflattenArgs.bind(args);
  }

  override forward(input: Tensor): Tensor {
    return input.unflatten(this.dim, this.unflattenedSize);
  }

  override extraRepr(): string {
    return `dim=${this.dim}, unflattened_size=${pyRepr(this.unflattenedSize)}`;
  }
}
