/** PyTorch golden tensors of the layer tests (scripts/goldens/nn_layers_*.py) and float32 comparisons against them. */
import { expect } from 'vitest';
import * as torch from '@torch-ts/torch';

export interface GoldenTensor {
  shape: number[];
  dtype: string;
  values: number[];
}

export const fromGolden = (g: GoldenTensor): torch.Tensor => torch.tensor(g.values, { dtype: g.dtype as torch.DType }).reshape(g.shape);

/** |a - b| <= atol + rtol |b| for every element (PyTorch's own float32 test tolerances by default). */
function expectValuesClose(v: readonly number[], g: GoldenTensor, what: string, rtol: number, atol: number): void {
  v.forEach((x, i) => {
    if (!(Math.abs(x - g.values[i]) <= atol + rtol * Math.abs(g.values[i]))) expect.fail(`${what}[${i}]: ${x} vs PyTorch ${g.values[i]}`);
  });
}

/** A CPU tensor against a golden: shape, dtype and values. */
export function expectCloseToGolden(t: torch.Tensor, g: GoldenTensor, what: string, rtol = 1.3e-6, atol = 1e-5): void {
  expect(t.shape, what).toEqual(g.shape);
  expect(t.dtype, what).toBe(g.dtype);
  expectValuesClose(Array.from(t.dataSync() as Float32Array, Number), g, what, rtol, atol);
}

/** A WebGPU tensor against a golden: the device, shape and values (read asynchronously). */
export async function expectCloseToGoldenOnWebgpu(t: torch.Tensor, g: GoldenTensor, what: string, rtol = 1.3e-6, atol = 1e-5): Promise<void> {
  expect(t.device.type, what).toBe('webgpu');
  expect(t.shape, what).toEqual(g.shape);
  expectValuesClose(Array.from((await t.data()) as Float32Array, Number), g, what, rtol, atol);
}
