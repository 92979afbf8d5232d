import * as init from '../init';
import { NotImplementedError, TorchTypeError, typeName, type BoundArgs, type DType, type DeviceLike } from '@torch-ts/core';
import { Tensor, TorchError } from '../internal';
import { FACTORY_PARAMS, initBinder } from '../init-args';
import { Module } from '../module';
import type { Parameter } from '../parameter';
import * as F from '../functional';
import { pyRepr, pyStr, type PyValue } from '../repr';
import { emptyParam, type BoundFactoryKwargs, type FactoryKwargs } from './linear';

export type IntOrTuple = number | readonly number[];

export interface ConvOptions extends FactoryKwargs {
  stride?: IntOrTuple | null;
  padding?: IntOrTuple | 'valid' | 'same' | null;
  dilation?: IntOrTuple | null;
  groups?: number | null;
  bias?: boolean | null;
  paddingMode?: 'zeros' | null;
}

export interface ConvTransposeOptions extends FactoryKwargs {
  stride?: IntOrTuple | null;
  padding?: IntOrTuple | null;
  outputPadding?: IntOrTuple | null;
  groups?: number | null;
  bias?: boolean | null;
  dilation?: IntOrTuple | null;
  paddingMode?: 'zeros' | null;
}

/** `_single` / `_pair`: an int repeated to `n` entries, or the tuple itself. */
export function ntuple(op: string, v: IntOrTuple, n: number): number[] {
  if (typeof v === 'number') return new Array<number>(n).fill(v);
  if (v.length !== n) throw new TorchError(`${op}: expected ${n} values, but got ${JSON.stringify(v)}`);
  return [...v];
}

const allEqual = (v: PyValue, x: number): boolean => Array.isArray(v) && v.every((e) => e === x);

/** What a conv layer's padding may be: one int per spatial dim, or 'valid' / 'same' (not for transposed convs). */
type ConvPadding = number[] | 'valid' | 'same';

/** A conv layer's `__init__` arguments, bound (Note [Module constructors bind their arguments]). */
interface ConvSpec<P extends ConvPadding> {
  readonly inChannels: number;
  readonly outChannels: number;
  readonly kernelSize: number[];
  readonly stride: number[];
  /** The padding, checked and expanded for the layer `name` once its stride is known. */
  readonly padding: (name: string, stride: readonly number[], n: number) => P;
  readonly outputPadding: number[] | null;
  readonly dilation: number[];
  readonly groups: number;
  readonly bias: boolean;
  readonly paddingMode: string;
  readonly factory: BoundFactoryKwargs;
}

const convParams = <N extends number>(n: N) =>
  `int in_channels, int out_channels, int[${n}] kernel_size, int[${n}] stride=1, Any padding=0, int[${n}] dilation=1, int groups=1, bool bias=True, str padding_mode='zeros', ${FACTORY_PARAMS}` as const;
const conv1dArgs = initBinder('Conv1d', convParams(1));
const conv2dArgs = initBinder('Conv2d', convParams(2));
const convTransposeParams = <N extends number>(n: N) =>
  `int in_channels, int out_channels, int[${n}] kernel_size, int[${n}] stride=1, int[${n}] padding=0, int[${n}] output_padding=0, int groups=1, bool bias=True, int[${n}] dilation=1, str padding_mode='zeros', ${FACTORY_PARAMS}` as const;
const convTranspose1dArgs = initBinder('ConvTranspose1d', convTransposeParams(1));
const convTranspose2dArgs = initBinder('ConvTranspose2d', convTransposeParams(2));

function convSpec(v: ReturnType<typeof conv2dArgs.bind>): ConvSpec<ConvPadding> {
  const [inChannels, outChannels, kernelSize, stride, padding, dilation, groups, bias, paddingMode, device, dtype] = v;
  return {
    inChannels, outChannels, kernelSize, stride, outputPadding: null, dilation, groups, bias, paddingMode, factory: { device, dtype },
    padding: (name, strides, n) => convPadding(name, padding, strides, n),
  }; // prettier-ignore
}

function convTransposeSpec(v: ReturnType<typeof convTranspose2dArgs.bind>): ConvSpec<number[]> {
  const [inChannels, outChannels, kernelSize, stride, padding, outputPadding, groups, bias, dilation, paddingMode, device, dtype] = v;
  return {
    inChannels, outChannels, kernelSize, stride, outputPadding, dilation, groups, bias, paddingMode, factory: { device, dtype },
    padding: (name, _strides, n) => ntuple(name, padding, n),
  }; // prettier-ignore
}

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);

/** A conv layer's `padding` (bound as `Any`): an int, a tuple of ints, 'valid' or 'same'. */
function convPadding(name: string, padding: unknown, stride: readonly number[], n: number): ConvPadding {
  if (typeof padding === 'string') {
    if (padding !== 'valid' && padding !== 'same') throw new TorchError(`${name}: Invalid padding string '${padding}', should be one of ['valid', 'same']`);
    if (padding === 'same' && stride.some((s) => s !== 1)) throw new TorchError(`${name}: padding='same' is not supported for strided convolutions`);
    return padding;
  }
  if (isInt(padding)) return ntuple(name, padding, n);
  if (Array.isArray(padding) && padding.every(isInt)) return ntuple(name, padding, n);
  throw new TorchTypeError(`${name}.__init__(): argument 'padding' must be int, tuple of ints or str, not ${typeName(padding)}`);
}

/** Shared by the conv layers: `_ConvNd`. */
abstract class ConvNd<P extends ConvPadding = ConvPadding> extends Module {
  declare weight: Parameter;
  declare bias: Parameter | null;
  readonly inChannels: number;
  readonly outChannels: number;
  readonly kernelSize: number[];
  readonly stride: number[];
  readonly padding: P;
  readonly dilation: number[];
  readonly outputPadding: number[];
  readonly groups: number;
  readonly paddingMode: string;

  constructor(
    o: ConvSpec<P>,
    readonly transposed: boolean,
    n: number,
  ) {
    super();
    const name = this.constructor.name;
    const { inChannels, outChannels } = o;
    this.inChannels = inChannels;
    this.outChannels = outChannels;
    this.groups = o.groups;
    if (this.groups <= 0) throw new TorchError(`${name}: groups must be a positive integer`);
    if (inChannels % this.groups !== 0) throw new TorchError(`${name}: in_channels must be divisible by groups`);
    if (outChannels % this.groups !== 0) throw new TorchError(`${name}: out_channels must be divisible by groups`);
    this.kernelSize = ntuple(name, o.kernelSize, n);
    this.stride = ntuple(name, o.stride, n);
    this.padding = o.padding(name, this.stride, n);
    this.dilation = ntuple(name, o.dilation, n);
    this.outputPadding = ntuple(name, o.outputPadding ?? 0, n);
    this.paddingMode = o.paddingMode;
    if (this.paddingMode !== 'zeros') throw new NotImplementedError(`${name}: padding_mode '${this.paddingMode}' is not supported by torch-ts yet (only 'zeros')`);
    const wShape = transposed
      ? [inChannels, outChannels / this.groups, ...this.kernelSize]
      : [outChannels, inChannels / this.groups, ...this.kernelSize];
    this.weight = emptyParam(wShape, o.factory);
    if (o.bias) this.bias = emptyParam([outChannels], o.factory);
    else this.registerParameter('bias', null);
    this.resetParameters();
  }
  resetParameters(): void {
    init.kaimingUniform_(this.weight, { a: Math.sqrt(5) });
    if (this.bias !== null) {
      const [fanIn] = init.calculateFanInAndFanOut(this.weight);
      if (fanIn !== 0) {
        const bound = 1 / Math.sqrt(fanIn);
        init.uniform_(this.bias, -bound, bound);
      }
    }
  }

  override extraRepr(): string {
    let s = `${this.inChannels}, ${this.outChannels}, kernel_size=${pyRepr(this.kernelSize)}, stride=${pyRepr(this.stride)}`;
    if (typeof this.padding === 'string' || !allEqual(this.padding, 0)) s += `, padding=${pyStr(this.padding)}`;
    if (!allEqual(this.dilation, 1)) s += `, dilation=${pyRepr(this.dilation)}`;
    if (!allEqual(this.outputPadding, 0)) s += `, output_padding=${pyRepr(this.outputPadding)}`;
    if (this.groups !== 1) s += `, groups=${this.groups}`;
    if (this.bias === null) s += ', bias=False';
    if (this.paddingMode !== 'zeros') s += `, padding_mode=${this.paddingMode}`;
    return s;
  }
}

function convArgs(c: ConvNd): Record<string, unknown> {
  return { stride: c.stride, padding: c.padding, dilation: c.dilation, groups: c.groups };
}

type ConvArgs = BoundArgs<
  [inChannels: number, outChannels: number, kernelSize: IntOrTuple],
  [stride: IntOrTuple, padding: IntOrTuple | 'valid' | 'same', dilation: IntOrTuple, groups: number, bias: boolean, paddingMode: 'zeros', device: DeviceLike, dtype: DType | string],
  ConvOptions & { inChannels?: number; outChannels?: number; kernelSize?: IntOrTuple }
>;

export class Conv1d extends ConvNd {
  constructor(...args: ConvArgs) {
    super(convSpec(conv1dArgs.bind(args)), false, 1);
  }

  override forward(input: Tensor): Tensor {
    return F.conv1d(input, this.weight, this.bias, convArgs(this));
  }
}

export class Conv2d extends ConvNd {
  constructor(...args: ConvArgs) {
    super(convSpec(conv2dArgs.bind(args)), false, 2);
  }

  override forward(input: Tensor): Tensor {
    return F.conv2d(input, this.weight, this.bias, convArgs(this));
  }
}

type ConvTransposeArgs = BoundArgs<
  [inChannels: number, outChannels: number, kernelSize: IntOrTuple],
  [stride: IntOrTuple, padding: IntOrTuple, outputPadding: IntOrTuple, groups: number, bias: boolean, dilation: IntOrTuple, paddingMode: 'zeros', device: DeviceLike, dtype: DType | string],
  ConvTransposeOptions & { inChannels?: number; outChannels?: number; kernelSize?: IntOrTuple }
>;

function convTransposeArgs(c: ConvNd<number[]>): F.ConvTransposeOptions {
  return { stride: c.stride, padding: c.padding, outputPadding: c.outputPadding, groups: c.groups, dilation: c.dilation };
}

export class ConvTranspose1d extends ConvNd<number[]> {
  constructor(...args: ConvTransposeArgs) {
    super(convTransposeSpec(convTranspose1dArgs.bind(args)), true, 1);
  }

  override forward(input: Tensor): Tensor {
    return F.convTranspose1d(input, this.weight, this.bias, convTransposeArgs(this));
  }
}

export class ConvTranspose2d extends ConvNd<number[]> {
  constructor(
    ...args: BoundArgs<
      [inChannels: number, outChannels: number, kernelSize: IntOrTuple],
      [stride: IntOrTuple, padding: IntOrTuple, outputPadding: IntOrTuple, groups: number, bias: boolean, dilation: IntOrTuple, paddingMode: 'zeros', device: DeviceLike, dtype: DType | string],
      ConvTransposeOptions & { inChannels?: number; outChannels?: number; kernelSize?: IntOrTuple }
    >
  ) {
    super(convTransposeSpec(convTranspose2dArgs.bind(args)), true, 2);
  }

  override forward(input: Tensor): Tensor {
    return F.convTranspose2d(input, this.weight, this.bias, {
      stride: this.stride,
      padding: this.padding,
      outputPadding: this.outputPadding,
      groups: this.groups,
      dilation: this.dilation,
    });
  }
}
