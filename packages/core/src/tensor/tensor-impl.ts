import { isComplexType, typeMeta, type DType } from '../dtype';
import type { Device } from '../device';
import { autogradKeyOf, backendKeyOf, DispatchKey } from '../dispatch/dispatch-key';
import { DispatchKeySet } from '../dispatch/dispatch-key-set';
import { isInferenceModeEnabled } from '../dispatch/local-state';
import { liveCounts } from '../memory/live-counts';
import { RefCounted } from '../memory/ref-counted';
import type { AllocateOptions } from '../memory/allocator';
import { TorchError } from '../errors';
import { StorageImpl } from '../memory/storage-impl';
import { contiguousStrides, isContiguous } from '../views';
import { autogradMetaFactory, type AutogradMetaInterface } from './autograd-interface';

/**
 * The version counter of a storage's data, shared by a tensor and all its views: every
 * in-place op bumps it, and autograd compares it with the version a saved tensor had.
 */
export class VersionCounter {
  version = 0;
  /** Whether the data was made in inference mode (Note [Inference tensors]). */
  readonly inference: boolean = isInferenceModeEnabled();
  bump(): void {
    this.version++;
  }
}

/**
 * The product of `sizes`, refused past 2^53, where it stops being an exact JS number (as
 * PyTorch refuses an int64 overflow): a view such as `ones([1]).expand([2**31, 2**31,
 * 2**31])` would otherwise be a tensor whose reductions never end.
 */
function checkedNumel(sizes: readonly number[]): number {
  let n = 1;
  for (const s of sizes) n *= s;
  if (n > Number.MAX_SAFE_INTEGER) throw new TorchError(`numel: integer multiplication overflow (sizes [${sizes.join(', ')}])`);
  return n;
}

/**
 * Note [TensorImpl ownership]
 * A TensorImpl is one logical tensor: a window (sizes, strides, storage offset, in
 * elements) onto a StorageImpl, a dtype and a device. It holds one reference on its storage;
 * a view is a new TensorImpl retaining the same storage and sharing the version counter.
 * TensorImpl is refcounted itself: a Tensor handle owns one reference, and so does anything
 * else that keeps the tensor (autograd's saved tensors, a `.grad`). The storage is
 * released when the last TensorImpl viewing it dies, never before, so disposing a view never
 * frees its base's memory.
 */
export class TensorImpl extends RefCounted {
  readonly numel: number;
  readonly isContiguous: boolean;
  readonly keySet: DispatchKeySet;
  autogradMeta: AutogradMetaInterface | null = null;
  /** For a view: the TensorImpl it was made from (autograd's view tracking uses it). */
  readonly base: TensorImpl | null;
  /**
   * The conjugate bit (Note [The conjugate bit], ops/conjugate.ts): the values are the
   * conjugates of what the storage holds. Set only on complex views, made by `_conj`.
   */
  readonly isConj: boolean;

  constructor(
    readonly storage: StorageImpl,
    readonly sizes: readonly number[],
    readonly strides: readonly number[],
    readonly storageOffset: number,
    readonly dtype: DType,
    readonly device: Device,
    readonly version: VersionCounter,
    base: TensorImpl | null = null,
    isConj = false,
  ) {
    super();
    const n = checkedNumel(sizes);
    storage.retain();
    this.numel = n;
    this.isContiguous = isContiguous(sizes, strides);
    const backend = backendKeyOf(device.type);
    this.isConj = isConj;
    this.keySet = keySetFor(backend, isComplexType(dtype), isConj);
    this.base = base ? (base.base ?? base) : null;
    this.base?.retain();
    liveCounts(device.type).tensors++;
  }

  /** A new contiguous tensor with fresh storage on `device`; `options.uninitialized`: Note [Uninitialized outputs]. */
  static empty(op: string, sizes: readonly number[], dtype: DType, device: Device, options?: AllocateOptions): TensorImpl {
    const n = checkedNumel(sizes);
    const storage = StorageImpl.allocate(op, n * typeMeta(dtype).itemSize, device, options);
    const impl = new TensorImpl(storage, sizes, contiguousStrides(sizes), 0, dtype, device, new VersionCounter());
    storage.release(); // the TensorImpl holds its own reference
    return impl;
  }

  /**
   * A new tensor with the given strides (a permutation of a dense layout) and fresh storage;
   * `options.uninitialized`: Note [Uninitialized outputs].
   */
  static emptyStrided(
    op: string,
    sizes: readonly number[],
    strides: readonly number[],
    dtype: DType,
    device: Device,
    options?: AllocateOptions,
  ): TensorImpl {
    let extent = 1;
    let empty = false;
    for (let d = 0; d < sizes.length; d++) {
      if (sizes[d] === 0) empty = true;
      extent += (sizes[d] - 1) * strides[d];
    }
    const storage = StorageImpl.allocate(op, empty ? 0 : extent * typeMeta(dtype).itemSize, device, options);
    const impl = new TensorImpl(storage, sizes, strides, 0, dtype, device, new VersionCounter());
    storage.release();
    return impl;
  }

  /** A view of this tensor's storage with other geometry; shares the version counter. */
  view(sizes: readonly number[], strides: readonly number[], storageOffset: number): TensorImpl {
    return new TensorImpl(this.storage, sizes, strides, storageOffset, this.dtype, this.device, this.version, this, this.isConj);
  }

  /** The same window with the conjugate bit flipped, a view (`_conj`'s kernel; a complex tensor only). */
  conjugateView(): TensorImpl {
    return new TensorImpl(this.storage, this.sizes, this.strides, this.storageOffset, this.dtype, this.device, this.version, this, !this.isConj);
  }

  /** A view in another dtype of the same storage (Note [Complex tensors are pairs of reals]). */
  viewAsDtype(dtype: DType, sizes: readonly number[], strides: readonly number[], storageOffset: number): TensorImpl {
    return new TensorImpl(this.storage, sizes, strides, storageOffset, dtype, this.device, this.version, this);
  }

  /**
   * The same data under other geometry, NOT a view of this TensorImpl: for an op that built
   * its result under an internal shape (a reduction's keepdim shape) and returns it reshaped.
   * The result shares storage and version counter and has this tensor's base (if any).
   */
  regeometried(sizes: readonly number[], strides: readonly number[], storageOffset: number): TensorImpl {
    return new TensorImpl(this.storage, sizes, strides, storageOffset, this.dtype, this.device, this.version, this.base, this.isConj);
  }

  /**
   * Note [In-place view ops]
   * `x.t_()`, `x.transpose_(0, 1)`, `x.squeeze_()`, `x.unsqueeze_(1)`, `x.asStrided_(...)`
   * change the geometry of the tensor they are called on, as PyTorch's do
   * (`set_sizes_and_strides` on the TensorImpl itself): this method, called only by their
   * kernels (ops/views.ts `defineInplaceView`), replaces this TensorImpl's window onto its
   * storage. Everything else stays: the storage (no reference moves), the version counter
   * (ADInplaceOrView bumps it, as for every op that writes `Tensor(a!)`), `base`, the
   * autograd meta, and so every holder of this TensorImpl, not only the handle the user
   * called the op on, sees the new layout: a `.grad` handle sharing its TensorImpl with the
   * meta, a view whose `base` this is, a saved tensor (which the version bump invalidates, as
   * in PyTorch). The alternative, the handle taking a new TensorImpl, would split those holders
   * between two tensors and need the meta moved; nothing is allocated or freed here, so the
   * refcounts and the live-tensor counts are untouched.
   * The geometry arrays are replaced, never written: a Node or a kernel that kept the old
   * `sizes` (an autograd InputInfo) keeps the old layout. Backend kernels read the geometry
   * when they are called (WebGPU encodes it into the launch), not later, and so does an async
   * read (`x.toAsync('cpu')` takes it before its copy lands).
   */
  setGeometry(sizes: readonly number[], strides: readonly number[], storageOffset: number): void {
    const numel = checkedNumel(sizes);
    // (the fields are readonly to everyone else: Note [In-place view ops])
    const w = this as { -readonly [K in 'sizes' | 'strides' | 'storageOffset' | 'numel' | 'isContiguous']: TensorImpl[K] };
    w.sizes = [...sizes];
    w.strides = [...strides];
    w.storageOffset = storageOffset;
    w.numel = numel;
    w.isContiguous = isContiguous(sizes, strides);
  }

  get dim(): number {
    return this.sizes.length;
  }

  get itemSize(): number {
    return typeMeta(this.dtype).itemSize;
  }

  /** The autograd meta, created on first need by the registered factory (null without autograd). */
  ensureAutogradMeta(): AutogradMetaInterface | null {
    if (!this.autogradMeta) {
      const f = autogradMetaFactory();
      if (f) this.autogradMeta = f(this);
    }
    return this.autogradMeta;
  }

  protected releaseResources(): void {
    const meta = this.autogradMeta;
    this.autogradMeta = null;
    meta?.release();
    this.storage.release();
    this.base?.release();
    liveCounts(this.device.type).tensors--;
  }
}

const keySets: DispatchKeySet[] = [];
function keySetFor(backend: DispatchKey, complex: boolean, conj: boolean): DispatchKeySet {
  const i = 4 * backend + (complex ? 1 : 0) + (conj ? 2 : 0);
  if (keySets[i]) return keySets[i];
  let s = DispatchKeySet.of(backend, DispatchKey.ADInplaceOrView, autogradKeyOf(backend));
  if (complex) s = s.add(DispatchKey.Complex);
  if (conj) s = s.add(DispatchKey.Conjugate);
  return (keySets[i] = s);
}
