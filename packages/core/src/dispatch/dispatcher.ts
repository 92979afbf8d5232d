import { TorchError } from '../errors';
import { DispatchKey, dispatchKeyName, isAutogradKey, NUM_DISPATCH_KEYS } from './dispatch-key';
import { DispatchKeySet } from './dispatch-key-set';
import { localExcluded, localIncluded } from './local-state';
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

export interface OperatorDef {
  /** PyTorch-style schema: `add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)`. */
  readonly schema: string;
  /** Tags, as native_functions.yaml's: `pointwise`, `reduction`, `view`, `inplace`, `out`, `factory`. */
  readonly tags?: readonly string[];
  /**
   * A kernel written in terms of other ops (CompositeImplicitAutograd). Used for every key
   * that has no kernel of its own, so it needs no backend kernel and no derivative.
   */
  readonly composite?: BoxedKernel;
}

/** An operator known to the dispatcher: its schema and its kernel per dispatch key. */
export class OperatorHandle {
  readonly schema: OpSchema;
  readonly kernels: (BoxedKernel | undefined)[] = new Array(NUM_DISPATCH_KEYS).fill(undefined);

  constructor(
    readonly def: OperatorDef,
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

/** Declares an operator. Declaring the same name twice is an error (one declaration per op). */
export function registerOperator(def: OperatorDef): OperatorHandle {
  const h = new OperatorHandle(def);
  if (operators.has(h.name)) throw new TorchError(`registerOperator: aten::${h.name} is declared twice`);
  operators.set(h.name, h);
  // A composite writes through the ops it calls, which bump versions themselves.
  const written = h.schema.args.flatMap((a, i) => (a.mutable && a.isTensor ? [i] : []));
  if (written.length > 0 && !def.composite) h.kernels[DispatchKey.ADInplaceOrView] = bumpVersions(h, written);
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
  h.kernels[key] = kernel;
}

/** A kernel used at `key` by every op that has none there (a backend fallback). */
export function registerFallback(key: DispatchKey, kernel: BoxedKernel): void {
  backendFallbacks[key] = kernel;
}

/** The key set of a call: the keys of its tensor arguments, plus included, minus excluded. */
export function computeKeySet(op: OperatorHandle, args: readonly unknown[]): DispatchKeySet {
  let bits = 0;
  for (const i of op.schema.tensorArgs) {
    const a = args[i];
    if (a == null) continue;
    if (Array.isArray(a)) {
      for (const t of a) if (t != null) bits |= (t as HasKeySet).keySet.bits;
    } else if ((a as HasKeySet).keySet !== undefined) {
      bits |= (a as HasKeySet).keySet.bits;
    }
  }
  return DispatchKeySet.fromBits((bits | localIncluded().bits) & ~localExcluded().bits);
}

/** Picks the kernel for the highest key of `ks`, skipping fallthroughs. */
function selectKernel(op: OperatorHandle, ks: DispatchKeySet): [BoxedKernel, DispatchKeySet] {
  let set = ks;
  for (;;) {
    const k = set.highestPriorityKey();
    if (k === -1) {
      throw new TorchError(
        `${op.schema.name}: no kernel for aten::${op.name} on any key of the call (were the tensor arguments disposed, or is no backend imported?)`,
      );
    }
    const kernel = op.kernels[k] ?? compositeFor(op, k) ?? backendFallbacks[k];
    if (kernel === FALLTHROUGH) {
      set = set.remove(k);
      continue;
    }
    if (!kernel) {
      throw new TorchError(`${op.schema.name}: no kernel for aten::${op.name} on ${dispatchKeyName(k)}`);
    }
    return [kernel, set];
  }
}

/**
 * The composite kernel serves a backend or autograd key without a kernel of its own (as
 * PyTorch's CompositeImplicitAutograd alias does), except an autograd key
 * whose backend has a kernel for the op: then the backend's kernel (a fused fast path)
 * wins and autograd falls through to it, as in PyTorch's dispatch-table computation.
 */
function compositeFor(op: OperatorHandle, k: DispatchKey): BoxedKernel | undefined {
  const c = op.def.composite;
  if (!c || k === DispatchKey.ADInplaceOrView) return undefined; // registered at backend and autograd keys only
  if (isAutogradKey(k) && op.kernels[k - DispatchKey.AutogradCPU] !== undefined) return undefined;
  return c;
}

/** A boxed call: dispatches on the arguments' keys. */
export function callBoxed(op: OperatorHandle, args: unknown[]): unknown {
  const ks = computeKeySet(op, args);
  const [kernel, set] = selectKernel(op, ks);
  return kernel(set, args);
}

/**
 * Calls the kernel for the highest key of `ks` after removing `below` and every key above
 * it: a kernel uses this to hand the call to the next key down (autograd to the backend).
 */
export function redispatch(op: OperatorHandle, ks: DispatchKeySet, below: DispatchKey, args: unknown[]): unknown {
  const mask = (1 << below) - 1; // keys strictly below `below`
  const [kernel, set] = selectKernel(op, DispatchKeySet.fromBits(ks.bits & mask));
  return kernel(set, args);
}
