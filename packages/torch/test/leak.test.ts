import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

const ITERATIONS = 10_000;

function counters() {
  const s = torch.memory.stats('cpu');
  return { liveTensors: s.liveTensors, liveStorages: s.liveStorages, liveBytes: s.liveBytes };
}

/**
 * One iteration of work: creates, views and combines tensors and returns every handle it
 * made (the caller disposes them). The values are checked on a few iterations so that the
 * loop cannot silently do nothing.
 */
function work(i: number, made: Tensor[]): Tensor {
  const keep = <T extends Tensor>(t: T): T => {
    made.push(t);
    return t;
  };
  const a = keep(torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float32' }));
  const b = keep(torch.zeros(3, 2));
  const r = keep(torch.arange(6));
  // views
  const at = keep(a.t());
  const av = keep(a.view(3, 2));
  const ap = keep(a.permute(1, 0));
  const row = keep(a.index(1));
  const cols = keep(a.index(':', '1:3'));
  const rt = keep(keep(r.view(2, 3)).transpose(0, 1));
  // combinations
  const s = keep(at.add(av));
  const p = keep(s.mul(2));
  const mm = keep(a.matmul(b.add_(1)));
  const total = keep(mm.sum());
  const e = keep(cols.exp());
  const rowSum = keep(row.sum(0, { keepdim: true }));
  // in place, clone and casts
  const c = keep(ap.clone());
  const col = keep(keep(p.index('...', 0)).unsqueeze(1));
  c.mul_(3).add_(col);
  const d = keep(rt.to('float64'));
  const f = keep(d.contiguous());
  keep(f.sub(1).neg_());
  keep(e.gt(3));
  if (i % 2500 === 0) {
    // the work is real: spot-check values against PyTorch
    expect(total.item()).toBe(42);
    expect(rowSum.tolist()).toEqual([15]);
    expect(f.tolist()).toEqual([
      [0, 3],
      [1, 4],
      [2, 5],
    ]);
    expect(s.tolist()).toEqual([
      [2, 6],
      [5, 9],
      [8, 12],
    ]);
    expect(c.tolist()).toEqual([
      [7, 16],
      [16, 25],
      [25, 34],
    ]);
  }
  return total;
}

describe('no leaks over 10,000 iterations', () => {
  it(
    'creating, viewing, combining and disposing everything each iteration ends where it started',
    () => {
      // warm up (first-call caches), then measure from a clean state
      for (let i = 0; i < 10; i++) tidyDispose(i);
      const start = counters();
      torch.memory.resetPeakStats('cpu');
      for (let i = 0; i < 100; i++) tidyDispose(i);
      const peakEarly = torch.memory.stats('cpu').peakBytes;
      for (let i = 100; i < ITERATIONS; i++) tidyDispose(i);
      const peakLate = torch.memory.stats('cpu').peakBytes;
      expect(counters()).toEqual(start);
      // memory use does not grow with iterations: the peak after 10,000 is the peak after 100
      expect(peakLate).toBe(peakEarly);
      expect(peakEarly - start.liveBytes).toBeGreaterThan(0);
      expect(peakEarly - start.liveBytes).toBeLessThan(4096);
    },
    120_000,
  );

  it(
    'the same work inside tidy releases every temporary',
    () => {
      for (let i = 0; i < 10; i++) tidy(i);
      const start = counters();
      torch.memory.resetPeakStats('cpu');
      for (let i = 0; i < 100; i++) tidy(i);
      const peakEarly = torch.memory.stats('cpu').peakBytes;
      for (let i = 100; i < ITERATIONS; i++) tidy(i);
      expect(counters()).toEqual(start);
      expect(torch.memory.stats('cpu').peakBytes).toBe(peakEarly);
    },
    120_000,
  );

  it(
    'tidy returning a result keeps exactly that result alive',
    () => {
      const start = counters();
      const results: Tensor[] = [];
      for (let i = 0; i < 1000; i++) results.push(torch.tidy(() => work(i, [])));
      const during = counters();
      // each result is a 0-dim float32 sum with its own storage (4 bytes)
      expect(during.liveStorages - start.liveStorages).toBe(1000);
      expect(during.liveBytes - start.liveBytes).toBe(4000);
      expect(results.every((t) => t.item() === 42)).toBe(true);
      for (const t of results) t.dispose();
      expect(counters()).toEqual(start);
    },
    120_000,
  );

  it('one reduction result is one live tensor', () => {
    const x = torch.ones(2, 3);
    const start = counters();
    const results = [x.sum(), x.sum(1), x.amax(0), x.argmax(), x.max(1).values, x.prod(1)];
    expect(counters().liveTensors - start.liveTensors).toBe(results.length + 1); // + max(1).indices
  });

  it('views of disposed bases, reshape copies and failed ops leak nothing over many iterations', () => {
    const start = counters();
    for (let i = 0; i < 2000; i++) {
      const base = torch.arange(24, { dtype: 'float32' });
      const b3 = base.view(2, 3, 4);
      const v = b3.permute(2, 0, 1);
      base.dispose();
      b3.dispose();
      const r = v.reshape(-1); // a copy: v is not viewable as 1-D
      const u = v.unbind(0);
      const parts = v.split(1, 1);
      try {
        v.view(24); // ShapeError
      } catch {
        // expected
      }
      const five = torch.ones(5);
      try {
        torch.add(v, five).dispose(); // ShapeError
      } catch {
        // expected
      }
      try {
        v.add_(1.5).index(0, 0, 99); // IndexError after a successful in-place add
      } catch {
        // expected
      }
      for (const t of [v, r, five, ...u, ...parts]) t.dispose();
    }
    expect(counters()).toEqual(start);
  });
});

function tidyDispose(i: number): void {
  const made: Tensor[] = [];
  work(i, made);
  for (const t of made) t.dispose();
}

function tidy(i: number): void {
  torch.tidy(() => {
    work(i, []);
  });
}
