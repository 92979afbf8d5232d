import { callBoxed, registerOperator, type OperatorHandle } from '../dispatch/dispatcher';
import { DTypeError, ShapeError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import type { TensorImpl } from '../tensor/tensor-impl';
import { callMutating } from './call';
import { COPY_ } from './copy';
import { sameShape } from './meta-utils';

/**
 * The `out=` variant of a functional op whose kernels only allocate their own result
 * (reductions, matrix products): the result is computed, checked against `out` as PyTorch
 * checks it (same shape; the same dtype, since these ops do not cast into `out`), and copied
 * in. Like every out= kernel it returns `out` borrowed (Note [Kernel results and ownership]).
 */
export function defineOutVariant(functional: OperatorHandle): OperatorHandle {
  const s = functional.def.schema;
  const open = s.indexOf('(');
  const close = s.lastIndexOf(')');
  const args = s.slice(open + 1, close);
  const star = args.includes('*') ? '' : ', *';
  const name = functional.schema.name;
  const schema = `${name}.${functional.schema.overload ? `${functional.schema.overload}_out` : 'out'}(${args}${star}, Tensor(a!) out) -> Tensor(a!)`;
  return registerOperator({
    schema,
    tags: ['out'],
    composite: (_ks, callArgs) => {
      const out = callArgs[callArgs.length - 1] as TensorImpl;
      const result = callBoxed(functional, callArgs.slice(0, -1)) as TensorImpl;
      try {
        if (!sameShape(out.sizes, result.sizes)) {
          throw new ShapeError(`${name}: out= tensor has shape ${fmtShape(out.sizes)}, but the result has shape ${fmtShape(result.sizes)}`);
        }
        if (out.dtype !== result.dtype) {
          throw new DTypeError(`${name}: Expected out tensor to have dtype ${result.dtype}, but got ${out.dtype} instead`);
        }
        callBoxed(COPY_, [out, result, false]);
      } finally {
        result.release();
      }
      return out;
    },
  });
}

/** Calls `h` (an out variant) and returns the user's `out` handle. */
export function callOut(h: OperatorHandle, args: unknown[], out: Tensor): Tensor {
  return callMutating(h, [...args, out.impl], out);
}
