import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';

const { nn, optim } = torch;

describe('modules are callable (Note [Callable modules])', () => {
  it('lin(x) and model(x) run forward, with the hooks, as module.call(x) does', () => {
    torch.manualSeed(0);
    const lin = new nn.Linear(3, 2);
    const x = torch.randn([4, 3]);
    const y: torch.Tensor = lin(x);
    expect(y.tolist()).toEqual(lin.forward(x).tolist());
    const model = new nn.Sequential(lin, new nn.ReLU());
    const seen: string[] = [];
    lin.registerForwardHook(() => {
      seen.push('hook');
    });
    expect(model(x).tolist()).toEqual(lin.forward(x).relu().tolist());
    expect(seen).toEqual(['hook']);
  });

  it('keeps instanceof, forward as the override point, registration by assignment and the attribute names of functions', () => {
    class Net extends nn.Module {
      fc = new nn.Linear(2, 1);
      // A callable type has Function's members in TypeScript: these two override them.
      override name = 'net';
      override length = 3;
      override forward(x: torch.Tensor): torch.Tensor {
        return this.fc(x).mul(2);
      }
    }
    const net = new Net();
    expect(net).toBeInstanceOf(Net);
    expect(net).toBeInstanceOf(nn.Module);
    expect(typeof net).toBe('function');
    expect(net.name).toBe('net');
    expect(net.length).toBe(3);
    expect([...net.namedParameters()].map(([k]) => k)).toEqual(['fc.weight', 'fc.bias']);
    const x = torch.ones([1, 2]);
    const out: torch.Tensor = net(x);
    expect(out.tolist()).toEqual(net.fc.forward(x).mul(2).tolist());
    expect(String(net)).toContain('(fc): Linear(in_features=2, out_features=1, bias=True)');
    expect(new nn.Sequential(new nn.ReLU()).length).toBe(1);
  });

  it('a module without forward says so when called', () => {
    const m = new nn.Module();
    expect(() => m(torch.ones([1]))).toThrow('Module [Module] is missing the required "forward" function');
  });
});

describe('x.T, x.H, x.mH', () => {
  const x = torch.arange(24).view(2, 3, 4);
  it('T reverses the dims (a view), as numpy_T', () => {
    expect(x.T.shape).toEqual([4, 3, 2]);
    expect(x.T.stride()).toEqual([1, 4, 12]);
    const m = torch.tensor([[1, 2], [3, 4]]);
    expect(m.T.tolist()).toEqual([[1, 3], [2, 4]]);
    expect(torch.tensor(5).T.shape).toEqual([]);
  });
  it('H is the (conjugate) transpose of a matrix, and refuses batches', () => {
    const m = torch.tensor([[1, 2], [3, 4]]);
    expect(m.H.tolist()).toEqual([[1, 3], [2, 4]]);
    expect(torch.tensor(5).H.item()).toBe(5);
    expect(() => x.H).toThrow('H: tensor.H is only supported on matrices (2-D tensors). Got 3-D tensor.\nFor batches of matrices, consider using tensor.mH');
  });
  it('mH transposes the last two dims, as mT', () => {
    expect(x.mH.shape).toEqual([2, 4, 3]);
    expect(x.mH.tolist()).toEqual(x.mT.tolist());
    expect(() => torch.ones([3]).mH).toThrow('mH: tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor.');
  });
});

describe("optimizers bind their arguments as PyTorch's do", () => {
  const w = () => torch.ones([2], { requiresGrad: true });
  it('takes lr (and the rest) positionally', () => {
    expect(new optim.SGD([w()], 0.1).paramGroups[0].lr).toBe(0.1);
    const sgd = new (optim.SGD as unknown as new (...a: unknown[]) => torch.optim.SGD)([w()], 0.1, 0.9);
    expect(sgd.paramGroups[0].momentum).toBe(0.9);
    expect(new optim.Adam([w()], 0.01).paramGroups[0].lr).toBe(0.01);
    expect(new optim.AdamW([w()], 0.01, { betas: [0.8, 0.9] }).paramGroups[0]).toMatchObject({ lr: 0.01, betas: [0.8, 0.9], weightDecay: 0.01 });
    expect(new optim.Adagrad([w()], 0.5).paramGroups[0].lr).toBe(0.5);
    expect(new optim.RMSprop([w()], 0.5).paramGroups[0].lr).toBe(0.5);
    expect(new optim.SGD([w()]).paramGroups[0].lr).toBe(0.001);
  });
  it('a positional lr steps with that lr', () => {
    const p = w();
    const opt = new optim.SGD([p], 0.5);
    p.sum().backward();
    opt.step();
    expect(p.tolist()).toEqual([0.5, 0.5]);
  });
  it('refuses what it would otherwise ignore: unknown options, wrong types, too many positionals', () => {
    expect(() => new optim.SGD([w()], { lr: 0.1, momentun: 0.9 } as never)).toThrow(torch.TorchTypeError);
    expect(() => new optim.SGD([w()], { lr: 0.1, momentun: 0.9 } as never)).toThrow("SGD() got an unexpected keyword argument 'momentun'");
    expect(() => new optim.SGD([w()], '0.1' as never)).toThrow(torch.TorchTypeError);
    expect(() => new optim.Adam([w()], { lr: 0.1, differentiable: true } as never)).toThrow(torch.NotImplementedError);
    const Sgd = optim.SGD as unknown as new (...a: unknown[]) => unknown;
    expect(() => new Sgd([w()], 0.1, 0, 0, 0, false, true)).toThrow(torch.TorchTypeError);
  });
});
