import * as init from '../init';
import { Tensor, TorchError } from '../internal';
import { Module } from '../module';
import type { Parameter } from '../parameter';
import * as F from '../functional';
import { pyRepr, pyStr, type PyValue } from '../repr';
import { emptyParam, type FactoryKwargs } from './linear';

export type IntOrTuple = number | readonly number[];

export interface ConvOptions extends FactoryKwargs {
  stride?: IntOrTuple;
  padding?: IntOrTuple | 'valid' | 'same';
  dilation?: IntOrTuple;
  groups?: number;
  bias?: boolean;
  paddingMode?: 'zeros';
}

export interface ConvTransposeOptions extends FactoryKwargs {
  stride?: IntOrTuple;
  padding?: IntOrTuple;
  outputPadding?: IntOrTuple;
  groups?: number;
  bias?: boolean;
  dilation?: IntOrTuple;
  paddingMode?: 'zeros';
}

/** `_single` / `_pair`: an int repeated to `n` entries, or the tuple itself. */
export function ntuple(op: string, v: IntOrTuple, n: number): number[] {
  if (typeof v === 'number') return new Array<number>(n).fill(v);
  if (v.length !== n) throw new TorchError(`${op}: expected ${n} values, but got ${JSON.stringify(v)}`);
  return [...v];
}

const allEqual = (v: PyValue, x: number): boolean => Array.isArray(v) && v.every((e) => e === x);

/** Shared by the conv layers: `_ConvNd`. */
abstract class ConvNd extends Module {
  declare weight: Parameter;
  declare bias: Parameter | null;
  readonly kernelSize: number[];
  readonly stride: number[];
  readonly padding: number[] | 'valid' | 'same';
  readonly dilation: number[];
  readonly outputPadding: number[];
  readonly groups: number;
  readonly paddingMode: string;

  constructor(
    readonly inChannels: number,
    readonly outChannels: number,
    kernelSize: IntOrTuple,
    readonly transposed: boolean,
    n: number,
    o: Omit<ConvTransposeOptions, 'padding'> & { padding?: IntOrTuple | 'valid' | 'same' },
  ) {
    super();
    const name = this.constructor.name;
    this.groups = o.groups ?? 1;
    if (this.groups <= 0) throw new TorchError(`${name}: groups must be a positive integer`);
    if (inChannels % this.groups !== 0) throw new TorchError(`${name}: in_channels must be divisible by groups`);
    if (outChannels % this.groups !== 0) throw new TorchError(`${name}: out_channels must be divisible by groups`);
    this.kernelSize = ntuple(name, kernelSize, n);
    this.stride = ntuple(name, o.stride ?? 1, n);
    const padding = o.padding ?? 0;
    if (typeof padding === 'string') {
      if (padding !== 'valid' && padding !== 'same') throw new TorchError(`${name}: Invalid padding string '${padding}', should be one of ['valid', 'same']`);
      if (padding === 'same' && this.stride.some((s) => s !== 1)) throw new TorchError(`${name}: padding='same' is not supported for strided convolutions`);
      this.padding = padding;
    } else {
      this.padding = ntuple(name, padding, n);
    }
    this.dilation = ntuple(name, o.dilation ?? 1, n);
    this.outputPadding = ntuple(name, o.outputPadding ?? 0, n);
    this.paddingMode = o.paddingMode ?? 'zeros';
    if (this.paddingMode !== 'zeros') throw new TorchError(`${name}: padding_mode '${this.paddingMode}' is not supported yet (only 'zeros')`);
    const wShape = transposed
      ? [inChannels, outChannels / this.groups, ...this.kernelSize]
      : [outChannels, inChannels / this.groups, ...this.kernelSize];
    this.weight = emptyParam(wShape, o);
    if (o.bias ?? true) this.bias = emptyParam([outChannels], o);
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

export class Conv1d extends ConvNd {
  constructor(inChannels: number, outChannels: number, kernelSize: IntOrTuple, options: ConvOptions = {}) {
    super(inChannels, outChannels, kernelSize, false, 1, options);
  }

  override forward(input: Tensor): Tensor {
    return F.conv1d(input, this.weight, this.bias, convArgs(this));
  }
}

export class Conv2d extends ConvNd {
  constructor(inChannels: number, outChannels: number, kernelSize: IntOrTuple, options: ConvOptions = {}) {
    super(inChannels, outChannels, kernelSize, false, 2, options);
  }

  override forward(input: Tensor): Tensor {
    return F.conv2d(input, this.weight, this.bias, convArgs(this));
  }
}

export class ConvTranspose2d extends ConvNd {
  constructor(inChannels: number, outChannels: number, kernelSize: IntOrTuple, options: ConvTransposeOptions = {}) {
    super(inChannels, outChannels, kernelSize, true, 2, options);
  }

  override forward(input: Tensor): Tensor {
    return F.convTranspose2d(input, this.weight, this.bias, {
      stride: this.stride,
      padding: this.padding as number[], // never a string for transposed convs
      outputPadding: this.outputPadding,
      groups: this.groups,
      dilation: this.dilation,
    });
  }
}
