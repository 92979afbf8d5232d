/**
 * Note [Channels-last pooling impls] on the CPU: a dense channels-last input to max_pool2d,
 * avg_pool2d, adaptive_avg_pool2d and batch norm runs the backend's NHWC kernels (the test
 * counts their calls) and gives exactly the layout of the NCHW path (which memory-format.test
 * holds to PyTorch's strides) and its values: max pooling and its indices bit for bit (NaNs
 * included), the averages and batch norm within one rounding of the float64 accumulations
 * (the summation order differs). Gradients through torch equal the contiguous input's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as torch from '@torch-ts/torch';
import { lcgInputs, sameValues } from './channels-last-helpers';
import { cpuImpls } from '@torch-ts/kernels-cpu';

const F = torch.nn.functional;
type DT = 'float32' | 'float64';

const input = lcgInputs(7);
const cl = (t: torch.Tensor) => t.contiguous({ memoryFormat: 'channels_last' });

/** `a` (the NHWC path) against `b` (the NCHW path): PyTorch's channels-last strides, then `sameValues`. */
function same(a: torch.Tensor, b: torch.Tensor, rtol: number, what: string, failures: string[]): void {
  if (JSON.stringify(a.shape) !== JSON.stringify(b.shape)) return void failures.push(`${what}: shape ${a.shape} vs ${b.shape}`);
  // PyTorch's channels-last strides (empty(..., memory_format=channels_last)), as the NCHW path gives (C = 1: contiguous, PyTorch suggests contiguous)
  const [, C, H, W] = a.shape;
  if (a.dim() === 4 && C > 1 && JSON.stringify(a.stride()) !== JSON.stringify([H * W * C, 1, W * C, C])) failures.push(`${what}: strides ${a.stride()}`);
  sameValues(a, b, rtol, what, failures);
}

// [N, C, H, W], kernel, stride, padding, dilation, ceil_mode
const POOLS: [number[], number[], number[], number[], number[], boolean][] = [
  [[2, 5, 9, 11], [3, 3], [2, 2], [1, 1], [1, 1], false],
  [[1, 7, 8, 8], [2, 2], [2, 2], [0, 0], [1, 1], false],
  [[3, 4, 7, 10], [3, 2], [2, 1], [1, 0], [1, 1], true],
  [[1, 9, 13, 6], [3, 3], [3, 2], [1, 1], [2, 1], true],
  [[2, 3, 5, 5], [5, 5], [1, 1], [2, 2], [1, 1], false],
  [[2, 17, 6, 7], [2, 3], [1, 2], [1, 1], [1, 2], false],
  [[1, 1, 4, 4], [2, 2], [1, 1], [0, 0], [1, 1], true],
];

afterEach(() => vi.restoreAllMocks());

describe('channels-last pooling and batch norm without layout copies (CPU)', () => {
  it('max_pool2d: values and int64 indices equal the NCHW path, NaNs included', () => {
    const spy = vi.spyOn(cpuImpls, 'maxPool2dChannelsLast');
    const failures: string[] = [];
    for (const dtype of ['float32', 'float64'] as const) {
      for (const [shape, k, s, p, d, ceil] of POOLS) {
        const x = input(shape, dtype, { nans: 3 });
        const what = `${dtype} ${shape} k${k} s${s} p${p} d${d} ceil ${ceil}`;
        const a = F.maxPool2d(cl(x), k, s, p, d, ceil, true);
        const b = F.maxPool2d(x, k, s, p, d, ceil, true);
        same(a.values, b.values, 0, `${what} values`, failures);
        same(a.indices, b.indices, 0, `${what} indices`, failures);
        expect(a.indices.dtype).toBe('int64');
      }
    }
    expect(failures).toEqual([]);
    // (the C = 1 input is both contiguous and channels-last: PyTorch suggests contiguous, so it takes the NCHW path)
    expect(spy.mock.results.filter((r) => r.value !== false).length).toBe(2 * (POOLS.length - 1));
  });

  it('avg_pool2d (ceil_mode, count_include_pad, divisor_override) and adaptive_avg_pool2d equal the NCHW path', () => {
    const avg = vi.spyOn(cpuImpls, 'avgPool2dChannelsLast');
    const ada = vi.spyOn(cpuImpls, 'adaptiveAvgPool2dChannelsLast');
    const failures: string[] = [];
    let calls = 0;
    for (const dtype of ['float32', 'float64'] as const) {
      const rtol = dtype === 'float32' ? 1e-6 : 1e-14;
      for (const [shape, k, s, p, , ceil] of POOLS) {
        for (const [cip, div] of [[true, null], [false, null], [true, 3]] as const) {
          const x = input(shape, dtype);
          const opts = { stride: s, padding: p, ceilMode: ceil, countIncludePad: cip, divisorOverride: div };
          same(F.avgPool2d(cl(x), k, opts), F.avgPool2d(x, k, opts), rtol, `${dtype} avg ${shape} k${k} s${s} p${p} ceil ${ceil} cip ${cip} div ${div}`, failures);
          if (shape[1] > 1) calls++;
        }
      }
      for (const [shape, size] of [[[2, 5, 9, 11], [1, 1]], [[1, 6, 7, 7], [3, 2]], [[3, 3, 5, 8], [5, 8]], [[1, 13, 10, 9], [4, 7]]] as const) {
        const x = input([...shape], dtype);
        same(F.adaptiveAvgPool2d(cl(x), [...size]), F.adaptiveAvgPool2d(x, [...size]), rtol, `${dtype} adaptive ${shape} -> ${size}`, failures);
      }
    }
    expect(failures).toEqual([]);
    expect(avg.mock.results.filter((r) => r.value !== false).length).toBe(calls);
    expect(ada.mock.results.filter((r) => r.value !== false).length).toBe(8);
  });

  it('batch norm train (batch stats, running-stat update) and eval equal the NCHW path', () => {
    const spy = vi.spyOn(cpuImpls, 'batchNormChannelsLast');
    const failures: string[] = [];
    let calls = 0;
    for (const dtype of ['float32', 'float64'] as const) {
      const rtol = dtype === 'float32' ? 2e-6 : 1e-13;
      for (const shape of [[2, 5, 9, 11], [1, 7, 3, 3], [4, 16, 5, 6], [3, 1, 4, 5], [1, 3, 1, 1]]) {
        if (shape.every((s, i) => i === 1 || s === 1)) continue;
        const C = shape[1];
        for (const affine of [true, false]) {
          for (const training of [true, false]) {
            const x = input(shape, dtype);
            const w = affine ? input([C], dtype) : null;
            const b = affine ? input([C], dtype) : null;
            const rm = [input([C], dtype), null] as (torch.Tensor | null)[];
            const rv = [input([C], dtype).abs().add(0.5), null] as (torch.Tensor | null)[];
            rm[1] = rm[0]!.clone();
            rv[1] = rv[0]!.clone();
            const what = `${dtype} ${shape} affine ${affine} training ${training}`;
            const y1 = F.batchNorm(cl(x), rm[0], rv[0], { weight: w, bias: b, training, momentum: 0.2, eps: 1e-4 });
            const y2 = F.batchNorm(x, rm[1], rv[1], { weight: w, bias: b, training, momentum: 0.2, eps: 1e-4 });
            same(y1, y2, rtol, `${what} output`, failures);
            same(rm[0]!, rm[1]!, rtol, `${what} running_mean`, failures);
            same(rv[0]!, rv[1]!, rtol, `${what} running_var`, failures);
            calls++;
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // (C = 1 inputs are both contiguous and channels-last: PyTorch suggests contiguous, so they take the NCHW path)
    expect(spy.mock.results.filter((r) => r.value !== false).length).toBe(calls - 2 * 4);
  });

  it('max_pool2d, avg_pool2d and adaptive_avg_pool2d backwards (NHWC kernels) equal the NCHW path over the geometries', () => {
    const spies = (['maxPool2dBackwardChannelsLast', 'avgPool2dBackwardChannelsLast', 'adaptiveAvgPool2dBackwardChannelsLast'] as const).map((n) => vi.spyOn(cpuImpls, n));
    const failures: string[] = [];
    const grad = (x: torch.Tensor, f: (t: torch.Tensor) => torch.Tensor, gseed: number): torch.Tensor => {
      const t = x.detach().requiresGrad_();
      const y = f(t);
      input.reseed(gseed);
      y.backward(input([...y.shape], x.dtype as DT).contiguous({ memoryFormat: 'channels_last' }));
      return t.grad!;
    };
    let calls = 0;
    for (const dtype of ['float32', 'float64'] as const) {
      const rtol = dtype === 'float32' ? 1e-6 : 1e-14;
      for (const [shape, k, st, p, d, ceil] of POOLS.filter((c) => c[0][1] > 1)) {
        const x = input(shape, dtype, { nans: 2 });
        const what = `${dtype} ${shape} k${k} s${st} p${p} d${d} ceil ${ceil}`;
        const mx = (t: torch.Tensor) => F.maxPool2d(t, k, st, p, d, ceil);
        same(grad(cl(x), mx, 3), grad(x, mx, 3), 0, `${what} max grad`, failures);
        const av = (t: torch.Tensor) => F.avgPool2d(t, k, { stride: st, padding: p, ceilMode: ceil, countIncludePad: d[0] === 1, divisorOverride: d[1] === 2 ? 5 : null });
        same(grad(cl(x), av, 4), grad(x, av, 4), rtol, `${what} avg grad`, failures);
        const ad = (t: torch.Tensor) => F.adaptiveAvgPool2d(t, [Math.ceil(shape[2] / 2), 3]);
        same(grad(cl(x), ad, 5), grad(x, ad, 5), rtol, `${what} adaptive grad`, failures);
        calls++;
      }
    }
    expect(failures).toEqual([]);
    for (const spy of spies) expect(spy.mock.results.filter((r) => r.value !== false).length).toBe(calls);
  });

  it('batch norm backward (NHWC kernel): input, weight and bias gradients equal the NCHW path, train and eval', () => {
    const spy = vi.spyOn(cpuImpls, 'batchNormBackwardChannelsLast');
    const failures: string[] = [];
    let calls = 0;
    for (const dtype of ['float32', 'float64'] as const) {
      const rtol = dtype === 'float32' ? 1e-5 : 1e-12;
      for (const shape of [[2, 5, 9, 11], [1, 7, 3, 3], [4, 16, 5, 6]]) {
        const C = shape[1];
        for (const affine of [true, false]) {
          for (const training of [true, false]) {
            const grads = (['channels_last', 'contiguous'] as const).map((fmt) => {
              input.reseed(11);
              const x = input(shape, dtype).contiguous({ memoryFormat: fmt }).requiresGrad_();
              const w = affine ? input([C], dtype).requiresGrad_() : null;
              const b = affine ? input([C], dtype).requiresGrad_() : null;
              const rm = input([C], dtype);
              const rv = input([C], dtype).abs().add(0.5);
              const y = F.batchNorm(x, rm, rv, { weight: w, bias: b, training, eps: 1e-3 });
              y.backward(input(shape, dtype).contiguous({ memoryFormat: 'channels_last' }));
              return [x.grad!, w?.grad ?? null, b?.grad ?? null];
            });
            grads[0].forEach((g, i) => g && same(g, grads[1][i]!, rtol, `${dtype} ${shape} affine ${affine} training ${training} grad ${i}`, failures));
            calls++;
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(spy.mock.results.filter((r) => r.value !== false).length).toBe(calls);
  });

  it('gradients through the NHWC forwards equal the contiguous input’s (float64)', () => {
    const failures: string[] = [];
    const nets: [string, (x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) => torch.Tensor][] = [
      ['max', (x) => F.maxPool2d(x, 3, 2, 1)],
      ['avg', (x) => F.avgPool2d(x, 3, { stride: 2, padding: 1, ceilMode: true, countIncludePad: false })],
      ['adaptive', (x) => F.adaptiveAvgPool2d(x, [2, 3])],
      ['bn', (x, w, b) => F.batchNorm(x, null, null, { weight: w, bias: b, training: true })],
    ];
    for (const [name, f] of nets) {
      const grads = ['channels_last', 'contiguous'].map((fmt) => {
        input.reseed(7);
        const x = input([2, 6, 7, 9], 'float64').contiguous({ memoryFormat: fmt as 'channels_last' }).requiresGrad_();
        const w = input([6], 'float64').requiresGrad_();
        const b = input([6], 'float64').requiresGrad_();
        const y = f(x, w, b);
        y.mul(input([...y.shape], 'float64')).sum().backward();
        return [x.grad!, name === 'bn' ? w.grad! : null, name === 'bn' ? b.grad! : null];
      });
      grads[0].forEach((g, i) => g && same(g, grads[1][i]!, 1e-12, `${name} grad ${i}`, failures));
    }
    expect(failures).toEqual([]);
  });
});
