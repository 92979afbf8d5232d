/**
 * The FuncTorchBatched fallback (Note [Batched tensors]): for an op with no batching rule,
 * select each sample of the arguments batched at the call's level, call the op per sample,
 * and stack the results at dim 0, as PyTorch's batchedTensorForLoopFallback does, warning
 * once per op that a rule is missing. An in-place op writes each sample of the batched
 * argument it was given and returns that argument; an `out=` form is refused, as PyTorch's
 * fallback refuses it. An op
 * whose result is not a tensor (a data-dependent read: `item`, `equal`) is refused.
 */
import { DispatchKey } from '../dispatch/dispatch-key';
import type { DispatchKeySet } from '../dispatch/dispatch-key-set';
import { callBoxed, getOperator, redispatch, setBatchedFallback, type BoxedKernel, type OperatorHandle } from '../dispatch/dispatcher';
import { TorchError } from '../errors';
import { TensorImpl } from '../tensor/tensor-impl';
import { atLevel, inplaceFallbackMessage, maxLevel, UnbatchedWriteError, wrapBatched } from './batched-tensor';
import { batchSizeAt, Temps } from './batching-util';

const warned = new Set<string>();

/** Whether the fallback warned for `op` (tests read it; PyTorch warns through `warnings.warn`). */
export function batchedFallbackWarned(op: string): boolean {
  return warned.has(op);
}

let traced: Set<string> | null = null;

/**
 * Runs `fn` and returns the names of the ops that ran the per-sample loop while it ran (every
 * call, not only the first one that warned): tests list the ops still without a batching rule
 * with it, whatever other code already made the fallback warn in this process.
 */
export function traceBatchedFallback(fn: () => void): string[] {
  const outer = traced;
  const mine = new Set<string>();
  traced = mine;
  try {
    fn();
  } finally {
    traced = outer;
    if (outer) for (const n of mine) outer.add(n);
  }
  return [...mine].sort();
}

function warnOnce(op: OperatorHandle): void {
  traced?.add(op.name);
  if (warned.has(op.name)) return;
  warned.add(op.name);
  console.warn(
    `vmap: There is a performance drop because we have not yet implemented the batching rule for aten::${op.name}. ` +
      'torch-ts runs it once per sample (Note [Batched tensors]); please file an issue so the op gets a batching rule.',
  );
}

/** The per-sample loop for `op` (rules call it for the argument combinations they do not cover). */
export function loopFallback(op: OperatorHandle): BoxedKernel {
  const written = op.schema.args.flatMap((a, i) => (a.mutable && a.isTensor ? [i] : []));
  return (_ks, args) => {
    const level = maxLevel(args);
    const size = batchSizeAt(args, level);
    for (const i of written) {
      if (args[i] instanceof TensorImpl && !atLevel(args[i], level)) {
        throw new UnbatchedWriteError(inplaceFallbackMessage(op.schema.name, level));
      }
    }
    warnOnce(op);
    const s = new Temps();
    const select = getOperator('select.int');
    const sample = (a: unknown, k: number): unknown => {
      const b = atLevel(a, level);
      if (b) return s.call(select, [b.value, b.bdim, k]);
      return Array.isArray(a) ? a.map((x) => sample(x, k)) : a;
    };
    try {
      const perSample: TensorImpl[][] = [];
      for (let k = 0; k < size; k++) {
        const r = callBoxed(op, args.map((a) => sample(a, k)));
        if (written.length > 0) continue; // (written in place, returned borrowed)
        const outs = Array.isArray(r) ? r : [r];
        for (const o of outs) {
          if (!(o instanceof TensorImpl)) {
            throw new TorchError(
              `vmap: ${op.schema.name}: It looks like you're attempting to use a Tensor in some data-dependent control flow (the op returns ${typeof o}, not a Tensor). We don't support that yet; please shape your function so it does not read values of a batched Tensor`,
            );
          }
          s.own(o);
        }
        perSample.push(outs as TensorImpl[]);
      }
      if (written.length > 0) return written.length === 1 ? args[written[0]] : written.map((i) => args[i]);
      const stackOp = getOperator('stack');
      const stacked = perSample[0].map((_, j) => wrapBatched(s.call(stackOp, [perSample.map((p) => p[j]), 0]), 0, level));
      const multi = op.schema.returns.trim().startsWith('(') || op.schema.returns.includes('[]');
      return multi ? stacked : stacked[0];
    } finally {
      s.release();
    }
  };
}

/**
 * A composite runs on the batched tensors (its ops meet their rules) unless the call's
 * backend has a fused kernel for it, which would read a batched tensor as one sample. A
 * functional composite that writes per-sample values into a fresh unbatched tensor (an
 * `index_add_` into zeros) cannot run batched: it raises UnbatchedWriteError before writing
 * anything anyone else sees, and the whole composite then runs per sample instead.
 */
function fallbackFor(op: OperatorHandle, set: DispatchKeySet): BoxedKernel {
  if (op.def.tags?.includes('out')) return outRefused(op);
  const loop = loopFallback(op);
  if (!op.def.composite || hasBackendKernel(op, set)) return loop;
  const writes = op.schema.args.some((a) => a.mutable);
  return (ks, args) => {
    if (writes) return redispatch(op, ks, DispatchKey.FuncTorchBatched, args);
    try {
      return redispatch(op, ks, DispatchKey.FuncTorchBatched, args);
    } catch (e) {
      if (e instanceof UnbatchedWriteError) return loop(ks, args);
      throw e;
    }
  };
}

/**
 * An `out=` form has no rule and cannot loop: PyTorch's fallback refuses it (the per-sample
 * results would have to be written into an `out` whose batching the caller chose), so
 * torch-ts does too, before anything is written.
 */
function outRefused(op: OperatorHandle): BoxedKernel {
  return () => {
    throw new TorchError(`vmap: Batching rule not implemented for aten::${op.name}; the fallback path doesn't work on out= or view ops.`);
  };
}

function hasBackendKernel(op: OperatorHandle, set: DispatchKeySet): boolean {
  const b = set.backendComponent();
  return b !== -1 && (op.kernels[b] !== undefined || op.kernels[b + DispatchKey.AutogradCPU] !== undefined);
}

export function registerBatchedFallback(): void {
  setBatchedFallback(fallbackFor);
}
