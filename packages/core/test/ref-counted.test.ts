import { describe, it, expect } from 'vitest';
import { RefCounted, TorchError } from '../src/index';

/** A RefCounted that records every releaseResources call. */
class Resource extends RefCounted {
  releases = 0;
  protected releaseResources(): void {
    this.releases++;
  }
}

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

describe('RefCounted', () => {
  it('is born with one reference, owned by its creator', () => {
    const r = new Resource();
    expect(r.useCount).toBe(1);
    expect(r.isAlive).toBe(true);
    expect(r.releases).toBe(0);
  });

  it('retain adds an owner and returns the object itself', () => {
    const r = new Resource();
    expect(r.retain()).toBe(r);
    expect(r.useCount).toBe(2);
    r.retain().retain();
    expect(r.useCount).toBe(4);
  });

  it('release removes an owner; releaseResources runs exactly once, synchronously, at zero', () => {
    const r = new Resource();
    r.retain();
    r.retain();
    r.release();
    expect(r.useCount).toBe(2);
    expect(r.releases).toBe(0);
    r.release();
    expect(r.useCount).toBe(1);
    expect(r.isAlive).toBe(true);
    expect(r.releases).toBe(0);
    r.release();
    expect(r.useCount).toBe(0);
    expect(r.isAlive).toBe(false);
    expect(r.releases).toBe(1);
  });

  it('retain() and release() of a dead object throw a TorchError naming the class, and free nothing again', () => {
    const r = new Resource();
    r.release();
    const e1 = thrown(() => r.retain());
    expect(e1).toBeInstanceOf(TorchError);
    expect(e1.message).toBe('Resource: retain() of an object already released');
    const e2 = thrown(() => r.release());
    expect(e2).toBeInstanceOf(TorchError);
    expect(e2.message).toBe('Resource: release() of an object already released');
    expect(r.releases).toBe(1);
    expect(r.useCount).toBe(0);
    expect(r.isAlive).toBe(false);
  });

  it('balanced retain/release pairs from many owners end in exactly one free', () => {
    const r = new Resource();
    for (let i = 0; i < 1000; i++) r.retain();
    expect(r.useCount).toBe(1001);
    for (let i = 0; i < 1000; i++) r.release();
    expect(r.releases).toBe(0);
    r.release();
    expect(r.releases).toBe(1);
  });

  it('a releaseResources that releases what it owns cascades in order', () => {
    const order: string[] = [];
    class Owner extends RefCounted {
      constructor(readonly child: RefCounted) {
        super();
        child.retain();
      }
      protected releaseResources(): void {
        order.push('owner');
        this.child.release();
      }
    }
    class Leaf extends RefCounted {
      protected releaseResources(): void {
        order.push('leaf');
      }
    }
    const leaf = new Leaf();
    const owner = new Owner(leaf);
    leaf.release(); // the creator's reference; the owner keeps it alive
    expect(leaf.isAlive).toBe(true);
    expect(leaf.useCount).toBe(1);
    owner.release();
    expect(order).toEqual(['owner', 'leaf']);
    expect(leaf.isAlive).toBe(false);
  });
});
