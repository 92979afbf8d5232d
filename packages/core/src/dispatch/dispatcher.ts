import { DTypeError, NotImplementedError, TorchError } from '../errors';
import { DispatchKey, dispatchKeyDisplayName, isAutogradKey, NUM_DISPATCH_KEYS } from './dispatch-key';
import { DispatchKeySet } from './dispatch-key-set';
import { isInferenceModeEnabled, localExcluded, localIncluded } from './local-state';
import { parseSchema, type OpSchema } from './schema';

/** Anything that carries a dispatch key set (a Tensor handle does). */
export interface HasKeySet {
  readonly keySet: DispatchKeySet;
}

/**
 * A boxed kernel: the key set of the call (so it can redispatch below itself) and the
 * arguments in schema order (`undefined` for an omitted optional one).
 */
export type BoxedKernel = (ks: DispatchKeySet, args: unknown[]) => unknown;

/** Marks a key as transparent for an op: the dispatcher goes on to the next key down. */
export const FALLTHROUGH: BoxedKernel = Object.freeze(() => {
  throw new TorchError('fallthrough kernel called');
}) as BoxedKernel;

export interface OperatorDef<S extends string = string> {
  /**
   * PyTorch-style schema: `add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)`.
   * Kept as its literal type, from which the compiler derives the arguments' types (Note [Schema types]).
   */
  readonly schema: S;
  /** Tags, as native_functions.yaml's: `pointwise`, `reduction`, `view`, `inplace`, `out`, `factory`. */
  readonly tags?: readonly string[];
  /**
   * A kernel written in terms of other ops (CompositeImplicitAutograd). Used for every key
   * that has no kernel of its own, so it needs no backend kernel and no derivative.
   */
  readonly composite?: BoxedKernel;
}

/** An operator known to the dispatcher: its schema and its kernel per dispatch key. */
export class OperatorHandle<S extends string = string> {
  readonly schema: OpSchema;
  /** The kernel per dispatch key; written only through `registerKernel` (Note [Dispatch cache]). */
  readonly kernels: readonly (BoxedKernel | undefined)[] = new Array(NUM_DISPATCH_KEYS).fill(undefined);
  /** Note [Dispatch cache]: the kernel chosen for each key-set bits, valid while `cacheEpoch === epoch`. */
  cache: (DispatchEntry | undefined)[] = [];
  cacheEpoch = -1;

  constructor(
    readonly def: OperatorDef<S>,
  ) {
    this.schema = parseSchema(def.schema);
  }

  get name(): string {
    return this.schema.qualifiedName;
  }

  hasKernel(k: DispatchKey): boolean {
    return this.kernels[k] !== undefined;
  }
}

const operators = new Map<string, OperatorHandle>();
const backendFallbacks: (BoxedKernel | undefined)[] = new Array(NUM_DISPATCH_KEYS).fill(undefined);

/** What a call with a given key set runs: the kernel, and the key set it receives (fallthroughs removed). */
interface DispatchEntry {
  readonly kernel: BoxedKernel;
  readonly set: DispatchKeySet;
}

/**
 * Note [Dispatch cache]
 * Which kernel a call runs depends only on the call's key-set bits, on the op's kernel table
 * and composite, and on the backend fallbacks. So each op caches, per bits, the kernel and the
 * key set it runs with (fallthroughs skipped), as PyTorch precomputes its dispatch tables.
 * Every registration of a kernel or fallback bumps `epoch`, and an op whose cache was filled
 * in an older epoch drops it on its next call, so a kernel registered late (a backend
 * imported after ops ran, a test overriding a kernel) is seen at once. A call that finds no
 * kernel throws and caches nothing. Key-set bits are below 2^NUM_DISPATCH_KEYS, so the cache
 * is a short dense array.
 */
let epoch = 0;

function setKernel(h: OperatorHandle, key: DispatchKey, kernel: BoxedKernel): void {
  (h.kernels as (BoxedKernel | undefined)[])[key] = kernel;
  epoch++;
}

function dispatchEntry(op: OperatorHandle, bits: number): DispatchEntry {
  if (op.cacheEpoch !== epoch) {
    op.cache = [];
    op.cacheEpoch = epoch;
  }
  let e = op.cache[bits];
  if (e === undefined) {
    e = selectKernel(op, DispatchKeySet.fromBits(bits));
    op.cache[bits] = e;
  }
  return e;
}

/** Declares an operator. Declaring the same name twice is an error (one declaration per op). */
export function registerOperator<const S extends string>(def: OperatorDef<S>): OperatorHandle<S> {
  const h = new OperatorHandle(def);
  if (operators.has(h.name)) throw new TorchError(`registerOperator: aten::${h.name} is declared twice`);
  operators.set(h.name, h);
  // A composite writes through the ops it calls, which bump versions themselves.
  const written = h.schema.args.flatMap((a, i) => (a.mutable && a.isTensor ? [i] : []));
  if (written.length > 0 && !def.composite) setKernel(h, DispatchKey.ADInplaceOrView, bumpVersions(h, written));
  return h;
}

/**
 * Note [Version counters are bumped at ADInplaceOrView]
 * Every op that writes a tensor argument (`Tensor(a!)` in its schema: in-place `self`,
 * `out`) gets a kernel at ADInplaceOrView that runs the op below itself and then bumps the
 * version counter of each written tensor, as PyTorch's ADInplaceOrView kernels do. Backend
 * kernels never bump versions; code that initialises a tensor nobody has seen yet
 * (factories) runs below this key and leaves the version at 0.
 */
function bumpVersions(h: OperatorHandle, written: readonly number[]): BoxedKernel {
  return (ks, args) => {
    if (!isInferenceModeEnabled()) {
      for (const i of written) {
        if ((args[i] as { version?: { inference?: boolean } } | undefined)?.version?.inference) {
          throw new TorchError(
            `${h.schema.name}: Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.`,
          );
        }
      }
    }
    const result = redispatch(h, ks, DispatchKey.ADInplaceOrView, args);
    for (const i of written) (args[i] as { version?: { bump(): void } } | undefined)?.version?.bump();
    return result;
  };
}

export function findOperator(name: string): OperatorHandle | undefined {
  return operators.get(name);
}

export function getOperator(name: string): OperatorHandle {
  const h = operators.get(name);
  if (!h) throw new TorchError(`dispatcher: no operator aten::${name} is declared`);
  return h;
}

export function allOperators(): OperatorHandle[] {
  return [...operators.values()];
}

/** Registers `kernel` for `op` at `key`; a second registration replaces the first (last wins, as overriding does in PyTorch). */
export function registerKernel(op: string | OperatorHandle, key: DispatchKey, kernel: BoxedKernel): void {
  const h = typeof op === 'string' ? getOperator(op) : op;
  setKernel(h, key, kernel);
}

/** A kernel used at `key` by every op that has none there (a backend fallback). */
export function registerFallback(key: DispatchKey, kernel: BoxedKernel): void {
  backendFallbacks[key] = kernel;
  epoch++;
}

/** The key set of a call: the keys of its tensor arguments, plus included, minus excluded. */
export function computeKeySet(op: OperatorHandle, args: readonly unknown[]): DispatchKeySet {
  return DispatchKeySet.fromBits(keyBits(op, args));
}

function keyBits(op: OperatorHandle, args: readonly unknown[]): number {
  let bits = 0;
  const tensorArgs = op.schema.tensorArgs;
  for (let k = 0; k < tensorArgs.length; k++) {
    const a = args[tensorArgs[k]];
    if (a == null) continue;
    if (Array.isArray(a)) {
      for (const t of a) if (t != null) bits |= (t as HasKeySet).keySet.bits;
    } else if ((a as HasKeySet).keySet !== undefined) {
      bits |= (a as HasKeySet).keySet.bits;
    }
  }
  return (bits | localIncluded().bits) & ~localExcluded().bits;
}

/** Picks the kernel for the highest key of `ks`, skipping fallthroughs. */
function selectKernel(op: OperatorHandle, ks: DispatchKeySet): DispatchEntry {
  let set = ks;
  for (;;) {
    const k = set.highestPriorityKey();
    if (k === -1) {
      throw new TorchError(
        `${op.schema.name}: no kernel for aten::${op.name} on any key of the call (were the tensor arguments disposed, or is no backend imported?)`,
      );
    }
    const kernel = op.kernels[k] ?? compositeFor(op, k) ?? backendFallbacks[k] ?? perOpFallback(op, k, set);
    if (kernel === FALLTHROUGH) {
      set = set.remove(k);
      continue;
    }
    if (!kernel) {
      if (k === DispatchKey.SparseCPU || op.kernels[DispatchKey.SparseCPU] !== undefined) throw couldNotRun(op, k);
      throw new TorchError(`${op.schema.name}: no kernel for aten::${op.name} on ${dispatchKeyDisplayName(k)}`);
    }
    return { kernel, set };
  }
}

/**
 * PyTorch's error for an op with no kernel for a backend, where sparse tensors meet an op
 * without a sparse kernel (or dense ones an op that has only a sparse kernel, as `indices`):
 * Note [Sparse COO tensors].
 */
function couldNotRun(op: OperatorHandle, k: DispatchKey): NotImplementedError {
  const has: string[] = [];
  for (let key = 0; key < NUM_DISPATCH_KEYS; key++) if (op.kernels[key] !== undefined) has.push(dispatchKeyDisplayName(key as DispatchKey));
  return new NotImplementedError(
    `${op.schema.name}: Could not run 'aten::${op.name}' with arguments from the '${dispatchKeyDisplayName(k)}' backend. This could be because the operator doesn't exist for this backend. 'aten::${op.name}' is only available for these backends: [${has.join(', ')}].`,
  );
}

/**
 * The composite kernel serves a backend or autograd key without a kernel of its own (as
 * PyTorch's CompositeImplicitAutograd alias does), except an autograd key
 * whose backend has a kernel for the op: then the backend's kernel (a fused fast path)
 * wins and autograd falls through to it, as in PyTorch's dispatch-table computation.
 */
function compositeFor(op: OperatorHandle, k: DispatchKey): BoxedKernel | undefined {
  const c = op.def.composite;
  // (a composite reaches complex and conjugated tensors through the ops it calls)
  if (c && (k === DispatchKey.Complex || k === DispatchKey.Conjugate)) return FALLTHROUGH;
  // (the batched layer's fallback decides how a composite meets batched tensors: Note [Batched tensors])
  if (k === DispatchKey.FuncTorchBatched) return undefined;
  // (a sparse tensor reaches a composite at its autograd key; below it only sparse kernels run)
  if (k === DispatchKey.SparseCPU) return undefined;
  if (!c || k === DispatchKey.ADInplaceOrView) return undefined; // registered at backend and autograd keys only
  if (isAutogradKey(k) && op.kernels[k - DispatchKey.AutogradCPU] !== undefined) return undefined;
  return c;
}

let conjugateFallback: ((op: OperatorHandle) => BoxedKernel) | undefined;

/**
 * Sets the kernel every op without one of its own runs at the Conjugate key, made per op
 * because it reads the op's schema (which arguments it writes) and calls it again: core's
 * ops layer registers it (Note [The conjugate bit]).
 */
export function setConjugateFallback(make: (op: OperatorHandle) => BoxedKernel): void {
  conjugateFallback = make;
  epoch++;
}

let batchedFallback: ((op: OperatorHandle, set: DispatchKeySet) => BoxedKernel) | undefined;

/**
 * Sets the kernel every op without a batching rule runs at the FuncTorchBatched key (a loop
 * over the batch, or a composite run on the batched tensors), made per op and key set
 * because it names the op, reads its schema and which kernels serve the call's backend:
 * core's batched layer registers it (Note [Batched tensors]).
 */
export function setBatchedFallback(make: (op: OperatorHandle, set: DispatchKeySet) => BoxedKernel): void {
  batchedFallback = make;
  epoch++;
}

function perOpFallback(op: OperatorHandle, k: DispatchKey, set: DispatchKeySet): BoxedKernel | undefined {
  if (k === DispatchKey.FuncTorchBatched) return batchedFallback?.(op, set);
  if (k === DispatchKey.Complex) return noComplexKernel(op);
  if (k === DispatchKey.Conjugate) return conjugateFallback?.(op);
  return undefined;
}

/** An op with complex operands and no complex kernel: PyTorch's "not implemented for 'ComplexFloat'". */
function noComplexKernel(op: OperatorHandle): BoxedKernel {
  return (_ks, args) => {
    const dtypes = args.flat().map((a) => (typeof a === 'object' && a !== null && 'dtype' in a ? a.dtype : undefined));
    const name = dtypes.includes('complex128') && !dtypes.includes('complex64') ? 'ComplexDouble' : 'ComplexFloat';
    throw new DTypeError(`"${op.schema.name}" not implemented for '${name}' (torch-ts has no complex kernel for aten::${op.name} yet)`);
  };
}

/** A boxed call: dispatches on the arguments' keys. */
export function callBoxed(op: OperatorHandle, args: unknown[]): unknown {
  const e = dispatchEntry(op, keyBits(op, args));
  return e.kernel(e.set, args);
}

/**
 * Calls the kernel for the highest key of `ks` after removing `below` and every key above
 * it: a kernel uses this to hand the call to the next key down (autograd to the backend).
 */
export function redispatch(op: OperatorHandle, ks: DispatchKeySet, below: DispatchKey, args: unknown[]): unknown {
  const mask = (1 << below) - 1; // keys strictly below `below`
  const e = dispatchEntry(op, ks.bits & mask);
  return e.kernel(e.set, args);
}
