import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { NotImplementedError, TorchTypeError } from '@torch-ts/torch';
import { MODULE_REPRS } from './arguments-golden';

// Issue 15, module constructors (Note [Module constructors bind their arguments]): every
// `__init__` argument positionally gives PyTorch's layer (its repr, goldens/arguments.json),
// and the same arguments by keyword give the same layer; unknown keywords and one argument
// too many raise TypeError in Python's words for a method.
const nn = torch.nn;

/** Each layer: every argument positional (as in the golden), and the same by keyword. */
const LAYERS: Record<string, [() => torch.nn.Module, () => torch.nn.Module]> = {
  Linear: [() => new nn.Linear(4, 2, false), () => new nn.Linear(4, 2, { bias: false })],
  Bilinear: [() => new nn.Bilinear(2, 3, 4, false), () => new nn.Bilinear({ in1Features: 2, in2Features: 3, outFeatures: 4, bias: false })],
  Flatten: [() => new nn.Flatten(0, 1), () => new nn.Flatten({ startDim: 0, endDim: 1 })],
  Unflatten: [() => new nn.Unflatten(1, [2, 2]), () => new nn.Unflatten({ dim: 1, unflattenedSize: [2, 2] })],
  Conv1d: [() => new nn.Conv1d(2, 4, 3, 2, 1, 2, 2, false), () => new nn.Conv1d(2, 4, 3, { stride: 2, padding: 1, dilation: 2, groups: 2, bias: false })],
  Conv2d: [() => new nn.Conv2d(4, 8, [3, 5], 2, 1, 2, 2, false), () => new nn.Conv2d(4, 8, { kernelSize: [3, 5], stride: [2, 2], padding: 1, dilation: 2, groups: 2, bias: false })],
  ConvTranspose2d: [
    () => new nn.ConvTranspose2d(2, 4, 3, 2, 1, 1, 2, false, 1),
    () => new nn.ConvTranspose2d(2, 4, 3, { stride: 2, padding: 1, outputPadding: 1, groups: 2, bias: false }),
  ],
  BatchNorm1d: [() => new nn.BatchNorm1d(3, 0.001, 0.2, false, false), () => new nn.BatchNorm1d(3, { eps: 0.001, momentum: 0.2, affine: false, trackRunningStats: false })],
  BatchNorm2d: [() => new nn.BatchNorm2d(3, 1e-5, null), () => new nn.BatchNorm2d(3, { momentum: null })],
  LayerNorm: [() => new nn.LayerNorm(4, 0.001, false), () => new nn.LayerNorm([4], { eps: 0.001, elementwiseAffine: false })],
  GroupNorm: [() => new nn.GroupNorm(2, 4, 0.01, false), () => new nn.GroupNorm(2, { numChannels: 4, eps: 0.01, affine: false })],
  Embedding: [() => new nn.Embedding(10, 3, 0, 2.0, 3.0, true), () => new nn.Embedding(10, 3, { paddingIdx: 0, maxNorm: 2, normType: 3, scaleGradByFreq: true })],
  Dropout: [() => new nn.Dropout(0.2, true), () => new nn.Dropout({ p: 0.2, inplace: true })],
  MaxPool2d: [() => new nn.MaxPool2d(3, 2, 1, 1, false, true), () => new nn.MaxPool2d(3, { stride: 2, padding: 1, ceilMode: true })],
  AvgPool2d: [() => new nn.AvgPool2d(3, 2, 1, true), () => new nn.AvgPool2d({ kernelSize: 3, stride: 2, padding: 1, ceilMode: true })],
  AdaptiveAvgPool2d: [() => new nn.AdaptiveAvgPool2d([null, 2]), () => new nn.AdaptiveAvgPool2d({ outputSize: [null, 2] })],
  LeakyReLU: [() => new nn.LeakyReLU(0.2, true), () => new nn.LeakyReLU({ negativeSlope: 0.2, inplace: true })],
  ELU: [() => new nn.ELU(0.5), () => new nn.ELU({ alpha: 0.5 })],
  ReLU: [() => new nn.ReLU(true), () => new nn.ReLU({ inplace: true })],
  GELU: [() => new nn.GELU('tanh'), () => new nn.GELU({ approximate: 'tanh' })],
  SiLU: [() => new nn.SiLU(true), () => new nn.SiLU({ inplace: true })],
  Softmax: [() => new nn.Softmax(1), () => new nn.Softmax({ dim: 1 })],
  LogSoftmax: [() => new nn.LogSoftmax(0), () => new nn.LogSoftmax({ dim: 0 })],
};

describe('module constructors bind their arguments as PyTorch does', () => {
  for (const [name, [positional, keyword]] of Object.entries(LAYERS)) {
    it(`${name}: positional and keyword arguments build PyTorch's layer`, () => {
      expect(positional().toString()).toBe(MODULE_REPRS[name]);
      expect(keyword().toString()).toBe(MODULE_REPRS[name]);
    });
  }

  it('honours what the repr does not show: bias, momentum None, countIncludePad, returnIndices, layer attributes', () => {
    expect(new nn.Linear(4, 2, false).bias).toBeNull();
    expect(new nn.Linear(4, 2, { bias: false }).bias).toBeNull();
    expect(new nn.Linear(4, 2, null, null, 'float64').weight.dtype).toBe('float64');
    expect(new nn.Linear(4, 2, { dtype: 'float64' }).weight.dtype).toBe('float64');
    expect(new nn.BatchNorm2d(3, 1e-5, null).momentum).toBeNull();
    expect(new nn.BatchNorm2d(3, { momentum: null }).momentum).toBeNull();
    expect(new nn.BatchNorm2d(3).momentum).toBe(0.1);
    expect(new nn.AvgPool2d(2, null, 0, false, false, 3).countIncludePad).toBe(false);
    expect(new nn.AvgPool2d(2, null, 0, false, false, 3).divisorOverride).toBe(3);
    expect(new nn.AvgPool2d(2).stride).toBe(2);
    expect(new nn.MaxPool2d(2, null, 0, 1, true).returnIndices).toBe(true);
    const conv = new nn.Conv2d(1, 1, 3, { padding: 'same' });
    expect(conv.padding).toBe('same');
    expect(new nn.Embedding(4, 2, { weight: torch.ones([4, 2]) }).weight.sum().item()).toBe(8);
    const mha = new nn.MultiheadAttention(4, 2, 0.0, false, false, false, null, null, true);
    expect(mha.batchFirst).toBe(true);
    expect(mha.in_proj_bias).toBeNull();
    expect(new nn.TransformerEncoderLayer(4, 2, 8, 0.0, 'gelu', 1e-5, true).linear1.outFeatures).toBe(8);
    expect(new nn.CrossEntropyLoss(null, null, 2, null, 'sum', 0.1).ignoreIndex).toBe(2);
    expect(new nn.CrossEntropyLoss({ reduction: 'sum', labelSmoothing: 0.1 }).labelSmoothing).toBe(0.1);
    expect(new nn.MSELoss(null, null, 'sum').reduction).toBe('sum');
    expect(new nn.SmoothL1Loss({ beta: 0.5 }).beta).toBe(0.5);
    expect(new nn.BCEWithLogitsLoss(null, null, null, 'none', torch.ones([2])).posWeight?.shape).toEqual([2]);
  });

  it('refuses unknown keywords, one argument too many and what torch-ts does not support, in Python words', () => {
    const refused: [() => unknown, string][] = [
      [() => new nn.Linear(4, 2, { x: 1 } as never), "Linear.__init__() got an unexpected keyword argument 'x'"],
      [() => new nn.Linear(4, 2, true, null, null, 5 as never), 'Linear.__init__() takes from 3 to 6 positional arguments but 7 were given'],
      [() => new nn.Linear(4, 2, false, { bias: true }), "Linear.__init__(): argument 'bias' given by name ('bias') and position (3)"],
      [() => new nn.Linear(4 as never), 'Linear.__init__() missing 1 required positional argument: "outFeatures"'],
      [() => new nn.ReLU(true, 2 as never), 'ReLU.__init__() takes from 1 to 2 positional arguments but 3 were given'],
      [() => new (nn.Tanh as unknown as new (...a: unknown[]) => unknown)(1), 'Tanh.__init__() takes 1 positional argument but 2 were given'],
      [() => new nn.Conv2d(1, 2, 3, { strides: 2 } as never), "Conv2d.__init__() got an unexpected keyword argument 'strides'"],
      [() => new nn.Conv2d(1, 2, 3, { padding: 1.5 } as never), "Conv2d.__init__(): argument 'padding' must be int, tuple of ints or str, not number"],
      [() => new nn.BatchNorm2d(3, { momentom: 0.1 } as never), "BatchNorm2d.__init__() got an unexpected keyword argument 'momentom'"],
      [() => new nn.Dropout(0.5, false, true as never), 'Dropout.__init__() takes from 1 to 3 positional arguments but 4 were given'],
      [() => new nn.MaxPool2d(2, { kernel: 2 } as never), "MaxPool2d.__init__() got an unexpected keyword argument 'kernel'"],
      [() => new nn.Embedding(4, 2, { padding: 0 } as never), "Embedding.__init__() got an unexpected keyword argument 'padding'"],
      [() => new nn.MSELoss({ reductio: 'sum' } as never), "MSELoss.__init__() got an unexpected keyword argument 'reductio'"],
      [() => new nn.LayerNorm(4, { eps: '1' } as never), "LayerNorm.__init__(): argument 'eps' must be float, not string"],
    ];
    for (const [fn, message] of refused) {
      expect(fn).toThrow(TorchTypeError);
      expect(fn).toThrow(message);
    }
    expect(() => new nn.MSELoss(true as never)).toThrow(NotImplementedError);
    expect(() => new nn.MSELoss({ sizeAverage: true } as never)).toThrow("MSELoss.__init__(): argument 'sizeAverage' is not supported by torch-ts yet");
    expect(() => new nn.MultiheadAttention(4, 2, { addBiasKv: true })).toThrow(NotImplementedError);
    expect(() => new nn.MultiheadAttention(4, 2, { kdim: 3 })).toThrow(NotImplementedError);
    // (padding modes reflect, replicate and circular are supported: nn-layers-3d.test.ts)
    expect(() => new nn.Conv2d(1, 1, 3, { paddingMode: 'mirror' } as never)).toThrow("Conv2d: padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], but got padding_mode='mirror'");
    expect(() => new nn.ConvTranspose2d(1, 1, 3, { paddingMode: 'reflect' } as never)).toThrow('ConvTranspose2d: Only "zeros" padding mode is supported for ConvTranspose2d');
  });

  it('keeps Sequential variadic and Identity taking anything', () => {
    const seq = new nn.Sequential(new nn.Linear(2, 2), new nn.ReLU());
    expect([...seq.children()].length).toBe(2);
    expect(new nn.Identity(1, { a: 2 }).forward(torch.ones([1])).shape).toEqual([1]);
  });
});
