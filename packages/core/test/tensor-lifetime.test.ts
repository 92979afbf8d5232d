import { describe, it, expect, beforeAll } from 'vitest';
import {
  ShapeError,
  Tensor,
  TorchError,
  add,
  emptyStats,
  empty,
  keep,
  liveCounts,
  memoryStats,
  registerAllocator,
  tensor,
  tidy,
  type Allocator,
  type AllocatorStats,
  type DataPtr,
  type Device,
  type DType,
} from '../src/index';

/**
 * A CPU allocator without kernels: enough for `tensor(..., { dtype: 'float64' })` (built on the
 * host, no copy kernel needed), views, and reading values back, so storage lifetime can be
 * observed on real data. It counts live bytes and records frees.
 */
class TestAllocator implements Allocator {
  readonly deviceType = 'cpu' as const;
  readonly s: AllocatorStats = emptyStats();
  frees = 0;
  allocate(nbytes: number, device: Device): DataPtr {
    this.s.allocatedBytes += nbytes;
    this.s.peakAllocatedBytes = Math.max(this.s.peakAllocatedBytes, this.s.allocatedBytes);
    this.s.allocations++;
    return {
      data: { buffer: new ArrayBuffer(nbytes), byteOffset: 0, byteLength: nbytes },
      context: nbytes,
      device,
      deleter: (n) => {
        this.s.allocatedBytes -= n as number;
        this.s.frees++;
        this.frees++;
      },
    };
  }
  stats(): AllocatorStats {
    return { ...this.s };
  }
  resetPeakStats(): void {
    this.s.peakAllocatedBytes = this.s.allocatedBytes;
  }
}
const alloc = new TestAllocator();
beforeAll(() => registerAllocator(alloc));

const m = (shape: number[], dtype: DType = 'float32'): Tensor => empty(shape, { dtype, device: 'meta' });
const liveMeta = () => liveCounts('meta').tensors;
const f64 = (data: number[] | number[][]) => tensor(data, { dtype: 'float64' });

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

describe('dispose', () => {
  it('releases the handle now and is idempotent', () => {
    const n = liveMeta();
    const x = m([2, 3]);
    expect(liveMeta()).toBe(n + 1);
    expect(x.isDisposed).toBe(false);
    x.dispose();
    expect(x.isDisposed).toBe(true);
    expect(liveMeta()).toBe(n);
    x.dispose();
    x[Symbol.dispose]();
    expect(liveMeta()).toBe(n);
  });

  it('frees CPU memory at once when the last owner goes', () => {
    const bytes = memoryStats('cpu').liveBytes;
    const frees = alloc.frees;
    const x = f64([1, 2, 3]);
    expect(memoryStats('cpu').liveBytes).toBe(bytes + 24);
    x.dispose();
    expect(alloc.frees).toBe(frees + 1);
    expect(memoryStats('cpu').liveBytes).toBe(bytes);
  });

  it('using a disposed tensor throws a TorchError that says it was disposed', () => {
    const x = m([2, 3]);
    const y = m([2, 3]);
    x.dispose();
    const uses: (() => unknown)[] = [
      () => x.shape,
      () => x.dtype,
      () => x.size(),
      () => x.stride(),
      () => x.numel(),
      () => x.version,
      () => String(x),
      () => x.add(1),
      () => add(y, x),
      () => x.view(6),
      () => x.sum(),
      () => x.dataSync(),
    ];
    for (const use of uses) {
      const e = thrown(use);
      expect(e).toBeInstanceOf(TorchError);
      expect(e.message).toMatch(/disposed/);
    }
    // y was not harmed by the failed call
    expect(y.isDisposed).toBe(false);
    expect(y.shape).toEqual([2, 3]);
  });

  it('`using` disposes at the end of the scope, also when the scope throws', () => {
    const n = liveMeta();
    let escaped: Tensor | null = null;
    {
      using x = m([4]);
      escaped = x;
      expect(x.isDisposed).toBe(false);
      expect(liveMeta()).toBe(n + 1);
    }
    expect(escaped.isDisposed).toBe(true);
    expect(liveMeta()).toBe(n);
    const run = () => {
      using y = m([4]);
      escaped = y;
      throw new Error('boom');
    };
    expect(run).toThrow('boom');
    expect(escaped.isDisposed).toBe(true);
    expect(liveMeta()).toBe(n);
  });
});

describe('views and storage lifetime', () => {
  it('a view keeps the base storage alive after the base handle is disposed', () => {
    const bytes = memoryStats('cpu').liveBytes;
    const frees = alloc.frees;
    const base = f64([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const v = base.t();
    const row = base.select(0, 1);
    base.dispose();
    expect(alloc.frees).toBe(frees);
    expect(memoryStats('cpu').liveBytes).toBe(bytes + 48);
    expect(v.tolist()).toEqual([
      [1, 4],
      [2, 5],
      [3, 6],
    ]);
    v.dispose();
    expect(row.tolist()).toEqual([4, 5, 6]);
    expect(alloc.frees).toBe(frees);
    row.dispose();
    expect(alloc.frees).toBe(frees + 1);
    expect(memoryStats('cpu').liveBytes).toBe(bytes);
  });

  it('disposing a view never frees the storage of a live base', () => {
    const frees = alloc.frees;
    const base = f64([1, 2, 3, 4]);
    for (let i = 0; i < 5; i++) base.view(2, 2).dispose();
    base.index('1:3').dispose();
    expect(alloc.frees).toBe(frees);
    expect(base.tolist()).toEqual([1, 2, 3, 4]);
    base.dispose();
    expect(alloc.frees).toBe(frees + 1);
  });

  it('the version counter is shared by a tensor and its views and bumped by in-place ops only', () => {
    const x = m([2, 3]);
    const v = x.view(3, 2);
    const s = x.select(0, 1);
    expect([x.version, v.version, s.version]).toEqual([0, 0, 0]);
    x.add(1).dispose();
    x.mul(2).dispose();
    expect(x.version).toBe(0);
    x.add_(1);
    expect([x.version, v.version, s.version]).toEqual([1, 1, 1]);
    v.mul_(2);
    s.fill_(0);
    expect([x.version, v.version, s.version]).toEqual([3, 3, 3]);
    x.zero_();
    expect(v.version).toBe(4);
    // a copy has its own counter
    const c = x.clone();
    expect(c.version).toBe(0);
    c.add_(1);
    expect([c.version, x.version]).toEqual([1, 4]);
  });

  it('an in-place op that fails does not bump the version', () => {
    const x = m([2, 3], 'int64');
    expect(() => x.add_(1.5)).toThrow(TorchError);
    expect(() => x.add_(m([4]))).toThrow(ShapeError);
    expect(x.version).toBe(0);
  });
});

describe('tidy', () => {
  it('disposes intermediates and keeps the returned tensor', () => {
    const n = liveMeta();
    const outer = m([2, 3]);
    let inner: Tensor[] = [];
    const r = tidy(() => {
      const a = outer.add(1);
      const b = a.mul(2);
      const c = b.view(6);
      inner = [a, b];
      return c;
    });
    expect(inner.every((t) => t.isDisposed)).toBe(true);
    expect(r.isDisposed).toBe(false);
    expect(r.shape).toEqual([6]);
    expect(outer.isDisposed).toBe(false); // made before the scope: never touched
    // live TensorImpls: outer, r, and b's TensorImpl, which r (a view) retains as its base
    expect(liveMeta()).toBe(n + 3);
    r.dispose();
    expect(liveMeta()).toBe(n + 1);
    outer.dispose();
    expect(liveMeta()).toBe(n);
  });

  it('keeps every tensor reachable from an array, a plain object or a Map result', () => {
    const n = liveMeta();
    let temp: Tensor | null = null;
    const r = tidy(() => {
      temp = m([1]);
      const a = m([2]);
      const b = m([3]);
      const c = m([4]);
      const d = m([5]);
      return { list: [a, [b]], nested: { c }, map: new Map([['d', d]]), n: 1 };
    });
    expect(temp!.isDisposed).toBe(true);
    const kept = [r.list[0] as Tensor, (r.list[1] as Tensor[])[0], r.nested.c, r.map.get('d')!];
    expect(kept.map((t) => t.shape[0])).toEqual([2, 3, 4, 5]);
    expect(kept.every((t) => !t.isDisposed)).toBe(true);
    expect(r.n).toBe(1);
    expect(liveMeta()).toBe(n + 4);
    for (const t of kept) t.dispose();
    expect(liveMeta()).toBe(n);
  });

  it('returns non-tensor results as they are', () => {
    const n = liveMeta();
    expect(tidy(() => m([3]).numel())).toBe(3);
    expect(tidy(() => undefined)).toBeUndefined();
    expect(liveMeta()).toBe(n);
  });

  it('nested: the inner result moves to the outer scope, which disposes it unless returned', () => {
    const n = liveMeta();
    let innerResult: Tensor | null = null;
    let innerTemp: Tensor | null = null;
    const r = tidy(() => {
      innerResult = tidy(() => {
        innerTemp = m([2]);
        return m([3]);
      });
      expect(innerTemp!.isDisposed).toBe(true);
      expect(innerResult.isDisposed).toBe(false);
      return tidy(() => innerResult!.add(1));
    });
    expect(innerResult!.isDisposed).toBe(true);
    expect(r.isDisposed).toBe(false);
    expect(r.shape).toEqual([3]);
    r.dispose();
    expect(liveMeta()).toBe(n);
  });

  it('on a throw: disposes what the scope made, rethrows, and leaves the scope stack as it was', () => {
    const n = liveMeta();
    let made: Tensor | null = null;
    const boom = new TorchError('boom');
    expect(() =>
      tidy(() => {
        made = m([2]);
        throw boom;
      }),
    ).toThrow(boom);
    expect(made!.isDisposed).toBe(true);
    expect(liveMeta()).toBe(n);
    // a tensor made after the failed tidy belongs to no scope: a later tidy does not touch it
    const after = m([2]);
    tidy(() => m([1]).numel());
    expect(after.isDisposed).toBe(false);
    after.dispose();
    // inside an outer tidy, a failed inner tidy leaves the outer scope working
    let outerTemp: Tensor | null = null;
    const r = tidy(() => {
      outerTemp = m([1]);
      try {
        tidy(() => {
          m([5]);
          throw new Error('inner');
        });
      } catch {
        // expected
      }
      return m([7]);
    });
    expect(outerTemp!.isDisposed).toBe(true);
    expect(r.shape).toEqual([7]);
    r.dispose();
    expect(liveMeta()).toBe(n);
  });

  it('a failing op inside tidy leaks nothing', () => {
    const n = liveMeta();
    expect(() => tidy(() => m([2, 3]).add(m([4])))).toThrow(ShapeError);
    expect(liveMeta()).toBe(n);
  });

  it('refuses an async function: a scope cannot span an await', () => {
    const n = liveMeta();
    let made: Tensor | null = null;
    const e = thrown(() =>
      tidy(async () => {
        made = m([1]); // runs synchronously, inside the scope
        return made;
      }),
    );
    expect(e).toBeInstanceOf(TorchError);
    expect(e.message).toMatch(/^tidy: .*Promise/);
    expect(made!.isDisposed).toBe(true);
    expect(liveMeta()).toBe(n);
  });

  it('keep() saves a tensor from every enclosing scope', () => {
    const n = liveMeta();
    let saved: Tensor | null = null;
    tidy(() => {
      tidy(() => {
        saved = keep(m([2]));
        m([3]);
      });
      m([4]);
    });
    expect(saved!.isDisposed).toBe(false);
    expect(liveMeta()).toBe(n + 1);
    saved!.dispose();
    expect(liveMeta()).toBe(n);
  });

  it('a tensor disposed by hand inside tidy is not disposed twice', () => {
    const n = liveMeta();
    const r = tidy(() => {
      const a = m([2]);
      a.dispose();
      const b = m([2]);
      return b.add(1);
    });
    expect(liveMeta()).toBe(n + 1);
    r.dispose();
    expect(liveMeta()).toBe(n);
  });

  it('tidy over CPU data frees intermediate storage and keeps the result readable', () => {
    const bytes = memoryStats('cpu').liveBytes;
    const r = tidy(() => {
      const a = f64([1, 2, 3, 4, 5, 6]);
      const b = f64([9, 9]);
      b.numel();
      return a.view(2, 3).t();
    });
    expect(memoryStats('cpu').liveBytes).toBe(bytes + 48);
    expect(r.tolist()).toEqual([
      [1, 4],
      [2, 5],
      [3, 6],
    ]);
    r.dispose();
    expect(memoryStats('cpu').liveBytes).toBe(bytes);
  });
});
