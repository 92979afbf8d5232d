import type { BoundArgs } from '@torch-ts/core';
import type { Tensor } from '../internal';
import { initBinder } from '../init-args';
import { Module } from '../module';
import * as F from '../functional';
import { pyRepr } from '../repr';
import type { IntOrTuple } from './conv';
import { intOrTuple } from './pooling';

/** `_LPPoolNd`: power-average pooling (Note [Power-average pooling] in core), options kept as given. */
type LPPoolArgs = BoundArgs<
  [normType: number, kernelSize: IntOrTuple],
  [stride: IntOrTuple | null, ceilMode: boolean],
  { normType?: number; kernelSize?: IntOrTuple; stride?: IntOrTuple | null; ceilMode?: boolean | null }
>;

abstract class LPPoolNd extends Module {
  readonly normType: number;
  readonly kernelSize: IntOrTuple;
  readonly stride: IntOrTuple | null;
  readonly ceilMode: boolean;

  constructor(cls: string, [normType, kernelSize, stride, ceilMode]: [number, unknown, unknown, boolean]) {
    super();
    this.normType = normType;
    this.kernelSize = intOrTuple(cls, 'kernel_size', kernelSize);
    this.stride = stride == null ? null : intOrTuple(cls, 'stride', stride);
    this.ceilMode = ceilMode;
  }

  override extraRepr(): string {
    return `norm_type=${pyRepr(this.normType)}, kernel_size=${pyRepr(this.kernelSize)}, stride=${pyRepr(this.stride)}, ceil_mode=${pyRepr(this.ceilMode)}`;
  }
}

const lpPool1dArgs = initBinder('LPPool1d', 'float norm_type, Any kernel_size, Any? stride=None, bool ceil_mode=False');
const lpPool2dArgs = initBinder('LPPool2d', 'float norm_type, Any kernel_size, Any? stride=None, bool ceil_mode=False');

export class LPPool1d extends LPPoolNd {
  constructor(...args: LPPoolArgs) {
    super('LPPool1d', lpPool1dArgs.bind(args));
  }

  override forward(input: Tensor): Tensor {
    const k = this.kernelSize;
    return F.lpPool1d(input, this.normType, typeof k === 'number' ? k : k[0], this.stride, this.ceilMode);
  }
}

export class LPPool2d extends LPPoolNd {
  constructor(...args: LPPoolArgs) {
    super('LPPool2d', lpPool2dArgs.bind(args));
  }

  override forward(input: Tensor): Tensor {
    return F.lpPool2d(input, this.normType, this.kernelSize, this.stride, this.ceilMode);
  }
}
