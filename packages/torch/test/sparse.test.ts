import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { NotImplementedError, TorchError, type Tensor } from '@torch-ts/core';
import golden from './goldens/sparse.json';
import { thrown } from './helpers';

const { nn, optim } = torch;

interface G {
  shape: number[];
  dtype: string;
  values: number[];
}

const fromG = (g: G, dtype: 'float32' | 'float64' = 'float64'): Tensor => torch.tensor(g.values, { dtype: 'float64' }).reshape(g.shape).to(dtype);
const long = (x: unknown): Tensor => torch.tensor(x as number[], { dtype: 'int64' });
/** A 2-D int64 tensor's rows as numbers. */
const rows = (x: Tensor): number[][] => (x.tolist() as bigint[][]).map((r) => r.map(Number));
const num = (x: Tensor): number[] => (x.reshape([-1]).tolist() as (number | bigint)[]).map(Number);

function expectClose(actual: Tensor, g: G, rtol: number, atol: number): void {
  expect(actual.shape).toEqual(g.shape);
  const a = num(actual);
  a.forEach((v, k) => {
    const e = g.values[k];
    if (Math.abs(v - e) > atol + rtol * Math.abs(e)) throw new Error(`element ${k}: ${v} vs PyTorch's ${e}`);
  });
}

describe('sparse COO tensors (PyTorch 1.13 goldens)', () => {
  const L = golden.layout;
  it('builds, coalesces, densifies, adds and prints as PyTorch', () => {
    const s = torch.sparseCooTensor(long(L.indices), torch.tensor(L.values, { dtype: 'float32' }), [3, 2]);
    expect([s.layout, s.isSparse, s._nnz(), s.sparseDim(), s.denseDim()]).toEqual(['sparse_coo', true, 4, 2, 0]);
    expect([torch.ones([2]).layout, torch.ones([2]).isSparse]).toEqual(['strided', false]);
    expect(String(s)).toBe(L.repr);
    const c = s.coalesce();
    expect(String(c)).toBe(L.repr_coalesced);
    expect(rows(c._indices())).toEqual(L.coalesced_indices);
    expect(num(c._values())).toEqual(L.coalesced_values);
    expect(c.indices().shape).toEqual([2, 3]);
    expect(s.toDense().tolist()).toEqual(L.dense);
    const a = torch.sparseCooTensor(long([[2, 0]]), torch.tensor([[1, 1], [2, 2]], { dtype: 'float32' }), [3, 2]);
    const b = torch.sparseCooTensor(long([[1, 2, 0]]), torch.tensor([[1, 1], [2, 2], [3, 3]], { dtype: 'float32' }), [3, 2]);
    const ab = a.add(b);
    expect(String(ab)).toBe(L.repr_sum);
    expect([s.isCoalesced(), c.isCoalesced(), ab.isCoalesced()]).toEqual(L.is_coalesced);
    expect(String(a.mul(2.5))).toBe(L.repr_scaled);
    const e = torch.sparseCooTensor(torch.zeros([1, 0], { dtype: 'int64' }), torch.zeros([0, 2]), [3, 2]);
    expect(String(e)).toBe(L.repr_empty);
    const d64 = torch.sparseCooTensor(long([[2, 0]]), torch.tensor([[1, 1], [2, 2]], { dtype: 'float64' }), [3, 2]);
    expect(String(d64)).toBe(L.repr_float64);
    expect(torch.ones([3, 2]).add(s).tolist()).toEqual(L.dense_plus_sparse);
    // in place: dense += sparse, sparse += sparse (PyTorch's merge), zero_ empties
    const acc = torch.ones([3, 2]);
    acc.add_(s);
    expect(acc.tolist()).toEqual(L.dense_plus_sparse);
    a.add_(b);
    expect(String(a)).toBe(L.repr_sum);
    a.zero_();
    expect([a._nnz(), a.isCoalesced(), num(a.toDense())]).toEqual([0, true, [0, 0, 0, 0, 0, 0]]);
    expect(String(s.clone())).toBe(L.repr);
    expect(String(s.detach())).toBe(L.repr);
  });

  it("refuses ops without a sparse kernel as PyTorch's dispatcher does", () => {
    const E = golden.errors;
    const s = torch.sparseCooTensor(long(L.indices), torch.tensor(L.values, { dtype: 'float32' }), [3, 2]);
    // PyTorch's message up to its list of backends (ours lists torch-ts's keys)
    const head = (m: string) => m.slice(0, m.indexOf(' This could be'));
    for (const [key, f] of [
      ['exp', () => s.exp()],
      ['view', () => s.view([6])],
      ['sum', () => s.sum(0)],
      ['indices_dense', () => torch.ones([2]).indices()],
    ] as const) {
      const err = thrown(f);
      expect(err).toBeInstanceOf(NotImplementedError);
      expect(err.message).toContain(head(E[key]));
    }
    expect(thrown(() => s.indices()).message).toBe(`indices: ${E.indices_uncoalesced}`);
    expect(thrown(() => s.add(torch.ones([3, 2]))).message).toBe(`add: ${E.sparse_plus_dense}`);
    expect(thrown(() => s.clone({ memoryFormat: 'contiguous' })).message).toBe('clone: unsupported memory format option Contiguous');
    expect(thrown(() => torch.sparseCooTensor(long([[0, 5]]), torch.ones([2]), [3])).message).toBe(
      'sparse_coo_tensor: size is inconsistent with indices: for dim 0, size is 3 but found index 5',
    );
    expect(thrown(() => s.tolist())).toBeInstanceOf(TorchError);
  });

  it("sparseMask: a dense tensor's values at a coalesced mask's entries; an uncoalesced mask raises as in 1.13", () => {
    const M = golden.sparse_mask;
    const x = torch.arange(12, { dtype: 'float64' }).reshape([3, 2, 2]).div(4);
    const mask = torch.sparseCooTensor(long([[2, 0, 1], [1, 0, 1]]), torch.ones([3, 2]), [3, 2, 2]).coalesce();
    const r = x.sparseMask(mask);
    expect([rows(r._indices()), r._values().tolist(), r.isCoalesced(), r.dtype]).toEqual([M.indices, M.values, M.coalesced, 'float64']);
    const E = golden.errors;
    const s = torch.sparseCooTensor(long(L.indices), torch.tensor(L.values, { dtype: 'float32' }), [3, 2]);
    expect(thrown(() => torch.ones([3, 2]).sparseMask(s)).message).toBe(E.sparse_mask_uncoalesced);
    expect(thrown(() => torch.ones([2, 2]).sparseMask(s.coalesce())).message).toBe(E.sparse_mask_sizes);
  });
});

describe('nn.Embedding(sparse=True) gradients (PyTorch 1.13 goldens)', () => {
  it('gives a sparse COO weight gradient, accumulated across backward calls', () => {
    const E = golden.embedding;
    const emb = new nn.Embedding(6, 3, { paddingIdx: 1, sparse: true, weight: fromG(E.weight as G, 'float32') });
    emb.forward(long(E.lookups[0])).pow(2).sum().backward();
    const g1 = emb.weight.grad!;
    expect(g1.isSparse).toBe(true);
    expect(String(g1)).toBe(E.grad1.repr);
    expectClose(g1._values(), E.grad1.values as G, 0, 0);
    emb.forward(long(E.lookups[1])).sum().backward();
    const g2 = emb.weight.grad!;
    expect(rows(g2._indices())).toEqual(E.grad2.indices);
    expectClose(g2._values(), E.grad2.values as G, 0, 0);
    expect(g2.isCoalesced()).toBe(E.grad2.is_coalesced);
    const gc = g2.coalesce();
    expect(rows(gc._indices())).toEqual(E.coalesced.indices);
    expectClose(gc._values(), E.coalesced.values as G, 0, 0);
    // F.embedding and torch.embedding take `sparse` too; zeroGrad(false) empties the sparse grad
    const w = fromG(E.weight as G).requiresGrad_();
    torch.nn.functional.embedding(long([1, 1]), w, { paddingIdx: 1, sparse: true }).sum().backward();
    expect([w.grad!.isSparse, w.grad!._nnz(), w.grad!._indices().shape]).toEqual([true, 0, [1, 0]]);
    const opt = new optim.SGD([emb.weight], 0.1);
    opt.zeroGrad(false);
    expect([emb.weight.grad!.isSparse, emb.weight.grad!._nnz()]).toEqual([true, 0]);
  });
});

describe('optimizers with sparse gradients (PyTorch 1.13 goldens)', () => {
  const T = golden.train;
  interface Run {
    steps: { weight: unknown; state: unknown }[];
    param_groups: Record<string, unknown>[];
    state_keys: string[];
  }
  function train(run: Run, dtype: 'float32' | 'float64', make: (ps: Tensor[]) => torch.optim.Optimizer, paddingIdx: number | null = null): void {
    const m = new nn.Embedding(8, 4, { paddingIdx, sparse: true, weight: fromG(T.weight as G, dtype) });
    const target = fromG(T.target as G, dtype);
    const opt = make([m.weight]);
    const [rtol, atol] = dtype === 'float64' ? [1e-12, 1e-12] : [1e-5, 1e-6];
    T.steps.forEach((ids, k) => {
      opt.zeroGrad();
      m.forward(long(ids)).sub(target).pow(2).sum().backward();
      opt.step();
      const want = run.steps[k];
      expectClose(m.weight, want.weight as G, rtol, atol);
      // (plain SGD: PyTorch keeps momentum_buffer None, torch-ts's SGD keeps no state)
      const state = (opt.stateDict().state[0] ?? {}) as Record<string, unknown>;
      for (const [key, v] of Object.entries(want.state as Record<string, unknown>)) {
        if (v === null) expect(state[key] ?? null).toBe(null);
        else if (typeof v === 'number') expect(state[key]).toBe(v);
        else if ('sparse' in (v as object)) {
          const sp = v as { indices: number[][]; values: G };
          const c = (state[key] as Tensor).coalesce();
          expect(rows(c._indices())).toEqual(sp.indices);
          expectClose(c._values(), sp.values, rtol, atol);
        } else if (typeof state[key] === 'number') {
          // (PyTorch 1.13's Adagrad keeps `step` as a 0-d tensor, torch-ts's optimizers as a number)
          expect([(v as G).shape, state[key]]).toEqual([[], (v as G).values[0]]);
        } else expectClose(state[key] as Tensor, v as G, rtol, atol);
      }
    });
    const sd = opt.stateDict();
    if (run.state_keys.some((k) => (run.steps[0].state as Record<string, unknown>)[k] !== null)) expect(Object.keys(sd.state[0]).sort()).toEqual(run.state_keys);
    expect(sd.param_groups).toEqual(run.param_groups.map((g) => ({ ...g })));
  }

  it('SparseAdam: lazy Adam over the gradient rows, float64 and float32, maximize and padding', () => {
    train(T.sparse_adam_f64, 'float64', (ps) => new optim.SparseAdam(ps, { lr: 0.05 }));
    train(T.sparse_adam_f32, 'float32', (ps) => new optim.SparseAdam(ps, { lr: 0.05, betas: [0.8, 0.9], eps: 1e-6 }));
    train(T.sparse_adam_max_pad, 'float64', (ps) => new optim.SparseAdam(ps, { lr: 0.02, maximize: true }), 2);
  });

  it('SGD (momentum, nesterov, dampening) and Adagrad with sparse gradients', () => {
    train(T.sgd, 'float64', (ps) => new optim.SGD(ps, { lr: 0.05 }));
    train(T.sgd_momentum, 'float64', (ps) => new optim.SGD(ps, { lr: 0.05, momentum: 0.9, nesterov: true }));
    train(T.sgd_f32, 'float32', (ps) => new optim.SGD(ps, { lr: 0.05, momentum: 0.5, dampening: 0.1 }));
    train(T.adagrad, 'float64', (ps) => new optim.Adagrad(ps, { lr: 0.1, lrDecay: 0.01 }));
  });

  it("refuses sparse gradients where PyTorch does, in PyTorch's words", () => {
    const E = golden.errors;
    const withSparseGrad = (make: (ps: Tensor[]) => torch.optim.Optimizer): Error => {
      const w = new nn.Parameter(torch.ones([4, 2]));
      torch.nn.functional.embedding(long([1, 3]), w, { sparse: true }).sum().backward();
      return thrown(() => make([w]).step());
    };
    const cases: [keyof typeof E, (ps: Tensor[]) => torch.optim.Optimizer][] = [
      ['Adam', (ps) => new optim.Adam(ps, 0.1)],
      ['AdamW', (ps) => new optim.AdamW(ps, 0.1)],
      ['Adamax', (ps) => new optim.Adamax(ps, 0.1)],
      ['Adadelta', (ps) => new optim.Adadelta(ps, 0.1)],
      ['NAdam', (ps) => new optim.NAdam(ps, 0.1)],
      ['RAdam', (ps) => new optim.RAdam(ps, 0.1)],
      ['RMSprop', (ps) => new optim.RMSprop(ps, 0.1)],
      ['Rprop', (ps) => new optim.Rprop(ps, 0.1)],
      ['ASGD', (ps) => new optim.ASGD(ps, 0.1)],
      ['Adagrad_weight_decay', (ps) => new optim.Adagrad(ps, { lr: 0.1, weightDecay: 0.1 })],
    ];
    for (const [key, make] of cases) expect(withSparseGrad(make).message).toBe(E[key]);
    expect(withSparseGrad((ps) => new optim.SGD(ps, { lr: 0.1, weightDecay: 0.1 })).message).toBe(`add: ${E.SGD_weight_decay}`);
    const w = new nn.Parameter(torch.ones([4, 2]));
    w.sum().backward();
    expect(thrown(() => new optim.SparseAdam([w]).step()).message).toBe(E.SparseAdam_dense);
    const s = torch.sparseCooTensor(long([[0]]), torch.ones([1]), [2]);
    expect(thrown(() => new optim.SparseAdam([torch.ones([2]), s])).message).toBe(E.SparseAdam_sparse_param);
  });
});
