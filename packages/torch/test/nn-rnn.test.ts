/**
 * nn.RNN / LSTM / GRU and their cells against PyTorch 1.13 (scripts/goldens/nn_rnn.py): the
 * seeded initialisation (state dict, exactly), outputs, final states and the gradients of the
 * input, the initial states and every parameter, over the options; dropout between layers in
 * training mode (same generator draws as PyTorch); reprs; PyTorch's errors; gradcheck of
 * the cells in float64; and a 2-layer LSTM language model trained five Adam steps.
 */
import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { expectCloseToGolden as expectClose, fromGolden as fromG, type GoldenTensor as G } from './layer-goldens';
import golden from './goldens/nn_rnn.json';

const { nn } = torch;


interface Case {
  x: G;
  h0?: G;
  c0?: G;
  y?: G;
  r?: G;
  hn: G;
  rh: G;
  cn?: G;
  rc?: G;
  state: Record<string, G>;
  grads: Record<string, G>;
  xGrad: G;
  h0Grad?: G;
  c0Grad?: G;
}

function checkState(m: torch.nn.Module, c: Case): void {
  const sd = m.stateDict();
  expect([...sd.keys()]).toEqual(Object.keys(c.state));
  for (const [k, t] of sd) expectClose(t, c.state[k], `state ${k}`, 0, 0); // PyTorch's initial values exactly
  expect([...m.namedParameters()].map(([k]) => k)).toEqual(Object.keys(c.grads));
  for (const [k, p] of m.namedParameters()) expectClose(p.grad!, c.grads[k], `grad ${k}`);
}

// name -> [seed, constructor, forward seed (dropout), train]: nn_rnn.py's table
const R = golden.rnns as Record<string, Case>;
const rnnCases: Record<string, [number, () => torch.nn.RNNBase, number | null, boolean]> = {
  'RNN(4,3)': [700, () => new nn.RNN(4, 3), null, true],
  'RNN(4,3,2,relu,bias=False) h0': [701, () => new nn.RNN(4, 3, 2, { nonlinearity: 'relu', bias: false }), null, true],
  'RNN(4,3,bidirectional,batch_first) h0': [702, () => new nn.RNN(4, 3, { batchFirst: true, bidirectional: true }), null, true],
  'RNN(4,3) unbatched h0': [703, () => new nn.RNN(4, 3), null, true],
  'RNN(4,3,3,dropout=0.5) train': [704, () => new nn.RNN(4, 3, 3, { dropout: 0.5 }), 7040, true],
  'LSTM(4,3)': [710, () => new nn.LSTM(4, 3), null, true],
  'LSTM(4,5,2,bidirectional) h0': [711, () => new nn.LSTM(4, 5, 2, { bidirectional: true }), null, true],
  'LSTM(4,5,2,proj_size=2,batch_first) h0': [712, () => new nn.LSTM(4, 5, 2, { batchFirst: true, projSize: 2 }), null, true],
  'LSTM(4,5,proj_size=3,bidirectional,bias=False) unbatched': [713, () => new nn.LSTM(4, 5, { bias: false, bidirectional: true, projSize: 3 }), null, true],
  'LSTM(4,3) unbatched h0': [714, () => new nn.LSTM(4, 3), null, true],
  'LSTM(4,5,3,dropout=0.4,bidirectional) train': [715, () => new nn.LSTM(4, 5, 3, { dropout: 0.4, bidirectional: true }), 7150, true],
  'LSTM(4,5,2,dropout=0.4) eval': [716, () => new nn.LSTM(4, 5, 2, { dropout: 0.4 }), null, false],
  'GRU(4,3)': [720, () => new nn.GRU(4, 3), null, true],
  'GRU(4,3,2,bidirectional,batch_first) h0': [721, () => new nn.GRU(4, 3, 2, { batchFirst: true, bidirectional: true }), null, true],
  'GRU(4,3,bias=False) unbatched h0': [722, () => new nn.GRU(4, 3, { bias: false }), null, true],
  'GRU(4,3,2,dropout=0.3,batch_first) train': [723, () => new nn.GRU(4, 3, 2, { dropout: 0.3, batchFirst: true }), 7230, true],
};

describe('RNN, LSTM and GRU equal PyTorch', () => {
  it('covers every golden', () => expect(Object.keys(rnnCases).sort()).toEqual(Object.keys(R).sort()));
  for (const [name, [seed, make, fseed, train]] of Object.entries(rnnCases)) {
    it(name, () => {
      const c = R[name];
      torch.manualSeed(seed);
      const m = make();
      m.train(train);
      const x = fromG(c.x).requiresGrad_(true);
      const h0 = c.h0 ? fromG(c.h0).requiresGrad_(true) : null;
      const c0 = c.c0 ? fromG(c.c0).requiresGrad_(true) : null;
      if (fseed !== null) torch.manualSeed(fseed);
      let y: torch.Tensor;
      let hn: torch.Tensor;
      let cn: torch.Tensor | null = null;
      if (m instanceof nn.LSTM) [y, [hn, cn]] = m(x, h0 && c0 ? [h0, c0] : null);
      else [y, hn] = (m as torch.nn.RNN)(x, h0);
      expectClose(y, c.y!, 'output');
      expectClose(hn, c.hn, 'h_n');
      let loss = y.mul(fromG(c.r!)).sum().add(hn.mul(fromG(c.rh)).sum());
      if (cn !== null) {
        expectClose(cn, c.cn!, 'c_n');
        loss = loss.add(cn.mul(fromG(c.rc!)).sum());
      }
      loss.backward();
      checkState(m, c);
      expectClose(x.grad!, c.xGrad, 'input grad');
      if (h0) expectClose(h0.grad!, c.h0Grad!, 'h0 grad');
      if (c0) expectClose(c0.grad!, c.c0Grad!, 'c0 grad');
    });
  }

  it('parameters are named and shaped as PyTorch (_reverse, weight_hr, allWeights)', () => {
    const m = new nn.LSTM(4, 5, 2, { bidirectional: true, projSize: 3 });
    const shapes = Object.fromEntries([...m.namedParameters()].map(([k, p]) => [k, p.shape]));
    expect(shapes).toEqual({
      weight_ih_l0: [20, 4], weight_hh_l0: [20, 3], bias_ih_l0: [20], bias_hh_l0: [20], weight_hr_l0: [3, 5],
      weight_ih_l0_reverse: [20, 4], weight_hh_l0_reverse: [20, 3], bias_ih_l0_reverse: [20], bias_hh_l0_reverse: [20], weight_hr_l0_reverse: [3, 5],
      weight_ih_l1: [20, 6], weight_hh_l1: [20, 3], bias_ih_l1: [20], bias_hh_l1: [20], weight_hr_l1: [3, 5],
      weight_ih_l1_reverse: [20, 6], weight_hh_l1_reverse: [20, 3], bias_ih_l1_reverse: [20], bias_hh_l1_reverse: [20], weight_hr_l1_reverse: [3, 5],
    });
    expect(m.allWeights.length).toBe(4);
    expect(m.allWeights[1][0]).toBe(m.weight_ih_l0_reverse);
    // a state dict round trip reaches forward (weights are read at each call)
    const m2 = new nn.LSTM(4, 5, 2, { bidirectional: true, projSize: 3 });
    m2.loadStateDict(m.stateDict());
    const x = torch.randn(3, 2, 4);
    expect(m2(x)[0].tolist()).toEqual(m(x)[0].tolist());
  });

  it('forward and backward leave no live tensors behind once the results are released', () => {
    const m = new nn.LSTM(3, 4, 2, { bidirectional: true });
    const x = torch.randn(5, 2, 3).requiresGrad_(true);
    const live = () => torch.memory.stats('cpu').liveTensors;
    const run = () => {
      const [y, [h, c]] = m(x);
      torch.tidy(() => y.sum().add(h.sum()).add(c.sum()).backward());
      for (const t of [y, h, c]) t.dispose();
    };
    run(); // (the first run makes the parameters' and the input's .grad)
    const before = live();
    for (let i = 0; i < 3; i++) run();
    expect(live()).toBe(before);
  });

  it('float64 layers (dtype option) and an empty batch', () => {
    const m = new nn.GRU(3, 2, { dtype: 'float64' });
    const [y, h] = m(torch.randn([4, 2, 3], { dtype: 'float64' }));
    expect([y.dtype, y.shape, h.shape]).toEqual(['float64', [4, 2, 2], [1, 2, 2]]);
    const [y0, h0] = m(torch.randn([4, 0, 3], { dtype: 'float64' }));
    expect([y0.shape, h0.shape]).toEqual([[4, 0, 2], [1, 0, 2]]);
  });
});

const C = golden.cells as Record<string, Case>;
const cellCases: Record<string, [number, () => torch.nn.RNNCellBase]> = {
  'RNNCell(4,3)': [730, () => new nn.RNNCell(4, 3)],
  'RNNCell(4,3,relu,bias=False) h0': [731, () => new nn.RNNCell(4, 3, { bias: false, nonlinearity: 'relu' })],
  'RNNCell(4,3) unbatched h0': [732, () => new nn.RNNCell(4, 3)],
  'LSTMCell(4,3)': [733, () => new nn.LSTMCell(4, 3)],
  'LSTMCell(4,3) h0': [734, () => new nn.LSTMCell(4, 3)],
  'LSTMCell(4,3,bias=False) unbatched h0': [735, () => new nn.LSTMCell(4, 3, false)],
  'GRUCell(4,3)': [736, () => new nn.GRUCell(4, 3)],
  'GRUCell(4,3) h0': [737, () => new nn.GRUCell(4, 3)],
  'GRUCell(4,3,bias=False) unbatched': [738, () => new nn.GRUCell(4, 3, { bias: false })],
};

describe('RNNCell, LSTMCell and GRUCell equal PyTorch', () => {
  it('covers every golden', () => expect(Object.keys(cellCases).sort()).toEqual(Object.keys(C).sort()));
  for (const [name, [seed, make]] of Object.entries(cellCases)) {
    it(name, () => {
      const c = C[name];
      torch.manualSeed(seed);
      const m = make();
      const x = fromG(c.x).requiresGrad_(true);
      const h0 = c.h0 ? fromG(c.h0).requiresGrad_(true) : null;
      const c0 = c.c0 ? fromG(c.c0).requiresGrad_(true) : null;
      let loss: torch.Tensor;
      if (m instanceof nn.LSTMCell) {
        const [h, cc] = m(x, h0 && c0 ? [h0, c0] : null);
        expectClose(h, c.hn, 'h');
        expectClose(cc, c.cn!, 'c');
        loss = h.mul(fromG(c.rh)).sum().add(cc.mul(fromG(c.rc!)).sum());
      } else {
        const h = (m as torch.nn.GRUCell)(x, h0);
        expectClose(h, c.hn, 'h');
        loss = h.mul(fromG(c.rh)).sum();
      }
      loss.backward();
      checkState(m, c);
      expectClose(x.grad!, c.xGrad, 'input grad');
      if (h0) expectClose(h0.grad!, c.h0Grad!, 'h0 grad');
      if (c0) expectClose(c0.grad!, c.c0Grad!, 'c0 grad');
    });
  }

  const { gradcheck } = torch.autograd;
  const gradcheckCells: Record<string, () => torch.nn.RNNCellBase> = {
    'RNNCell tanh': () => new nn.RNNCell(3, 4, { dtype: 'float64' }),
    'RNNCell relu': () => new nn.RNNCell(3, 4, { nonlinearity: 'relu', dtype: 'float64' }),
    GRUCell: () => new nn.GRUCell(3, 4, { dtype: 'float64' }),
    LSTMCell: () => new nn.LSTMCell(3, 4, { dtype: 'float64' }),
  };
  for (const [name, make] of Object.entries(gradcheckCells)) {
    it(`${name}: gradcheck in float64 (input, states and every weight)`, async () => {
      torch.manualSeed(0);
      const m = make();
      const lstm = m instanceof nn.LSTMCell;
      const x = torch.randn([2, 3], { dtype: 'float64', requiresGrad: true });
      const states = lstm ? 2 : 1;
      const hs = Array.from({ length: states }, () => torch.randn([2, 4], { dtype: 'float64', requiresGrad: true }));
      const fn = (xi: torch.Tensor, ...rest: torch.Tensor[]) => {
        const [h, c] = rest;
        const w = rest.slice(states);
        // the cell reading its weights from gradcheck's inputs: an own `weights` shadows the
        // method that reads the parameters (gradcheck perturbs copies of its inputs)
        Reflect.set(m, 'weights', () => ({ wIh: w[0], wHh: w[1], bIh: w[2], bHh: w[3], wHr: null }));
        if (m instanceof nn.LSTMCell) return m(xi, [h, c]);
        return (m as torch.nn.GRUCell)(xi, h);
      };
      const ws = [...m.parameters()].map((p) => p.detach().requiresGrad_(true));
      // (the weights do reach the output: each gets a gradient, so the check is not vacuous)
      const outs = [fn(x, ...hs, ...ws)].flat();
      outs.reduce((a, o) => a.add(o.sum()), torch.zeros([], { dtype: 'float64' })).backward();
      for (const w of ws) expect(w.grad?.abs().sum().item()).toBeGreaterThan(0);
      expect(await gradcheck(fn, [x, ...hs, ...ws])).toBe(true);
    });
  }
});

describe('nn.utils.rnn and the layers on a PackedSequence equal PyTorch', () => {
  const { rnn } = nn.utils;
  interface PCase {
    x: G;
    lengths: number[];
    packedData: G;
    batchSizes: number[];
    sortedIndices: number[] | null;
    h0?: G;
    c0?: G;
    outData: G;
    padded: G;
    padLengths: number[];
    r: G;
    hn: G;
    rh: G;
    cn?: G;
    rc?: G;
    grads: Record<string, G>;
    xGrad: G;
    h0Grad?: G;
    c0Grad?: G;
  }
  const P = golden.packed as Record<string, PCase>;
  // name -> [seed, constructor, enforceSorted, batchFirst]: nn_rnn.py's table
  const packedCases: Record<string, [number, () => torch.nn.RNNBase, boolean, boolean]> = {
    'LSTM(3,4) sorted': [740, () => new nn.LSTM(3, 4), true, false],
    'LSTM(3,4,2,bidirectional,proj_size=2) unsorted h0': [741, () => new nn.LSTM(3, 4, 2, { bidirectional: true, projSize: 2 }), false, false],
    'GRU(3,4,bidirectional,batch_first) unsorted h0': [742, () => new nn.GRU(3, 4, { bidirectional: true, batchFirst: true }), false, true],
    'RNN(3,4,2,relu) sorted': [743, () => new nn.RNN(3, 4, 2, { nonlinearity: 'relu' }), true, false],
  };
  it('covers every golden', () => expect(Object.keys(packedCases).sort()).toEqual(Object.keys(P).sort()));
  for (const [name, [seed, make, enforceSorted, batchFirst]] of Object.entries(packedCases)) {
    it(name, () => {
      const c = P[name];
      torch.manualSeed(seed);
      const m = make();
      const x = fromG(c.x).requiresGrad_(true);
      const packed = rnn.packPaddedSequence(x, c.lengths, { batchFirst, enforceSorted });
      expectClose(packed.data, c.packedData, 'packed data', 0, 0);
      expect(packed.batchSizes.tolist()).toEqual(c.batchSizes);
      expect(packed.sortedIndices === null ? null : packed.sortedIndices.tolist()).toEqual(c.sortedIndices);
      const h0 = c.h0 ? fromG(c.h0).requiresGrad_(true) : null;
      const c0 = c.c0 ? fromG(c.c0).requiresGrad_(true) : null;
      let out: torch.nn.utils.rnn.PackedSequence;
      let hn: torch.Tensor;
      let cn: torch.Tensor | null = null;
      if (m instanceof nn.LSTM) [out, [hn, cn]] = m.forward(packed, h0 && c0 ? [h0, c0] : null);
      else [out, hn] = (m as torch.nn.GRU).forward(packed, h0);
      expectClose(out.data, c.outData, 'output data');
      expect(out.batchSizes).toBe(packed.batchSizes);
      const [padded, lens] = rnn.padPackedSequence(out, { batchFirst, paddingValue: -1.0, totalLength: Math.max(...c.lengths) + 1 });
      expectClose(padded, c.padded, 'padded output');
      expect(lens.tolist()).toEqual(c.padLengths);
      expectClose(hn, c.hn, 'h_n');
      let loss = padded.mul(fromG(c.r)).sum().add(hn.mul(fromG(c.rh)).sum());
      if (cn !== null) {
        expectClose(cn, c.cn!, 'c_n');
        loss = loss.add(cn.mul(fromG(c.rc!)).sum());
      }
      loss.backward();
      for (const [k, p] of m.namedParameters()) expectClose(p.grad!, c.grads[k], `grad ${k}`);
      expectClose(x.grad!, c.xGrad, 'input grad');
      if (h0) expectClose(h0.grad!, c.h0Grad!, 'h0 grad');
      if (c0) expectClose(c0.grad!, c.c0Grad!, 'c0 grad');
    });
  }

  it('padSequence and packSequence', () => {
    const g = golden.padSequence as { seqs: G[]; padded: G; paddedBatchFirst: G; packData: G; packBatchSizes: number[]; packSorted: number[]; packUnsorted: number[] };
    const seqs = g.seqs.map(fromG);
    expectClose(rnn.padSequence(seqs), g.padded, 'padSequence', 0, 0);
    expectClose(rnn.padSequence(seqs, { batchFirst: true, paddingValue: 7 }), g.paddedBatchFirst, 'padSequence batchFirst', 0, 0);
    const p = rnn.packSequence(seqs, { enforceSorted: false });
    expectClose(p.data, g.packData, 'packSequence', 0, 0);
    expect(p.batchSizes.tolist()).toEqual(g.packBatchSizes);
    expect(p.sortedIndices!.tolist()).toEqual(g.packSorted);
    expect(p.unsortedIndices!.tolist()).toEqual(g.packUnsorted);
    const [data, batchSizes] = p;
    expect([data, batchSizes]).toEqual([p.data, p.batchSizes]);
  });

  it("PyTorch's errors", () => {
    const bad = (f: () => unknown, cls: typeof torch.TorchError, msg: string) => {
      expect(f).toThrow(cls);
      expect(f).toThrow(msg);
    };
    const x = torch.randn(5, 3, 2);
    bad(() => rnn.packPaddedSequence(x, [2, 4, 1]), torch.TorchError, 'pack_padded_sequence: `lengths` array must be sorted in decreasing order when `enforce_sorted` is True');
    bad(() => rnn.packPaddedSequence(x, [4, 2, 0]), torch.TorchError, "pack_padded_sequence: Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0");
    bad(() => rnn.packPaddedSequence(x, [4, 2]), torch.ShapeError, 'pack_padded_sequence: Expected `len(lengths)` to be equal to batch_size, but got 2 (batch_size=3)');
    const p = rnn.packPaddedSequence(x, [4, 2, 1]);
    bad(() => rnn.padPackedSequence(p, { totalLength: 3 }), torch.ValueError, 'pad_packed_sequence: Expected total_length to be at least the length of the longest sequence in input, but got total_length=3 and max sequence length being 4');
    bad(() => new nn.LSTM(2, 3).forward(p, [torch.zeros(1, 2, 3), torch.zeros(1, 2, 3)]), torch.ShapeError, 'LSTM: Expected hidden[0] size (1, 3, 3), got [1, 2, 3]');
    bad(() => new nn.GRU(2, 3).forward(p, torch.zeros(1, 2, 3)), torch.ShapeError, 'GRU: Expected hidden size (1, 3, 3), got [1, 2, 3]');
    bad(() => new nn.GRU(4, 3).forward(p), torch.ShapeError, 'GRU: input.size(-1) must be equal to input_size. Expected 4, got 2');
  });
});

describe('reprs', () => {
  const r = golden.reprs as Record<string, string>;
  const got: Record<string, () => torch.nn.Module> = {
    'RNN(4,3)': () => new nn.RNN(4, 3),
    'RNN(4,3,2,relu,bias=False,batch_first,dropout=0.5,bidirectional)': () =>
      new nn.RNN(4, 3, 2, { nonlinearity: 'relu', bias: false, batchFirst: true, dropout: 0.5, bidirectional: true }),
    'LSTM(4,3,2,proj_size=2,bias=False,batch_first,dropout=0.5,bidirectional)': () =>
      new nn.LSTM(4, 3, 2, false, true, 0.5, true, 2),
    'GRU(4,3,dropout=1)': () => new nn.GRU(4, 3, { dropout: 1 }),
    'RNNCell(4,3,bias=False,relu)': () => new nn.RNNCell(4, 3, false, 'relu'),
    'LSTMCell(4,3)': () => new nn.LSTMCell(4, 3),
    'GRUCell(4,3,bias=False)': () => new nn.GRUCell(4, 3, { bias: false }),
  };
  it('covers every golden', () => expect(Object.keys(got).sort()).toEqual(Object.keys(r).sort()));
  for (const [k, make] of Object.entries(got)) it(k, () => expect(make().toString()).toBe(r[k]));
});

describe("PyTorch's errors", () => {
  const bad = (f: () => unknown, cls: typeof torch.TorchError, msg: string) => {
    expect(f).toThrow(cls);
    expect(f).toThrow(msg);
  };
  it('constructor arguments', () => {
    bad(() => new nn.RNN(4, 3, { nonlinearity: 'foo' as 'tanh' }), torch.ValueError, "RNN: Unknown nonlinearity 'foo'");
    bad(() => new nn.GRU(4, 3, { projSize: 2 } as object), torch.ValueError, 'GRU: proj_size argument is only supported for LSTM, not RNN or GRU');
    bad(() => new nn.RNN(4, 3, { projSize: 0 } as object), torch.ValueError, 'RNN: proj_size argument is only supported for LSTM, not RNN or GRU');
    bad(() => new nn.LSTM(4, 3, { projSize: 3 }), torch.ValueError, 'LSTM: proj_size has to be smaller than hidden_size');
    bad(() => new nn.LSTM(4, 3, { projSize: -1 }), torch.ValueError, 'LSTM: proj_size should be a positive integer or zero to disable projections');
    bad(() => new nn.LSTM(4, 3, { dropout: 1.5 }), torch.ValueError, 'LSTM: dropout should be a number in range [0, 1]');
    bad(() => new nn.LSTM(4, 3, { bogus: 1 } as object), torch.TorchTypeError, "LSTM.__init__() got an unexpected keyword argument 'bogus'");
  });
  it('input and state shapes of the layers', () => {
    const l = new nn.LSTM(4, 3, 2);
    const r = torch.randn;
    bad(() => l(r(5, 2, 3)), torch.ShapeError, 'LSTM: input.size(-1) must be equal to input_size. Expected 4, got 3');
    bad(() => l(r(5, 2, 2, 4)), torch.ShapeError, 'LSTM: input must have 3 dimensions, got 5');
    bad(() => l(r(5, 2, 4), [r(2, 3, 3), r(2, 2, 3)]), torch.ShapeError, 'LSTM: Expected hidden[0] size (2, 2, 3), got [2, 3, 3]');
    bad(() => l(r(5, 2, 4), [r(2, 2, 3), r(2, 3, 3)]), torch.ShapeError, 'LSTM: Expected hidden[1] size (2, 2, 3), got [2, 3, 3]');
    bad(() => l(r(5, 2, 4), [r(2, 3), r(2, 2, 3)]), torch.ShapeError, 'LSTM: For batched 3-D input, hx and cx should also be 3-D but got (2-D, 3-D) tensors');
    bad(() => l(r(5, 4), [r(2, 2, 3), r(2, 2, 3)]), torch.ShapeError, 'LSTM: For unbatched 2-D input, hx and cx should also be 2-D but got (3-D, 3-D) tensors');
    const g = new nn.GRU(4, 3);
    bad(() => g(r(5, 2, 4), r(2, 3)), torch.ShapeError, 'GRU: For batched 3-D input, hx should also be 3-D but got 2-D tensor');
    bad(() => g(r(5, 4), r(1, 2, 3)), torch.ShapeError, 'GRU: For unbatched 2-D input, hx should also be 2-D but got 3-D tensor');
    bad(() => g(r(5, 2, 4), r(1, 3, 3)), torch.ShapeError, 'GRU: Expected hidden size (1, 2, 3), got [1, 3, 3]');
    const p = new nn.LSTM(4, 5, { projSize: 2 });
    bad(() => p(r(5, 2, 4), [r(1, 2, 5), r(1, 2, 5)]), torch.ShapeError, 'LSTM: Expected hidden[0] size (1, 2, 2), got [1, 2, 5]');
  });
  it('input and state shapes of the cells', () => {
    const r = torch.randn;
    const c = new nn.LSTMCell(4, 3);
    bad(() => c(r(2, 5)), torch.ShapeError, 'LSTMCell: input has inconsistent input_size: got 5 expected 4');
    bad(() => c(r(2, 4), [r(3, 3), r(2, 3)]), torch.ShapeError, "LSTMCell: Input batch size 2 doesn't match hidden0 batch size 3");
    bad(() => c(r(2, 4), [r(2, 4), r(2, 3)]), torch.ShapeError, 'LSTMCell: hidden0 has inconsistent hidden_size: got 4, expected 3');
    bad(() => c(r(2, 4), [r(2, 3), r(2, 4)]), torch.ShapeError, 'LSTMCell: hidden0 has inconsistent hidden_size: got 4, expected 3');
    bad(() => c(r(2, 2, 4)), torch.ShapeError, 'LSTMCell: Expected input to be 1-D or 2-D but received 3-D tensor');
    const g = new nn.GRUCell(4, 3);
    bad(() => g(r(2, 4), r(2, 5)), torch.ShapeError, 'GRUCell: hidden0 has inconsistent hidden_size: got 5, expected 3');
    bad(() => g(r(4), r(2, 3)), torch.ShapeError, 'GRUCell: hidden0 has inconsistent hidden_size: got 2, expected 3');
    bad(() => new nn.RNNCell(4, 3, { nonlinearity: 'foo' as 'tanh' })(r(4)), torch.TorchError, 'RNNCell: Unknown nonlinearity: foo');
  });
});

describe('a 2-layer LSTM language model trained five Adam steps equals PyTorch', () => {
  class LM extends nn.Module {
    declare embed: torch.nn.Embedding;
    declare lstm: torch.nn.LSTM;
    declare head: torch.nn.Linear;
    constructor(vocab: number, emb: number, hidden: number) {
      super();
      this.embed = new nn.Embedding(vocab, emb);
      this.lstm = new nn.LSTM(emb, hidden, { numLayers: 2 });
      this.head = new nn.Linear(hidden, vocab);
    }
    override forward(tokens: torch.Tensor): torch.Tensor {
      const [out] = this.lstm(this.embed(tokens));
      return this.head(out);
    }
  }
  it('losses per step and final state (CPU, float32)', () => {
    const g = golden.lm as { tokens: number[][]; losses: number[]; state: Record<string, G> };
    torch.manualSeed(800);
    const lm = new LM(11, 6, 8);
    const tokens = torch.tensor(g.tokens);
    const inp = tokens.narrow(0, 0, 8);
    const tgt = tokens.narrow(0, 1, 8);
    const opt = new torch.optim.Adam(lm.parameters(), { lr: 0.02 });
    const losses: number[] = [];
    for (let i = 0; i < 5; i++) {
      opt.zeroGrad();
      const loss = torch.nn.functional.crossEntropy(lm(inp).reshape(-1, 11), tgt.reshape(-1));
      loss.backward();
      opt.step();
      losses.push(Number(loss.item()));
    }
    losses.forEach((l, i) => expect(Math.abs(l - g.losses[i]), `loss ${i}`).toBeLessThanOrEqual(1e-5));
    for (const [k, t] of lm.stateDict()) expectClose(t, g.state[k], k, 1e-5, 1e-5);
  });
});
