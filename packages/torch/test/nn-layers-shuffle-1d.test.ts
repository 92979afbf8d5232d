/**
 * ConvTranspose1d, MaxPool1d, AvgPool1d, AdaptiveAvgPool1d, PixelShuffle, PixelUnshuffle,
 * ChannelShuffle, Unfold and Fold against PyTorch 1.13 (goldens/nn_layers_shuffle_1d.json from
 * scripts/goldens/nn_layers_shuffle_1d.py): init, forward, input and weight gradients, state
 * dict and repr per layer; F.max_pool1d's indices; PyTorch's error messages; gradcheck in
 * float64 of each new functional.
 */
import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_layers_shuffle_1d.json';
import { expectCloseToGolden as expectClose, fromGolden as fromG, type GoldenTensor as G } from './layer-goldens';

const { nn } = torch;
const F = nn.functional;

interface Case {
  x: G;
  y: G;
  r: G;
  grads: Record<string, G>;
  state: Record<string, G>;
  xGrad: G;
  repr: string;
}

const L = golden.layers as Record<string, Case>;
const makers: Record<string, [number, () => torch.nn.Module]> = {
  'ConvTranspose1d(2,4,3,stride=2,output_padding=1,groups=2,bias=False)': [
    500,
    () => new nn.ConvTranspose1d(2, 4, 3, { stride: 2, outputPadding: 1, groups: 2, bias: false }),
  ],
  'ConvTranspose1d(3,2,3,stride=2,padding=1,dilation=2)': [501, () => new nn.ConvTranspose1d(3, 2, 3, { stride: 2, padding: 1, dilation: 2 })],
  'ConvTranspose1d(3,2,2) unbatched': [502, () => new nn.ConvTranspose1d(3, 2, 2)],
  'MaxPool1d(3,2,1,2,ceil_mode=True)': [503, () => new nn.MaxPool1d(3, 2, 1, 2, { ceilMode: true })],
  'MaxPool1d(2) unbatched': [504, () => new nn.MaxPool1d(2)],
  'MaxPool1d(4,stride=1,padding=2)': [505, () => new nn.MaxPool1d(4, { stride: 1, padding: 2 })],
  'AvgPool1d(3,2,1,ceil_mode=True,count_include_pad=False)': [506, () => new nn.AvgPool1d(3, 2, 1, { ceilMode: true, countIncludePad: false })],
  'AvgPool1d(3,stride=2,padding=1)': [507, () => new nn.AvgPool1d(3, { stride: 2, padding: 1 })],
  'AvgPool1d(2) unbatched': [508, () => new nn.AvgPool1d(2)],
  'AdaptiveAvgPool1d(3)': [509, () => new nn.AdaptiveAvgPool1d(3)],
  'AdaptiveAvgPool1d(4) unbatched': [510, () => new nn.AdaptiveAvgPool1d(4)],
  'PixelShuffle(2)': [511, () => new nn.PixelShuffle(2)],
  'PixelShuffle(3) 5-d': [512, () => new nn.PixelShuffle(3)],
  'PixelShuffle(2) unbatched': [513, () => new nn.PixelShuffle(2)],
  'PixelUnshuffle(2)': [514, () => new nn.PixelUnshuffle(2)],
  'PixelUnshuffle(3) unbatched': [515, () => new nn.PixelUnshuffle(3)],
  'ChannelShuffle(2)': [516, () => new nn.ChannelShuffle(2)],
  'ChannelShuffle(3)': [517, () => new nn.ChannelShuffle({ groups: 3 })],
  'Unfold((2,3),dilation=2,padding=1,stride=(1,2))': [518, () => new nn.Unfold([2, 3], { dilation: 2, padding: 1, stride: [1, 2] })],
  'Fold((4,5),2)': [519, () => new nn.Fold([4, 5], 2)],
  'Fold(5,(2,3),padding=1,stride=2) unbatched': [521, () => new nn.Fold(5, [2, 3], { padding: 1, stride: 2 })],
};

describe('ConvTranspose1d, 1-d pooling and the shuffles: PyTorch init, forward, backward, state and repr', () => {
  it('covers every golden', () => expect(Object.keys(makers).sort()).toEqual(Object.keys(L).sort()));
  it('each layer', () => {
    for (const [name, [seed, make]] of Object.entries(makers)) {
      const c = L[name];
      torch.manualSeed(seed);
      const m = make();
      expect(m.toString(), name).toBe(c.repr);
      const x = fromG(c.x).requiresGrad_(true);
      const y = m.call(x) as torch.Tensor;
      expectClose(y, c.y, `${name} output`);
      y.mul(fromG(c.r)).sum().backward();
      expect([...m.namedParameters()].map(([k]) => k), name).toEqual(Object.keys(c.grads));
      for (const [k, p] of m.namedParameters()) expectClose(p.grad!, c.grads[k], `${name} grad ${k}`);
      expectClose(x.grad!, c.xGrad, `${name} input grad`);
      const sd = m.stateDict();
      expect([...sd.keys()], name).toEqual(Object.keys(c.state));
      for (const [k, t] of sd) expectClose(t, c.state[k], `${name} state ${k}`);
    }
  });

  it('reprs', () => {
    const R = golden.reprs as Record<string, string>;
    const got: Record<string, torch.nn.Module> = {
      'MaxPool1d(3)': new nn.MaxPool1d(3),
      'MaxPool1d(3,2,1,2,True,True)': new nn.MaxPool1d(3, 2, 1, 2, true, true),
      'AvgPool1d(3)': new nn.AvgPool1d(3),
      'AvgPool1d(3,2,1,True,False)': new nn.AvgPool1d(3, 2, 1, true, false),
      'AdaptiveAvgPool1d(3)': new nn.AdaptiveAvgPool1d(3),
      'ConvTranspose1d(2,4,3)': new nn.ConvTranspose1d(2, 4, 3),
      'PixelShuffle(2)': new nn.PixelShuffle(2),
      'PixelUnshuffle(3)': new nn.PixelUnshuffle(3),
      'ChannelShuffle(2)': new nn.ChannelShuffle(2),
      'Unfold(2)': new nn.Unfold(2),
      'Fold(4,(2,2),1,0,1)': new nn.Fold(4, [2, 2], 1, 0, 1),
    };
    expect(Object.keys(got).sort()).toEqual(Object.keys(R).sort());
    for (const [k, m] of Object.entries(got)) expect(m.toString(), k).toBe(R[k]);
  });

  it('F.max_pool1d with returnIndices, and MaxPool1d(returnIndices) returning the pair', () => {
    const g = golden.indices as { x: G; values: G; indices: G };
    const x = fromG(g.x);
    const [v, i] = F.maxPool1d(x, 3, { stride: 2, padding: 1, dilation: 2, returnIndices: true });
    expectClose(v, g.values, 'values');
    expect(i.dtype).toBe('int64');
    expect(i.shape).toEqual(g.indices.shape);
    expect(Array.from(i.dataSync() as Float64Array, Number)).toEqual(g.indices.values);
    const pair = new nn.MaxPool1d(3, 2, 1, 2, true).call(x) as unknown as torch.Tensor[];
    expect(Array.from(pair[1].dataSync() as Float64Array, Number)).toEqual(g.indices.values);
  });
});

describe("PyTorch's errors", () => {
  const E = golden.errors as Record<string, string>;
  const r = (...s: number[]) => torch.randn(s);
  const x3 = r(2, 3, 5);
  const calls: Record<string, [string, () => unknown]> = {
    'max_pool1d 1-d input': ['max_pool1d', () => F.maxPool1d(r(5), 2)],
    'max_pool1d kernel 0': ['max_pool1d', () => F.maxPool1d(x3, 0)],
    'max_pool1d stride 0': ['max_pool1d', () => F.maxPool1d(x3, 2, { stride: 0 })],
    'max_pool1d padding > kernel/2': ['max_pool1d', () => F.maxPool1d(x3, 2, { padding: 2 })],
    'max_pool1d kernel > input': ['max_pool1d', () => F.maxPool1d(x3, 7)],
    'avg_pool1d 1-d input': ['avg_pool1d', () => F.avgPool1d(r(5), 2)],
    'avg_pool1d kernel > input': ['avg_pool1d', () => F.avgPool1d(x3, 7)],
    'avg_pool1d padding > kernel/2': ['avg_pool1d', () => F.avgPool1d(x3, 3, { padding: 2 })],
    'adaptive_avg_pool1d 1-d input': ['adaptive_avg_pool1d', () => F.adaptiveAvgPool1d(r(5), 2)],
    'pixel_shuffle channels': ['pixel_shuffle', () => F.pixelShuffle(r(1, 5, 2, 2), 2)],
    'pixel_shuffle 2-d input': ['pixel_shuffle', () => F.pixelShuffle(r(5, 2), 2)],
    'pixel_shuffle factor 0': ['pixel_shuffle', () => F.pixelShuffle(r(1, 4, 2, 2), 0)],
    'pixel_unshuffle height': ['pixel_unshuffle', () => F.pixelUnshuffle(r(1, 1, 3, 4), 2)],
    'pixel_unshuffle width': ['pixel_unshuffle', () => F.pixelUnshuffle(r(1, 1, 4, 3), 2)],
    'pixel_unshuffle factor 0': ['pixel_unshuffle', () => F.pixelUnshuffle(r(1, 4, 2, 2), 0)],
    'channel_shuffle channels': ['channel_shuffle', () => F.channelShuffle(r(1, 5, 2, 2), 2)],
    'channel_shuffle groups 0': ['channel_shuffle', () => F.channelShuffle(r(1, 4, 2, 2), 0)],
    'channel_shuffle 1-d input': ['channel_shuffle', () => F.channelShuffle(r(4), 2)],
    'conv_transpose1d 4-d input': ['conv_transpose1d', () => F.convTranspose1d(r(1, 2, 3, 3), r(2, 2, 3))],
    'conv_transpose1d channels': ['conv_transpose1d', () => F.convTranspose1d(r(1, 3, 5), r(2, 2, 3))],
  };
  it('covers every golden', () => expect(Object.keys(calls).sort()).toEqual(Object.keys(E).sort()));
  it('each raises a TorchError naming the op, with PyTorch message', () => {
    for (const [k, [op, f]] of Object.entries(calls)) {
      let err: unknown = null;
      try {
        f();
      } catch (e) {
        err = e;
      }
      expect(err, k).toBeInstanceOf(torch.TorchError);
      const msg = (err as Error).message;
      expect(msg.startsWith(op), `${k}: ${msg}`).toBe(true);
      expect(msg, k).toContain(E[k]);
    }
  });
});

describe('gradcheck in float64', () => {
  const { gradcheck } = torch.autograd;
  const d = (...s: number[]) => torch.randn(s, { dtype: 'float64', requiresGrad: true });
  it('each new functional', async () => {
    torch.manualSeed(7);
    const cases: [string, (...t: torch.Tensor[]) => torch.Tensor, torch.Tensor[]][] = [
      ['conv_transpose1d', (x, w, b) => F.convTranspose1d(x, w, b, { stride: 2, padding: 1, outputPadding: 1, groups: 2, dilation: 2 }), [d(2, 4, 3), d(4, 1, 3), d(2)]],
      ['max_pool1d', (x) => F.maxPool1d(x, 3, { stride: 2, padding: 1, ceilMode: true }), [d(2, 2, 8)]],
      ['avg_pool1d', (x) => F.avgPool1d(x, 3, { stride: 2, padding: 1, ceilMode: true, countIncludePad: false }), [d(2, 2, 8)]],
      ['adaptive_avg_pool1d', (x) => F.adaptiveAvgPool1d(x, 3), [d(2, 7)]],
      ['pixel_shuffle', (x) => F.pixelShuffle(x, 2), [d(1, 8, 2, 3)]],
      ['pixel_unshuffle', (x) => F.pixelUnshuffle(x, 2), [d(2, 1, 4, 2)]],
      ['channel_shuffle', (x) => F.channelShuffle(x, 2), [d(2, 4, 3)]],
    ];
    for (const [name, f, inputs] of cases) expect(await gradcheck(f, inputs), name).toBe(true);
  });
});
