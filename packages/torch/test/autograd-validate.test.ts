import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

/**
 * Issue 14: every gradient user code hands the engine is checked as PyTorch checks it
 * (autograd Note [Validating gradients]): tensor and Node hooks' return values, custom
 * Functions' backward results, and the gradients given to `backward` / `autograd.grad`.
 * Messages are PyTorch's (1.13 and 2.x word them alike), with torch-ts's shapes and dtypes.
 * Each refused scenario must leave `.grad` untouched and leak nothing.
 */

function counters() {
  const s = torch.memory.stats('cpu');
  return { liveTensors: s.liveTensors, liveBytes: s.liveBytes };
}

type Ctx = InstanceType<typeof torch.autograd.FunctionCtx>;
type Track = <T extends Tensor>(t: T) => T;

/**
 * Hooks and custom backwards are user code (autograd Note [User code in backward]): the
 * gradients they receive and the tensors they make are the user's, so the scenarios hand
 * them to `mine` to be disposed with the rest of what `refused` tracked.
 */
let active: Track | null = null;
function mine<T>(v: T): T {
  if (Array.isArray(v)) for (const t of v) mine(t);
  else if (v instanceof torch.Tensor) active?.(v);
  return v;
}

/** Runs `scenario`, disposes what it tracked, and returns its error (checking nothing leaked). */
function refused(scenario: (track: Track) => void): Error {
  const start = counters();
  const made: Tensor[] = [];
  let err: unknown = null;
  const track: Track = (t) => {
    made.push(t);
    return t;
  };
  active = track;
  try {
    scenario(track);
  } catch (e) {
    err = e;
  } finally {
    active = null;
  }
  for (const t of made) t.dispose();
  expect(err, 'expected an error').toBeInstanceOf(Error);
  expect(counters()).toEqual(start);
  return err as Error;
}

const leaf = (track: Track, n = 3) => track(torch.ones([n], { requiresGrad: true }));

describe('tensor hooks (registerHook)', () => {
  it('a hook that changes the size of a leaf gradient is refused', () => {
    // x.register_hook(lambda g: torch.ones(5)); x.sum().backward()
    // -> RuntimeError: hook '<lambda>' has changed the size of value
    let x: Tensor | null = null;
    const err = refused((track) => {
      x = leaf(track);
      x.registerHook(function widen(g) {
        mine(g);
        return mine(torch.ones([5]));
      });
      track(x.sum()).backward();
      expect(x.grad).toBeNull();
    });
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe("hook 'widen' has changed the size of value (was [3] got [5])");
  });

  it('a hook on a non-leaf may not return a broadcastable shape either (hooks are never summed)', () => {
    const err = refused((track) => {
      const x = leaf(track);
      const y = track(x.mul(2));
      y.registerHook((g) => (mine(g), mine(torch.ones([2, 3]))));
      track(y.sum()).backward();
    });
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe("hook '<anonymous>' has changed the size of value (was [3] got [2, 3])");
  });

  it('a hook that returns something other than a Tensor is a TypeError', () => {
    // x.register_hook(lambda g: 42) -> TypeError: expected Variable, but hook returned 'int'
    for (const value of [42, 'grad', [1, 2, 3], { grad: 1 }]) {
      const err = refused((track) => {
        const x = leaf(track);
        x.registerHook((g) => (mine(g), value as never));
        track(x.sum()).backward();
        expect(x.grad).toBeNull();
      });
      expect(err).toBeInstanceOf(TypeError);
      expect(err.message).toMatch(/^expected Tensor, but hook '<anonymous>' returned (number|string|Array|Object)$/);
    }
  });

  it('a hook that changes the dtype is refused', () => {
    // def myhook(g): return g.double()
    // -> hook 'myhook' has changed the type of value (was torch.FloatTensor got torch.DoubleTensor)
    const err = refused((track) => {
      const x = leaf(track);
      x.registerHook(function myhook(g) {
        return mine(mine(g).double());
      });
      track(x.sum()).backward();
    });
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe("hook 'myhook' has changed the type of value (was float32 got float64)");
  });

  it('undefined and null keep the gradient; a valid tensor replaces it', () => {
    const x = torch.ones([3], { requiresGrad: true });
    x.registerHook(() => undefined);
    x.registerHook(() => null as never);
    x.registerHook((g) => g.mul(3));
    x.sum().backward();
    expect(x.grad!.tolist()).toEqual([3, 3, 3]);
    x.dispose();
  });

  it('registerHook refuses a hook that is not a function', () => {
    const x = torch.ones([3], { requiresGrad: true });
    expect(() => x.registerHook(42 as never)).toThrow(TypeError);
    expect(() => x.registerHook(42 as never)).toThrow('registerHook: expected a function, but got number');
    x.dispose();
  });
});

describe('Node hooks (gradFn.registerHook / registerPrehook)', () => {
  it('a post hook must return one value per gradient', () => {
    const err = refused((track) => {
      const x = leaf(track);
      const y = track(x.mul(track(torch.ones([3], { requiresGrad: true }))));
      y.gradFn!.registerHook(function one(gi, go) {
        mine([gi, go].flat());
        return [mine(torch.ones([3]))];
      });
      track(y.sum()).backward();
    });
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe("hook 'one' has returned an incorrect number of values (got 1, but expected 2)");
  });

  it('a post hook that returns a non-array is a TypeError', () => {
    // -> TypeError: expected tuple, but hook returned 'int'
    const err = refused((track) => {
      const x = leaf(track);
      const y = track(x.mul(2));
      y.gradFn!.registerHook((gi, go) => (mine([gi, go].flat()), 42 as never));
      track(y.sum()).backward();
    });
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toBe("expected an Array, but hook '<anonymous>' returned number");
  });

  it('a pre hook that changes a size is refused', () => {
    // y.grad_fn.register_prehook(lambda go: (torch.ones(5),)) -> hook '<lambda>' has changed the size of value
    const err = refused((track) => {
      const x = leaf(track);
      const y = track(x.mul(2));
      y.gradFn!.registerPrehook((go) => (mine(go), [mine(torch.ones([5]))]));
      track(y.sum()).backward();
    });
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe("hook '<anonymous>' has changed the size of value (was [3] got [5])");
  });
});

function fn(name: string, backward: (ctx: Ctx, g: Tensor | null) => unknown) {
  const cls = class extends torch.autograd.Function {
    static override forward(_ctx: Ctx, x: Tensor): Tensor {
      return x.mul(2);
    }

    static override backward(ctx: Ctx, g: Tensor | null): Tensor {
      return mine(backward(ctx, mine(g))) as Tensor;
    }
  };
  Object.defineProperty(cls, 'name', { value: name });
  return cls;
}

describe('custom Functions', () => {
  it('a gradient whose shape is not compatible with the input is refused', () => {
    // backward returns torch.ones(7) for a [3] input
    // -> Function F7Backward returned an invalid gradient at index 0 - got [7] but expected shape compatible with [3]
    const F7 = fn('F7', () => torch.ones([7]));
    let x: Tensor | null = null;
    const err = refused((track) => {
      x = leaf(track);
      track(track(F7.apply<Tensor>(x)).sum()).backward();
      expect(x.grad).toBeNull();
    });
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe('Function F7Backward returned an invalid gradient at index 0 - got [7] but expected shape compatible with [3]');
    // [1] is not compatible with [3] either: the input must expand to the gradient, not the reverse
    const F1 = fn('F1', () => torch.ones([1]));
    const err1 = refused((track) => track(track(F1.apply<Tensor>(leaf(track))).sum()).backward());
    expect(err1.message).toBe('Function F1Backward returned an invalid gradient at index 0 - got [1] but expected shape compatible with [3]');
  });

  it('a gradient the input broadcasts to is summed to the input shape (at::sum_to)', () => {
    const FB = fn('FB', () => torch.ones([2, 3]));
    const x = torch.ones([3], { requiresGrad: true });
    FB.apply<Tensor>(x).sum().backward();
    expect(x.grad!.shape).toEqual([3]);
    expect(x.grad!.tolist()).toEqual([2, 2, 2]);
    x.dispose();
  });

  it('a gradient of another dtype is cast to the input dtype', () => {
    for (const dtype of ['float64', 'int64'] as const) {
      const F = fn('FD', (_ctx, g) => g!.to(dtype).mul(2));
      const x = torch.ones([3], { requiresGrad: true });
      F.apply<Tensor>(x).sum().backward();
      expect(x.grad!.dtype).toBe('float32');
      expect(x.grad!.tolist()).toEqual([2, 2, 2]);
      x.dispose();
    }
  });

  it('backward returning something other than a Tensor or null is refused', () => {
    // -> RuntimeError: expected Variable or None (got int)
    const F = fn('FortyTwo', () => 42);
    const err = refused((track) => track(track(F.apply<Tensor>(leaf(track))).sum()).backward());
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe('function FortyTwoBackward returned number at position 1: expected a Tensor or null');
  });

  it('backward must return one gradient per forward argument (trailing nulls aside)', () => {
    // -> function F2Backward returned an incorrect number of gradients (expected 1, got 2)
    const F2 = fn('F2', (_ctx, g) => [g!.mul(1), g!.mul(1)]);
    const err = refused((track) => track(track(F2.apply<Tensor>(leaf(track))).sum()).backward());
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe('function F2Backward returned an incorrect number of gradients (expected 1, got 2)');
    const Fn = fn('Fnull', (_ctx, g) => [g!.mul(1), null, undefined]);
    const x = torch.ones([3], { requiresGrad: true });
    Fn.apply<Tensor>(x).sum().backward();
    expect(x.grad!.tolist()).toEqual([1, 1, 1]);
    x.dispose();
  });

  it('a gradient for a non-tensor argument is refused', () => {
    class Scale extends torch.autograd.Function {
      static override forward(_ctx: Ctx, x: Tensor, k: number): Tensor {
        return x.mul(k);
      }

      static override backward(_ctx: Ctx, g: Tensor | null): (Tensor | null)[] {
        return mine([mine(g)!.mul(3), g!.mul(1)]);
      }
    }
    const err = refused((track) => track(track(Scale.apply<Tensor>(leaf(track), 3)).sum()).backward());
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe(
      'function ScaleBackward returned a gradient different than null at position 2, but the corresponding forward input was not a Tensor',
    );
  });
});

describe('gradients given to backward() and autograd.grad()', () => {
  it('a gradient whose shape is not the output shape is refused with PyTorch wording', () => {
    // (x*2).backward(torch.ones(2)) for x of shape [3]
    // -> Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a shape of torch.Size([3]).
    const err = refused((track) => {
      const x = leaf(track);
      track(x.mul(2)).backward(track(torch.ones([2])));
      expect(x.grad).toBeNull();
    });
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toBe('backward: Mismatch in shape: grad_output[0] has a shape of [2] and output[0] has a shape of [3].');
    const err2 = refused((track) => {
      const x = leaf(track);
      const y = track(x.mul(2));
      torch.autograd.grad([track(x.sum()), y], [x], { gradOutputs: [null, track(torch.ones([4]))] });
    });
    expect(err2.message).toBe('grad: Mismatch in shape: grad_output[1] has a shape of [4] and output[1] has a shape of [3].');
  });

  it('a gradient of another dtype is cast to the output dtype', () => {
    const x = torch.ones([3], { requiresGrad: true });
    x.mul(2).backward(torch.tensor([1, 2, 3], { dtype: 'float64' }));
    expect(x.grad!.dtype).toBe('float32');
    expect(x.grad!.tolist()).toEqual([2, 4, 6]);
    const [g] = torch.autograd.grad(x.mul(2), x, { gradOutputs: torch.tensor([1, 1, 1]) });
    expect(g!.dtype).toBe('float32');
    expect(g!.tolist()).toEqual([2, 2, 2]);
    x.dispose();
    g!.dispose();
  });

  it('a gradient that is not a Tensor is a TypeError, even for a scalar output', () => {
    // Before, x.sum().backward(42) ignored the 42 and used ones.
    const err = refused((track) => {
      const x = leaf(track);
      track(x.sum()).backward(42 as never);
      expect(x.grad).toBeNull();
    });
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toBe('backward: gradients can be either Tensors or null, but got number');
    const err2 = refused((track) => {
      const x = leaf(track);
      torch.autograd.grad(track(x.sum()), x, { gradOutputs: ['1'] as never });
    });
    expect(err2).toBeInstanceOf(TypeError);
    expect(err2.message).toBe('grad: gradients can be either Tensors or null, but got string');
  });
});
