import { registerOperator, type BoxedKernel, type OperatorHandle } from '../dispatch/dispatcher';
import type { SchemaValues, ValueRepr } from '../dispatch/schema-types';
import type { DType } from '../dtype';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { tidy } from '../tensor/scope';
import { CHECK_KERNEL_ARGS, checkKernelArgs } from './kernel-args';

/** What a composite's `fn` receives: Tensor handles lent for the call (Note [Schema types]). */
export interface CompositeRepr extends ValueRepr {
  readonly tensor: Tensor;
  readonly self: Tensor;
  readonly none: null | undefined;
  readonly dtype: DType;
}

export type CompositeArgs<S extends string> = SchemaValues<S, CompositeRepr>;

/**
 * Declares an operator whose every kernel is `fn` (CompositeImplicitAutograd, `composite`
 * below), with its arguments typed by the schema.
 */
export function defineComposite<const S extends string>(schema: S, fn: (args: CompositeArgs<S>) => Tensor | Tensor[], tags?: readonly string[]): OperatorHandle<S> {
  // (the boxed arguments are the schema's tuple, as for structured kernels: registry.ts `unboxed`)
  const untyped = fn as (args: unknown[]) => Tensor | Tensor[];
  let h: OperatorHandle<S> | undefined;
  const kernel = composite(untyped);
  const checked: BoxedKernel = (ks, args) => {
    if (h) checkKernelArgs(h.schema, args, h.def.tags);
    return kernel(ks, args);
  };
  h = registerOperator({ schema, tags, composite: CHECK_KERNEL_ARGS ? checked : kernel });
  return h;
}

/**
 * A CompositeImplicitAutograd kernel written with ordinary Tensor ops: it needs no backend
 * kernel and no derivative, since every op it calls dispatches (and records autograd) on its
 * own. Arguments arrive as TensorImpls and are lent to `fn` as handles; temporaries made
 * inside are released by `tidy`; the result's reference passes to the caller.
 */
export function composite(fn: (args: unknown[]) => Tensor | Tensor[]): BoxedKernel {
  return (_ks, args) => {
    const lent: Tensor[] = [];
    const lend = (a: unknown): unknown => {
      if (a instanceof TensorImpl) {
        const h = new Tensor(a.retain());
        lent.push(h);
        return h;
      }
      if (Array.isArray(a) && a.some((x) => x instanceof TensorImpl)) return a.map(lend);
      return a;
    };
    try {
      const handles = args.map(lend);
      const result = tidy(() => fn(handles));
      return Array.isArray(result) ? result.map(take) : take(result);
    } finally {
      for (const h of lent) h.dispose();
    }
  };
}

/** The handle's TensorImpl with one new reference for the caller; the handle is disposed. */
function take(t: Tensor): TensorImpl {
  const impl = t.impl.retain();
  t.dispose();
  return impl;
}
