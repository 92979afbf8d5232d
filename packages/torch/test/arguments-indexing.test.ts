import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { NotImplementedError, TorchTypeError } from '@torch-ts/torch';
import { expectForms, inputs, untyped } from './arguments-golden';

// Issue 15, indexing, scans, order statistics, matrix products and F: each argument
// positionally, by keyword, mixed and as a method gives PyTorch's result for its keyword call
// (goldens/arguments.json); an unknown keyword and one positional too many raise PyTorch's TypeError.
const F = torch.nn.functional;

describe('indexing ops bind their arguments as PyTorch does', () => {
  const { y, idx, mask } = inputs();
  const zeros = () => torch.zeros([3, 4]);
  const ones = () => torch.ones([3, 4]);

  it('gather, scatter (src, value, reduce), scatterAdd, scatterReduce', () => {
    expectForms('gather', [() => y.gather(1, idx), () => torch.gather(y, { dim: 1, index: idx }), () => torch.gather(y, 1, { index: idx, sparseGrad: false })]);
    expectForms('scatter', [() => zeros().scatter(1, idx, y), () => torch.scatter(zeros(), { dim: 1, index: idx, src: y }), () => zeros().scatter_(1, idx, { src: y })]);
    expectForms('scatter_value', [() => zeros().scatter(1, idx, 2.5), () => torch.scatter(zeros(), 1, idx, { value: 2.5 }), () => zeros().scatter_(1, idx, 2.5)]);
    expectForms('scatter_reduce_add', [() => ones().scatter(1, idx, y, { reduce: 'add' }), () => torch.scatter(ones(), { dim: 1, index: idx, src: y, reduce: 'add' }), () => ones().scatter_(1, idx, y, { reduce: 'add' })]);
    expectForms('scatter_add', [() => zeros().scatterAdd(1, idx, y), () => torch.scatterAdd(zeros(), { dim: 1, index: idx, src: y }), () => zeros().scatterAdd_(1, idx, { src: y })]);
    expectForms('scatter_reduce', [
      () => ones().scatterReduce(1, idx, y, 'amax', { includeSelf: false }),
      () => torch.scatterReduce(ones(), { dim: 1, index: idx, src: y, reduce: 'amax', includeSelf: false }),
      () => ones().scatterReduce_(1, idx, y, { reduce: 'amax', includeSelf: false }),
    ]);
  });

  it('indexSelect, indexAdd, indexFill, take', () => {
    const i2 = torch.tensor([2, 0]);
    expectForms('index_select', [() => y.indexSelect(1, i2), () => torch.indexSelect(y, { dim: 1, index: i2 }), () => torch.indexSelect(y, 1, { index: i2 })]);
    expectForms('index_add', [
      () => y.indexAdd(0, i2, torch.ones([2, 4]), { alpha: 2 }),
      () => torch.indexAdd(y, { dim: 0, index: i2, source: torch.ones([2, 4]), alpha: 2 }),
      () => y.clone().indexAdd_(0, i2, { source: torch.ones([2, 4]), alpha: 2 }),
    ]);
    const i13 = torch.tensor([1, 3]);
    expectForms('index_fill', [() => y.indexFill(1, i13, -1), () => torch.indexFill(y, { dim: 1, index: i13, value: -1 }), () => y.clone().indexFill_(1, i13, torch.tensor(-1))]);
    const t = torch.tensor([[0, 5], [11, 3]]);
    expectForms('take', [() => y.take(t), () => torch.take(y, { index: t })]);
  });

  it('maskedFill, maskedSelect, maskedScatter, nonzero (asTuple)', () => {
    expectForms('masked_fill', [() => y.maskedFill(mask, 0.5), () => torch.maskedFill(y, { mask, value: 0.5 }), () => y.clone().maskedFill_(mask, { value: 0.5 })]);
    expectForms('masked_select', [() => y.maskedSelect(mask), () => torch.maskedSelect(y, { mask })]);
    const src = torch.arange(12, { dtype: 'float32' }).view(3, 4).neg();
    expectForms('masked_scatter', [() => y.maskedScatter(mask, src), () => torch.maskedScatter(y, { mask, source: src }), () => y.clone().maskedScatter_(mask, { source: src })]);
    expectForms('nonzero', [() => mask.nonzero(), () => torch.nonzero(mask, { asTuple: false }), () => torch.nonzero({ input: mask } as never)]);
    expectForms('nonzero_tuple', [() => mask.nonzero({ asTuple: true }), () => torch.nonzero(mask, { asTuple: true })]);
  });

  it('refuses what it cannot bind, in PyTorch words', () => {
    const refused: [() => unknown, string][] = [
      [() => y.gather(1, idx, { sparse: true } as never), "gather() got an unexpected keyword argument 'sparse'"],
      [() => y.gather(1, idx, true as never), 'gather() takes 3 positional arguments but 4 were given'],
      [() => y.scatter(1, idx, y, 'add' as never), 'scatter() received an invalid combination of arguments'],
      [() => y.indexSelect(1, idx, 0 as never), 'index_select() takes 3 positional arguments but 4 were given'],
      [() => y.indexAdd(0, idx, y, 2 as never), 'index_add() takes 4 positional arguments but 5 were given'],
      [() => y.take(idx, { dim: 0 } as never), "take() got an unexpected keyword argument 'dim'"],
      [() => y.maskedSelect(mask, mask as never), 'masked_select() takes 2 positional arguments but 3 were given'],
      [() => y.nonzero({ as_tuple: true } as never), "nonzero() got an unexpected keyword argument 'as_tuple'"],
      [() => y.maskedFill(mask, 'a' as never), 'masked_fill() received an invalid combination of arguments'],
      [() => y.gather('1' as never, idx), "gather(): argument 'dim' (position 2) must be int, not string"],
    ];
    for (const [fn, message] of refused) {
      expect(fn).toThrow(TorchTypeError);
      expect(fn).toThrow(message);
    }
  });
});

describe('scans, order statistics and unique bind their arguments as PyTorch does', () => {
  const { y, u, seq, vals } = inputs();

  it('cumsum, cumprod (dtype keyword-only), cummax, cummin', () => {
    expectForms('cumsum', [() => y.cumsum(1, { dtype: 'float64' }), () => torch.cumsum(y, { dim: 1, dtype: 'float64' }), () => y.clone().double().cumsum_(1)]);
    const y1 = y.add(1);
    expectForms('cumprod', [() => y1.cumprod(0), () => torch.cumprod(y1, { dim: 0 }), () => y1.clone().cumprod_({ dim: 0 })]);
    expectForms('cummax', [() => u.cummax(1), () => torch.cummax(u, { dim: 1 })]);
    expectForms('cummin', [() => u.cummin(0), () => torch.cummin(u, { dim: 0 })]);
    expect(() => torch.cumsum(y, 1, 'float64' as never)).toThrow('cumsum() takes 2 positional arguments but 3 were given');
    expect(() => untyped(y, 'cummax')).toThrow('cummax() missing 1 required positional argument: "dim"');
  });

  it('median (with and without dim), mode, unique, searchsorted, bucketize', () => {
    const uf = u.float();
    expectForms('median', [() => uf.median(1, true), () => torch.median(uf, { dim: 1, keepdim: true }), () => torch.median(uf, 1, { keepdim: true })]);
    expectForms('median_all', [() => uf.median(), () => torch.median(uf)]);
    expectForms('mode', [() => u.mode(0), () => torch.mode(u, { dim: 0 }), () => u.mode(0, false)]);
    expectForms('unique', [() => u.unique(true, true, true), () => torch.unique(u, { sorted: true, returnInverse: true, returnCounts: true }), () => torch.unique(u, true, { returnInverse: true, returnCounts: true })]);
    expectForms('unique_dim', [() => u.unique(true, false, true, 0), () => torch.unique(u, { returnCounts: true, dim: 0 })]);
    expectForms('searchsorted', [() => torch.searchsorted(seq, vals, { right: true }), () => torch.searchsorted(seq, { input: vals, side: 'right' })]);
    expectForms('bucketize', [() => torch.bucketize(vals, seq, { outInt32: true }), () => torch.bucketize(vals, { boundaries: seq, outInt32: true })]);
    expect(() => uf.median(1, true, true as never)).toThrow('median() received an invalid combination of arguments');
    expect(() => u.unique(true, true, true, 0, 1 as never)).toThrow('unique() takes from 1 to 5 positional arguments but 6 were given');
    expect(() => torch.searchsorted(seq, vals, true as never)).toThrow('searchsorted() received an invalid combination of arguments');
  });
});

describe('matrix products and F bind their arguments as PyTorch does', () => {
  const { v, w, a, b, ba, bb, c, img } = inputs();

  it('mm, bmm, mv, dot (keyword tensor), matmul, addmm and baddbmm (beta and alpha keyword-only), outer', () => {
    expectForms('mm', [() => a.mm(b), () => torch.mm(a, { mat2: b }), () => untyped(torch, 'mm', { input: a, mat2: b })]);
    expectForms('bmm', [() => ba.bmm(bb), () => torch.bmm(ba, { mat2: bb })]);
    expectForms('mv', [() => b.mv(v), () => torch.mv(b, { vec: v })]);
    expectForms('dot', [() => v.dot(w), () => torch.dot(v, { tensor: w })]);
    expectForms('matmul', [() => ba.matmul(bb), () => torch.matmul(ba, { other: bb })]);
    expectForms('addmm', [() => c.addmm(a, b, { beta: 0.5, alpha: 2 }), () => torch.addmm(c, { mat1: a, mat2: b, beta: 0.5, alpha: 2 })]);
    const o = torch.ones([2, 2, 2]);
    expectForms('baddbmm', [() => o.baddbmm(ba, bb, { beta: 2, alpha: 0.5 }), () => torch.baddbmm(o, { batch1: ba, batch2: bb, beta: 2, alpha: 0.5 })]);
    expectForms('outer', [() => v.outer(w), () => torch.outer(v, { vec2: w }), () => torch.ger(v, w)]);
    expect(() => torch.addmm(c, a, b, 0.5 as never)).toThrow('addmm() takes 3 positional arguments but 4 were given');
    expect(() => torch.dot(v, { other: w } as never)).toThrow("dot() got an unexpected keyword argument 'other'");
    expect(() => torch.outer(v, w, { out: torch.empty([4, 4]) })).toThrow(NotImplementedError);
    const td = torch.tensordot(ba, bb, [[2], [1]]);
    expect(td.shape).toEqual([2, 2, 2, 2]);
    expect(torch.tensordot(ba, { b: bb, dims: [[2], [1]] }).tolist()).toEqual(td.tolist());
    expect((untyped(torch, 'tensordot', { a: ba, b: bb, dims: [2, 1] }) as torch.Tensor).tolist()).toEqual(td.tolist());
    expect(() => torch.tensordot(ba, bb, { dim: 1 } as never)).toThrow("tensordot() got an unexpected keyword argument 'dim'");
  });

  it('F.oneHot and F.adaptiveAvgPool2d (null keeps a size)', () => {
    const t = torch.tensor([0, 3, 1]);
    expectForms('one_hot', [() => F.oneHot(t, 5), () => F.oneHot(t, { numClasses: 5 })]);
    expectForms('adaptive_avg_pool2d', [() => F.adaptiveAvgPool2d(img, [null, 2]), () => F.adaptiveAvgPool2d(img, { outputSize: [4, 2] })]);
    expect(() => F.oneHot(t, 5, 1 as never)).toThrow('one_hot() takes from 1 to 2 positional arguments but 3 were given');
    expect(() => F.adaptiveAvgPool2d(img, { size: 2 } as never)).toThrow("adaptive_avg_pool2d() got an unexpected keyword argument 'size'");
  });
});

describe('random ops bind their arguments as PyTorch does', () => {
  const gen = () => new torch.Generator().manualSeed(7);
  const same = (forms: (() => torch.Tensor)[]) => {
    const [first, ...rest] = forms.map((f) => f().tolist());
    for (const r of rest) expect(r).toEqual(first);
  };

  it('the same seed gives the same draw positionally and by keyword', () => {
    const p = torch.full([3, 4], 0.5);
    same([() => torch.bernoulli(p, { generator: gen() }), () => p.bernoulli({ generator: gen() }), () => torch.bernoulli({ input: p, generator: gen() } as never)]);
    same([() => torch.bernoulli(p, 0.3, { generator: gen() }), () => torch.bernoulli(p, { p: 0.3, generator: gen() })]);
    same([() => torch.zeros([5]).bernoulli_(0.3, { generator: gen() }), () => torch.zeros([5]).bernoulli_({ p: 0.3, generator: gen() })]);
    const probs = torch.tensor([0.1, 0.2, 0.3, 0.4]);
    same([() => probs.multinomial(6, true, { generator: gen() }), () => torch.multinomial(probs, { numSamples: 6, replacement: true, generator: gen() }), () => torch.multinomial(probs, 6, { replacement: true, generator: gen() })]);
    same([() => torch.randint(0, 10, [4], { generator: gen() }), () => torch.randint(10, [4], { generator: gen() }), () => torch.randint({ low: 0, high: 10, size: [4], generator: gen() })]);
    same([() => torch.randperm(5, { generator: gen() }), () => torch.randperm({ n: 5, generator: gen() } as never)]);
    same([() => torch.rand(2, 3, { generator: gen() }), () => torch.rand([2, 3], { generator: gen() }), () => torch.rand({ size: [2, 3], generator: gen() })]);
    same([() => torch.zeros([4]).uniform_(-1, 1, { generator: gen() }), () => torch.zeros([4]).uniform_({ from: -1, to: 1, generator: gen() })]);
    same([() => torch.zeros([4]).normal_(2, 0.5, { generator: gen() }), () => torch.zeros([4]).normal_(2, { std: 0.5, generator: gen() })]);
  });

  it('refuses what it cannot bind', () => {
    expect(() => torch.randint(3, 5 as never)).toThrow("randint(): argument 'size' must be tuple of ints, not number");
    expect(() => torch.rand(2, { generater: gen() } as never)).toThrow("rand() got an unexpected keyword argument 'generater'");
    expect(() => torch.zeros(2, { generator: gen() } as never)).toThrow("zeros() got an unexpected keyword argument 'generator'");
    expect(() => torch.zeros([4]).uniform_(0, 1, { a: 1 } as never)).toThrow("uniform_() got an unexpected keyword argument 'a'");
    expect(() => torch.multinomial(torch.ones([2]), 1, false, 3 as never)).toThrow('multinomial() takes from 2 to 3 positional arguments but 4 were given');
    expect(() => torch.bernoulli(torch.ones([2]), { out: torch.empty([2]) })).toThrow(NotImplementedError);
  });
});

describe('full, the *Like factories and the copies bind their arguments as PyTorch does', () => {
  it('take their arguments positionally and by keyword, and refuse unknown ones', () => {
    const t = torch.ones([2, 3], { dtype: 'float64' });
    expect(torch.full([2], 1.5).tolist()).toEqual([1.5, 1.5]);
    expect(torch.full({ size: [2], fillValue: 1.5, dtype: 'float64' }).dtype).toBe('float64');
    expect(torch.full([2], { fillValue: 2 }).dtype).toBe('int64');
    expect(torch.zerosLike(t).dtype).toBe('float64');
    expect(torch.zerosLike(t, { dtype: 'int32' }).dtype).toBe('int32');
    expect(torch.emptyLike(t, { requiresGrad: true }).requiresGrad).toBe(true);
    expect(torch.fullLike(t, { fillValue: 2 }).tolist()).toEqual([[2, 2, 2], [2, 2, 2]]);
    expect(torch.zeros([2]).copy_({ src: torch.ones([2]) }).tolist()).toEqual([1, 1]);
    expect(torch.zeros([2]).copy_(torch.ones([2]), true).tolist()).toEqual([1, 1]);
    expect(torch.zeros([2]).fill_({ value: 3 }).tolist()).toEqual([3, 3]);
    expect(torch.zeros([2]).fill_(torch.tensor(3)).tolist()).toEqual([3, 3]);
    expect(t.clone({ memoryFormat: 'contiguous' }).tolist()).toEqual(t.tolist());
    const refused: [() => unknown, string][] = [
      [() => torch.onesLike(t, { shape: [2] } as never), "ones_like() got an unexpected keyword argument 'shape'"],
      [() => torch.full([2], 1, 2 as never), 'full() takes 2 positional arguments but 3 were given'],
      [() => untyped(torch.zeros([2]), 'zero_', 1), 'zero_() takes 1 positional argument but 2 were given'],
      [() => t.clone({ memory_format: 'contiguous' } as never), "clone() got an unexpected keyword argument 'memory_format'"],
      [() => torch.zeros([2]).copy_(torch.ones([2]), { nonblocking: true } as never), "copy_() got an unexpected keyword argument 'nonblocking'"],
    ];
    for (const [fn, message] of refused) {
      expect(fn).toThrow(TorchTypeError);
      expect(fn).toThrow(message);
    }
    expect(torch.zerosLike(t.t(), { memoryFormat: 'contiguous' }).stride()).toEqual([2, 1]);
  });

  it('to: a dtype, a device, both, another tensor, or keywords', () => {
    const t = torch.ones([2]);
    expect(t.to('float64').dtype).toBe('float64');
    expect(t.to('cpu', 'float64').dtype).toBe('float64');
    expect(t.to({ dtype: 'int32' }).dtype).toBe('int32');
    expect(t.to(torch.zeros([1], { dtype: 'int64' })).dtype).toBe('int64');
    expect(t.to('float32')).toBe(t);
    expect(t.to({ type: 'cpu' })).toBe(t);
    expect(t.to('float32', false, true)).not.toBe(t);
    expect(t.to({ copy: true })).not.toBe(t);
    expect(() => t.to({ dtpye: 'int32' } as never)).toThrow("to() got an unexpected keyword argument 'dtpye'");
    expect(() => t.to('float64', false, false, true as never)).toThrow('to() takes from 2 to 4 positional arguments but 5 were given');
    expect(t.to('float64', { memoryFormat: 'contiguous' }).dtype).toBe('float64');
  });
});
