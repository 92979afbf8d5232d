import { TensorImpl, type Backend, type OpSchema, type StorageImpl, type StructuredRun } from '@torch-ts/core';
import { onLaunch, settledCount, type BatchErrors, type LaunchCheck } from './device-errors';

/**
 * Note [Poisoned storages]
 * A kernel finds a data-dependent error on the device (Note [Device-side errors]) after the
 * op returned, so the error is tied to what the failing launch wrote and resolved at read
 * time, as follows.
 *  - Every launch that could report has a `LaunchCheck` (its error slot in its batch), which
 *    settles, with the error or with none, when the batch's slots are read back (mapped at
 *    once after the batch is submitted).
 *  - Every structured op on WebGPU runs through `poisonAround` (core Note [Backend op
 *    hooks]). Its outputs (the tensors it returns and the `Tensor(a!)` arguments it writes)
 *    get, on their STORAGE, a `Poison`: the launches the op recorded (its own, and those of
 *    ops it ran inside) plus the poisons of every tensor argument it read. So the poison of a
 *    storage stands for every launch in its ancestry that could have failed; a view shares
 *    its base's storage and so its poison; an in-place op keeps the poison its target had
 *    (writing new values does not undo an error that produced the old ones, as on CUDA a
 *    device-side assert is not undone by later writes).
 *  - A read (`data()`, `toAsync('cpu')`, the counts of nonzero/unique) of a tensor whose
 *    storage has a poison waits for the batches of the unsettled launches in its ancestry,
 *    then raises the earliest failed launch's error (by launch order), at every read. The
 *    read of a storage without a poison waits for nothing more than it did.
 * Keeping it cheap and bounded:
 *  - The common path of an op is a WeakMap lookup per tensor argument and nothing else:
 *    no launch recorded, no poisoned input, no allocation. Storages are the WeakMap's keys,
 *    so a poison goes when its storages go; nothing needs to be released.
 *  - A Poison is a DAG node (its own launches, its parent Poisons). An op whose only source
 *    is one input's poison shares that node. Nodes are simplified as launches settle: a node
 *    whose ancestry has all settled keeps only its earliest failure (or becomes clean) and
 *    drops its parents, and an op drops the clean poisons of its inputs. Evaluation is
 *    memoised per settle epoch (the count of settled launches), so a chain of ops does
 *    the work once per batch read back, and the DAG holds only launches not yet read back
 *    and the nodes that lead to a failure.
 *  - Poison is per storage: every tensor on a storage that a failing launch wrote raises,
 *    even one that views elements the launch did not touch (conservative, as a device
 *    assert on CUDA poisons the whole context).
 * Impls that core calls directly, outside a structured op, and that may report (the device
 * random draws) are wrapped with `poisonsArgument` in the impl table. Launches of kernels
 * that nothing wraps poison nothing; `synchronize()` still raises the first error that no
 * read raised (Note [Device-side errors]).
 */
export class Poison {
  /** undefined: some launch in the ancestry has not settled; null: none failed; else the earliest failed launch. */
  failed: LaunchCheck | null | undefined = undefined;
  /** The settle epoch at which this pending node was last evaluated. */
  epoch = -1;

  constructor(
    public checks: LaunchCheck[],
    public parents: Poison[],
  ) {}
}

const marks = new WeakMap<StorageImpl, Poison>();

/** The poison of a storage, if any (for tests and the readers). */
export function poisonOf(storage: StorageImpl): Poison | undefined {
  return marks.get(storage);
}

/** Gives `dst` the poison of `src` as well (a copy made outside an op, for a read). */
export function inheritPoison(dst: TensorImpl, src: TensorImpl): void {
  const p = marks.get(src.storage);
  if (p) markStorage(dst.storage, p);
}

// ---- launches attributed to the running op -------------------------------------------

/** Reporting launches recorded while an op runs (depth > 0); cleared when the outermost op returns. */
const log: LaunchCheck[] = [];
let depth = 0;
onLaunch((check) => {
  if (depth > 0) log.push(check);
});

const NONE: readonly Poison[] = [];

/** The hook around every WebGPU structured op (core Note [Backend op hooks]). */
export function poisonAround(schema: OpSchema, args: unknown[], run: StructuredRun, backend: Backend): unknown {
  const start = log.length;
  depth++;
  let result: unknown;
  try {
    result = run(args, backend);
  } catch (e) {
    if (--depth === 0) log.length = 0;
    throw e;
  }
  const own = leave(start);
  let inputs: Poison[] | readonly Poison[] = NONE;
  const tensorArgs = schema.tensorArgs;
  for (let k = 0; k < tensorArgs.length; k++) inputs = addInputs(inputs, args[tensorArgs[k]]);
  if (own === null && inputs.length === 0) return result;
  const poison = own === null && inputs.length === 1 ? inputs[0] : new Poison(own ?? [], inputs as Poison[]);
  markOutputs(schema, args, result, poison);
  return result;
}

/**
 * `impl` made to poison its argument `out` as an op would (Note [Poisoned storages]), for
 * the impls core calls directly rather than through a structured op (the device random
 * draws with checked probabilities). Every other TensorImpl argument is an input.
 */
export function poisonsArgument<A extends unknown[]>(impl: (...args: A) => void, out: number): (...args: A) => void {
  return (...args: A): void => {
    const start = log.length;
    depth++;
    try {
      impl(...args);
    } catch (e) {
      if (--depth === 0) log.length = 0;
      throw e;
    }
    const own = leave(start);
    let inputs: Poison[] | readonly Poison[] = NONE;
    for (let k = 0; k < args.length; k++) if (k !== out) inputs = addInputs(inputs, args[k]);
    if (own === null && inputs.length === 0) return;
    const poison = own === null && inputs.length === 1 ? inputs[0] : new Poison(own ?? [], inputs as Poison[]);
    const t = args[out];
    if (t instanceof TensorImpl) markStorage(t.storage, poison);
  };
}

/** The launches recorded since `start` by the op that returns now, or null. */
function leave(start: number): LaunchCheck[] | null {
  depth--;
  const own = log.length > start ? log.slice(start) : null;
  if (depth === 0) log.length = 0;
  return own;
}

/** Adds the poisons of `a` (a TensorImpl or a list of them; anything else is ignored). */
function addInputs(inputs: Poison[] | readonly Poison[], a: unknown): Poison[] | readonly Poison[] {
  if (a instanceof TensorImpl) {
    const p = marks.get(a.storage);
    if (p !== undefined) inputs = addInput(inputs, p);
  } else if (Array.isArray(a)) {
    for (const t of a) {
      if (!(t instanceof TensorImpl)) continue;
      const p = marks.get(t.storage);
      if (p !== undefined) inputs = addInput(inputs, p);
    }
  }
  return inputs;
}

/** Adds `p` to the inputs unless it is clean or already there. */
function addInput(inputs: Poison[] | readonly Poison[], p: Poison): Poison[] | readonly Poison[] {
  evaluate(p);
  if (p.failed === null || inputs.includes(p)) return inputs;
  return inputs === NONE ? [p] : ((inputs as Poison[]).push(p), inputs);
}

function markOutputs(schema: OpSchema, args: readonly unknown[], result: unknown, poison: Poison): void {
  if (result instanceof TensorImpl) markStorage(result.storage, poison);
  else if (Array.isArray(result)) for (const r of result) if (r instanceof TensorImpl) markStorage(r.storage, poison);
  const a = schema.args;
  for (let i = 0; i < a.length; i++) {
    if (!a[i].mutable) continue;
    const t = args[i];
    if (t instanceof TensorImpl) markStorage(t.storage, poison);
    else if (Array.isArray(t)) for (const x of t) if (x instanceof TensorImpl) markStorage(x.storage, poison);
  }
}

function markStorage(storage: StorageImpl, poison: Poison): void {
  const had = marks.get(storage);
  if (had === poison) return;
  if (had !== undefined && !poison.parents.includes(had)) {
    evaluate(had);
    if (had.failed !== null) {
      marks.set(storage, new Poison([], [had, poison]));
      return;
    }
  }
  marks.set(storage, poison);
}

// ---- evaluation ------------------------------------------------------------------------

function earlier(a: LaunchCheck | null, b: LaunchCheck): LaunchCheck {
  return a === null || b.seq < a.seq ? b : a;
}

/** Settles what can be settled of `root`'s ancestry from the launches read back so far (iterative: chains may be long). */
function evaluate(root: Poison): void {
  if (root.failed !== undefined) return;
  const epoch = settledCount();
  if (root.epoch === epoch) return;
  const stack: Poison[] = [root];
  while (stack.length > 0) {
    const n = stack[stack.length - 1];
    if (n.failed !== undefined || n.epoch === epoch) {
      stack.pop();
      continue;
    }
    let waiting = false;
    for (const p of n.parents) {
      if (p.failed === undefined && p.epoch !== epoch) {
        stack.push(p);
        waiting = true;
      }
    }
    if (waiting) continue;
    stack.pop();
    finish(n, epoch);
  }
}

/** Evaluates `n` from its checks and its already evaluated parents; drops what is clean. */
function finish(n: Poison, epoch: number): void {
  let pending = false;
  let first: LaunchCheck | null = null;
  for (const c of n.checks) {
    if (!c.settled) pending = true;
    else if (c.failed) first = earlier(first, c);
  }
  for (const p of n.parents) {
    if (p.failed === undefined) pending = true;
    else if (p.failed !== null) first = earlier(first, p.failed);
  }
  if (pending) {
    n.checks = n.checks.filter((c) => !c.settled || c.failed);
    n.parents = n.parents.filter((p) => p.failed !== null);
    n.epoch = epoch;
  } else {
    n.failed = first;
    n.checks = [];
    n.parents = [];
  }
}

/** The batches of the unsettled launches in `root`'s ancestry. */
function pendingBatches(root: Poison): Set<BatchErrors> {
  const batches = new Set<BatchErrors>();
  const seen = new Set<Poison>();
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.failed !== undefined || seen.has(n)) continue;
    seen.add(n);
    for (const c of n.checks) if (!c.settled) batches.add(c.batch);
    for (const p of n.parents) stack.push(p);
  }
  return batches;
}

/**
 * Raises the error that poisons `impl`'s storage, if any, once every launch in its
 * ancestry has been read back (Note [Poisoned storages]). `flush` submits recorded work:
 * a launch still in the encoder is read back only after its batch is submitted.
 */
export async function raiseIfPoisoned(impl: TensorImpl, flush: () => void): Promise<void> {
  const poison = marks.get(impl.storage);
  if (poison === undefined) return;
  evaluate(poison);
  if (poison.failed === undefined) {
    let batches = pendingBatches(poison);
    if ([...batches].some((b) => b.done === null)) {
      flush();
      batches = pendingBatches(poison);
    }
    // (A batch never submitted belongs to a device that was lost: nothing to wait for.)
    await Promise.all([...batches].flatMap((b) => (b.done ? [b.done] : [])));
    evaluate(poison);
  }
  const failed = poison.failed;
  if (failed) {
    failed.raised = true;
    throw failed.error();
  }
}
