import type { BackendImpls, TensorImpl, UnaryImpl } from '@torch-ts/core';
import { floatArray } from '../loops/arrays';
import { onScratchUnary, runFloatUnary, runScratchUnary, type FloatUnaryRow } from '../loops/pointwise';
import { unsupportedDtype } from './binary';
import { ROUND_F32, roundModeOf } from './float-math';
import {
  besselJ0Row,
  besselJ1Row,
  besselY0Row,
  besselY1Row,
  modifiedBesselI0Row,
  modifiedBesselI1Row,
  modifiedBesselK0Row,
  modifiedBesselK1Row,
  scaledModifiedBesselK0Row,
  scaledModifiedBesselK1Row,
  sphericalBesselJ0Row,
  digammaRow,
  entrRow,
  erfcxRow,
  i0eRow,
  i0Row,
  i1eRow,
  i1Row,
  lgamma,
  lgammaRow,
  logNdtrRow,
  ndtriRow,
  polygammaRow,
  sincRow,
  standardGammaGrad as standardGammaGradOf,
} from './special-math';
import { airyAiRow } from './special-poly';

/**
 * The kernels of the special functions (Note [The special functions in doubles]): floating
 * outputs only (core computes integral inputs in the default float dtype). The rows that
 * round `pi * x` as PyTorch does get float32's rounding for float16, whose goldens are
 * PyTorch 2.x's float32 computation, and bfloat16's own where 1.13 has that kernel.
 */
function run(op: string, out: TensorImpl, a: TensorImpl, row: FloatUnaryRow, bf16Steps = true): void {
  const d = out.dtype;
  if (d === 'float32' || d === 'float64') runFloatUnary(out, a, row, roundModeOf(d));
  else if (d === 'float16' || (d === 'bfloat16' && !bf16Steps)) runScratchUnary(out, a, onScratchUnary(row), ROUND_F32);
  else if (d === 'bfloat16') runScratchUnary(out, a, onScratchUnary(row), roundModeOf(d));
  else throw unsupportedDtype(op, out);
}

/**
 * `bf16Steps: false` where bfloat16 computes as float32 does: 1.13's CPU has no bfloat16 kernel
 * (its goldens are float32's), or its kernel computes in float (trigamma: pi * x in float32).
 */
const special =
  (op: string, row: FloatUnaryRow, bf16Steps = true): UnaryImpl =>
  (out, a) =>
    run(op, out, a, row, bf16Steps);

export const lgamma_: UnaryImpl = special('lgamma', lgammaRow);
export const digamma: UnaryImpl = special('digamma', digammaRow);
export const i0: UnaryImpl = special('i0', i0Row);
export const sinc: UnaryImpl = special('sinc', sincRow);
export const specialEntr: UnaryImpl = special('special_entr', entrRow);
export const specialNdtri: UnaryImpl = special('special_ndtri', ndtriRow, false);
export const specialLogNdtr: UnaryImpl = special('special_log_ndtr', logNdtrRow, false);
export const specialErfcx: UnaryImpl = special('special_erfcx', erfcxRow, false);
export const specialI0e: UnaryImpl = special('special_i0e', i0eRow);
export const specialI1: UnaryImpl = special('special_i1', i1Row, false);
export const specialI1e: UnaryImpl = special('special_i1e', i1eRow, false);

// (1.13 has no half or bfloat16 kernel for the Bessel functions: computed as float32)
export const specialBesselJ0: UnaryImpl = special('special_bessel_j0', besselJ0Row, false);
export const specialBesselJ1: UnaryImpl = special('special_bessel_j1', besselJ1Row, false);
export const specialBesselY0: UnaryImpl = special('special_bessel_y0', besselY0Row, false);
export const specialBesselY1: UnaryImpl = special('special_bessel_y1', besselY1Row, false);
export const specialModifiedBesselI0: UnaryImpl = special('special_modified_bessel_i0', modifiedBesselI0Row, false);
export const specialModifiedBesselI1: UnaryImpl = special('special_modified_bessel_i1', modifiedBesselI1Row, false);
export const specialModifiedBesselK0: UnaryImpl = special('special_modified_bessel_k0', modifiedBesselK0Row, false);
export const specialModifiedBesselK1: UnaryImpl = special('special_modified_bessel_k1', modifiedBesselK1Row, false);
export const specialScaledModifiedBesselK0: UnaryImpl = special('special_scaled_modified_bessel_k0', scaledModifiedBesselK0Row, false);
export const specialScaledModifiedBesselK1: UnaryImpl = special('special_scaled_modified_bessel_k1', scaledModifiedBesselK1Row, false);
export const specialSphericalBesselJ0: UnaryImpl = special('special_spherical_bessel_j0', sphericalBesselJ0Row, false);

// (2.x: float32 and float64 only; core refuses the 16-bit floats before the kernel)
export const specialAiryAi: UnaryImpl = special('special_airy_ai', airyAiRow, false);

export const polygamma: BackendImpls['polygamma'] = (out, a, n) => run('polygamma', out, a, polygammaRow(n), false);

/** mvlgamma: p(p-1)/4 log(pi) + sum_j lgamma(x - j/2), in doubles, rounded once. */
export const mvlgamma: BackendImpls['mvlgamma'] = (out, a, p) => {
  const c = ((p * (p - 1)) / 4) * Math.log(Math.PI);
  const f = (x: number): number => {
    let s = c;
    for (let j = 0; j < p; j++) s += lgamma(x - j / 2);
    return s;
  };
  run('mvlgamma', out, a, (n, o, oo, os, x, xo, xs) => {
    for (let i = 0; i < n; i++, oo += os, xo += xs) o[oo] = f(x[xo]);
  });
};

/** d x / d alpha of Gamma samples, in doubles, rounded once by the store (Note [The derivative of a Gamma sample]). */
export const standardGammaGrad: BackendImpls['standardGammaGrad'] = (out, alpha, x, n) => {
  const o = floatArray(out);
  const a = floatArray(alpha);
  const v = floatArray(x);
  const oo = out.storageOffset;
  const ao = alpha.storageOffset;
  const vo = x.storageOffset;
  for (let i = 0; i < n; i++) o[oo + i] = standardGammaGradOf(a[ao + i], v[vo + i]);
};
