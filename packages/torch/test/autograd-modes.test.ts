import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { thrown } from './helpers';
import type { Tensor } from '@torch-ts/torch';

/**
 * Grad modes (noGrad, enableGrad, inferenceMode, as functions and as `using` guards),
 * detach / detach_ and requiresGrad_. Expected behaviour checked against PyTorch 1.13.
 */

function f32(data: number[], requiresGrad = false): Tensor {
  return torch.tensor(data, { dtype: 'float32', requiresGrad });
}


describe('noGrad / enableGrad / inferenceMode as functions', () => {
  it('noGrad(fn) returns fn\'s result, records nothing, and restores grad mode', () => {
    // with torch.no_grad(): y = x*2 -> requires_grad False, grad_fn None
    const x = f32([1.0, 2.0], true);
    expect(torch.isGradEnabled()).toBe(true);
    const y = torch.noGrad(() => {
      expect(torch.isGradEnabled()).toBe(false);
      return x.mul(2);
    });
    expect(torch.isGradEnabled()).toBe(true);
    expect(y.requiresGrad).toBe(false);
    expect(y.gradFn).toBeNull();
    expect(y.isLeaf).toBe(true);
    expect(y.tolist()).toEqual([2, 4]);
    // outside again, recording works
    expect(x.mul(2).gradFn!.name()).toBe('MulBackward0');
  });

  it('enableGrad(fn) inside noGrad records again, and noGrad is back after it', () => {
    const x = f32([1.0, 2.0], true);
    torch.noGrad(() => {
      const z = torch.enableGrad(() => {
        expect(torch.isGradEnabled()).toBe(true);
        return x.mul(2);
      });
      expect(torch.isGradEnabled()).toBe(false);
      expect(z.requiresGrad).toBe(true);
      expect(z.gradFn!.name()).toBe('MulBackward0');
      expect(x.mul(3).requiresGrad).toBe(false);
    });
    expect(torch.isGradEnabled()).toBe(true);
  });

  it('the modes nest and each restores its caller\'s mode', () => {
    const seen: boolean[] = [];
    torch.noGrad(() => {
      seen.push(torch.isGradEnabled());
      torch.enableGrad(() => {
        seen.push(torch.isGradEnabled());
        torch.noGrad(() => seen.push(torch.isGradEnabled()));
        seen.push(torch.isGradEnabled());
      });
      seen.push(torch.isGradEnabled());
    });
    seen.push(torch.isGradEnabled());
    expect(seen).toEqual([false, true, false, true, false, true]);
  });

  it('setGradEnabled(flag, fn)', () => {
    const x = f32([1.0], true);
    expect(torch.setGradEnabled(false, () => x.mul(2)).requiresGrad).toBe(false);
    expect(torch.setGradEnabled(true, () => x.mul(2)).requiresGrad).toBe(true);
  });

  it('each restores the mode when fn throws', () => {
    const boom = () => {
      throw new Error('boom');
    };
    expect(() => torch.noGrad(boom)).toThrow('boom');
    expect(torch.isGradEnabled()).toBe(true);
    expect(() => torch.inferenceMode(boom)).toThrow('boom');
    expect(torch.isGradEnabled()).toBe(true);
    torch.noGrad(() => {
      expect(() => torch.enableGrad(boom)).toThrow('boom');
      expect(torch.isGradEnabled()).toBe(false);
    });
    expect(torch.isGradEnabled()).toBe(true);
    // and ops record again afterwards
    const x = f32([1.0], true);
    expect(x.exp().requiresGrad).toBe(true);
  });

  it('a TorchError thrown by an op inside noGrad restores the mode too', () => {
    const a = torch.ones([2, 3], { dtype: 'float32' });
    const b = torch.ones([4, 5], { dtype: 'float32' });
    expect(() => torch.noGrad(() => torch.mm(a, b))).toThrow(torch.ShapeError);
    expect(torch.isGradEnabled()).toBe(true);
  });

  it('inferenceMode(fn): grad is off inside, results do not require grad, the mode is restored', () => {
    // with torch.inference_mode(): w = x*2 -> requires_grad False, is_grad_enabled() False
    const x = f32([1.0, 2.0], true);
    const w = torch.inferenceMode(() => {
      expect(torch.isGradEnabled()).toBe(false);
      return x.mul(2);
    });
    expect(w.requiresGrad).toBe(false);
    expect(w.gradFn).toBeNull();
    expect(w.tolist()).toEqual([2, 4]);
    expect(torch.isGradEnabled()).toBe(true);
  });

  it('an in-place op under noGrad bumps the version (n._version 0 -> 1)', () => {
    const n = f32([1.0, 2.0]);
    expect(n.version).toBe(0);
    torch.noGrad(() => n.add_(1));
    expect(n.version).toBe(1);
    expect(n.tolist()).toEqual([2, 3]);
  });

  it('an in-place op under noGrad on a leaf that requires grad is allowed (the SGD step)', () => {
    // with torch.no_grad(): x.add_(1) -> x = [2, 3], requires_grad True, _version 1
    const x = f32([1.0, 2.0], true);
    torch.noGrad(() => x.add_(1));
    expect(x.tolist()).toEqual([2, 3]);
    expect(x.requiresGrad).toBe(true);
    expect(x.isLeaf).toBe(true);
    expect(x.version).toBe(1);
  });

  // PyTorch: n = torch.tensor([1., 2.]); with torch.inference_mode(): n.add_(1) -> n._version == 1
  // (only inference tensors skip version counting)
  it('an in-place op inside inferenceMode on a normal tensor bumps its version (PyTorch: 0 -> 1)', () => {
    const n = f32([1.0, 2.0]);
    torch.inferenceMode(() => n.add_(1));
    expect(n.tolist()).toEqual([2, 3]);
    expect(n.version).toBe(1);
  });

  // y = x.exp(); inference_mode: y.add_(1); y.sum().backward() -> PyTorch's "modified by an
  // inplace operation ... is at version 1; expected version 0" error, not a silently wrong gradient
  it('a saved tensor changed in place inside inferenceMode makes backward fail, as in PyTorch', () => {
    const x = f32([1.0, 2.0], true);
    const y = x.exp();
    torch.inferenceMode(() => y.add_(1));
    expect(() => y.sum().backward()).toThrow(/is at version 1; expected version 0/);
  });
});

// Note [Inference tensors]; every expectation from PyTorch 1.13 (same messages in 2.x)
describe('inference tensors', () => {
  const SAVE = 'Inference tensors cannot be saved for backward. To work around you can make a clone to get a normal tensor and use it in autograd.';
  const INPLACE =
    'Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.';

  it('what inferenceMode makes is an inference tensor; its views too; a view of a normal tensor is not', () => {
    const b = f32([1, 2]);
    const [a, v] = torch.inferenceMode(() => [torch.ones([2]), b.view(2)]);
    expect(a.isInference()).toBe(true);
    expect(a.view(2).isInference()).toBe(true);
    expect(v.isInference()).toBe(false);
    expect(a.mul(2).isInference()).toBe(false);
    expect(b.isInference()).toBe(false);
    using _inf = torch.inferenceMode();
    expect(torch.ones([1]).isInference()).toBe(true);
  });

  it('autograd refuses to save one (a * w, a.view(2) * w, matmul, w.clone().mul_(a)); an op that saves nothing takes it', () => {
    const a = torch.inferenceMode(() => torch.ones([2]));
    const w = f32([1, 2], true);
    for (const f of [() => a.mul(w), () => a.view(2).mul(w), () => a.matmul(w), () => w.exp().mul(a), () => w.clone().mul_(a)]) {
      const e = thrown(f);
      expect(e).toBeInstanceOf(torch.AutogradError);
      expect(e.message).toBe(SAVE);
    }
    // (a + w) saves nothing: PyTorch records AddBackward0
    const s = a.add(w);
    expect(s.gradFn!.name()).toBe('AddBackward0');
    s.sum().backward();
    expect(w.grad!.tolist()).toEqual([1, 1]);
    // the workaround the message names
    expect(a.clone().mul(w).gradFn!.name()).toBe('MulBackward0');
    // no grad wanted: nothing to save
    expect(torch.noGrad(() => a.mul(w)).tolist()).toEqual([1, 2]);
  });

  it('requiresGrad_(true) and in-place writes are refused outside the mode, allowed inside', () => {
    const a = torch.inferenceMode(() => torch.ones([2]));
    let e = thrown(() => a.requiresGrad_());
    expect(e).toBeInstanceOf(torch.AutogradError);
    expect(e.message).toBe('requiresGrad_: Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.');
    expect(() => a.requiresGrad_(false)).not.toThrow();
    for (const f of [() => a.add_(1), () => torch.noGrad(() => a.add_(1)), () => a.copy_(f32([3, 4])), () => a.view(2).zero_()]) {
      e = thrown(f);
      expect(e.message).toBe(`${e.message.split(':')[0]}: ${INPLACE}`);
    }
    expect(a.tolist()).toEqual([1, 1]);
    // a normal tensor may take an inference tensor as the source of its in-place op
    const n = f32([1, 2]);
    n.add_(a);
    expect(n.tolist()).toEqual([2, 3]);
    torch.inferenceMode(() => {
      a.add_(1);
      a.requiresGrad_();
    });
    expect(a.tolist()).toEqual([2, 2]);
    expect(a.requiresGrad).toBe(true);
  });

  it('a refused save leaks nothing', () => {
    const a = torch.inferenceMode(() => torch.ones([3]));
    const w = f32([1, 2, 3], true);
    thrown(() => a.mul(w));
    const before = torch.memory.stats('cpu').liveTensors;
    for (let i = 0; i < 100; i++) thrown(() => a.mul(w));
    expect(torch.memory.stats('cpu').liveTensors).toBe(before);
  });
});

describe('scope guards with `using`', () => {
  it('using _ = torch.noGrad() turns grad off until the block ends', () => {
    const x = f32([1.0, 2.0], true);
    let inside: Tensor;
    {
      using _guard = torch.noGrad();
      expect(torch.isGradEnabled()).toBe(false);
      inside = x.mul(2);
    }
    expect(torch.isGradEnabled()).toBe(true);
    expect(inside.requiresGrad).toBe(false);
    expect(x.mul(2).requiresGrad).toBe(true);
  });

  it('the guard restores the mode when the block throws', () => {
    const run = () => {
      using _guard = torch.noGrad();
      throw new Error('inside');
    };
    expect(run).toThrow('inside');
    expect(torch.isGradEnabled()).toBe(true);
  });

  it('enableGrad and inferenceMode guards, nested', () => {
    const x = f32([1.0], true);
    {
      using _off = torch.noGrad();
      {
        using _on = torch.enableGrad();
        expect(torch.isGradEnabled()).toBe(true);
        expect(x.mul(2).requiresGrad).toBe(true);
      }
      expect(torch.isGradEnabled()).toBe(false);
    }
    {
      using _inf = torch.inferenceMode();
      expect(torch.isGradEnabled()).toBe(false);
      expect(x.mul(2).requiresGrad).toBe(false);
    }
    expect(torch.isGradEnabled()).toBe(true);
  });
});

describe('detach and detach_', () => {
  it('detach() shares storage, has no grad and no gradFn, and is a leaf', () => {
    // d = (x*2).detach(); d.add_(1) changes y too: y = [3, 5], both at version 1
    const x = f32([1.0, 2.0], true);
    const y = x.mul(2);
    const d = y.detach();
    expect(d.requiresGrad).toBe(false);
    expect(d.gradFn).toBeNull();
    expect(d.isLeaf).toBe(true);
    expect(d.grad).toBeNull();
    d.add_(1);
    expect(y.tolist()).toEqual([3, 5]);
    expect(d.version).toBe(1);
    expect(y.version).toBe(1); // one version counter per storage, shared by the detached alias
    expect(y.requiresGrad).toBe(true);
  });

  it('detach() of a leaf: the leaf still requires grad, the alias does not', () => {
    const x = f32([1.0, 2.0], true);
    const d = x.detach();
    expect(x.requiresGrad).toBe(true);
    expect(d.requiresGrad).toBe(false);
    d.mul_(3); // allowed: d does not require grad
    expect(x.tolist()).toEqual([3, 6]);
  });

  it('a gradient does not flow through detach()', () => {
    const x = f32([1.0, 2.0], true);
    const y = x.mul(x.detach()).sum(); // d/dx (x * c) = c
    y.backward();
    const g = x.grad!;
    expect(g.tolist()).toEqual([1, 2]);
  });

  it('detach_() turns a non-leaf into a leaf that does not require grad, in place', () => {
    // y = x*2; y.detach_() -> requires_grad False, grad_fn None, is_leaf True
    const x = f32([1.0, 2.0], true);
    const y = x.mul(2);
    const r = y.detach_();
    expect(r).toBe(y);
    expect(y.requiresGrad).toBe(false);
    expect(y.gradFn).toBeNull();
    expect(y.isLeaf).toBe(true);
    expect(y.tolist()).toEqual([2, 4]);
  });

  it('detach_() of a view that requires grad is PyTorch\'s error', () => {
    const x = f32([1.0, 2.0], true);
    const v = x.view(2);
    const err = thrown(() => v.detach_());
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toContain("Can't detach views in-place. Use detach() instead.");
    expect(v.requiresGrad).toBe(true);
  });
});

describe('requiresGrad_', () => {
  it('requiresGrad_() and requiresGrad_(false) on a leaf', () => {
    const a = f32([1.0, 2.0]);
    expect(a.requiresGrad).toBe(false);
    expect(a.requiresGrad_()).toBe(a);
    expect(a.requiresGrad).toBe(true);
    expect(a.mul(2).requiresGrad).toBe(true);
    a.requiresGrad_(false);
    expect(a.requiresGrad).toBe(false);
    expect(a.mul(2).requiresGrad).toBe(false);
    expect(a.isLeaf).toBe(true);
  });

  it('the requiresGrad setter and the factory option', () => {
    const a = f32([1.0, 2.0]);
    a.requiresGrad = true;
    expect(a.requiresGrad).toBe(true);
    const b = torch.zeros([2], { dtype: 'float64', requiresGrad: true });
    expect(b.requiresGrad).toBe(true);
    expect(b.isLeaf).toBe(true);
  });

  it('an integer tensor cannot require grad', () => {
    // torch.tensor([1, 2]).requires_grad_() -> "only Tensors of floating point dtype can require gradients"
    const i = torch.tensor([1, 2]);
    expect(i.dtype).toBe('int64');
    const err = thrown(() => i.requiresGrad_());
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toContain('only Tensors of floating point dtype can require gradients');
    expect(i.requiresGrad).toBe(false);
    // requiresGrad_(false) on an int tensor is fine
    expect(i.requiresGrad_(false).requiresGrad).toBe(false);
    const b = thrown(() => torch.tensor([true, false]).requiresGrad_());
    expect(b.message).toContain('only Tensors of floating point dtype can require gradients');
  });

  it('requiresGrad_(false) on a non-leaf is PyTorch\'s error; requiresGrad_(true) is a no-op', () => {
    const x = f32([1.0, 2.0], true);
    const y = x.mul(2);
    const err = thrown(() => y.requiresGrad_(false));
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toContain('you can only change requires_grad flags of leaf variables');
    expect(y.requiresGrad).toBe(true);
    expect(y.requiresGrad_(true)).toBe(y);
    expect(y.gradFn!.name()).toBe('MulBackward0');
  });
});
