import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { thrown, gradValues } from './helpers';
import type { Tensor } from '@torch-ts/torch';

/**
 * backward(), autograd.grad, retainGrad, isLeaf, gradFn names and structure, and gradients
 * through broadcasting, views, casts and repeated uses. Every expected value was computed
 * with PyTorch 1.13 (the script that produced it is quoted next to each case).
 */

type Nested = number | Nested[];

/** `actual` equals `expected` elementwise within a relative tolerance, with the same nesting. */
function expectClose(actual: unknown, expected: Nested, tol = 1e-5): void {
  const shapeOf = (v: unknown): number[] => (Array.isArray(v) ? [v.length, ...shapeOf(v[0])] : []);
  expect(shapeOf(actual)).toEqual(shapeOf(expected));
  const flatten = (v: unknown): unknown[] => (Array.isArray(v) ? v.flatMap(flatten) : [v]);
  const a = flatten(actual) as number[];
  const e = flatten(expected) as number[];
  expect(a.length).toBe(e.length);
  a.forEach((v, i) => {
    expect(typeof v).toBe('number');
    if (Math.abs(v - e[i]) > tol * Math.max(1, Math.abs(e[i]))) {
      throw new Error(`element ${i}: got ${v}, expected ${e[i]} (actual ${JSON.stringify(actual)})`);
    }
  });
}

/** The values of `x.grad` (null when it has none); the handle `.grad` makes is disposed. */

function f32(data: Nested, requiresGrad = true): Tensor {
  return torch.tensor(data, { dtype: 'float32', requiresGrad });
}


describe('backward()', () => {
  it("the seeds' example: mm, add, add, sin, mean gives PyTorch's t0.grad and t1.grad", () => {
    // t0 = [[.1,.2],[.3,.4]], t1 = [[.5,.6],[.7,.8]]; e = sin(mm(t0,t1) + t1 + t0).mean(); e.backward()
    const t0 = f32([
      [0.1, 0.2],
      [0.3, 0.4],
    ]);
    const t1 = f32([
      [0.5, 0.6],
      [0.7, 0.8],
    ]);
    const a = torch.mm(t0, t1);
    const b = a.add(t1);
    const c = b.add(t0);
    const d = torch.sin(c);
    const e = torch.mean(d);
    expect(e.item()).toBeCloseTo(0.8860577344894409, 6);
    e.backward();
    expectClose(gradValues(t0), [
      [0.34244686365127563, 0.3586875796318054],
      [0.03329766169190407, -0.033421970903873444],
    ]);
    expectClose(gradValues(t1), [
      [0.20408232510089874, 0.13426227867603302],
      [0.08430830389261246, -0.018927257508039474],
    ]);
    // non-leaves keep no grad
    expect(a.grad).toBeNull();
    expect(d.grad).toBeNull();
  });

  it('a scalar output needs no gradient argument', () => {
    const x = f32([1.5, -2.0, 3.0]);
    const y = x.mul(x).mul(x).sum();
    expect(y.shape).toEqual([]);
    y.backward();
    expectClose(gradValues(x), [6.75, 12.0, 27.0]);
  });

  it('a 0-dim output and a one-element 1-dim output both backward without a gradient', () => {
    const x = f32([2.5]);
    x.mul(x).backward(); // shape [1]: numel 1 is enough, as in PyTorch
    expectClose(gradValues(x), [5.0]);
  });

  it('a non-scalar output takes the gradient to multiply by (a vector-Jacobian product)', () => {
    // y = exp(x) * 2; y.backward([1, .5, -1])
    const x = f32([1.0, 2.0, 3.0]);
    const y = x.exp().mul(2);
    y.backward(f32([1.0, 0.5, -1.0], false));
    expectClose(gradValues(x), [5.436563491821289, 7.389056205749512, -40.17107391357422]);
  });

  it('a gradient of the wrong shape is refused', () => {
    const x = f32([1.0, 2.0, 3.0]);
    const y = x.mul(2);
    const err = thrown(() => y.backward(f32([1.0, 2.0], false)));
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toMatch(/Mismatch in shape/);
    expect(x.grad).toBeNull();
  });

  it('gradients accumulate into .grad across two backward calls', () => {
    // (x*x).sum().backward(); (x*3).sum().backward() -> 2x + 3
    const x = f32([0.5, 1.5]);
    x.mul(x).sum().backward();
    expectClose(gradValues(x), [1.0, 3.0]);
    x.mul(3).sum().backward();
    expectClose(gradValues(x), [4.0, 6.0]);
  });

  it(".grad accumulates in place, and the first gradient is a copy, not an alias of the user's gradient", () => {
    // (x+0).backward(g); first = x.grad; (x+0).backward(g): first == [1, .5], g unchanged
    const x = f32([1.0, 2.0]);
    const g = f32([0.5, 0.25], false);
    x.add(0).backward(g); // AddBackward0 passes `g` itself on to the accumulator
    const first = x.grad!;
    expectClose(first.tolist(), [0.5, 0.25]);
    x.add(0).backward(g);
    expectClose(first.tolist(), [1.0, 0.5]);
    expectClose(g.tolist(), [0.5, 0.25]);
    first.dispose();
  });

  // x.sum().backward(): PyTorch's AccumulateGrad copies a gradient that does not obey the
  // parameter's layout (here an expand with stride 0): x.grad.stride() == (1,)
  it("x.sum().backward(): x.grad is a dense tensor with x's strides", () => {
    const x = f32([1.0, 2.0, 3.0]);
    x.sum().backward();
    const g = x.grad!;
    expectClose(g.tolist(), [1.0, 1.0, 1.0]);
    expect(g.stride()).toEqual([1]);
    expect(g.isContiguous()).toBe(true);
  });

  // the second accumulation is an in-place add into x.grad, which must not be a stride-0 view
  it('x.sum().backward() twice accumulates to [2, 2, 2]', () => {
    const x = f32([1.0, 2.0, 3.0]);
    x.sum().backward();
    x.sum().backward();
    expectClose(gradValues(x), [2.0, 2.0, 2.0]);
  });

  it('v.expand(3, 2).sum().backward() twice accumulates to [6, 6]', () => {
    const v = f32([1.0, 2.0]);
    v.expand(3, 2).sum().backward();
    expectClose(gradValues(v), [3.0, 3.0]);
    v.expand(3, 2).sum().backward();
    expectClose(gradValues(v), [6.0, 6.0]);
  });

  it("a gradient arriving through t() is stored with the leaf's strides", () => {
    const w = f32([
      [1.0, 2.0],
      [3.0, 4.0],
    ]);
    w.t().exp().sum().backward();
    const g = w.grad!;
    expectClose(g.tolist(), [
      [2.7182817459106445, 7.389056205749512],
      [20.08553695678711, 54.59815216064453],
    ]);
    expect(g.stride()).toEqual([2, 1]);
  });

  it('a gradient arriving through t() accumulates correctly across two backward calls', () => {
    // w.t().exp().sum().backward() twice -> 2 exp(w)
    const w = f32([
      [1.0, 2.0],
      [3.0, 4.0],
    ]);
    w.t().exp().sum().backward();
    w.t().exp().sum().backward();
    expectClose(gradValues(w), [
      [5.436563491821289, 14.778112411499023],
      [40.17107391357422, 109.19630432128906],
    ]);
  });

  it('retainGraph keeps the graph: a second backward works and accumulates', () => {
    // y = exp(x).sum(); y.backward(retain_graph=True); y.backward() -> 2 exp(x)
    const x = f32([0.5, 1.5]);
    const y = x.exp().sum();
    y.backward(undefined, { retainGraph: true });
    expectClose(gradValues(x), [Math.exp(0.5), Math.exp(1.5)]);
    y.backward();
    expectClose(gradValues(x), [3.2974424362182617, 8.963377952575684]);
  });

  it('without retainGraph a second backward throws PyTorch\'s "backward through the graph a second time"', () => {
    const x = f32([0.5, 1.5]);
    const y = x.exp().sum();
    y.backward();
    const err = thrown(() => y.backward());
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toContain('Trying to backward through the graph a second time');
    expect(err.message).toContain('Specify retainGraph: true');
    // the first backward's gradient is intact
    expectClose(gradValues(x), [Math.exp(0.5), Math.exp(1.5)]);
  });

  // (x + 1).sum() twice: neither AddBackward0 nor SumBackward0 needs freed tensor data in PyTorch
  it('a graph whose nodes save no tensor can be walked twice (as in PyTorch)', () => {
    // (x + 1).sum(): AddBackward0 and SumBackward save no tensor data
    const x = f32([0.5, 1.5]);
    const y = x.add(1).sum();
    y.backward();
    y.backward();
    expectClose(gradValues(x), [2.0, 2.0]);
  });

  it('backward({ inputs }) accumulates only into the given tensors', () => {
    // (a*b).sum().backward(inputs=[a]) -> a.grad = b, b.grad = None
    const a = f32([1.0, 2.0]);
    const b = f32([3.0, 4.0]);
    a.mul(b).sum().backward(undefined, { inputs: [a] });
    expectClose(gradValues(a), [3.0, 4.0]);
    expect(b.grad).toBeNull();
  });

  // h = x*3; (h*h).sum().backward(inputs=[h]) -> h.grad == [6, 12], x.grad None
  it('backward({ inputs }) with a non-leaf input fills that tensor\'s .grad only', () => {
    // h = x*3; (h*h).sum().backward(inputs=[h]) -> h.grad = 2h = [6, 12], x.grad None
    const x = f32([1.0, 2.0]);
    const h = x.mul(3);
    h.mul(h).sum().backward(undefined, { inputs: [h] });
    expectClose(gradValues(h), [6.0, 12.0]);
    expect(x.grad).toBeNull();
  });

  it('backward({ inputs: [leaf] }) still fills a retained non-leaf on the way', () => {
    // h = x*3; h.retain_grad(); (h*h).sum().backward(inputs=[x]): h.grad = [6, 12], x.grad = [18, 36]
    const x = f32([1.0, 2.0]);
    const h = x.mul(3);
    h.retainGrad();
    const other = f32([5.0]);
    h.mul(h).sum().add(other.mul(2).sum()).backward(undefined, { inputs: [x] });
    expectClose(gradValues(x), [18.0, 36.0]);
    expectClose(gradValues(h), [6.0, 12.0]);
    expect(other.grad).toBeNull();
  });

  it("binds PyTorch's signatures: y.backward({ retainGraph }), positional flags, grad's createGraph; nothing ignored", () => {
    const x = f32([0.5, 1.5]);
    const y = x.pow(3).sum();
    y.backward({ retainGraph: true });
    y.backward(null, true);
    expectClose(gradValues(x), [2 * 3 * 0.25, 2 * 3 * 2.25]);
    const z = x.pow(3).sum();
    // createGraph positionally (grad(outputs, inputs, grad_outputs, retain_graph, create_graph)) and by keyword
    const [g1] = torch.autograd.grad(z, x, null, null, true);
    const [g2] = torch.autograd.grad(x.pow(3).sum(), x, { createGraph: true });
    const [gg] = torch.autograd.grad(g1!.sum(), x);
    expectClose(gg!.tolist(), [6 * 0.5, 6 * 1.5]);
    expect(g2!.requiresGrad).toBe(true);
    expect(() => torch.autograd.grad(x.pow(3).sum(), x, { createGrph: true } as never)).toThrow("grad() got an unexpected keyword argument 'createGrph'");
    expect(() => x.pow(2).sum().backward({ retainGrph: true } as never)).toThrow("backward() got an unexpected keyword argument 'retainGrph'");
    expect(() => torch.autograd.backward(x.pow(2).sum(), { gradTensor: null } as never)).toThrow("backward() got an unexpected keyword argument 'gradTensor'");
    expect(() => torch.autograd.grad(x.sum(), x, { isGradsBatched: true } as never)).toThrow(torch.NotImplementedError);
    expect(() => x.sum().backward(null, 'yes' as never)).toThrow("backward(): argument 'retainGraph' (position 3) must be bool, not string");
  });

  it('torch.autograd.backward takes several outputs and their gradients', () => {
    // torch.autograd.backward([x*2, x.sum()*x.sum()... ]) : y1 = x*2 (grad [1,1]), y2 = (x*x).sum()
    const x = f32([1.0, 3.0]);
    const y1 = x.mul(2);
    const y2 = x.mul(x).sum();
    torch.autograd.backward([y1, y2], [f32([1.0, -1.0], false), null]);
    expectClose(gradValues(x), [4.0, 4.0]); // [2, -2] + [2, 6]
  });

  it('backward of a tensor that does not require grad throws', () => {
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32' });
    const err = thrown(() => x.sum().backward());
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toContain('element 0 of tensors does not require grad and does not have a grad_fn');
  });
});

describe('torch.autograd.grad', () => {
  it('returns an array of gradients, honours gradOutputs and leaves .grad untouched', () => {
    // y = sin(x*w); grad(y, [x, w], grad_outputs=[1, 2])
    const x = f32([1.0, 2.0]);
    const w = f32([0.5, -1.0]);
    const y = x.mul(w).sin();
    const gs = torch.autograd.grad(y, [x, w], { gradOutputs: f32([1.0, 2.0], false) });
    expect(Array.isArray(gs)).toBe(true);
    expect(gs).toHaveLength(2);
    expectClose(gs[0]!.tolist(), [0.43879127502441406, 0.832293689250946]);
    expectClose(gs[1]!.tolist(), [0.8775825500488281, -1.664587378501892]);
    expect(x.grad).toBeNull();
    expect(w.grad).toBeNull();
  });

  it('a single input given bare still gives an array', () => {
    const x = f32([1.0, 2.0]);
    const gs = torch.autograd.grad(x.mul(x).sum(), x);
    expect(gs).toHaveLength(1);
    expectClose(gs[0]!.tolist(), [2.0, 4.0]);
  });

  it('allowUnused gives null for an input the outputs do not depend on', () => {
    const x = f32([1.0, 2.0]);
    const z = f32([1.0]);
    const [gx, gz] = torch.autograd.grad(x.mul(x).sum(), [x, z], { allowUnused: true });
    expectClose(gx!.tolist(), [2.0, 4.0]);
    expect(gz).toBeNull();
  });

  it('an unused input without allowUnused is PyTorch\'s error', () => {
    const x = f32([1.0, 2.0]);
    const z = f32([1.0]);
    const err = thrown(() => torch.autograd.grad(x.mul(x).sum(), [x, z]));
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toContain('One of the differentiated Tensors appears to not have been used in the graph');
  });

  it('an input that does not require grad is PyTorch\'s error', () => {
    const x = f32([1.0, 2.0]);
    const err = thrown(() => torch.autograd.grad(x.mul(x).sum(), [torch.tensor([1.0], { dtype: 'float32' })]));
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toContain('One of the differentiated Tensors does not require grad');
  });

  it('grad with respect to a non-leaf', () => {
    // h = x*3; grad((h*h).sum(), h) = 2h
    const x = f32([1.0, 2.0]);
    const h = x.mul(3);
    const [gh] = torch.autograd.grad(h.mul(h).sum(), h);
    expectClose(gh!.tolist(), [6.0, 12.0]);
    expect(x.grad).toBeNull();
  });

  it('a non-scalar output without gradOutputs is refused', () => {
    const x = f32([1.0, 2.0]);
    const err = thrown(() => torch.autograd.grad(x.mul(2), x));
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toContain('grad can be implicitly created only for scalar outputs');
  });
});

describe('retainGrad and isLeaf', () => {
  it('retainGrad() keeps a non-leaf\'s gradient; others keep none', () => {
    // h = x*3; h.retain_grad(); (h*h).sum().backward(): h.grad = [6, 12], x.grad = [18, 36]
    const x = f32([1.0, 2.0]);
    const h = x.mul(3);
    h.retainGrad();
    const h2 = x.mul(3);
    h.mul(h).sum().add(h2.mul(h2).sum()).backward();
    expectClose(gradValues(h), [6.0, 12.0]);
    expect(h2.grad).toBeNull();
    expectClose(gradValues(x), [36.0, 72.0]);
  });

  it('a retained gradient accumulates across backward calls', () => {
    const x = f32([1.0, 2.0]);
    const h = x.mul(3);
    h.retainGrad();
    const y = h.mul(h).sum();
    y.backward(undefined, { retainGraph: true });
    y.backward();
    expectClose(gradValues(h), [12.0, 24.0]);
  });

  it('isLeaf: user tensors are leaves, results of recorded ops are not, results without grad are', () => {
    const x = f32([1.0, 2.0]);
    const c = torch.tensor([1.0, 2.0], { dtype: 'float32' });
    expect(x.isLeaf).toBe(true);
    expect(c.isLeaf).toBe(true);
    const y = x.mul(2);
    expect(y.isLeaf).toBe(false);
    expect(y.requiresGrad).toBe(true);
    const z = c.mul(2);
    expect(z.isLeaf).toBe(true);
    expect(z.requiresGrad).toBe(false);
    expect(x.detach().isLeaf).toBe(true);
    expect(y.detach().isLeaf).toBe(true);
    expect(x.gradFn).toBeNull();
  });
});

describe('gradFn', () => {
  const x = () =>
    f32([
      [0.5, 1.5],
      [2.5, 3.5],
    ]);
  const v = () => f32([0.5, 1.5]);
  // name() per op, as PyTorch 1.13 prints them (t.grad_fn.name())
  const cases: [string, () => Tensor, string][] = [
    ['add', () => { const a = x(); return a.add(a); }, 'AddBackward0'],
    ['add scalar', () => x().add(2), 'AddBackward0'],
    ['sub', () => { const a = x(); return a.sub(a); }, 'SubBackward0'],
    ['mul', () => { const a = x(); return a.mul(a); }, 'MulBackward0'],
    ['mul scalar', () => x().mul(2), 'MulBackward0'],
    ['div', () => x().div(2), 'DivBackward0'],
    ['pow tensor exponent', () => { const a = x(); return a.pow(a); }, 'PowBackward1'],
    ['neg', () => x().neg(), 'NegBackward0'],
    ['abs', () => x().abs(), 'AbsBackward0'],
    ['relu', () => x().relu(), 'ReluBackward0'],
    ['exp', () => x().exp(), 'ExpBackward0'],
    ['log', () => x().log(), 'LogBackward0'],
    ['sqrt', () => x().sqrt(), 'SqrtBackward0'],
    ['sin', () => x().sin(), 'SinBackward0'],
    ['cos', () => x().cos(), 'CosBackward0'],
    ['tanh', () => x().tanh(), 'TanhBackward0'],
    ['sigmoid', () => x().sigmoid(), 'SigmoidBackward0'],
    ['mm', () => { const a = x(); return torch.mm(a, a); }, 'MmBackward0'],
    ['matmul 2-d', () => { const a = x(); return a.matmul(a); }, 'MmBackward0'],
    ['mv', () => x().mv(v()), 'MvBackward0'],
    ['dot', () => { const a = v(); return a.dot(a); }, 'DotBackward0'],
    ['sum()', () => x().sum(), 'SumBackward0'],
    ['sum(0)', () => x().sum(0), 'SumBackward1'],
    ['prod()', () => x().prod(), 'ProdBackward0'],
    ['prod(0)', () => x().prod(0), 'ProdBackward1'],
    ['pow scalar exponent', () => x().pow(3), 'PowBackward0'],
    ['pow scalar base (pow.Scalar)', () => torch.pow(2, x()), 'PowBackward2'],
    ['remainder scalar', () => x().remainder(2), 'RemainderBackward0'],
    ['remainder tensor', () => { const a = x(); return a.remainder(a); }, 'RemainderBackward1'],
    ['matmul 1-d', () => { const a = v(); return a.matmul(a); }, 'DotBackward0'],
    ['squeeze()', () => x().unsqueeze(0).squeeze(), 'SqueezeBackward0'],
    ['expandAs', () => { const a = x(); return a.select(0, 0).expandAs(a); }, 'ExpandBackward0'],
    ['movedim', () => x().movedim(0, 1), 'PermuteBackward0'],
    ['contiguous of t()', () => x().t().contiguous(), 'CloneBackward0'],
    ['amax(0)', () => x().amax(0), 'AmaxBackward0'],
    ['amin()', () => x().amin(), 'AminBackward0'],
    ['mean()', () => x().mean(), 'MeanBackward0'],
    ['mean(0)', () => x().mean(0), 'MeanBackward1'],
    ['logsumexp(0)', () => x().logsumexp(0), 'LogsumexpBackward0'],
    ['max(0)', () => x().max(0).values, 'MaxBackward0'],
    ['view', () => x().view(4), 'ViewBackward0'],
    ['transpose', () => x().transpose(0, 1), 'TransposeBackward0'],
    ['permute', () => x().permute(1, 0), 'PermuteBackward0'],
    ['select', () => x().select(0, 1), 'SelectBackward0'],
    ['narrow', () => x().narrow(0, 0, 1), 'SliceBackward0'],
    ['unsqueeze', () => x().unsqueeze(0), 'UnsqueezeBackward0'],
    ['squeeze(dim)', () => x().unsqueeze(0).squeeze(0), 'SqueezeBackward1'],
    ['expand', () => v().expand(3, 2), 'ExpandBackward0'],
    ['diagonal', () => x().diagonal(), 'DiagonalBackward0'],
    ['clone', () => x().clone(), 'CloneBackward0'],
    ['to float64', () => x().to('float64'), 'ToCopyBackward0'],
    ['where', () => { const a = x(); return torch.where(a.gt(1), a, 2); }, 'WhereBackward0'],
    ['maximum', () => { const a = x(); return torch.maximum(a, a.mul(2)); }, 'MaximumBackward0'],
    ['floor', () => x().floor(), 'FloorBackward0'],
    ['unfold', () => v().unfold(0, 1, 1), 'UnfoldBackward0'],
    ['asStrided', () => x().asStrided([2], [1]), 'AsStridedBackward0'],
    ['add_ on a non-leaf', () => x().mul(1).add_(1), 'AddBackward0'],
    ['mul_ on a non-leaf', () => x().clone().mul_(2), 'MulBackward0'],
  ];
  for (const [what, make, name] of cases) {
    it(`${what}: ${name}`, () => {
      const y = make();
      expect(y.gradFn).not.toBeNull();
      expect(y.gradFn!.name()).toBe(name);
    });
  }

  // Note [Basic indexing as view ops]; python: names along next_functions[0] of x[...] for a
  // [2, 2] leaf, PyTorch 1.13
  const indexing: [string, unknown[], string[]][] = [
    ['x[0]', [0], ['SelectBackward0']],
    ['x[-1]', [-1], ['SelectBackward0']],
    ['x[1:]', ['1:'], ['SliceBackward0']],
    ['x[:]', [':'], ['SliceBackward0']],
    ['x[None]', [null], ['UnsqueezeBackward0']],
    ['x[...]', ['...'], ['AliasBackward0']],
    ['x[()]', [], ['AliasBackward0']],
    ['x[..., 0]', ['...', 0], ['SelectBackward0']],
    ['x[0, 1]', [0, 1], ['SelectBackward0', 'SelectBackward0']],
    ['x[:, ::2]', [':', '::2'], ['SliceBackward0', 'SliceBackward0']],
    ['x[:, 1]', [':', 1], ['SelectBackward0', 'SliceBackward0']],
    ['x[0:2, 1]', ['0:2', 1], ['SelectBackward0']],
    ['x[0:2, 0:2]', ['0:2', '0:2'], ['AliasBackward0']],
    ['x[1:, None]', ['1:', null], ['UnsqueezeBackward0', 'SliceBackward0']],
    ['x[None, 0]', [null, 0], ['SelectBackward0', 'UnsqueezeBackward0']],
    ['x[True]', [true], ['IndexBackward0', 'UnsqueezeBackward0']],
    ['x[0, tensor([1, 0])]', [0, 'idx'], ['IndexBackward0', 'SelectBackward0']],
  ];
  for (const [what, items, names] of indexing) {
    it(`${what}: ${names.join(' <- ')}`, () => {
      const a = x();
      const y = a.index(...items.map((i) => (i === 'idx' ? torch.tensor([1, 0]) : i)));
      const seen: string[] = [];
      for (let f = y.gradFn; f !== null && f.name() !== 'torch::autograd::AccumulateGrad'; f = f.nextFunctions[0]?.[0] ?? null) {
        seen.push(f.name());
      }
      expect(seen).toEqual(names);
    });
  }

  it("copy_ into a non-leaf: PyTorch's 'torch::autograd::CopyBackwards'", () => {
    const a = x();
    const y = a.clone();
    y.copy_(a);
    expect(y.gradFn!.name()).toBe('torch::autograd::CopyBackwards');
  });

  it('results of ops on tensors without grad have no gradFn', () => {
    const c = torch.tensor([1.0, 2.0], { dtype: 'float32' });
    expect(c.exp().gradFn).toBeNull();
    expect(c.exp().requiresGrad).toBe(false);
  });

  it('nextFunctions: AccumulateGrad for leaves, null for a scalar operand, the producer for non-leaves', () => {
    // e = (x*2).sum(): e.grad_fn.next_functions == ((MulBackward0, 0),);
    // MulBackward0.next_functions == ((AccumulateGrad, 0), (None, 0))
    const a = x();
    const m = a.mul(2);
    const e = m.sum();
    const nf = e.gradFn!.nextFunctions;
    expect(nf).toHaveLength(1);
    expect(nf[0]![0].name()).toBe('MulBackward0');
    expect(nf[0]![1]).toBe(0);
    const mnf = nf[0]![0].nextFunctions;
    expect(mnf).toHaveLength(2);
    expect(mnf[0]![0].name()).toBe('torch::autograd::AccumulateGrad');
    expect(mnf[0]![1]).toBe(0);
    expect(mnf[1]).toBeNull();
    expect(mnf[0]![0].nextFunctions).toEqual([]);
    // the same node is the same handle
    expect(m.gradFn).toBe(nf[0]![0]);
  });

  it('nextFunctions of a binary op on a leaf and a non-leaf; one accumulator per leaf', () => {
    // m = x.mm(v.unsqueeze(1)): ((AccumulateGrad, 0), (UnsqueezeBackward0, 0))
    const a = x();
    const b = v();
    const m = a.mm(b.unsqueeze(1));
    const nf = m.gradFn!.nextFunctions;
    expect(nf.map((e) => e && [e[0].name(), e[1]])).toEqual([
      ['torch::autograd::AccumulateGrad', 0],
      ['UnsqueezeBackward0', 0],
    ]);
    const unsq = nf[1]![0].nextFunctions;
    expect(unsq[0]![0].name()).toBe('torch::autograd::AccumulateGrad');
    // x*x: both edges go to x's single accumulator
    const sq = a.mul(a);
    const [e0, e1] = sq.gradFn!.nextFunctions;
    expect(e0![0]).toBe(e1![0]);
    expect(e0![0]).toBe(nf[0]![0]);
  });

  it('a tensor that does not require grad gives a null edge', () => {
    const a = x();
    const c = torch.tensor([[1.0, 2.0], [3.0, 4.0]], { dtype: 'float32' });
    const nf = a.mul(c).gradFn!.nextFunctions;
    expect(nf[0]![0].name()).toBe('torch::autograd::AccumulateGrad');
    expect(nf[1]).toBeNull();
  });
});

describe('gradients through broadcasting, views, casts and repeated uses', () => {
  it('broadcast operands get gradients summed back to their own shapes', () => {
    // a [2,3], b [3], c [2,1]: ((a*b + c)**2).sum().backward()
    const a = f32([
      [1.0, 2.0, 3.0],
      [4.0, 5.0, 6.0],
    ]);
    const b = f32([0.5, -1.0, 2.0]);
    const c = f32([[2.0], [3.0]]);
    a.mul(b).add(c).pow(2).sum().backward();
    expectClose(gradValues(a), [
      [2.5, 0.0, 32.0],
      [5.0, 4.0, 60.0],
    ]);
    expectClose(gradValues(b), [45.0, -20.0, 228.0]);
    expectClose(gradValues(c), [[21.0], [36.0]]);
  });

  it('a 0-dim operand broadcast against a matrix gets a 0-dim gradient', () => {
    const a = torch.tensor([
      [1.0, 2.0, 3.0],
      [4.0, 5.0, 6.0],
    ], { dtype: 'float32' });
    const s = torch.tensor(2.0, { dtype: 'float32', requiresGrad: true });
    a.mul(s).sum().backward();
    const g = s.grad!;
    expect(g.shape).toEqual([]);
    expect(g.item()).toBeCloseTo(21.0, 6);
  });

  it('gradients flow back through view, t, index, select and permute', () => {
    // x = arange(6.).reshape(2,3); w = arange(1., 7.).reshape(3,2)
    // y = (x.view(3,2)*w).sum() + (x.t()*w).sum()*10 + x[1].sum()*100 + x.select(1,2).sum()*1000
    //     + x.permute(1,0)[0].sum()*7
    const x = torch.arange(6, { dtype: 'float32' }).reshape(2, 3).requiresGrad_();
    const w = torch.arange(1, 7, { dtype: 'float32' }).reshape(3, 2);
    const y = x
      .view(3, 2)
      .mul(w)
      .sum()
      .add(x.t().mul(w).sum().mul(10))
      .add(x.index(1).sum().mul(100))
      .add(x.select(1, 2).sum().mul(1000))
      .add(x.permute(1, 0).index(0).sum().mul(7));
    y.backward();
    expectClose(gradValues(x), [
      [18.0, 32.0, 1053.0],
      [131.0, 145.0, 1166.0],
    ]);
  });

  it('expand sums the gradient over the expanded dims', () => {
    // (v.expand(3,2) * [[1],[2],[3]]).sum() -> [6, 6]
    const v = f32([1.0, 2.0]);
    v.expand(3, 2)
      .mul(torch.tensor([[1.0], [2.0], [3.0]], { dtype: 'float32' }))
      .sum()
      .backward();
    expectClose(gradValues(v), [6.0, 6.0]);
  });

  it('strided slices scatter their gradient into the right places', () => {
    // (x[:, 1:3]*2).sum(); (x[::2, 1:4:2]*3).sum()
    const x = torch.arange(12, { dtype: 'float32' }).reshape(3, 4).requiresGrad_();
    x.index(':', '1:3').mul(2).sum().backward();
    expectClose(gradValues(x), [
      [0, 2, 2, 0],
      [0, 2, 2, 0],
      [0, 2, 2, 0],
    ]);
    const z = torch.arange(12, { dtype: 'float32' }).reshape(3, 4).requiresGrad_();
    z.index('::2', '1:4:2').mul(3).sum().backward();
    expectClose(gradValues(z), [
      [0, 3, 0, 3],
      [0, 0, 0, 0],
      [0, 3, 0, 3],
    ]);
  });

  it("a cast to float64 sends a float32 gradient back to the float32 leaf", () => {
    // y = x.to(float64); (y*y).sum().backward(): x.grad = [3, 5] float32
    const x = f32([1.5, 2.5]);
    const y = x.to('float64');
    expect(y.dtype).toBe('float64');
    expect(y.gradFn!.name()).toBe('ToCopyBackward0');
    y.mul(y).sum().backward();
    const g = x.grad!;
    expect(g.dtype).toBe('float32');
    expectClose(g.tolist(), [3.0, 5.0]);
  });

  it('a tensor used several times gets the sum of all its gradients', () => {
    // y = x*x + sin(x)*x + x; y.sum().backward() -> 2x + cos(x)x + sin(x) + 1
    const x = f32([2.0, 3.0]);
    x.mul(x).add(x.sin().mul(x)).add(x).sum().backward();
    expectClose(gradValues(x), [5.077003479003906, 4.171142578125]);
  });

  it('a non-leaf used by two branches delivers their sum to its own node once', () => {
    // h = x.exp(); y = (h*2 + h*h).sum(): dy/dx = (2 + 2h) h
    const x = f32([0.0, 1.0]);
    const h = x.exp();
    h.retainGrad();
    h.mul(2).add(h.mul(h)).sum().backward();
    const e = Math.E;
    expectClose(gradValues(h), [4.0, 2 + 2 * e]);
    expectClose(gradValues(x), [4.0, (2 + 2 * e) * e]);
  });
});
