import { isContiguousAs, parseMemoryFormat, type MemoryFormatName } from './memory-format';
import type { Device } from '../device';
import { getDefaultDtype, isComplexType, typeMeta, type DType } from '../dtype';
import { DeviceError, ShapeError, TorchError, TorchTypeError, fmtShape } from '../errors';
import type { DispatchKeySet } from '../dispatch/dispatch-key-set';
import { formatSparseCoo, formatTensor } from '../format';
import { SparseTensorImpl } from '../sparse/sparse-tensor-impl';
import { normalizeDim } from '../views';
import { autogradHooks, requireAutogradHooks, type BackwardOptions, type GradFnHandle } from './autograd-interface';
import { makeBinder, type TypedBinder } from '../ops/binder';
import { deviceReader } from './device-reader';
import { complexParts, conjugatedIf, decodeHost, gatherHost, refuseBatched, type HostValues } from './host-data';
import { LEFT_SCOPES, trackInScope, untrackFromScope } from './scope';
import type { TensorImpl } from './tensor-impl';
import type { TensorMethods } from '../ops/methods';

/**
 * The safety net of Note [RefCounted invariants]: a handle collected without `dispose()`
 * releases its TensorImpl. Disposing unregisters it, so nothing is released twice.
 */
const finalizer = new FinalizationRegistry<TensorImpl>((impl) => {
  if (impl.isAlive) impl.release();
});

/**
 * Note [Deferred registration]
 * Registering a handle with the FinalizationRegistry and unregistering it on `dispose()`
 * cost more than the rest of a small op (measured: a 1-element add spends most of its time
 * there and in the garbage collector's work on the registry's weak cells). Most handles are
 * disposed soon after they are made (a loop that disposes, the engine's gradients), and such
 * a handle never needs the safety net. So a new handle outside every tidy scope is not
 * registered at once: it waits in `pending`, and `flushPending` registers the ones still
 * undisposed at the next microtask, or as soon as PENDING_MAX handles wait. Nothing is lost:
 * the registry's cleanup callbacks run as tasks, never before the current synchronous code
 * and its microtasks end, so a handle dropped undisposed is released no later than one
 * garbage collection after it would have been; and at most PENDING_MAX handles (with their
 * storage) are held strongly for that short while.
 */
const pending: Tensor[] = [];
const PENDING_MAX = 256;
let flushScheduled = false;
// Set in Tensor's static block, which may read the private fields of handles.
let flushPending: () => void = () => {};
const flushTask = (): void => {
  flushScheduled = false;
  flushPending();
};

function defer(t: Tensor): void {
  pending.push(t);
  if (pending.length >= PENDING_MAX) flushPending();
  else if (!flushScheduled) {
    flushScheduled = true;
    queueMicrotask(flushTask);
  }
}

/** A JS value's type for a message (binder.ts's typeName, which this module cannot import). */
function jsTypeName(x: unknown): string {
  if (Array.isArray(x)) return 'Array';
  if (typeof x === 'object' && x !== null) return x.constructor?.name ?? 'object';
  return typeof x;
}

export interface ReadOptions {
  /** Read int64 elements as BigInts instead of numbers (which throw beyond 2^53). */
  bigint?: boolean;
}

export type NestedList = number | bigint | boolean | NestedList[];

// Operator methods, installed on the prototype by ops/methods.ts (Note [Tensor methods come from the op table]).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Tensor extends TensorMethods {}

/**
 * The user-facing tensor: a handle that owns one reference on a TensorImpl. Operator
 * methods (`add`, `view`, `sum`...) are installed from the op table (see ops/methods.ts);
 * this class holds what every tensor has whatever the op set: metadata, lifetime, reads.
 */
export class Tensor {
  #impl: TensorImpl | null;
  /** Whether the FinalizationRegistry holds this handle (Note [Handles in a tidy scope are not registered]). */
  #registered = false;

  /** Wraps `impl`, taking over the caller's reference. */
  constructor(impl: TensorImpl) {
    this.#impl = impl;
    if (!trackInScope(this)) defer(this);
  }

  static {
    flushPending = () => {
      for (let k = 0; k < pending.length; k++) {
        const t = pending[k];
        const i = t.#impl;
        if (i !== null && !t.#registered) t.register(i);
      }
      pending.length = 0;
    };
  }

  /**
   * Note [Handles in a tidy scope are not registered]
   * The FinalizationRegistry only matters for a handle the garbage collector can reach
   * the end of, and a tidy scope holds its handles strongly until it disposes them or hands
   * them on. So a handle made inside a scope is registered only when it leaves the last
   * scope alive (`tidy` returns it with no scope around, or `keep` takes it out), never
   * while tracked; a handle made outside every scope waits for registration (Note [Deferred
   * registration]). Registering and unregistering cost about as much as the rest of a small
   * op, and the temporaries of a backward formula (run inside tidy) are never registered.
   */
  private register(impl: TensorImpl): void {
    finalizer.register(this, impl, this);
    this.#registered = true;
  }

  /** Called by the scope machinery when this handle leaves the last tidy scope (Note [Handles in a tidy scope are not registered]). */
  [LEFT_SCOPES](): void {
    const i = this.#impl;
    if (i !== null && !this.#registered) this.register(i);
  }

  /** The TensorImpl; a TorchError once the handle is disposed. */
  get impl(): TensorImpl {
    const i = this.#impl;
    if (i === null) throw new TorchError('Tensor: this tensor was disposed and cannot be used');
    return i;
  }

  get keySet(): DispatchKeySet {
    return this.impl.keySet;
  }

  get isDisposed(): boolean {
    return this.#impl === null;
  }

  /** Releases this handle's reference now; the storage is freed when no view holds it. Idempotent. */
  dispose(): void {
    const i = this.#impl;
    if (i === null) return;
    this.#impl = null;
    if (this.#registered) {
      finalizer.unregister(this);
      this.#registered = false;
    }
    untrackFromScope(this);
    i.release();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  // ---- metadata ----
  get shape(): readonly number[] {
    return this.impl.sizes;
  }

  get dtype(): DType {
    return this.impl.dtype;
  }

  get device(): Device {
    return this.impl.device;
  }

  /** `torch.strided` (`'strided'`) for a dense tensor, `torch.sparse_coo` (`'sparse_coo'`) for a sparse COO one (Note [Sparse COO tensors]). */
  get layout(): Layout {
    return this.impl instanceof SparseTensorImpl ? 'sparse_coo' : 'strided';
  }

  /** Whether this is a sparse COO tensor (`x.is_sparse`). */
  get isSparse(): boolean {
    return this.impl instanceof SparseTensorImpl;
  }

  size(): number[];
  size(dim: number): number;
  size(dim?: number): number[] | number {
    const s = this.impl.sizes;
    return dim === undefined ? [...s] : s[normalizeDim('size', dim, s.length)];
  }

  stride(): number[];
  stride(dim: number): number;
  stride(dim?: number): number[] | number {
    if (this.impl instanceof SparseTensorImpl) throw new TorchError('stride: Sparse tensors do not have strides');
    const s = this.impl.strides;
    return dim === undefined ? [...s] : s[normalizeDim('stride', dim, s.length)];
  }

  storageOffset(): number {
    return this.impl.storageOffset;
  }

  /** `x.isContiguous()`, `x.isContiguous({ memoryFormat: 'channels_last' })` (Note [Memory formats]). */
  isContiguous(options?: { memoryFormat?: MemoryFormatName | null }): boolean {
    const f = options?.memoryFormat;
    if (f == null) return this.impl.isContiguous;
    const i = this.impl;
    return isContiguousAs(i.sizes, i.strides, parseMemoryFormat('is_contiguous', f), i.isContiguous);
  }

  numel(): number {
    return this.impl.numel;
  }

  dim(): number {
    return this.impl.sizes.length;
  }

  get ndim(): number {
    return this.impl.sizes.length;
  }

  /** Bumped by every in-place op on this tensor or a view of it. */
  get version(): number {
    return this.impl.version.version;
  }

  elementSize(): number {
    return this.impl.itemSize;
  }

  /** `x.nelement()`: PyTorch's alias of `numel()`. */
  nelement(): number {
    return this.impl.numel;
  }

  /** `x.ndimension()`: PyTorch's alias of `dim()`. */
  ndimension(): number {
    return this.impl.sizes.length;
  }

  /** Whether the tensor is on the CPU (`x.is_cpu`). */
  get isCpu(): boolean {
    return this.impl.device.type === 'cpu';
  }

  /** Whether the tensor is on the meta device (`x.is_meta`): shapes and dtypes, no data. */
  get isMeta(): boolean {
    return this.impl.device.type === 'meta';
  }

  /** `x.get_device()`: the device's index, -1 on the CPU, as PyTorch's. */
  getDevice(): number {
    const d = this.impl.device;
    return d.type === 'cpu' ? -1 : (d.index ?? 0);
  }

  /** `x.is_signed()`: whether the dtype holds negative values (false for uint8 and bool). */
  isSigned(): boolean {
    return typeMeta(this.impl.dtype).isSigned;
  }

  /** `x.is_same_size(other)`: whether both have the same sizes. */
  isSameSize(other: Tensor): boolean {
    const a = this.impl.sizes;
    const b = other.impl.sizes;
    return a.length === b.length && a.every((n, i) => n === b[i]);
  }

  /**
   * `x.is_nonzero()`: the one element's truth, with PyTorch's errors for none or several (what
   * Python's `bool(x)` reads); CPU only, as `item()`.
   */
  isNonzero(): boolean {
    const n = this.impl.numel;
    if (n === 0) throw new TorchError('is_nonzero: Boolean value of Tensor with no values is ambiguous');
    if (n > 1) throw new TorchError('is_nonzero: Boolean value of Tensor with more than one value is ambiguous');
    const v = this.item();
    return typeof v === 'boolean' ? v : typeof v === 'bigint' ? v !== 0n : v !== 0;
  }

  /** `x.is_inference()`: whether the data was made in inference mode (Note [Inference tensors]). */
  isInference(): boolean {
    return this.impl.version.inference;
  }

  isFloatingPoint(): boolean {
    const d = this.impl.dtype;
    return d === 'float32' || d === 'float64' || d === 'float16' || d === 'bfloat16';
  }

  // ---- autograd (through the interfaces autograd registers) ----
  get requiresGrad(): boolean {
    return this.impl.autogradMeta?.requiresGrad ?? false;
  }

  set requiresGrad(v: boolean) {
    this.requiresGrad_(v);
  }

  requiresGrad_(requiresGrad = true): this {
    const hooks = autogradHooks();
    if (!hooks) {
      if (!requiresGrad) return this;
      requireAutogradHooks('requiresGrad_');
    }
    hooks!.setRequiresGrad(this.impl, requiresGrad);
    return this;
  }

  /**
   * Note [Reading .grad]
   * `x.grad` hands out one handle per gradient, cached on the tensor's autograd meta: every
   * read returns the same object while the gradient is the same (`x.grad === x.grad`, as
   * `x.grad is x.grad` in Python), so reading it in a loop allocates nothing and leaks
   * nothing. The handle shares the gradient's data: an in-place accumulation (a second
   * backward) shows through it. Disposing it is allowed and frees only the handle (the tensor
   * keeps its gradient; the next read makes a new handle), and a `tidy` that sees the handle
   * made disposes it at its end like any other. When the gradient is replaced or cleared
   * (`x.grad = null`, `zeroGrad()`, a first backward after that), the old handle stops being
   * the tensor's and becomes an ordinary handle of the caller's, still valid, released by
   * `dispose()` or the FinalizationRegistry safety net, as in PyTorch where an old `p.grad`
   * a user kept outlives `p.grad = None`.
   */
  get grad(): Tensor | null {
    const meta = this.impl.autogradMeta;
    const g = meta?.grad;
    if (!meta || !g) return null;
    const cached = meta.gradHandle as Tensor | null;
    if (cached !== null && !cached.isDisposed && cached.impl === g) return cached;
    const h = new Tensor(g.retain());
    meta.gradHandle = h;
    return h;
  }

  /**
   * `x.grad = g` / `x.grad = null`, with PyTorch 2.x's checks (python_variable.cpp's
   * THPVariable_set_grad): a Tensor or null, not `x` itself, the same dtype, device and
   * size. Any tensor may get one (a non-leaf, one not requiring grad), as in PyTorch. The
   * tensor takes a reference of its own on `g`'s data; the caller's handle stays theirs and
   * is what the next `x.grad` read returns (Note [Reading .grad]).
   */
  set grad(g: Tensor | null) {
    if (g === null || g === undefined) {
      this.impl.autogradMeta?.setGrad(null);
      return;
    }
    if (!(g instanceof Tensor)) {
      throw new TorchTypeError(`assigned grad expected to be a Tensor or None but got grad of type ${jsTypeName(g)}`);
    }
    if (g === this || g.impl === this.impl) throw new TorchError("can't assign Variable as its own grad");
    const gi = g.impl;
    const si = this.impl;
    if (gi.dtype !== si.dtype) {
      throw new TorchError(
        `attempting to assign a gradient with dtype '${gi.dtype}' to a tensor with dtype '${si.dtype}'. Please ensure that the gradient and the tensor have the same dtype`,
      );
    }
    if (gi.device.type !== si.device.type) {
      throw new DeviceError(
        `attempting to assign a gradient with device type '${gi.device.type}' to a tensor with device type '${si.device.type}'. Please ensure that the gradient and the tensor are on the same device`,
      );
    }
    if (gi.device !== si.device) {
      throw new DeviceError(
        `attempting to assign a gradient located on device with index '${gi.device.index}' to a tensor located on device with index '${si.device.index}'. Please ensure that the gradient and the tensor are on the same device`,
      );
    }
    if (gi.sizes.length !== si.sizes.length || gi.sizes.some((n, i) => n !== si.sizes[i])) {
      throw new ShapeError(
        `attempting to assign a gradient of size '${fmtShape(gi.sizes)}' to a tensor of size '${fmtShape(si.sizes)}'. Please ensure that the gradient and the tensor are the same size`,
      );
    }
    const meta = si.ensureAutogradMeta();
    if (meta === null) throw requireAutogradHooks('grad') && new TorchError('grad: autograd registered no meta factory');
    meta.setGrad(gi);
    meta.gradHandle = g;
  }

  get gradFn(): GradFnHandle | null {
    return autogradHooks()?.gradFn(this.impl) ?? null;
  }

  /** Detaches this tensor from its graph in place: it becomes a leaf that does not require grad. */
  detach_(): this {
    autogradHooks()?.detachInplace(this.impl);
    return this;
  }

  get isLeaf(): boolean {
    return autogradHooks()?.isLeaf(this.impl) ?? true;
  }

  /** `x.retains_grad`: whether `retainGrad()` was called on this non-leaf (false for leaves, as PyTorch's). */
  get retainsGrad(): boolean {
    return autogradHooks()?.retainsGrad(this.impl) ?? false;
  }

  /**
   * `backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)`, bound as
   * PyTorch binds it: `y.backward({ retainGraph: true })`, `y.backward(g, { inputs: [x] })`
   * (autograd's Note [autograd's entry points bind their arguments]).
   */
  backward(options?: BackwardOptions & { gradient?: Tensor | null }): void;
  backward(gradient?: Tensor | null, options?: BackwardOptions): void;
  backward(gradient: Tensor | null | undefined, retainGraph: boolean | null, createGraph?: boolean, options?: Pick<BackwardOptions, 'inputs'>): void;
  backward(...args: unknown[]): void {
    const [, gradient, retainGraph, createGraph, inputs] = backwardBinder().bind([this, ...args]);
    // (PyTorch's `_make_grads` words, for a gradient of any other type)
    if (gradient != null && !(gradient instanceof Tensor)) {
      throw new TypeError(`backward: gradients can be either Tensors or null, but got ${Array.isArray(gradient) ? 'Array' : typeof gradient}`);
    }
    requireAutogradHooks('backward').backward(this.impl, gradient ? gradient.impl : null, { retainGraph: retainGraph ?? undefined, createGraph, inputs: inputs == null ? undefined : inputsList(inputs) });
  }

  retainGrad(): void {
    requireAutogradHooks('retainGrad').retainGrad(this.impl);
  }

  /** Calls `hook(grad)` when this tensor's gradient is computed; a returned tensor replaces the gradient. */
  registerHook(hook: (grad: Tensor) => Tensor | void | undefined): { remove(): void } {
    return requireAutogradHooks('registerHook').registerHook(this.impl, hook as (g: unknown) => unknown);
  }

  // ---- reading values ----
  private requireHost(op: string, asyncAlternative: string): TensorImpl {
    const impl = this.impl;
    if (impl.device.type !== 'cpu') {
      throw new DeviceError(
        `${op}: cannot read a tensor on ${impl.device} synchronously; use \`await x.${asyncAlternative}\` instead`,
      );
    }
    return impl;
  }

  /** The logical elements, row-major, as a typed array (16-bit floats decoded to Float32Array; int64 as Float64Array unless `bigint`). */
  dataSync(options: ReadOptions = {}): HostData {
    const impl = this.requireHost('dataSync', 'data()');
    return toHostData('dataSync', impl.dtype, gatherHost(impl), options);
  }

  /** Nested arrays of JS values (bools for bool tensors; a complex element as `[real, imag]`), as `tolist()`. */
  tolist(options: ReadOptions = {}): NestedList {
    const impl = this.requireHost('tolist', 'tolistAsync()');
    return nest(listSizes(impl), toValues('tolist', impl.dtype, gatherHost(impl), options));
  }

  /** The value of a one-element tensor. */
  item(options: ReadOptions = {}): number | bigint | boolean {
    const impl = this.requireHost('item', 'itemAsync()');
    checkItem(impl.numel, impl.dtype);
    return toValues('item', impl.dtype, gatherHost(impl), options)[0];
  }

  // ---- async reads: any device ----
  /**
   * The logical elements, row-major, as a new array of the storage element type. On CPU
   * they are gathered at once (a snapshot taken at the call); a device reads them straight
   * into the array (Note on DeviceReader).
   */
  private async hostValues(op: string): Promise<HostValues> {
    const impl = this.impl;
    refuseBatched(impl);
    if (impl.device.type === 'cpu') return gatherHost(impl);
    if (isComplexType(impl.dtype)) {
      const parts = complexParts(impl);
      try {
        return conjugatedIf(impl, await deviceReader(op, impl.device.type).values(parts, op));
      } finally {
        parts.release();
      }
    }
    return deviceReader(op, impl.device.type).values(impl, op);
  }

  /** The logical elements as a typed array (see `dataSync`), from any device. */
  async data(options: ReadOptions = {}): Promise<HostData> {
    const dtype = this.impl.dtype;
    return toHostData('data', dtype, await this.hostValues('data'), options);
  }

  async tolistAsync(options: ReadOptions = {}): Promise<NestedList> {
    const { dtype } = this.impl;
    return nest(listSizes(this.impl), toValues('tolistAsync', dtype, await this.hostValues('tolistAsync'), options));
  }

  async itemAsync(options: ReadOptions = {}): Promise<number | bigint | boolean> {
    const { dtype, numel } = this.impl;
    checkItem(numel, dtype);
    return toValues('itemAsync', dtype, await this.hostValues('itemAsync'), options)[0];
  }

  toString(): string {
    const impl = this.impl;
    if (impl instanceof SparseTensorImpl) return sparseRepr(impl, this.requiresGrad && this.isLeaf, autogradHooks()?.gradFnName(impl) ?? null);
    const common = {
      shape: impl.sizes,
      dtype: impl.dtype,
      device: String(impl.device),
      defaultDtype: getDefaultDtype(),
      requiresGrad: this.requiresGrad && this.isLeaf,
      gradFnName: autogradHooks()?.gradFnName(impl) ?? null,
    };
    if (impl.device.type === 'cpu') {
      const raw = decodeHost(impl.dtype, gatherHost(impl));
      const values = impl.dtype === 'bool' ? Array.from(raw as Uint8Array, (v) => v !== 0) : raw;
      return formatTensor({ ...common, values });
    }
    if (impl.device.type === 'meta') return formatTensor({ ...common, values: [] });
    // Device memory cannot be read synchronously: say what the tensor is instead.
    return `tensor(<${impl.numel} elements on ${impl.device}; read with await x.data()>, size=${fmtShape(impl.sizes)}, dtype=torch.${impl.dtype})`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.isDisposed ? 'tensor(<disposed>)' : this.toString();
  }
}

/** What `data()` and `dataSync()` return. */
export type HostData = Exclude<HostValues, Uint16Array>;

function toHostData(op: string, dtype: DType, raw: HostValues, options: ReadOptions): HostData {
  const decoded = decodeHost(dtype, raw);
  return decoded instanceof BigInt64Array && !options.bigint ? int64ToNumbers(op, decoded) : decoded;
}

function toValues(op: string, dtype: DType, raw: HostValues, options: ReadOptions): (number | bigint | boolean)[] {
  const decoded = decodeHost(dtype, raw);
  if (dtype === 'bool') return Array.from(decoded as Uint8Array, (v) => v !== 0);
  if (decoded instanceof BigInt64Array) return options.bigint ? Array.from(decoded) : Array.from(int64ToNumbers(op, decoded));
  return Array.from(decoded as Float64Array);
}

function checkItem(numel: number, dtype: DType): void {
  if (numel !== 1) throw new TorchError(`item: a Tensor with ${numel} elements cannot be converted to Scalar`);
  // (JavaScript has no complex number: Note [Complex tensors are pairs of reals])
  if (isComplexType(dtype)) throw new TorchError(`item: a ${dtype} value is not a JS number; read x.real.item() and x.imag.item(), or x.tolist() ([real, imag])`);
}

/** The nesting of tolist(): a complex element is a list of its two parts. */
/** PyTorch's repr of a sparse COO tensor (its members read on the host: sparse tensors live on the CPU). */
function sparseRepr(impl: SparseTensorImpl, requiresGrad: boolean, gradFnName: string | null): string {
  const values = decodeHost(impl.dtype, gatherHost(impl.values));
  return formatSparseCoo({
    shape: impl.sizes,
    dtype: impl.dtype,
    nnz: impl.nnz,
    device: String(impl.device),
    defaultDtype: getDefaultDtype(),
    indices: { shape: impl.indices.sizes, values: gatherHost(impl.indices) as BigInt64Array },
    values: { shape: impl.values.sizes, values: impl.dtype === 'bool' ? Array.from(values as Uint8Array, (v) => v !== 0) : values },
    requiresGrad,
    gradFnName,
  });
}

/** A tensor's memory layout, as `torch.layout`: `torch.strided` or `torch.sparse_coo`. */
export type Layout = 'strided' | 'sparse_coo';

function listSizes(impl: TensorImpl): readonly number[] {
  return isComplexType(impl.dtype) ? [...impl.sizes, 2] : impl.sizes;
}

function int64ToNumbers(op: string, raw: BigInt64Array): Float64Array {
  const out = new Float64Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const v = raw[i];
    const n = Number(v);
    if (!Number.isSafeInteger(n)) {
      throw new TorchError(`${op}: int64 value ${v} cannot be represented exactly as a JS number; pass { bigint: true }`);
    }
    out[i] = n;
  }
  return out;
}

function nest(sizes: readonly number[], flat: (number | bigint | boolean)[]): NestedList {
  if (sizes.length === 0) return flat[0];
  let pos = 0;
  const build = (d: number): NestedList[] => {
    const out: NestedList[] = [];
    for (let i = 0; i < sizes[d]; i++) out.push(d === sizes.length - 1 ? flat[pos++] : build(d + 1));
    return out;
  };
  return build(0);
}

const BACKWARD = 'backward(Tensor self, Any gradient=None, bool? retain_graph=None, bool create_graph=False, Any inputs=None) -> ()';
let backwardArgs: TypedBinder<typeof BACKWARD> | null = null;
/** Tensor.backward's binder, made at its first call (the binder's module imports this one). */
function backwardBinder(): TypedBinder<typeof BACKWARD> {
  return (backwardArgs ??= makeBinder('backward', BACKWARD));
}

/** `inputs`: a Tensor or a list of them (autograd checks each). */
const inputsList = (x: unknown): readonly unknown[] => (Array.isArray(x) ? x : [x]);
