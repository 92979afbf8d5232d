/**
 * F.grid_sample and F.affine_grid on WebGPU (Note [grid_sample as gathers]: the same
 * composition of gathers runs there): float32 values and gradients against PyTorch 1.13's
 * (scripts/goldens/nn_grid_sample.py) for every mode and padding mode.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { expectCloseTo, onWebgpu } from './webgpu-goldens';
import golden from './goldens/nn_grid_sample.json';

const F = torch.nn.functional;

const ready = await torch.webgpu.init();
if (!ready) console.warn('[nn-grid-sample-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

describe.skipIf(!ready)('grid_sample and affine_grid on webgpu', () => {
  it('values and input / grid gradients in float32 for every mode and padding mode', async () => {
    for (const c of golden.cases) {
      const what = `${c.mode}/${c.padding}/align=${c.align}`;
      const x = onWebgpu(golden.x).requiresGrad_();
      const g = onWebgpu(golden.grid).requiresGrad_();
      const y = F.gridSample(x, g, { mode: c.mode as 'bilinear', paddingMode: c.padding as 'zeros', alignCorners: c.align });
      expect(y.device.type).toBe('webgpu');
      await expectCloseTo(y, c.out32, what, 1e-5);
      y.backward(onWebgpu(golden.grad_output));
      await expectCloseTo(x.grad!, c.grad_input, `${what} grad input`, 1e-4);
      if (c.mode !== 'nearest') await expectCloseTo(g.grad!, c.grad_grid, `${what} grad grid`, 2e-4);
    }
  });

  it('affine grids and their theta gradients', async () => {
    for (const c of golden.affine) {
      const theta = onWebgpu(golden.theta).requiresGrad_();
      const gr = F.affineGrid(theta, c.size, { alignCorners: c.align });
      await expectCloseTo(gr, c.out, `${JSON.stringify(c.size)} align=${c.align}`, 1e-5);
      gr.mul(torch.arange(gr.numel(), { dtype: 'float32', device: 'webgpu' }).view(gr.shape).div(10)).sum().backward();
      await expectCloseTo(theta.grad!, c.grad_theta, `${JSON.stringify(c.size)} grad`, 1e-4);
    }
  });
});
