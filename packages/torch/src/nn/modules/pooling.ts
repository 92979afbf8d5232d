import { TorchTypeError, typeName, type BoundArgs } from '@torch-ts/core';
import { Tensor } from '../internal';
import { initBinder } from '../init-args';
import { Module } from '../module';
import * as F from '../functional';
import { pyRepr } from '../repr';
import type { IntOrTuple } from './conv';

export interface MaxPoolOptions {
  stride?: IntOrTuple | null;
  padding?: IntOrTuple | null;
  dilation?: IntOrTuple | null;
  returnIndices?: boolean | null;
  ceilMode?: boolean | null;
}

// (sizes as `Any`, checked by intOrTuple: the layers keep an int as given, for their repr)
const maxPool2dArgs = initBinder('MaxPool2d', 'Any kernel_size, Any? stride=None, Any padding=0, Any dilation=1, bool return_indices=False, bool ceil_mode=False');
/** A max pool layer's bound `__init__` arguments. */
export type MaxPoolBound = ReturnType<typeof maxPool2dArgs.bind>;
const avgPool2dArgs = initBinder('AvgPool2d', 'Any kernel_size, Any? stride=None, Any padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None');
const adaptiveAvgPool2dArgs = initBinder('AdaptiveAvgPool2d', 'Any output_size');

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);
const isIntOrNone = (x: unknown): x is number | null => x === null || isInt(x);

/** An int or a tuple of ints, as the pooling layers take their sizes (with `optionalEntries`, None entries too: an adaptive pool's output size). */
export function intOrTuple(cls: string, name: string, v: unknown): IntOrTuple;
export function intOrTuple(cls: string, name: string, v: unknown, optionalEntries: true): number | readonly (number | null)[];
export function intOrTuple(cls: string, name: string, v: unknown, optionalEntries = false): number | readonly (number | null)[] {
  if (isInt(v)) return v;
  if (Array.isArray(v) && v.every(isInt)) return [...v];
  if (optionalEntries && Array.isArray(v) && v.every(isIntOrNone)) return [...v];
  throw new TorchTypeError(`${cls}.__init__(): argument '${name}' must be int or tuple of ints, not ${typeName(v)}`);
}

/** PyTorch's `_MaxPoolNd`: the options of MaxPool1d and MaxPool2d, kept as given and printed alike. */
export abstract class MaxPoolNd extends Module {
  readonly kernelSize: IntOrTuple;
  readonly stride: IntOrTuple;
  readonly padding: IntOrTuple;
  readonly dilation: IntOrTuple;
  readonly returnIndices: boolean;
  readonly ceilMode: boolean;

  protected constructor(cls: string, bound: MaxPoolBound) {
    super();
    const [kernelSize, stride, padding, dilation, returnIndices, ceilMode] = bound;
    this.kernelSize = intOrTuple(cls, 'kernelSize', kernelSize);
    this.stride = stride == null ? this.kernelSize : intOrTuple(cls, 'stride', stride);
    this.padding = intOrTuple(cls, 'padding', padding);
    this.dilation = intOrTuple(cls, 'dilation', dilation);
    this.returnIndices = returnIndices;
    this.ceilMode = ceilMode;
  }

  /** The functional's options (with returnIndices, it gives the [values, indices] pair, as PyTorch's module does). */
  protected poolOptions(): { stride: IntOrTuple; padding: IntOrTuple; dilation: IntOrTuple; ceilMode: boolean; returnIndices: boolean } {
    return { stride: this.stride, padding: this.padding, dilation: this.dilation, ceilMode: this.ceilMode, returnIndices: this.returnIndices };
  }

  override extraRepr(): string {
    return `kernel_size=${pyRepr(this.kernelSize)}, stride=${pyRepr(this.stride)}, padding=${pyRepr(this.padding)}, dilation=${pyRepr(this.dilation)}, ceil_mode=${pyRepr(this.ceilMode)}`;
  }
}

export class MaxPool2d extends MaxPoolNd {
  constructor(
    ...args: BoundArgs<
      [kernelSize: IntOrTuple],
      [stride: IntOrTuple, padding: IntOrTuple, dilation: IntOrTuple, returnIndices: boolean, ceilMode: boolean],
      MaxPoolOptions & { kernelSize?: IntOrTuple }
    >
  ) {
    super('MaxPool2d', maxPool2dArgs.bind(args));
  }

  override forward(input: Tensor): Tensor {
    // (a run-time flag decides the pair, so forward's type says the usual case)
    return F.maxPool2d(input, this.kernelSize, this.poolOptions()) as Tensor;
  }
}

export interface AvgPoolOptions {
  stride?: IntOrTuple | null;
  padding?: IntOrTuple | null;
  ceilMode?: boolean | null;
  countIncludePad?: boolean | null;
  divisorOverride?: number | null;
}

export type AvgPoolBound = ReturnType<typeof avgPool2dArgs.bind>;

/** AvgPool2d and AvgPool3d: the options kept as given, the functional's options, the repr (PyTorch's _AvgPoolNd). */
export abstract class AvgPoolNd extends Module {
  readonly kernelSize: IntOrTuple;
  readonly stride: IntOrTuple;
  readonly padding: IntOrTuple;
  readonly ceilMode: boolean;
  readonly countIncludePad: boolean;
  readonly divisorOverride: number | null;

  protected constructor(cls: string, bound: AvgPoolBound) {
    super();
    const [kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride] = bound;
    this.kernelSize = intOrTuple(cls, 'kernelSize', kernelSize);
    this.stride = stride == null ? this.kernelSize : intOrTuple(cls, 'stride', stride);
    this.padding = intOrTuple(cls, 'padding', padding);
    this.ceilMode = ceilMode;
    this.countIncludePad = countIncludePad;
    this.divisorOverride = divisorOverride ?? null;
  }

  protected poolOptions(): { stride: IntOrTuple; padding: IntOrTuple; ceilMode: boolean; countIncludePad: boolean; divisorOverride: number | null } {
    return { stride: this.stride, padding: this.padding, ceilMode: this.ceilMode, countIncludePad: this.countIncludePad, divisorOverride: this.divisorOverride };
  }

  override extraRepr(): string {
    return `kernel_size=${pyRepr(this.kernelSize)}, stride=${pyRepr(this.stride)}, padding=${pyRepr(this.padding)}`;
  }
}

export type AvgPoolArgs = BoundArgs<
  [kernelSize: IntOrTuple],
  [stride: IntOrTuple, padding: IntOrTuple, ceilMode: boolean, countIncludePad: boolean, divisorOverride: number],
  AvgPoolOptions & { kernelSize?: IntOrTuple }
>;

export class AvgPool2d extends AvgPoolNd {
  constructor(...args: AvgPoolArgs) {
    super('AvgPool2d', avgPool2dArgs.bind(args));
  }

  override forward(input: Tensor): Tensor {
    return F.avgPool2d(input, this.kernelSize, this.poolOptions());
  }
}

export type AdaptiveOutputSize = number | readonly (number | null)[];
export type AdaptivePoolArgs = BoundArgs<[outputSize: AdaptiveOutputSize], [], { outputSize?: AdaptiveOutputSize }>;

/** AdaptiveAvgPool2d and AdaptiveAvgPool3d: the output size as given, the repr. */
export abstract class AdaptiveAvgPoolNd extends Module {
  readonly outputSize: AdaptiveOutputSize;

  protected constructor(cls: string, [outputSize]: readonly [unknown]) {
    super();
    this.outputSize = intOrTuple(cls, 'outputSize', outputSize, true);
  }

  override extraRepr(): string {
    return `output_size=${pyRepr(this.outputSize)}`;
  }
}

export class AdaptiveAvgPool2d extends AdaptiveAvgPoolNd {
  constructor(...args: AdaptivePoolArgs) {
    super('AdaptiveAvgPool2d', adaptiveAvgPool2dArgs.bind(args));
  }

  override forward(input: Tensor): Tensor {
    return F.adaptiveAvgPool2d(input, this.outputSize);
  }
}

const maxPool1dArgs = initBinder('MaxPool1d', 'Any kernel_size, Any? stride=None, Any padding=0, Any dilation=1, bool return_indices=False, bool ceil_mode=False');
const avgPool1dArgs = initBinder('AvgPool1d', 'Any kernel_size, Any? stride=None, Any padding=0, bool ceil_mode=False, bool count_include_pad=True');
const adaptiveAvgPool1dArgs = initBinder('AdaptiveAvgPool1d', 'Any output_size');

/** `_single`: an int as a 1-tuple, a tuple as itself (AvgPool1d keeps its sizes so, and prints them so). */
const single = (v: IntOrTuple): number[] => (typeof v === 'number' ? [v] : [...v]);

export class MaxPool1d extends MaxPoolNd {
  constructor(
    ...args: BoundArgs<
      [kernelSize: IntOrTuple],
      [stride: IntOrTuple, padding: IntOrTuple, dilation: IntOrTuple, returnIndices: boolean, ceilMode: boolean],
      MaxPoolOptions & { kernelSize?: IntOrTuple }
    >
  ) {
    super('MaxPool1d', maxPool1dArgs.bind(args));
  }

  override forward(input: Tensor): Tensor {
    return F.maxPool1d(input, this.kernelSize, this.poolOptions()) as Tensor;
  }
}

export class AvgPool1d extends Module {
  readonly kernelSize: number[];
  readonly stride: number[];
  readonly padding: number[];
  readonly ceilMode: boolean;
  readonly countIncludePad: boolean;

  constructor(
    ...args: BoundArgs<
      [kernelSize: IntOrTuple],
      [stride: IntOrTuple, padding: IntOrTuple, ceilMode: boolean, countIncludePad: boolean],
      Omit<AvgPoolOptions, 'divisorOverride'> & { kernelSize?: IntOrTuple }
    >
  ) {
    super();
    const [kernelSize, stride, padding, ceilMode, countIncludePad] = avgPool1dArgs.bind(args);
    this.kernelSize = single(intOrTuple('AvgPool1d', 'kernelSize', kernelSize));
    this.stride = stride == null ? this.kernelSize : single(intOrTuple('AvgPool1d', 'stride', stride));
    this.padding = single(intOrTuple('AvgPool1d', 'padding', padding));
    this.ceilMode = ceilMode;
    this.countIncludePad = countIncludePad;
  }

  override forward(input: Tensor): Tensor {
    return F.avgPool1d(input, this.kernelSize, { stride: this.stride, padding: this.padding, ceilMode: this.ceilMode, countIncludePad: this.countIncludePad });
  }

  override extraRepr(): string {
    return `kernel_size=${pyRepr(this.kernelSize)}, stride=${pyRepr(this.stride)}, padding=${pyRepr(this.padding)}`;
  }
}

export class AdaptiveAvgPool1d extends Module {
  readonly outputSize: IntOrTuple;

  constructor(...args: BoundArgs<[outputSize: IntOrTuple], [], { outputSize?: IntOrTuple }>) {
    super();
    const [outputSize] = adaptiveAvgPool1dArgs.bind(args);
    this.outputSize = intOrTuple('AdaptiveAvgPool1d', 'outputSize', outputSize);
  }

  override forward(input: Tensor): Tensor {
    return F.adaptiveAvgPool1d(input, this.outputSize);
  }

  override extraRepr(): string {
    return `output_size=${pyRepr(this.outputSize)}`;
  }
}
