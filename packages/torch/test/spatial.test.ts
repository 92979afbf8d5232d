/**
 * The spatial ops beyond what the OpInfo table checks: double backward (gradgradcheck) of
 * every derivative, PyTorch's Node names, the named-tuple result of maxPool2d, and the fast
 * convolution paths (im2col + mm, 1x1, strided, grouped, transposed) against a plain
 * float64 reference loop (STYLE.md: a plain reference is the oracle for fast CPU paths).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

const F = torch.nn.functional;
const { gradcheck, gradgradcheck } = torch.autograd;

const leaf = (shape: number[], seed: number): Tensor => {
  torch.manualSeed(seed);
  return torch.randn(shape, { dtype: 'float64' }).requiresGrad_(true);
};

/** A plain loop: the convolution by its definition, in float64. */
function referenceConv(
  x: Float64Array, xs: number[], w: Float64Array, ws: number[], bias: Float64Array | null,
  stride: number[], pad: number[], dil: number[], groups: number,
): { data: Float64Array; shape: number[] } {
  const [N, C, H, W] = xs;
  const [O, cig, kH, kW] = ws;
  const oH = Math.floor((H + 2 * pad[0] - dil[0] * (kH - 1) - 1) / stride[0]) + 1;
  const oW = Math.floor((W + 2 * pad[1] - dil[1] * (kW - 1) - 1) / stride[1]) + 1;
  const out = new Float64Array(N * O * oH * oW);
  const cog = O / groups;
  for (let n = 0; n < N; n++)
    for (let o = 0; o < O; o++) {
      const g = Math.floor(o / cog);
      for (let i = 0; i < oH; i++)
        for (let j = 0; j < oW; j++) {
          let s = bias ? bias[o] : 0;
          for (let c = 0; c < cig; c++)
            for (let a = 0; a < kH; a++)
              for (let b = 0; b < kW; b++) {
                const h = i * stride[0] - pad[0] + a * dil[0];
                const v = j * stride[1] - pad[1] + b * dil[1];
                if (h < 0 || h >= H || v < 0 || v >= W) continue;
                s += x[((n * C + g * cig + c) * H + h) * W + v] * w[((o * cig + c) * kH + a) * kW + b];
              }
          out[((n * O + o) * oH + i) * oW + j] = s;
        }
    }
  return { data: out, shape: [N, O, oH, oW] };
}

const f64 = (t: Tensor) => Float64Array.from(t.dataSync() as ArrayLike<number>);

describe('conv2d against a plain reference', () => {
  const cases: [string, number[], number[], number[], number[], number[], number][] = [
    ['3x3 pad 1', [2, 5, 9, 8], [6, 5, 3, 3], [1, 1], [1, 1], [1, 1], 1],
    ['1x1', [2, 7, 5, 6], [4, 7, 1, 1], [1, 1], [0, 0], [1, 1], 1],
    ['1x1 strided', [1, 3, 7, 7], [2, 3, 1, 1], [2, 3], [0, 0], [1, 1], 1],
    ['5x3 strided, dilated, padded', [1, 4, 13, 11], [3, 4, 5, 3], [2, 1], [2, 1], [2, 3], 1],
    ['grouped', [2, 6, 7, 7], [9, 2, 3, 3], [1, 2], [1, 0], [1, 1], 3],
  ];
  for (const [name, xs, ws, stride, padding, dilation, groups] of cases) {
    it(name, () => {
      torch.manualSeed(7);
      const x = torch.randn(xs, { dtype: 'float64' });
      const w = torch.randn(ws, { dtype: 'float64' });
      const b = torch.randn([ws[0]], { dtype: 'float64' });
      const got = F.conv2d(x, w, b, { stride, padding, dilation, groups });
      const ref = referenceConv(f64(x), xs, f64(w), ws, f64(b), stride, padding, dilation, groups);
      expect(got.shape).toEqual(ref.shape);
      const g = f64(got);
      ref.data.forEach((v, i) => expect(Math.abs(g[i] - v)).toBeLessThan(1e-12 * (1 + Math.abs(v))));
      // float32 runs the same path within float32 rounding
      const g32 = f64(F.conv2d(x.float(), w.float(), b.float(), { stride, padding, dilation, groups }));
      ref.data.forEach((v, i) => expect(Math.abs(g32[i] - v)).toBeLessThan(1e-4 * (1 + Math.abs(v))));
    });
  }

  it('convTranspose2d is the adjoint of conv2d', () => {
    // <conv2d(x, w), y> == <x, convTranspose2d(y, w)> for any x, y
    torch.manualSeed(3);
    const x = torch.randn([2, 4, 7, 6], { dtype: 'float64' });
    const w = torch.randn([6, 2, 3, 2], { dtype: 'float64' });
    const opts = { stride: [2, 1], padding: [1, 1], dilation: [1, 2], groups: 2 };
    const y0 = F.conv2d(x, w, null, opts);
    const y = torch.randn(y0.shape, { dtype: 'float64' });
    const xt = F.convTranspose2d(y, w, null, { ...opts, outputPadding: [0, 0] });
    expect(xt.shape).toEqual(x.shape);
    const lhs = torch.sum(torch.mul(y0, y)).item() as number;
    const rhs = torch.sum(torch.mul(x, xt)).item() as number;
    expect(Math.abs(lhs - rhs)).toBeLessThan(1e-9 * (1 + Math.abs(lhs)));
  });
});

describe('Node names', () => {
  const x = () => leaf([1, 2, 4, 4], 1);
  const cases: [string, () => Tensor, string][] = [
    ['conv2d', () => F.conv2d(x(), leaf([3, 2, 3, 3], 2)), 'ConvolutionBackward0'],
    ['convTranspose2d', () => F.convTranspose2d(x(), leaf([2, 3, 3, 3], 2)), 'ConvolutionBackward0'],
    ['maxPool2d', () => F.maxPool2d(x(), 2), 'MaxPool2DWithIndicesBackward0'],
    ['avgPool2d', () => F.avgPool2d(x(), 2), 'AvgPool2DBackward0'],
    ['adaptiveAvgPool2d', () => F.adaptiveAvgPool2d(x(), 3), 'AdaptiveAvgPool2DBackward0'],
    ['interpolate nearest', () => F.interpolate(x(), { scaleFactor: 2 }), 'UpsampleNearest2DBackward0'],
    ['interpolate bilinear', () => F.interpolate(x(), { size: [5, 3], mode: 'bilinear' }), 'UpsampleBilinear2DBackward0'],
    ['pad constant', () => F.pad(x(), [1, 2]), 'ConstantPadNdBackward0'],
    ['pad reflect', () => F.pad(x(), [1, 2, 1, 0], { mode: 'reflect' }), 'ReflectionPad2DBackward0'],
    ['pad replicate 1d', () => F.pad(leaf([2, 3, 4], 3), [1, 2], { mode: 'replicate' }), 'ReplicationPad1DBackward0'],
  ];
  for (const [name, make, node] of cases) it(name, () => expect(make().gradFn?.name()).toBe(node));
});

describe('maxPool2d with returnIndices', () => {
  it('is an array with .values and .indices, flat indices within each plane as PyTorch', () => {
    const x = torch.tensor([[[[1, 5, 2, 0], [3, 4, 8, 1], [0, 0, 1, 2], [9, 1, 3, 3]]]]);
    const r = F.maxPool2d(x.float(), 2, { returnIndices: true });
    const [v, i] = r;
    expect(r.values).toBe(v);
    expect(r.indices).toBe(i);
    expect(Array.from(v.dataSync() as Float32Array)).toEqual([5, 8, 9, 3]);
    expect(Array.from(i.dataSync() as BigInt64Array, Number)).toEqual([1, 6, 12, 14]);
    expect(i.dtype).toBe('int64');
  });
});

describe('double backward', () => {
  const grads: [string, (...t: Tensor[]) => Tensor, () => Tensor[]][] = [
    ['conv2d (bias, stride, padding)', (x, w, b) => F.conv2d(x, w, b, { stride: 2, padding: 1 }), () => [leaf([2, 2, 5, 4], 1), leaf([3, 2, 3, 2], 2), leaf([3], 3)]],
    ['conv2d (groups, dilation)', (x, w) => F.conv2d(x, w, null, { groups: 2, dilation: [2, 1] }), () => [leaf([1, 4, 6, 5], 4), leaf([4, 2, 2, 2], 5)]],
    ['conv2d 1x1', (x, w) => F.conv2d(x, w), () => [leaf([2, 3, 3, 2], 6), leaf([2, 3, 1, 1], 7)]],
    ['conv1d', (x, w, b) => F.conv1d(x, w, b, { padding: 'same' }), () => [leaf([2, 2, 6], 8), leaf([3, 2, 4], 9), leaf([3], 10)]],
    ['convTranspose2d', (x, w, b) => F.convTranspose2d(x, w, b, { stride: 2, outputPadding: 1, groups: 2 }), () => [leaf([1, 4, 3, 2], 11), leaf([4, 1, 3, 3], 12), leaf([2], 13)]],
    ['maxPool2d', (x) => F.maxPool2d(x, 2, { stride: 1, padding: 1 }), () => [leaf([1, 2, 4, 4], 14)]],
    ['avgPool2d', (x) => F.avgPool2d(x, 3, { stride: 2, padding: 1, countIncludePad: false }), () => [leaf([1, 2, 5, 5], 15)]],
    ['adaptiveAvgPool2d', (x) => F.adaptiveAvgPool2d(x, [3, 2]), () => [leaf([1, 2, 5, 4], 16)]],
    ['interpolate bilinear', (x) => F.interpolate(x, { scaleFactor: 1.5, mode: 'bilinear' }), () => [leaf([1, 1, 3, 4], 17)]],
    ['interpolate nearest 3-d', (x) => F.interpolate(x, { size: 7 }), () => [leaf([1, 2, 3], 18)]],
    ['pad reflect', (x) => F.pad(x, [2, 1, 1, 1], { mode: 'reflect' }), () => [leaf([1, 1, 3, 4], 19)]],
    ['pad circular', (x) => F.pad(x, [2, 1], { mode: 'circular' }), () => [leaf([1, 2, 3], 20)]],
    ['pad constant crop', (x) => F.pad(x, [-1, 2, 1, -1], { value: 0.5 }), () => [leaf([2, 3, 4], 21)]],
  ];
  for (const [name, fn, inputs] of grads) {
    it(name, async () => {
      const ins = inputs();
      expect(await gradcheck(fn, ins)).toBe(true);
      expect(await gradgradcheck(fn, ins)).toBe(true);
    });
  }
});

describe('convolution errors', () => {
  it('name the op and the shapes', () => {
    const x = torch.ones([1, 2, 5, 5]);
    expect(() => F.conv2d(x, torch.ones([4, 3, 3, 3]))).toThrow(
      /conv2d: Given groups=1, weight of size \[4, 3, 3, 3\], expected input\[1, 2, 5, 5\] to have 3 channels, but got 2 channels instead/,
    );
    expect(() => F.convTranspose2d(x, torch.ones([2, 3, 3, 3]), null, { outputPadding: 1 })).toThrow(
      /conv_transpose2d: output padding must be smaller than either stride or dilation/,
    );
  });
});

describe('the meta device', () => {
  it('infers every spatial op shape without data', () => {
    const x = torch.empty([2, 3, 8, 8], { device: 'meta' });
    expect(F.conv2d(x, torch.empty([4, 3, 3, 3], { device: 'meta' }), null, { stride: 2 }).shape).toEqual([2, 4, 3, 3]);
    expect(F.convTranspose2d(x, torch.empty([3, 2, 3, 3], { device: 'meta' })).shape).toEqual([2, 2, 10, 10]);
    expect(F.maxPool2d(x, 2).shape).toEqual([2, 3, 4, 4]);
    expect(F.avgPool2d(x, 3, { stride: 2, padding: 1 }).shape).toEqual([2, 3, 4, 4]);
    expect(F.adaptiveAvgPool2d(x, [5, null]).shape).toEqual([2, 3, 5, 8]);
    expect(F.interpolate(x, { scaleFactor: 2, mode: 'bilinear' }).shape).toEqual([2, 3, 16, 16]);
    expect(F.pad(x, [1, 1, 2, 2], { mode: 'reflect' }).shape).toEqual([2, 3, 12, 10]);
  });
});
