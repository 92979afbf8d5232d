import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

/**
 * Seeded inputs (an LCG of uniforms in [-2, 2)): `input(shape, dtype, { offset, nans })` draws
 * one value per element (plus `offset`), then `nans` positions set to NaN.
 */
export interface LcgInputs {
  (shape: number[], dtype: 'float32' | 'float64', o?: { offset?: number; nans?: number }): Tensor;
  /** Restarts the stream at `seed` (two runs of a computation on the same inputs). */
  reseed(seed: number): void;
}

export function lcgInputs(seed: number): LcgInputs {
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 4 - 2;
  const input = (shape: number[], dtype: 'float32' | 'float64', { offset = 0, nans = 0 } = {}): Tensor => {
    const n = shape.reduce((a, b) => a * b, 1);
    const v = Array.from({ length: n }, () => rand() + offset);
    for (let i = 0; i < nans; i++) v[Math.floor(((rand() + 2) / 4) * n)] = NaN;
    return torch.tensor(v, { dtype }).reshape(shape);
  };
  return Object.assign(input, { reseed: (s: number) => void (seed = s) });
}
