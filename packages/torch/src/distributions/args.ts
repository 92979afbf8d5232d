import { makeBinder, type BoundArgs } from '@torch-ts/core';

/**
 * A distribution constructor's binder (Note [Module constructors bind their arguments] in
 * nn): PyTorch's `__init__` signature, so that a misspelled keyword or a wrong type is
 * refused as Python refuses it.
 */
export function distributionBinder<const P extends string>(cls: string, params: P) {
  return makeBinder(`${cls}.__init__`, `${cls}(${params}) -> ()`, { countSelf: true });
}

/** The options object every distribution takes last. */
export interface ValidateOptions {
  validateArgs?: boolean | null;
}

/** A distribution's JS constructor parameters: the required ones, then PyTorch's optional ones positionally or by keyword. */
export type DistArgs<P extends unknown[], Q extends unknown[], O> = BoundArgs<P, Q, O>;
