/**
 * nn.TransformerDecoderLayer, TransformerDecoder, TransformerEncoder and Transformer against
 * PyTorch 1.13 (scripts/goldens/nn_transformer.py): initial values after manualSeed (the
 * stacks' layers are copies of the layer given; Transformer re-draws its matrices with
 * xavier_uniform_), outputs, every parameter's gradient and the inputs' gradients, with
 * causal float masks, bool masks, key padding masks, batchFirst, normFirst, gelu, an
 * activation module and unbatched input. Tolerances are PyTorch's own for float32
 * (rtol 1.3e-6, atol 1e-5); initial values must be exact.
 */
import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { expectCloseToGolden as expectClose, fromGolden as fromG, type GoldenTensor as G } from './layer-goldens';
import golden from './goldens/nn_transformer.json';

const { nn } = torch;


type Case = { y: G; r: G; state: Record<string, G>; grads: Record<string, G> } & Record<string, G | boolean[][] | Record<string, G>>;
const C = golden.cases as unknown as Record<string, Case>;

function checkModule(m: torch.nn.Module, c: Case): void {
  const sd = m.stateDict();
  expect([...sd.keys()]).toEqual(Object.keys(c.state));
  for (const [k, t] of sd) expectClose(t, c.state[k], `state ${k}`, 0, 0); // PyTorch's initial values exactly
  const names = [...m.namedParameters()].map(([k]) => k);
  expect(names).toEqual(Object.keys(c.grads));
  for (const [k, p] of m.namedParameters()) expectClose(p.grad!, c.grads[k], `grad ${k}`);
}

const g = (c: Case, k: string) => fromG(c[k] as G).requiresGrad_(true);
const b = (c: Case, k: string) => torch.tensor(c[k] as boolean[][]);
const causal = (n: number) => nn.Transformer.generateSquareSubsequentMask(n);

// name -> [seed, module, inputs (names in the golden), run]
type Run = (m: torch.nn.Module, x: Record<string, torch.Tensor>, c: Case) => unknown;
const cases: Record<string, [number, () => torch.nn.Module, string[], Run]> = {
  'layer post-norm relu causal': [
    800,
    () => new nn.TransformerDecoderLayer(8, 2, { dimFeedforward: 16, dropout: 0.0 }),
    ['tgt', 'memory'],
    (m, x) => m(x.tgt, x.memory, { tgtMask: causal(3) }),
  ],
  'layer pre-norm gelu batchFirst masks': [
    801,
    () => new nn.TransformerDecoderLayer(8, 4, { dimFeedforward: 12, dropout: 0.0, activation: 'gelu', batchFirst: true, normFirst: true }),
    ['tgt', 'memory'],
    (m, x, c) =>
      m(x.tgt, x.memory, {
        tgtMask: torch.ones([3, 3], { dtype: 'bool' }).triu(1),
        memoryMask: b(c, 'memoryMask'),
        tgtKeyPaddingMask: b(c, 'tgtKpm'),
        memoryKeyPaddingMask: b(c, 'memoryKpm'),
      }),
  ],
  'layer unbatched GELU(tanh) module': [
    802,
    () => new nn.TransformerDecoderLayer(4, 1, { dimFeedforward: 6, dropout: 0.0, activation: new nn.GELU({ approximate: 'tanh' }) }),
    ['tgt', 'memory'],
    (m, x) => m(x.tgt, x.memory),
  ],
  'decoder 2 layers norm causal': [
    810,
    () => new nn.TransformerDecoder(new nn.TransformerDecoderLayer(8, 2, { dimFeedforward: 16, dropout: 0.0 }), 2, { norm: new nn.LayerNorm(8) }),
    ['tgt', 'memory'],
    (m, x) => m(x.tgt, x.memory, { tgtMask: causal(4), tgtIsCausal: true }),
  ],
  'encoder 3 layers batchFirst kpm': [
    811,
    () => new nn.TransformerEncoder(new nn.TransformerEncoderLayer(8, 2, { dimFeedforward: 16, dropout: 0.0, batchFirst: true }), 3),
    ['src'],
    (m, x, c) => m(x.src, { srcKeyPaddingMask: b(c, 'srcKpm') }),
  ],
  'transformer post-norm causal': [
    820,
    () => new nn.Transformer({ dModel: 8, nhead: 2, numEncoderLayers: 2, numDecoderLayers: 2, dimFeedforward: 16, dropout: 0.0 }),
    ['src', 'tgt'],
    (m, x) => m(x.src, x.tgt, { tgtMask: causal(3) }),
  ],
  'transformer pre-norm gelu batchFirst kpm': [
    821,
    () => new nn.Transformer(8, 4, 1, 2, 12, 0.0, 'gelu', null, null, 1e-5, true, true),
    ['src', 'tgt'],
    (m, x, c) => m(x.src, x.tgt, { tgtMask: causal(3), srcKeyPaddingMask: b(c, 'srcKpm'), tgtKeyPaddingMask: b(c, 'tgtKpm'), memoryKeyPaddingMask: b(c, 'srcKpm') }),
  ],
};

describe('Transformer modules equal PyTorch (float32, eval, dropout 0)', () => {
  it('covers every golden', () => expect(Object.keys(cases).sort()).toEqual(Object.keys(C).sort()));
  for (const [name, [seed, make, inputs, run]] of Object.entries(cases)) {
    it(name, () => {
      const c = C[name];
      torch.manualSeed(seed);
      const m = make().eval();
      const x = Object.fromEntries(inputs.map((k) => [k, g(c, k)]));
      const y = run(m, x, c) as torch.Tensor;
      expectClose(y, c.y, 'output');
      y.mul(fromG(c.r)).sum().backward();
      checkModule(m, c);
      for (const k of inputs) expectClose(x[k].grad!, c[`${k}Grad`] as G, `${k} grad`);
    });
  }

  it('generateSquareSubsequentMask and reprs', () => {
    const want = golden.squareSubsequentMask4;
    const m = nn.Transformer.generateSquareSubsequentMask(4);
    expect(m.dtype).toBe('float32');
    expect(m.isinf().logicalAnd(m.lt(0)).tolist()).toEqual(want.isNegInf);
    expect(m.nanToNum(0, 0, 0).tolist()).toEqual(want.finite);
    expect(nn.Transformer.generateSquareSubsequentMask(2, { dtype: 'float64' }).dtype).toBe('float64');
    const r = golden.reprs as Record<string, string>;
    expect(new nn.TransformerDecoderLayer(8, 2, { dimFeedforward: 16 }).toString()).toBe(r['TransformerDecoderLayer(8,2,16)']);
    expect(new nn.TransformerDecoder(new nn.TransformerDecoderLayer(4, 2, { dimFeedforward: 8 }), 2, { norm: new nn.LayerNorm(4) }).toString()).toBe(
      r['TransformerDecoder(layer(4,2,8),2,norm)'],
    );
    expect(new nn.Transformer(4, 2, 1, 1, 8).toString()).toBe(r['Transformer(4,2,1,1,8)']);
  });

  it('stacks hold independent copies of the layer, with its weights', () => {
    const layer = new nn.TransformerDecoderLayer(4, 2, { dimFeedforward: 8, activation: new nn.ReLU() });
    const dec = new nn.TransformerDecoder(layer, 2);
    const [l0, l1] = [...dec.layers] as torch.nn.TransformerDecoderLayer[];
    expect(l0).toBeInstanceOf(nn.TransformerDecoderLayer);
    expect(l0).not.toBe(layer);
    expect(l0.linear1.weight).not.toBe(l1.linear1.weight);
    expect(l0.linear1.weight.tolist()).toEqual(layer.linear1.weight.tolist());
    expect(l0.linear1.weight.isLeaf && l0.linear1.weight.requiresGrad).toBe(true);
    expect(Reflect.get(l0, 'activation')).not.toBe(Reflect.get(layer, 'activation'));
    expect(Reflect.get(l0, 'activation')).toBeInstanceOf(nn.ReLU);
    torch.noGrad(() => l0.linear1.weight.fill_(0));
    expect(l1.linear1.weight.abs().sum().item()).toBeGreaterThan(0);
    expect(layer.linear1.weight.abs().sum().item()).toBeGreaterThan(0);
    expect([...dec.stateDict().keys()].filter((k) => k.startsWith('layers.1.')).length).toBe([...layer.stateDict().keys()].length);
  });

  it('errors name the module and what was wrong', () => {
    const tf = new nn.Transformer({ dModel: 4, nhead: 2, numEncoderLayers: 1, numDecoderLayers: 1, dimFeedforward: 8 });
    expect(() => tf(torch.randn(3, 2, 4), torch.randn(3, 1, 4))).toThrow(/^Transformer: the batch number of src and tgt must be equal/);
    expect(() => tf(torch.randn(3, 2, 4), torch.randn(3, 2, 5))).toThrow(/^Transformer: the feature number of src and tgt must be equal to d_model \(4\)/);
    const layer = new nn.TransformerDecoderLayer(4, 2, { dimFeedforward: 8 });
    expect(() => layer(torch.randn(3, 4), torch.randn(2, 4), { tgtIsCausal: true })).toThrow(/^TransformerDecoderLayer: Need attn_mask if specifying the is_causal hint/);
    expect(() => new nn.TransformerDecoderLayer(4, 2, { activation: 'tanh' as never })).toThrow(/^TransformerDecoderLayer: activation should be relu\/gelu, not tanh/);
    expect(() => new nn.TransformerDecoder({} as never, 2)).toThrow(/^TransformerDecoder: the layer to stack must be an nn.Module/);
    expect(() => new nn.TransformerEncoder(new nn.TransformerEncoderLayer(4, 2), 1)(torch.randn(3, 1, 4), { srcKeyPaddingMask: torch.zeros([1, 3], { dtype: 'int64' }) })).toThrow(
      /^TransformerEncoder: only bool and floating types of key_padding_mask are supported, but got int64/,
    );
    expect(() => new nn.TransformerDecoderLayer(4, 2, { x: 1 } as never)).toThrow("TransformerDecoderLayer.__init__() got an unexpected keyword argument 'x'");
    expect(() => new nn.TransformerDecoderLayer(4, 2, { activation: () => 3 as never })(torch.randn(3, 4), torch.randn(2, 4))).toThrow(
      /^TransformerDecoderLayer: the activation returned number, not a Tensor/,
    );
  });
});
