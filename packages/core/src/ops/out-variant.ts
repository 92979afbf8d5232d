import { callBoxed, registerOperator, type OperatorDef, type OperatorHandle } from '../dispatch/dispatcher';
import type { KernelArgs } from './kernel-args';
import { DTypeError, ShapeError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { callFunctional, callMutating, implResult } from './call';
import { COPY_ } from './copy';
import { sameShape } from './meta-utils';

/**
 * The `out=` variant of a functional op whose kernels only allocate their own result
 * (reductions, matrix products): the result is computed, checked against `out` as PyTorch
 * checks it (same shape; the same dtype, since these ops do not cast into `out`), and copied
 * in. Like every out= kernel it returns `out` borrowed (Note [Kernel results and ownership]).
 */
/** The out= schema's type: the functional's arguments, then `out` (only its arguments matter to the compiler). */
export type OutSchema<S extends string> = S extends `${infer N}(${infer A}) -> ${string}` ? `${N}.out(${A}, *, Tensor(a!) out) -> Tensor(a!)` : string;

export function defineOutVariant<S extends string>(functional: OperatorHandle<S>): OperatorHandle<OutSchema<S>> {
  const s = functional.def.schema;
  const open = s.indexOf('(');
  const close = s.lastIndexOf(')');
  const args = s.slice(open + 1, close);
  const star = args.includes('*') ? '' : ', *';
  const name = functional.schema.name;
  const schema = `${name}.${functional.schema.overload ? `${functional.schema.overload}_out` : 'out'}(${args}${star}, Tensor(a!) out) -> Tensor(a!)`;
  // (the schema text is built at run time; its arguments are the functional's and `out`, as OutSchema says)
  const def: OperatorDef<string> = {
    schema,
    tags: ['out'],
    composite: (_ks, callArgs) => {
      const out = implResult(functional, callArgs[callArgs.length - 1]);
      const result = implResult(functional, callBoxed(functional, callArgs.slice(0, -1)));
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
  };
  return registerOperator(def) as OperatorHandle<OutSchema<S>>;
}

/** Calls the functional `h`, or its out= variant `hOut` (the same arguments, then `out`) when `out` is given. */
export function callWithOut<S extends string>(h: OperatorHandle<S>, hOut: OperatorHandle, args: KernelArgs<S>, out: Tensor | null | undefined): Tensor {
  return out ? callMutating(hOut, [...args, out.impl], out) : callFunctional(h, args);
}
