import { dispatchKeyDisplayName, type DispatchKey } from '../dispatch/dispatch-key';
import { registerKernel, registerOperator, type OperatorHandle } from '../dispatch/dispatcher';
import { TorchError } from '../errors';
import type { OpSchema } from '../dispatch/schema';
import type { BackendImpls, BackendImplTable, BackendDtypes, ImplName } from './backend-impls';
import { CHECK_KERNEL_ARGS, checkKernelArgs, type KernelArgs } from './kernel-args';

/**
 * How a structured op runs at a backend key: its meta (shapes, dtypes, validation, output
 * allocation) is core code shared by every backend; `impls` is the backend's table.
 */
export type StructuredRun = (args: unknown[], backend: Backend) => unknown;

export interface Backend {
  readonly key: DispatchKey;
  readonly impls: BackendImplTable;
  readonly around: BackendOpHook | undefined;
  /** The dtypes of each impl (Note [Dtype support is data]); absent: every dtype. */
  readonly dtypes: BackendDtypes | undefined;
}

export interface BackendOptions {
  /** Runs around every structured op of the backend (Note [Backend op hooks]). */
  readonly around?: BackendOpHook;
  /** The dtypes each impl computes in, which `supports()` answers from (Note [Dtype support is data]). */
  readonly dtypes?: BackendDtypes;
}

/**
 * Note [Backend op hooks]
 * A backend may see each structured op it runs as a whole: `around(schema, args, run, b)`
 * must call `run(args, b)` (the op's meta and the backend's impls) once and return its
 * result, and may look at the arguments (TensorImpls, in schema order; `Tensor(a!)` ones
 * are written) and at the result before and after. It is the one place that knows which
 * tensors an op read and which it wrote, whichever impls the op calls; WebGPU uses it to
 * carry device-side errors from the tensors an op reads to those it writes (kernels-webgpu
 * Note [Poisoned storages]). Keep it cheap: it runs on every op of the backend.
 */
export type BackendOpHook = (schema: OpSchema, args: unknown[], run: StructuredRun, backend: Backend) => unknown;

interface StructuredOp {
  readonly handle: OperatorHandle;
  readonly run: StructuredRun;
}

const structuredOps: StructuredOp[] = [];
const backends = new Map<DispatchKey, Backend>();

/**
 * Declares an operator whose backend kernels all come from `run` + the backend's impls.
 * `run` receives the arguments typed by the schema (Note [Schema types]).
 */
export function defineStructured<const S extends string>(schema: S, run: (args: KernelArgs<S>, backend: Backend) => unknown, tags: readonly string[] = []): OperatorHandle<S> {
  const handle = registerOperator({ schema, tags });
  const op: StructuredOp = { handle, run: unboxed(handle, run) };
  structuredOps.push(op);
  for (const b of backends.values()) bind(op, b);
  return handle;
}

/**
 * The one place where boxed arguments become the schema's tuple: callers keep the promise
 * (typed calls through call.ts, and the check of Note [Checking kernel arguments] in tests).
 */
function unboxed<S extends string>(handle: OperatorHandle<S>, run: (args: KernelArgs<S>, backend: Backend) => unknown): StructuredRun {
  const typed = run as (args: unknown[], backend: Backend) => unknown;
  if (!CHECK_KERNEL_ARGS) return typed;
  return (args, b) => {
    checkKernelArgs(handle.schema, args, handle.def.tags);
    return typed(args, b);
  };
}

function bind(op: StructuredOp, b: Backend): void {
  const around = b.around;
  const schema = op.handle.schema;
  const run = op.run;
  registerKernel(op.handle, b.key, around ? (_ks, args) => around(schema, args, run, b) : (_ks, args) => run(args, b));
}

/**
 * Registers a backend's impl table: every structured op gains a kernel at `key`, run through
 * `options.around` when given (Note [Backend op hooks]); `options.dtypes` declares what each
 * impl computes in (Note [Dtype support is data]).
 */
export function registerBackend(key: DispatchKey, impls: BackendImplTable, options: BackendOptions = {}): void {
  const b: Backend = { key, impls, around: options.around, dtypes: options.dtypes };
  backends.set(key, b);
  for (const op of structuredOps) bind(op, b);
}

export function isBackendRegistered(key: DispatchKey): boolean {
  return backends.has(key);
}

/** The backend registered at `key`, if any (for ops that pick a path by what a backend implements). */
export function backendOf(key: DispatchKey): Backend | undefined {
  return backends.get(key);
}

/** The backend's impl, or the error naming the op and the key when it opted out. */
export function implOf<K extends ImplName>(b: Backend, name: K, op: string): BackendImpls[K] {
  const f = b.impls[name];
  if (typeof f !== 'function') {
    const reason = f?.notImplemented ?? 'not registered';
    throw new TorchError(`${op}: no kernel for aten::${op} on ${dispatchKeyDisplayName(b.key)} (${reason})`);
  }
  return f as BackendImpls[K];
}
