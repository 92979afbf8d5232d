import type { BoundArgs } from '@torch-ts/core';
import type { Tensor } from '../internal';
import { initBinder } from '../init-args';
import * as F from '../functional';
import type { IntOrTuple } from './conv';
import { AdaptiveAvgPoolNd, AvgPoolNd, MaxPoolNd, type AdaptivePoolArgs, type AvgPoolArgs, type MaxPoolBound, type MaxPoolOptions } from './pooling';

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

export class AvgPool3d extends AvgPoolNd {
  constructor(...args: AvgPoolArgs) {
    super('AvgPool3d', avgPool3dArgs.bind(args));
  }

  override forward(input: Tensor): Tensor {
    return F.avgPool3d(input, this.kernelSize, this.poolOptions());
  }
}

export class AdaptiveAvgPool3d extends AdaptiveAvgPoolNd {
  constructor(...args: AdaptivePoolArgs) {
    super('AdaptiveAvgPool3d', adaptiveAvgPool3dArgs.bind(args));
  }

  override forward(input: Tensor): Tensor {
    return F.adaptiveAvgPool3d(input, this.outputSize);
  }
}
