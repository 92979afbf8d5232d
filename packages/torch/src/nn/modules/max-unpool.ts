import type { BoundArgs } from '@torch-ts/core';
import type { Tensor } from '../internal';
import { initBinder } from '../init-args';
import { Module } from '../module';
import * as F from '../functional';
import { pyRepr } from '../repr';
import type { IntOrTuple } from './conv';
import { intOrTuple } from './pooling';

/** `_MaxUnpoolNd`: F.max_unpool with the layer's sizes (stride defaults to the kernel), printed as tuples. */
type UnpoolArgs = BoundArgs<[kernelSize: IntOrTuple], [stride: IntOrTuple | null, padding: IntOrTuple], { kernelSize?: IntOrTuple; stride?: IntOrTuple | null; padding?: IntOrTuple }>;

abstract class MaxUnpoolNd extends Module {
  readonly kernelSize: number[];
  readonly stride: number[];
  readonly padding: number[];

  constructor(cls: string, n: number, [kernelSize, stride, padding]: [unknown, unknown, unknown]) {
    super();
    const tuple = (name: string, v: unknown): number[] => {
      const t = intOrTuple(cls, name, v);
      return typeof t === 'number' ? Array<number>(n).fill(t) : [...t];
    };
    this.kernelSize = tuple('kernel_size', kernelSize);
    this.stride = stride == null ? this.kernelSize : tuple('stride', stride);
    this.padding = tuple('padding', padding);
  }

  protected abstract unpool(input: Tensor, indices: Tensor, outputSize: readonly number[] | null): Tensor;

  override forward(input: Tensor, indices: Tensor, outputSize: readonly number[] | null = null): Tensor {
    return this.unpool(input, indices, outputSize);
  }

  override extraRepr(): string {
    return `kernel_size=${pyRepr(this.kernelSize)}, stride=${pyRepr(this.stride)}, padding=${pyRepr(this.padding)}`;
  }
}

const SIG = 'Any kernel_size, Any? stride=None, Any padding=0';
const maxUnpool1dArgs = initBinder('MaxUnpool1d', SIG);
const maxUnpool2dArgs = initBinder('MaxUnpool2d', SIG);
const maxUnpool3dArgs = initBinder('MaxUnpool3d', SIG);

export class MaxUnpool1d extends MaxUnpoolNd {
  constructor(...args: UnpoolArgs) {
    super('MaxUnpool1d', 1, maxUnpool1dArgs.bind(args));
  }

  protected unpool(input: Tensor, indices: Tensor, outputSize: readonly number[] | null): Tensor {
    return F.maxUnpool1d(input, indices, this.kernelSize, this.stride, this.padding, outputSize);
  }
}

export class MaxUnpool2d extends MaxUnpoolNd {
  constructor(...args: UnpoolArgs) {
    super('MaxUnpool2d', 2, maxUnpool2dArgs.bind(args));
  }

  protected unpool(input: Tensor, indices: Tensor, outputSize: readonly number[] | null): Tensor {
    return F.maxUnpool2d(input, indices, this.kernelSize, this.stride, this.padding, outputSize);
  }
}

export class MaxUnpool3d extends MaxUnpoolNd {
  constructor(...args: UnpoolArgs) {
    super('MaxUnpool3d', 3, maxUnpool3dArgs.bind(args));
  }

  protected unpool(input: Tensor, indices: Tensor, outputSize: readonly number[] | null): Tensor {
    return F.maxUnpool3d(input, indices, this.kernelSize, this.stride, this.padding, outputSize);
  }
}
