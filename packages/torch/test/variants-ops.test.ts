/**
 * The forms that closed issue 15's gaps (variants.test.ts), against PyTorch 1.13
 * (goldens/variants_ops.json, scripts/goldens/variants_ops.py): Tensor.addmm_ / baddbmm_ with
 * autograd, aten's own torch.embedding, torch.batchNorm and torch.binaryCrossEntropyWithLogits,
 * torch.dropout_ and torch.detach_. (addmm_ / baddbmm_'s values and errors over every dtype are
 * the OpInfo table's in-place check, packages/testing.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { DType, Tensor } from '@torch-ts/torch';
import { thrown } from './helpers';

interface Golden {
  shape: number[];
  dtype: string;
  values: number[];
}
interface Goldens {
  addProduct: Record<string, { op: 'addmm_' | 'baddbmm_'; kwargs: { beta?: number; alpha?: number }; inputs: Golden[]; upstream: Golden; result: Golden; gradFn: string; grads: Golden[] }>;
  embeddingInputs: { weight: Golden; indices: number[]; indicesShape: number[]; upstream: Golden };
  embedding: Record<string, { args: (number | boolean)[]; result: Golden; gradFn: string; grad: Golden }>;
  batchNormInputs: Record<'input' | 'weight' | 'bias' | 'running_mean' | 'running_var' | 'upstream', Golden>;
  batchNorm: Record<string, { training?: boolean; affine?: boolean; input?: Golden; result: Golden; runningMean?: Golden; runningVar?: Golden; grads?: (Golden | null)[] }>;
  bceInputs: Record<'input' | 'target' | 'weight' | 'posWeight', Golden>;
  bce: Record<string, { reduction: number; weighted: boolean; result: Golden; grad: Golden }>;
  dropout: Record<string, { p: number; train: boolean; result: Golden }>;
}

const G = JSON.parse(readFileSync(new URL('./goldens/variants_ops.json', import.meta.url), 'utf8')) as Goldens;

const make = (g: Golden, requiresGrad = false): Tensor => torch.tensor(g.values, { dtype: g.dtype as DType }).reshape(g.shape).requiresGrad_(requiresGrad);

/** Values and shape as PyTorch's, to `tol` relative (float64 inputs: only the order of sums differs). */
function expectGolden(t: Tensor | null, g: Golden, tol = 1e-10): void {
  expect(t).not.toBeNull();
  expect(t!.shape).toEqual(g.shape);
  expect(t!.dtype).toBe(g.dtype);
  const got = t!.flatten().tolist() as number[];
  got.forEach((v, i) => expect(Math.abs(v - g.values[i]), `element ${i}: ${v} vs ${g.values[i]}`).toBeLessThanOrEqual(tol * (1 + Math.abs(g.values[i]))));
}

describe('x.addmm_ and x.baddbmm_', () => {
  for (const [name, c] of Object.entries(G.addProduct)) {
    it(`${name}: values, the Node and the gradients of self and both factors as PyTorch's`, () => {
      const [s, a, b] = c.inputs.map((g) => make(g, true));
      const x = s.mul(1);
      const r = c.op === 'addmm_' ? x.addmm_(a, b, c.kwargs) : x.baddbmm_(a, b, c.kwargs);
      expect(r).toBe(x);
      expectGolden(x, c.result);
      expect(x.gradFn?.name()).toBe(c.gradFn);
      x.mul(make(c.upstream)).sum().backward();
      [s, a, b].forEach((t, i) => expectGolden(t.grad, c.grads[i]));
    });
  }

  it('pass gradcheck and gradgradcheck (self a non-leaf written in place)', async () => {
    const s = torch.randn([2, 3], { dtype: 'float64', requiresGrad: true });
    const a = torch.randn([2, 4], { dtype: 'float64', requiresGrad: true });
    const b = torch.randn([4, 3], { dtype: 'float64', requiresGrad: true });
    const addmm = (x: Tensor, m1: Tensor, m2: Tensor) => x.mul(1).addmm_(m1, m2, { beta: 0.5, alpha: 1.5 });
    expect(await torch.autograd.gradcheck(addmm, [s, a, b])).toBe(true);
    expect(await torch.autograd.gradgradcheck(addmm, [s, a, b])).toBe(true);
    const s3 = torch.randn([2, 2, 3], { dtype: 'float64', requiresGrad: true });
    const a3 = torch.randn([2, 2, 4], { dtype: 'float64', requiresGrad: true });
    const b3 = torch.randn([2, 4, 3], { dtype: 'float64', requiresGrad: true });
    expect(await torch.autograd.gradcheck((x: Tensor, m1: Tensor, m2: Tensor) => x.mul(1).baddbmm_(m1, m2, { beta: 2, alpha: -1 }), [s3, a3, b3])).toBe(true);
  });

  it('on a view, rewrite the base (CopySlices) with the right gradient', () => {
    const base = torch.zeros([3, 3], { dtype: 'float64', requiresGrad: true });
    const m1 = torch.ones([2, 2], { dtype: 'float64', requiresGrad: true });
    const b = base.mul(1);
    b.index(':2', ':').narrow(1, 0, 2).addmm_(m1, torch.eye(2, { dtype: 'float64' }), { beta: 3 });
    b.sum().backward();
    expect(base.grad!.tolist()).toEqual([[3, 3, 1], [3, 3, 1], [1, 1, 1]]);
    expect(m1.grad!.tolist()).toEqual([[1, 1], [1, 1]]);
  });

  it("refuse a self that is not the result's shape (no broadcasting up), other dtypes, an expanded self, a leaf requiring grad", () => {
    const m = (r: number, c: number, dtype: DType = 'float32') => torch.ones([r, c], { dtype });
    let e = thrown(() => torch.zeros([1, 3]).addmm_(m(2, 4), m(4, 3)));
    expect(e).toBeInstanceOf(torch.ShapeError);
    expect(e.message).toBe('addmm_: Bad in-place call: input tensor size [1, 3] and output tensor size [2, 3] should match');
    e = thrown(() => torch.zeros([2, 3]).baddbmm_(torch.ones([5, 2, 4]), torch.ones([5, 4, 3])));
    expect(e.message).toBe('baddbmm_: Bad in-place call: input tensor size [2, 3] and output tensor size [5, 2, 3] should match');
    e = thrown(() => torch.zeros([2, 3], { dtype: 'int64' }).addmm_(m(2, 4), m(4, 3)));
    expect(e).toBeInstanceOf(torch.DTypeError);
    expect(e.message).toBe("addmm_: self and mat2 must have the same dtype, but got Long and Float");
    expect(thrown(() => torch.zeros([2, 3]).addmm_(m(2, 4, 'float64'), m(4, 3)))).toBeInstanceOf(torch.DTypeError);
    expect(thrown(() => torch.zeros([2, 3]).addmm_(m(2, 5), m(4, 3))).message).toMatch(/addmm_: mat1 and mat2 shapes cannot be multiplied \(2x5 and 4x3\)/);
    expect(thrown(() => torch.zeros([1, 3]).expand([2, 3]).addmm_(m(2, 4), m(4, 3))).message).toMatch(/addmm_: unsupported operation: more than one element/);
    const leaf = torch.zeros([2, 3], { requiresGrad: true });
    expect(thrown(() => leaf.addmm_(m(2, 4), m(4, 3)))).toBeInstanceOf(torch.AutogradError);
    // a failed call leaves self as it was
    const x = torch.full([1, 3], 7);
    thrown(() => x.addmm_(m(2, 4), m(4, 3)));
    expect(x.tolist()).toEqual([[7, 7, 7]]);
    expect(thrown(() => x.addmm_(m(1, 4), m(4, 3), { gamma: 1 } as never))).toBeInstanceOf(torch.TorchTypeError);
  });

  it('have no function form, as in PyTorch', () => {
    expect((torch as unknown as Record<string, unknown>).addmm_).toBeUndefined();
    expect((torch as unknown as Record<string, unknown>).baddbmm_).toBeUndefined();
  });
});

describe("torch.embedding (aten's: weight first)", () => {
  const { weight, indices, indicesShape, upstream } = G.embeddingInputs;
  const idx = () => torch.tensor(indices, { dtype: 'int64' }).reshape(indicesShape);
  for (const [name, c] of Object.entries(G.embedding)) {
    it(`embedding(weight, indices, ${name.slice(1, -1)}): rows and the weight's gradient as PyTorch's`, () => {
      const w = make(weight, true);
      const [paddingIdx, scaleGradByFreq] = c.args as [number?, boolean?];
      const out = torch.embedding(w, idx(), paddingIdx, scaleGradByFreq);
      expectGolden(out, c.result);
      expect(out.gradFn?.name()).toBe(c.gradFn);
      out.mul(make(upstream)).sum().backward();
      expectGolden(w.grad, c.grad);
    });
  }

  it('takes its keywords (sparse=True gives a sparse COO gradient) and refuses what aten refuses', () => {
    const w = make(weight);
    expect(torch.embedding(w, idx(), { paddingIdx: 2, scaleGradByFreq: false, sparse: false }).shape).toEqual([3, 2, 3]);
    const leaf = make(weight).requiresGrad_();
    torch.embedding(leaf, idx(), { sparse: true }).sum().backward();
    expect([leaf.grad!.layout, leaf.grad!.shape]).toEqual(['sparse_coo', leaf.shape]);
    expect(thrown(() => torch.embedding(idx(), w))).toBeInstanceOf(torch.TorchError);
    expect(thrown(() => torch.embedding(torch.randn([5]), idx())).message).toMatch(/embedding.*'weight' must be 2-D/);
    expect(thrown(() => torch.embedding(w, idx(), { maxNorm: 1 } as never))).toBeInstanceOf(torch.TorchTypeError);
    // F.embedding keeps F's order
    expect(torch.nn.functional.embedding(idx(), w).shape).toEqual([3, 2, 3]);
  });
});

describe("torch.batchNorm (aten's: every argument, cudnn_enabled last)", () => {
  const I = G.batchNormInputs;
  for (const [name, c] of Object.entries(G.batchNorm)) {
    if (c.input) {
      it(`${name}: no check of the values per channel (F.batch_norm's is Python's)`, () => {
        expectGolden(torch.batchNorm(make(c.input!), null, null, null, null, true, 0.1, 1e-5, false), c.result);
      });
      continue;
    }
    it(`${name}: the result, the running stats and the gradients as PyTorch's`, () => {
      const x = make(I.input, true);
      const w = make(I.weight, true);
      const b = make(I.bias, true);
      const rm = make(I.running_mean);
      const rv = make(I.running_var);
      const out = torch.batchNorm(x, c.affine ? w : null, c.affine ? b : null, rm, rv, c.training!, 0.2, 1e-3, true);
      expectGolden(out, c.result);
      expectGolden(rm, c.runningMean!);
      expectGolden(rv, c.runningVar!);
      out.mul(make(I.upstream)).sum().backward();
      expectGolden(x.grad, c.grads![0]!);
      if (c.affine) {
        expectGolden(w.grad, c.grads![1]!);
        expectGolden(b.grad, c.grads![2]!);
      }
    });
  }

  it('needs every argument, and running stats in evaluation mode', () => {
    const x = make(I.input);
    expect(thrown(() => (torch.batchNorm as unknown as (...a: unknown[]) => Tensor)(x, null, null, null, null, true, 0.1, 1e-5)).message).toMatch(
      /batch_norm\(\) missing 1 required positional argument: "cudnnEnabled"/,
    );
    expect(thrown(() => torch.batchNorm(x, null, null, null, null, false, 0.1, 1e-5, false)).message).toMatch(/running_mean and running_var must be defined in evaluation mode/);
    expect(thrown(() => torch.batchNorm(x, torch.ones([2], { dtype: 'float64' }), null, null, null, true, 0.1, 1e-5, false))).toBeInstanceOf(torch.TorchError);
  });
});

describe("torch.binaryCrossEntropyWithLogits (aten's: an int reduction)", () => {
  const I = G.bceInputs;
  for (const [name, c] of Object.entries(G.bce)) {
    it(`${name}: the loss and the input's gradient as PyTorch's${c.reduction < 0 || c.reduction > 2 ? ' (an int other than 1 and 2 reduces nothing, as 1.13)' : ''}`, () => {
      const x = make(I.input, true);
      const out = torch.binaryCrossEntropyWithLogits(x, make(I.target), c.weighted ? make(I.weight) : null, c.weighted ? make(I.posWeight) : null, c.reduction);
      expectGolden(out, c.result);
      out.sum().backward();
      expectGolden(x.grad, c.grad);
    });
  }

  it('takes the reduction by keyword, refuses a string or a bool for it and mismatched sizes', () => {
    const x = make(I.input);
    const t = make(I.target);
    expect(torch.binaryCrossEntropyWithLogits(x, t, { reduction: 2 }).item()).toBeCloseTo(G.bce['reduction=2 weighted=False'].result.values[0], 10);
    expect(thrown(() => torch.binaryCrossEntropyWithLogits(x, t, { reduction: 'sum' as never })).message).toMatch(
      /binary_cross_entropy_with_logits\(\): argument 'reduction' must be int, not str/,
    );
    expect(thrown(() => torch.binaryCrossEntropyWithLogits(x, t, { reduction: true as never }))).toBeInstanceOf(torch.TorchTypeError);
    expect(thrown(() => torch.binaryCrossEntropyWithLogits(x, torch.ones([3], { dtype: 'float64' })))).toBeInstanceOf(torch.TorchError);
  });
});

describe('torch.dropout_(input, p, train)', () => {
  for (const [name, c] of Object.entries(G.dropout)) {
    it(`${name}: in place, the same values as PyTorch's after manualSeed`, () => {
      torch.manualSeed(7);
      const x = torch.arange(1, 13, { dtype: 'float32' }).reshape([3, 4]);
      expect(torch.dropout_(x, c.p, c.train)).toBe(x);
      expectGolden(x, c.result, 1e-7);
    });
  }

  it("records MulBackward0, refuses a leaf requiring grad, p out of [0, 1], integers and a missing train", () => {
    const y = torch.ones([4], { requiresGrad: true }).mul(2);
    expect(torch.dropout_(y, 0.5, true).gradFn?.name()).toBe('MulBackward0');
    expect(thrown(() => torch.dropout_(torch.ones([3], { requiresGrad: true }), 0.5, true))).toBeInstanceOf(torch.AutogradError);
    expect(thrown(() => torch.dropout_(torch.ones([3]), 1.5, true)).message).toMatch(/dropout probability has to be between 0 and 1, but got 1.5/);
    expect(thrown(() => torch.dropout_(torch.ones([3], { dtype: 'int64' }), 0.5, true))).toBeInstanceOf(torch.DTypeError);
    expect(thrown(() => (torch.dropout_ as unknown as (...a: unknown[]) => Tensor)(torch.ones([3]), 0.5)).message).toMatch(/dropout_\(\) missing 1 required positional argument: "train"/);
  });
});

describe('torch.detach_(x)', () => {
  it('is x.detach_(): x leaves its graph in place and is returned', () => {
    const a = torch.ones([3], { requiresGrad: true });
    const b = a.mul(2);
    expect(torch.detach_(b)).toBe(b);
    expect(b.requiresGrad).toBe(false);
    expect(b.gradFn).toBeNull();
    expect(b.isLeaf).toBe(true);
  });

  it("refuses a view of a tensor requiring grad, as PyTorch", () => {
    const v = torch.ones([3], { requiresGrad: true }).mul(1).index('1:');
    expect(thrown(() => torch.detach_(v)).message).toMatch(/Can't detach views in-place/);
  });
});
