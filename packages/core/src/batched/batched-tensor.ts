/**
 * Note [Batched tensors]
 * vmap's logical tensors, as functorch's BatchedTensorImpl: a BatchedTensorImpl wraps a
 * physical value (a TensorImpl, itself batched when vmaps nest), the dim of the value that
 * is the batch (`bdim`) and the vmap `level` it belongs to. Its sizes and strides are the
 * value's without `bdim` (so they are sample 0's view of the same storage: shape, dtype and
 * device queries answer for one sample, and stride arithmetic of view ops is the same for
 * every sample). Its key set is the value's plus FuncTorchBatched, the highest key, so every
 * op with a batched argument runs the FuncTorchBatched kernel first:
 *  - a batching rule (batching-rules-*.ts) takes the arguments batched at the highest level
 *    among them, moves their batch dims (usually to 0), calls the op ONCE on the physical
 *    values (an ordinary dispatched call: autograd, complex, backends see plain tensors, or
 *    tensors batched at a lower level, which dispatch to their own rules), and wraps the
 *    result at that level;
 *  - an op without a rule meets the fallback (batched-fallback.ts): it selects each sample,
 *    calls the op per sample, stacks the results, and warns once per op, as PyTorch's
 *    "There is a performance drop because we have not yet implemented the batching rule"
 *    (an `out=` form is refused instead, as PyTorch's fallback refuses it; ops whose result
 *    shape depends on the values, nonzero and unique, raise functorch's dynamic-shape error);
 *  - a composite op falls through the key and reaches batched tensors through the ops it
 *    calls (dispatcher.ts compositeFor), unless a backend has a fused kernel for it.
 * Because autograd records the physical ops, a loss computed under vmap is a physical
 * tensor of per-sample losses whose samples never mix, so the gradient of its sum with
 * respect to a physical input is the per-sample gradient: that is vmap(grad(f)) in one
 * backward pass (torch's func/grad.ts unwraps with `toPhysical` / `fromPhysical`).
 * Levels: `enterVmapLevel` pushes a level (with its batch size) for the duration of one vmap
 * call; a rule handles only the highest level among its arguments, so nested vmaps peel one
 * level per dispatch. Data-dependent reads of a batched tensor (`item`, host reads) are
 * refused, as PyTorch's are.
 */
import { DispatchKey } from '../dispatch/dispatch-key';
import { TorchError, ValueError } from '../errors';
import { TensorImpl } from '../tensor/tensor-impl';

/**
 * An op writes per-sample values into a tensor that is not batched (PyTorch's vmap raises the
 * same). The fallback (batched-fallback.ts) runs a composite per sample when one of its ops
 * raises it, so every rule that refuses such a write raises this class, whatever the message.
 */
export class UnbatchedWriteError extends TorchError {}

/**
 * Note [In-place into an unbatched self]
 * functorch 1.13 refuses an in-place op whose self is not batched at the call's level while
 * another argument is, with one of three messages, by how it batches the op; torch-ts raises
 * the same message for the same op (checked against functorch by
 * packages/torch/scripts/goldens/vmap_inplace.py):
 *  - the ops with functorch's binary_pointwise_inplace_batch_rule (sub_, mul_, div_ without a
 *    rounding mode, clamp_min_, clamp_max_, logical_and_ / or_ / xor_, copy_, masked_fill_
 *    with a batched mask): `inplaceArithmeticMessage`, "in a vmap";
 *  - add_ (a boxed pointwise rule): no check; the op runs on the physical operands, whose
 *    broadcast shape has the batch and never fits self, and the kernel's "output with shape
 *    ... doesn't match the broadcast shape ..." is raised (physical shapes, as functorch's);
 *  - every other op (functorch's per-sample fallback): `inplaceFallbackMessage`, "at level L".
 * index_put_ has its own ("index_put_(self, ...) ... in a vmap", batching-rules-index.ts).
 */
export function inplaceArithmeticMessage(): string {
  return (
    'vmap: inplace arithmetic(self, *extra_args) is not possible because there exists a Tensor `other` in extra_args that has more elements than `self`. ' +
    'This happened due to `other` being vmapped over but `self` not being vmapped over in a vmap. Please try to use out-of-place operators instead of inplace arithmetic. ' +
    'If said operator is being called inside the PyTorch framework, please file a bug report instead.'
  );
}

/** functorch's batchedTensorInplaceForLoopFallback message, word for word (`op`: the schema name, no overload). */
export function inplaceFallbackMessage(op: string, level: number): string {
  return (
    `vmap: aten::${op}(self, *extra_args) is not possible because there exists a Tensor \`other\` in extra_args that has more elements than \`self\`. ` +
    `This happened due to \`other\` being vmapped over but \`self\` not being vmapped over at level ${level}. Please try to use out-of-place operators instead of aten::${op}. ` +
    'If said operator is being called inside the PyTorch framework, please file a bug report instead.'
  );
}

export class BatchedTensorImpl extends TensorImpl {
  constructor(
    /** The physical value; this wrapper holds one reference on it. */
    readonly value: TensorImpl,
    /** The dim of `value` that is the batch. */
    readonly bdim: number,
    /** The vmap level (Note [Batched tensors]). */
    readonly level: number,
  ) {
    const sizes = value.sizes.filter((_, d) => d !== bdim);
    const strides = value.strides.filter((_, d) => d !== bdim);
    super(value.storage, sizes, strides, value.storageOffset, value.dtype, value.device, value.version, null, value.isConj);
    value.retain();
    // (keySet is readonly to everyone else: the wrapper is the value plus the batched key)
    (this as { keySet: TensorImpl['keySet'] }).keySet = value.keySet.add(DispatchKey.FuncTorchBatched);
  }

  /** The batch size. */
  get batchSize(): number {
    return this.value.sizes[this.bdim];
  }

  protected override releaseResources(): void {
    super.releaseResources();
    this.value.release();
  }
}

export function isBatchedImpl(t: unknown): t is BatchedTensorImpl {
  return t instanceof BatchedTensorImpl;
}

// ---- levels ----

export interface VmapLevel {
  readonly level: number;
  readonly size: number;
}

const levels: VmapLevel[] = [];

/** Opens a vmap level of batch size `size`; the caller closes it with `exitVmapLevel` in a `finally`. */
export function enterVmapLevel(size: number): number {
  const level = levels.length === 0 ? 1 : levels[levels.length - 1].level + 1;
  levels.push({ level, size });
  return level;
}

export function exitVmapLevel(level: number): void {
  const top = levels.pop();
  if (top?.level !== level) throw new TorchError(`vmap: internal error: closed level ${level} while level ${top?.level} was open`);
}

/** The open vmap levels, outermost first. */
export function vmapLevels(): readonly VmapLevel[] {
  return [...levels];
}

/** The batch size of an open level. */
export function vmapLevelSize(level: number): number {
  const l = levels.find((x) => x.level === level);
  if (!l) throw new ValueError(`vmap: level ${level} is not open (a batched tensor escaped the vmap that made it?)`);
  return l.size;
}

/** Wraps `value` (one reference is added) as batched at `level` along `bdim`. */
export function wrapBatched(value: TensorImpl, bdim: number, level: number): BatchedTensorImpl {
  if (bdim < 0 || bdim >= value.dim) throw new ValueError(`vmap: batch dim ${bdim} is out of range for a tensor of dimension ${value.dim}`);
  return new BatchedTensorImpl(value, bdim, level);
}

/** The highest vmap level among the (possibly nested in arrays) arguments, or 0. */
export function maxLevel(args: readonly unknown[]): number {
  let m = 0;
  for (const a of args) {
    if (a instanceof BatchedTensorImpl) m = Math.max(m, a.level);
    else if (Array.isArray(a)) m = Math.max(m, maxLevel(a));
  }
  return m;
}

/** `t`'s value and batch dim at `level`, or null where `t` is not batched at that level. */
export function atLevel(t: unknown, level: number): BatchedTensorImpl | null {
  return t instanceof BatchedTensorImpl && t.level === level ? t : null;
}
