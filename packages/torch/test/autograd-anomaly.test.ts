import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { thrown } from './helpers';
import type { Tensor } from '@torch-ts/torch';

/**
 * torch.autograd.detectAnomaly: a backward function that returns NaN is an error naming the
 * function and the output, as PyTorch's anomaly mode ("Function 'SqrtBackward0' returned nan
 * values in its 0th output."), with the stack of the forward call that created the node.
 * Messages checked against PyTorch 1.13.
 */

const THIS_FILE = 'autograd-anomaly.test.ts';


/** sqrt at 0 times 0: SqrtBackward0 computes 0 / (2 * sqrt(0)) = NaN for the first element. */
function sqrtTimesZero(): { x: Tensor; z: Tensor } {
  const x = torch.tensor([0.0, 4.0], { dtype: 'float32', requiresGrad: true });
  const y = x.sqrt();
  const z = y.mul(0);
  return { x, z };
}

describe('detectAnomaly', () => {
  it("names the function that returned NaN and its output, like PyTorch's anomaly mode", () => {
    // with detect_anomaly(): x = [0., 4.]; (x.sqrt() * 0).sum().backward()
    // -> "Function 'SqrtBackward0' returned nan values in its 0th output."
    let x: Tensor | null = null;
    const err = thrown(() =>
      torch.autograd.detectAnomaly(() => {
        const r = sqrtTimesZero();
        x = r.x;
        r.z.sum().backward();
      }),
    );
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toContain("Function 'SqrtBackward0' returned nan values in its 0th output.");
    // the error stops the backward before the leaf accumulates anything, as in PyTorch
    expect(x!.grad).toBeNull();
  });

  it('includes the forward stack, which points at the line of this test that made the node', () => {
    const err = thrown(() =>
      torch.autograd.detectAnomaly(() => {
        sqrtTimesZero().z.sum().backward();
      }),
    );
    expect(err.message).toContain('Traceback of forward call that caused the error');
    const trace = err.message.slice(err.message.indexOf('Traceback'));
    expect(trace).toContain(THIS_FILE);
    expect(trace).toContain('sqrtTimesZero');
  });

  it('the index of the offending output (MulBackward0\'s 1th output)', () => {
    // a = [inf, 1], b = [1, 2]: z = a*b; (z*0).sum().backward(): grad_b = 0 * inf = NaN
    // -> "Function 'MulBackward0' returned nan values in its 1th output."
    const err = thrown(() =>
      torch.autograd.detectAnomaly(() => {
        const a = torch.tensor([Infinity, 1.0], { dtype: 'float32', requiresGrad: true });
        const b = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
        a.mul(b).mul(0).sum().backward();
      }),
    );
    expect(err).toBeInstanceOf(torch.AutogradError);
    expect(err.message).toContain("Function 'MulBackward0' returned nan values in its 1th output.");
  });

  it('a custom Function\'s backward returning NaN', () => {
    // -> "Function 'BadBackward' returned nan values in its 0th output."
    class Bad extends torch.autograd.Function {
      static override forward(_ctx: unknown, x: Tensor): Tensor {
        return x.mul(2);
      }

      static override backward(_ctx: unknown, g: Tensor | null): Tensor {
        return g!.mul(NaN);
      }
    }
    const err = thrown(() =>
      torch.autograd.detectAnomaly(() => {
        const x = torch.tensor([1.0], { dtype: 'float32', requiresGrad: true });
        Bad.apply<Tensor>(x).sum().backward();
      }),
    );
    expect(err.message).toContain("Function 'BadBackward' returned nan values in its 0th output.");
  });

  it('a graph built outside detectAnomaly is still checked when backward runs inside it', () => {
    // PyTorch raises the same error (and has no forward trace to show)
    const { z } = sqrtTimesZero();
    const s = z.sum();
    const err = thrown(() => torch.autograd.detectAnomaly(() => s.backward()));
    expect(err.message).toContain("Function 'SqrtBackward0' returned nan values in its 0th output.");
    expect(err.message).not.toContain(THIS_FILE);
  });

  it('without detectAnomaly there is no error, and the NaN reaches .grad as in PyTorch', () => {
    // x.grad == [nan, 0.]
    const { x, z } = sqrtTimesZero();
    z.sum().backward();
    const g = x.grad!.tolist() as number[];
    expect(Number.isNaN(g[0])).toBe(true);
    expect(g[1]).toBe(0);
  });

  it('a finite backward inside detectAnomaly runs normally, and fn\'s result is returned', () => {
    const x = torch.tensor([1.0, 4.0], { dtype: 'float32', requiresGrad: true });
    const r = torch.autograd.detectAnomaly(() => {
      x.sqrt().sum().backward();
      return 42;
    });
    expect(r).toBe(42);
    expect(x.grad!.tolist()).toEqual([0.5, 0.25]);
  });

  it('the mode ends with fn, also when fn throws', () => {
    expect(() =>
      torch.autograd.detectAnomaly(() => {
        throw new Error('inside');
      }),
    ).toThrow('inside');
    // after it: NaN gradients pass silently again
    const { x, z } = sqrtTimesZero();
    z.sum().backward();
    expect(Number.isNaN((x.grad!.tolist() as number[])[0])).toBe(true);
  });

  it('the `using` guard form', () => {
    const run = () => {
      using _anomaly = torch.autograd.detectAnomaly();
      sqrtTimesZero().z.sum().backward();
    };
    expect(run).toThrow("Function 'SqrtBackward0' returned nan values in its 0th output.");
    // the guard was disposed: no error now
    const { z } = sqrtTimesZero();
    expect(() => z.sum().backward()).not.toThrow();
  });

  it('an anomaly error leaks nothing', () => {
    const start = torch.memory.stats('cpu').liveTensors;
    const made: Tensor[] = [];
    try {
      torch.autograd.detectAnomaly(() => {
        const x = torch.tensor([0.0, 4.0], { dtype: 'float32', requiresGrad: true });
        const y = x.sqrt();
        const z = y.mul(0);
        const s = z.sum();
        made.push(x, y, z, s);
        s.backward();
      });
    } catch {
      // expected
    }
    for (const t of made) t.dispose();
    expect(torch.memory.stats('cpu').liveTensors).toBe(start);
  });
});
