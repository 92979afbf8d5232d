/** Helpers of the WebGPU tests that compare with float64 goldens ({ shape, values }) in float32. */
import { expect } from 'vitest';
import * as torch from '@torch-ts/torch';

export interface Golden {
  shape: number[];
  values: (number | string)[];
}

/** 'inf', '-inf' and 'nan' (JSON has none) as numbers. */
export const goldenNumber = (v: number | string): number => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : (v as number));

/** A golden as a WebGPU tensor: float64 values in float32, other dtypes as given. */
export function onWebgpu(g: Golden & { dtype?: string }): torch.Tensor {
  const dtype = (g.dtype === undefined || g.dtype === 'float64' ? 'float32' : g.dtype) as torch.DType;
  return torch.tensor(g.values.map(goldenNumber), { dtype }).reshape(g.shape).to('webgpu');
}

/** `x` (read back) equals the golden within tol * (1 + |value|), NaN where it is NaN. */
export async function expectCloseTo(x: torch.Tensor, g: Golden, what: string, tol: number): Promise<void> {
  expect(x.shape, what).toEqual(g.shape);
  const v = Array.from(await x.data(), Number);
  g.values.forEach((e0, i) => {
    const e = goldenNumber(e0);
    const ok = Number.isNaN(e) ? Number.isNaN(v[i]) : v[i] === e || Math.abs(v[i] - e) <= tol * (1 + Math.abs(e));
    if (!ok) expect.fail(`${what}[${i}]: ${v[i]} vs ${e}`);
  });
}

/** A golden case of scripts' `ramp_grad_case`: the output and each input's gradient. */
export interface RampGradCase {
  out: Golden;
  grads: Golden[];
}

/**
 * make(...inputs) on WebGPU (float32) and the inputs' gradients of sum(out * linspace(-1, 1.5))
 * against the float64 golden case, within 2e-5 (values) and 1e-4 (gradients) of 1 + |value|.
 */
export async function checkRampGradsWebgpu(what: string, c: RampGradCase, make: (...xs: torch.Tensor[]) => torch.Tensor, ...inputs: Golden[]): Promise<void> {
  const leaves = inputs.map((g) => onWebgpu(g).requiresGrad_());
  const y = make(...leaves);
  expect(y.device.type, what).toBe('webgpu');
  await expectCloseTo(y, c.out, `${what} out`, 2e-5);
  y.mul(torch.linspace(-1, 1.5, y.numel()).view(y.shape).to('webgpu')).sum().backward();
  for (let i = 0; i < leaves.length; i++) await expectCloseTo(leaves[i].grad!, c.grads[i], `${what} grad ${i}`, 1e-4);
}
