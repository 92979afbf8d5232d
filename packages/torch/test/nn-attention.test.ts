import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { expectCloseToGolden as expectClose, fromGolden as fromG, type GoldenTensor as G } from './layer-goldens';
import golden from './goldens/nn_attention.json';

const { nn } = torch;


type MhaCase = { q: G; k?: G; v?: G; y: G; r: G; w: G | null; state: Record<string, G>; grads: Record<string, G>; qGrad: G; kpm?: boolean[][]; am?: G | boolean[][] };
const M = golden.mha as unknown as Record<string, MhaCase>;

function checkModule(m: torch.nn.Module, c: { state: Record<string, G>; grads: Record<string, G> }): void {
  const sd = m.stateDict();
  expect([...sd.keys()]).toEqual(Object.keys(c.state));
  for (const [k, t] of sd) expectClose(t, c.state[k], `state ${k}`, 0, 0); // PyTorch's initial values exactly
  for (const [k, p] of m.namedParameters()) expectClose(p.grad!, c.grads[k], `grad ${k}`);
}

describe('MultiheadAttention equals PyTorch', () => {
  const cases: Record<string, [number, () => torch.nn.MultiheadAttention, (c: MhaCase) => torch.nn.MultiheadAttentionForwardOptions]> = {
    self: [500, () => new nn.MultiheadAttention(8, 2), () => ({})],
    'self,averageAttnWeights=False': [501, () => new nn.MultiheadAttention(8, 2), () => ({ averageAttnWeights: false })],
    'batchFirst,masks': [
      502,
      () => new nn.MultiheadAttention(8, 4, { batchFirst: true }),
      (c) => ({ keyPaddingMask: torch.tensor(c.kpm!), attnMask: fromG(c.am as G) }),
    ],
    'causalBool,noWeights': [503, () => new nn.MultiheadAttention(6, 3), (c) => ({ attnMask: torch.tensor(c.am as boolean[][]), needWeights: false })],
    cross: [504, () => new nn.MultiheadAttention(4, 2), () => ({})],
    'unbatched,noBias': [505, () => new nn.MultiheadAttention(4, 1, { bias: false }), () => ({})],
  };
  it('covers every golden', () => expect(Object.keys(cases).sort()).toEqual(Object.keys(M).sort()));
  for (const [name, [seed, make, opts]] of Object.entries(cases)) {
    it(name, () => {
      const c = M[name];
      torch.manualSeed(seed);
      const m = make();
      const q = fromG(c.q).requiresGrad_(true);
      const k = c.k ? fromG(c.k) : q;
      const v = c.v ? fromG(c.v) : q;
      const [y, w] = m.call(q, k, v, opts(c)) as [torch.Tensor, torch.Tensor | null];
      expectClose(y, c.y, 'output');
      if (c.w === null) expect(w).toBeNull();
      else expectClose(w!, c.w, 'weights');
      y.mul(fromG(c.r)).sum().backward();
      checkModule(m, c);
      expectClose(q.grad!, c.qGrad, 'query grad');
    });
  }
});

describe('TransformerEncoderLayer equals PyTorch', () => {
  type EncCase = { x: G; y: G; r: G; state: Record<string, G>; grads: Record<string, G>; xGrad: G; kpm?: boolean[][] };
  const E = golden.encoder as unknown as Record<string, EncCase>;
  const cases: Record<string, [number, () => torch.nn.TransformerEncoderLayer]> = {
    'post-norm relu': [600, () => new nn.TransformerEncoderLayer(8, 2, { dimFeedforward: 16, dropout: 0.0 })],
    'pre-norm gelu batchFirst kpm': [
      601,
      () => new nn.TransformerEncoderLayer(8, 4, { dimFeedforward: 12, dropout: 0.0, activation: 'gelu', batchFirst: true, normFirst: true }),
    ],
  };
  for (const [name, [seed, make]] of Object.entries(cases)) {
    it(name, () => {
      const c = E[name];
      torch.manualSeed(seed);
      const m = make();
      const x = fromG(c.x).requiresGrad_(true);
      const y = m.call(x, c.kpm ? { srcKeyPaddingMask: torch.tensor(c.kpm) } : {}) as torch.Tensor;
      expectClose(y, c.y, 'output');
      y.mul(fromG(c.r)).sum().backward();
      checkModule(m, c);
      expectClose(x.grad!, c.xGrad, 'input grad');
    });
  }
  it('reprs', () => {
    const r = golden.reprs as Record<string, string>;
    expect(new nn.MultiheadAttention(8, 2).toString()).toBe(r['MultiheadAttention(8,2)']);
    expect(new nn.TransformerEncoderLayer(8, 2, { dimFeedforward: 16 }).toString()).toBe(r['TransformerEncoderLayer(8,2,16)']);
  });
});
