import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import * as nnSub from '@torch-ts/torch/nn';
import golden from './goldens/nn.json';
import { thrown } from './helpers';

const { nn } = torch;

interface G {
  shape: number[];
  dtype: string;
  values: number[];
}

/** Exact equality with PyTorch's values (float32s compared as the doubles they are). */
function expectExact(t: torch.Tensor, g: G): void {
  expect(t.shape).toEqual(g.shape);
  expect(t.dtype).toBe(g.dtype);
  expect(Array.from(t.dataSync() as Float32Array)).toEqual(g.values);
}

function expectClose(t: torch.Tensor, g: G, rtol = 1e-6, atol = 1e-6): void {
  expect(t.shape).toEqual(g.shape);
  const v = Array.from(t.dataSync() as Float32Array);
  v.forEach((x, i) => expect(Math.abs(x - g.values[i])).toBeLessThanOrEqual(atol + rtol * Math.abs(g.values[i])));
}

class Net extends nn.Module {
  declare scale: torch.nn.Parameter;
  declare conv: torch.nn.Conv2d;
  declare bn: torch.nn.BatchNorm2d;
  declare head: torch.nn.Sequential;

  constructor() {
    super();
    this.scale = new nn.Parameter(torch.ones(1));
    this.conv = new nn.Conv2d(1, 2, 3);
    this.registerBuffer('steps', torch.zeros(1));
    this.bn = new nn.BatchNorm2d(2);
    this.registerBuffer('tmp', torch.zeros(1), { persistent: false });
    this.head = new nn.Sequential(new nn.Flatten(), new nn.Linear(8, 3), new nn.ReLU());
  }

  override forward(x: torch.Tensor): torch.Tensor {
    return (this.head.call(this.bn.call(this.conv.call(x))) as torch.Tensor).mul(this.scale);
  }
}

describe('nn namespace', () => {
  it('is reachable as torch.nn and @torch-ts/torch/nn, with the same classes', () => {
    expect(nnSub.Linear).toBe(nn.Linear);
    expect(nnSub.Module).toBe(nn.Module);
    expect(typeof nn.functional.relu).toBe('function');
    expect(typeof nn.init.kaimingUniform_).toBe('function');
  });
});

describe('default initialisation equals PyTorch after manualSeed', () => {
  const inits = golden.inits as Record<string, Record<string, G>>;
  it('Linear, Conv, ConvTranspose, Bilinear, Embedding, BatchNorm', () => {
    torch.manualSeed(0);
    let m: torch.nn.Module = new nn.Linear(3, 4);
    expectExact((m as torch.nn.Linear).weight, inits['Linear(3,4)'].weight);
    expectExact((m as torch.nn.Linear).bias!, inits['Linear(3,4)'].bias);
    torch.manualSeed(1);
    m = new nn.Linear(5, 2, { bias: false, dtype: 'float64' });
    expectExact((m as torch.nn.Linear).weight, inits['Linear(5,2,bias=False,float64)'].weight);
    expect((m as torch.nn.Linear).bias).toBeNull();
    torch.manualSeed(2);
    const c = new nn.Conv2d(2, 3, 3);
    expectExact(c.weight, inits['Conv2d(2,3,3)'].weight);
    expectExact(c.bias!, inits['Conv2d(2,3,3)'].bias);
    torch.manualSeed(3);
    const c1 = new nn.Conv1d(4, 2, 2, { groups: 2 });
    expectExact(c1.weight, inits['Conv1d(4,2,2,groups=2)'].weight);
    expectExact(c1.bias!, inits['Conv1d(4,2,2,groups=2)'].bias);
    torch.manualSeed(4);
    const ct = new nn.ConvTranspose2d(2, 4, [2, 3], { stride: 2 });
    expectExact(ct.weight, inits['ConvTranspose2d(2,4,(2,3),stride=2)'].weight);
    expectExact(ct.bias!, inits['ConvTranspose2d(2,4,(2,3),stride=2)'].bias);
    torch.manualSeed(5);
    const b = new nn.Bilinear(2, 3, 2);
    expectExact(b.weight, inits['Bilinear(2,3,2)'].weight);
    expectExact(b.bias!, inits['Bilinear(2,3,2)'].bias);
    torch.manualSeed(6);
    const e = new nn.Embedding(5, 3, { paddingIdx: 1 });
    expectExact(e.weight, inits['Embedding(5,3,padding_idx=1)'].weight);
    const bn = new nn.BatchNorm2d(3);
    const sd = bn.stateDict();
    expect([...sd.keys()]).toEqual(Object.keys(inits['BatchNorm2d(3)']));
    for (const [k, t] of sd) expectExact(t, inits['BatchNorm2d(3)'][k]);
  });

  it('parameters are leaves that require grad; buffers do not', () => {
    const l = new nn.Linear(2, 2);
    expect(l.weight).toBeInstanceOf(nn.Parameter);
    expect(l.weight).toBeInstanceOf(torch.Tensor);
    expect(l.weight.requiresGrad).toBe(true);
    expect(l.weight.isLeaf).toBe(true);
    const bn = new nn.BatchNorm1d(2);
    expect(bn.runningMean!.requiresGrad).toBe(false);
    expect(String(new nn.Parameter(torch.tensor([1.5])))).toBe('Parameter containing:\ntensor([1.5000], requires_grad=True)');
  });
});

describe('nn.init equals PyTorch after manualSeed', () => {
  const g = golden.init as Record<string, G>;
  const cases: [string, number[], number, (t: torch.Tensor) => unknown, torch.DType?][] = [
    ['uniform_(-2,3)', [3, 4], 10, (t) => nn.init.uniform_(t, -2, 3)],
    ['normal_(1,0.5)', [3, 5], 11, (t) => nn.init.normal_(t, 1.0, 0.5)],
    ['normal_(0,1) n=20 f64', [20], 11, (t) => nn.init.normal_(t), 'float64'],
    ['constant_(0.25)', [2, 2], 12, (t) => nn.init.constant_(t, 0.25)],
    ['zeros_', [2, 3], 12, nn.init.zeros_],
    ['ones_', [3], 12, nn.init.ones_],
    ['xavierUniform_', [4, 6], 13, (t) => nn.init.xavierUniform_(t)],
    ['xavierUniform_(gain=relu)', [3, 2, 2, 2], 14, (t) => nn.init.xavierUniform_(t, nn.init.calculateGain('relu'))],
    ['xavierNormal_', [5, 3], 15, (t) => nn.init.xavierNormal_(t)],
    ['kaimingUniform_', [4, 3], 16, (t) => nn.init.kaimingUniform_(t)],
    ['kaimingUniform_(a=sqrt5)', [4, 3, 2], 17, (t) => nn.init.kaimingUniform_(t, { a: Math.sqrt(5) })],
    ['kaimingNormal_(fan_out,relu)', [6, 2, 3], 18, (t) => nn.init.kaimingNormal_(t, { mode: 'fan_out', nonlinearity: 'relu' })],
    ['kaimingNormal_', [20, 4], 19, (t) => nn.init.kaimingNormal_(t)],
    // PyTorch's positional forms, bound by the same signatures (the same goldens)
    ['kaimingUniform_(a=sqrt5)', [4, 3, 2], 17, (t) => nn.init.kaimingUniform_(t, Math.sqrt(5))],
    ['kaimingNormal_(fan_out,relu)', [6, 2, 3], 18, (t) => nn.init.kaimingNormal_(t, 0, 'fan_out', 'relu')],
    ['uniform_(-2,3)', [3, 4], 10, (t) => nn.init.uniform_(t, { a: -2, b: 3 })],
    ['xavierUniform_(gain=relu)', [3, 2, 2, 2], 14, (t) => nn.init.xavierUniform_(t, { gain: nn.init.calculateGain({ nonlinearity: 'relu' }) })],
  ];
  for (const [name, shape, seed, fn, dtype] of cases) {
    it(name, () => {
      torch.manualSeed(seed);
      const t = torch.empty(shape, { dtype: dtype ?? 'float32' });
      fn(t);
      expectExact(t, g[name]);
    });
  }

  it('calculateGain', () => {
    const gains = golden.gain as Record<string, number>;
    expect(nn.init.calculateGain('linear')).toBe(gains.linear);
    expect(nn.init.calculateGain('conv2d')).toBe(gains.conv2d);
    expect(nn.init.calculateGain('sigmoid')).toBe(gains.sigmoid);
    expect(nn.init.calculateGain('tanh')).toBe(gains.tanh);
    expect(nn.init.calculateGain('relu')).toBe(gains.relu);
    expect(nn.init.calculateGain('leaky_relu')).toBe(gains.leaky_relu);
    expect(nn.init.calculateGain('leaky_relu', 0.2)).toBe(gains['leaky_relu(0.2)']);
    expect(nn.init.calculateGain('selu')).toBe(gains.selu);
    expect(thrown(() => nn.init.calculateGain('nope' as never))).toBeInstanceOf(torch.TorchError);
    expect(thrown(() => nn.init.xavierUniform_(torch.empty(3)))).toBeInstanceOf(torch.TorchError);
  });

  it('init functions bind their Python signatures: nothing is ignored', () => {
    const t = torch.empty(3, 2);
    expect(() => nn.init.kaimingUniform_(t, { mod: 'fan_out' } as never)).toThrow("kaiming_uniform_() got an unexpected keyword argument 'mod'");
    expect(() => nn.init.uniform_(t, 0, 1, null, 5 as never)).toThrow('uniform_() takes from 1 to 4 positional arguments but 5 were given');
    expect(() => nn.init.normal_(t, { std: 'a' } as never)).toThrow("normal_(): argument 'std' must be float, not string");
    // @ts-expect-error: val is required
    expect(() => nn.init.constant_(t)).toThrow('constant_() missing 1 required positional argument: "val"');
    expect(() => nn.init.kaimingNormal_(t, { mode: 'fan' } as never)).toThrow('Mode fan not supported, please use one of fan_in, fan_out');
    expect(() => nn.init.calculateGain('nope' as never)).toThrow('calculate_gain: Unsupported nonlinearity nope');
  });

  it('init runs under no-grad on a parameter and keeps it a leaf', () => {
    const p = new nn.Parameter(torch.empty(3, 2));
    nn.init.kaimingUniform_(p);
    expect(p.isLeaf).toBe(true);
    expect(p.gradFn).toBeNull();
  });
});

describe('module repr equals PyTorch', () => {
  const r = golden.reprs as Record<string, string>;
  const mods: Record<string, () => torch.nn.Module> = {
    'Linear(3,4)': () => new nn.Linear(3, 4),
    'Linear(3,4,bias=False)': () => new nn.Linear(3, 4, { bias: false }),
    'Bilinear(2,3,4)': () => new nn.Bilinear(2, 3, 4),
    Identity: () => new nn.Identity(),
    Flatten: () => new nn.Flatten(),
    'Unflatten(1,(2,5))': () => new nn.Unflatten(1, [2, 5]),
    ReLU: () => new nn.ReLU(),
    'ReLU(inplace)': () => new nn.ReLU({ inplace: true }),
    GELU: () => new nn.GELU(),
    'GELU(tanh)': () => new nn.GELU({ approximate: 'tanh' }),
    SiLU: () => new nn.SiLU(),
    Tanh: () => new nn.Tanh(),
    Sigmoid: () => new nn.Sigmoid(),
    LeakyReLU: () => new nn.LeakyReLU(),
    'LeakyReLU(0.2,inplace)': () => new nn.LeakyReLU(0.2, { inplace: true }),
    ELU: () => new nn.ELU(),
    'ELU(2.0)': () => new nn.ELU(2),
    'Softmax(1)': () => new nn.Softmax(1),
    'LogSoftmax(-1)': () => new nn.LogSoftmax({ dim: -1 }),
    Dropout: () => new nn.Dropout(),
    'Dropout(0.25)': () => new nn.Dropout(0.25),
    'Conv2d(1,8,3)': () => new nn.Conv2d(1, 8, 3),
    'Conv2d(4,8,(3,5),stride=2,padding=1,dilation=2,groups=2,bias=False)': () =>
      new nn.Conv2d(4, 8, [3, 5], { stride: 2, padding: 1, dilation: 2, groups: 2, bias: false }),
    'Conv2d(2,2,3,padding=same)': () => new nn.Conv2d(2, 2, 3, { padding: 'same' }),
    'Conv1d(4,2,2)': () => new nn.Conv1d(4, 2, 2),
    'ConvTranspose2d(2,4,3,stride=2,outputPadding=1)': () => new nn.ConvTranspose2d(2, 4, 3, { stride: 2, outputPadding: 1 }),
    'MaxPool2d(2)': () => new nn.MaxPool2d(2),
    'MaxPool2d(3,stride=1,padding=1)': () => new nn.MaxPool2d(3, { stride: 1, padding: 1 }),
    'AvgPool2d(2)': () => new nn.AvgPool2d(2),
    'AdaptiveAvgPool2d((1,1))': () => new nn.AdaptiveAvgPool2d([1, 1]),
    'AdaptiveAvgPool2d(3)': () => new nn.AdaptiveAvgPool2d(3),
    'BatchNorm1d(4)': () => new nn.BatchNorm1d(4),
    'BatchNorm2d(3,momentum=None,affine=False)': () => new nn.BatchNorm2d(3, { momentum: null, affine: false }),
    'LayerNorm(4)': () => new nn.LayerNorm(4),
    'LayerNorm((2,3),eps=1e-6)': () => new nn.LayerNorm([2, 3], { eps: 1e-6 }),
    'GroupNorm(2,4)': () => new nn.GroupNorm(2, 4),
    'Embedding(10,3)': () => new nn.Embedding(10, 3),
    'Embedding(10,3,padding_idx=0)': () => new nn.Embedding(10, 3, { paddingIdx: 0 }),
    CrossEntropyLoss: () => new nn.CrossEntropyLoss(),
    MSELoss: () => new nn.MSELoss(),
    Sequential: () => new nn.Sequential(new nn.Linear(2, 3), new nn.ReLU(), new nn.Sequential(new nn.Linear(3, 1), new nn.Sigmoid())),
    ModuleList: () => new nn.ModuleList([new nn.Linear(1, 1), new nn.Tanh()]),
    ModuleDict: () => new nn.ModuleDict({ a: new nn.ReLU(), b: new nn.Linear(2, 2) }),
    Net: () => new Net(),
  };
  it('covers every golden', () => expect(Object.keys(mods).sort()).toEqual(Object.keys(r).sort()));
  for (const [name, make] of Object.entries(mods)) {
    it(name, () => expect(make().toString()).toBe(r[name]));
  }
});

describe('Module registration, iteration and state dicts', () => {
  const g = golden.net;
  it('keys come in PyTorch order', () => {
    const net = new Net();
    expect([...net.stateDict().keys()]).toEqual(g.stateDictKeys);
    expect([...net.namedParameters()].map(([k]) => k)).toEqual(g.namedParameters);
    expect([...net.namedBuffers()].map(([k]) => k)).toEqual(g.namedBuffers);
    expect([...net.namedModules()].map(([k]) => k)).toEqual(g.namedModules);
    expect([...net.children()].map((c) => c.constructor.name)).toEqual(g.children);
    expect([...net.parameters()].length).toBe(g.namedParameters.length);
    expect([...net.modules()].length).toBe(g.namedModules.length);
  });

  it('assignment registers, reassignment replaces, null keeps the slot, delete removes', () => {
    const m = new nn.Module() as torch.nn.Module & Record<string, unknown>;
    m.a = new nn.Parameter(torch.zeros(2));
    m.child = new nn.Linear(1, 1);
    m.plain = torch.zeros(1); // a plain tensor attribute is not registered, as in PyTorch
    expect([...m.namedParameters()].map(([k]) => k)).toEqual(['a', 'child.weight', 'child.bias']);
    expect(thrown(() => (m.a = torch.zeros(2)))).toBeInstanceOf(torch.TorchError);
    m.a = null;
    expect([...m.namedParameters()].map(([k]) => k)).toEqual(['child.weight', 'child.bias']);
    expect([...m.stateDict().keys()]).toEqual(['child.weight', 'child.bias']);
    delete m.child;
    expect([...m.modules()].length).toBe(1);
    const shared = new nn.Linear(2, 2);
    const s = new nn.Sequential(shared, shared);
    expect([...s.parameters()].length).toBe(2); // duplicates removed, as PyTorch
    expect([...s.stateDict().keys()]).toEqual(['0.weight', '0.bias', '1.weight', '1.bias']);
    expect(thrown(() => m.registerBuffer('a.b', null)).message).toContain('can\'t contain "."');
  });

  it('train/eval propagate; zeroGrad sets grads to null; apply visits children first', () => {
    const net = new Net();
    net.eval();
    expect([...net.modules()].every((x) => !x.training)).toBe(true);
    net.train();
    expect(net.head.get(1).training).toBe(true);
    const l = new nn.Linear(2, 1);
    const y = l.forward(torch.ones(3, 2)).sum();
    y.backward();
    expect(l.weight.grad).not.toBeNull();
    l.zeroGrad();
    expect(l.weight.grad).toBeNull();
    expect(l.bias!.grad).toBeNull();
    const seen: string[] = [];
    net.apply((x) => void seen.push(x.constructor.name));
    expect(seen).toEqual(['Conv2d', 'BatchNorm2d', 'Flatten', 'Linear', 'ReLU', 'Sequential', 'Net']);
  });

  it('to(dtype) converts floating parameters and buffers only', () => {
    const bn = new nn.BatchNorm1d(2);
    bn.to('float64');
    expect(bn.weight!.dtype).toBe('float64');
    expect(bn.runningMean!.dtype).toBe('float64');
    expect(bn.numBatchesTracked!.dtype).toBe('int64');
    expect(bn.weight).toBeInstanceOf(nn.Parameter);
    expect(bn.weight!.requiresGrad).toBe(true);
    expect([...bn.stateDict().keys()]).toEqual(['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']);
    expect(thrown(() => bn.to('int32'))).toBeInstanceOf(torch.TorchError);
    const l = new nn.Linear(2, 2).double();
    expect(l.weight.dtype).toBe('float64');
    expect(l.to('cpu')).toBe(l);
  });

  it('to() keeps tied parameters and shared buffers tied (Note [Tied parameters stay tied through to()])', () => {
    const enc = new nn.Embedding(5, 3);
    const dec = new nn.Linear(3, 5);
    dec.weight = enc.weight;
    const shared = torch.zeros([2]);
    enc.registerBuffer('stat', shared);
    dec.registerBuffer('stat', shared);
    const model = new nn.Sequential(enc, dec).double();
    expect(enc.weight.dtype).toBe('float64');
    expect(dec.weight).toBe(enc.weight);
    expect(Reflect.get(dec, 'stat')).toBe(Reflect.get(enc, 'stat'));
    expect(Reflect.get(dec, 'stat')).not.toBe(shared);
    expect([...model.parameters()].length).toBe(2); // the tied weight once, dec.bias
    expect([...model.stateDict().keys()]).toEqual(['0.weight', '0.stat', '1.weight', '1.bias', '1.stat']);
  });

  it('loadStateDict copies values in place, strict errors as PyTorch', () => {
    const a = new Net();
    const b = new Net();
    b.loadStateDict(a.stateDict());
    for (const [k, t] of b.stateDict()) expect(t.tolist()).toEqual(a.stateDict().get(k)!.tolist());
    const err = thrown(() => b.loadStateDict({ scale: torch.ones(1), extra: torch.ones(1) }));
    expect(err).toBeInstanceOf(torch.TorchError);
    expect(err.message).toBe(g.loadError);
    const r = b.loadStateDict({ scale: torch.full([1], 3.0), extra: torch.ones(1) }, { strict: false });
    expect(r.unexpectedKeys).toEqual(['extra']);
    expect(r.missingKeys).toEqual(g.stateDictKeys.filter((k) => k !== 'scale' && k !== 'bn.num_batches_tracked'));
    expect(b.scale.tolist()).toEqual([3]);
    const l = new nn.Linear(2, 3);
    const before = l.weight.tolist();
    const e2 = thrown(() => l.loadStateDict({ weight: torch.ones(3, 3), bias: torch.ones(3) }));
    expect(e2.message).toBe(golden.linearSizeMismatch);
    expect(l.weight.tolist()).toEqual(before); // nothing was copied
    const sd = new Map(l.stateDict());
    expect(sd.get('weight')!.requiresGrad).toBe(false);
  });

  it('forward hooks and pre-hooks run in call(), and can be removed', () => {
    const l = new nn.Linear(2, 2);
    const log: string[] = [];
    const h1 = l.registerForwardPreHook((_m, args) => {
      log.push('pre');
      return [(args[0] as torch.Tensor).mul(0)];
    });
    const h2 = l.registerForwardHook((_m, _args, out) => {
      log.push('post');
      return (out as torch.Tensor).add(1);
    });
    const y = l.call(torch.ones(1, 2)) as torch.Tensor;
    expect(log).toEqual(['pre', 'post']);
    const bias = l.bias!.tolist() as number[];
    (y.tolist() as number[][])[0].forEach((v, i) => expect(v).toBeCloseTo(bias[i] + 1, 6));
    h1.remove();
    h2.remove();
    l.call(torch.ones(1, 2));
    expect(log).toEqual(['pre', 'post']);
  });

  it('containers index, append, and iterate', () => {
    const ml = new nn.ModuleList([new nn.ReLU()]);
    ml.append(new nn.Tanh());
    ml.insert(0, new nn.Sigmoid());
    expect([...ml].map((m) => m.constructor.name)).toEqual(['Sigmoid', 'ReLU', 'Tanh']);
    expect(ml.get(-1)).toBeInstanceOf(nn.Tanh);
    expect(ml.length).toBe(3);
    const md = new nn.ModuleDict({ x: new nn.ReLU() });
    md.set('y', new nn.Linear(1, 1));
    expect([...md.keys()]).toEqual(['x', 'y']);
    expect([...md.stateDict().keys()]).toEqual(['y.weight', 'y.bias']);
    md.delete('y');
    expect([...md.parameters()].length).toBe(0);
    const seq = new nn.Sequential(new Map([['first', new nn.Linear(2, 2)]]));
    expect([...seq.stateDict().keys()]).toEqual(['first.weight', 'first.bias']);
  });
});

describe('forward values equal PyTorch', () => {
  const f = golden.forward as Record<string, Record<string, G>>;
  it('Linear', () => {
    torch.manualSeed(20);
    const l = new nn.Linear(4, 3);
    const x = torch.randn(5, 4);
    expectExact(x, f['Linear(4,3)'].x);
    expectClose(l.forward(x), f['Linear(4,3)'].y);
  });
  it('Bilinear', () => {
    torch.manualSeed(21);
    const b = new nn.Bilinear(2, 3, 2);
    const x1 = torch.randn(4, 2);
    const x2 = torch.randn(4, 3);
    expectClose(b.forward(x1, x2), f['Bilinear(2,3,2)'].y, 1e-5, 1e-6);
  });
  it('Sequential of Linear, Tanh, Sigmoid', () => {
    torch.manualSeed(22);
    const s = new nn.Sequential(new nn.Linear(3, 4), new nn.Tanh(), new nn.Linear(4, 2), new nn.Sigmoid());
    const x = torch.randn(2, 3);
    expectClose(s.call(x), f['Sequential(Linear,Tanh,Linear,Sigmoid)'].y);
  });
});

describe('nn.utils', () => {
  const c = golden.clipGradNorm as Record<string, { total: number; ga: G; gb?: G }>;
  function setup(): [torch.Tensor, torch.Tensor] {
    const a = torch.tensor([[1.5, -2.0], [0.5, 4.0]], { requiresGrad: true });
    const b = torch.tensor([3.0, -1.0, 0.25], { requiresGrad: true });
    // grads via backward of <p, g>: exactly g
    a.mul(torch.tensor([[1.0, -2.0], [3.0, 0.5]])).sum().add(b.mul(torch.tensor([-4.0, 2.0, 1.0])).sum()).backward();
    return [a, b];
  }
  for (const [key, normType] of [['2.0', 2], ['1.0', 1], ['3.0', 3], ['inf', Infinity]] as const) {
    it(`clipGradNorm_ normType=${key}`, () => {
      const [a, b] = setup();
      const total = nn.utils.clipGradNorm_([a, b], 2.5, { normType });
      expect(Math.abs(Number(total.item()) - c[key].total)).toBeLessThanOrEqual(1e-6 * c[key].total);
      expectClose(a.grad!, c[key].ga);
      expectClose(b.grad!, c[key].gb!);
    });
    it(`clipGradNorm_ normType=${key} positionally, as PyTorch's clip_grad_norm_(parameters, 2.5, ${key})`, () => {
      const [a, b] = setup();
      const total = nn.utils.clipGradNorm_([a, b], 2.5, normType, false);
      expect(Math.abs(Number(total.item()) - c[key].total)).toBeLessThanOrEqual(1e-6 * c[key].total);
      expectClose(a.grad!, c[key].ga);
    });
  }
  it('clipGradNorm_ leaves small gradients alone', () => {
    const a = torch.tensor([1.0, 2.0], { dtype: 'float32', requiresGrad: true });
    a.mul(torch.tensor([0.1, 0.2])).sum().backward();
    const total = nn.utils.clipGradNorm_([a], 10.0);
    expect(Number(total.item())).toBeCloseTo(c.noclip.total, 6);
    expectExact(a.grad!, c.noclip.ga);
  });
  it('clipGradValue_, parametersToVector, vectorToParameters', () => {
    const [a, b] = setup();
    nn.utils.clipGradValue_([a, b], 1.5);
    expect(a.grad!.tolist()).toEqual([[1, -1.5], [1.5, 0.5]]);
    expect(b.grad!.tolist()).toEqual([-1.5, 1.5, 1]);
    const v = nn.utils.parametersToVector([a, b]);
    expect(v.tolist()).toEqual([1.5, -2, 0.5, 4, 3, -1, 0.25]);
    nn.utils.vectorToParameters(torch.arange(7).float(), [a, b]);
    expect(a.tolist()).toEqual([[0, 1], [2, 3]]);
    expect(b.tolist()).toEqual([4, 5, 6]);
    expect(thrown(() => nn.utils.vectorToParameters(torch.zeros(3), [a]))).toBeInstanceOf(torch.TorchError);
  });
  it('clipGradNorm_ and clipGradValue_ bind their Python signatures: nothing is ignored', () => {
    const [a] = setup();
    expect(() => nn.utils.clipGradNorm_([a], 1, { normTyp: 1 } as never)).toThrow("clip_grad_norm_() got an unexpected keyword argument 'normTyp'");
    expect(() => nn.utils.clipGradNorm_([a], 1, 2, false, null, 5 as never)).toThrow('clip_grad_norm_() takes from 2 to 5 positional arguments but 6 were given');
    expect(() => nn.utils.clipGradNorm_([a], '1' as never)).toThrow("clip_grad_norm_(): argument 'maxNorm' (position 2) must be float, not string");
    expect(() => nn.utils.clipGradValue_([a], { clipValue: 1, foreach: true, x: 1 } as never)).toThrow("clip_grad_value_() got an unexpected keyword argument 'x'");
    nn.utils.clipGradValue_([a], { clipValue: 0.5 });
    expect(a.grad!.abs().max().item()).toBe(0.5);
  });
});
