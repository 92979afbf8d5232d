import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { thrown, gradValues } from './helpers';
import type { Tensor } from '@torch-ts/torch';

/**
 * Custom autograd Functions: `class F extends torch.autograd.Function` with static forward /
 * backward, `F.apply(...)`, and the ctx API (saveForBackward, savedTensors, needsInputGrad,
 * markDirty, markNonDifferentiable). Expected values and behaviour from PyTorch 1.13.
 */

type Ctx = InstanceType<typeof torch.autograd.FunctionCtx>;

function expectClose(actual: unknown, expected: number[], tol = 1e-6): void {
  expect(Array.isArray(actual)).toBe(true);
  const a = actual as number[];
  expect(a).toHaveLength(expected.length);
  a.forEach((v, i) => {
    if (!(Math.abs(v - expected[i]) <= tol * Math.max(1, Math.abs(expected[i])))) {
      throw new Error(`element ${i}: got ${v}, expected ${expected[i]} (actual ${JSON.stringify(a)})`);
    }
  });
}



class MyExp extends torch.autograd.Function {
  static override forward(ctx: Ctx, x: Tensor): Tensor {
    const r = x.exp();
    ctx.saveForBackward(r);
    return r;
  }

  static override backward(ctx: Ctx, g: Tensor | null): Tensor {
    const [r] = ctx.savedTensors;
    return g!.mul(r);
  }
}

/** x * k * y with a JS number k in the middle: backward returns null for it. */
class Scale extends torch.autograd.Function {
  static needsSeen: boolean[][] = [];

  static override forward(ctx: Ctx, x: Tensor, k: number, y: Tensor): Tensor {
    ctx.k = k;
    ctx.saveForBackward(x, y);
    Scale.needsSeen.push([...ctx.needsInputGrad]);
    return x.mul(k).mul(y);
  }

  static override backward(ctx: Ctx, g: Tensor | null): (Tensor | null)[] {
    const [x, y] = ctx.savedTensors;
    const k = ctx.k as number;
    Scale.needsSeen.push([...ctx.needsInputGrad]);
    return [ctx.needsInputGrad[0] ? g!.mul(k).mul(y) : null, null, ctx.needsInputGrad[2] ? g!.mul(k).mul(x) : null];
  }
}

/** An in-place forward: x *= 2, marked dirty. */
class MulTwo_ extends torch.autograd.Function {
  static override forward(ctx: Ctx, x: Tensor): Tensor {
    x.mul_(2);
    ctx.markDirty(x);
    return x;
  }

  static override backward(_ctx: Ctx, g: Tensor | null): Tensor {
    return g!.mul(2);
  }
}

/** Values and a 0/1 mask like sort's indices; the mask is marked non-differentiable. */
class SortLike extends torch.autograd.Function {
  static seen: unknown[] = [];

  static override forward(ctx: Ctx, x: Tensor): Tensor[] {
    const v = x.mul(2);
    const idx = x.gt(0).to(x.dtype);
    ctx.markNonDifferentiable(idx);
    return [v, idx];
  }

  static override backward(_ctx: Ctx, gv: Tensor | null, gi: Tensor | null): Tensor {
    SortLike.seen.push([gv?.tolist() ?? null, gi?.tolist() ?? null]);
    return gv!.mul(2);
  }
}

/** Two differentiable outputs: x*2 and x*3. */
class Two extends torch.autograd.Function {
  static override forward(_ctx: Ctx, x: Tensor): Tensor[] {
    return [x.mul(2), x.mul(3)];
  }

  static override backward(_ctx: Ctx, g1: Tensor | null, g2: Tensor | null): Tensor {
    return g1!.mul(2).add(g2!.mul(3));
  }
}

describe('custom Function basics', () => {
  it('MyExp: forward value, node name, gradient exp(x)', () => {
    // y = MyExp.apply(x): grad_fn.name() == 'MyExpBackward'; grad = exp(x)
    const pts = [0.5, -1.0, 2.0];
    const x = torch.tensor(pts, { dtype: 'float64', requiresGrad: true });
    const y = MyExp.apply<Tensor>(x);
    expectClose(y.tolist() as number[], pts.map(Math.exp), 1e-12);
    expect(y.requiresGrad).toBe(true);
    expect(y.isLeaf).toBe(false);
    expect(y.gradFn!.name()).toBe('MyExpBackward');
    expect(y.gradFn!.nextFunctions[0]![0].name()).toBe('torch::autograd::AccumulateGrad');
    y.sum().backward();
    expectClose(gradValues(x) as number[], pts.map(Math.exp), 1e-12);
  });

  it('forward runs with grad mode off', () => {
    let inside: boolean | null = null;
    class Probe extends torch.autograd.Function {
      static override forward(_ctx: Ctx, x: Tensor): Tensor {
        inside = torch.isGradEnabled();
        const r = x.mul(2);
        expect(r.requiresGrad).toBe(false);
        return r;
      }

      static override backward(_ctx: Ctx, g: Tensor | null): Tensor {
        return g!.mul(2);
      }
    }
    const x = torch.tensor([1.5], { dtype: 'float32', requiresGrad: true });
    const y = Probe.apply<Tensor>(x);
    expect(inside).toBe(false);
    expect(y.gradFn!.name()).toBe('ProbeBackward');
  });

  it('a JS number argument: needsInputGrad per argument and null gradients for non-tensors', () => {
    // Scale.apply(x, 2.5, y) with only x requiring grad: needs_input_grad (True, False, False);
    // x.grad = 2.5 * y = [7.5, 10]; next_functions ((AccumulateGrad, 0), (None, 0))
    Scale.needsSeen = [];
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    const y = torch.tensor([3.0, 4.0], { dtype: 'float32' });
    const o = Scale.apply<Tensor>(x, 2.5, y);
    expect(o.tolist()).toEqual([7.5, 20]);
    const nf = o.gradFn!.nextFunctions;
    expect(nf).toHaveLength(2);
    expect(nf[0]![0].name()).toBe('torch::autograd::AccumulateGrad');
    expect(nf[1]).toBeNull();
    o.sum().backward();
    expectClose(gradValues(x) as number[], [7.5, 10.0]);
    expect(y.grad).toBeNull();
    expect(Scale.needsSeen).toEqual([
      [true, false, false],
      [true, false, false],
    ]);
  });

  it('both tensor inputs requiring grad get their gradients', () => {
    Scale.needsSeen = [];
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    const y = torch.tensor([3.0, 4.0], { dtype: 'float32', requiresGrad: true });
    Scale.apply<Tensor>(x, 2.5, y).sum().backward();
    expectClose(gradValues(x) as number[], [7.5, 10.0]);
    expectClose(gradValues(y) as number[], [2.5, 5.0]);
    expect(Scale.needsSeen[0]).toEqual([true, false, true]);
  });

  it('no input requiring grad (or noGrad): no graph', () => {
    const c = torch.tensor([1.0], { dtype: 'float32' });
    const y = MyExp.apply<Tensor>(c);
    expect(y.requiresGrad).toBe(false);
    expect(y.gradFn).toBeNull();
    const x = torch.tensor([1.0], { dtype: 'float32', requiresGrad: true });
    const z = torch.noGrad(() => MyExp.apply<Tensor>(x));
    expect(z.requiresGrad).toBe(false);
    expect(z.gradFn).toBeNull();
    expectClose(z.tolist() as number[], [Math.E]);
  });

  it('a gradient of the wrong dtype or broadcast shape is brought to the input\'s', () => {
    class Widen extends torch.autograd.Function {
      static override forward(_ctx: Ctx, x: Tensor): Tensor {
        return x.mul(2);
      }

      static override backward(_ctx: Ctx, g: Tensor | null): Tensor {
        // a float64 gradient of the output's shape, as a user might write it
        return g!.to('float64').mul(2);
      }
    }
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    Widen.apply<Tensor>(x).sum().backward();
    const g = x.grad!;
    expect(g.dtype).toBe('float32');
    expectClose(g.tolist() as number[], [2.0, 2.0]);
  });

  it('saved tensors are freed after backward: a second backward is PyTorch\'s error', () => {
    // y = MyExp.apply(x); y.sum().backward(); y.sum().backward() -> "Trying to backward through the graph a second time"
    const x = torch.tensor([0.5], { dtype: 'float32', requiresGrad: true });
    const y = MyExp.apply<Tensor>(x);
    y.sum().backward();
    const err = thrown(() => y.sum().backward());
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toContain('Trying to backward through the graph a second time');
    expectClose(gradValues(x) as number[], [Math.exp(0.5)]);
  });

  it('with retainGraph the saved tensors survive and a second backward accumulates', () => {
    const x = torch.tensor([0.5], { dtype: 'float32', requiresGrad: true });
    const y = MyExp.apply<Tensor>(x);
    const s = y.sum();
    s.backward(undefined, { retainGraph: true });
    s.backward();
    expectClose(gradValues(x) as number[], [2 * Math.exp(0.5)]);
  });
});

describe('tensors of a custom backward (issue 15, Note [User code in backward])', () => {
  it('what backward makes or receives and keeps lives after backward() returns; what it returns stays its own', () => {
    const kept: Tensor[] = [];
    class Keep extends torch.autograd.Function {
      static override forward(_ctx: Ctx, x: Tensor): Tensor {
        return x.mul(2);
      }
      static override backward(_ctx: Ctx, g: Tensor): Tensor {
        const r = g.mul(2);
        kept.push(g, g.add(1), r);
        return r;
      }
    }
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    (Keep.apply(x) as Tensor).mul(torch.tensor([3.0, 4.0])).sum().backward();
    expect(kept.map((t) => t.tolist())).toEqual([
      [3, 4],
      [4, 5],
      [6, 8],
    ]);
    expectClose(gradValues(x), [6, 8]);
    for (const t of kept) t.dispose();
  });
});

describe('double backward through a custom Function', () => {
  it('MyExp\'s backward uses differentiable ops: d2/dx2 exp = exp', () => {
    // grad(MyExp.apply(x).sum(), x, create_graph=True) -> exp(x), requires grad; grad again -> exp(x)
    const pts = [0.5, -1.0, 2.0];
    const x = torch.tensor(pts, { dtype: 'float64', requiresGrad: true });
    const y = MyExp.apply<Tensor>(x);
    const [g] = torch.autograd.grad(y.sum(), x, { createGraph: true });
    expect(g!.requiresGrad).toBe(true);
    expectClose(g!.tolist() as number[], pts.map(Math.exp), 1e-12);
    const [h] = torch.autograd.grad(g!.sum(), x);
    expectClose(h!.tolist() as number[], [1.6487212707001282, 0.36787944117144233, 7.38905609893065], 1e-12);
  });

  it('a cube written as a Function: second derivative 6x', () => {
    class Cube extends torch.autograd.Function {
      static override forward(ctx: Ctx, x: Tensor): Tensor {
        ctx.saveForBackward(x);
        return x.mul(x).mul(x);
      }

      static override backward(ctx: Ctx, g: Tensor | null): Tensor {
        const [x] = ctx.savedTensors;
        return g!.mul(x.mul(x).mul(3));
      }
    }
    const x = torch.tensor([1.5, -2.0], { dtype: 'float64', requiresGrad: true });
    const [g] = torch.autograd.grad(Cube.apply<Tensor>(x).sum(), x, { createGraph: true });
    expectClose(g!.tolist() as number[], [6.75, 12.0]);
    const [h] = torch.autograd.grad(g!.sum(), x);
    expectClose(h!.tolist() as number[], [9.0, -12.0]);
  });
});

describe('markDirty', () => {
  it('an in-place forward on a non-leaf returns the same tensor with the new node', () => {
    // y = x.clone(); z = MulTwo_.apply(y): z is y, y == [2, 4], grad_fn MulTwo_Backward,
    // next_functions ((CloneBackward0, 0),); (z*z).sum().backward() -> x.grad = 8x = [8, 16]
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    const y = x.clone();
    const z = MulTwo_.apply<Tensor>(y);
    expect(z).toBe(y);
    expect(y.tolist()).toEqual([2, 4]);
    expect(y.gradFn!.name()).toBe('MulTwo_Backward');
    expect(y.gradFn!.nextFunctions[0]![0].name()).toBe('CloneBackward0');
    z.mul(z).sum().backward();
    expectClose(gradValues(x) as number[], [8.0, 16.0]);
  });

  it("markDirty bumps the tensor's version as PyTorch does (y.version == 2)", () => {
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    const y = x.clone();
    MulTwo_.apply<Tensor>(y);
    expect(y.version).toBe(2);
  });

  // PyTorch: MulTwo_.apply(x) on a leaf requiring grad -> "a leaf Variable that requires grad has
  // been used in an in-place operation."
  it('an in-place Function on a leaf that requires grad is PyTorch\'s error', () => {
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    const err = thrown(() => MulTwo_.apply<Tensor>(x));
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toContain('a leaf Variable that requires grad');
  });
});

describe('markNonDifferentiable and several outputs', () => {
  it('a non-differentiable output does not require grad; the other does', () => {
    // v, i = SortLike.apply(x): v.requires_grad True, i.requires_grad False, i.is_leaf True;
    // v.sum().backward() -> x.grad [2, 2]
    SortLike.seen = [];
    const x = torch.tensor([1.0, -2.0], { dtype: 'float32', requiresGrad: true });
    const [v, i] = SortLike.apply<Tensor[]>(x);
    expect(v.requiresGrad).toBe(true);
    expect(v.gradFn!.name()).toBe('SortLikeBackward');
    expect(i.requiresGrad).toBe(false);
    expect(i.gradFn).toBeNull();
    expect(i.isLeaf).toBe(true);
    expect(i.tolist()).toEqual([1, 0]);
    v.sum().backward();
    expectClose(gradValues(x) as number[], [2.0, 2.0]);
    expect(SortLike.seen).toHaveLength(1);
    expect((SortLike.seen[0] as unknown[])[0]).toEqual([1, 1]);
  });

  // PyTorch materializes a missing output gradient as zeros (ctx.set_materialize_grads defaults
  // to True): backward(ctx, gv, gi) gets gi == [0, 0]
  it('backward receives zeros for the non-differentiable output\'s gradient', () => {
    SortLike.seen = [];
    const x = torch.tensor([1.0, -2.0], { dtype: 'float32', requiresGrad: true });
    const [v] = SortLike.apply<Tensor[]>(x);
    v.sum().backward();
    expect(SortLike.seen[0]).toEqual([
      [1, 1],
      [0, 0],
    ]);
  });

  it('two differentiable outputs share one node', () => {
    const x = torch.tensor([1.0, -2.0], { dtype: 'float32', requiresGrad: true });
    const [a, b] = Two.apply<Tensor[]>(x);
    expect(a.gradFn).toBe(b.gradFn);
    expect(a.gradFn!.name()).toBe('TwoBackward');
    // both used: grad = 2 + 3 * 2 = 8 per element
    a.add(b.mul(2)).sum().backward();
    expectClose(gradValues(x) as number[], [8.0, 8.0]);
  });

  // only a used: PyTorch calls backward(ctx, g1, g2) with g2 a zero tensor -> x.grad [2, 2]
  it('using only one of two outputs: backward gets zeros for the other', () => {
    const x = torch.tensor([1.0, -2.0], { dtype: 'float32', requiresGrad: true });
    const [a] = Two.apply<Tensor[]>(x);
    a.sum().backward();
    expectClose(gradValues(x) as number[], [2.0, 2.0]);
  });
});

describe('an input returned as-is by a custom Function (Note [Inputs returned as-is by a custom Function])', () => {
  it('may not be modified in place with grad on, with PyTorch 1.13 messages', () => {
    class Id extends torch.autograd.Function {
      static override forward(_ctx: Ctx, x: Tensor, y: Tensor): Tensor[] {
        return [x, y.mul(2)];
      }
      static override backward(_ctx: Ctx, a: Tensor, b: Tensor): Tensor[] {
        return [a, b.mul(2)];
      }
    }
    class One extends torch.autograd.Function {
      static override forward(_ctx: Ctx, x: Tensor): Tensor {
        return x;
      }
      static override backward(_ctx: Ctx, g: Tensor): Tensor {
        return g;
      }
    }
    const x = torch.ones([2], { requiresGrad: true });
    const [a, b] = Id.apply<Tensor[]>(x, x);
    b.add_(1); // a fresh output: fine
    const e = thrown(() => a.add_(1));
    expect(e).toBeInstanceOf(torch.AutogradError);
    expect(e.message).toBe(
      'add_: Output 0 of IdBackward is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.',
    );
    torch.noGrad(() => a.add_(1));
    const o = One.apply<Tensor>(x);
    expect(thrown(() => o.mul_(2)).message).toBe(
      'mul_: Output 0 of OneBackward is a view and is being modified inplace. This view was created inside a custom Function (or because an input was returned as-is) and the autograd logic to handle view+inplace would override the custom backward associated with the custom Function, leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the output of the custom Function.',
    );
  });
});
