/**
 * In-place ops under vmap (core Note [In-place into an unbatched self], batching-rules-pointwise.ts,
 * batching-rules-scatter.ts): every error for a write into an unbatched self with a batched
 * argument, for a batched self with a broadcast-incompatible other, and in nested vmaps, against
 * PyTorch 1.13's functorch (goldens/vmap_inplace.json, written by scripts/goldens/vmap_inplace.py);
 * index_add_ and index_fill(_) by rule (no per-sample fallback) against the loop over samples.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '../src';
import type { Tensor } from '../src';
import { traceBatchedFallback } from '@torch-ts/core';

const { vmap, grad } = torch.func;
const G = JSON.parse(readFileSync(new URL('./goldens/vmap_inplace.json', import.meta.url), 'utf8')) as {
  cases: Record<string, string>;
  index_add_fallback: Record<string, boolean>;
};
const N = 3;

/** The golden script's det(): |sin(0.37 k i + 0.1)| + 0.5, float64. */
function det(shape: number[], k = 1): Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  return torch.arange(n, { dtype: 'float64' }).mul(0.37 * k).add(0.1).sin().abs().add(0.5).reshape(shape);
}
const long = (v: number[] | number[][]): Tensor => torch.tensor(v, { dtype: 'int64' });

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('no error');
}

describe('in-place ops under vmap raise functorch 1.13\'s errors', () => {
  it('a write into an unbatched self, a batched self with a bad other, nested vmaps: every golden case', () => {
    const y = det([4], 1);
    const xs = det([N, 4], 2);
    const idx = long([1]);
    const rows = long([[0], [1], [2]]);
    const src = det([N, 1], 3);
    const f64 = { dtype: 'float64' } as const;
    const u = () => y.clone();
    const binary: Record<string, (a: Tensor, b: Tensor) => Tensor> = {
      add_: (a, b) => a.add_(b), sub_: (a, b) => a.sub_(b), mul_: (a, b) => a.mul_(b), div_: (a, b) => a.div_(b),
      pow_: (a, b) => a.pow_(b), remainder_: (a, b) => a.remainder_(b), clamp_min_: (a, b) => a.clampMin_(b),
      clamp_max_: (a, b) => a.clampMax_(b), fmod_: (a, b) => a.fmod_(b), atan2_: (a, b) => a.atan2_(b), hypot_: (a, b) => a.hypot_(b),
      xlogy_: (a, b) => a.xlogy_(b), igamma_: (a, b) => a.igamma_(b), igammac_: (a, b) => a.igammac_(b), eq_: (a, b) => a.eq_(b),
      ne_: (a, b) => a.ne_(b), lt_: (a, b) => a.lt_(b), le_: (a, b) => a.le_(b), gt_: (a, b) => a.gt_(b), ge_: (a, b) => a.ge_(b),
    };
    // [op name (torch-ts prefixes the kernel's messages with it), vmapped function, its batched arguments]
    const cases: Record<string, [string, (...a: Tensor[]) => Tensor, Tensor[], (0 | 1)[]?]> = {};
    for (const [op, f] of Object.entries(binary)) cases[op] = [op, (x) => f(u(), x), [xs]];
    Object.assign(cases, {
      'add_ alpha': ['add_', (x: Tensor) => u().add_(x, { alpha: 2 }), [xs]],
      'sub_ alpha': ['sub_', (x: Tensor) => u().sub_(x, { alpha: 2 }), [xs]],
      'div_ floor': ['div_', (x: Tensor) => u().div_(x, { roundingMode: 'floor' }), [xs]],
      logical_and_: ['logical_and_', (x: Tensor) => y.gt(0.9).logicalAnd_(x.gt(0.9)), [xs]],
      logical_or_: ['logical_or_', (x: Tensor) => y.gt(0.9).logicalOr_(x.gt(0.9)), [xs]],
      logical_xor_: ['logical_xor_', (x: Tensor) => y.gt(0.9).logicalXor_(x.gt(0.9)), [xs]],
      bitwise_and_: ['bitwise_and_', (x: Tensor) => y.mul(10).long().bitwiseAnd_(x.mul(10).long()), [xs]],
      bitwise_or_: ['bitwise_or_', (x: Tensor) => y.mul(10).long().bitwiseOr_(x.mul(10).long()), [xs]],
      bitwise_xor_: ['bitwise_xor_', (x: Tensor) => y.mul(10).long().bitwiseXor_(x.mul(10).long()), [xs]],
      'lerp_ end': ['lerp_', (x: Tensor) => u().lerp_(x, 0.5), [xs]],
      'lerp_ weight': ['lerp_', (x: Tensor) => u().lerp_(y, x), [xs]],
      addcmul_: ['addcmul_', (x: Tensor) => u().addcmul_(x, y), [xs]],
      addcdiv_: ['addcdiv_', (x: Tensor) => u().addcdiv_(y, x), [xs]],
      'clamp_ min': ['clamp_', (x: Tensor) => u().clamp_(x), [xs]],
      'clamp_ max': ['clamp_', (x: Tensor) => u().clamp_(null, x), [xs]],
      copy_: ['copy_', (x: Tensor) => u().copy_(x), [xs]],
      'copy_ 0-dim': ['copy_', (x: Tensor) => u().copy_(x), [det([N], 4)]],
      'masked_fill_ mask': ['masked_fill_', (m: Tensor) => u().maskedFill_(m, 1), [xs.gt(0.9)]],
      'masked_fill_ value': ['masked_fill_', (v: Tensor) => u().maskedFill_(y.gt(0.9), v), [det([N], 5)]],
      masked_scatter_: ['masked_scatter_', (s: Tensor) => u().maskedScatter_(y.gt(0.9), s), [xs]],
      'index_put_ values': ['index_put_', (v: Tensor) => u().indexPut_([long([1, 3])], v), [det([N, 2], 6)]],
      'index_put_ index': ['index_put_', (i: Tensor) => u().indexPut_([i], torch.ones([1], f64)), [rows]],
      'index_fill_ index': ['index_fill_', (i: Tensor) => u().indexFill_(0, i, 1), [rows]],
      'index_fill_ value': ['index_fill_', (v: Tensor) => u().indexFill_(0, idx, v), [det([N], 7)]],
      'index_add_ index': ['index_add_', (i: Tensor) => u().indexAdd_(0, i, torch.ones([1], f64)), [rows]],
      'index_add_ source': ['index_add_', (s: Tensor) => u().indexAdd_(0, idx, s), [src]],
      'index_add_ both': ['index_add_', (i: Tensor, s: Tensor) => u().indexAdd_(0, i, s), [rows, src]],
      'scatter_ src': ['scatter_', (s: Tensor) => u().scatter_(0, idx, s), [src]],
      'scatter_ index': ['scatter_', (i: Tensor) => u().scatter_(0, i, torch.ones([1], f64)), [rows]],
      'scatter_ value': ['scatter_', (i: Tensor) => u().scatter_(0, i, 2), [rows]],
      scatter_add_: ['scatter_add_', (s: Tensor) => u().scatterAdd_(0, idx, s), [src]],
      scatter_reduce_: ['scatter_reduce_', (s: Tensor) => u().scatterReduce_(0, idx, s, 'sum'), [src]],
      'add_ self [2, 4], other [4]': ['add_', (x: Tensor) => torch.ones([2, 4], f64).add_(x), [xs]],
      'add_ self [4], other [2, 4]': ['add_', (x: Tensor) => torch.ones([4], f64).add_(x), [det([N, 2, 4], 8)]],
      'add_ self [], other []': ['add_', (x: Tensor) => torch.tensor(1, f64).add_(x), [det([N], 9)]],
      'add_ int self, float other': ['add_', (x: Tensor) => torch.ones([4], { dtype: 'int64' }).add_(x), [xs]],
      'add_ [4] with [5]': ['add_', (a: Tensor, b: Tensor) => a.add_(b), [det([N, 4], 12), det([N, 5], 13)]],
      'add_ [4] with [2, 4]': ['add_', (a: Tensor, b: Tensor) => a.add_(b), [det([N, 4], 12), det([N, 2, 4], 13)]],
      'mul_ [4] with [5]': ['mul_', (a: Tensor, b: Tensor) => a.mul_(b), [det([N, 4], 12), det([N, 5], 13)]],
      'copy_ [4] with [5]': ['copy_', (a: Tensor, b: Tensor) => a.copy_(b), [det([N, 4], 12), det([N, 5], 13)]],
      'add_ [4] (batch dim 1) with [5]': ['add_', (a: Tensor, b: Tensor) => a.add_(b), [det([4, N], 12), det([N, 5], 13)], [1, 0]],
    });
    const x2 = det([2, N, 4], 10);
    const y2 = det([2, 4], 11);
    const nested: Record<string, [string, () => unknown]> = {
      'nested sub_': ['sub_', () => vmap(vmap((x: Tensor) => u().sub_(x)))(x2)],
      'nested pow_': ['pow_', () => vmap(vmap((x: Tensor) => u().pow_(x)))(x2)],
      'nested pow_, self batched outside only': ['pow_', () => vmap((s: Tensor) => vmap((x: Tensor) => s.clone().pow_(x))(xs))(y2)],
      'nested add_': ['add_', () => vmap(vmap((x: Tensor) => u().add_(x)))(x2)],
      'nested add_, self batched outside only': ['add_', () => vmap((s: Tensor) => vmap((x: Tensor) => s.clone().add_(x))(xs))(y2)],
    };
    const run: Record<string, [string, () => unknown]> = { ...nested };
    for (const [name, [op, f, args, inDims]] of Object.entries(cases)) run[name] = [op, () => vmap(f, inDims ? { inDims } : {})(...args)];
    expect(Object.keys(run).sort()).toEqual(Object.keys(G.cases).sort());
    for (const [name, [op, fn]] of Object.entries(run)) {
      const e = thrown(fn);
      const want = G.cases[name]!;
      expect(e, name).toBeInstanceOf(torch.TorchError);
      // functorch's vmap messages word for word; the kernel's (broadcast) ones named by the op,
      // with torch-ts's shapes suffix on the size-mismatch form
      if (want.startsWith('vmap:')) expect(e.message, name).toBe(want);
      else expect(e.message.replace(/ \(shapes \[[\d, ]*\] and \[[\d, ]*\]\)$/, ''), name).toBe(`${op}: ${want}`);
    }
    // the refused write left the unbatched self as it was
    const z = det([4], 20);
    expect(() => vmap((x: Tensor) => z.add_(x))(xs)).toThrow(/^add_: output with shape \[4\]/);
    expect(() => vmap((x: Tensor) => z.mul_(x))(xs)).toThrow(/^vmap: inplace arithmetic/);
    expect(z.tolist()).toEqual(det([4], 20).tolist());
  });

  it('add_ raises its broadcast error as the class the composite fallback runs per sample on', () => {
    // (batched-fallback.ts runs a composite per sample when one of its ops raises
    // UnbatchedWriteError; add_'s kernel error is re-raised as that class, as the others are)
    const xs = det([N, 4], 2);
    for (const f of [(x: Tensor) => torch.zeros([4], { dtype: 'float64' }).add_(x), (x: Tensor) => torch.zeros([4], { dtype: 'float64' }).mul_(x), (x: Tensor) => torch.zeros([4], { dtype: 'float64' }).pow_(x)]) {
      expect(thrown(() => vmap(f)(xs)).constructor.name).toBe('UnbatchedWriteError');
    }
  });
});

describe('index_add_ and index_fill(_) by rule', () => {
  it('every combination of batched index and source, dims 0 and 1, alpha, a 0-dim self, batch dim 1: equals the loop without the fallback', () => {
    // (functorch 1.13 loops every one of these combinations; the results are the loop's)
    expect(Object.values(G.index_add_fallback)).toEqual([true, true, true, true]);
    const x = det([N, 5, 4], 14);
    const i = long([[0, 4, 4], [1, 1, 2], [3, 0, 2]]);
    const s = det([N, 3, 4], 15);
    const loopOf = (f: (a: Tensor, b: Tensor, c: Tensor) => Tensor, a: Tensor, b: Tensor | null, c: Tensor | null, bi: Tensor, ci: Tensor) =>
      torch.stack([0, 1, 2].map((k) => f(a.select(0, k).clone(), b ? b.select(0, k) : bi, c ? c.select(0, k) : ci)));
    const looped = traceBatchedFallback(() => {
      for (const [ib, sb] of [[0, 0], [0, null], [null, 0], [null, null]] as (0 | null)[][]) {
        const what = `index ${ib} source ${sb}`;
        const args = (t: Tensor, u: Tensor): [Tensor, Tensor] => [ib === 0 ? i : t, sb === 0 ? u : u.select(0, 0)];
        // dim 0 with alpha, into the batched input itself (written in place)
        const f0 = (a: Tensor, b: Tensor, c: Tensor) => a.indexAdd_(0, b, c, { alpha: 2 });
        const xin = x.clone();
        const got = vmap(f0, { inDims: [0, ib, sb] })(xin, ...args(i.select(0, 1), s));
        const want = loopOf(f0, x, ib === 0 ? i : null, sb === 0 ? s : null, i.select(0, 1), s.select(0, 0));
        expect(got.tolist(), `${what} dim 0`).toEqual(want.tolist());
        expect(xin.tolist(), `${what}: the input was written`).toEqual(want.tolist());
        // dim 1 of a transposed self (a strided view of the physical value)
        const f1 = (a: Tensor, b: Tensor, c: Tensor) => a.mT.clone().indexAdd_(1, b, c.mT);
        const got1 = vmap(f1, { inDims: [0, ib, sb] })(x, ...args(i.select(0, 2), s));
        expect(got1.tolist(), `${what} dim 1`).toEqual(loopOf(f1, x, ib === 0 ? i : null, sb === 0 ? s : null, i.select(0, 2), s.select(0, 0)).tolist());
        // self batched along dim 1 of its input
        const xt = x.transpose(0, 1).contiguous();
        vmap(f0, { inDims: [1, ib, sb] })(xt, ...args(i.select(0, 1), s));
        expect(xt.transpose(0, 1).tolist(), `${what}, self batched along dim 1`).toEqual(want.tolist());
      }
      // a 0-dim self: each sample adds its own 1-element source (or scalar source) once per index
      const x0 = det([N], 16);
      const f = (a: Tensor, b: Tensor, c: Tensor) => a.clone().indexAdd_(0, b, c);
      const got = vmap(f, { inDims: [0, 0, 0] })(x0, long([[0], [0], [0]]), det([N, 1], 17));
      expect(got.tolist()).toEqual(torch.stack([0, 1, 2].map((k) => f(x0.select(0, k), long([0]), det([N, 1], 17).select(0, k)))).tolist());
      const gotF = vmap((a: Tensor) => torch.indexAdd(a, 0, long([0, 0]), torch.ones([2], { dtype: 'float64' })))(x0);
      expect(gotF.tolist()).toEqual(x0.add(2).tolist());
    });
    expect(looped).toEqual([]);
  });

  it('index_fill(_): every combination of batched self, index and value (scalar or 0-dim tensor), a 0-dim self: equals the loop without the fallback', () => {
    const x = det([N, 5, 4], 18);
    const i = long([[0, -1], [2, 2], [4, 1]]);
    const v = det([N], 19);
    const combos = [0, 1, 2, 3, 4, 5, 6, 7].map((m) => [m & 1 ? 0 : null, m & 2 ? 0 : null, m & 4 ? 0 : null] as (0 | null)[]).filter((d) => d.some((b) => b === 0));
    const looped = traceBatchedFallback(() => {
      for (const d of combos) {
        const args = [x, i, v].map((a, j) => (d[j] === 0 ? a : a.select(0, 1))) as [Tensor, Tensor, Tensor];
        const loop = (f: (a: Tensor, b: Tensor, c: Tensor) => Tensor) => torch.stack([0, 1, 2].map((k) => f(...(args.map((a, j) => (d[j] === 0 ? a.select(0, k) : a)) as [Tensor, Tensor, Tensor]))));
        const fs: [string, (a: Tensor, b: Tensor, c: Tensor) => Tensor][] = [
          ['indexFill, tensor value, dim 1', (a, b, c) => torch.indexFill(a, 1, b.remainder(4), c)],
          ['indexFill, scalar value, dim 0', (a, b) => torch.indexFill(a, 0, b, 7)],
        ];
        if (d[0] === 0) {
          fs.push(['indexFill_, tensor value, dim 0', (a, b, c) => a.clone().indexFill_(0, b, c)]);
          fs.push(['indexFill_, scalar value, dim -1', (a, b) => a.clone().indexFill_(-1, b.remainder(4), -2)]);
        }
        for (const [what, f] of fs) expect(vmap(f, { inDims: d })(...args).tolist(), `${what} inDims ${JSON.stringify(d)}`).toEqual(loop(f).tolist());
      }
      // a 0-dim self
      const x0 = det([N], 20);
      expect(vmap((a: Tensor, c: Tensor) => a.clone().indexFill_(0, long([0]), c))(x0, v).tolist()).toEqual(v.tolist());
      expect(vmap((a: Tensor) => torch.indexFill(a, 0, long([0]), 3))(x0).tolist()).toEqual([3, 3, 3]);
    });
    expect(looped).toEqual([]);
    expect(() => vmap((a: Tensor, b: Tensor) => a.clone().indexFill_(0, b, 1))(x, long([[0], [5], [1]]))).toThrow(/^index_fill_/);
  });

  it("an out-of-range index raises index_add_'s error; vmap(grad) through index_add_ equals the loop of grads", () => {
    const x = det([N, 5, 4], 14);
    const s = det([N, 3, 4], 15);
    for (const bad of [long([[0, 1, 2], [0, 5, 1], [0, 0, 0]]), long([[0, 1, 2], [0, -1, 1], [0, 0, 0]])]) {
      expect(() => vmap((a: Tensor, b: Tensor, c: Tensor) => a.clone().indexAdd_(0, b, c))(x, bad, s)).toThrow(/^index_add_/);
    }
    const i = long([[0, 4, 4], [1, 1, 2], [3, 0, 2]]);
    const loss = (a: Tensor, b: Tensor, c: Tensor) => a.mul(1).indexAdd_(0, b, c.mul(c), { alpha: 0.5 }).sin().sum();
    for (const argnums of [0, 2] as const) {
      const g = vmap(grad(loss, { argnums }))(x, i, s);
      const rows = [0, 1, 2].map((k) => grad(loss, { argnums })(x.select(0, k), i.select(0, k), s.select(0, k)));
      const want = torch.stack(rows).reshape(-1).tolist() as number[];
      (g.reshape(-1).tolist() as number[]).forEach((v, j) => expect(Math.abs(v - want[j]!), `grad ${argnums} at ${j}`).toBeLessThanOrEqual(1e-14));
    }
  });
});
