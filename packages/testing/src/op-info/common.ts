import * as torch from '@torch-ts/torch';
import type { DeviceLike, DType, Tensor } from '@torch-ts/torch';
import type { Rejects } from '@torch-ts/core';
import { isComplexType, loadOpGoldens } from '../goldens';
import type { OpInfo, OpInput, Tolerance } from './types';

// (the real dtypes: complex ones are not in the OpInfo goldens yet; packages/torch/test/complex.test.ts has theirs)
export const ALL_DTYPES: readonly DType[] = torch.REAL_DTYPES;
export const FLOAT_DTYPES: readonly DType[] = ['float32', 'float64', 'float16', 'bfloat16'];
export const NO_BOOL: readonly DType[] = ALL_DTYPES.filter((d) => d !== 'bool');
export const NO_HALF_BOOL: readonly DType[] = ALL_DTYPES.filter((d) => d !== 'bool' && d !== 'float16');
export const INTEGRAL_DTYPES: readonly DType[] = ALL_DTYPES.filter((d) => !FLOAT_DTYPES.includes(d));

/** The dtypes an op-table row accepts (Note [The op table] in core): all but those its kernel rejects. */
export function rowDtypes(rejects: Rejects | undefined): readonly DType[] {
  if (rejects?.floating) return INTEGRAL_DTYPES;
  if (rejects?.integral) return FLOAT_DTYPES;
  const dtypes = rejects?.bool ? NO_BOOL : ALL_DTYPES;
  return rejects?.reducedFloating ? dtypes.filter((d) => d !== 'float16' && d !== 'bfloat16') : dtypes;
}

/** A dtype an op-table row computes in, for its error inputs (which must fail for the reason they test, not the dtype). */
export function rowErrorDtype(rejects: Rejects | undefined): DType {
  return rejects?.floating ? 'int32' : 'float32';
}

/** An op's golden sample ids, in the order they first appear (an op-table row's OpInfo lists them all). */
export function goldenSamples(op: string): string[] {
  // (the complex cases' samples are the entry's `complex.samples`: Note [Complex OpInfo])
  return [...new Set((loadOpGoldens().get(op) ?? []).filter((c) => !isComplexType(c.dtype)).map((c) => c.sample))];
}

/**
 * The default tolerances of `torch.testing.assert_close` for floating dtypes; integral and
 * bool results are compared exactly.
 */
export const DEFAULT_TOLERANCE: Readonly<Partial<Record<DType, Tolerance>>> = {
  float64: { rtol: 1e-7, atol: 1e-7 },
  float32: { rtol: 1.3e-6, atol: 1e-5 },
  float16: { rtol: 1e-3, atol: 1e-5 },
  bfloat16: { rtol: 1.6e-2, atol: 1e-5 },
  // (assert_close's complex defaults are its parts' dtypes'; compared part by part)
  complex128: { rtol: 1e-7, atol: 1e-7 },
  complex64: { rtol: 1.3e-6, atol: 1e-5 },
};

/** The input that must be a tensor (the goldens never put a scalar there). */
export function tensorArg(x: OpInput | undefined, op: string): Tensor {
  if (x instanceof torch.Tensor) return x;
  throw new Error(`${op}: the OpInfo sample gives ${typeof x} where a tensor is expected`);
}

/** An operand that may be a tensor or a JS scalar (`add(x, 2)`); the sample must give it. */
export function operand(x: OpInput | undefined, op: string): OpInput {
  if (x === undefined) throw new Error(`${op}: the OpInfo sample lacks an operand`);
  return x;
}

/** A tensor or JS number input (repeatInterleave's repeats). */
export function tensorOrNumber(x: OpInput | undefined, op: string): Tensor | number {
  if (typeof x === 'number' || x instanceof torch.Tensor) return x;
  throw new Error(`${op}: the OpInfo sample gives ${typeof x} where a tensor or a number is expected`);
}

/** The 2.x reason for a dtype whose 1.13 CPU kernel is missing. */
export const HALF_2X = (kernel: string): string =>
  `PyTorch 2.x has the Half CPU kernel that 1.13 lacks ("${kernel}" not implemented for 'Half'); goldens computed on float32 copies`;

/** The 2.x reason for an op 1.13 lacks altogether: its goldens come from a reference implementation of 2.x's kernel. */
export const ONLY_2X = (aten: string): string =>
  `PyTorch 1.13 has no ${aten}; goldens from the golden script's float64 reference implementation of 2.x's kernel, rounded to the dtype`;

/** The dtypes whose goldens follow 2.x's kernel by a reference implementation (`"reference": "2.x"`), with ONLY_2X's reason. */
export function reference2x(name: string, aten: string): OpInfo['pytorch2x'] {
  const dtypes = new Set((loadOpGoldens().get(name) ?? []).filter((c) => c.reference === '2.x').map((c) => c.dtype));
  return dtypes.size === 0 ? undefined : Object.fromEntries([...dtypes].map((d) => [d, ONLY_2X(aten)]));
}

/** The 2.x reason for 16-bit results that 1.13 rounds between partial sums. */
export const FLOAT_ACC_2X = (what: string): string =>
  `PyTorch 2.x accumulates ${what} in float32 and rounds once; 1.13 rounds partial results to 16 bits. Goldens that differ were computed on float32 copies`;

/** Small tensors for error inputs, on the device under test. */
export function t(device: DeviceLike, data: torch.TensorData, dtype?: DType): Tensor {
  return torch.tensor(data, { device, dtype: dtype ?? null });
}
