/**
 * Focused tests of the statistics reductions and scans that the OpInfo table cannot express:
 * gradFn names, tuple shapes (`.values`/`.indices`, plain arrays), option spellings, the
 * cumprod gradient at zeros, in-place autograd, and accuracy on long inputs.
 */
import * as torch from '@torch-ts/torch';
import { describe, expect, it } from 'vitest';
import { thrown } from './helpers';

const f64 = (data: torch.TensorData, requiresGrad = false) => torch.tensor(data, { dtype: 'float64', requiresGrad });
const { gradcheck, gradgradcheck } = torch.autograd;

describe('gradFn names (as PyTorch 2.x)', () => {
  it('names each Node', () => {
    const x = f64([[1, 2, 3], [4, 5, 7]], true);
    const names = [
      torch.var(x),
      torch.var(x, 0),
      torch.std(x, 1),
      torch.varMean(x)[0],
      torch.stdMean(x, 1)[1],
      torch.logsumexp(x, 1),
      torch.norm(x),
      torch.norm(x, 1, 1),
      torch.median(x),
      torch.median(x, 1).values,
      torch.mode(x, 0).values,
      torch.cumsum(x, 0),
      torch.cumprod(x, 1),
      torch.cummax(x, 0).values,
      torch.cummin(x, 1).values,
    ].map((r) => r.gradFn?.name());
    expect(names).toEqual([
      'VarBackward0',
      'VarBackward0',
      'StdBackward0',
      'VarMeanBackward0',
      'StdMeanBackward0',
      'LogsumexpBackward0',
      // PyTorch 2.x's torch.norm is linalg.vector_norm (1.13 recorded NormBackward1)
      'LinalgVectorNormBackward0',
      'LinalgVectorNormBackward0',
      'MedianBackward0',
      'MedianBackward1',
      'ModeBackward0',
      'CumsumBackward0',
      'CumprodBackward0',
      'CummaxBackward0',
      'CumminBackward0',
    ]);
    expect(torch.all(x).gradFn).toBeNull();
    expect(torch.any(x, 0).requiresGrad).toBe(false);
  });
});

describe('result shapes', () => {
  it('median(dim), mode, cummax and cummin are arrays with .values and .indices', () => {
    const x = torch.tensor([[3, 1, 2], [5, 5, 1]]);
    for (const r of [torch.median(x, 1), torch.mode(x, 1), torch.cummax(x, 1), x.cummin(1), x.median({ dim: 1, keepdim: true })]) {
      expect(Array.isArray(r)).toBe(true);
      expect(r.length).toBe(2);
      expect(r.values).toBe(r[0]);
      expect(r.indices).toBe(r[1]);
      expect(r.indices.dtype).toBe('int64');
    }
    const [v, i] = torch.median(x, 1);
    expect(v.tolist()).toEqual([2, 5]);
    expect(i.tolist()).toEqual([2, 0]);
    expect(x.median().tolist()).toEqual(2);
  });

  it('varMean and stdMean are plain arrays [stat, mean]', () => {
    const x = f64([[1, 2], [3, 5]]);
    const r = torch.varMean(x, 0);
    expect(Array.isArray(r)).toBe(true);
    expect(Object.getOwnPropertyNames(r)).not.toContain('values');
    expect(r[0].tolist()).toEqual([2, 4.5]);
    expect(r[1].tolist()).toEqual([2, 3.5]);
    const [s, m] = torch.stdMean(x, { dim: 1, correction: 0 });
    expect(s.tolist()).toEqual([0.5, 1]);
    expect(m.tolist()).toEqual([1.5, 4]);
  });
});

describe('options', () => {
  it('var takes correction, legacy unbiased (option or positional), keepdim and out', () => {
    const x = f64([[1, 2, 3, 4]]);
    expect(x.var().item()).toBeCloseTo(5 / 3, 14);
    expect(x.var(false).item()).toBe(1.25);
    expect(x.var({ unbiased: false }).item()).toBe(1.25);
    expect(x.var(1, false).tolist()).toEqual([1.25]);
    expect(torch.stdMean(x, 1, false)[0].tolist()).toEqual([Math.sqrt(1.25)]);
    expect(x.var(1, { correction: 2 }).tolist()).toEqual([2.5]);
    expect(x.std(1, { keepdim: true, correction: 0 }).shape).toEqual([1, 1]);
    const out = torch.empty([1], { dtype: 'float64' });
    expect(torch.var(x, 1, { out })).toBe(out);
    expect(out.tolist()).toEqual([5 / 3]);
    expect(thrown(() => x.var({ unbiased: true, correction: 1 })).message).toMatch(/var\(\): Cannot specify both unbiased and correction/);
  });

  it("norm takes p positionally or as an option, 'fro', dtype, keepdim", () => {
    const x = torch.tensor([[3, -4], [0, 12]], { dtype: 'float32' });
    expect(torch.norm(x).item()).toBe(13);
    expect(torch.norm(x, 'fro').item()).toBe(13);
    expect(x.norm(1, 1).tolist()).toEqual([7, 12]);
    expect(x.norm({ p: Infinity, dim: 0, keepdim: true }).tolist()).toEqual([[3, 12]]);
    expect(torch.norm(x, 0).item()).toBe(3);
    const d = torch.norm(x, { dtype: 'float64' });
    expect(d.dtype).toBe('float64');
    expect(thrown(() => torch.norm(torch.tensor([1, 2]))).message).toMatch(/linalg\.vector_norm: Expected a floating point or complex tensor as input. Got Long/);
  });

  it('cumsum and cumprod promote integers to int64 unless dtype says otherwise; cumsum_ keeps the dtype', () => {
    const x = torch.tensor([100, 100, 100], { dtype: 'int8' });
    expect(torch.cumsum(x, 0).dtype).toBe('int64');
    expect(torch.cumsum(x, 0).tolist()).toEqual([100, 200, 300]);
    expect(torch.cumsum(x, { dim: 0, dtype: 'int8' }).tolist()).toEqual([100, -56, 44]);
    const y = x.clone();
    const v = y.version;
    expect(y.cumsum_(0)).toBe(y);
    expect(y.version).toBeGreaterThan(v);
    expect(y.tolist()).toEqual([100, -56, 44]);
    expect(thrown(() => x.clone().cumsum_(0, { dtype: 'float32' })).message).toMatch(/cumsum_: provided dtype must match/);
    expect(torch.cumprod(torch.tensor([true, true, false]), 0).tolist()).toEqual([1, 1, 0]);
  });

  it('cumsum_ and cumprod_ write through a non-contiguous view', () => {
    const base = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float32' });
    const t = base.t();
    t.cumsum_(1);
    expect(base.tolist()).toEqual([[1, 2, 3], [5, 7, 9]]);
    base.select(1, 2).cumprod_(0);
    expect(base.tolist()).toEqual([[1, 2, 3], [5, 7, 27]]);
  });

  it('all and any give bool, or uint8 for uint8 inputs, and reduce lists of dims', () => {
    const x = torch.tensor([[[1, 0], [2, 3]]], { dtype: 'uint8' });
    expect(torch.all(x).dtype).toBe('uint8');
    expect(torch.any(x.float(), [0, 2]).tolist()).toEqual([true, true]);
    expect(torch.all(x, [0, 2]).tolist()).toEqual([0, 1]);
    expect(torch.countNonzero(x, [0, 2]).tolist()).toEqual([1, 2]);
  });
});

describe('autograd', () => {
  it('cumprod: gradcheck and gradgradcheck through zeros (one and several per line)', async () => {
    const x = f64([[0.5, 0, 2, -1.5], [0, 1.5, 0, 2], [1.2, -0.7, 0.9, 0]], true);
    expect(await gradcheck((t) => torch.cumprod(t, 1), [x])).toBe(true);
    expect(await gradcheck((t) => torch.cumprod(t, 0), [x])).toBe(true);
    expect(await gradgradcheck((t) => torch.cumprod(t, 1), [f64([[0.5, 1.3, 2, -1.5]], true)])).toBe(true);
  });

  it('norm: the inf-norm gradient is shared among ties; the 2-norm of zeros has a zero gradient', () => {
    const x = f64([3, -3, 1], true);
    torch.norm(x, Infinity).backward();
    expect(x.grad?.tolist()).toEqual([0.5, -0.5, 0]);
    const z = f64([0, 0], true);
    torch.norm(z).backward();
    expect(z.grad?.tolist()).toEqual([0, 0]);
  });

  it('median() shares its gradient among the elements equal to it', () => {
    const x = f64([2, 1, 2, 3, 2], true);
    torch.median(x).backward();
    expect(x.grad?.tolist()).toEqual([1 / 3, 0, 1 / 3, 0, 1 / 3]);
  });

  it('cummax sends each output gradient to the element its index names', () => {
    const x = f64([1, 3, 2, 5, 4], true);
    torch.mul(torch.cummax(x, 0).values, f64([1, 2, 3, 4, 5])).sum().backward();
    expect(x.grad?.tolist()).toEqual([1, 5, 0, 9, 0]);
  });

  it('cumsum_ on a non-leaf records CumsumBackward0', () => {
    const x = f64([1, 2, 3], true);
    const y = torch.mul(x, 2);
    y.cumsum_(0);
    expect(y.gradFn?.name()).toBe('CumsumBackward0');
    y.sum().backward();
    expect(x.grad?.tolist()).toEqual([6, 4, 2]);
  });
});

describe('accuracy', () => {
  it('float32 var and cumsum of long inputs stay close to float64', () => {
    const n = 100003;
    const data = Float32Array.from({ length: n }, (_, i) => 1000 + Math.sin(i));
    const x = torch.tensor(data);
    const x64 = x.double();
    expect(Math.abs((torch.var(x).item() as number) - (torch.var(x64).item() as number))).toBeLessThan(1e-6);
    const c = torch.cumsum(x, 0).dataSync() as Float32Array;
    const c64 = torch.cumsum(x64, 0).dataSync() as Float64Array;
    expect(Math.abs(c[n - 1] - c64[n - 1]) / c64[n - 1]).toBeLessThan(1e-7);
  });

  it('logsumexp does not overflow', () => {
    expect(torch.logsumexp(torch.tensor([1000, 1000], { dtype: 'float32' }), 0).item()).toBeCloseTo(1000 + Math.LN2, 3);
    expect(torch.logsumexp(torch.tensor([-Infinity, -Infinity]), 0).item()).toBe(-Infinity);
  });
});

describe('meta device', () => {
  it('infers shapes and dtypes without data', () => {
    const x = torch.empty([2, 3, 4], { device: 'meta' });
    expect(torch.var(x, [0, 2]).shape).toEqual([3]);
    expect(torch.logsumexp(x, 1, { keepdim: true }).shape).toEqual([2, 1, 4]);
    expect(torch.norm(x, 2, 2, { dtype: 'float64' }).dtype).toBe('float64');
    expect(torch.all(x, 1).dtype).toBe('bool');
    expect(torch.cumsum(torch.empty([2, 3], { dtype: 'int32', device: 'meta' }), 1).dtype).toBe('int64');
    const [v, i] = torch.cummax(x, 1);
    expect([v.shape, i.dtype]).toEqual([[2, 3, 4], 'int64']);
    expect(torch.mode(x).values.shape).toEqual([2, 3]);
  });
});

describe('out= pairs of the (values, indices) ops', () => {
  const x = () => torch.tensor([[3, 1, 2], [0, 5, 5]], { dtype: 'float32' });
  const pair = (shape: number[]) => [torch.empty(shape), torch.empty(shape, { dtype: 'int64' })] as const;

  it('writes max/min/median/mode/cummax/cummin into the pair and returns it, named', () => {
    const cases: [string, (out: readonly [torch.Tensor, torch.Tensor]) => torch.ValuesIndices, number[], number[][], number[][]][] = [
      ['max', (out) => torch.max(x(), 1, { out }), [2], [[3, 5]], [[0, 1]]],
      ['min', (out) => torch.min(x(), { dim: 0, out }), [3], [[0, 1, 2]], [[1, 0, 0]]],
      ['median', (out) => torch.median(x(), 1, { keepdim: true, out }), [2, 1], [[2], [5]], [[2], [1]]],
      ['mode', (out) => torch.mode(x(), { dim: 1, out }), [2], [[1, 5]], [[1, 2]]], // the last index of the mode, as PyTorch's CPU kernel
      ['cummax', (out) => torch.cummax(x(), 1, { out }), [2, 3], [[3, 3, 3], [0, 5, 5]], [[0, 0, 0], [0, 1, 2]]],
      ['cummin', (out) => torch.cummin(x(), { dim: 1, out }), [2, 3], [[3, 1, 1], [0, 0, 0]], [[0, 1, 1], [0, 0, 0]]],
    ];
    for (const [name, run, shape, values, indices] of cases) {
      const out = pair(shape);
      const r = run(out);
      expect(r[0], name).toBe(out[0]);
      expect(r.indices, name).toBe(out[1]);
      expect([r.values.tolist(), r.indices.tolist()].flat().flat().map(Number), name).toEqual([values, indices].flat().flat());
    }
  });

  it('max(x, { out }) without a dim writes one tensor (PyTorch 2.x max.unary_out)', () => {
    const out = torch.empty([]);
    expect(torch.max(x(), { out })).toBe(out);
    expect(out.item()).toBe(5);
  });

  it('refuses a wrong shape, a wrong dtype, a single tensor, and inputs that require grad', () => {
    expect(String(thrown(() => torch.max(x(), 1, { out: pair([3]) })))).toMatch(/ShapeError: max: out tensor 0 has shape \[3\], expected \[2\]/);
    const wrong = [torch.empty([2]), torch.empty([2], { dtype: 'int32' })] as const;
    expect(String(thrown(() => torch.cummin(x(), 1, { out: [torch.empty([2, 3]), torch.empty([2, 3])] })))).toMatch(
      /DTypeError: cummin: Expected out tensor to have dtype int64, but got float32 instead/,
    );
    expect(String(thrown(() => torch.median(x(), 1, { out: wrong })))).toMatch(/DTypeError: median: Expected out tensor to have dtype int64, but got int32/);
    expect(String(thrown(() => torch.mode(x(), 1, { out: torch.empty([2]) as never })))).toMatch(/TorchTypeError: mode\(\): argument 'out' must be tuple of Tensors, not Tensor/);
    const g = torch.tensor([[1, 2]], { dtype: 'float32', requiresGrad: true });
    expect(String(thrown(() => torch.max(g, 1, { out: pair([1]) })))).toMatch(/max\(\): functions with out=\.\.\. arguments don't support automatic differentiation/);
  });

  it('leaks nothing when it refuses', () => {
    const before = torch.memory.stats('cpu').liveTensors;
    const a = x();
    const out = pair([5]);
    for (let i = 0; i < 20; i++) thrown(() => torch.max(a, 1, { out }));
    a.dispose();
    out[0].dispose();
    out[1].dispose();
    expect(torch.memory.stats('cpu').liveTensors).toBe(before);
  });
});
