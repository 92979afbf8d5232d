import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

/**
 * Autograd and memory: a training loop stays flat over 10,000 iterations, a graph dropped
 * without backward frees everything, saved tensors are freed by backward (and kept with
 * retainGraph), and a 100,000-op chain backwards and drops without overflowing the stack.
 * Values from PyTorch 1.13 (same deterministic initialisation).
 */

function counters() {
  const s = torch.memory.stats('cpu');
  return { liveTensors: s.liveTensors, liveBytes: s.liveBytes, liveStorages: s.liveStorages };
}

/** A small MLP with a deterministic initialisation (the same as the PyTorch reference script). */
function mlp() {
  const init = () => {
    const w1 = torch.arange(32, { dtype: 'float32' }).sin().mul(0.5).reshape(4, 8).clone();
    const b1 = torch.arange(8, { dtype: 'float32' }).cos().mul(0.1);
    const w2 = torch.arange(16, { dtype: 'float32' }).cos().mul(0.5).reshape(8, 2).clone();
    const b2 = torch.tensor([0.25, -0.5], { dtype: 'float32' });
    const x = torch.arange(32, { dtype: 'float32' }).mul(0.1).sin().reshape(8, 4).clone();
    return [w1, b1, w2, b2, x];
  };
  const [w1, b1, w2, b2, x] = torch.tidy(init);
  const params = [w1, b1, w2, b2].map((p) => p.requiresGrad_());
  /** forward (matmul, add, tanh, matmul, add, square-sum), backward, SGD under noGrad, zero grads. */
  const step = (): number => {
    const loss = torch.tidy(() => {
      const h = x.matmul(w1).add(b1).tanh();
      const o = h.matmul(w2).add(b2);
      return o.mul(o).sum().mul(0.01);
    });
    loss.backward();
    const value = loss.item() as number;
    loss.dispose();
    torch.tidy(() =>
      torch.noGrad(() => {
        for (const p of params) {
          const g = p.grad!;
          p.sub_(g.mul(0.1));
          g.zero_();
        }
      }),
    );
    return value;
  };
  const dispose = () => [w1, b1, w2, b2, x].forEach((t) => t.dispose());
  return { params, step, dispose, w2, b2 };
}

describe('a training loop does not grow', () => {
  it(
    '10,000 iterations of forward, backward, SGD under noGrad and zeroing keep liveTensors and liveBytes flat',
    () => {
      const start = counters();
      const net = mlp();
      // PyTorch: loss at step 0 = 0.027713311836123466, step 1 = 0.025562696158885956
      const l0 = net.step();
      expect(l0).toBeCloseTo(0.027713311836123466, 6);
      const l1 = net.step();
      expect(l1).toBeCloseTo(0.025562696158885956, 6);
      for (let i = 2; i < 50; i++) net.step(); // warm-up
      const warm = counters();
      let l100 = 0;
      for (let i = 50; i < 10000; i++) {
        const l = net.step();
        if (i === 100) l100 = l;
        if (i % 2000 === 0) expect(counters()).toEqual(warm);
      }
      const end = counters();
      expect(end).toEqual(warm);
      // the loop really trained: PyTorch's loss at step 100 is 0.0005510573973879218
      expect(l100).toBeCloseTo(0.0005510573973879218, 5);
      const last = net.step();
      expect(last).toBeLessThan(1e-6);
      net.dispose();
      expect(counters()).toEqual(start);
    },
  );

  it('the first backward fills .grad with PyTorch\'s values', () => {
    // w2.grad.flatten()[:4] and b2.grad at step 0
    const net = mlp();
    const loss = torch.tidy(() => {
      const [w1, b1, w2, b2] = net.params;
      const x = torch.arange(32, { dtype: 'float32' }).mul(0.1).sin().reshape(8, 4);
      const o = x.matmul(w1).add(b1).tanh().matmul(w2).add(b2);
      return o.mul(o).sum().mul(0.01);
    });
    loss.backward();
    loss.dispose();
    const gw2 = torch.tidy(() => net.w2.grad!.flatten().tolist() as number[]);
    const expected = [0.0019588039722293615, -0.0031756225507706404, 0.004519772250205278, -0.008555585518479347];
    expected.forEach((e, i) => expect(gw2[i]).toBeCloseTo(e, 7));
    const gb2 = torch.tidy(() => net.b2.grad!.tolist() as number[]);
    expect(gb2[0]).toBeCloseTo(0.04227019101381302, 6);
    expect(gb2[1]).toBeCloseTo(-0.083947092294693, 6);
    net.dispose();
  });
});

describe('graphs dropped without backward', () => {
  it('disposing every output of a graph frees all of it', () => {
    const start = counters();
    const x = torch.tensor([[0.5, 1.5], [2.5, -1.0]], { dtype: 'float32', requiresGrad: true });
    const w = torch.tensor([[1.0, -1.0], [0.5, 2.0]], { dtype: 'float32', requiresGrad: true });
    const afterLeaves = counters();
    const outs: Tensor[] = [];
    const keep = <T extends Tensor>(t: T): T => {
      outs.push(t);
      return t;
    };
    const a = keep(x.mm(w));
    const b = keep(a.exp());
    const c = keep(b.mul(a));
    const d = keep(c.t());
    const e = keep(d.sigmoid());
    const f = keep(e.sum(0));
    const g = keep(f.mul(keep(x.index(0))));
    expect(g.requiresGrad).toBe(true);
    expect(counters().liveTensors).toBeGreaterThan(afterLeaves.liveTensors);
    for (const t of outs) t.dispose();
    expect(counters()).toEqual(afterLeaves);
    x.dispose();
    w.dispose();
    expect(counters()).toEqual(start);
  });

  it('intermediates disposed early are kept by the graph until the last output goes', () => {
    const x = torch.tensor([0.5, 1.5, 2.5], { dtype: 'float32', requiresGrad: true });
    const before = counters();
    const h = x.exp(); // saved by ExpBackward0 (as its result)
    const y = h.sin(); // SinBackward0 saves h
    h.dispose();
    expect(counters().liveBytes).toBeGreaterThan(before.liveBytes); // h's data lives on in the graph
    y.dispose();
    expect(counters()).toEqual(before);
  });

  it('a graph with retained grads and hooks, dropped without backward, frees everything', () => {
    const x = torch.tensor([0.5, 1.5], { dtype: 'float32', requiresGrad: true });
    const before = counters();
    const h = x.mul(3);
    h.retainGrad();
    h.registerHook((g) => g.mul(2));
    const y = h.exp();
    y.gradFn!.registerPrehook(() => undefined);
    h.dispose();
    y.dispose();
    expect(counters()).toEqual(before);
  });
});

describe('saved tensors and backward', () => {
  /** x [10] (requires grad) times a constant [100, 10], exp (saves its 4,000-byte result), sum. */
  function graph() {
    const x = torch.tensor([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.1], { dtype: 'float32', requiresGrad: true });
    const w = torch.ones([100, 10], { dtype: 'float32' });
    const start = counters();
    const h = x.mul(w); // [100, 10]; MulBackward0 saves x and w, both alive anyway
    const e = h.exp(); // ExpBackward0 saves e (4,000 bytes)
    const l = e.sum();
    h.dispose();
    e.dispose();
    return { x, w, l, start };
  }

  it('a backward without retainGraph frees them: live bytes drop', () => {
    const { x, w, l, start } = graph();
    const built = counters();
    // h was freed (not saved); e's 4,000 bytes and l's 4 are held by the graph
    expect(built.liveBytes).toBe(start.liveBytes + 4000 + 4);
    l.backward();
    const after = counters();
    // e's data is gone; x.grad (40 bytes) is new
    expect(after.liveBytes).toBe(start.liveBytes + 4 + 40);
    const g = x.grad!;
    // d/dx_j sum_i exp(x_j) = 100 exp(x_j)
    expect((g.tolist() as number[])[0]).toBeCloseTo(100 * Math.exp(0.1), 3);
    g.dispose();
    l.dispose();
    expect(counters().liveBytes).toBe(start.liveBytes + 40);
    x.dispose();
    w.dispose();
  });

  it('with retainGraph they stay until the graph is dropped, and a second backward works', () => {
    const { x, w, l, start } = graph();
    l.backward(undefined, { retainGraph: true });
    expect(counters().liveBytes).toBe(start.liveBytes + 4000 + 4 + 40);
    l.backward();
    const g = x.grad!;
    expect((g.tolist() as number[])[9]).toBeCloseTo(200 * Math.exp(1.1), 2);
    g.dispose();
    expect(counters().liveBytes).toBe(start.liveBytes + 4 + 40);
    l.dispose();
    expect(counters().liveBytes).toBe(start.liveBytes + 40);
    x.dispose();
    w.dispose();
  });

  it('autograd.grad frees them too, and its results are the only new tensors', () => {
    const { x, w, l, start } = graph();
    const [g] = torch.autograd.grad(l, x);
    expect(counters().liveBytes).toBe(start.liveBytes + 4 + 40);
    expect(x.grad).toBeNull();
    g!.dispose();
    l.dispose();
    expect(counters()).toEqual(start);
    x.dispose();
    w.dispose();
  });
});

describe('a 100,000-op chain', () => {
  const N = 100_000;

  it('backwards without a stack overflow and gives 1.00001 ** 100000 (float64)', () => {
    // PyTorch: x.grad = 2.718268237192295
    const start = counters();
    const x = torch.tensor([1.0], { dtype: 'float64', requiresGrad: true });
    let y: Tensor = x;
    for (let i = 0; i < N; i++) {
      const next = y.mul(1.00001);
      if (y !== x) y.dispose();
      y = next;
    }
    expect(y.item()).toBeCloseTo(2.718268237192295, 9);
    y.backward();
    const g = x.grad!;
    expect(g.item()).toBeCloseTo(2.718268237192295, 9);
    expect(g.item()).toBeCloseTo(1.00001 ** N, 9);
    g.dispose();
    y.dispose();
    x.dispose();
    expect(counters()).toEqual(start);
  });

  it('dropping it without backward does not overflow the stack and frees everything', () => {
    const start = counters();
    const x = torch.tensor([1.0], { dtype: 'float64', requiresGrad: true });
    let y: Tensor = x;
    for (let i = 0; i < N; i++) {
      const next = y.mul(x); // both operands require grad: each MulBackward0 saves its `self`
      if (y !== x) y.dispose();
      y = next;
    }
    // the saved inputs of the 100,000 nodes are alive through the graph
    expect(counters().liveTensors).toBeGreaterThan(start.liveTensors + N / 2);
    expect(() => y.dispose()).not.toThrow();
    expect(counters().liveTensors).toBe(start.liveTensors + 1); // x only
    x.dispose();
    expect(counters()).toEqual(start);
  });

  it('a 100,000-op chain through autograd.grad with a retained graph, then dropped', () => {
    const start = counters();
    const x = torch.tensor([1.0], { dtype: 'float64', requiresGrad: true });
    let y: Tensor = x;
    for (let i = 0; i < N; i++) {
      const next = y.add(0.5);
      if (y !== x) y.dispose();
      y = next;
    }
    expect(y.item()).toBe(1 + N * 0.5);
    const [g1] = torch.autograd.grad(y, x, { retainGraph: true });
    const [g2] = torch.autograd.grad(y, x);
    expect(g1!.item()).toBe(1);
    expect(g2!.item()).toBe(1);
    g1!.dispose();
    g2!.dispose();
    y.dispose();
    x.dispose();
    expect(counters()).toEqual(start);
  });
});
