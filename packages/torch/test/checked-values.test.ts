// Values the types used to assume and the code now checks (issue 15): what reaches nn,
// optim, data and the WebGPU facade from callers, loaded state or another package is tested
// at run time, and a wrong value raises a TorchError naming it.
import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { deviceRuntime, registerDeviceRuntime } from '@torch-ts/core';
import { thrown } from './helpers';

const { nn, optim } = torch;
const { defaultCollate } = torch.utils.data;

describe('nn containers and modules', () => {
  it('Sequential refuses a non-module among several arguments, as registerModule does', () => {
    const e = thrown(() => Reflect.construct(nn.Sequential, [new nn.ReLU(), new Map()]));
    expect(e).toBeInstanceOf(torch.TorchError);
    expect(e.message).toBe('registerModule: Map is not a Module subclass');
  });

  it('an empty slot (a module set to null) is not returned as a module', () => {
    const seq = new nn.Sequential(new nn.ReLU(), new nn.Tanh());
    seq.registerModule('0', null);
    expect(thrown(() => seq.get(0)).message).toBe('Sequential: the module at index 0 is None');
    expect(seq.get(1)).toBeInstanceOf(nn.Tanh);
    expect([...seq].length).toBe(1);
    const list = new nn.ModuleList([new nn.ReLU(), new nn.Tanh()]);
    list.registerModule('1', null);
    expect(thrown(() => list.get(-1)).message).toBe('ModuleList: the module at index -1 is None');
    expect([...list].map((m) => m.constructor.name)).toEqual(['ReLU']);
  });

  it('Module.to takes a { type, index } device as the device it is', () => {
    const lin = new nn.Linear(2, 3);
    expect(lin.to({ type: 'meta' }).weight.device.type).toBe('meta');
    expect(lin.to({ dtype: 'float64' }).weight.dtype).toBe('float64');
  });

  it('a TransformerEncoderLayer activation that returns no Tensor is named', () => {
    class NotATensor extends nn.Module {
      override forward(): number {
        return 1;
      }
    }
    const layer = new nn.TransformerEncoderLayer(4, 2, { dimFeedforward: 8, dropout: 0, activation: new NotATensor() });
    const e = thrown(() => layer(torch.randn([3, 4])));
    expect(e).toBeInstanceOf(torch.TorchError);
    expect(e.message).toBe('TransformerEncoderLayer: the activation returned number, not a Tensor');
  });

  it('ConvTranspose2d keeps its padding as ints per dim', () => {
    const padding: number[] = new nn.ConvTranspose2d(1, 1, 3, { padding: 1 }).padding;
    expect(padding).toEqual([1, 1]);
  });
});

describe('optimizers read groups and state checked', () => {
  it('a group option of the wrong type is named at the step', () => {
    const p = torch.ones([2]).requiresGrad_();
    const opt = new optim.SGD([p], { lr: 0.1, momentum: 0.9 });
    opt.paramGroups[0].momentum = '0.9';
    p.mul(2).sum().backward();
    const e = thrown(() => opt.step());
    expect(e).toBeInstanceOf(torch.TorchError);
    expect(e.message).toBe("SGD: parameter group option 'momentum' must be a number, but is a string");
  });

  it('a loaded state of the wrong kind is named at the step', () => {
    const p = torch.ones([2]).requiresGrad_();
    const opt = new optim.Adam([p]);
    opt.loadStateDict({ state: { 0: { step: 3, expAvg: 1, expAvgSq: torch.zeros([2]) } }, paramGroups: opt.stateDict().param_groups });
    p.mul(2).sum().backward();
    expect(thrown(() => opt.step()).message).toBe("Adam: the state of a parameter has 'expAvg' = a number, expected a Tensor");
  });

  it('a list of groups holds only groups; Adam betas are checked', () => {
    const p = torch.ones([2]).requiresGrad_();
    const q = torch.ones([2]).requiresGrad_();
    const e = thrown(() => Reflect.construct(optim.SGD, [[{ params: [p] }, q], 0.1]));
    expect(e).toBeInstanceOf(torch.TorchTypeError);
    expect(e.message).toBe('param_group must be a dict, but got a Tensor');
    expect(thrown(() => new optim.Adam([{ params: [p], betas: 0.9 }])).message).toBe('Invalid beta parameters: 0.9');
    expect(thrown(() => new optim.Adam([{ params: [p], betas: [0.9] }])).message).toBe('Invalid beta parameter at index 1: undefined');
  });
});

describe('defaultCollate checks every element against the first', () => {
  it('names the element that differs', () => {
    const e = thrown(() => defaultCollate([torch.ones([1]), 2]));
    expect(e).toBeInstanceOf(torch.TorchTypeError);
    expect(e.message).toBe('defaultCollate: the batch starts with a Tensor, but element 1 is number');
    expect(thrown(() => defaultCollate([1, 'a'])).message).toBe('defaultCollate: the batch starts with a number, but element 1 is string');
    expect(thrown(() => defaultCollate([new Map([['a', 1]]), 3])).message).toBe('defaultCollate: the batch starts with a Map, but holds number');
    expect(thrown(() => defaultCollate([{ a: 1 }, null])).message).toBe('defaultCollate: the batch starts with an object, but holds null');
  });

  it('still makes one tensor of mixed numbers, bigints and bools', () => {
    const t = defaultCollate([1, 2n]);
    expect(t).toBeInstanceOf(torch.Tensor);
    expect(t instanceof torch.Tensor && [t.dtype, t.tolist()]).toEqual(['float64', [1, 2]]);
  });
});

describe('torch.webgpu checks the registered runtime', () => {
  it('names the methods a runtime of another version lacks', async () => {
    const before = deviceRuntime('webgpu');
    registerDeviceRuntime('webgpu', { init: async () => true, isAvailable: () => false });
    try {
      const e = await torch.webgpu.init().then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(torch.TorchError);
      expect(e instanceof Error && e.message).toMatch(/^torch\.webgpu: the registered WebGPU runtime lacks unavailableReason, shutdown, synchronize, emptyCache, memoryStats, deviceInfo: /);
    } finally {
      if (before !== undefined) registerDeviceRuntime('webgpu', before);
    }
  });
});
