/** Helpers of the CPU tests that compare float64 results with PyTorch goldens ({ shape, values }). */
import { expect } from 'vitest';
import * as torch from '@torch-ts/torch';

export interface Float64Golden {
  shape: number[];
  values: number[];
}

/** A golden as a float64 CPU tensor. */
export const float64Tensor = (g: Float64Golden): torch.Tensor => torch.tensor(g.values, { dtype: 'float64' }).reshape(g.shape);

/** `x` equals the golden within 1e-12 * (1 + |value|). */
export function expectFloat64(x: torch.Tensor, g: Float64Golden, what: string): void {
  expect(x.shape, what).toEqual(g.shape);
  const v = x.dataSync() as Float64Array;
  g.values.forEach((e, i) => {
    if (!(Math.abs(v[i] - e) <= 1e-12 * (1 + Math.abs(e)))) expect.fail(`${what}[${i}]: ${v[i]} vs PyTorch ${e}`);
  });
}

/** A golden case of scripts' `ramp_grad_case`: the output and each input's gradient. */
export interface RampGradCase {
  out: Float64Golden;
  grads: Float64Golden[];
}

/** make(...inputs) and the inputs' gradients of sum(out * linspace(-1, 1.5)) against the golden case (the scripts' ramp_grad_case). */
export function checkRampGrads(what: string, c: RampGradCase, make: (...xs: torch.Tensor[]) => torch.Tensor, ...inputs: torch.Tensor[]): void {
  const leaves = inputs.map((x) => x.clone().requiresGrad_());
  const y = make(...leaves);
  expectFloat64(y, c.out, `${what} out`);
  y.mul(torch.linspace(-1, 1.5, y.numel(), { dtype: 'float64' }).view(y.shape)).sum().backward();
  leaves.forEach((l, i) => expectFloat64(l.grad!, c.grads[i], `${what} grad ${i}`));
}
