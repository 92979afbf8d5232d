/**
 * Memory formats on WebGPU: a few of memory-format.test.ts's PyTorch goldens (the
 * exhaustive sweep runs on the CPU) with a channels-last float32 input on device 'webgpu':
 * PyTorch's output and input-gradient strides, values at float32 tolerance (and a few 3-d
 * ops on a channels_last_3d input); and `to`
 * keeping or setting channels-last across the upload.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/memory_format.json';

const F = torch.nn.functional;
interface G {
  shape: number[];
  values: number[];
}
const onDevice = (g: G) => torch.tensor(g.values, { dtype: 'float32' }).reshape(g.shape).to('webgpu');

async function expectClose(t: torch.Tensor, g: G, what: string): Promise<void> {
  expect(t.device.type, what).toBe('webgpu');
  expect(t.shape, what).toEqual(g.shape);
  const v = (await t.data()) as Float32Array;
  g.values.forEach((e, i) => {
    if (!(Math.abs(v[i] - e) <= 1e-4 + 1e-4 * Math.abs(e))) expect.fail(`${what}[${i}]: ${v[i]} vs PyTorch ${e}`);
  });
}

const ready = await torch.webgpu.init();
if (!ready) console.warn('[memory-format-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');
if (ready) {
  describe('memory formats on webgpu equal PyTorch (float32)', () => {
    it('conv2d, max_pool2d, adaptive_max_pool2d, batch_norm, group_norm, bilinear upsampling and a pointwise op on a channels-last input', async () => {
      const P = Object.fromEntries(Object.entries(golden.params).map(([k, v]) => [k, onDevice(v)])) as Record<string, torch.Tensor>;
      const OPS: Record<string, (x: torch.Tensor) => torch.Tensor> = {
        conv2d: (x) => F.conv2d(x, P.w, P.b, { padding: 1 }),
        max_pool2d: (x) => F.maxPool2d(x, 2),
        adaptive_max_pool2d: (x) => F.adaptiveMaxPool2d(x, [2, 3]),
        batch_norm: (x) => F.batchNorm(x, null, null, { training: true }),
        group_norm: (x) => F.groupNorm(x, 1),
        interpolate_bilinear: (x) => F.interpolate(x, { scaleFactor: 2, mode: 'bilinear' }),
        mul_broadcast: (x) => x.mul(P.m),
      };
      for (const [op, f] of Object.entries(OPS)) {
        const c = golden.cases.find((k) => k.op === op)!;
        const l = c.channels_last;
        const x = P.x.contiguous({ memoryFormat: 'channels_last' }).requiresGrad_();
        expect(x.stride()).toEqual([90, 1, 18, 3]);
        const y = f(x);
        expect(y.stride(), `${op} output stride`).toEqual(l.stride);
        await expectClose(y, c.out, `${op} output`);
        const go = onDevice(c.grad_output).contiguous({ memoryFormat: l.grad_output_stride[1] === 1 ? 'channels_last' : 'contiguous' });
        const [g] = torch.autograd.grad(y, x, go);
        expect(g!.stride(), `${op} grad stride`).toEqual(l.grad_stride);
        await expectClose(g!, c.grad, `${op} grad`);
      }
    });

    it('3-d: conv3d, avg_pool3d, batch_norm, group_norm and trilinear upsampling on a channels_last_3d input, and trilinear per grad_output layout', async () => {
      const P = Object.fromEntries(Object.entries(golden.params).map(([k, v]) => [k, onDevice(v)])) as Record<string, torch.Tensor>;
      const OPS3D: Record<string, (x: torch.Tensor) => torch.Tensor> = {
        conv3d: (x) => F.conv3d(x, P.w5, P.b5, { padding: 1 }),
        avg_pool3d: (x) => F.avgPool3d(x, 2, 1),
        batch_norm3d: (x) => F.batchNorm(x, null, null, { training: true }),
        group_norm3d: (x) => F.groupNorm(x, 3),
        interpolate_trilinear: (x) => F.interpolate(x, { size: [4, 6, 5], mode: 'trilinear' }),
      };
      for (const [op, f] of Object.entries(OPS3D)) {
        const c = golden.cases3d.find((k) => k.op === op)!;
        const l = c.channels_last_3d;
        const x = P.x5.contiguous({ memoryFormat: 'channels_last_3d' }).requiresGrad_();
        expect(x.stride()).toEqual([144, 1, 48, 12, 3]);
        const y = f(x);
        expect(y.stride(), `${op} output stride`).toEqual(l.stride);
        await expectClose(y, c.out, `${op} output`);
        const go = onDevice(c.grad_output).contiguous({ memoryFormat: l.grad_output_stride[1] === 1 ? 'channels_last_3d' : 'contiguous' });
        const [g] = torch.autograd.grad(y, x, go);
        expect(g!.stride(), `${op} grad stride`).toEqual(l.grad_stride);
        await expectClose(g!, c.grad, `${op} grad`);
      }
      for (const xf of ['contiguous', 'channels_last_3d'] as const) {
        for (const gf of ['contiguous', 'channels_last_3d'] as const) {
          const x = P.x5.contiguous({ memoryFormat: xf }).requiresGrad_();
          const y = OPS3D.interpolate_trilinear(x);
          const [g] = torch.autograd.grad(y, x, torch.onesLike(y).contiguous({ memoryFormat: gf }));
          expect(g!.stride(), `trilinear ${xf}/${gf}`).toEqual((golden.mixed_grads3d as Record<string, number[]>)[`interpolate_trilinear/${xf}/${gf}`]);
        }
      }
    });

    it('to(webgpu) keeps a channels-last layout, or sets the one asked for', async () => {
      const x = torch.tensor(golden.params.x.values, { dtype: 'float32' }).reshape(golden.params.x.shape);
      const cl = x.contiguous({ memoryFormat: torch.channels_last });
      const a = cl.to('webgpu');
      const b = x.to('webgpu', { memoryFormat: torch.channels_last });
      const c = cl.to('webgpu', { memoryFormat: torch.contiguous_format });
      expect([a.stride(), b.stride(), c.stride()]).toEqual([[90, 1, 18, 3], [90, 1, 18, 3], [90, 30, 6, 1]]);
      for (const t of [a, b, c]) expect(Array.from((await t.data()) as Float32Array)).toEqual(Array.from(x.dataSync() as Float32Array));
    });
  });
}
