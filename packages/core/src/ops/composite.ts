import type { BoxedKernel } from '../dispatch/dispatcher';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { tidy } from '../tensor/scope';

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
