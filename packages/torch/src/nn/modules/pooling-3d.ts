import type { BoundArgs } from '@torch-ts/core';
import type { Tensor } from '../internal';
import { initBinder } from '../init-args';
import { Module } from '../module';
import * as F from '../functional';
import { pyRepr } from '../repr';
import type { IntOrTuple } from './conv';
import { MaxPoolNd, intOrTuple, type AvgPoolOptions, type MaxPoolBound, type MaxPoolOptions } from './pooling';

/** MaxPool3d, AvgPool3d and AdaptiveAvgPool3d: the 2-d layers' options over three dims. */

const maxPool3dArgs = initBinder('MaxPool3d', 'Any kernel_size, Any? stride=None, Any padding=0, Any dilation=1, bool return_indices=False, bool ceil_mode=False');
const avgPool3dArgs = initBinder('AvgPool3d', 'Any kernel_size, Any? stride=None, Any padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None');
const adaptiveAvgPool3dArgs = initBinder('AdaptiveAvgPool3d', 'Any output_size');

export class MaxPool3d extends MaxPoolNd {
  constructor(
    ...args: BoundArgs<
      [kernelSize: IntOrTuple],
      [stride: IntOrTuple, padding: IntOrTuple, dilation: IntOrTuple, returnIndices: boolean, ceilMode: boolean],
      MaxPoolOptions & { kernelSize?: IntOrTuple }
    >
  ) {
    super('MaxPool3d', maxPool3dArgs.bind(args) as MaxPoolBound);
  }

  override forward(input: Tensor): Tensor {
    // (a run-time flag decides the pair, so forward's type says the usual case)
    return F.maxPool3d(input, this.kernelSize, this.poolOptions()) as Tensor;
  }
}

export class AvgPool3d extends Module {
  readonly kernelSize: IntOrTuple;
  readonly stride: IntOrTuple;
  readonly padding: IntOrTuple;
  readonly ceilMode: boolean;
  readonly countIncludePad: boolean;
  readonly divisorOverride: number | null;

  constructor(
    ...args: BoundArgs<
      [kernelSize: IntOrTuple],
      [stride: IntOrTuple, padding: IntOrTuple, ceilMode: boolean, countIncludePad: boolean, divisorOverride: number],
      AvgPoolOptions & { kernelSize?: IntOrTuple }
    >
  ) {
    super();
    const [kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride] = avgPool3dArgs.bind(args);
    this.kernelSize = intOrTuple('AvgPool3d', 'kernelSize', kernelSize);
    this.stride = stride == null ? this.kernelSize : intOrTuple('AvgPool3d', 'stride', stride);
    this.padding = intOrTuple('AvgPool3d', 'padding', padding);
    this.ceilMode = ceilMode;
    this.countIncludePad = countIncludePad;
    this.divisorOverride = divisorOverride ?? null;
  }

  override forward(input: Tensor): Tensor {
    return F.avgPool3d(input, this.kernelSize, {
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

export class AdaptiveAvgPool3d extends Module {
  readonly outputSize: number | readonly (number | null)[];

  constructor(...args: BoundArgs<[outputSize: number | readonly (number | null)[]], [], { outputSize?: number | readonly (number | null)[] }>) {
    super();
    const [outputSize] = adaptiveAvgPool3dArgs.bind(args);
    this.outputSize = intOrTuple('AdaptiveAvgPool3d', 'outputSize', outputSize, true);
  }

  override forward(input: Tensor): Tensor {
    return F.adaptiveAvgPool3d(input, this.outputSize);
  }

  override extraRepr(): string {
    return `output_size=${pyRepr(this.outputSize)}`;
  }
}
