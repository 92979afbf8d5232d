import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

/**
 * Autograd's errors, where PyTorch raises them and with PyTorch's wording (messages from
 * PyTorch 1.13). Each scenario tracks every handle it creates and disposes them after the
 * error; the live tensor count and live bytes must then be back where they started, so a
 * failed backward (or a refused op) leaks nothing.
 */

function counters() {
  const s = torch.memory.stats('cpu');
  return { liveTensors: s.liveTensors, liveBytes: s.liveBytes, liveStorages: s.liveStorages };
}

/**
 * Runs `scenario(track)`; `track` registers a handle for disposal. The scenario must throw
 * an AutogradError matching every pattern. Afterwards every tracked handle is disposed and
 * the counters must equal the starting ones.
 */
function expectAutogradError(
  scenario: (track: <T extends Tensor>(t: T) => T) => void,
  patterns: (string | RegExp)[],
  { checkLeaks = true }: { checkLeaks?: boolean } = {},
): Error {
  const start = counters();
  const made: Tensor[] = [];
  const track = <T extends Tensor>(t: T): T => {
    made.push(t);
    return t;
  };
  let err: unknown = null;
  try {
    scenario(track);
  } catch (e) {
    err = e;
  }
  for (const t of made) t.dispose();
  expect(err, 'expected an error').not.toBeNull();
  expect(err).toBeInstanceOf(torch.AutogradError);
  expect(err).toBeInstanceOf(torch.TorchError);
  const message = (err as Error).message;
  for (const p of patterns) {
    if (typeof p === 'string') expect(message).toContain(p);
    else expect(message).toMatch(p);
  }
  if (checkLeaks) expect(counters()).toEqual(start);
  return err as Error;
}

/** The counters' change over `scenario` once every tracked handle is disposed (an error is expected and swallowed). */
function leakedBy(scenario: (track: <T extends Tensor>(t: T) => T) => void): { liveTensors: number; liveBytes: number } {
  const start = counters();
  const made: Tensor[] = [];
  let threw = false;
  try {
    scenario((t) => {
      made.push(t);
      return t;
    });
  } catch {
    threw = true;
  }
  for (const t of made) t.dispose();
  expect(threw).toBe(true);
  const end = counters();
  return { liveTensors: end.liveTensors - start.liveTensors, liveBytes: end.liveBytes - start.liveBytes };
}

const NO_LEAK = { liveTensors: 0, liveBytes: 0 };

function f32(track: <T extends Tensor>(t: T) => T, data: number[] | number[][], requiresGrad = true): Tensor {
  return track(torch.tensor(data, { dtype: 'float32', requiresGrad }));
}

describe('backward through a freed graph', () => {
  it('a second backward without retainGraph', () => {
    // y = x.exp().sum(); y.backward(); y.backward()
    expectAutogradError(
      (track) => {
        const x = f32(track, [0.5, 1.5]);
        const e = track(x.exp());
        const y = track(e.sum());
        y.backward();
        const g = track(x.grad!);
        expect(g.tolist()).toEqual([Math.fround(Math.exp(0.5)), Math.fround(Math.exp(1.5))]);
        y.backward();
      },
      [
        'Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed).',
        'Saved intermediate values of the graph are freed when you call .backward() or autograd.grad().',
      ],
      { checkLeaks: false }, // leaks: see 'no leaks after errors'
    );
  });

  it('autograd.grad after a backward freed the graph', () => {
    expectAutogradError(
      (track) => {
        const x = f32(track, [0.5, 1.5]);
        const e = track(x.mul(x));
        const y = track(e.sum());
        torch.autograd.grad(y, x).forEach((g) => g && track(g));
        torch.autograd.grad(y, x);
      },
      ['Trying to backward through the graph a second time'],
      { checkLeaks: false }, // leaks: see 'no leaks after errors'
    );
  });
});

describe('in-place change of a saved tensor (version counter)', () => {
  it('an output saved by its node (exp), modified in place', () => {
    // y = x.exp(); y.add_(1); y.sum().backward()
    // PyTorch: "...modified by an inplace operation: [torch.FloatTensor [2]], which is output 0 of
    // ExpBackward0, is at version 1; expected version 0 instead."
    expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        const y = track(x.exp());
        y.add_(1);
        expect(y.version).toBe(1);
        track(y.sum()).backward();
      },
      [
        'one of the variables needed for gradient computation has been modified by an inplace operation',
        'which is output 0 of ExpBackward0',
        'is at version 1; expected version 0 instead',
      ],
      { checkLeaks: false }, // leaks: see 'no leaks after errors'
    );
  });

  it('an input saved by sin, modified twice in place', () => {
    // a = x.clone(); s = a.sin(); a.add_(1); a.mul_(2); s.sum().backward() -> "is at version 2; expected version 0"
    const err = expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        const a = track(x.clone());
        const s = track(a.sin());
        a.add_(1);
        a.mul_(2);
        track(s.sum()).backward();
      },
      ['modified by an inplace operation', 'is at version 2; expected version 0 instead'],
      { checkLeaks: false }, // leaks: see 'no leaks after errors'
    );
    expect(err.message).toContain('SinBackward0');
  });

  it('an mm operand modified in place', () => {
    // w = m.clone(); p = w.mm(w); w.mul_(3); p.sum().backward() -> "[2, 2]] ... is at version 1; expected version 0"
    expectAutogradError(
      (track) => {
        const m = f32(track, [
          [1.0, 2.0],
          [3.0, 4.0],
        ]);
        const w = track(m.clone());
        const p = track(w.mm(w));
        w.mul_(3);
        track(p.sum()).backward();
      },
      ['modified by an inplace operation', '[2, 2]]', 'is at version 1; expected version 0 instead'],
      { checkLeaks: false }, // leaks: see 'no leaks after errors'
    );
  });

  it('a change through a view of the saved tensor counts too (one version per storage)', () => {
    expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        const y = track(x.exp());
        torch.noGrad(() => track(y.detach()).mul_(2));
        track(y.sum()).backward();
      },
      ['modified by an inplace operation', 'is at version 1; expected version 0 instead'],
      { checkLeaks: false }, // leaks: see 'no leaks after errors'
    );
  });

  it('an in-place change of a tensor nobody saved is fine', () => {
    // z = x*2 + 1 (AddBackward0 saves nothing); z.add_(1); z.sum().backward() -> x.grad [2, 2]
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    const y = x.mul(2);
    const z = y.add(1);
    z.add_(1);
    z.sum().backward();
    const g = x.grad!;
    expect(g.tolist()).toEqual([2, 2]);
  });

  // y = x*2; s = y.sum(); y.add_(1); s.backward() -> x.grad == [2, 2] (a sum saves only sizes)
  it('an in-place change of a tensor that was only summed does not break backward', () => {
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    const y = x.mul(2);
    const s = y.sum();
    y.add_(1);
    s.backward();
    const g = x.grad!;
    expect(g.tolist()).toEqual([2, 2]);
  });
});

describe('in-place ops that PyTorch refuses', () => {
  it('on a leaf that requires grad', () => {
    // x.add_(1) -> "a leaf Variable that requires grad is being used in an in-place operation."
    expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        try {
          x.add_(1);
        } finally {
          expect(x.tolist()).toEqual([1, 2]);
          expect(x.version).toBe(0);
        }
      },
      ['a leaf Variable that requires grad is being used in an in-place operation.'],
    );
  });

  it('on a view of a leaf that requires grad (view, index)', () => {
    // x.view(2).add_(1), x[0].mul_(2) -> "a view of a leaf Variable that requires grad is being used in an in-place operation."
    expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        track(x.view(2)).add_(1);
      },
      ['a view of a leaf Variable that requires grad is being used in an in-place operation.'],
    );
    expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        try {
          track(x.index(0)).mul_(2);
        } finally {
          expect(x.tolist()).toEqual([1, 2]);
        }
      },
      ['a view of a leaf Variable that requires grad is being used in an in-place operation.'],
    );
  });

  it('the same op under noGrad is allowed', () => {
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    torch.noGrad(() => x.index(0).mul_(2));
    expect(x.tolist()).toEqual([2, 2]);
  });

  it('an in-place op on a view of a non-leaf is recorded (PyTorch: CopySlices)', () => {
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    const y = x.mul(2);
    y.index(0).mul_(2);
    expect(y.tolist()).toEqual([4, 4]);
    y.sum().backward();
    const g = x.grad!;
    expect(g.tolist()).toEqual([4, 2]);
  });
});

describe('requiresGrad on an integer tensor', () => {
  it('requiresGrad_() and the factory option', () => {
    expectAutogradError(
      (track) => {
        track(torch.tensor([1, 2])).requiresGrad_();
      },
      ['only Tensors of floating point dtype can require gradients'],
    );
    expectAutogradError(
      () => {
        torch.tensor([1, 2], { requiresGrad: true });
      },
      ['only Tensors of floating point dtype can require gradients'],
      { checkLeaks: false }, // leaks: see 'no leaks after errors'
    );
    expectAutogradError(
      () => {
        torch.zeros([2], { dtype: 'int32', requiresGrad: true });
      },
      ['only Tensors of floating point dtype can require gradients'],
      { checkLeaks: false }, // leaks: see 'no leaks after errors'
    );
  });
});

describe('backward() misuse', () => {
  it('a non-scalar output without a gradient', () => {
    // x.exp().backward() -> "grad can be implicitly created only for scalar outputs"
    expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        track(x.exp()).backward();
      },
      ['grad can be implicitly created only for scalar outputs'],
    );
  });

  it('a gradient whose shape is not the output\'s', () => {
    // y.backward(torch.ones(3)) for y of shape [2]:
    // "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a shape of torch.Size([2])."
    expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        track(x.exp()).backward(track(torch.ones([3], { dtype: 'float32' })));
      },
      ['Mismatch in shape: grad_output[0] has a shape of', 'and output[0] has a shape of'],
    );
  });

  it('a tensor that does not require grad', () => {
    // torch.tensor([1., 2.]).sum().backward() -> "element 0 of tensors does not require grad and does not have a grad_fn"
    expectAutogradError(
      (track) => {
        const c = f32(track, [1.0, 2.0], false);
        track(c.sum()).backward();
      },
      ['element 0 of tensors does not require grad and does not have a grad_fn'],
    );
  });

  it('a result computed under noGrad', () => {
    expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        track(torch.noGrad(() => track(x.mul(2)).sum())).backward();
      },
      ['element 0 of tensors does not require grad and does not have a grad_fn'],
    );
  });
});

describe('out= with an input that requires grad', () => {
  it('pointwise, unary, matmul and reduction forms', () => {
    // "add(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad."
    const tail = "functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.";
    expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        const out = track(torch.empty([2], { dtype: 'float32' }));
        torch.add(x, 1, { out });
      },
      [`add(): ${tail}`],
    );
    expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        const c = f32(track, [1.0, 2.0], false);
        torch.add(c, x, { out: track(torch.empty([2], { dtype: 'float32' })) });
      },
      [`add(): ${tail}`],
    );
    expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        torch.exp(x, { out: track(torch.empty([2], { dtype: 'float32' })) });
      },
      [`exp(): ${tail}`],
    );
    expectAutogradError(
      (track) => {
        const x = f32(track, [[1.0, 2.0]]);
        const y = f32(track, [[1.0], [2.0]]);
        torch.mm(x, y, { out: track(torch.empty([1, 1], { dtype: 'float32' })) });
      },
      [`mm(): ${tail}`],
    );
    expectAutogradError(
      (track) => {
        const x = f32(track, [1.0, 2.0]);
        torch.sum(x, 0, { out: track(torch.empty([], { dtype: 'float32' })) });
      },
      [`sum(): ${tail}`],
    );
  });

  it('out= without grad works', () => {
    const c = torch.tensor([1.0, 2.0], { dtype: 'float32' });
    const out = torch.empty([2], { dtype: 'float32' });
    torch.add(c, 1, { out });
    expect(out.tolist()).toEqual([2, 3]);
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    torch.noGrad(() => torch.add(x, 1, { out }));
    expect(out.tolist()).toEqual([2, 3]);
  });
});

describe('after an error, autograd still works', () => {
  it('a fresh graph on the same leaf backwards normally after each kind of failure', () => {
    const x = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    expect(() => x.add_(1)).toThrow(torch.AutogradError);
    expect(() => x.exp().backward()).toThrow(torch.AutogradError);
    const y = x.exp();
    y.add_(1);
    expect(() => y.sum().backward()).toThrow(torch.AutogradError);
    expect(x.grad).toBeNull();
    expect(torch.isGradEnabled()).toBe(true);
    x.mul(x).sum().backward();
    const g = x.grad!;
    expect(g.tolist()).toEqual([2, 4]);
  });
});

describe('no leaks after errors', () => {
  it('errors raised before the engine runs leak nothing', () => {
    expect(
      leakedBy((track) => {
        const x = track(torch.tensor([1.0, 2.5], { dtype: 'float32', requiresGrad: true }));
        const y = track(x.exp());
        y.backward();
      }),
    ).toEqual(NO_LEAK);
    expect(
      leakedBy((track) => {
        const x = track(torch.tensor([1.0, 2.5], { dtype: 'float32', requiresGrad: true }));
        x.add_(1);
      }),
    ).toEqual(NO_LEAK);
    expect(
      leakedBy((track) => {
        const x = track(torch.tensor([1.0, 2.5], { dtype: 'float32', requiresGrad: true }));
        torch.add(x, 1, { out: track(torch.empty([2], { dtype: 'float32' })) });
      }),
    ).toEqual(NO_LEAK);
  });

  // a node's backward that throws (SavedVariable.unpack) must release the gradients it was given
  it('a second backward through a freed graph leaks nothing', () => {
    const leaked = leakedBy((track) => {
      const x = track(torch.tensor([0.5, 1.5], { dtype: 'float32', requiresGrad: true }));
      const e = track(x.exp());
      const y = track(e.sum());
      y.backward();
      track(x.grad!);
      y.backward();
    });
    expect(leaked).toEqual(NO_LEAK);
  });

  it('an in-place change of a saved tensor found by backward leaks nothing', () => {
    const leaked = leakedBy((track) => {
      const x = track(torch.tensor([1.0, 2.5], { dtype: 'float32', requiresGrad: true }));
      const y = track(x.exp());
      y.add_(1);
      track(y.sum()).backward();
    });
    expect(leaked).toEqual(NO_LEAK);
  });

  it('a failed backward(gradient) releases the gradient', () => {
    const leaked = leakedBy((track) => {
      const x = track(torch.tensor([1.0, 2.5], { dtype: 'float32', requiresGrad: true }));
      const y = track(x.exp());
      y.add_(1);
      y.backward(track(torch.ones([2], { dtype: 'float32' })));
    });
    expect(leaked).toEqual(NO_LEAK);
  });

  it('a custom Function whose backward throws leaks nothing', () => {
    class Boom extends torch.autograd.Function {
      static override forward(_ctx: unknown, x: Tensor): Tensor {
        return x.mul(2);
      }

      // the gradient handed to backward is the user's (autograd Note [User code in backward])
      static override backward(_ctx: unknown, g: Tensor): Tensor {
        g.dispose();
        throw new Error('boom');
      }
    }
    const leaked = leakedBy((track) => {
      const x = track(torch.tensor([1.0, 2.5], { dtype: 'float32', requiresGrad: true }));
      const y = track(Boom.apply<Tensor>(x));
      y.backward(track(torch.ones([2], { dtype: 'float32' })));
    });
    expect(leaked).toEqual(NO_LEAK);
  });

  // torch.tensor([1, 2], { requiresGrad: true }) refuses after creating the tensor: it must be freed
  it('a factory refusing requiresGrad on an integer dtype leaks nothing', () => {
    expect(leakedBy(() => torch.tensor([1, 2], { requiresGrad: true }))).toEqual(NO_LEAK);
    expect(leakedBy(() => torch.zeros([2], { dtype: 'int32', requiresGrad: true }))).toEqual(NO_LEAK);
  });
});
