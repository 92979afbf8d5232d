import { Tensor } from '../internal';
import { Module } from '../module';
import * as F from '../functional';
import { pyRepr } from '../repr';
import type { IntOrTuple } from './conv';

export interface MaxPoolOptions {
  stride?: IntOrTuple | null;
  padding?: IntOrTuple;
  dilation?: IntOrTuple;
  returnIndices?: boolean;
  ceilMode?: boolean;
}

export class MaxPool2d extends Module {
  readonly kernelSize: IntOrTuple;
  readonly stride: IntOrTuple;
  readonly padding: IntOrTuple;
  readonly dilation: IntOrTuple;
  readonly returnIndices: boolean;
  readonly ceilMode: boolean;

  constructor(kernelSize: IntOrTuple, options: MaxPoolOptions = {}) {
    super();
    this.kernelSize = kernelSize;
    this.stride = options.stride ?? kernelSize;
    this.padding = options.padding ?? 0;
    this.dilation = options.dilation ?? 1;
    this.returnIndices = options.returnIndices ?? false;
    this.ceilMode = options.ceilMode ?? false;
  }

  override forward(input: Tensor): Tensor {
    // (with returnIndices, the [values, indices] pair, as PyTorch's module returns)
    return F.maxPool2d(input, this.kernelSize, {
      stride: this.stride,
      padding: this.padding,
      dilation: this.dilation,
      ceilMode: this.ceilMode,
      returnIndices: this.returnIndices,
    }) as Tensor;
  }

  override extraRepr(): string {
    return `kernel_size=${pyRepr(this.kernelSize)}, stride=${pyRepr(this.stride)}, padding=${pyRepr(this.padding)}, dilation=${pyRepr(this.dilation)}, ceil_mode=${pyRepr(this.ceilMode)}`;
  }
}

export interface AvgPoolOptions {
  stride?: IntOrTuple | null;
  padding?: IntOrTuple;
  ceilMode?: boolean;
  countIncludePad?: boolean;
  divisorOverride?: number | null;
}

export class AvgPool2d extends Module {
  readonly kernelSize: IntOrTuple;
  readonly stride: IntOrTuple;
  readonly padding: IntOrTuple;
  readonly ceilMode: boolean;
  readonly countIncludePad: boolean;
  readonly divisorOverride: number | null;

  constructor(kernelSize: IntOrTuple, options: AvgPoolOptions = {}) {
    super();
    this.kernelSize = kernelSize;
    this.stride = options.stride ?? kernelSize;
    this.padding = options.padding ?? 0;
    this.ceilMode = options.ceilMode ?? false;
    this.countIncludePad = options.countIncludePad ?? true;
    this.divisorOverride = options.divisorOverride ?? null;
  }

  override forward(input: Tensor): Tensor {
    return F.avgPool2d(input, this.kernelSize, {
      stride: this.stride,
      padding: this.padding,
      ceilMode: this.ceilMode,
      countIncludePad: this.countIncludePad,
      divisorOverride: this.divisorOverride,
    });
  }

  override extraRepr(): string {
    return `kernel_size=${pyRepr(this.kernelSize)}, stride=${pyRepr(this.stride)}, padding=${pyRepr(this.padding)}`;
  }
}

export class AdaptiveAvgPool2d extends Module {
  constructor(readonly outputSize: number | readonly (number | null)[]) {
    super();
  }

  override forward(input: Tensor): Tensor {
    return F.adaptiveAvgPool2d(input, this.outputSize);
  }

  override extraRepr(): string {
    return `output_size=${pyRepr(this.outputSize)}`;
  }
}
