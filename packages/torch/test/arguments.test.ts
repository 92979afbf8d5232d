import { describe, expect, it } from 'vitest';
import * as torch from '../src';
import { NotImplementedError, TorchTypeError } from '../src';

// Issue 15's silently dropped arguments: each is honoured positionally and by keyword (the
// two forms agree, and equal a straightforward reference), or refused with PyTorch's error.
const F = torch.nn.functional;
const close = (a: torch.Tensor, b: number[] | number[][]) => {
  const got = [a.tolist()].flat(2) as number[]; // (a 0-dim result lists as a number)
  const want = (b as number[] | number[][]).flat() as number[];
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(g).toBeCloseTo(want[i], 5));
};
const xs = [-2, -0.5, 0.5, 2, 3];
const x = torch.tensor(xs);

describe('arguments are bound as PyTorch binds them', () => {
  it('leakyRelu and hardtanh take their scalars positionally and by keyword', () => {
    const leaky = xs.map((v) => (v < 0 ? 0.2 * v : v));
    close(F.leakyRelu(x, 0.2), leaky);
    close(F.leakyRelu(x, { negativeSlope: 0.2 }), leaky);
    const ht = xs.map((v) => Math.min(0.5, Math.max(-0.5, v)));
    close(F.hardtanh(x, -0.5, 0.5), ht);
    close(F.hardtanh(x, -0.5, { maxVal: 0.5 }), ht);
    close(F.elu(x, 2), xs.map((v) => (v > 0 ? v : 2 * Math.expm1(v))));
    close(F.softplus(x, 2, 1), xs.map((v) => (2 * v > 1 ? v : Math.log1p(Math.exp(2 * v)) / 2)));
    close(torch.logit(torch.tensor([0, 0.5, 1]), 0.01), [Math.log(0.01 / 0.99), 0, Math.log(0.99 / 0.01)]);
  });

  it('inplace: true modifies the input, for relu and the activations', () => {
    const y = x.clone();
    expect(F.relu(y, { inplace: true })).toBe(y);
    close(y, xs.map((v) => Math.max(0, v)));
    const z = x.clone();
    expect(F.leakyRelu(z, 0.1, true)).toBe(z);
    close(z, xs.map((v) => (v < 0 ? 0.1 * v : v)));
  });

  it('layerNorm, groupNorm and batchNorm apply their weight and bias', () => {
    const w = torch.tensor([1, 2, 3, 4, 5]);
    const b = torch.tensor([0, 0, 0, 0, 1]);
    const mean = xs.reduce((s, v) => s + v) / 5;
    const rstd = 1 / Math.sqrt(xs.reduce((s, v) => s + (v - mean) ** 2, 0) / 5 + 1e-5);
    const ln = xs.map((v, i) => (v - mean) * rstd * (i + 1) + (i === 4 ? 1 : 0));
    close(F.layerNorm(x.view(1, 5), [5], w, b), [ln]);
    close(F.layerNorm(x.view(1, 5), 5, { weight: w, bias: b }), [ln]);
    const g = torch.arange(8, { dtype: 'float32' }).reshape(1, 4, 2);
    const gw = torch.tensor([1, 2, 3, 4]);
    const gb = torch.tensor([0, 0, 0, 1]);
    // two groups of [0..3] and [4..7]: both normalise to (k - 1.5) / sqrt(1.25 + eps)
    const n = [0, 1, 2, 3].map((k) => (k - 1.5) / Math.sqrt(1.25 + 1e-5));
    const gn = [n[0] * 1, n[1] * 1, n[2] * 2, n[3] * 2, n[0] * 3, n[1] * 3, n[2] * 4 + 1, n[3] * 4 + 1];
    close(F.groupNorm(g, 2, gw, gb).flatten(), gn);
    close(F.groupNorm(g, 2, { weight: gw, bias: gb }).flatten(), gn);
    const bx = torch.arange(8, { dtype: 'float32' }).reshape(2, 4);
    const s = 1 / Math.sqrt(1 + 1e-5);
    const bn = [0, 1, 2, 3, 4, 5, 6, 7].map((v, i) => v * s * [1, 2, 3, 4][i % 4] + (i % 4 === 3 ? 1 : 0));
    close(F.batchNorm(bx, torch.zeros([4]), torch.ones([4]), gw, gb).flatten(), bn);
    close(F.batchNorm(bx, torch.zeros([4]), torch.ones([4]), { weight: gw, bias: gb }).flatten(), bn);
  });

  it('maxPool2d honours its padding, avgPool2d its stride, interpolate its size', () => {
    const img = torch.arange(16, { dtype: 'float32' }).reshape(1, 1, 4, 4);
    close(F.maxPool2d(img, 3, 2, 1).flatten(), [5, 7, 13, 15]);
    close(F.maxPool2d(img, 3, { stride: 2, padding: 1 }).flatten(), [5, 7, 13, 15]);
    close(F.avgPool2d(img, 2, 2).flatten(), [2.5, 4.5, 10.5, 12.5]);
    close(F.interpolate(img, [2, 2]).flatten(), [0, 2, 8, 10]);
    close(F.interpolate(img, { size: 2, mode: 'nearest' }).flatten(), [0, 2, 8, 10]);
    close(F.interpolate(img, null, 0.5).flatten(), [0, 2, 8, 10]);
  });

  it('clamp, roll and pow take their PyTorch forms', () => {
    close(x.clamp({ min: 0 }), xs.map((v) => Math.max(0, v)));
    close(torch.clamp(x, null, 1), xs.map((v) => Math.min(1, v)));
    close(torch.roll(torch.arange(4), { shifts: 2, dims: 0 }), [2, 3, 0, 1]);
    close(torch.roll(torch.arange(4), 1), [3, 0, 1, 2]);
    const p = torch.pow(2, torch.tensor([1, 2, 3]));
    expect(p.dtype).toBe('int64');
    close(p, [2, 4, 8]);
    close(torch.pow(2.5, torch.tensor([1, 2])), [2.5, 6.25]);
    expect(torch.pow(2.5, torch.tensor([1, 2])).dtype).toBe('float32');
  });

  it('reductions, sort, topk and cat honour their positional flags', () => {
    const m = torch.tensor([[1.5, 2.5, 0.5], [4.5, 3.5, 5.5]]);
    expect(torch.sum(m, 1, true).shape).toEqual([2, 1]);
    expect(m.mean(1, true).shape).toEqual([2, 1]);
    expect(torch.mean(m, 1, false, { dtype: 'float64' }).dtype).toBe('float64');
    expect(torch.std(m, 1, true, true).shape).toEqual([2, 1]);
    close(torch.std(m, 1, false), [Math.sqrt(2 / 3), Math.sqrt(2 / 3)]);
    close(torch.var(m, { dim: 1, correction: 0 }), [2 / 3, 2 / 3]);
    expect(torch.logsumexp(m, 1, true).shape).toEqual([2, 1]);
    expect(m.max(1, true).values.shape).toEqual([2, 1]);
    close(torch.tensor([1.5, 3.5, 2.5]).topk(2, 0, false).values, [1.5, 2.5]);
    close(torch.tensor([1.5, 3.5, 2.5]).sort(0, true).values, [3.5, 2.5, 1.5]);
    expect(torch.cat([torch.ones([1, 2]), torch.zeros([1, 2])], 1).shape).toEqual([1, 4]);
    expect(() => torch.sum(m, { dimm: 0 } as never)).toThrow("sum() got an unexpected keyword argument 'dimm'");
    expect(() => torch.cat([torch.ones([1]), 3 as never])).toThrow('cat(): expected Tensor as element 1 in argument 0, but got number');
  });

  it('losses take their reduction and weights positionally as F.* does', () => {
    const a = torch.tensor([1.5, 2.5]);
    const b = torch.tensor([0.5, 0.5]);
    close(F.mseLoss(a, b, null, null, 'sum'), [1 + 4]);
    close(F.mseLoss(a, b, { reduction: 'none' }), [1, 4]);
    const logits = torch.tensor([[1.5, 0.5, -0.5], [0.25, 0.75, 1.25]]);
    const target = torch.tensor([2, 0]);
    const lp = logits.logSoftmax(1).tolist() as number[][];
    close(F.crossEntropy(logits, target, null, null, 2), [-lp[1][0]]); // ignore_index 2 drops the first row
    close(F.nllLoss(logits.logSoftmax(1), target, { reduction: 'sum' }), [-lp[0][2] - lp[1][0]]);
    expect(() => F.mseLoss(a, b, true as never)).toThrow("mse_loss(): argument 'sizeAverage' is not supported by torch-ts yet");
  });

  it('conv2d, linear, pad and dropout take their arguments positionally', () => {
    const img = torch.arange(16, { dtype: 'float32' }).reshape(1, 1, 4, 4);
    const w = torch.ones([1, 1, 3, 3]);
    // stride 2 over a 4x4 input with a 3x3 kernel: one window (rows and columns 0..2)
    close(F.conv2d(img, w, null, 2).flatten(), [45]);
    close(F.conv2d(img, w, torch.tensor([0.5]), 1, 1).flatten().narrow(0, 0, 2), [10.5, 18.5]);
    expect(F.conv2d(img, w, null, 1, 'same').shape).toEqual([1, 1, 4, 4]);
    expect(F.conv2d(img, w, { padding: 'same' }).shape).toEqual([1, 1, 4, 4]);
    expect(torch.conv1d(torch.ones([1, 1, 4]), torch.ones([1, 1, 3]), { padding: 'valid', stride: 1 }).shape).toEqual([1, 1, 2]);
    expect(() => F.conv2d(img, w, { padding: 'full' } as never)).toThrow("conv2d: Invalid padding string: 'full'");
    expect(() => torch.bernoulli(torch.ones([2]), { out: torch.ones([2]) })).toThrow("bernoulli(): argument 'out' is not supported by torch-ts yet");
    expect(() => F.conv2d(img, w, { strid: 2 } as never)).toThrow('conv2d() received an invalid combination of arguments');
    close(F.linear(torch.ones([1, 2]), torch.ones([3, 2]), torch.tensor([0.5, 1.5, 2.5])), [[2.5, 3.5, 4.5]]);
    close(F.pad(torch.ones([1, 1, 2]), [1, 1], 'constant', 5).flatten(), [5, 1, 1, 5]);
    close(F.dropout(torch.ones([4]), 0.9, false), [1, 1, 1, 1]);
    expect(() => F.pad(torch.ones([1, 1, 2]), [1, 1], { valu: 5 } as never)).toThrow("pad() got an unexpected keyword argument 'valu'");
  });

  it('binds the factories as PyTorch binds them', () => {
    expect(torch.zeros(2, 3, { dtype: 'int32' }).dtype).toBe('int32');
    expect(torch.ones({ size: [2], dtype: 'double' }).tolist()).toEqual([1, 1]);
    expect(torch.full({ size: [2], fillValue: 3 }).tolist()).toEqual([3, 3]);
    expect(torch.full([2], 3, { dtype: 'float64' }).dtype).toBe('float64');
    expect(torch.arange({ end: 3 }).tolist()).toEqual([0, 1, 2]);
    expect(torch.arange(1, { end: 3 }).tolist()).toEqual([1, 2]);
    expect(torch.arange(1, 6, 2).tolist()).toEqual([1, 3, 5]);
    expect(torch.eye({ n: 2 }).tolist()).toEqual([[1, 0], [0, 1]]);
    expect(torch.eye(2, { m: 3 }).shape).toEqual([2, 3]);
    expect(torch.linspace({ start: 0, end: 1, steps: 3 }).tolist()).toEqual([0, 0.5, 1]);
    expect(torch.tensor({ data: [1, 2], dtype: 'int32' }).dtype).toBe('int32');
    expect(torch.randLike(torch.zeros([2], { dtype: 'float64' })).dtype).toBe('float64');
    // PyTorch: `arange(5, step=2)` matches none of its signatures
    expect(() => torch.arange(5, { step: 2 } as never)).toThrow('arange() received an invalid combination of arguments - got (number, {step})');
  });

  it('refuses factory arguments it used to ignore or misread', () => {
    expect(() => torch.tensor([1], { dtpye: 'int32' } as never)).toThrow("tensor() got an unexpected keyword argument 'dtpye'");
    expect(() => torch.tensor([1], { pinMemory: true })).toThrow(NotImplementedError);
    expect(() => torch.linspace('a' as never, 1, 3)).toThrow("linspace(): argument 'start' (position 1) must be Number, not string");
    expect(() => torch.linspace(0, 1, 2.5)).toThrow("linspace(): argument 'steps' (position 3) must be int, not number");
    expect(() => torch.eye(2, 'x' as never)).toThrow('eye() received an invalid combination of arguments - got (number, string)');
    expect(() => torch.arange(3, { generator: new torch.Generator() } as never)).toThrow('arange() received an invalid combination of arguments');
    expect(() => torch.randLike(torch.zeros([2]), { generator: new torch.Generator() } as never)).toThrow("rand_like() got an unexpected keyword argument 'generator'");
  });

  it('has trueDivide_ and floorDivide_', () => {
    close(x.clone().trueDivide_(2), xs.map((v) => v / 2));
    close(x.clone().floorDivide_(2), xs.map((v) => Math.floor(v / 2)));
  });

  it('refuses what it cannot honour instead of ignoring it', () => {
    const img = torch.zeros([1, 2, 2, 2]);
    expect(() => img.contiguous({ memoryFormat: 'channelsLast' } as never)).toThrow("contiguous(): memory_format must be one of");
    expect(() => torch.zeros([1, 2, 2, 2], { memoryFormat: 'channels_last' } as never)).toThrow(NotImplementedError); // (PyTorch's zeros has no memory_format)
    expect(() => torch.zeros([2], { names: ['N'] } as never)).toThrow("zeros(): argument 'names' is not supported by torch-ts yet");
    expect(() => torch.zeros([2], { dtpye: 'float64' } as never)).toThrow(TorchTypeError);
    expect(() => torch.zeros([2], { dtpye: 'float64' } as never)).toThrow("zeros() got an unexpected keyword argument 'dtpye'");
    expect(() => F.leakyRelu(x, 0.1, false, 4 as never)).toThrow('leaky_relu() takes from 1 to 3 positional arguments but 4 were given');
    expect(() => F.leakyRelu(x, { negativeSlop: 0.1 } as never)).toThrow("leaky_relu() got an unexpected keyword argument 'negativeSlop'");
    expect(() => x.clamp({ min: 'a' } as never)).toThrow("clamp(): argument 'min' must be Tensor or Number, not string");
    expect(() => F.interpolate(torch.zeros([1, 1, 2, 2]), 4, { antialias: true })).toThrow(NotImplementedError);
    expect(() => torch.pow('2' as never, x)).toThrow('pow() received an invalid combination of arguments - got (string, Tensor)');
  });
});
