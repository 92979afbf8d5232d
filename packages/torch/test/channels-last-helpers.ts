import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

// Helpers of the channels-last tests (pool-channels-last, norm-pool-channels-last).

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

/** Values of `a` (the NHWC path) against `b` (the NCHW path): exact (rtol 0) or |a - b| <= rtol (1 + |b|), NaN where NaN. */
export function sameValues(a: Tensor, b: Tensor, rtol: number, what: string, failures: string[]): void {
  if (JSON.stringify(a.shape) !== JSON.stringify(b.shape)) return void failures.push(`${what}: shape ${a.shape} vs ${b.shape}`);
  const x = a.contiguous().dataSync();
  const y = b.contiguous().dataSync();
  for (let i = 0; i < x.length; i++) {
    const p = Number(x[i]);
    const q = Number(y[i]);
    const ok = Number.isNaN(q) ? Number.isNaN(p) : rtol === 0 ? p === q : Math.abs(p - q) <= rtol * (1 + Math.abs(q));
    if (!ok) return void failures.push(`${what}[${i}]: ${p} vs NCHW ${q}`);
  }
}
