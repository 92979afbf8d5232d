import { TorchTypeError, typeName, type BoundArgs } from '@torch-ts/core';
import { Tensor } from '../internal';
import { initBinder } from '../init-args';
import { Module } from '../module';
import * as F from '../functional';
import { pyRepr } from '../repr';
import type { IntOrTuple } from './conv';

// (sizes as `Any`: the layers keep an int as given, for their repr, as PyTorch's do)
const unfoldArgs = initBinder('Unfold', 'Any kernel_size, Any dilation=1, Any padding=0, Any stride=1');
const foldArgs = initBinder('Fold', 'Any output_size, Any kernel_size, Any dilation=1, Any padding=0, Any stride=1');

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);

function intOrTuple(cls: string, name: string, v: unknown): IntOrTuple {
  if (isInt(v)) return v;
  if (Array.isArray(v) && v.every(isInt)) return [...v];
  throw new TorchTypeError(`${cls}.__init__(): argument '${name}' must be int or tuple of ints, not ${typeName(v)}`);
}

interface FoldSizes {
  dilation?: IntOrTuple | null;
  padding?: IntOrTuple | null;
  stride?: IntOrTuple | null;
}

/** nn.Unfold(kernel_size, dilation=1, padding=0, stride=1): F.unfold, sliding blocks as columns. */
export class Unfold extends Module {
  readonly kernelSize: IntOrTuple;
  readonly dilation: IntOrTuple;
  readonly padding: IntOrTuple;
  readonly stride: IntOrTuple;

  constructor(...args: BoundArgs<[kernelSize: IntOrTuple], [dilation: IntOrTuple, padding: IntOrTuple, stride: IntOrTuple], FoldSizes & { kernelSize?: IntOrTuple }>) {
    super();
    const [kernelSize, dilation, padding, stride] = unfoldArgs.bind(args);
    this.kernelSize = intOrTuple('Unfold', 'kernelSize', kernelSize);
    this.dilation = intOrTuple('Unfold', 'dilation', dilation);
    this.padding = intOrTuple('Unfold', 'padding', padding);
    this.stride = intOrTuple('Unfold', 'stride', stride);
  }

  override forward(input: Tensor): Tensor {
    return F.unfold(input, this.kernelSize, this.dilation, this.padding, this.stride);
  }

  override extraRepr(): string {
    return `kernel_size=${pyRepr(this.kernelSize)}, dilation=${pyRepr(this.dilation)}, padding=${pyRepr(this.padding)}, stride=${pyRepr(this.stride)}`;
  }
}

/** nn.Fold(output_size, kernel_size, dilation=1, padding=0, stride=1): F.fold, columns summed back into an image. */
export class Fold extends Module {
  readonly outputSize: IntOrTuple;
  readonly kernelSize: IntOrTuple;
  readonly dilation: IntOrTuple;
  readonly padding: IntOrTuple;
  readonly stride: IntOrTuple;

  constructor(
    ...args: BoundArgs<
      [outputSize: IntOrTuple, kernelSize: IntOrTuple],
      [dilation: IntOrTuple, padding: IntOrTuple, stride: IntOrTuple],
      FoldSizes & { outputSize?: IntOrTuple; kernelSize?: IntOrTuple }
    >
  ) {
    super();
    const [outputSize, kernelSize, dilation, padding, stride] = foldArgs.bind(args);
    this.outputSize = intOrTuple('Fold', 'outputSize', outputSize);
    this.kernelSize = intOrTuple('Fold', 'kernelSize', kernelSize);
    this.dilation = intOrTuple('Fold', 'dilation', dilation);
    this.padding = intOrTuple('Fold', 'padding', padding);
    this.stride = intOrTuple('Fold', 'stride', stride);
  }

  override forward(input: Tensor): Tensor {
    return F.fold(input, this.outputSize, this.kernelSize, this.dilation, this.padding, this.stride);
  }

  override extraRepr(): string {
    return `output_size=${pyRepr(this.outputSize)}, kernel_size=${pyRepr(this.kernelSize)}, dilation=${pyRepr(this.dilation)}, padding=${pyRepr(this.padding)}, stride=${pyRepr(this.stride)}`;
  }
}
