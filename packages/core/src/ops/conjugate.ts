/**
 * Note [The conjugate bit]
 * `z.conj()` of a complex tensor is PyTorch's lazy conjugate: a view of z's storage (it
 * aliases z: writing into it writes into z) whose TensorImpl has `isConj` set, meaning "my
 * values are the conjugates of what the storage holds". Nothing is computed until a value is
 * needed. The bit puts the Conjugate key, the highest, into the tensor's key set:
 *  - views fall through it (TensorImpl.view keeps the bit: `z.conj()[0].isConj()`), and so do
 *    composites (they reach the bit through the ops they call) and `_conj` itself (so
 *    `z.conj().conj()` is a view without the bit);
 *  - `copy_` falls through to its Complex kernel, which writes into or reads from a
 *    conjugated tensor through its unconjugated alias, negating the imaginary parts;
 *  - every other op meets the fallback here, as PyTorch's conjugate fallback: each conjugated
 *    argument is resolved (a new tensor with the values, no bit) and the op called again.
 *    An argument the op writes (`Tensor(a!)`: an in-place `self`, an `out=`) is resolved,
 *    written, and copied back with `copy_`, so `z.conj().mul_(2)` doubles z.
 * Resolving is `conj_physical(_conj(t))`: ordinary differentiable ops, so autograd records
 * the computation as written, and `_conj`'s derivative is the conjugate of the gradient
 * (Note [Complex gradients]). Host reads (printing, `tolist`, `data`) negate the imaginary
 * parts as they gather. `view_as_real` refuses a conjugated tensor, as PyTorch's does (its
 * parts are not the storage's); `real` is the storage's real parts (a view), `imag` the
 * negated imaginary parts (a new tensor: torch-ts has no negative bit).
 */
import { DispatchKey } from '../dispatch/dispatch-key';
import { FALLTHROUGH, callBoxed, registerKernel, setConjugateFallback, type BoxedKernel, type OperatorHandle } from '../dispatch/dispatcher';
import { TorchError } from '../errors';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { resolveConj } from './complex';

function resolvedImpl(t: TensorImpl): TensorImpl {
  const handle = new Tensor(t.retain());
  try {
    const r = resolveConj(handle);
    const impl = r.impl.retain();
    r.dispose();
    return impl;
  } finally {
    handle.dispose();
  }
}

function conjugateFallback(op: OperatorHandle): BoxedKernel {
  const args = op.schema.args;
  return (_ks, boxed) => {
    const temps: TensorImpl[] = [];
    let written: { target: TensorImpl; standIn: TensorImpl } | null = null;
    const resolve = (a: unknown, mutable: boolean): unknown => {
      if (!(a instanceof TensorImpl) || !a.isConj) return a;
      const r = resolvedImpl(a);
      temps.push(r);
      if (mutable) {
        if (written) throw new TorchError(`${op.schema.name}: more than one argument it writes is a conjugated tensor (resolve them first with resolveConj())`);
        written = { target: a, standIn: r };
      }
      return r;
    };
    try {
      const call = boxed.map((a, i) => (Array.isArray(a) ? a.map((x) => resolve(x, false)) : resolve(a, args[i]?.mutable ?? false)));
      const result = callBoxed(op, call);
      const w = written as { target: TensorImpl; standIn: TensorImpl } | null;
      if (!w) return result;
      writeBack(w.target, w.standIn);
      // (the op returned its written argument borrowed: Note [Kernel results and ownership])
      return Array.isArray(result) ? result.map((x) => (x === w.standIn ? w.target : x)) : result === w.standIn ? w.target : result;
    } finally {
      for (const t of temps) t.release();
    }
  };
}

function writeBack(target: TensorImpl, standIn: TensorImpl): void {
  const dst = new Tensor(target.retain());
  const src = new Tensor(standIn.retain());
  try {
    dst.copy_(src);
  } finally {
    dst.dispose();
    src.dispose();
  }
}

/** Installs the fallback (core's api.ts, once the ops exist). */
export function registerConjugateFallback(): void {
  setConjugateFallback(conjugateFallback);
  // (its Complex kernel reads and writes conjugated tensors' storage; the fallback's write-back is a copy_)
  registerKernel('copy_', DispatchKey.Conjugate, FALLTHROUGH);
}
