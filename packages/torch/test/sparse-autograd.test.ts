import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { AutogradError, type Tensor } from '@torch-ts/core';
import { thrown } from './helpers';
import golden from './goldens/sparse_autograd.json';

const G = golden;
const fromG = (g: { shape: number[]; values: number[] }): Tensor => torch.tensor(g.values, { dtype: 'float64' }).reshape(g.shape);
const num = (x: Tensor): number[] => (x.reshape([-1]).tolist() as number[]).map(Number);

describe('autograd through sparse COO construction and toDense (PyTorch 1.13 goldens)', () => {
  it('values -> sparseCooTensor -> toDense: the gradient of the values, Node names, gradcheck', async () => {
    const i = torch.tensor(G.indices, { dtype: 'int64' });
    const v = fromG(G.values).requiresGrad_(true);
    const W = fromG(G.weight);
    const s = torch.sparseCooTensor(i, v, [3, 3, 2]);
    const d = s.toDense();
    expect([s.gradFn?.name(), d.gradFn?.name()]).toEqual(G.names);
    expect(s.requiresGrad).toBe(G.requires_grad);
    d.mul(W).sum().backward();
    const g = v.grad!;
    expect(g.shape).toEqual(G.grad.shape);
    num(g).forEach((x, k) => expect(Math.abs(x - G.grad.values[k])).toBeLessThanOrEqual(1e-15 * Math.max(1, Math.abs(G.grad.values[k]))));
    // through a sparse * number: MulBackward0 scales the sparse gradient
    const v2 = fromG(G.values).requiresGrad_(true);
    const m = torch.sparseCooTensor(i, v2, [3, 3, 2]).mul(2.5);
    expect(m.gradFn?.name()).toBe(G.scaled.name);
    m.toDense().mul(W).sum().backward();
    num(v2.grad!).forEach((x, k) => expect(Math.abs(x - G.scaled.grad.values[k])).toBeLessThanOrEqual(1e-15 * Math.max(1, Math.abs(G.scaled.grad.values[k]))));
    // float64 gradcheck of the composite (duplicates at (2, 0) included)
    const f = (x: Tensor) => torch.sparseCooTensor(i, x, [3, 3, 2]).toDense().mul(W);
    expect(await torch.autograd.gradcheck(f, [fromG(G.values).requiresGrad_(true)])).toBe(true);
  });

  it('coalesce() then values(): CoalesceBackward0 and ValuesBackward0 carry the gradient back to the values', async () => {
    const C = G.coalesce_values;
    const i = torch.tensor([[2, 0, 2, 1], [0, 1, 0, 1]], { dtype: 'int64' });
    const v = fromG(C.values).requiresGrad_(true);
    const c = torch.sparseCooTensor(i, v, [3, 2]).coalesce();
    const vals = c.values();
    expect([c.gradFn?.name(), vals.gradFn?.name()]).toEqual(C.names);
    expect(num(vals)).toEqual(C.result.values);
    vals.mul(fromG(C.weight)).sum().backward();
    expect(num(v.grad!)).toEqual(C.grad.values);
    const f = (x: Tensor) => torch.sparseCooTensor(i, x, [3, 2]).coalesce().values().mul(fromG(C.weight));
    expect(await torch.autograd.gradcheck(f, [fromG(C.values).requiresGrad_(true)])).toBe(true);
  });

  it('a sparse leaf that requires grad gets a sparse gradient, accumulated across backward calls', () => {
    const L = G.leaf;
    const i = torch.tensor([[2, 0, 2, 1], [0, 1, 0, 1]], { dtype: 'int64' });
    const leaf = torch.sparseCooTensor(i, torch.tensor([1.5, -2, 3, 4], { dtype: 'float64' }), [3, 2], { requiresGrad: true });
    expect(String(leaf)).toBe(L.repr);
    const W = fromG(L.weight);
    const grads = [1, 2].map(() => {
      leaf.toDense().mul(W).sum().backward();
      const g = leaf.grad!;
      return { indices: (g._indices().tolist() as bigint[][]).map((r) => r.map(Number)), values: num(g._values()), coalesced: g.isCoalesced() };
    });
    expect(grads).toEqual([L.grad1, L.grad2].map((g) => ({ ...g, values: g.values.values })));
  });

  it('torch.mm(sparse, dense): the product, the dense gradient, gradcheck; a sparse self requiring grad refused', async () => {
    const M = G.mm;
    const i = torch.tensor(M.indices, { dtype: 'int64' });
    const s = torch.sparseCooTensor(i, fromG(M.values), [3, 4]);
    const d = fromG(M.dense).requiresGrad_(true);
    const r = torch.mm(s, d);
    expect(r.gradFn?.name()).toBe(M.name);
    num(r).forEach((x, k) => expect(Math.abs(x - M.result.values[k])).toBeLessThanOrEqual(1e-15 * Math.max(1, Math.abs(M.result.values[k]))));
    r.mul(fromG(M.weight)).sum().backward();
    num(d.grad!).forEach((x, k) => expect(Math.abs(x - M.grad_dense.values[k])).toBeLessThanOrEqual(1e-15 * Math.max(1, Math.abs(M.grad_dense.values[k]))));
    expect(await torch.autograd.gradcheck((x: Tensor) => torch.mm(s, x), [fromG(M.dense).requiresGrad_(true)])).toBe(true);
    const err = thrown(() => torch.mm(torch.sparseCooTensor(i, fromG(M.values).requiresGrad_(true), [3, 4]), d));
    expect(err).toBeInstanceOf(AutogradError);
    expect(err.message).toBe(`mm: ${M.error_sparse_grad}`);
  });

  it('torch.addmm(dense, sparse, dense, beta, alpha): the result and both dense gradients', () => {
    const M = G.mm;
    const A = G.addmm;
    const s = torch.sparseCooTensor(torch.tensor(M.indices, { dtype: 'int64' }), fromG(M.values), [3, 4]);
    const b = fromG(A.input).requiresGrad_(true);
    const d = fromG(A.dense).requiresGrad_(true);
    const r = torch.addmm(b, s, d, { beta: 0.5, alpha: 2 });
    expect(r.gradFn?.name()).toBe(A.name);
    const close = (x: Tensor, g: { values: number[] }) => num(x).forEach((v, k) => expect(Math.abs(v - g.values[k])).toBeLessThanOrEqual(1e-15 * Math.max(1, Math.abs(g.values[k]))));
    close(r, A.result);
    r.mul(fromG(M.weight)).sum().backward();
    close(b.grad!, A.grad_input);
    close(d.grad!, A.grad_dense);
  });

  it('torch.sparse.mm / addmm: the product, a sparse gradient for the sparse factor (SparseAddmmBackward0), gradcheck, messages', async () => {
    const M = G.mm;
    const i = torch.tensor(M.indices, { dtype: 'int64' });
    const close = (x: Tensor, g: { values: number[] }) => num(x).forEach((v, k) => expect(Math.abs(v - g.values[k])).toBeLessThanOrEqual(1e-15 * Math.max(1, Math.abs(g.values[k]))));
    const members = (t: Tensor) => ({ indices: (t._indices().tolist() as bigint[][]).map((r) => r.map(Number)), values: num(t._values()) });
    // mm: the sparse operand requires grad (torch.mm refuses it), duplicates at (0, 1) included
    const S = G.sparse_mm;
    const s = torch.sparseCooTensor(i, fromG(M.values), [3, 4]).requiresGrad_(true);
    const d = fromG(M.dense).requiresGrad_(true);
    const r = torch.sparse.mm(s, d);
    expect(r.gradFn?.name()).toBe(S.name);
    close(r, S.result);
    r.mul(fromG(M.weight)).sum().backward();
    close(d.grad!, S.grad_dense);
    expect(s.grad!.isSparse).toBe(true);
    expect([s.grad!.isCoalesced(), members(s.grad!).indices]).toEqual([S.grad_sparse.coalesced, S.grad_sparse.indices]);
    close(s.grad!._values(), S.grad_sparse.values);
    // addmm: a broadcast `mat` gets its gradient summed back
    const A = G.sparse_addmm;
    const s2 = torch.sparseCooTensor(i, fromG(M.values), [3, 4]).requiresGrad_(true);
    const b = fromG(A.mat).requiresGrad_(true);
    const d2 = fromG(M.dense).requiresGrad_(true);
    const r2 = torch.sparse.addmm(b, s2, d2, { beta: 0.5, alpha: 2 });
    expect(r2.gradFn?.name()).toBe(A.name);
    close(r2, A.result);
    r2.mul(fromG(M.weight)).sum().backward();
    close(b.grad!, A.grad_mat);
    close(d2.grad!, A.grad_dense);
    expect(members(s2.grad!).indices).toEqual(A.grad_sparse.indices);
    close(s2.grad!._values(), A.grad_sparse.values);
    // gradcheck through the sparse values (the composite values -> sparse -> sparse.mm) and the dense factor
    const viaValues = (v: Tensor, x: Tensor) => torch.sparse.mm(torch.sparseCooTensor(i, v, [3, 4]), x);
    expect(await torch.autograd.gradcheck(viaValues, [fromG(M.values).requiresGrad_(true), fromG(M.dense).requiresGrad_(true)])).toBe(true);
    // a dense mat1 is the dense product
    close(torch.sparse.mm(fromG(G.sparse_mm_dense.mat1), fromG(M.dense)), G.sparse_mm_dense.result);
    // 1.13's messages, torch.mm's too
    const E = G.sparse_mm_errors;
    const plain = torch.sparseCooTensor(i, fromG(M.values), [3, 4]);
    expect(thrown(() => torch.sparse.mm(plain, torch.ones([3, 2], { dtype: 'float64' }))).message).toBe(E.inner);
    expect(thrown(() => torch.mm(plain, torch.ones([3, 2], { dtype: 'float64' }))).message).toBe(E.mm_inner);
    expect(thrown(() => torch.sparse.mm(plain, torch.ones([4, 2]))).message).toBe(`_sparse_addmm: ${E.dtype}`);
    expect(thrown(() => torch.sparse.mm(plain, torch.ones([4, 2, 2], { dtype: 'float64' }))).message).toBe(E.dense_3d);
  });

  it('torch.sparse.sum: every dim, sparse dims, dense dims, all sparse dims; coalesced results, sparse gradients, Node names', async () => {
    const S = G.sparse_sum;
    const i = torch.tensor(S.indices, { dtype: 'int64' });
    const close = (x: Tensor, g: { values: number[] }, what: string) =>
      num(x).forEach((v, k) => expect(Math.abs(v - g.values[k]), `${what}[${k}]`).toBeLessThanOrEqual(1e-14 * Math.max(1, Math.abs(g.values[k]))));
    type Members = { indices: number[][]; values: { shape: number[]; values: number[] }; coalesced: boolean; size: number[] };
    const same = (t: Tensor, m: Members, what: string) => {
      expect([(t._indices().tolist() as bigint[][]).map((r) => r.map(Number)), t.isCoalesced(), t.shape], what).toEqual([m.indices, m.coalesced, m.size]);
      expect(t._values().shape, what).toEqual(m.values.shape);
      close(t._values(), m.values, what);
    };
    for (const [key, c] of Object.entries(S.cases).filter(([k]) => k !== 'dtype' && k !== 'errors') as [string, (typeof S.cases)['d1']][]) {
      const x = torch.sparseCooTensor(i, fromG(S.values), [3, 4, 2, 3]).requiresGrad_(true);
      const r = c.dims === null ? torch.sparse.sum(x) : torch.sparse.sum(x, c.dims);
      expect([r.gradFn?.name(), r.isSparse], key).toEqual([c.name, c.sparse]);
      const w = fromG(c.weight as { shape: number[]; values: number[] });
      if (r.isSparse) {
        same(r, c.result as Members, `${key}: result`);
        r.toDense().mul(w).sum().backward();
      } else {
        close(r, c.result as unknown as { values: number[] }, `${key}: result`);
        r.mul(w).sum().backward();
      }
      same(x.grad!, c.grad as Members, `${key}: grad`);
    }
    // dtype converts first
    close(torch.sparse.sum(torch.sparseCooTensor(i, fromG(S.values), [3, 4, 2, 3]), [1], 'float32').toDense(), S.cases.dtype, 'dtype');
    // gradcheck through the values, a sparse result (dims 1 and 3) and a dense one (all sparse dims)
    for (const dims of [[1, 3], [0, 1, 2]]) {
      const f = (v: Tensor) => {
        const r = torch.sparse.sum(torch.sparseCooTensor(i, v, [3, 4, 2, 3]), dims);
        return r.isSparse ? r.toDense() : r;
      };
      expect(await torch.autograd.gradcheck(f, [fromG(S.values).requiresGrad_(true)]), `gradcheck ${dims}`).toBe(true);
    }
    const x = torch.sparseCooTensor(i, fromG(S.values), [3, 4, 2, 3]);
    expect(thrown(() => torch.sparse.sum(x, [1, 1])).message).toBe(`_sparse_sum: ${S.cases.errors.repeat}`);
    expect(thrown(() => torch.sparse.sum(x, 4)).message).toBe(`_sparse_sum: ${S.cases.errors.range}`);
  });
});
