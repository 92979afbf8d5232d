/**
 * gradcheck on the real CPU kernels: gradcheck / gradgradcheck themselves (Note [gradcheck]
 * in @torch-ts/autograd), then every differentiable op of the OpInfo table on float64
 * samples built from its golden cases (Note [OpInfo gradcheck]).
 */
import * as torch from '@torch-ts/torch';
import { AutogradError, type DType, type Tensor } from '@torch-ts/torch';
import { Function, type FunctionCtx } from '@torch-ts/autograd';
import { describe, expect, it } from 'vitest';
import { loadOpGoldens } from '../src/goldens';
import { OP_TABLE } from '../src/op-info';
import { GRADCHECK_DOMAINS, GRADCHECK_EXCLUDED, gradcheckSamples } from '../src/op-info/gradcheck';

const { gradcheck, gradgradcheck } = torch.autograd;
const leaf = (data: number[] | number[][], dtype: DType = 'float64') => torch.tensor(data, { dtype, requiresGrad: true });

/** sin whose backward says sin(x) where it should say cos(x). */
class WrongSin extends Function {
  static override forward(ctx: FunctionCtx, x: Tensor): Tensor {
    ctx.saveForBackward(x);
    return torch.sin(x);
  }
  static override backward(ctx: FunctionCtx, g: Tensor): Tensor {
    const [x] = ctx.savedTensors;
    return torch.mul(g, torch.sin(x));
  }
}

/** x^2 with the right first derivative, computed out of the graph: its second derivative is lost. */
class OpaqueSquare extends Function {
  static override forward(ctx: FunctionCtx, x: Tensor): Tensor {
    ctx.saveForBackward(x);
    return torch.mul(x, x);
  }
  static override backward(ctx: FunctionCtx, g: Tensor): Tensor {
    const [x] = ctx.savedTensors;
    return torch.mul(g, torch.noGrad(() => torch.mul(x, 2)));
  }
}

describe('gradcheck', () => {
  it('accepts correct derivatives of several inputs and outputs', async () => {
    const a = leaf([[0.5, -1.2], [2, 0.3]]);
    const b = leaf([1.5, -0.7]);
    expect(await gradcheck((x, y) => [torch.mul(torch.sin(x), y), torch.sum(torch.exp(x))], [a, b])).toBe(true);
  });

  it('leaves inputs that do not require grad alone', async () => {
    const k = torch.tensor([2, 3], { dtype: 'float64' });
    expect(await gradcheck((x, y) => torch.mul(x, y), [leaf([0.5, -1.2]), k])).toBe(true);
  });

  it('skips integer outputs (the indices of max)', async () => {
    expect(await gradcheck((x) => torch.max(x, 1), [leaf([[0.5, -1.2, 3], [2, 0.3, -1]])])).toBe(true);
  });

  it('accepts a function that returns its input, and leaves the input alive', async () => {
    const a = leaf([0.5, -1.2]);
    expect(await gradcheck((x) => x, [a])).toBe(true);
    expect(a.isDisposed).toBe(false);
  });

  it('keeps the layout of a non-contiguous input when it perturbs it', async () => {
    const t = torch.tensor([[0.5, -1.2, 3], [2, 0.3, -1]], { dtype: 'float64' }).t().detach().requiresGrad_(true);
    const layouts: boolean[] = [];
    const fn = (x: Tensor) => {
      layouts.push(x.isContiguous());
      return torch.sin(x);
    };
    expect(await gradcheck(fn, [t])).toBe(true);
    expect(layouts.length).toBeGreaterThan(1);
    expect(layouts.every((contiguous) => !contiguous)).toBe(true);
  });

  it("catches a wrong derivative, with PyTorch's message", async () => {
    const a = leaf([0.5, -1.2, 2]);
    await expect(gradcheck((x) => WrongSin.apply(x), [a])).rejects.toThrow(AutogradError);
    await expect(gradcheck((x) => WrongSin.apply(x), [a])).rejects.toThrow(
      /Jacobian mismatch for output 0 with respect to input 0,\nmax difference/,
    );
  });

  it('names the input that mismatches', async () => {
    const k = leaf([1, 2, 3]);
    const a = leaf([0.5, -1.2, 2]);
    await expect(gradcheck((y, x) => torch.add(y, WrongSin.apply<Tensor>(x)), [k, a])).rejects.toThrow(
      /Jacobian mismatch for output 0 with respect to input 1/,
    );
  });

  it('returns false instead of throwing when raiseException is false', async () => {
    expect(await gradcheck((x) => WrongSin.apply(x), [leaf([0.5, -1.2, 2])], { raiseException: false })).toBe(false);
  });

  it('catches an output computed outside the graph (its numerical gradient is not zero)', async () => {
    const fn = (x: Tensor) => torch.mul(torch.tensor(x.dataSync() as Float64Array), 2);
    expect(await gradcheck(fn, [leaf([0.5, -1.2])], { raiseException: false })).toBe(false);
  });

  it('refuses inputs that require grad in a dtype other than float64', async () => {
    await expect(gradcheck((x) => torch.sin(x), [leaf([0.5, -1.2], 'float32')])).rejects.toThrow(
      /input 0 requires grad and has dtype float32; gradcheck needs float64/,
    );
  });

  it('refuses a call where no input requires grad', async () => {
    const a = torch.tensor([0.5, -1.2], { dtype: 'float64' });
    await expect(gradcheck((x) => torch.sin(x), [a])).rejects.toThrow(/at least one input tensor to require gradient/);
  });

  it('refuses inputs whose elements overlap in memory', async () => {
    const a = torch.tensor([0.5], { dtype: 'float64' }).expand(3).detach().requiresGrad_(true);
    await expect(gradcheck((x) => torch.sin(x), [a])).rejects.toThrow(/share memory/);
  });
});

describe('gradcheck fastMode (random projections vᵀ J u, as PyTorch fast_mode)', () => {
  it('accepts correct derivatives of several inputs and outputs, strided inputs included', async () => {
    const a = leaf([[0.5, -1.2], [2, 0.3]]);
    const b = leaf([1.5, -0.7]);
    const fn = (x: Tensor, y: Tensor) => [torch.mul(torch.sin(x), y), torch.sum(torch.exp(x))];
    expect(await gradcheck(fn, [a, b], { fastMode: true })).toBe(true);
    const t = torch.tensor([[0.5, -1.2, 3], [2, 0.3, -1]], { dtype: 'float64' }).t().detach().requiresGrad_(true);
    expect(await gradcheck((x) => torch.tanh(torch.mm(x, x.t())), [t], { fastMode: true })).toBe(true);
  });

  it('catches a wrong derivative for every seed tried, and says how to see the entries', async () => {
    const a = leaf([0.5, -1.2, 2, 0.1]);
    for (let seed = 0; seed < 5; seed++) {
      expect(await gradcheck((x) => WrongSin.apply(x), [a], { fastMode: true, seed, raiseException: false })).toBe(false);
    }
    await expect(gradcheck((x) => WrongSin.apply(x), [a], { fastMode: true })).rejects.toThrow(
      /Jacobian mismatch for output 0 with respect to input 0,\nnumerical vᵀJu .*analytical vᵀJu .*fastMode: false/s,
    );
  });

  it('catches a wrong entry in one corner of a larger Jacobian', async () => {
    // the derivative is wrong only for element 0 (factor 2 off)
    class WrongFirst extends Function {
      static override forward(ctx: FunctionCtx, x: Tensor): Tensor {
        ctx.saveForBackward(x);
        return torch.mul(x, x);
      }
      static override backward(ctx: FunctionCtx, g: Tensor): Tensor {
        const [x] = ctx.savedTensors;
        const scale = torch.tensor(Array.from({ length: x.numel() }, (_, i) => (i === 0 ? 2 : 1)), { dtype: 'float64' });
        return torch.mul(torch.mul(g, torch.mul(x, 2)), scale.reshape([...x.shape]));
      }
    }
    const x = leaf([[0.9, -1.2, 2, 0.7], [1.1, -0.4, 0.8, 1.5], [-0.6, 1.3, 0.5, -2]]);
    expect(await gradcheck((y) => WrongFirst.apply(y), [x], { fastMode: true, raiseException: false })).toBe(false);
  });

  it('gradgradcheck in fast mode catches a lost second derivative', async () => {
    const a = leaf([0.5, -1.2, 2]);
    expect(await gradgradcheck((x) => torch.mul(torch.sin(x), x), [a], { fastMode: true })).toBe(true);
    expect(await gradgradcheck((x) => OpaqueSquare.apply(x), [a], { fastMode: true, raiseException: false })).toBe(false);
  });
});

describe('gradgradcheck', () => {
  it('accepts correct second derivatives', async () => {
    const a = leaf([[0.5, -1.2], [2, 0.3]]);
    const b = leaf([[1.5, -0.7], [0.2, 1.1]]);
    expect(await gradgradcheck((x, y) => torch.tanh(torch.mm(x, y)), [a, b])).toBe(true);
  });

  it('accepts given grad_outputs', async () => {
    const go = leaf([1, -2, 0.5]);
    expect(await gradgradcheck((x) => torch.mul(torch.sin(x), x), [leaf([0.5, -1.2, 2])], { gradOutputs: [go] })).toBe(true);
  });

  it('catches a first derivative that is right but not differentiable', async () => {
    const a = leaf([0.5, -1.2, 2]);
    expect(await gradcheck((x) => OpaqueSquare.apply(x), [a])).toBe(true);
    expect(await gradgradcheck((x) => OpaqueSquare.apply(x), [a], { raiseException: false })).toBe(false);
    await expect(gradgradcheck((x) => OpaqueSquare.apply(x), [a])).rejects.toThrow(/Jacobian mismatch for output 0 with respect to input 0/);
  });
});

const goldens = loadOpGoldens();
const samples = gradcheckSamples(OP_TABLE, goldens);
/** Whole Jacobians for every sample and order (Note [OpInfo gradcheck]: which checks are fast). */
const SLOW_GRADCHECK = process.env.TORCH_TS_SLOW_GRADCHECK === '1';

describe('OpInfo gradcheck (float64, and complex128 through real leaves, CPU)', () => {
  it('covers every op of the table that is not excluded with a reason', () => {
    const covered = new Set(samples.map((s) => s.op.name));
    const missing = OP_TABLE.filter((op) => !(op.name in GRADCHECK_EXCLUDED) && !covered.has(op.name)).map((op) => op.name);
    expect(missing).toEqual([]);
  });

  it('excludes and sets domains only for ops of the table', () => {
    const names = new Set(OP_TABLE.map((op) => op.name));
    expect([...Object.keys(GRADCHECK_EXCLUDED), ...Object.keys(GRADCHECK_DOMAINS)].filter((n) => !names.has(n))).toEqual([]);
  });

  for (const s of samples) {
    it(`${s.op.name} ${s.caseId} (${s.form}, ${s.layout})`, async () => {
      const { inputs, fn } = s.make();
      const whole = SLOW_GRADCHECK || (s.form === 'function' && s.layout === 'contiguous');
      expect(await gradcheck(fn, inputs, { fastMode: !whole })).toBe(true);
    });
  }
});

// (complex128 samples: first derivatives only, to keep the suite's time; their double
// backward is the real ops' on the parts, checked here through the float64 samples)
describe('OpInfo gradgradcheck (float64, CPU)', () => {
  for (const s of samples.filter((x) => x.form === 'function' && x.layout === 'contiguous' && !x.complex)) {
    it(`${s.op.name} ${s.caseId}`, async () => {
      const { inputs, fn } = s.make();
      expect(await gradgradcheck(fn, inputs, { fastMode: !SLOW_GRADCHECK })).toBe(true);
    });
  }
});
