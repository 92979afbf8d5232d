/**
 * What the harness keeps of a result to compare libraries (Note [A wrong result is not a
 * fast one]): its length, 16 evenly spaced values, and the float64 sum and sum of absolute
 * values of all elements.
 */
export interface Probe {
  readonly length: number;
  readonly samples: number[];
  readonly sum: number;
  readonly sumAbs: number;
}

const SAMPLES = 16;

export function probeOf(values: ArrayLike<number>): Probe {
  const n = values.length;
  const samples: number[] = [];
  const count = Math.min(SAMPLES, n);
  for (let k = 0; k < count; k++) samples.push(Number(values[count === 1 ? 0 : Math.floor((k * (n - 1)) / (count - 1))]));
  let sum = 0;
  let sumAbs = 0;
  for (let i = 0; i < n; i++) {
    const v = Number(values[i]);
    sum += v;
    sumAbs += Math.abs(v);
  }
  return { length: n, samples, sum, sumAbs };
}

/**
 * null when `p` agrees with the reference `ref`, else what differs. Tolerances are those of
 * float32 work done in different orders: each sample within 1e-3 of its magnitude plus the
 * mean magnitude, the sum within 1e-3 of the sum of magnitudes.
 */
export function compareProbes(p: Probe, ref: Probe, rtol = 1e-3): string | null {
  if (p.length !== ref.length) return `${p.length} elements, expected ${ref.length}`;
  const meanAbs = ref.length ? ref.sumAbs / ref.length : 0;
  for (let k = 0; k < ref.samples.length; k++) {
    const a = p.samples[k];
    const b = ref.samples[k];
    if (!(Math.abs(a - b) <= rtol * (Math.abs(b) + meanAbs))) return `sample ${k}: ${a}, expected ${b}`;
  }
  if (!(Math.abs(p.sum - ref.sum) <= rtol * ref.sumAbs + 1e-12)) return `sum ${p.sum}, expected ${ref.sum}`;
  return null;
}
