import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { gradValues, thrown } from './helpers';

/**
 * What the OpInfo table (packages/testing, goldens/ops_nn.json) cannot express for the NN
 * functional ops: Node names, in-place running statistics, gradients with real class
 * targets and padding rows, the random ops' exact values and distributions. Reference
 * values come from PyTorch 1.13 (CPU, AMD: no MKL bernoulli).
 */
const F = torch.nn.functional;

const close = (got: unknown, want: unknown, tol = 1e-6) => {
  const g = (got as number[]).flat(3) as number[];
  const w = (want as number[]).flat(3) as number[];
  expect(g.length).toBe(w.length);
  g.forEach((v, i) => expect(Math.abs(v - w[i])).toBeLessThanOrEqual(tol * (1 + Math.abs(w[i]))));
};

describe('Node names are PyTorch\'s', () => {
  it('softmax, log_softmax, nll_loss (2-D and K-dim), cross_entropy, norms, embedding, dropout, linear, losses', () => {
    const x = torch.randn([2, 3, 4], { requiresGrad: true });
    const x2 = torch.randn([2, 3], { requiresGrad: true });
    expect(F.softmax(x, 1).gradFn?.name()).toBe('SoftmaxBackward0');
    expect(F.logSoftmax(x, 1).gradFn?.name()).toBe('LogSoftmaxBackward0');
    expect(F.nllLoss(x2, torch.tensor([0, 2])).gradFn?.name()).toBe('NllLossBackward0');
    expect(F.nllLoss(x, torch.zeros([2, 4], { dtype: 'int64' })).gradFn?.name()).toBe('NllLoss2DBackward0');
    expect(F.crossEntropy(x, torch.zeros([2, 4], { dtype: 'int64' })).gradFn?.name()).toBe('NllLoss2DBackward0');
    expect(F.layerNorm(x, [4]).gradFn?.name()).toBe('NativeLayerNormBackward0');
    expect(F.groupNorm(x, 3).gradFn?.name()).toBe('NativeGroupNormBackward0');
    expect(F.batchNorm(x, null, null, { training: true }).gradFn?.name()).toBe('NativeBatchNormBackward0');
    expect(F.embedding(torch.tensor([1]), x2).gradFn?.name()).toBe('EmbeddingBackward0');
    expect(F.dropout(x).gradFn?.name()).toBe('MulBackward0');
    expect(F.linear(x2, torch.randn([4, 3]), torch.randn([4])).gradFn?.name()).toBe('AddmmBackward0');
    const c = x.detach();
    expect(F.mseLoss(x, c).gradFn?.name()).toBe('MseLossBackward0');
    expect(F.l1Loss(x, c).gradFn?.name()).toBe('MeanBackward0');
    expect(F.smoothL1Loss(x, c).gradFn?.name()).toBe('SmoothL1LossBackward0');
    expect(F.binaryCrossEntropy(torch.sigmoid(x), torch.sigmoid(c)).gradFn?.name()).toBe('BinaryCrossEntropyBackward0');
    expect(F.binaryCrossEntropyWithLogits(x, torch.sigmoid(c)).gradFn?.name()).toBe('BinaryCrossEntropyWithLogitsBackward0');
  });
});

describe('softmax', () => {
  it('is the method x.softmax(dim) and torch.softmax, with a dtype', () => {
    const x = torch.tensor([[1, 2, 3], [-1, 0, 5]], { dtype: 'float32' });
    const y = x.softmax(1);
    close(y.tolist(), [[0.09003057, 0.24472847, 0.66524096], [0.00245611, 0.00667641, 0.99086747]]);
    expect(torch.softmax(x, { dim: 1, dtype: 'float64' }).dtype).toBe('float64');
    close(x.logSoftmax(0).tolist(), [[-0.126928046, -0.126928046, -2.126928091], [-2.126928091, -2.126928091, -0.126928046]]);
  });

  it('refuses integer input and a dim out of range', () => {
    expect(thrown(() => F.softmax(torch.tensor([1, 2]), 0))).toBeInstanceOf(torch.DTypeError);
    expect(thrown(() => F.softmax(torch.tensor([1.5, 2.5]), 1))).toBeInstanceOf(torch.IndexError);
  });

  it('has a stable fused backward (double backward included)', () => {
    const x = torch.tensor([[1000, 0, -1000]], { dtype: 'float64', requiresGrad: true });
    const y = F.logSoftmax(x, 1);
    y.index(0, 1).backward();
    close(gradValues(x), [[-1, 1, 0]]);
  });
});

describe('losses', () => {
  it('cross_entropy gradient with real targets, weights and ignore_index', () => {
    const x = torch.tensor([[0.1, 0.2, 0.3], [1, -1, 0.5], [0.3, 0.3, 0.3]], { dtype: 'float64', requiresGrad: true });
    const loss = F.crossEntropy(x, torch.tensor([2, 0, -100]), { weight: torch.tensor([1, 2, 3], { dtype: 'float64' }) });
    // PyTorch 1.13: F.cross_entropy(...).backward()
    close([loss.item()], [0.8901963660824308], 1e-12);
    loss.backward();
    close(gradValues(x), [
      [0.2254572040167955, 0.2491687451500105, -0.4746259491668059],
      [-0.10647575175807636, 0.019423894787142643, 0.0870518569709337],
      [0, 0, 0],
    ], 1e-12);
  });

  it('nll_loss target out of bounds is an IndexError and leaks nothing', () => {
    const e = thrown(() => F.nllLoss(torch.zeros([2, 3]), torch.tensor([0, 3])));
    expect(e).toBeInstanceOf(torch.IndexError);
    expect(e.message).toMatch(/Target 3 is out of bounds/);
  });
});

describe('batchNorm', () => {
  it('updates the running stats in place as PyTorch (unbiased variance), bumping their version', () => {
    const x = torch.tensor([[1, 2], [3, 5], [4, -1]], { dtype: 'float32' });
    const rm = torch.zeros([2]);
    const rv = torch.ones([2]);
    const v = rm.version;
    F.batchNorm(x, rm, rv, { training: true, momentum: 0.1 });
    close(rm.tolist(), [0.2666666805744171, 0.20000000298023224]);
    close(rv.tolist(), [1.1333333253860474, 1.7999999523162842]);
    expect(rm.version).toBeGreaterThan(v);
  });

  it('uses the running stats in eval mode and needs them', () => {
    const x = torch.tensor([[1, 2], [3, 5]], { dtype: 'float64' });
    const y = F.batchNorm(x, torch.tensor([1, 1], { dtype: 'float64' }), torch.tensor([4, 1], { dtype: 'float64' }), { eps: 0 });
    close(y.tolist(), [[0, 1], [1, 4]]);
    expect(thrown(() => F.batchNorm(x, null, null))).toBeInstanceOf(torch.TorchError);
    expect(thrown(() => F.batchNorm(torch.ones([1, 2]), null, null, { training: true })).message).toMatch(/Expected more than 1 value per channel/);
  });
});

describe('embedding', () => {
  it('padding_idx rows get no gradient; scale_grad_by_freq divides by counts (PyTorch values)', () => {
    const w = torch.tensor([[1, 2, 2], [0.1, 0.2, 0.2], [3, 0, 4], [1, 1, 1]], { requiresGrad: true });
    F.embedding(torch.tensor([0, 2, 2, 3, 3, 3]), w, { paddingIdx: 3, scaleGradByFreq: true }).sum().backward();
    close(gradValues(w), [[1, 1, 1], [0, 0, 0], [1, 1, 1], [0, 0, 0]]);
  });

  it('maxNorm renormalises the looked-up rows in place, as embedding_renorm_', () => {
    const w = torch.tensor([[1, 2, 2], [0.1, 0.2, 0.2], [3, 0, 4], [1, 1, 1]]);
    const out = F.embedding(torch.tensor([[0, 2], [2, 1]]), w, { maxNorm: 2 });
    close(w.tolist(), [[0.6666666269302368, 1.3333332538604736, 1.3333332538604736], [0.1, 0.2, 0.2], [1.2000000476837158, 0, 1.600000023841858], [1, 1, 1]]);
    close(out.index(0).tolist(), [[0.6666666269302368, 1.3333332538604736, 1.3333332538604736], [1.2000000476837158, 0, 1.600000023841858]]);
  });
});

describe('random ops draw as PyTorch CPU', () => {
  it('bernoulli_(p) and bernoulli(probs) give PyTorch\'s values for a seed', () => {
    torch.manualSeed(1);
    expect(torch.empty([10]).bernoulli_(0.4).tolist()).toEqual([1, 1, 1, 1, 0, 1, 0, 0, 0, 0]);
    torch.manualSeed(1);
    expect(torch.bernoulli(torch.full([6], 0.5, { dtype: 'float64' })).tolist()).toEqual([1, 1, 1, 1, 0, 1]);
  });

  it('bernoulli_ fills a transposed tensor in memory order', () => {
    torch.manualSeed(2);
    const x = torch.empty([3, 2]).t();
    x.bernoulli_(0.5);
    expect(x.tolist()).toEqual([[0, 0, 0], [1, 0, 0]]);
  });

  it('dropout: PyTorch\'s mask for a seed; eval and p = 0 return the input; the gradient is the mask', () => {
    torch.manualSeed(0);
    expect(F.dropout(torch.ones([8]), { p: 0.5 }).tolist()).toEqual([0, 0, 2, 0, 0, 0, 2, 2]);
    const x = torch.ones([4]);
    expect(F.dropout(x, { training: false })).toBe(x);
    expect(F.dropout(x, { p: 0 })).toBe(x);
    expect(torch.dropout(x, 0.5, false)).toBe(x);
    const leaf = torch.ones([1000], { requiresGrad: true });
    torch.manualSeed(3);
    const y = F.dropout(leaf, { p: 0.25 });
    y.sum().backward();
    const g = leaf.grad!.tolist() as number[];
    const out = y.tolist() as number[];
    g.forEach((v, i) => expect(v).toBeCloseTo(out[i], 6));
    const kept = g.filter((v) => v !== 0).length;
    expect(kept).toBeGreaterThan(700);
    expect(kept).toBeLessThan(800);
  });

  it('dropout in place writes the input', () => {
    const x = torch.ones([6]);
    torch.manualSeed(0);
    const r = F.dropout(x, { p: 0.5, inplace: true });
    expect(r).toBe(x);
    expect(x.tolist()).toEqual([0, 0, 2, 0, 0, 0]);
  });

  it('multinomial with replacement gives PyTorch\'s samples', () => {
    torch.manualSeed(0);
    expect(torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 8, { replacement: true }).tolist()).toEqual([2, 2, 2, 2, 2, 2, 1, 2]);
  });

  it('multinomial without replacement: distinct categories, deterministic per seed, PyTorch\'s distribution', () => {
    const p = torch.tensor([[0.1, 0, 0.2, 0.7], [1, 1, 1, 1]]);
    torch.manualSeed(5);
    const a = torch.multinomial(p, 3).tolist() as number[][];
    torch.manualSeed(5);
    const b = torch.multinomial(p, 3).tolist() as number[][];
    expect(a).toEqual(b);
    for (const row of a) expect(new Set(row).size).toBe(3);
    expect(a[0]).not.toContain(1); // zero probability: never drawn while others remain
    const counts = [0, 0, 0, 0];
    const gen = new torch.Generator().manualSeed(11);
    for (let i = 0; i < 4000; i++) {
      const s = torch.multinomial(torch.tensor([0.1, 0, 0.2, 0.7]), 1, { generator: gen });
      counts[s.item() as number]++;
      s.dispose();
    }
    expect(counts[1]).toBe(0);
    expect(counts[3] / 4000).toBeGreaterThan(0.67);
    expect(counts[3] / 4000).toBeLessThan(0.73);
    expect(counts[0] / 4000).toBeGreaterThan(0.08);
    expect(counts[0] / 4000).toBeLessThan(0.12);
  });
});

describe('oneHot', () => {
  it('infers the class count and is int64', () => {
    const y = F.oneHot(torch.tensor([0, 2, 1]));
    expect(y.dtype).toBe('int64');
    expect(y.tolist()).toEqual([[1, 0, 0], [0, 0, 1], [0, 1, 0]]);
    expect((F.oneHot(torch.tensor([1]), 3) as Tensor).tolist()).toEqual([[0, 1, 0]]);
  });
});

describe('the meta device', () => {
  it('sizes the NN ops without computing', () => {
    const x = torch.empty([4, 5], { device: 'meta' });
    expect(F.softmax(x, 1).shape).toEqual([4, 5]);
    expect(F.crossEntropy(x, torch.empty([4], { dtype: 'int64', device: 'meta' }), { reduction: 'none' }).shape).toEqual([4]);
    expect(F.batchNorm(x, null, null, { training: true }).shape).toEqual([4, 5]);
    expect(F.layerNorm(x, [5]).shape).toEqual([4, 5]);
    expect(F.mseLoss(x, x, { reduction: 'none' }).shape).toEqual([4, 5]);
    expect(F.embedding(torch.empty([2, 3], { dtype: 'int64', device: 'meta' }), x).shape).toEqual([2, 3, 5]);
  });
});
