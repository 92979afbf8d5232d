import { TorchError } from '../errors';

/**
 * Note [RefCounted invariants]
 * An object that owns a resource (a storage's memory, a tensor's storage reference) counts
 * its owners itself, as c10's intrusive_ptr_target does:
 *  - it is born with a count of one, owned by whoever constructed it;
 *  - every additional owner calls `retain()` and, when done, `release()` exactly once;
 *  - the release that takes the count to zero calls `releaseResources()` synchronously, so
 *    memory returns to its allocator at that moment (observable in `memory.stats`);
 *  - after that the object is dead: `retain()` or `release()` on it is a TorchError, never a
 *    double free.
 * JavaScript's GC cannot free device memory in time and never runs `releaseResources()` of a
 * cycle promptly; a FinalizationRegistry on the user-facing handles (Tensor) is only the
 * safety net for handles nobody disposed.
 */
export abstract class RefCounted {
  private refs = 1;

  get useCount(): number {
    return this.refs;
  }

  get isAlive(): boolean {
    return this.refs > 0;
  }

  retain(): this {
    if (this.refs <= 0) throw new TorchError(`${this.constructor.name}: retain() of an object already released`);
    this.refs++;
    return this;
  }

  release(): void {
    if (this.refs <= 0) throw new TorchError(`${this.constructor.name}: release() of an object already released`);
    if (--this.refs === 0) this.releaseResources();
  }

  /** Frees what this object owns; called once, when the count reaches zero. */
  protected abstract releaseResources(): void;
}
