import type { BoundArgs } from '@torch-ts/core';
import type { Tensor } from '../internal';
import { initBinder } from '../init-args';
import { Module } from '../module';
import * as F from '../functional';
import { pyRepr } from '../repr';
import { intOrTuple } from './pooling';

/** AdaptiveMaxPool1d, AdaptiveMaxPool2d and AdaptiveMaxPool3d (PyTorch's `_AdaptiveMaxPoolNd`). */

type OutputSize = number | readonly (number | null)[];

const binders = {
  1: initBinder('AdaptiveMaxPool1d', 'Any output_size, bool return_indices=False'),
  2: initBinder('AdaptiveMaxPool2d', 'Any output_size, bool return_indices=False'),
  3: initBinder('AdaptiveMaxPool3d', 'Any output_size, bool return_indices=False'),
};

type AdaptiveMaxArgs = BoundArgs<[outputSize: OutputSize], [returnIndices: boolean], { outputSize?: OutputSize; returnIndices?: boolean }>;

abstract class AdaptiveMaxPoolNd extends Module {
  readonly outputSize: OutputSize;
  readonly returnIndices: boolean;

  protected constructor(n: 1 | 2 | 3, args: AdaptiveMaxArgs) {
    super();
    const cls = `AdaptiveMaxPool${n}d`;
    const [outputSize, returnIndices] = binders[n].bind(args);
    this.outputSize = intOrTuple(cls, 'outputSize', outputSize, true);
    this.returnIndices = returnIndices;
  }

  override extraRepr(): string {
    return `output_size=${pyRepr(this.outputSize)}`;
  }
}

export class AdaptiveMaxPool1d extends AdaptiveMaxPoolNd {
  constructor(...args: AdaptiveMaxArgs) {
    super(1, args);
  }

  override forward(input: Tensor): Tensor {
    // (with returnIndices, the [values, indices] pair, as PyTorch's module gives)
    return F.adaptiveMaxPool1d(input, this.outputSize, { returnIndices: this.returnIndices }) as Tensor;
  }
}

export class AdaptiveMaxPool2d extends AdaptiveMaxPoolNd {
  constructor(...args: AdaptiveMaxArgs) {
    super(2, args);
  }

  override forward(input: Tensor): Tensor {
    return F.adaptiveMaxPool2d(input, this.outputSize, { returnIndices: this.returnIndices }) as Tensor;
  }
}

export class AdaptiveMaxPool3d extends AdaptiveMaxPoolNd {
  constructor(...args: AdaptiveMaxArgs) {
    super(3, args);
  }

  override forward(input: Tensor): Tensor {
    return F.adaptiveMaxPool3d(input, this.outputSize, { returnIndices: this.returnIndices }) as Tensor;
  }
}
