/**
 * What every batching rule shares (Note [Batched tensors]): the level a call runs at, the
 * physical values with their batch dims moved, temporaries released after the call, and the
 * result wrapped back at that level.
 */
import { DispatchKey } from '../dispatch/dispatch-key';
import { callBoxed, getOperator, registerKernel, type BoxedKernel, type OperatorHandle } from '../dispatch/dispatcher';
import { TorchError } from '../errors';
import { parseDefault } from '../ops/binder';
import { TensorImpl } from '../tensor/tensor-impl';
import { atLevel, maxLevel, wrapBatched, type BatchedTensorImpl } from './batched-tensor';

/** Owned temporaries of one rule call, released when it ends. */
export class Temps {
  private readonly list: TensorImpl[] = [];

  own(t: TensorImpl): TensorImpl {
    this.list.push(t);
    return t;
  }

  /** Calls `op` on `args` and owns its (single tensor) result. */
  call(op: string | OperatorHandle, args: unknown[]): TensorImpl {
    const h = typeof op === 'string' ? getOperator(op) : op;
    const r = callBoxed(h, withDefaults(h, args));
    if (!(r instanceof TensorImpl)) throw new TorchError(`vmap: internal error: aten::${h.name} returned no tensor`);
    // (an op that writes an argument returns it borrowed: Note [Kernel results and ownership])
    return h.schema.args.some((a) => a.mutable) ? r : this.own(r);
  }

  /** Calls `op` and owns each of its tensor results. */
  callMulti(op: string | OperatorHandle, args: unknown[]): TensorImpl[] {
    const h = typeof op === 'string' ? getOperator(op) : op;
    const r = callBoxed(h, withDefaults(h, args));
    if (!Array.isArray(r)) throw new TorchError(`vmap: internal error: aten::${h.name} returned no tensor list`);
    return r.map((x) => this.own(x as TensorImpl));
  }

  release(): void {
    for (const t of this.list) t.release();
    this.list.length = 0;
  }
}

/** The boxed arguments with the omitted trailing ones at their schema defaults (kernels receive every argument). */
function withDefaults(h: OperatorHandle, args: unknown[]): unknown[] {
  const schema = h.schema.args;
  if (args.length >= schema.length && !args.includes(undefined)) return args;
  return schema.map((a, i) => {
    const v = args[i];
    if (v !== undefined || a.defaultValue === undefined || a.defaultValue === 'None') return v;
    return parseDefault(a.defaultValue);
  });
}

/** The logical rank of an argument (a batched tensor's rank without its batch dim). */
export const logicalDim = (t: TensorImpl): number => t.dim;

/** The physical value of `b` with its batch dim moved to 0 (a view). */
export function moveBdimToFront(s: Temps, b: BatchedTensorImpl): TensorImpl {
  if (b.bdim === 0) return b.value;
  const n = b.value.dim;
  const perm = [b.bdim, ...Array.from({ length: n }, (_, i) => i).filter((i) => i !== b.bdim)];
  return s.call('permute', [b.value, perm]);
}

/**
 * An argument as a physical tensor with the batch at dim 0: a batched one moved, an
 * unbatched one (or one batched at a lower level) expanded to `size` copies (a view).
 */
export function physicalAtFront(s: Temps, t: TensorImpl, level: number, size: number): TensorImpl {
  const b = atLevel(t, level);
  if (b) return moveBdimToFront(s, b);
  const u = s.call('unsqueeze', [t, 0]);
  return s.call('expand', [u, [size, ...t.sizes], false]);
}

/** Inserts size-1 dims after dim 0 until `p` has `rank` dims (for right-aligned broadcasting). */
export function padAfterBatch(s: Temps, p: TensorImpl, rank: number): TensorImpl {
  let x = p;
  while (x.dim < rank) x = s.call('unsqueeze', [x, 1]);
  return x;
}

/** The batch size of the arguments batched at `level`. */
export function batchSizeAt(args: readonly unknown[], level: number): number {
  for (const a of args) {
    const b = atLevel(a, level);
    if (b) return b.batchSize;
    if (Array.isArray(a)) {
      for (const x of a) {
        const c = atLevel(x, level);
        if (c) return c.batchSize;
      }
    }
  }
  throw new TorchError('vmap: internal error: no argument is batched at the level of the call');
}

/** What a rule returns: a physical result and its batch dim (null: the same for every sample). */
export type RuleResult = readonly [TensorImpl, number | null];

export interface RuleCall {
  readonly args: unknown[];
  readonly level: number;
  readonly size: number;
  readonly s: Temps;
}

/**
 * Registers `rule` at FuncTorchBatched for `op`. The rule sees the boxed arguments and
 * returns physical results (owned by `s` or borrowed); they are wrapped at the call's level
 * (a result with a null batch dim is returned as it is), or `'self'` for an in-place op,
 * whose first argument is returned borrowed (Note [Kernel results and ownership]).
 */
export function defineBatchRule(op: string | OperatorHandle, rule: (c: RuleCall) => RuleResult | RuleResult[] | 'self'): void {
  const h = typeof op === 'string' ? getOperator(op) : op;
  const kernel: BoxedKernel = (_ks, args) => {
    const level = maxLevel(args);
    const s = new Temps();
    try {
      const r = rule({ args, level, size: batchSizeAt(args, level), s });
      if (r === 'self') return args[0];
      const wrap = ([t, bdim]: RuleResult): TensorImpl => (bdim === null ? t.retain() : wrapBatched(t, bdim, level));
      return isMulti(r) ? r.map(wrap) : wrap(r);
    } finally {
      s.release();
    }
  };
  registerKernel(h, DispatchKey.FuncTorchBatched, kernel);
}

function isMulti(r: RuleResult | RuleResult[]): r is RuleResult[] {
  return Array.isArray(r[0]);
}
