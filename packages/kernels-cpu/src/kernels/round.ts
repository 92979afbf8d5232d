import type { BackendImpls } from '@torch-ts/core';
import type { FloatArray } from '../loops/arrays';
import { onScratchUnary, runFloatUnary, runScratchUnary, type FloatUnaryRow } from '../loops/pointwise';
import { copy } from './copy';
import { roundModeOf } from './float-math';

const fr = Math.fround;

/** C's nearbyint in the default rounding mode: to nearest, ties to even (Math.round ties up). */
export function rint(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function rowOf(f: (x: number) => number): FloatUnaryRow {
  return (n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number) => {
    for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = f(a[ao]);
  };
}

/**
 * round(x) and round(x, decimals). With decimals, PyTorch scales by 10^|decimals| in the
 * op's math type (float for float32 and the 16-bit dtypes, double for float64) and rounds
 * every step there: nearbyint(x * 10^d) / 10^d, or nearbyint(x / 10^-d) * 10^-d.
 * Integers (no decimals: core refuses them with decimals) round to themselves.
 */
export const round: BackendImpls['round'] = (out, a, decimals) => {
  const d = out.dtype;
  if (d !== 'float32' && d !== 'float64' && d !== 'float16' && d !== 'bfloat16') {
    copy(out, a);
    return;
  }
  const mode = roundModeOf(d);
  let f: (x: number) => number = rint;
  if (decimals !== null && decimals !== 0) {
    const neg = decimals < 0;
    const p = 10 ** Math.abs(decimals);
    if (d === 'float64') f = neg ? (x) => rint(x / p) * p : (x) => rint(x * p) / p;
    else {
      const p32 = fr(p);
      f = neg ? (x) => fr(rint(fr(x / p32)) * p32) : (x) => fr(rint(fr(x * p32)) / p32);
    }
  }
  const row = rowOf(f);
  if (d === 'float32' || d === 'float64') runFloatUnary(out, a, row, mode);
  else runScratchUnary(out, a, onScratchUnary(row), mode);
};
