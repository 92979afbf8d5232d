import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { gradValues } from './helpers';
import type { Tensor } from '@torch-ts/torch';

/**
 * Tensor hooks (`x.registerHook`) on leaves and non-leaves, Node hooks
 * (`gradFn.registerPrehook` / `gradFn.registerHook`) and their order. Every expected value
 * was computed with PyTorch 1.13; where 1.13 and 2.x order hooks differently the cases are
 * arranged so that both give the same answer.
 */

function f32(data: number[], requiresGrad = true): Tensor {
  return torch.tensor(data, { dtype: 'float32', requiresGrad });
}

function expectClose(actual: unknown, expected: number[], tol = 1e-5): void {
  expect(Array.isArray(actual)).toBe(true);
  const a = actual as number[];
  expect(a).toHaveLength(expected.length);
  a.forEach((v, i) => {
    if (!(Math.abs(v - expected[i]) <= tol * Math.max(1, Math.abs(expected[i])))) {
      throw new Error(`element ${i}: got ${v}, expected ${expected[i]} (actual ${JSON.stringify(a)})`);
    }
  });
}


function live(): number {
  return torch.memory.stats('cpu').liveTensors;
}

describe('tensor hooks on leaves', () => {
  it('see the gradient before it is accumulated; remove() stops them', () => {
    // x.register_hook(seen.append); (x*x*3).sum().backward(): seen [[6, 12]], x.grad [6, 12]
    const x = f32([1.0, 2.0]);
    const seen: number[][] = [];
    const h = x.registerHook((g) => {
      seen.push(g.tolist() as number[]);
    });
    x.mul(x).mul(3).sum().backward();
    expect(seen).toHaveLength(1);
    expectClose(seen[0], [6.0, 12.0]);
    expectClose(gradValues(x), [6.0, 12.0]);
    h.remove();
    x.mul(1).sum().backward();
    expect(seen).toHaveLength(1);
    expectClose(gradValues(x), [7.0, 13.0]);
  });

  it('a returned tensor replaces the gradient that is accumulated', () => {
    // x.register_hook(lambda g: g*10); (x*x).sum().backward() -> [20, 40]
    const x = f32([1.0, 2.0]);
    x.registerHook((g) => g.mul(10));
    x.mul(x).sum().backward();
    expectClose(gradValues(x), [20.0, 40.0]);
  });

  it('the hook runs on every backward, before each accumulation', () => {
    // hook g*2; (x*1).sum().backward() twice -> [4, 4]
    const x = f32([1.0, 2.0]);
    x.registerHook((g) => g.mul(2));
    x.mul(1).sum().backward();
    x.mul(1).sum().backward();
    expectClose(gradValues(x), [4.0, 4.0]);
  });

  it('a leaf used twice calls its hook once, with the summed gradient', () => {
    // (x*2 + x*x).sum().backward(): one call with [4, 6]
    const x = f32([1.0, 2.0]);
    const calls: number[][] = [];
    x.registerHook((g) => {
      calls.push(g.tolist() as number[]);
    });
    x.mul(2).add(x.mul(x)).sum().backward();
    expect(calls).toHaveLength(1);
    expectClose(calls[0], [4.0, 6.0]);
  });

  it('a hook on a tensor that does not require grad is PyTorch\'s error', () => {
    const c = f32([1.0], false);
    expect(() => c.registerHook((g) => g)).toThrow(torch.AutogradError);
    expect(() => c.registerHook((g) => g)).toThrow("cannot register a hook on a tensor that doesn't require gradient");
  });
});

describe('tensor hooks on non-leaves', () => {
  it('see the gradient of the non-leaf; undefined keeps it', () => {
    // y = x*3; y.register_hook(seen.append); (y*y).sum().backward(): seen [[6, 12]], x.grad [18, 36]
    const x = f32([1.0, 2.0]);
    const y = x.mul(3);
    const seen: number[][] = [];
    y.registerHook((g) => {
      seen.push(g.tolist() as number[]);
      return undefined;
    });
    y.mul(y).sum().backward();
    expect(seen).toHaveLength(1);
    expectClose(seen[0], [6.0, 12.0]);
    expectClose(gradValues(x), [18.0, 36.0]);
    expect(y.grad).toBeNull(); // a hook does not retain the gradient
  });

  it('a returned tensor replaces the gradient flowing on', () => {
    // y.register_hook(lambda g: g*0+1); (y*y).sum().backward() -> x.grad [3, 3]
    const x = f32([1.0, 2.0]);
    const y = x.mul(3);
    y.registerHook((g) => torch.onesLike(g));
    y.mul(y).sum().backward();
    expectClose(gradValues(x), [3.0, 3.0]);
  });

  it('several hooks run in registration order, each seeing the previous one\'s result', () => {
    // a: g+1, b: g*2, c: observe -> a sees [6, 12], b [7, 13], c [14, 26]; x.grad [42, 78]
    const x = f32([1.0, 2.0]);
    const y = x.mul(3);
    const order: [string, number[]][] = [];
    y.registerHook((g) => {
      order.push(['a', g.tolist() as number[]]);
      return g.add(1);
    });
    y.registerHook((g) => {
      order.push(['b', g.tolist() as number[]]);
      return g.mul(2);
    });
    y.registerHook((g) => {
      order.push(['c', g.tolist() as number[]]);
    });
    y.mul(y).sum().backward();
    expect(order.map((o) => o[0])).toEqual(['a', 'b', 'c']);
    expectClose(order[0][1], [6.0, 12.0]);
    expectClose(order[1][1], [7.0, 13.0]);
    expectClose(order[2][1], [14.0, 26.0]);
    expectClose(gradValues(x), [42.0, 78.0]);
  });

  it('remove() on a non-leaf hook', () => {
    const x = f32([1.0, 2.0]);
    const y = x.mul(3);
    const h = y.registerHook((g) => g.mul(100));
    h.remove();
    h.remove(); // idempotent
    y.sum().backward();
    expectClose(gradValues(x), [3.0, 3.0]);
  });

  it('retainGrad registered after a hook keeps the hook\'s result', () => {
    // y.register_hook(lambda g: g*10); y.retain_grad(); (y*y).sum().backward(): y.grad [60, 120], x.grad [180, 360]
    const x = f32([1.0, 2.0]);
    const y = x.mul(3);
    y.registerHook((g) => g.mul(10));
    y.retainGrad();
    y.mul(y).sum().backward();
    expectClose(gradValues(y), [60.0, 120.0]);
    expectClose(gradValues(x), [180.0, 360.0]);
  });

  // Note [User code in backward]: what a hook makes is the caller's, so a backward in `tidy`
  // (as a training step runs) frees it with the step
  it('hooks that replace gradients leak nothing when backward runs in tidy', () => {
    const x = f32([1.0, 2.0]);
    const before = live();
    torch.tidy(() => {
      const y = x.mul(3);
      const hy = y.registerHook((g) => g.mul(2));
      const hx = x.registerHook((g) => g.add(1));
      y.mul(y).sum().backward();
      hy.remove();
      hx.remove();
    });
    // x.grad = (2*y*2 = [12, 24]) * 3 + 1 = [37, 73]
    expectClose(gradValues(x), [37.0, 73.0]);
    expect(live()).toBe(before + 1); // x's .grad
  });

  it('a tensor made or kept in a hook lives after backward returns (issue 15)', () => {
    // seen = []; x.register_hook(lambda g: seen.extend([g.clone(), g, g * 2])); (x*x).sum().backward()
    const x = f32([1.0, 2.0]);
    const y = x.mul(3);
    const seen: Tensor[] = [];
    y.registerHook((g) => {
      seen.push(g.clone(), g, g.mul(2));
    });
    x.registerHook((g) => {
      seen.push(g);
    });
    y.mul(y).sum().backward();
    // dy = 2y = [6, 12]; dx = 3 dy = [18, 36]
    expect(seen.map((t) => t.tolist())).toEqual([
      [6, 12],
      [6, 12],
      [12, 24],
      [18, 36],
    ]);
    expectClose(gradValues(x), [18.0, 36.0]);
    for (const t of seen) t.dispose();
  });

  // PyTorch lets a hook return any tensor, including one the caller keeps using
  it('a hook may return a tensor the caller keeps using', () => {
    const x = f32([1.0, 2.0]);
    const c = f32([5.0, 7.0], false);
    x.registerHook(() => c);
    x.mul(x).sum().backward();
    expectClose(gradValues(x), [5.0, 7.0]);
    expect(c.tolist()).toEqual([5, 7]);
  });
});

describe('Node hooks', () => {
  it('a pre-hook sees the gradients of the node\'s outputs', () => {
    // z = (x*3).exp(); z.grad_fn.register_prehook(...): sees [[1, 1]]; x.grad = 3 exp(3x)
    const x = f32([1.0, 2.0]);
    const z = x.mul(3).exp();
    const seen: unknown[] = [];
    z.gradFn!.registerPrehook((gradOutputs) => {
      seen.push(gradOutputs.map((g) => (g as Tensor).tolist()));
    });
    z.sum().backward();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual([[1, 1]]);
    expectClose(gradValues(x), [60.25661, 1210.2864], 1e-5);
  });

  it('a pre-hook\'s returned array replaces the node\'s incoming gradients', () => {
    // prehook (go[0]*2,) -> x.grad = 6 exp(3x)
    const x = f32([1.0, 2.0]);
    const z = x.mul(3).exp();
    z.gradFn!.registerPrehook((gradOutputs) => [(gradOutputs[0] as Tensor).mul(2)]);
    z.sum().backward();
    expectClose(gradValues(x), [120.5132, 2420.5728], 1e-5);
  });

  it('pre-hooks chain in registration order', () => {
    // p1: go+1 sees [1, 1]; p2: go*2 sees [2, 2]; x.grad = [12, 12]
    const x = f32([1.0, 2.0]);
    const y = x.mul(3);
    const order: [string, unknown][] = [];
    y.gradFn!.registerPrehook((go) => {
      order.push(['p1', (go[0] as Tensor).tolist()]);
      return [(go[0] as Tensor).add(1)];
    });
    y.gradFn!.registerPrehook((go) => {
      order.push(['p2', (go[0] as Tensor).tolist()]);
      return [(go[0] as Tensor).mul(2)];
    });
    y.sum().backward();
    expect(order).toEqual([
      ['p1', [1, 1]],
      ['p2', [2, 2]],
    ]);
    expectClose(gradValues(x), [12.0, 12.0]);
  });

  it('a post-hook sees the node\'s gradInputs and gradOutputs', () => {
    // z = (x*3).exp(); post hook sees gi [[20.0855, 403.4288]] and go [[1, 1]]
    const x = f32([1.0, 2.0]);
    const z = x.mul(3).exp();
    const seen: [unknown, unknown][] = [];
    z.gradFn!.registerHook((gradInputs, gradOutputs) => {
      seen.push([gradInputs.map((g) => (g as Tensor).tolist()), gradOutputs.map((g) => (g as Tensor).tolist())]);
    });
    z.sum().backward();
    expect(seen).toHaveLength(1);
    expectClose((seen[0][0] as number[][])[0], [20.08553695678711, 403.4288024902344]);
    expect(seen[0][1]).toEqual([[1, 1]]);
    expectClose(gradValues(x), [60.25661, 1210.2864]);
  });

  it('a post-hook\'s returned array replaces the node\'s gradInputs', () => {
    // z.grad_fn.register_hook(lambda gi, go: (gi[0]*0+1,)) -> x.grad [3, 3]
    const x = f32([1.0, 2.0]);
    const z = x.mul(3).exp();
    z.gradFn!.registerHook((gi) => [torch.onesLike(gi[0] as Tensor)]);
    z.sum().backward();
    expectClose(gradValues(x), [3.0, 3.0]);
  });

  it('a post-hook can zero one of two inputs\' gradients', () => {
    // y = x*x; hook (gi[0], gi[1]*0) -> x.grad = [1, 2]
    const x = f32([1.0, 2.0]);
    const y = x.mul(x);
    y.gradFn!.registerHook((gi) => [gi[0] as Tensor, (gi[1] as Tensor).mul(0)]);
    y.sum().backward();
    expectClose(gradValues(x), [1.0, 2.0]);
  });

  it('remove() of a Node hook', () => {
    const x = f32([1.0, 2.0]);
    const y = x.mul(3);
    const h = y.gradFn!.registerPrehook((go) => [(go[0] as Tensor).mul(100)]);
    const p = y.gradFn!.registerHook((gi) => [(gi[0] as Tensor).mul(100)]);
    h.remove();
    p.remove();
    y.sum().backward();
    expectClose(gradValues(x), [3.0, 3.0]);
  });

  it('order: tensor hook, Node pre-hook, Node post-hook, then the next tensors\' hooks', () => {
    // registered tensor hook first, then post, then pre:
    // PyTorch: ['tensor', 'pre', 'post', 'y', 'leaf']
    const x = f32([1.0, 2.0]);
    const y = x.mul(3);
    const z = y.exp();
    const order: string[] = [];
    z.registerHook(() => {
      order.push('tensor');
    });
    z.gradFn!.registerHook(() => {
      order.push('post');
    });
    z.gradFn!.registerPrehook(() => {
      order.push('pre');
    });
    x.registerHook(() => {
      order.push('leaf');
    });
    y.registerHook(() => {
      order.push('y');
    });
    z.sum().backward();
    expect(order).toEqual(['tensor', 'pre', 'post', 'y', 'leaf']);
  });

  it('Node hooks that replace gradients leak nothing when backward runs in tidy', () => {
    const x = f32([1.0, 2.0]);
    const before = live();
    torch.tidy(() => {
      const z = x.mul(3).exp();
      z.gradFn!.registerPrehook((go) => [(go[0] as Tensor).mul(2)]);
      z.gradFn!.registerHook((gi) => [(gi[0] as Tensor).mul(0.5)]);
      z.sum().backward();
    });
    expectClose(gradValues(x), [60.25661, 1210.2864]);
    expect(live()).toBe(before + 1); // x's .grad only
  });

  it('gradients a Node hook keeps live after backward returns', () => {
    const x = f32([1.0, 2.0]);
    const z = x.mul(3).exp();
    const kept: Tensor[] = [];
    z.gradFn!.registerPrehook((go) => {
      kept.push(go[0] as Tensor);
    });
    z.gradFn!.registerHook((gi, go) => {
      kept.push(gi[0] as Tensor, (go[0] as Tensor).add(1));
    });
    z.sum().backward();
    const e = [Math.exp(3), Math.exp(6)];
    expectClose(kept[0].tolist(), [1, 1]);
    expectClose(kept[1].tolist(), e);
    expectClose(kept[2].tolist(), [2, 2]);
    for (const t of kept) t.dispose();
  });
});
