/**
 * The optional hooks of Note [Channels-last pooling impls] on the CPU: a dense channels-last
 * input to adaptive_max_pool2d and group norm runs the backend's NHWC kernels (the test counts
 * their calls) and gives the layout of the NCHW path (memory-format.test holds it to PyTorch's
 * strides) and its values: adaptive max pooling and its indices bit for bit (one NaN per window
 * included; with several, PyTorch 1.13's last NaN, on every window-max path), group norm within a few roundings (the
 * float64 sums run in another order, the affine is fused). Gradients through autograd equal
 * the contiguous input's; group norm's grad_input is contiguous as PyTorch 1.13's (x.grad is
 * channels-last by AccumulateGrad's layout contract). A hook that declines leaves the results.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as torch from '@torch-ts/torch';
import { lcgInputs, sameValues } from './channels-last-helpers';
import { cpuImpls } from '@torch-ts/kernels-cpu';
import { NATIVE_GROUP_NORM, _nativeGroupNormBackward, adaptiveMaxPool2dBackward, callBoxed } from '@torch-ts/core';

const F = torch.nn.functional;

const input = lcgInputs(11);
const cl = (t: torch.Tensor) => t.contiguous({ memoryFormat: 'channels_last' });
const clStrides = ([, C, H, W]: readonly number[]) => [H * W * C, 1, W * C, C];

const same = sameValues;
const strided = (t: torch.Tensor, want: number[], what: string, failures: string[]) => {
  if (JSON.stringify(t.stride()) !== JSON.stringify(want)) failures.push(`${what}: strides ${JSON.stringify(t.stride())}, want ${JSON.stringify(want)}`);
};
/** native_group_norm's (out, mean, rstd), through the dispatcher. */
function nativeGroupNorm(x: torch.Tensor, w: torch.Tensor | null, b: torch.Tensor | null, [N, C, H, W]: number[], G: number): torch.Tensor[] {
  const r = callBoxed(NATIVE_GROUP_NORM, [x.impl, w?.impl ?? null, b?.impl ?? null, N, C, H * W, G, 1e-5]) as (typeof x.impl)[];
  return r.map((i) => new torch.Tensor(i));
}
const ok = (spy: { mock: { results: { value: unknown }[] } }) => spy.mock.results.filter((r) => r.value !== false).length;

// [N, C, H, W] -> [oH, oW]: dividing, not dividing (overlapping windows), larger than the input, C not a multiple of 4
const ADAPTIVE: [number[], [number, number]][] = [
  [[2, 8, 8, 8], [4, 4]],
  [[2, 5, 9, 11], [4, 3]],
  [[1, 7, 5, 6], [7, 8]],
  [[3, 13, 10, 7], [3, 5]],
  [[1, 4, 1, 9], [1, 2]],
  [[2, 6, 6, 5], [1, 1]],
];

// [N, C, H, W], groups: G = 1, G = C, in between, odd sizes
const GROUPS: [number[], number][] = [
  [[2, 6, 4, 5], 3],
  [[2, 6, 4, 5], 1],
  [[2, 6, 4, 5], 6],
  [[3, 8, 7, 3], 4],
  [[1, 12, 5, 9], 2],
  [[2, 9, 3, 3], 3],
  [[1, 16, 6, 7], 16],
];

afterEach(() => vi.restoreAllMocks());

describe('channels-last adaptive max pooling and group norm without layout copies (CPU)', () => {
  it('adaptive_max_pool2d: values and int64 indices equal the NCHW path (NaNs included), channels-last as PyTorch', () => {
    const spy = vi.spyOn(cpuImpls, 'adaptiveMaxPool2dChannelsLast');
    const failures: string[] = [];
    for (const dtype of ['float32', 'float64'] as const) {
      for (const [shape, out] of ADAPTIVE) {
        for (const nan of [false, true]) {
          let x = input(shape, dtype);
          // one NaN per plane (so no window holds two), at a different place in each
          if (nan) {
            const [N, C, H, W] = shape;
            const mask = Array.from({ length: N * C }, (_, p) => Array.from({ length: H * W }, (_, i) => i === (p * 7 + 3) % (H * W))).flat();
            x = torch.where(torch.tensor(mask).reshape(shape), NaN, x);
          }
          const what = `${dtype} ${shape} -> ${out}${nan ? ' NaN' : ''}`;
          const [v, i] = F.adaptiveMaxPool2d(cl(x), out, true);
          const [v0, i0] = F.adaptiveMaxPool2d(x, out, true);
          strided(v, clStrides(v.shape), `${what} values`, failures);
          strided(i, clStrides(i.shape), `${what} indices`, failures);
          expect(i.dtype).toBe('int64');
          same(v, v0, 0, `${what} values`, failures);
          same(i, i0, 0, `${what} indices`, failures);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(ok(spy)).toBe(2 * ADAPTIVE.length * 2);
  });

  it("adaptive_max_pool2d: several NaNs in a window give PyTorch 1.13's index (the last NaN)", () => {
    // torch.arange(16.).reshape(1,1,4,4) with NaN at 0 and 5, adaptive_max_pool2d(x, 1,
    // return_indices=True) in 1.13 (contiguous and channels_last): (nan, 5); 2x2 output:
    // windows [0,2)x[0,2) (NaN at 0 and 5: 5), the others their maxima 7, 13, 15
    const v = Array.from({ length: 16 }, (_, i) => (i === 0 || i === 5 ? NaN : i));
    for (const C of [2, 5]) {
      const x = torch.tensor(Array.from({ length: C }, () => v).flat(), { dtype: 'float32' }).reshape([1, C, 4, 4]);
      const [m, i] = F.adaptiveMaxPool2d(cl(x), [1, 1], true);
      expect(Array.from(i.dataSync(), Number)).toEqual(Array(C).fill(5));
      expect(Number.isNaN(Number(m.dataSync()[0]))).toBe(true);
      const [, i2] = F.adaptiveMaxPool2d(cl(x), [2, 2], true);
      expect(Array.from(i2.contiguous().dataSync(), Number).slice(0, 4)).toEqual([5, 7, 13, 15]);
      // the contiguous input's composite too
      const [, i3] = F.adaptiveMaxPool2d(x, [2, 2], true);
      expect(Array.from(i3.dataSync(), Number).slice(0, 4)).toEqual([5, 7, 13, 15]);
    }
    // the other window-max composites, as 1.13: [nan, 1, 2, nan, 0, 5] -> index 3 (adaptive_max_pool1d,
    // adaptive_max_pool3d and max_pool3d over the same numbers as a 2x2x2 volume with 1, 1 appended)
    const six = torch.tensor([NaN, 1, 2, NaN, 0, 5]).reshape([1, 1, 6]);
    expect(Number(F.adaptiveMaxPool1d(six, 1, true)[1].item())).toBe(3);
    const vol = torch.tensor([NaN, 1, 2, NaN, 0, 5, 1, 1]).reshape([1, 1, 2, 2, 2]);
    expect(Number(F.adaptiveMaxPool3d(vol, 1, true)[1].item())).toBe(3);
    expect(Number(F.maxPool3d(vol, 2, { returnIndices: true })[1].item())).toBe(3);
    // and the gradient goes to the element the index names
    const leaf = vol.clone().requiresGrad_();
    F.maxPool3d(leaf, 2).sum().backward();
    expect(Array.from(leaf.grad!.dataSync(), Number)).toEqual([0, 0, 0, 1, 0, 0, 0, 0]);
  });

  it('adaptive_max_pool2d: gradients (channels-last) and double backward equal the contiguous input’s', async () => {
    const spy = vi.spyOn(cpuImpls, 'adaptiveMaxPool2dBackwardChannelsLast');
    const failures: string[] = [];
    for (const dtype of ['float32', 'float64'] as const) {
      for (const [shape, out] of ADAPTIVE) {
        const x = input(shape, dtype);
        const go = input([shape[0], shape[1], ...out], dtype);
        const grads = [cl(x), x].map((t) => {
          const leaf = t.clone().requiresGrad_();
          // (clone keeps the layout: a channels-last leaf)
          const [g] = torch.autograd.grad(F.adaptiveMaxPool2d(leaf, out), leaf, go);
          return g!;
        });
        const what = `${dtype} ${shape} -> ${out}`;
        strided(grads[0], clStrides(shape), `${what} grad`, failures);
        // overlapping windows add up to four gradients at one input, in another order: one rounding
        same(grads[0], grads[1], dtype === 'float32' ? 1e-6 : 1e-15, `${what} grad`, failures);
      }
    }
    expect(failures).toEqual([]);
    expect(ok(spy)).toBe(2 * ADAPTIVE.length);
    const x = cl(input([2, 3, 5, 7], 'float64')).requiresGrad_();
    expect(await torch.autograd.gradcheck((t: torch.Tensor) => F.adaptiveMaxPool2d(t, [3, 4]), [x])).toBe(true);
    expect(await torch.autograd.gradgradcheck((t: torch.Tensor) => F.adaptiveMaxPool2d(t, [3, 4]), [x])).toBe(true);
  });

  it('group norm: output (channels-last), mean and rstd equal the NCHW path within a few roundings, affine or not', () => {
    const spy = vi.spyOn(cpuImpls, 'groupNormChannelsLast');
    const failures: string[] = [];
    for (const dtype of ['float32', 'float64'] as const) {
      const rtol = dtype === 'float32' ? 4e-6 : 1e-13;
      for (const [shape, G] of GROUPS) {
        for (const affine of [false, true]) {
          // an offset mean, so that the two-pass variance matters
          const x = input(shape, dtype, { offset: 3 });
          const w = affine ? input([shape[1]], dtype) : null;
          const b = affine ? input([shape[1]], dtype) : null;
          const what = `${dtype} ${shape} G=${G} affine ${affine}`;
          const y = F.groupNorm(cl(x), G, w, b);
          const y0 = F.groupNorm(x, G, w, b);
          strided(y, clStrides(shape), what, failures);
          same(y, y0, rtol, what, failures);
          const [o, m, r] = nativeGroupNorm(cl(x), w, b, shape, G);
          const [, m0, r0] = nativeGroupNorm(x, w, b, shape, G);
          expect(m.shape).toEqual([shape[0], G]);
          strided(o, clStrides(shape), `${what} native`, failures);
          same(m, m0, rtol, `${what} mean`, failures);
          same(r, r0, rtol, `${what} rstd`, failures);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(ok(spy)).toBe(2 * GROUPS.length * 2 * 2);
  });

  it('group norm: input, weight and bias gradients equal the contiguous input’s; grad_input contiguous as PyTorch 1.13', () => {
    const spy = vi.spyOn(cpuImpls, 'groupNormBackwardChannelsLast');
    const failures: string[] = [];
    let calls = 0;
    for (const dtype of ['float32', 'float64'] as const) {
      const rtol = dtype === 'float32' ? 2e-5 : 1e-12;
      for (const [shape, G] of GROUPS) {
        for (const affine of [false, true]) {
          const x = input(shape, dtype, { offset: 1 });
          const w = affine ? input([shape[1]], dtype) : null;
          const b = affine ? input([shape[1]], dtype) : null;
          // grad_output channels-last and contiguous (the kernel reads a dense channels-last copy of the latter)
          for (const gf of ['channels_last', 'contiguous'] as const) {
            const go = input(shape, dtype).contiguous({ memoryFormat: gf });
            const grads = [cl(x), x].map((t) => {
              const leaf = t.clone().requiresGrad_();
              const ws = [w, b].map((p) => (p ? p.clone().requiresGrad_() : null));
              const params = [leaf, ...ws.filter((p): p is torch.Tensor => p !== null)];
              return torch.autograd.grad(F.groupNorm(leaf, G, ws[0], ws[1]), params, go);
            });
            calls++;
            const what = `${dtype} ${shape} G=${G} affine ${affine} grad_output ${gf}`;
            strided(grads[0][0]!, grads[1][0]!.stride(), `${what} grad_input`, failures);
            grads[0].forEach((g, i) => same(g!, grads[1][i]!, rtol, `${what} grad ${i}`, failures));
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(ok(spy)).toBe(calls);
    // .backward(): the leaf's grad is channels-last by the layout contract, as PyTorch's x.grad
    const x = cl(input([2, 6, 4, 5], 'float32')).requiresGrad_();
    F.groupNorm(x, 3).backward(input([2, 6, 4, 5], 'float32'));
    expect(x.grad!.stride()).toEqual([120, 1, 30, 6]);
  });

  it('group norm: double backward goes through the differentiable formula (gradgradcheck)', async () => {
    const x = cl(input([2, 4, 3, 3], 'float64')).requiresGrad_();
    const w = input([4], 'float64').requiresGrad_();
    const b = input([4], 'float64').requiresGrad_();
    expect(await torch.autograd.gradcheck((t: torch.Tensor, p: torch.Tensor, q: torch.Tensor) => F.groupNorm(t, 2, p, q), [x, w, b])).toBe(true);
    expect(await torch.autograd.gradgradcheck((t: torch.Tensor, p: torch.Tensor, q: torch.Tensor) => F.groupNorm(t, 2, p, q), [x, w, b])).toBe(true);
  });

  it('hooks that decline leave values and layouts: the NCHW path, the composite in the kernel op, the formula', () => {
    const failures: string[] = [];
    const x = input([2, 6, 5, 7], 'float64', { offset: 1 });
    const w = input([6], 'float64');
    const b = input([6], 'float64');
    const go = input([2, 6, 5, 7], 'float64');
    const run = () => {
      const leaf = cl(x).requiresGrad_();
      const y = F.groupNorm(leaf, 3, w, b);
      const [gx] = torch.autograd.grad(y, leaf, go);
      const [v, i] = F.adaptiveMaxPool2d(leaf, [3, 4], true);
      const [ga] = torch.autograd.grad(v, leaf, input([2, 6, 3, 4], 'float64'));
      return [y, gx!, v, i, ga!];
    };
    input.reseed(5);
    const want = run();
    const names = ['groupNormChannelsLast', 'groupNormBackwardChannelsLast', 'adaptiveMaxPool2dChannelsLast', 'adaptiveMaxPool2dBackwardChannelsLast'] as const;
    const spies = names.map((n) => vi.spyOn(cpuImpls, n).mockReturnValue(false));
    input.reseed(5);
    const got = run();
    spies.forEach((s, k) => expect(s, names[k]).toHaveBeenCalled());
    got.forEach((t, k) => {
      strided(t, want[k].stride(), `declined ${k}`, failures);
      same(t, want[k], k === 1 || k === 4 ? 1e-12 : k === 0 ? 1e-13 : 0, `declined ${k}`, failures);
    });
    expect(failures).toEqual([]);
  });

  it('refuses a malformed call of the kernel ops', () => {
    const x = cl(input([1, 4, 4, 4], 'float32'));
    const g = input([1, 4, 4, 4], 'float32');
    const m = torch.zeros([1, 2]);
    expect(() => _nativeGroupNormBackward(g, x, m, m, null, 1, 4, 15, 2, [true, true, true])).toThrow(/N \* C \* HxW/);
    expect(() => _nativeGroupNormBackward(g, x, torch.zeros([3]), m, null, 1, 4, 16, 2, [true, true, true])).toThrow(/mean and rstd of 2 elements/);
    expect(() => adaptiveMaxPool2dBackward(input([1, 4, 2, 2], 'float64'), x, torch.zeros([1, 4, 2, 2], { dtype: 'int64' }))).toThrow(/dtype/);
    expect(() => adaptiveMaxPool2dBackward(input([1, 4, 2, 2], 'float32'), x, torch.zeros([1, 4, 2, 3], { dtype: 'int64' }))).toThrow(/indices/);
  });
});
