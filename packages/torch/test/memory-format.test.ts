/**
 * Memory formats (Note [Memory formats]) against PyTorch 1.13 (scripts/goldens/memory_format.py):
 * for each conv/pool/norm/upsample/pointwise/reduction op, a contiguous and a channels-last
 * float64 input give PyTorch's output strides, its values, and an input gradient with
 * PyTorch's strides and values; clone/contiguous/to/*_like/empty lay out as PyTorch's; the
 * rank errors are PyTorch's; a small CNN trained in channels-last equals the contiguous one.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { traceBatchedFallback } from '@torch-ts/core';
import golden from './goldens/memory_format.json';

const F = torch.nn.functional;
interface G {
  shape: number[];
  dtype: string;
  values: number[];
}
const t64 = (g: G) => torch.tensor(g.values, { dtype: 'float64' }).reshape(g.shape);
const P = Object.fromEntries(Object.entries(golden.params).map(([k, v]) => [k, t64(v)])) as Record<string, torch.Tensor>;

const OPS: Record<string, (x: torch.Tensor) => torch.Tensor> = {
  conv2d: (x) => F.conv2d(x, P.w, P.b, { padding: 1 }),
  conv2d_stride2: (x) => F.conv2d(x, P.w, null, { stride: 2 }),
  conv2d_groups: (x) => F.conv2d(x, P.wg, null, { groups: 3 }),
  conv_transpose2d: (x) => F.convTranspose2d(x, P.wt),
  max_pool2d: (x) => F.maxPool2d(x, 2),
  avg_pool2d: (x) => F.avgPool2d(x, 2),
  adaptive_avg_pool2d: (x) => F.adaptiveAvgPool2d(x, [2, 3]),
  adaptive_max_pool2d: (x) => F.adaptiveMaxPool2d(x, [2, 3]),
  batch_norm: (x) => F.batchNorm(x, null, null, { training: true }),
  batch_norm_eval: (x) => F.batchNorm(x, torch.zeros(3, { dtype: 'float64' }), torch.ones(3, { dtype: 'float64' })),
  group_norm: (x) => F.groupNorm(x, 1),
  layer_norm: (x) => F.layerNorm(x, [5, 6]),
  interpolate_nearest: (x) => F.interpolate(x, { scaleFactor: 2 }),
  interpolate_bilinear: (x) => F.interpolate(x, { scaleFactor: 2, mode: 'bilinear' }),
  interpolate_bilinear_ac: (x) => F.interpolate(x, { size: [7, 8], mode: 'bilinear', alignCorners: true }),
  interpolate_bicubic: (x) => F.interpolate(x, { scaleFactor: 2, mode: 'bicubic' }),
  interpolate_bicubic_ac: (x) => F.interpolate(x, { size: [7, 8], mode: 'bicubic', alignCorners: true }),
  pixel_shuffle: (x) => F.pixelShuffle(x, 1),
  pixel_unshuffle: (x) => F.pixelUnshuffle(x.slice(2, 0, 4), 2),
  pixel_shuffle_roundtrip: (x) => F.pixelShuffle(F.pixelUnshuffle(x.slice(2, 0, 4), 2), 2),
  relu: (x) => F.relu(x),
  mul_broadcast: (x) => x.mul(P.m),
  sum_keepdim: (x) => x.sum(1, true),
  mean_hw: (x) => x.mean([2, 3], true),
  softmax: (x) => F.softmax(x, 1),
  pad_constant: (x) => F.pad(x, [1, 2, 1, 1]),
  pad_reflect: (x) => F.pad(x, [1, 2, 1, 1], 'reflect'),
};

function expectValues(t: torch.Tensor, g: G, what: string): void {
  expect(t.shape, what).toEqual(g.shape);
  const v = t.dataSync() as Float64Array;
  g.values.forEach((e, i) => {
    if (!(Math.abs(v[i] - e) <= 1e-10 + 1e-9 * Math.abs(e))) expect.fail(`${what}[${i}]: ${v[i]} vs PyTorch ${e}`);
  });
}

describe('memory formats: ops against PyTorch 1.13', () => {
  it('output strides, values and input-gradient strides for contiguous and channels-last inputs', () => {
    const failures: string[] = [];
    for (const c of golden.cases) {
      for (const format of ['contiguous', 'channels_last'] as const) {
        const l = c[format];
        const what = `${c.op} (${format} input)`;
        const x = P.x.contiguous({ memoryFormat: format }).requiresGrad_();
        const y = OPS[c.op](x);
        if (JSON.stringify(y.stride()) !== JSON.stringify(l.stride)) failures.push(`${what}: output stride ${JSON.stringify(y.stride())}, PyTorch ${JSON.stringify(l.stride)}`);
        expect(y.isContiguous({ memoryFormat: 'channels_last' }) === l.channels_last || failures.some((f) => f.startsWith(what)), what).toBe(true);
        expectValues(y, c.out, `${what} output`);
        const go = t64(c.grad_output).contiguous({ memoryFormat: l.grad_output_stride[1] === 1 && l.stride[1] === 1 ? 'channels_last' : 'contiguous' });
        expect(go.stride(), what).toEqual(l.grad_output_stride);
        const [g] = torch.autograd.grad(y, x, go);
        if (JSON.stringify(g!.stride()) !== JSON.stringify(l.grad_stride)) failures.push(`${what}: grad stride ${JSON.stringify(g!.stride())}, PyTorch ${JSON.stringify(l.grad_stride)}`);
        expectValues(g!, c.grad, `${what} grad`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("conv's input and weight gradient strides per layout pair, and each op's input gradient when grad_output's layout differs", () => {
    const got: typeof golden.conv_grads = [];
    for (const xf of ['contiguous', 'channels_last'] as const) {
      for (const wf of ['contiguous', 'channels_last'] as const) {
        for (const [op, w, f] of [
          ['conv2d', P.w, (x: torch.Tensor, wl: torch.Tensor) => F.conv2d(x, wl, null, { padding: 1 })],
          ['conv_transpose2d', P.wt, (x: torch.Tensor, wl: torch.Tensor) => F.convTranspose2d(x, wl)],
        ] as const) {
          const x = P.x.contiguous({ memoryFormat: xf }).requiresGrad_();
          const wl = w.contiguous({ memoryFormat: wf }).requiresGrad_();
          const y = f(x, wl);
          const [gx, gw] = torch.autograd.grad(y, [x, wl], torch.onesLike(y, { memoryFormat: 'contiguous' }));
          got.push({ op, input: xf, weight: wf, stride: y.stride(), grad_input_stride: gx!.stride(), grad_weight_stride: gw!.stride() });
        }
      }
    }
    expect(got).toEqual(golden.conv_grads);
    const mixed: Record<string, number[]> = {};
    for (const key of Object.keys(golden.mixed_grads)) {
      const [op, xf, gf] = key.split('/') as [string, 'contiguous' | 'channels_last', 'contiguous' | 'channels_last'];
      const x = P.x.contiguous({ memoryFormat: xf }).requiresGrad_();
      const y = OPS[op](x);
      const [g] = torch.autograd.grad(y, x, torch.onesLike(y).contiguous({ memoryFormat: gf }));
      mixed[key] = g!.stride();
    }
    expect(mixed).toEqual(golden.mixed_grads);
  });

  it('3-d ops: output strides, values and input-gradient strides for contiguous and channels_last_3d inputs, and per grad_output layout', () => {
    const OPS3D: Record<string, (x: torch.Tensor) => torch.Tensor> = {
      conv3d: (x) => F.conv3d(x, P.w5, P.b5, { padding: 1 }),
      conv_transpose3d: (x) => F.convTranspose3d(x, P.wt5),
      max_pool3d: (x) => F.maxPool3d(x, 2),
      avg_pool3d: (x) => F.avgPool3d(x, 2, 1),
      adaptive_avg_pool3d: (x) => F.adaptiveAvgPool3d(x, [2, 3, 3]),
      adaptive_max_pool3d: (x) => F.adaptiveMaxPool3d(x, [2, 3, 3]),
      batch_norm3d: (x) => F.batchNorm(x, null, null, { training: true }),
      batch_norm3d_eval: (x) => F.batchNorm(x, torch.zeros(3, { dtype: 'float64' }), torch.ones(3, { dtype: 'float64' })),
      group_norm3d: (x) => F.groupNorm(x, 3),
      interpolate_nearest3d: (x) => F.interpolate(x, { size: [4, 6, 5] }),
      interpolate_trilinear: (x) => F.interpolate(x, { size: [4, 6, 5], mode: 'trilinear' }),
      interpolate_trilinear_ac: (x) => F.interpolate(x, { size: [5, 5, 6], mode: 'trilinear', alignCorners: true }),
    };
    const failures: string[] = [];
    const str = (s: number[]) => JSON.stringify(s);
    for (const c of golden.cases3d) {
      for (const format of ['contiguous', 'channels_last_3d'] as const) {
        const l = c[format];
        const what = `${c.op} (${format} input)`;
        const x = P.x5.contiguous({ memoryFormat: format }).requiresGrad_();
        const y = OPS3D[c.op](x);
        if (str(y.stride()) !== str(l.stride)) failures.push(`${what}: output stride ${str(y.stride())}, PyTorch ${str(l.stride)}`);
        expectValues(y, c.out, `${what} output`);
        const go = t64(c.grad_output).contiguous({ memoryFormat: l.grad_output_stride[1] === 1 ? 'channels_last_3d' : 'contiguous' });
        expect(go.stride(), what).toEqual(l.grad_output_stride);
        const [g] = torch.autograd.grad(y, x, go);
        if (str(g!.stride()) !== str(l.grad_stride)) failures.push(`${what}: grad stride ${str(g!.stride())}, PyTorch ${str(l.grad_stride)}`);
        expectValues(g!, c.grad, `${what} grad`);
      }
    }
    expect(failures).toEqual([]);
    const mixed: Record<string, number[]> = {};
    for (const key of Object.keys(golden.mixed_grads3d)) {
      const [op, xf, gf] = key.split('/') as [string, 'contiguous' | 'channels_last_3d', 'contiguous' | 'channels_last_3d'];
      const x = P.x5.contiguous({ memoryFormat: xf }).requiresGrad_();
      const y = OPS3D[op](x);
      const [g] = torch.autograd.grad(y, x, torch.onesLike(y).contiguous({ memoryFormat: gf }));
      mixed[key] = g!.stride();
    }
    expect(mixed).toEqual(golden.mixed_grads3d);
    const empty: Record<string, number[]> = {};
    for (const key of Object.keys(golden.empty3d)) {
      const [op, xf] = key.split('/') as [string, 'contiguous' | 'channels_last_3d'];
      empty[key] = OPS3D[op](torch.randn([0, 3, 3, 4, 4], { dtype: 'float64' }).contiguous({ memoryFormat: xf })).stride();
    }
    expect(empty).toEqual(golden.empty3d);
  });

  it("trilinear, an operator with its own derivative: double backward, forward AD, and vmap folds it into the batch", async () => {
    // (core Note [Trilinear gradient layout]: the derivative is a composite of ordinary ops)
    const tri = (t: torch.Tensor) => F.interpolate(t, { size: [3, 3, 2], mode: 'trilinear' });
    const x = torch.randn([1, 2, 2, 2, 2], { dtype: 'float64' });
    for (const f of ['contiguous', 'channels_last_3d'] as const) {
      expect(await torch.autograd.gradgradcheck(tri, [x.contiguous({ memoryFormat: f }).requiresGrad_()]), f).toBe(true);
    }
    // forward AD: the tangent resized as the primal (trilinear is linear)
    const tangent = torch.randn([1, 2, 2, 2, 2], { dtype: 'float64' });
    const [, dy] = torch.func.jvp(tri, [x], [tangent]);
    expect((dy as torch.Tensor).sub(tri(tangent)).abs().max().item()).toBeLessThan(1e-12);
    const xs = torch.randn([3, 2, 2, 2, 3, 2], { dtype: 'float64' });
    let batched: torch.Tensor | null = null;
    const looped = traceBatchedFallback(() => (batched = torch.func.vmap(tri)(xs)));
    expect(looped).toEqual([]);
    const each = torch.stack([0, 1, 2].map((i) => tri(xs.select(0, i))));
    expect(batched!.sub(each).abs().max().item()).toBeLessThan(1e-12);
  });
});

describe('memory formats: the API', () => {
  it('clone/contiguous/to/*_like/empty lay out as PyTorch', () => {
    const x = P.x;
    const cl = x.contiguous({ memoryFormat: torch.channels_last });
    const x1 = torch.randn([2, 3, 1, 1], { dtype: 'float64' });
    const x5 = torch.randn([2, 3, 2, 3, 4], { dtype: 'float64' });
    const sl = (t: torch.Tensor) => t.index(':', ':', '::2');
    const got: Record<string, torch.Tensor> = {
      to_cl: x.to({ memoryFormat: torch.channels_last }),
      contiguous_cl: x.contiguous({ memoryFormat: 'channels_last' }),
      clone_cl: x.clone({ memoryFormat: torch.channels_last }),
      clone_preserve_cl: cl.clone(),
      clone_contiguous_of_cl: cl.clone({ memoryFormat: torch.contiguous_format }),
      contiguous_of_cl: cl.contiguous(),
      clone_preserve_nondense: sl(x).clone(),
      clone_preserve_cl_nondense: sl(cl).clone(),
      to_dtype_cl: cl.to('float32'),
      to_cl_n11: x1.to({ memoryFormat: torch.channels_last }),
      contiguous_cl_n11: x1.contiguous({ memoryFormat: torch.channels_last }),
      conv_n11_cl: F.conv2d(x1.to({ memoryFormat: torch.channels_last }), torch.randn([4, 3, 1, 1], { dtype: 'float64' })),
      empty_like_cl: torch.emptyLike(cl),
      zeros_like_cl: torch.zerosLike(cl),
      ones_like_cl_contiguous: torch.onesLike(cl, { memoryFormat: torch.contiguous_format }),
      full_like_x_cl: torch.fullLike(x, 2, { memoryFormat: torch.channels_last }),
      empty_like_nondense: torch.emptyLike(sl(x)),
      empty_cl: torch.empty([2, 3, 5, 6], { memoryFormat: torch.channels_last }),
      empty_cl3d: torch.empty([2, 3, 2, 3, 4], { memoryFormat: torch.channels_last_3d }),
      clone_cl3d: x5.clone({ memoryFormat: torch.channels_last_3d }),
      permuted_clone: x.permute(0, 2, 3, 1).clone(),
    };
    const layouts = Object.fromEntries(Object.entries(got).map(([k, t]) => [k, { shape: t.shape, stride: t.stride() }]));
    expect(layouts).toEqual(golden.api);
    // values survive every relayout; fills and random *_like fill the logical tensor
    for (const k of ['to_cl', 'contiguous_cl', 'clone_cl', 'clone_contiguous_of_cl', 'to_dtype_cl'] as const) expect(got[k].tolist(), k).toEqual(k === 'to_dtype_cl' ? x.float().tolist() : x.tolist());
    expect(got.zeros_like_cl.sum().item()).toBe(0);
    expect(got.full_like_x_cl.eq(2).all().item()).toBe(true);
    expect(torch.randLike(cl).stride()).toEqual([90, 1, 18, 3]);
    // a channels-last tensor already laid out so is returned as it is
    expect(cl.contiguous({ memoryFormat: 'channels_last' })).toBe(cl);
    expect(cl.to({ memoryFormat: 'channels_last' })).toBe(cl);
    expect(x.to({ memoryFormat: 'contiguous' })).toBe(x);
  });

  it('isContiguous({ memoryFormat }) as PyTorch, and the constants', () => {
    const x = P.x;
    const x1 = torch.randn([2, 3, 1, 1]).to({ memoryFormat: torch.channels_last });
    const x5 = torch.randn([2, 3, 2, 3, 4]).clone({ memoryFormat: torch.channels_last_3d });
    const cl = x.contiguous({ memoryFormat: 'channels_last' });
    const both = (t: torch.Tensor, f: 'channels_last' | 'channels_last_3d') => [t.isContiguous(), t.isContiguous({ memoryFormat: f })];
    expect({ x: both(x, 'channels_last'), cl: both(cl, 'channels_last'), n11_cl: both(x1, 'channels_last'), x5_cl3d: both(x5, 'channels_last_3d') }).toEqual(golden.is_contiguous);
    expect([torch.channels_last, torch.contiguous_format, torch.preserve_format, torch.channels_last_3d]).toEqual(['channels_last', 'contiguous', 'preserve', 'channels_last_3d']);
    expect(x.isContiguous({ memoryFormat: torch.preserve_format })).toBe(true);
  });

  it("raises PyTorch's errors for a rank a format does not fit", () => {
    const t2 = torch.randn([2, 3]);
    const cases: Record<string, [() => unknown, string]> = {
      to_2d: [() => t2.to({ memoryFormat: 'channels_last' }), 'to'],
      contiguous_2d: [() => t2.contiguous({ memoryFormat: 'channels_last' }), 'clone'],
      clone_3d_cl3d: [() => torch.randn([2, 3, 4]).clone({ memoryFormat: 'channels_last_3d' }), 'clone'],
      empty_like_2d: [() => torch.emptyLike(t2, { memoryFormat: 'channels_last' }), 'empty_like'],
      empty_preserve: [() => torch.empty([2, 3, 4, 5], { memoryFormat: 'preserve' }), 'empty'],
      contiguous_preserve: [() => P.x.transpose(1, 2).contiguous({ memoryFormat: 'preserve' }), 'contiguous'],
    };
    for (const [k, [f, op]] of Object.entries(cases)) {
      let err: unknown = null;
      try {
        f();
      } catch (e) {
        err = e;
      }
      expect(err, k).toBeInstanceOf(torch.TorchError);
      expect((err as Error).message, k).toBe(`${op}: ${(golden.errors as Record<string, string>)[k]}`);
    }
    expect(() => P.x.clone({ memoryFormat: 'channelsLast' } as never)).toThrow(/memory_format must be one of/);
    // Module.to converts 4-d and 5-d tensors only, so a 5-d weight under channels_last is PyTorch's rank error
    expect(() => new torch.nn.Conv3d(1, 1, 1).to({ memoryFormat: 'channels_last' })).toThrow('to: required rank 4 tensor to use channels_last format');
    // complex tensors (pairs of reals) have no channels-last copy yet: refused, not ignored
    const z = torch.complex(P.x, P.x);
    expect(() => z.clone({ memoryFormat: 'channels_last' })).toThrow(torch.NotImplementedError);
    expect(() => z.to({ memoryFormat: 'channels_last' })).toThrow(torch.NotImplementedError);
  });
});

describe('memory formats: training', () => {
  it('a small CNN trained 3 steps in channels-last equals the contiguous one; parameters and grads keep their layouts', () => {
    const { nn } = torch;
    const run = (cl: boolean) => {
      torch.manualSeed(7);
      const net = new nn.Sequential(new nn.Conv2d(3, 4, 3, { padding: 1 }), new nn.BatchNorm2d(4), new nn.ReLU(), new nn.MaxPool2d(2), new nn.Conv2d(4, 4, 3), new nn.AdaptiveAvgPool2d(1), new nn.Flatten(), new nn.Linear(4, 2));
      net.double();
      if (cl) net.to({ memoryFormat: torch.channels_last });
      const opt = new torch.optim.SGD(net.parameters(), { lr: 0.1, momentum: 0.9 });
      const x0 = torch.randn([4, 3, 8, 8], { dtype: 'float64' });
      const x = cl ? x0.contiguous({ memoryFormat: torch.channels_last }) : x0;
      const target = torch.tensor([0, 1, 1, 0]);
      const losses: number[] = [];
      for (let s = 0; s < 3; s++) {
        opt.zeroGrad();
        const loss = F.crossEntropy(net.forward(x) as torch.Tensor, target);
        loss.backward();
        opt.step();
        losses.push(loss.item() as number);
      }
      return { net, losses };
    };
    const a = run(false);
    const b = run(true);
    const pa = [...a.net.parameters()];
    const pb = [...b.net.parameters()];
    a.losses.forEach((l, i) => expect(Math.abs(l - b.losses[i]), `loss ${i}`).toBeLessThan(1e-12));
    pa.forEach((p, i) => {
      const q = pb[i];
      expect(q.sub(p).abs().max().item(), `param ${i}`).toBeLessThan(1e-12);
      if (p.dim() === 4) {
        expect(q.isContiguous({ memoryFormat: 'channels_last' }) && !q.isContiguous(), `param ${i} channels-last`).toBe(true);
        expect(q.grad!.stride(), `grad ${i} has its parameter's strides`).toEqual(q.stride());
      } else expect(q.stride()).toEqual(p.stride());
    });
  });
});
