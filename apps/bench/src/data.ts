/**
 * Deterministic inputs: every library gets the very same float32 values (mulberry32, a
 * small seeded generator), so their outputs can be compared element by element.
 */
export function uniform(n: number, seed: number, lo = -1, hi = 1): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  const scale = (hi - lo) / 4294967296;
  for (let i = 0; i < n; i++) {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = lo + ((t ^ (t >>> 14)) >>> 0) * scale;
  }
  return out;
}

/** Class labels in [0, classes). */
export function labels(n: number, classes: number, seed: number): Int32Array {
  const u = uniform(n, seed, 0, 1);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.min(classes - 1, Math.floor(u[i] * classes));
  return out;
}

/** The MLP's initial parameters, PyTorch's nn.Linear init range: U(-1/sqrt(fan_in), 1/sqrt(fan_in)); weights stored [in, out]. */
export interface MlpParams {
  readonly weights: Float32Array[];
  readonly biases: Float32Array[];
}

export function mlpParams(widths: readonly number[], seed: number): MlpParams {
  const weights: Float32Array[] = [];
  const biases: Float32Array[] = [];
  for (let l = 0; l + 1 < widths.length; l++) {
    const bound = 1 / Math.sqrt(widths[l]);
    weights.push(uniform(widths[l] * widths[l + 1], seed + 2 * l, -bound, bound));
    biases.push(uniform(widths[l + 1], seed + 2 * l + 1, -bound, bound));
  }
  return { weights, biases };
}
