/**
 * F.grid_sample and F.affine_grid against PyTorch 1.13 (scripts/goldens/nn_grid_sample.py):
 * every mode x padding mode x align_corners on a grid reaching past [-1, 1] (values, input and
 * grid gradients in float64, values in float32), layouts, affine grids and their theta
 * gradients, errors; gradcheck on small cases.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_grid_sample.json';
import { thrown } from './helpers';

const F = torch.nn.functional;
interface G {
  shape: number[];
  dtype: string;
  values: number[];
}
const t = (g: G, dtype: torch.DType = 'float64') => torch.tensor(g.values, { dtype }).reshape(g.shape);

function expectG(x: torch.Tensor, g: G, what: string, rtol: number, atol: number): void {
  expect(x.shape, what).toEqual(g.shape);
  const v = x.dataSync() as Float64Array | Float32Array;
  g.values.forEach((e, i) => {
    if (!(Math.abs(v[i] - e) <= atol + rtol * Math.abs(e))) expect.fail(`${what}[${i}]: ${v[i]} vs PyTorch ${e}`);
  });
}

type Mode = 'bilinear' | 'nearest' | 'bicubic';
type Padding = 'zeros' | 'border' | 'reflection';

describe('F.grid_sample', () => {
  it('values, input and grid gradients for every mode, padding mode and align_corners', () => {
    expect(golden.cases.length).toBe(18);
    for (const c of golden.cases) {
      const what = `${c.mode}/${c.padding}/align=${c.align}`;
      const x = t(golden.x).requiresGrad_();
      const g = t(golden.grid).requiresGrad_();
      const opts = { mode: c.mode as Mode, paddingMode: c.padding as Padding, alignCorners: c.align };
      const y = F.gridSample(x, g, opts);
      expectG(y, c.out, what, 1e-12, 1e-12);
      y.backward(t(golden.grad_output));
      expectG(x.grad!, c.grad_input, `${what} grad input`, 1e-12, 1e-12);
      if (c.mode === 'nearest') {
        // (nearest's value does not depend on the grid: PyTorch's gradient is zeros, torch-ts's none)
        expect(c.grad_grid.values.every((v) => v === 0)).toBe(true);
        expect(g.grad).toBe(null);
      } else expectG(g.grad!, c.grad_grid, `${what} grad grid`, 1e-11, 1e-11);
      const y32 = F.gridSample(t(golden.x, 'float32'), t(golden.grid, 'float32'), opts);
      expect(y32.dtype).toBe('float32');
      expectG(y32, c.out32, `${what} float32`, 1e-5, 1e-5);
    }
  });

  it("a channels-last input gives PyTorch's (contiguous) output and gradient layouts", () => {
    const x = t(golden.x).contiguous({ memoryFormat: 'channels_last' }).requiresGrad_();
    const y = F.gridSample(x, t(golden.grid), { alignCorners: false });
    expect(y.stride()).toEqual(golden.channels_last.stride);
    y.backward(t(golden.grad_output));
    expect(x.grad!.stride()).toEqual(golden.channels_last.grad_stride);
    expectG(y, golden.cases[0].out, 'channels-last values', 1e-12, 1e-12);
  });

  it('gradcheck through input and grid for each mode (positions off the pixel and edge lines)', async () => {
    for (const mode of ['bilinear', 'bicubic'] as const) {
      for (const paddingMode of ['zeros', 'border', 'reflection'] as const) {
        torch.manualSeed(5);
        const x = torch.randn([1, 2, 3, 4], { dtype: 'float64', requiresGrad: true });
        const g = torch.rand([1, 2, 3, 2], { dtype: 'float64' }).mul(2.2).sub(1.1).requiresGrad_();
        expect(await torch.autograd.gradcheck((a, b) => F.gridSample(a, b, { mode, paddingMode, alignCorners: false }), [x, g]), `${mode}/${paddingMode}`).toBe(true);
      }
    }
  });

  it("PyTorch's errors", () => {
    const e = golden.errors;
    const x = torch.randn([1, 1, 3, 3]);
    const g = torch.rand([1, 2, 2, 2]);
    expect(thrown(() => F.gridSample(x, g, { mode: 'area' as never })).message).toContain(e.mode);
    expect(thrown(() => F.gridSample(x, g, { paddingMode: 'wrap' as never })).message).toContain(e.padding);
    expect(thrown(() => F.gridSample(x, torch.rand([2, 2, 2, 2]))).message).toContain(e.batch);
    expect(thrown(() => F.gridSample(x, torch.rand([1, 2, 2, 3]))).message).toContain(e.last);
    expect(thrown(() => F.gridSample(torch.randn([1, 1, 0, 3]), g)).message).toContain(e.empty);
    expect(thrown(() => F.gridSample(x, g.double())).message).toMatch(/expected scalar type Float but found Double/);
  });
});

describe('F.affine_grid', () => {
  it('grids and theta gradients for both align_corners, single-row and single-column outputs', () => {
    for (const c of golden.affine) {
      const what = `${JSON.stringify(c.size)} align=${c.align}`;
      const theta = t(golden.theta).requiresGrad_();
      const gr = F.affineGrid(theta, c.size, { alignCorners: c.align });
      expectG(gr, c.out, what, 1e-12, 1e-12);
      gr.mul(torch.arange(gr.numel(), { dtype: 'float64' }).view(gr.shape).div(10)).sum().backward();
      expectG(theta.grad!, c.grad_theta, `${what} grad`, 1e-12, 1e-12);
    }
  });

  it('an affine grid and grid_sample compose into a spatial transformer (identity theta reproduces the input)', () => {
    const x = torch.randn([2, 3, 5, 7], { dtype: 'float64' });
    const theta = torch.tensor([[1, 0, 0], [0, 1, 0]], { dtype: 'float64' }).expand([2, 2, 3]);
    for (const alignCorners of [false, true]) {
      const y = F.gridSample(x, F.affineGrid(theta, [2, 3, 5, 7], { alignCorners }), { alignCorners });
      expect(y.sub(x).abs().max().item()).toBeLessThan(1e-12);
    }
  });

  it("PyTorch's errors", () => {
    const e = golden.errors;
    expect(thrown(() => F.affineGrid(torch.randn([1, 2, 3]), [1, 1, 3])).message).toContain(e.affine_size);
    expect(thrown(() => F.affineGrid(torch.randn([1, 3, 3]), [1, 1, 3, 3])).message).toContain(e.affine_theta);
    expect(thrown(() => F.affineGrid(torch.ones([1, 2, 3], { dtype: 'int64' }), [1, 1, 3, 3])).message).toContain(e.affine_int);
  });
});
