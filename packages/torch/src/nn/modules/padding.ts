import type { BoundArgs } from '@torch-ts/core';
import type { Tensor } from '../internal';
import { TorchError } from '../internal';
import { initBinder } from '../init-args';
import { Module } from '../module';
import * as F from '../functional';
import { pyRepr } from '../repr';
import type { IntOrTuple } from './conv';
import { intOrTuple } from './pooling';

/**
 * The padding layers: F.pad with a fixed padding and mode. An int pads every side of the
 * last `n` dimensions by itself; a tuple gives (left, right, top, bottom, front, back) and
 * must have 2n entries. Constant pads print `padding=..., value=...`, the others their
 * padding tuple alone, as PyTorch's. CircularPad1d/2d/3d and ZeroPad1d/3d are PyTorch 2's.
 */
type PadMode = 'constant' | 'reflect' | 'replicate' | 'circular';

function expandPadding(cls: string, v: unknown, n: number): number[] {
  const p = intOrTuple(cls, 'padding', v);
  if (typeof p === 'number') return Array<number>(2 * n).fill(p);
  if (p.length !== 2 * n) throw new TorchError(`${cls}: padding must be an int or a tuple of ${2 * n} ints, got ${pyRepr(p)}`);
  return [...p];
}

abstract class PadNd extends Module {
  readonly padding: number[];

  constructor(
    cls: string,
    padding: unknown,
    n: number,
    readonly mode: PadMode,
    readonly value: number,
  ) {
    super();
    this.padding = expandPadding(cls, padding, n);
  }

  override forward(input: Tensor): Tensor {
    return this.mode === 'constant' ? F.pad(input, this.padding, 'constant', this.value) : F.pad(input, this.padding, this.mode);
  }

  override extraRepr(): string {
    return pyRepr(this.padding);
  }
}

type PadArgs = BoundArgs<[padding: IntOrTuple], [], { padding?: IntOrTuple }>;
type ConstantPadArgs = BoundArgs<[padding: IntOrTuple, value: number], [], { padding?: IntOrTuple; value?: number }>;

const binders = new Map<string, { bind(args: readonly unknown[]): unknown[] }>();
/** The layer's arguments bound by its signature (one binder per class, made once). */
function bindPad(cls: string, args: readonly unknown[], constant: boolean): [unknown, number] {
  let b = binders.get(cls);
  if (b === undefined) binders.set(cls, (b = initBinder(cls, constant ? 'Any padding, float value' : 'Any padding') as { bind(args: readonly unknown[]): unknown[] }));
  const [padding, value] = b.bind(args);
  return [padding, (value as number | undefined) ?? 0];
}

abstract class ConstantPadNd extends PadNd {
  constructor(cls: string, n: number, args: readonly unknown[]) {
    const [padding, value] = bindPad(cls, args, true);
    super(cls, padding, n, 'constant', value);
  }

  override extraRepr(): string {
    return `padding=${pyRepr(this.padding)}, value=${pyRepr(this.value)}`;
  }
}

export class ReflectionPad1d extends PadNd {
  constructor(...args: PadArgs) {
    super('ReflectionPad1d', bindPad('ReflectionPad1d', args, false)[0], 1, 'reflect', 0);
  }
}
export class ReflectionPad2d extends PadNd {
  constructor(...args: PadArgs) {
    super('ReflectionPad2d', bindPad('ReflectionPad2d', args, false)[0], 2, 'reflect', 0);
  }
}
export class ReflectionPad3d extends PadNd {
  constructor(...args: PadArgs) {
    super('ReflectionPad3d', bindPad('ReflectionPad3d', args, false)[0], 3, 'reflect', 0);
  }
}
export class ReplicationPad1d extends PadNd {
  constructor(...args: PadArgs) {
    super('ReplicationPad1d', bindPad('ReplicationPad1d', args, false)[0], 1, 'replicate', 0);
  }
}
export class ReplicationPad2d extends PadNd {
  constructor(...args: PadArgs) {
    super('ReplicationPad2d', bindPad('ReplicationPad2d', args, false)[0], 2, 'replicate', 0);
  }
}
export class ReplicationPad3d extends PadNd {
  constructor(...args: PadArgs) {
    super('ReplicationPad3d', bindPad('ReplicationPad3d', args, false)[0], 3, 'replicate', 0);
  }
}
export class ZeroPad1d extends PadNd {
  constructor(...args: PadArgs) {
    super('ZeroPad1d', bindPad('ZeroPad1d', args, false)[0], 1, 'constant', 0);
  }
}
export class ZeroPad2d extends PadNd {
  constructor(...args: PadArgs) {
    super('ZeroPad2d', bindPad('ZeroPad2d', args, false)[0], 2, 'constant', 0);
  }
}
export class ZeroPad3d extends PadNd {
  constructor(...args: PadArgs) {
    super('ZeroPad3d', bindPad('ZeroPad3d', args, false)[0], 3, 'constant', 0);
  }
}
export class ConstantPad1d extends ConstantPadNd {
  constructor(...args: ConstantPadArgs) {
    super('ConstantPad1d', 1, args);
  }
}
export class ConstantPad2d extends ConstantPadNd {
  constructor(...args: ConstantPadArgs) {
    super('ConstantPad2d', 2, args);
  }
}
export class ConstantPad3d extends ConstantPadNd {
  constructor(...args: ConstantPadArgs) {
    super('ConstantPad3d', 3, args);
  }
}
export class CircularPad1d extends PadNd {
  constructor(...args: PadArgs) {
    super('CircularPad1d', bindPad('CircularPad1d', args, false)[0], 1, 'circular', 0);
  }
}
export class CircularPad2d extends PadNd {
  constructor(...args: PadArgs) {
    super('CircularPad2d', bindPad('CircularPad2d', args, false)[0], 2, 'circular', 0);
  }
}
export class CircularPad3d extends PadNd {
  constructor(...args: PadArgs) {
    super('CircularPad3d', bindPad('CircularPad3d', args, false)[0], 3, 'circular', 0);
  }
}
