import { Tensor } from '../tensor/tensor';
import * as copy from './copy';
import { index, indexAsync } from './indexing';
import * as masked from './masked';
import * as pw from './pointwise';
import { ACTIVATION_METHODS, BINARY_METHODS, TERNARY_METHODS, UNARY_METHODS } from './pointwise-table';
import { REDUCTION_METHODS } from './generated/table-methods';
import * as shape from './shape-ops';
import * as views from './views';
import { imag, real } from './complex-views';
import { FRONT_METHODS } from './generated/front-methods';
import type { FrontInfo, FrontMethod } from './front';

/**
 * Note [Tensor methods come from the op table]
 * Each method is its front-end function with `self` bound: `x.add(y)` is `add(x, y)`. The
 * table below is the only list; the Tensor type gets its method signatures from it
 * (`TensorMethods`), so a method and its function cannot drift apart.
 */
const METHODS = {
  ...BINARY_METHODS,
  ...TERNARY_METHODS,
  ...UNARY_METHODS,
  ...ACTIVATION_METHODS,
  where: (self: Tensor, condition: Tensor, other: Tensor | number | boolean | bigint): Tensor => pw.where(condition, self, other),
  ...REDUCTION_METHODS,
  slice: views.sliceDim,
  ...FRONT_METHODS,
  index,
  indexAsync,
  nonzero: masked.nonzero, nonzeroAsync: masked.nonzeroAsync,
  to: copy.to, toAsync: copy.toAsync, float: copy.float, double: copy.double, half: copy.half, bfloat16: copy.bfloat16,
  long: copy.long, int: copy.int, short: copy.short, bool: copy.bool, byte: copy.byte, char: copy.char,
};

type BindSelf<F> = F extends { readonly front: FrontInfo } ? FrontMethod<F> : F extends (self: Tensor, ...args: infer A) => infer R ? (...args: A) => R : never;

/** The Tensor methods, typed from the table (max, min and median with one signature per overload). */
export type TensorMethods = { [K in keyof typeof METHODS]: BindSelf<(typeof METHODS)[K]> } & {
  /** The last two dims swapped (`x.mT`). */
  readonly mT: Tensor;
  /** The dims reversed (`x.T`; PyTorch deprecates it for other than 2-D tensors). */
  readonly T: Tensor;
  /** The conjugate transpose of a matrix (`x.H`, 2-D or 0-D). */
  readonly H: Tensor;
  /** The conjugate transpose of the last two dims (`x.mH`). */
  readonly mH: Tensor;
  /** The real parts, a view (`x.real`; a real tensor's is itself, as an alias). */
  readonly real: Tensor;
  /** The imaginary parts of a complex tensor, a view (`x.imag`). */
  readonly imag: Tensor;
};

export function installTensorMethods(): void {
  const proto = Tensor.prototype;
  // (`...a: never`: any function of a Tensor, whatever its other parameters; called as the
  // engine calls any function, through Reflect.apply)
  const all: Record<string, (self: Tensor, ...a: never) => unknown> = METHODS;
  for (const [name, fn] of Object.entries(all)) {
    Object.defineProperty(proto, name, {
      value: function (this: Tensor, ...args: unknown[]) {
        return Reflect.apply(fn, undefined, [this, ...args]);
      },
      writable: true,
      configurable: true,
    });
  }
  for (const [name, view] of [['mT', shape.mT], ['T', shape.T], ['H', shape.H], ['mH', shape.mH], ['real', real], ['imag', imag]] as const) {
    Object.defineProperty(proto, name, {
      get(this: Tensor) {
        return view(this);
      },
      configurable: true,
    });
  }
}
