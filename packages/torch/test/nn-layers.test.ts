import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { expectCloseToGolden as expectClose, fromGolden as fromG, type GoldenTensor as G } from './layer-goldens';
import golden from './goldens/nn_layers.json';

const { nn, optim } = torch;

interface Case {
  x: G;
  y: G;
  r: G;
  grads: Record<string, G>;
  state: Record<string, G>;
  xGrad?: G;
}

const L = golden.layers as Record<string, Case>;
const makers: Record<string, [number, () => torch.nn.Module, boolean?]> = {
  'Linear(4,3)': [100, () => new nn.Linear(4, 3)],
  'Conv1d(2,3,3,stride=2,padding=1)': [101, () => new nn.Conv1d(2, 3, 3, { stride: 2, padding: 1 })],
  'Conv2d(2,4,3,padding=1)': [102, () => new nn.Conv2d(2, 4, 3, { padding: 1 })],
  'Conv2d(4,4,(3,2),stride=2,groups=2,bias=False)': [103, () => new nn.Conv2d(4, 4, [3, 2], { stride: 2, groups: 2, bias: false })],
  'ConvTranspose2d(3,2,3,stride=2,padding=1,output_padding=1)': [
    104,
    () => new nn.ConvTranspose2d(3, 2, 3, { stride: 2, padding: 1, outputPadding: 1 }),
  ],
  'MaxPool2d(2)': [105, () => new nn.MaxPool2d(2)],
  'MaxPool2d(3,stride=2,padding=1)': [106, () => new nn.MaxPool2d(3, { stride: 2, padding: 1 })],
  'AvgPool2d(2)': [107, () => new nn.AvgPool2d(2)],
  'AdaptiveAvgPool2d((2,3))': [108, () => new nn.AdaptiveAvgPool2d([2, 3])],
  'BatchNorm1d(3)': [109, () => new nn.BatchNorm1d(3)],
  'BatchNorm1d(3) on (N,C,L)': [110, () => new nn.BatchNorm1d(3)],
  'BatchNorm2d(3)': [111, () => new nn.BatchNorm2d(3)],
  'BatchNorm2d(3,momentum=None)': [112, () => new nn.BatchNorm2d(3, { momentum: null })],
  'BatchNorm2d(3) eval': [113, () => new nn.BatchNorm2d(3), false],
  'LayerNorm(5)': [114, () => new nn.LayerNorm(5)],
  'LayerNorm((2,3))': [115, () => new nn.LayerNorm([2, 3])],
  'GroupNorm(2,4)': [116, () => new nn.GroupNorm(2, 4)],
  'Embedding(6,3,padding_idx=2)': [117, () => new nn.Embedding(6, 3, { paddingIdx: 2 })],
  'Softmax(1)': [118, () => new nn.Softmax(1)],
  'LogSoftmax(-1)': [119, () => new nn.LogSoftmax(-1)],
  ReLU: [120, () => new nn.ReLU()],
  GELU: [121, () => new nn.GELU()],
  'GELU(tanh)': [122, () => new nn.GELU({ approximate: 'tanh' })],
  SiLU: [123, () => new nn.SiLU()],
  Tanh: [124, () => new nn.Tanh()],
  Sigmoid: [125, () => new nn.Sigmoid()],
  'LeakyReLU(0.2)': [126, () => new nn.LeakyReLU(0.2)],
  'ELU(0.5)': [127, () => new nn.ELU(0.5)],
  'Dropout eval': [128, () => new nn.Dropout(0.5), false],
  Flatten: [129, () => new nn.Flatten()],
  'Unflatten(1,(2,3))': [130, () => new nn.Unflatten(1, [2, 3])],
};

describe('layers: PyTorch init, forward, backward and state', () => {
  it('covers every golden', () => expect(Object.keys(makers).sort()).toEqual(Object.keys(L).sort()));
  for (const [name, [seed, make, train]] of Object.entries(makers)) {
    it(name, () => {
      const c = L[name];
      torch.manualSeed(seed);
      const m = make();
      m.train(train ?? true);
      const x = fromG(c.x);
      if (x.isFloatingPoint()) x.requiresGrad_(true);
      const y = m.call(x) as torch.Tensor;
      expectClose(y, c.y, 'output');
      y.mul(fromG(c.r)).sum().backward();
      for (const [k, p] of m.namedParameters()) {
        expect(k in c.grads, `grad of ${k}`).toBe(true);
        expectClose(p.grad!, c.grads[k], `grad ${k}`);
      }
      if (c.xGrad) expectClose(x.grad!, c.xGrad, 'input grad');
      // the state: parameters as PyTorch initialised them, BatchNorm statistics updated as PyTorch's
      const sd = m.stateDict();
      expect([...sd.keys()]).toEqual(Object.keys(c.state));
      for (const [k, t] of sd) {
        if (t.dtype === 'int64') expect(Array.from(t.dataSync() as Float64Array)).toEqual(c.state[k].values);
        else expectClose(t, c.state[k], `state ${k}`);
      }
    });
  }

  it('BatchNorm running statistics over several steps, then eval', () => {
    const g = golden.bnSteps as { xs: G[]; state: Record<string, G>; xe: G; ye: G };
    const bn = new nn.BatchNorm2d(2, { momentum: 0.3 });
    for (const x of g.xs) bn.call(fromG(x));
    for (const [k, t] of bn.stateDict()) {
      if (t.dtype === 'int64') expect(t.item()).toBe(g.state[k].values[0]);
      else expectClose(t, g.state[k], k);
    }
    bn.eval();
    expectClose(bn.call(fromG(g.xe)), g.ye, 'eval output');
  });
});

describe('losses as modules', () => {
  const I = golden.lossInputs as Record<string, G>;
  const T = Object.fromEntries(Object.entries(I).map(([k, g]) => [k, fromG(g)]));
  const want = golden.losses as Record<string, number>;
  const got: Record<string, () => torch.Tensor> = {
    CrossEntropyLoss: () => new nn.CrossEntropyLoss().call(T.logits, T.target),
    'CrossEntropyLoss(weight,labelSmoothing=0.1)': () => new nn.CrossEntropyLoss({ weight: T.w, labelSmoothing: 0.1 }).call(T.logits, T.target),
    'CrossEntropyLoss(sum,ignoreIndex=2)': () => new nn.CrossEntropyLoss({ reduction: 'sum', ignoreIndex: 2 }).call(T.logits, T.target),
    NLLLoss: () => new nn.NLLLoss().call(new nn.LogSoftmax(1).call(T.logits), T.target),
    MSELoss: () => new nn.MSELoss().call(T.pred, T.tgt),
    'MSELoss(sum)': () => new nn.MSELoss({ reduction: 'sum' }).call(T.pred, T.tgt),
    L1Loss: () => new nn.L1Loss().call(T.pred, T.tgt),
    'SmoothL1Loss(beta=0.5)': () => new nn.SmoothL1Loss({ beta: 0.5 }).call(T.pred, T.tgt),
    BCELoss: () => new nn.BCELoss().call(T.prob, T.binT),
    'BCEWithLogitsLoss(posWeight)': () => new nn.BCEWithLogitsLoss({ posWeight: T.w }).call(T.pred, T.binT),
  };
  it('covers every golden', () => expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort()));
  for (const [name, f] of Object.entries(got)) {
    it(name, () => {
      const v = Number(f().item());
      expect(Math.abs(v - want[name])).toBeLessThanOrEqual(1e-5 + 1.3e-6 * Math.abs(want[name]));
    });
  }
  it('weight buffers appear in the state dict only when given', () => {
    expect([...new nn.CrossEntropyLoss().stateDict().keys()]).toEqual([]);
    expect([...new nn.CrossEntropyLoss({ weight: T.w }).stateDict().keys()]).toEqual(['weight']);
    expect([...new nn.BCEWithLogitsLoss({ posWeight: T.w }).stateDict().keys()]).toEqual(['pos_weight']);
  });
});

describe('a small CNN trained three SGD steps equals PyTorch', () => {
  class CNN extends nn.Module {
    declare features: torch.nn.Sequential;
    declare head: torch.nn.Sequential;
    constructor() {
      super();
      this.features = new nn.Sequential(new nn.Conv2d(1, 4, 3, { padding: 1 }), new nn.BatchNorm2d(4), new nn.ReLU(), new nn.MaxPool2d(2));
      this.head = new nn.Sequential(new nn.Flatten(), new nn.Linear(4 * 3 * 3, 5));
    }
    override forward(x: torch.Tensor): torch.Tensor {
      return this.head.call(this.features.call(x));
    }
  }
  it('losses and final state', () => {
    const g = golden.cnn as { data: G; labels: G; losses: number[]; state: Record<string, G> };
    torch.manualSeed(400);
    const net = new CNN();
    const opt = new optim.SGD(net.parameters(), { lr: 0.1, momentum: 0.9 });
    const lossFn = new nn.CrossEntropyLoss();
    const data = fromG(g.data);
    const labels = fromG(g.labels);
    const losses: number[] = [];
    for (let i = 0; i < 3; i++) {
      opt.zeroGrad();
      const loss = lossFn.call(net.call(data), labels) as torch.Tensor;
      loss.backward();
      opt.step();
      losses.push(Number(loss.item()));
    }
    losses.forEach((l, i) => expect(Math.abs(l - g.losses[i])).toBeLessThanOrEqual(1e-5));
    for (const [k, t] of net.stateDict()) {
      if (t.dtype === 'int64') expect(t.item()).toBe(g.state[k].values[0]);
      else expectClose(t, g.state[k], k, 1e-5, 1e-5);
    }
  });
});
