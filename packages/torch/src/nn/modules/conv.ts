import * as init from '../init';
import { TorchTypeError, typeName, type BoundArgs, type DType, type DeviceLike } from '@torch-ts/core';
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
  paddingMode?: PaddingMode | null;
}

/** A conv layer's `padding_mode`: zeros (the convolution's own padding) or an F.pad mode applied first. */
export type PaddingMode = 'zeros' | 'reflect' | 'replicate' | 'circular';
const PADDING_MODES: readonly string[] = ['zeros', 'reflect', 'replicate', 'circular'];

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
const conv3dArgs = initBinder('Conv3d', convParams(3));
const convTransposeParams = <N extends number>(n: N) =>
  `int in_channels, int out_channels, int[${n}] kernel_size, int[${n}] stride=1, int[${n}] padding=0, int[${n}] output_padding=0, int groups=1, bool bias=True, int[${n}] dilation=1, str padding_mode='zeros', ${FACTORY_PARAMS}` as const;
const convTranspose1dArgs = initBinder('ConvTranspose1d', convTransposeParams(1));
const convTranspose2dArgs = initBinder('ConvTranspose2d', convTransposeParams(2));
const convTranspose3dArgs = initBinder('ConvTranspose3d', convTransposeParams(3));

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
    if (!PADDING_MODES.includes(this.paddingMode)) {
      throw new TorchError(`${name}: padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], but got padding_mode='${this.paddingMode}'`);
    }
    if (transposed && this.paddingMode !== 'zeros') throw new TorchError(`${name}: Only "zeros" padding mode is supported for ${name}`);
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

/**
 * PyTorch's `_conv_forward`: in padding mode zeros the convolution pads; in the others the
 * input is padded first by F.pad in that mode (`_reversed_padding_repeated_twice`: per dim from
 * the last, 'same' splitting d * (k - 1) with the larger half after) and convolved unpadded.
 */
function convForward(c: ConvNd, input: Tensor, conv: (x: Tensor, o: Record<string, unknown>) => Tensor): Tensor {
  const o = { stride: c.stride, padding: c.padding, dilation: c.dilation, groups: c.groups };
  if (c.paddingMode === 'zeros') return conv(input, o);
  const pads: number[] = [];
  for (let i = c.kernelSize.length - 1; i >= 0; i--) {
    if (c.padding === 'valid') pads.push(0, 0);
    else if (c.padding === 'same') {
      const total = c.dilation[i] * (c.kernelSize[i] - 1);
      const left = Math.floor(total / 2);
      pads.push(left, total - left);
    } else pads.push(c.padding[i], c.padding[i]);
  }
  const padded = F.pad(input, pads, { mode: c.paddingMode as 'reflect' | 'replicate' | 'circular' });
  try {
    return conv(padded, { ...o, padding: 0 });
  } finally {
    padded.dispose();
  }
}

type ConvArgs = BoundArgs<
  [inChannels: number, outChannels: number, kernelSize: IntOrTuple],
  [stride: IntOrTuple, padding: IntOrTuple | 'valid' | 'same', dilation: IntOrTuple, groups: number, bias: boolean, paddingMode: PaddingMode, device: DeviceLike, dtype: DType | string],
  ConvOptions & { inChannels?: number; outChannels?: number; kernelSize?: IntOrTuple }
>;

export class Conv1d extends ConvNd {
  constructor(...args: ConvArgs) {
    super(convSpec(conv1dArgs.bind(args)), false, 1);
  }

  override forward(input: Tensor): Tensor {
    return convForward(this, input, (x, o) => F.conv1d(x, this.weight, this.bias, o));
  }
}

export class Conv2d extends ConvNd {
  constructor(...args: ConvArgs) {
    super(convSpec(conv2dArgs.bind(args)), false, 2);
  }

  override forward(input: Tensor): Tensor {
    return convForward(this, input, (x, o) => F.conv2d(x, this.weight, this.bias, o));
  }
}

export class Conv3d extends ConvNd {
  constructor(...args: ConvArgs) {
    super(convSpec(conv3dArgs.bind(args)), false, 3);
  }

  override forward(input: Tensor): Tensor {
    return convForward(this, input, (x, o) => F.conv3d(x, this.weight, this.bias, o));
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

export class ConvTranspose3d extends ConvNd<number[]> {
  constructor(...args: ConvTransposeArgs) {
    super(convTransposeSpec(convTranspose3dArgs.bind(args)), true, 3);
  }

  override forward(input: Tensor): Tensor {
    return F.convTranspose3d(input, this.weight, this.bias, convTransposeArgs(this));
  }
}
