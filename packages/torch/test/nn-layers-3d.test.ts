/**
 * Issue 18's layers against PyTorch 1.13 (goldens/nn_layers_3d.json from
 * scripts/goldens/nn_layers_3d.py): Conv3d, ConvTranspose3d (and the conv padding modes),
 * MaxPool3d, AvgPool3d, AdaptiveAvgPool3d, AdaptiveMaxPool1d/2d/3d: init, forward, input and
 * weight gradients, state dict and repr per layer; the pools' indices; PyTorch's error
 * messages; gradcheck in float64 of each new functional.
 */
import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_layers_3d.json';
import { expectCloseToGolden as expectClose, fromGolden as fromG, type GoldenTensor as G } from './layer-goldens';

const { nn } = torch;
const F = nn.functional;

interface Case {
  x: G;
  args: G[];
  y: G;
  r: G;
  grads: Record<string, G>;
  state: Record<string, G>;
  xGrad: G;
  repr: string;
}

const L = { ...golden.layers, ...golden.upsample, ...golden.losses } as Record<string, Case>;
const makers: Record<string, [number, () => torch.nn.Module]> = {
  'Conv3d(2,4,3,stride=2,padding=1,groups=2)': [600, () => new nn.Conv3d(2, 4, 3, { stride: 2, padding: 1, groups: 2 })],
  'Conv3d(3,2,(2,3,2),dilation=(2,1,2),bias=False)': [601, () => new nn.Conv3d(3, 2, [2, 3, 2], { dilation: [2, 1, 2], bias: false })],
  'Conv3d(2,3,3,padding=same,padding_mode=reflect)': [602, () => new nn.Conv3d(2, 3, 3, { padding: 'same', paddingMode: 'reflect' })],
  'Conv3d(2,2,2,padding=1,padding_mode=circular)': [603, () => new nn.Conv3d(2, 2, 2, { padding: 1, paddingMode: 'circular' })],
  'Conv3d(2,2,(2,2,3),padding=same,padding_mode=replicate)': [604, () => new nn.Conv3d(2, 2, [2, 2, 3], { padding: 'same', paddingMode: 'replicate' })],
  'Conv3d(2,2,2,padding=same) unbatched': [605, () => new nn.Conv3d(2, 2, 2, { padding: 'same' })],
  'Conv2d(2,2,3,padding=1,padding_mode=reflect)': [606, () => new nn.Conv2d(2, 2, 3, { padding: 1, paddingMode: 'reflect' })],
  'Conv1d(2,2,3,padding=2,padding_mode=circular)': [607, () => new nn.Conv1d(2, 2, 3, { padding: 2, paddingMode: 'circular' })],
  'ConvTranspose3d(2,4,3,stride=2,padding=1,output_padding=1,groups=2)': [
    610,
    () => new nn.ConvTranspose3d(2, 4, 3, { stride: 2, padding: 1, outputPadding: 1, groups: 2 }),
  ],
  'ConvTranspose3d(3,2,(2,3,2),stride=(3,1,2),dilation=(2,1,1),bias=False)': [
    611,
    () => new nn.ConvTranspose3d(3, 2, [2, 3, 2], { stride: [3, 1, 2], dilation: [2, 1, 1], bias: false }),
  ],
  'ConvTranspose3d(2,2,2) unbatched': [612, () => new nn.ConvTranspose3d(2, 2, 2)],
  'MaxPool3d(2)': [620, () => new nn.MaxPool3d(2)],
  'MaxPool3d(3,2,1,dilation=(1,2,1),ceil_mode=True)': [621, () => new nn.MaxPool3d(3, 2, 1, { dilation: [1, 2, 1], ceilMode: true })],
  'MaxPool3d((2,1,3),stride=1) unbatched': [622, () => new nn.MaxPool3d([2, 1, 3], { stride: 1 })],
  'AvgPool3d(2)': [623, () => new nn.AvgPool3d(2)],
  'AvgPool3d(3,2,1,ceil_mode=True,count_include_pad=False)': [624, () => new nn.AvgPool3d(3, 2, 1, { ceilMode: true, countIncludePad: false })],
  'AvgPool3d((3,2,3),(2,1,2),(1,1,0),ceil_mode=True)': [625, () => new nn.AvgPool3d([3, 2, 3], [2, 1, 2], [1, 1, 0], { ceilMode: true })],
  'AvgPool3d(2,divisor_override=3) unbatched': [626, () => new nn.AvgPool3d(2, { divisorOverride: 3 })],
  'AdaptiveAvgPool3d((2,3,None))': [627, () => new nn.AdaptiveAvgPool3d([2, 3, null])],
  'AdaptiveAvgPool3d(3) unbatched': [628, () => new nn.AdaptiveAvgPool3d(3)],
  'AdaptiveMaxPool1d(4)': [630, () => new nn.AdaptiveMaxPool1d(4)],
  'AdaptiveMaxPool1d(3) unbatched': [631, () => new nn.AdaptiveMaxPool1d(3)],
  'AdaptiveMaxPool2d((3,None))': [632, () => new nn.AdaptiveMaxPool2d([3, null])],
  'AdaptiveMaxPool2d(4,return_indices=True)': [633, () => new nn.AdaptiveMaxPool2d(4, { returnIndices: true })],
  'AdaptiveMaxPool3d((2,3,4))': [634, () => new nn.AdaptiveMaxPool3d([2, 3, 4])],
  'AdaptiveMaxPool3d(2) unbatched': [635, () => new nn.AdaptiveMaxPool3d(2)],
  'Upsample(scale_factor=2,mode=linear)': [650, () => new nn.Upsample({ scaleFactor: 2, mode: 'linear' })],
  'Upsample(size=7,mode=linear,align_corners=True)': [651, () => new nn.Upsample({ size: 7, mode: 'linear', alignCorners: true })],
  'Upsample(scale_factor=(1.5,2.3),mode=bicubic)': [652, () => new nn.Upsample({ scaleFactor: [1.5, 2.3], mode: 'bicubic' })],
  'Upsample(size=(3,7),mode=bicubic,align_corners=True)': [653, () => new nn.Upsample({ size: [3, 7], mode: 'bicubic', alignCorners: true })],
  'Upsample(scale_factor=1.7,mode=bicubic,recompute_scale_factor=True)': [
    654,
    () => new nn.Upsample({ scaleFactor: 1.7, mode: 'bicubic', recomputeScaleFactor: true }),
  ],
  'Upsample(scale_factor=2,mode=trilinear)': [655, () => new nn.Upsample({ scaleFactor: 2, mode: 'trilinear' })],
  'Upsample(size=(3,2,5),mode=trilinear,align_corners=True)': [656, () => new nn.Upsample({ size: [3, 2, 5], mode: 'trilinear', alignCorners: true })],
  'Upsample(scale_factor=(0.5,1.5,2.5),mode=trilinear)': [657, () => new nn.Upsample({ scaleFactor: [0.5, 1.5, 2.5], mode: 'trilinear' })],
  'Upsample(size=(2,3),mode=area)': [658, () => new nn.Upsample({ size: [2, 3], mode: 'area' })],
  'Upsample(scale_factor=0.5,mode=area)': [659, () => new nn.Upsample({ scaleFactor: 0.5, mode: 'area' })],
  'Upsample(size=3,mode=area)': [660, () => new nn.Upsample({ size: 3, mode: 'area' })],
  'Upsample(scale_factor=(2,1,3),mode=nearest)': [661, () => new nn.Upsample({ scaleFactor: [2, 1, 3], mode: 'nearest' })],
  'Upsample(size=(3,5,2),mode=nearest)': [662, () => new nn.Upsample([3, 5, 2])],
  'MultiMarginLoss()': [670, () => new nn.MultiMarginLoss()],
  'MultiMarginLoss(p=2,margin=0.7,reduction=sum)': [671, () => new nn.MultiMarginLoss({ p: 2, margin: 0.7, reduction: 'sum' })],
  'MultiMarginLoss(weight,reduction=none)': [672, () => new nn.MultiMarginLoss({ weight: torch.tensor([0.5, 2.0, 1.0, 0.25]), reduction: 'none' })],
  'MultiMarginLoss() 1-d': [673, () => new nn.MultiMarginLoss({ reduction: 'none' })],
  'MultiLabelMarginLoss()': [674, () => new nn.MultiLabelMarginLoss()],
  'MultiLabelMarginLoss(reduction=none)': [675, () => new nn.MultiLabelMarginLoss({ reduction: 'none' })],
  'MultiLabelMarginLoss(reduction=sum) 1-d': [676, () => new nn.MultiLabelMarginLoss({ reduction: 'sum' })],
};

describe('3-d convolutions and pools, adaptive max pools: PyTorch init, forward, backward, state and repr', () => {
  it('covers every golden', () => expect(Object.keys(makers).sort()).toEqual(Object.keys(L).sort()));
  it('each layer', () => {
    for (const [name, [seed, make]] of Object.entries(makers)) {
      const c = L[name];
      torch.manualSeed(seed);
      const m = make();
      expect(m.toString(), name).toBe(c.repr);
      const x = fromG(c.x).requiresGrad_(true);
      const out = m.call(x, ...c.args.map(fromG)) as torch.Tensor | torch.Tensor[];
      const y = Array.isArray(out) ? out[0] : out;
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
      'Conv3d(2,4,3)': new nn.Conv3d(2, 4, 3),
      'Conv3d(2,4,(1,2,3),(2,1,1),padding=same,padding_mode=reflect,bias=False)': new nn.Conv3d(2, 4, [1, 2, 3], { padding: 'same', paddingMode: 'reflect', bias: false }),
      'ConvTranspose3d(2,4,3,2,1,1,groups=2,dilation=2)': new nn.ConvTranspose3d(2, 4, 3, 2, 1, 1, { groups: 2, dilation: 2 }),
      'MaxPool3d(3)': new nn.MaxPool3d(3),
      'MaxPool3d((3,2,1),2,1,2,True,True)': new nn.MaxPool3d([3, 2, 1], 2, 1, 2, true, true),
      'AvgPool3d(3)': new nn.AvgPool3d(3),
      'AvgPool3d(3,2,1,True,False,2)': new nn.AvgPool3d(3, 2, 1, true, false, 2),
      'AdaptiveAvgPool3d((2,None,3))': new nn.AdaptiveAvgPool3d([2, null, 3]),
      'AdaptiveMaxPool1d(3)': new nn.AdaptiveMaxPool1d(3),
      'AdaptiveMaxPool2d((2,None),True)': new nn.AdaptiveMaxPool2d([2, null], true),
      'AdaptiveMaxPool3d(2)': new nn.AdaptiveMaxPool3d(2),
      'EmbeddingBag(10,3)': new nn.EmbeddingBag(10, 3),
      'EmbeddingBag(10,3,max_norm=1.0,norm_type=1.0,scale_grad_by_freq=True,mode=max,padding_idx=-2,include_last_offset=True)': new nn.EmbeddingBag(10, 3, {
        maxNorm: 1.0,
        normType: 1.0,
        scaleGradByFreq: true,
        mode: 'max',
        paddingIdx: -2,
        includeLastOffset: true,
      }),
      'Upsample(scale_factor=2,mode=bicubic)': new nn.Upsample({ scaleFactor: 2, mode: 'bicubic' }),
      'Upsample(size=(3,4))': new nn.Upsample([3, 4]),
      'Upsample(scale_factor=(2,1.5),mode=area)': new nn.Upsample(null, [2, 1.5], 'area'),
      'MultiMarginLoss(p=2,margin=0.5)': new nn.MultiMarginLoss(2, 0.5),
      'MultiLabelMarginLoss()': new nn.MultiLabelMarginLoss(),
    };
    expect(Object.keys(got).sort()).toEqual(Object.keys(R).sort());
    for (const [k, m] of Object.entries(got)) expect(m.toString(), k).toBe(R[k]);
  });

  it("the max pools' indices (returnIndices), as PyTorch's", () => {
    const I = golden.indices as Record<string, { x: G; values: G; indices: G }>;
    const pairs: Record<string, (x: torch.Tensor) => torch.Tensor[]> = {
      max_pool3d: (x) => F.maxPool3d(x, 3, { stride: 2, padding: 1, dilation: [1, 1, 2], ceilMode: true, returnIndices: true }),
      adaptive_max_pool1d: (x) => F.adaptiveMaxPool1d(x, 4, { returnIndices: true }),
      adaptive_max_pool2d: (x) => F.adaptiveMaxPool2d(x, [3, 4], { returnIndices: true }),
      adaptive_max_pool3d: (x) => F.adaptiveMaxPool3d(x, [2, 4, 3], true),
    };
    expect(Object.keys(pairs).sort()).toEqual(Object.keys(I).sort());
    for (const [k, f] of Object.entries(pairs)) {
      const [v, i] = f(fromG(I[k].x));
      expectClose(v, I[k].values, `${k} values`);
      expect(i.dtype, k).toBe('int64');
      expect(i.shape, k).toEqual(I[k].indices.shape);
      expect(Array.from(i.dataSync() as Float64Array, Number), k).toEqual(I[k].indices.values);
    }
  });
});

interface Bag {
  input: G;
  offsets: G | null;
  psw: G | null;
  y: G;
  r: G;
  grads: Record<string, G>;
  state: Record<string, G>;
  pswGrad: G | null;
  repr: string;
}

describe('EmbeddingBag: PyTorch init, forward, weight and per-sample-weight gradients, repr', () => {
  const B = golden.bags as Record<string, Bag>;
  const makers: Record<string, [number, () => torch.nn.EmbeddingBag]> = {
    'EmbeddingBag(10,3) mean offsets': [640, () => new nn.EmbeddingBag(10, 3)],
    'EmbeddingBag(10,3,mode=sum) per_sample_weights': [641, () => new nn.EmbeddingBag(10, 3, { mode: 'sum' })],
    'EmbeddingBag(10,3,mode=max) offsets': [642, () => new nn.EmbeddingBag(10, 3, { mode: 'max' })],
    'EmbeddingBag(10,3,mode=sum,include_last_offset=True)': [643, () => new nn.EmbeddingBag(10, 3, { mode: 'sum', includeLastOffset: true })],
    'EmbeddingBag(10,3,padding_idx=2) 2-d': [644, () => new nn.EmbeddingBag(10, 3, { paddingIdx: 2 })],
    'EmbeddingBag(10,3,mode=max,padding_idx=4) 2-d': [645, () => new nn.EmbeddingBag(10, 3, { mode: 'max', paddingIdx: 4 })],
    'EmbeddingBag(10,3,mode=sum,max_norm=1.0)': [646, () => new nn.EmbeddingBag(10, 3, { mode: 'sum', maxNorm: 1.0 })],
  };
  it('covers every golden', () => expect(Object.keys(makers).sort()).toEqual(Object.keys(B).sort()));
  it('each bag layer', () => {
    for (const [name, [seed, make]] of Object.entries(makers)) {
      const c = B[name];
      torch.manualSeed(seed);
      const m = make();
      expect(m.toString(), name).toBe(c.repr);
      const psw = c.psw ? fromG(c.psw).requiresGrad_(true) : null;
      const y = m.call(fromG(c.input), c.offsets ? fromG(c.offsets) : null, psw) as torch.Tensor;
      expectClose(y, c.y, `${name} output`);
      y.mul(fromG(c.r)).sum().backward();
      expectClose(m.weight.grad!, c.grads.weight, `${name} weight grad`);
      if (psw) expectClose(psw.grad!, c.pswGrad!, `${name} per_sample_weights grad`);
      // (max_norm renormalised the looked-up rows in place, as PyTorch's)
      expectClose(m.stateDict().get('weight')!, c.state.weight, `${name} state weight`);
    }
  });
});

describe('max pools with tied maxima', () => {
  it("take the first maximum, as PyTorch's kernels: indices and gradient", () => {
    const T = golden.ties as Record<string, { indices: G; grad: G }>;
    const weighted = (v: torch.Tensor) => v.mul(torch.arange(v.numel()).reshape(v.shape)).sum();
    const x = torch.zeros([1, 2, 3, 2, 5], { requiresGrad: true });
    const [v, i] = F.maxPool3d(x, 2, { stride: 1, returnIndices: true });
    weighted(v).backward();
    expect(Array.from(i.dataSync() as Float64Array, Number)).toEqual(T.max_pool3d.indices.values);
    expectClose(x.grad!, T.max_pool3d.grad, 'max_pool3d grad');
    const y = torch.zeros([2, 7], { requiresGrad: true });
    const [v2, i2] = F.adaptiveMaxPool1d(y, 3, { returnIndices: true });
    weighted(v2).backward();
    expect(Array.from(i2.dataSync() as Float64Array, Number)).toEqual(T.adaptive_max_pool1d.indices.values);
    expectClose(y.grad!, T.adaptive_max_pool1d.grad, 'adaptive_max_pool1d grad');
  });
});

describe("PyTorch's errors", () => {
  const E = golden.errors as Record<string, string>;
  const r = (...s: number[]) => torch.randn(s);
  const w10 = r(10, 3);
  const long = (v: unknown) => torch.tensor(v as number[], { dtype: 'int64' });
  const calls: Record<string, [string, () => unknown, string?]> = {
    'conv3d 3-d input': ['conv3d', () => F.conv3d(r(2, 3, 4), r(2, 3, 1, 1, 1))],
    'conv3d channels': ['conv3d', () => F.conv3d(r(1, 3, 4, 4, 4), r(2, 2, 1, 1, 1))],
    'conv3d kernel > input': ['conv3d', () => F.conv3d(r(1, 2, 2, 4, 4), r(2, 2, 3, 3, 3))],
    'conv3d groups': ['conv3d', () => F.conv3d(r(1, 4, 4, 4, 4), r(3, 2, 1, 1, 1), null, { groups: 2 })],
    'conv3d bias': ['conv3d', () => F.conv3d(r(1, 2, 4, 4, 4), r(3, 2, 1, 1, 1), r(2))],
    'conv3d same strided': ['conv3d', () => F.conv3d(r(1, 2, 4, 4, 4), r(3, 2, 1, 1, 1), null, { stride: 2, padding: 'same' })],
    'conv_transpose3d channels': ['conv_transpose3d', () => F.convTranspose3d(r(1, 3, 2, 2, 2), r(2, 2, 2, 2, 2))],
    'conv_transpose3d output_padding': ['conv_transpose3d', () => F.convTranspose3d(r(1, 2, 2, 2, 2), r(2, 2, 2, 2, 2), null, { stride: 2, outputPadding: 2 })],
    'conv_transpose3d 3-d input': ['conv_transpose3d', () => F.convTranspose3d(r(2, 2, 2), r(2, 2, 2, 2, 2))],
    'max_pool3d 3-d input': ['max_pool3d', () => F.maxPool3d(r(2, 3, 4), 2)],
    'max_pool3d padding > kernel/2': ['max_pool3d', () => F.maxPool3d(r(1, 1, 3, 3, 3), 2, { padding: 2 })],
    'max_pool3d output too small': ['max_pool3d', () => F.maxPool3d(r(1, 1, 3, 3, 3), 5)],
    'max_pool3d kernel pair': ['max_pool3d', () => F.maxPool3d(r(1, 1, 3, 3, 3), [2, 2])],
    'max_pool3d int64': ['max_pool3d', () => F.maxPool3d(r(1, 1, 3, 3, 3).long(), 2)],
    'avg_pool3d 3-d input': ['avg_pool3d', () => F.avgPool3d(r(2, 3, 4), 2)],
    'avg_pool3d kernel > input': ['avg_pool3d', () => F.avgPool3d(r(1, 1, 3, 3, 3), 5)],
    'adaptive_avg_pool3d 3-d input': ['adaptive_avg_pool3d', () => F.adaptiveAvgPool3d(r(2, 3, 4), 2)],
    'adaptive_avg_pool3d output_size pair': ['adaptive_avg_pool3d', () => F.adaptiveAvgPool3d(r(1, 1, 3, 3, 3), [2, 2])],
    'adaptive_max_pool1d 4-d input': ['adaptive_max_pool1d', () => F.adaptiveMaxPool1d(r(2, 3, 4, 5), 2)],
    'adaptive_max_pool1d output_size pair': ['adaptive_max_pool1d', () => F.adaptiveMaxPool1d(r(2, 3, 4), [2, 2])],
    'adaptive_max_pool2d 1-d input': ['adaptive_max_pool2d', () => F.adaptiveMaxPool2d(r(2), 2)],
    'adaptive_max_pool3d 3-d input': ['adaptive_max_pool3d', () => F.adaptiveMaxPool3d(r(2, 3, 4), 2)],
    'adaptive_max_pool3d int64': ['adaptive_max_pool3d', () => F.adaptiveMaxPool3d(r(1, 1, 3, 3, 3).long(), 2)],
    'pad reflect 3-d too large': ['pad', () => F.pad(r(1, 1, 2, 2, 2), [3, 3, 0, 0, 0, 0], { mode: 'reflect' })],
    'pad circular 3-d too large': ['pad', () => F.pad(r(1, 1, 2, 2, 2), [3, 3, 0, 0, 0, 0], { mode: 'circular' })],
    'ConvTranspose3d padding_mode': ['ConvTranspose3d', () => new nn.ConvTranspose3d(2, 2, 2, { paddingMode: 'reflect' as 'zeros' })],
    'embedding_bag 2-d input with offsets': ['embedding_bag', () => F.embeddingBag(long([[1, 2], [3, 4]]), w10, long([0, 1]))],
    'embedding_bag no offsets': ['embedding_bag', () => F.embeddingBag(long([1, 2, 3]), w10)],
    'embedding_bag 3-d input': ['embedding_bag', () => F.embeddingBag(torch.zeros([2, 2, 2], { dtype: 'int64' }), w10)],
    // (PyTorch prints the shapes as torch.Size([2]), the dtype as torch.FloatTensor: compared up to there)
    'embedding_bag per_sample_weights shape': [
      'embedding_bag',
      () => F.embeddingBag(long([1, 2, 3]), w10, long([0, 1]), { mode: 'sum', perSampleWeights: torch.ones([2]) }),
      'embedding_bag: If per_sample_weights (',
    ],
    'embedding_bag mode': ['embedding_bag', () => F.embeddingBag(long([1, 2, 3]), w10, long([0, 1]), { mode: 'foo' })],
    'embedding_bag offsets[0]': ['embedding_bag', () => F.embeddingBag(long([1, 2, 3]), w10, long([1, 2]))],
    'embedding_bag offsets[-1]': ['embedding_bag', () => F.embeddingBag(long([1, 2, 3]), w10, long([0, 4]))],
    'embedding_bag float input': [
      'embedding_bag',
      () => F.embeddingBag(torch.tensor([1, 2, 3], { dtype: 'float32' }), w10, long([0, 2])),
      "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ",
    ],
    'embedding_bag padding_idx': ['embedding_bag', () => F.embeddingBag(long([1, 2, 3]), w10, long([0, 2]), { paddingIdx: 10 })],
    'multi_margin_loss p': ['multi_margin_loss', () => F.multiMarginLoss(r(3, 4), long([0, 1, 2]), { p: 3 })],
    'multi_margin_loss target size': ['multi_margin_loss', () => F.multiMarginLoss(r(3, 4), long([0, 1]))],
    'multi_margin_loss target range': ['multi_margin_loss', () => F.multiMarginLoss(r(3, 4), long([0, 1, 4]))],
    'multi_margin_loss 3-d input': ['multi_margin_loss', () => F.multiMarginLoss(r(2, 3, 4), long([0, 1]))],
    'multi_margin_loss float target': ['multi_margin_loss', () => F.multiMarginLoss(r(3, 4), torch.tensor([0, 1, 2], { dtype: 'float32' }))],
    'multilabel_margin_loss target size': ['multilabel_margin_loss', () => F.multilabelMarginLoss(r(3, 4), long([0, 1, 2]))],
    'multilabel_margin_loss target range': ['multilabel_margin_loss', () => F.multilabelMarginLoss(r(2, 4), long([[0, 1, -1, 5], [3, -1, 0, 0]]))],
    'multilabel_margin_loss 3-d input': ['multilabel_margin_loss', () => F.multilabelMarginLoss(r(2, 3, 4), torch.zeros([2, 3, 4], { dtype: 'int64' }))],
    'interpolate bicubic 5-d': ['interpolate', () => F.interpolate(r(1, 1, 2, 2, 2), { scaleFactor: 2, mode: 'bicubic' })],
    'interpolate trilinear 4-d': ['interpolate', () => F.interpolate(r(1, 1, 2, 2), { scaleFactor: 2, mode: 'trilinear' })],
    'interpolate area align_corners': ['interpolate', () => F.interpolate(r(1, 1, 2, 2), { scaleFactor: 2, mode: 'area', alignCorners: true })],
  };
  it('covers every golden', () => expect(Object.keys(calls).sort()).toEqual(Object.keys(E).sort()));
  it('each raises a TorchError naming the op, with PyTorch message', () => {
    for (const [k, [op, f, prefix]] of Object.entries(calls)) {
      let err: unknown = null;
      try {
        f();
      } catch (e) {
        err = e;
      }
      expect(err, k).toBeInstanceOf(torch.TorchError);
      const msg = (err as Error).message;
      expect(msg.startsWith(op), `${k}: ${msg}`).toBe(true);
      if (prefix === undefined) expect(msg, k).toContain(E[k]);
      else {
        expect(E[k].startsWith(prefix.replace(/^embedding_bag: If/, 'embedding_bag: If')), k).toBe(true);
        expect(msg, k).toContain(prefix);
      }
    }
  });
});

describe('gradcheck in float64', () => {
  const { gradcheck } = torch.autograd;
  const d = (...s: number[]) => torch.randn(s, { dtype: 'float64', requiresGrad: true });
  const ix = (v: number[] | number[][]) => torch.tensor(v, { dtype: 'int64' });
  it('each new functional', async () => {
    torch.manualSeed(7);
    const cases: [string, (...t: torch.Tensor[]) => torch.Tensor, torch.Tensor[]][] = [
      ['conv3d', (x, w, b) => F.conv3d(x, w, b, { stride: [2, 1, 1], padding: [1, 0, 1], dilation: [1, 2, 1], groups: 2 }), [d(1, 2, 3, 2, 2), d(2, 1, 2, 1, 2), d(2)]],
      ['conv3d same', (x, w) => F.conv3d(x, w, null, { padding: 'same' }), [d(1, 1, 3, 2, 2), d(1, 1, 2, 2, 1)]],
      ['conv_transpose3d', (x, w, b) => F.convTranspose3d(x, w, b, { stride: 2, padding: 1, outputPadding: [1, 0, 1], groups: 2, dilation: [1, 2, 1] }), [d(1, 2, 2, 1, 1), d(2, 1, 2, 2, 2), d(2)]],
      ['pad reflect 3-d', (x) => F.pad(x, [1, 0, 2, 1, 1, 1], { mode: 'reflect' }), [d(1, 2, 3, 3)]],
      ['max_pool3d', (x) => F.maxPool3d(x, 2, { stride: [1, 2, 2], padding: 1, ceilMode: true }), [d(1, 1, 2, 3, 3)]],
      ['avg_pool3d', (x) => F.avgPool3d(x, 3, { stride: 2, padding: 1, ceilMode: true, countIncludePad: false }), [d(1, 1, 4, 3, 3)]],
      ['adaptive_avg_pool3d', (x) => F.adaptiveAvgPool3d(x, [2, 3, 2]), [d(1, 1, 3, 4, 3)]],
      ['adaptive_max_pool1d', (x) => F.adaptiveMaxPool1d(x, 3), [d(2, 7)]],
      ['adaptive_max_pool2d', (x) => F.adaptiveMaxPool2d(x, [2, 3]), [d(1, 1, 5, 4)]],
      ['adaptive_max_pool3d', (x) => F.adaptiveMaxPool3d(x, 2), [d(1, 3, 3, 4)]],
      ['interpolate bicubic', (x) => F.interpolate(x, { scaleFactor: [1.5, 2], mode: 'bicubic' }), [d(1, 1, 3, 2)]],
      ['interpolate trilinear', (x) => F.interpolate(x, { size: [3, 2, 3], mode: 'trilinear', alignCorners: true }), [d(1, 1, 2, 3, 2)]],
      ['interpolate area', (x) => F.interpolate(x, { size: [2, 3, 2], mode: 'area' }), [d(1, 1, 3, 4, 3)]],
      ['embedding_bag sum', (w, p) => F.embeddingBag(ix([1, 2, 0, 2, 3]), w, ix([0, 2, 2]), { mode: 'sum', perSampleWeights: p }), [d(4, 2), d(5)]],
      ['embedding_bag mean', (w) => F.embeddingBag(ix([[1, 2, 0], [3, 3, 1]]), w, null, { paddingIdx: 0 }), [d(4, 2)]],
      ['embedding_bag max', (w) => F.embeddingBag(ix([1, 2, 0, 2, 3]), w, ix([0, 3]), { mode: 'max' }), [d(4, 2)]],
      ['multi_margin_loss', (x, w) => F.multiMarginLoss(x, ix([0, 2, 1]), { p: 2, margin: 0.9, weight: w }), [d(3, 4), d(4)]],
      ['multilabel_margin_loss', (x) => F.multilabelMarginLoss(x, ix([[1, 3, -1, 0], [0, 2, 1, 3]])), [d(2, 4)]],
    ];
    for (const [name, f, inputs] of cases) expect(await gradcheck(f, inputs), name).toBe(true);
  });
});
