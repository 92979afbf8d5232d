/**
 * The batching rules for advanced indexing, index_put_, index_add with a batched index and
 * batch norm with batched running stats (core batching-rules-index.ts, batching-rules-scatter.ts,
 * batching-rules-nn.ts): vmap against a loop over samples for every combination of batched
 * and unbatched operands (None entries, broadcasting index tensors, bool masks, negative
 * indices, adjacent and split index dims), with no per-sample fallback; vmap(grad) through
 * index / index_put against the loop of grads; functorch's errors.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '../src';
import type { Tensor } from '../src';
import { traceBatchedFallback } from '@torch-ts/core';

const F = torch.nn.functional;
const { vmap, grad } = torch.func;
const B = 3;

function same(a: Tensor, e: Tensor, what: string, tol = 0): void {
  expect(a.shape, what).toEqual(e.shape);
  const av = a.reshape(-1).tolist() as number[];
  const ev = e.reshape(-1).tolist() as number[];
  av.forEach((x, i) => expect(Math.abs(x - ev[i]!), `${what} at ${i}`).toBeLessThanOrEqual(tol * (1 + Math.abs(ev[i]!))));
}

const rand = (shape: number[], seed: number): Tensor => {
  torch.manualSeed(seed);
  return torch.randn(shape, { dtype: 'float64' });
};
const long = (v: number[] | number[][] | number[][][]): Tensor => torch.tensor(v, { dtype: 'int64' });

/**
 * vmap(f) against the stack of f per sample: `args` hold B samples each; those whose inDims
 * entry is 0 are mapped, the others are passed as their sample 0 (unbatched) to both sides.
 */
function againstLoop(f: (...xs: Tensor[]) => Tensor, batches: Tensor[], inDims: (0 | null)[], what: string, tol = 0): void {
  const args = batches.map((a, i) => (inDims[i] === 0 ? a : a.select(0, 0)));
  const got = vmap(f, { inDims })(...args) as Tensor;
  const rows = Array.from({ length: B }, (_, k) => f(...args.map((a, i) => (inDims[i] === 0 ? a.select(0, k) : a))));
  same(got, torch.stack(rows), what, tol);
}

/** Every batched/unbatched combination of `n` arguments but the all-unbatched one. */
const combos = (n: number): (0 | null)[][] =>
  Array.from({ length: 2 ** n - 1 }, (_, m) => Array.from({ length: n }, (_, i) => (((m + 1) >> i) & 1 ? 0 : null)));

describe('vmap rules for indexing', () => {
  it('index: every placement of the index dims, batched or not, equals the loop without the fallback', () => {
    const x = rand([B, 4, 5, 6], 1);
    // index tensors per sample (batch first): broadcasting [2,1] with [3], negatives, duplicates
    const i = long([[[0], [-1]], [[3], [1]], [[2], [2]]]); // [B, 2, 1]
    const j = long([[0, 4, -2], [1, 1, 3], [-5, 2, 0]]); // [B, 3]
    const cases: [string, (s: Tensor, a: Tensor, b: Tensor) => Tensor][] = [
      ['x[i, j] (dims 0, 1)', (s, a, b) => s.index(a, b)],
      ['x[:, i, j] (dims 1, 2)', (s, a, b) => s.index(':', a.remainder(5), b.remainder(6))],
      ['x[i, :, j] (dims 0, 2: split)', (s, a, b) => s.index(a, ':', b.remainder(6))],
      ['x[None, i, 1:, j] (split by a slice)', (s, a, b) => s.index(null, a, '1:', b.remainder(6))],
      ['x[..., j] (last dim)', (s, _a, b) => s.index('...', b.remainder(6))],
      ['x[1, :, j] (an int makes the dims split)', (s, _a, b) => s.index(1, ':', b.remainder(6))],
    ];
    const looped = traceBatchedFallback(() => {
      for (const [what, f] of cases) for (const d of combos(3)) againstLoop(f, [x, i, j], d, `${what} inDims ${JSON.stringify(d)}`);
      // an unbatched bool mask over dims 1, 2 of a batched self
      const mask = torch.tensor([[true, false, true, false, false, true], [false, false, false, true, false, false], [true, true, false, false, false, false], [false, false, false, false, false, true], [false, true, false, false, false, false]]);
      againstLoop((s) => s.index(':', mask), [x], [0], 'x[:, mask]');
      againstLoop((s) => s.index(mask.select(0, 0)), [x.select(1, 0).select(1, 0)], [0], 'x[mask] (1-D)');
      // a batched 0-dim index: one index per sample (not sample 0's value read as an int)
      for (const d of combos(2)) againstLoop((s, t) => s.index(':', t), [x, long([2, -1, 0])], d, `x[:, t] with a 0-dim t, inDims ${JSON.stringify(d)}`);
      for (const d of combos(2)) againstLoop((s, t) => s.indexPut([t], s.index(0).neg()), [x, long([3, -1, 0])], d, `x[t] = -x[0], 0-dim t, inDims ${JSON.stringify(d)}`);
    });
    expect(looped.filter((n) => n.startsWith('index'))).toEqual([]);
  });

  it('index: out-of-range indices raise the op error under vmap, as for one sample', () => {
    const x = rand([B, 4, 5], 2);
    const bad = long([[0, 4], [1, 1], [0, 0]]);
    for (const d of [[0, 0], [null, 0], [0, null]] as (0 | null)[][]) {
      expect(() => vmap((s: Tensor, t: Tensor) => s.index(t), { inDims: d })(d[0] === 0 ? x : x.select(0, 0), d[1] === 0 ? bad : bad.select(0, 0).remainder(4).add(4))).toThrow(
        /^index.*out of (bounds|range)/,
      );
    }
  });

  it('index_put_ / index_put: every combination of batched self, indices and values, accumulate with duplicates, equals the loop', () => {
    const x = rand([B, 4, 5, 6], 3);
    const i = long([[[0], [-1]], [[3], [3]], [[2], [2]]]); // [B, 2, 1]: duplicates in samples 1 and 2
    const j = long([[0, 4, -2], [1, 1, 3], [-5, 2, 2]]); // [B, 3]
    const v = rand([B, 2, 3, 6], 4); // the result of x[i, j] per sample: [2, 3, 6]
    const vs = rand([B, 6], 5); // broadcasts
    const vSplit = rand([B, 2, 3, 5], 6); // x[i, :, j]: [2, 3, 5]
    const vMid = rand([B, 4, 2, 3], 7); // x[:, i, j]: [4, 2, 3]
    const looped = traceBatchedFallback(() => {
      for (const accumulate of [false, true]) {
        const put = (idx: (s: Tensor, a: Tensor, b: Tensor) => (Tensor | null)[]) => (s: Tensor, a: Tensor, b: Tensor, w: Tensor) => s.indexPut(idx(s, a, b), w, { accumulate });
        const cases: [string, (s: Tensor, a: Tensor, b: Tensor, w: Tensor) => Tensor, Tensor][] = [
          ['x[i, j] = v', put((_s, a, b) => [a, b]), v],
          ['x[i, j] = v (broadcast)', put((_s, a, b) => [a, b]), vs],
          ['x[i, :, j] = v', put((_s, a, b) => [a, null, b.remainder(6)]), vSplit],
          ['x[:, i, j] = v', put((_s, a, b) => [null, a.remainder(5), b.remainder(6)]), vMid],
        ];
        for (const [what, f, w] of cases) {
          for (const d of combos(4)) againstLoop(f, [x, i, j, w], d, `${what}${accumulate ? ' (accumulate)' : ''} inDims ${JSON.stringify(d)}`, 1e-15);
        }
        // in place on a batched self (a clone made inside, so the input stays)
        const inPlace = (s: Tensor, a: Tensor, b: Tensor, w: Tensor) => s.clone().indexPut_([a, b], w, { accumulate });
        for (const d of combos(4).filter((d) => d[0] === 0)) againstLoop(inPlace, [x, i, j, v], d, `x.indexPut_ inDims ${JSON.stringify(d)}`, 1e-15);
      }
    });
    expect(looped.filter((n) => n.startsWith('index'))).toEqual([]);
  });

  it("index_put_ into an unbatched self with a batched index or value raises functorch's error; a bad value shape the op's", () => {
    const v = rand([B, 2], 8);
    const fixed = long([1, 3]);
    expect(() => vmap((w: Tensor) => torch.zeros([5], { dtype: 'float64' }).indexPut_([fixed], w))(v)).toThrow(
      'vmap: index_put_(self, *extra_args) is not possible because there exists a Tensor `other` in extra_args that has more elements than `self`. This happened due to `other` being vmapped over but `self` not being vmapped over in a vmap. Please try to use out-of-place operators instead of index_put_. If said operator is being called inside the PyTorch framework, please file a bug report instead.',
    );
    expect(() => vmap((t: Tensor) => torch.zeros([5], { dtype: 'float64' }).indexPut_([t], torch.ones([2], { dtype: 'float64' })))(long([[0, 1], [2, 3], [4, 0]]))).toThrow(
      /^vmap: index_put_\(self, \*extra_args\) is not possible/,
    );
    // ops without a rule for the combination: the fallback's in-place message, functorch's
    const fallbackMsg = (op: string) =>
      `vmap: aten::${op}(self, *extra_args) is not possible because there exists a Tensor \`other\` in extra_args that has more elements than \`self\`. This happened due to \`other\` being vmapped over but \`self\` not being vmapped over at level 1. Please try to use out-of-place operators instead of aten::${op}. If said operator is being called inside the PyTorch framework, please file a bug report instead.`;
    const rows = long([[0], [1], [2]]);
    expect(() => vmap((t: Tensor) => torch.zeros([5], { dtype: 'float64' }).indexFill_(0, t, 1))(rows)).toThrow(fallbackMsg('index_fill_'));
    expect(() => vmap((t: Tensor) => torch.zeros([5], { dtype: 'float64' }).indexAdd_(0, t, torch.ones([1], { dtype: 'float64' })))(rows)).toThrow(fallbackMsg('index_add_'));
    // the functional form copies self first, so it is batched and works
    const got = vmap((w: Tensor) => torch.zeros([5], { dtype: 'float64' }).indexPut([fixed], w))(v);
    same(got, torch.stack([0, 1, 2].map((k) => torch.zeros([5], { dtype: 'float64' }).indexPut([fixed], v.select(0, k)))), 'indexPut into zeros');
    expect(() => vmap((s: Tensor, w: Tensor) => s.indexPut([fixed], w))(rand([B, 5], 9), rand([B, 3], 10))).toThrow(
      /^index_put_: shape mismatch: value tensor of shape \[3\] cannot be broadcast to indexing result of shape \[2\]/,
    );
  });

  it('vmap(grad) through index and index_put equals the loop of grads', () => {
    const x = rand([B, 4, 5], 11);
    const i = long([[0, -1, 2], [3, 3, 1], [2, 0, 0]]);
    const w = rand([B, 3], 12);
    const f = (s: Tensor, t: Tensor, u: Tensor): Tensor => {
      const picked = s.index(t, t.remainder(5)); // [3]
      const written = s.mul(s).indexPut([t, null], u.unsqueeze(1).mul(picked.unsqueeze(1)), { accumulate: true });
      return written.sin().sum().add(picked.pow(3).sum());
    };
    for (const argnums of [0, 2] as const) {
      for (const d of [[0, 0, 0], [0, null, 0], [0, 0, null], [null, 0, 0]] as (0 | null)[][]) {
        const g = grad(f, { argnums });
        againstLoop(g, [x, i, w], d, `grad wrt ${argnums} inDims ${JSON.stringify(d)}`, 1e-12);
      }
    }
  });
});

describe('vmap rules for index_add and batch norm', () => {
  it('index_add with a batched index equals the loop, without the fallback; an out-of-range index raises index_add\'s error', () => {
    const x = rand([B, 5, 4], 13);
    const idx = long([[0, 4, 4], [1, 1, 2], [3, 0, 2]]);
    const src = rand([B, 3, 4], 14);
    const looped = traceBatchedFallback(() => {
      for (const d of combos(3).filter((d) => d[1] === 0)) {
        againstLoop((s, t, u) => torch.indexAdd(s, 0, t, u, { alpha: 2 }), [x, idx, src], d, `index_add dim 0 inDims ${JSON.stringify(d)}`, 1e-15);
        againstLoop((s, t, u) => torch.indexAdd(s.mT, 1, t, u.mT), [x, idx, src], d, `index_add dim 1 inDims ${JSON.stringify(d)}`, 1e-15);
      }
    });
    expect(looped).toEqual([]);
    const bad = long([[0, 1, 2], [0, 5, 1], [0, 0, 0]]);
    expect(() => vmap((s: Tensor, t: Tensor, u: Tensor) => torch.indexAdd(s, 0, t, u))(x, bad, src)).toThrow(/^index_add/);
  });

  it('batch norm with batched running stats updates each sample its own stats, as the loop does', () => {
    const x = rand([B, 4, 3, 2], 15);
    const rm = rand([B, 3], 16);
    const rv = rand([B, 3], 17).abs().add(0.5);
    const wt = rand([B, 3], 18);
    const bs = rand([B, 3], 19);
    const looped = traceBatchedFallback(() => {
      for (const training of [true, false]) {
        for (const [inX, inW] of [[0, null], [0, 0], [null, 0], [null, null]] as (0 | null)[][]) {
          const what = `batchNorm training=${training} input ${inX} weight ${inW}`;
          const [m1, v1, m2, v2] = [rm.clone(), rv.clone(), rm.clone(), rv.clone()];
          const f = (s: Tensor, m: Tensor, v: Tensor, w: Tensor, b: Tensor) => F.batchNorm(s, m, v, { weight: w, bias: b, training, momentum: 0.3, eps: 1e-3 });
          const got = vmap(f, { inDims: [inX, 0, 0, inW, inW] })(inX === 0 ? x : x.select(0, 1), m1, v1, inW === 0 ? wt : wt.select(0, 2), inW === 0 ? bs : bs.select(0, 2));
          const rows = [0, 1, 2].map((k) =>
            f(inX === 0 ? x.select(0, k) : x.select(0, 1), m2.select(0, k), v2.select(0, k), inW === 0 ? wt.select(0, k) : wt.select(0, 2), inW === 0 ? bs.select(0, k) : bs.select(0, 2)),
          );
          same(got, torch.stack(rows), what, 1e-12);
          same(m1, m2, `${what}: running_mean`, 1e-14);
          same(v1, v2, `${what}: running_var`, 1e-14);
        }
      }
      // running stats batched along dim 1 (their fold is a copy: the update is copied back)
      const [mt, vt, m2, v2] = [rm.t().contiguous(), rv.t().contiguous(), rm.clone(), rv.clone()];
      const ft = (s: Tensor, m: Tensor, v: Tensor) => F.batchNorm(s, m, v, { training: true, momentum: 0.2 });
      const got = vmap(ft, { inDims: [0, 1, 1] })(x, mt, vt);
      same(got, torch.stack([0, 1, 2].map((k) => ft(x.select(0, k), m2.select(0, k), v2.select(0, k)))), 'batchNorm, stats batched along dim 1', 1e-12);
      same(mt.t(), m2, 'running_mean batched along dim 1', 1e-14);
      same(vt.t(), v2, 'running_var batched along dim 1', 1e-14);
      // eval mode with unbatched stats and a batched weight: folded too
      const fe = (s: Tensor, w: Tensor) => F.batchNorm(s, rm.select(0, 0), rv.select(0, 0), { weight: w, training: false });
      againstLoop(fe, [x, wt] as Tensor[], [0, 0], 'eval, unbatched stats, batched weight', 1e-12);
    });
    expect(looped).toEqual([]);
  });
});
