/**
 * Note [Sparse values are lanes]
 * The SparseCPU host loops (sparse-kernels.ts) read and write a sparse tensor's values as the
 * lanes of their storage array: one lane per element, two per complex element (its real and
 * imaginary parts, Note [Complex tensors are pairs of reals]), so a complex sum is the sum of
 * its lanes. What a lane add or scale is depends on the dtype, as PyTorch's `scalar_t`
 * arithmetic in its sparse kernels:
 *  - float32, float64, the narrow ints and complex parts: the typed array's store rounds a
 *    float32 (an f64 sum of two float32s rounds once to the float32 sum) and wraps an int;
 *  - int64: bigint arithmetic, wrapped by BigInt64Array's store;
 *  - float16 / bfloat16 (stored as bit patterns): computed as float32 then rounded to 16 bits,
 *    once per add, as c10::Half's operators do (so a sum of duplicates rounds after each add);
 *  - bool: an add is `or` (true + true is true).
 */
import type { DType } from '../dtype';
import { bf16BitsToNumber, f16BitsToNumber, f32ToBf16Bits, f32ToF16Bits, isComplexType, typeMeta } from '../dtype';
import type { TensorImpl } from '../tensor/tensor-impl';

/** A values storage array (BigInt64Array for int64; the component array for complex). */
export type Lanes = Float32Array | Float64Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | BigInt64Array;

/** The number of lanes per element: 2 for complex, else 1. */
export function laneWidth(dtype: DType): number {
  return isComplexType(dtype) ? 2 : 1;
}

/** The lanes of a contiguous tensor's elements. */
export function lanesOf(t: TensorImpl): Lanes {
  const w = laneWidth(t.dtype);
  const a = t.storage.typed(typeMeta(t.dtype).ArrayType as never) as unknown as Lanes;
  return a.subarray(t.storageOffset * w, (t.storageOffset + t.numel) * w);
}

/** `dst[i] += alpha * src[j]` for one lane, in the dtype's arithmetic (alpha 1 adds exactly). */
export type LaneAxpy = (dst: Lanes, i: number, src: Lanes, j: number) => void;

export function laneAxpy(dtype: DType, alpha: number): LaneAxpy {
  const one = alpha === 1;
  switch (dtype) {
    case 'int64': {
      const a = BigInt(alpha);
      return one
        ? (d, i, s, j) => ((d as BigInt64Array)[i] += (s as BigInt64Array)[j])
        : (d, i, s, j) => ((d as BigInt64Array)[i] += a * (s as BigInt64Array)[j]);
    }
    case 'float16':
    case 'bfloat16': {
      const [dec, enc] = dtype === 'float16' ? [f16BitsToNumber, f32ToF16Bits] : [bf16BitsToNumber, f32ToBf16Bits];
      const a = Math.fround(alpha);
      return (d, i, s, j) => {
        const x = one ? dec(s[j] as number) : Math.fround(a * dec(s[j] as number));
        d[i] = enc(Math.fround(dec(d[i] as number) + x));
      };
    }
    case 'bool':
      return (d, i, s, j) => ((d as Uint8Array)[i] |= alpha !== 0 ? (s as Uint8Array)[j] : 0);
    default: {
      // (a float32's alpha is a float32, and the product is rounded before the sum, as PyTorch's
      // scalar loop computes `self + alpha * other`)
      const f32 = dtype === 'float32' || dtype === 'complex64';
      const a = f32 ? Math.fround(alpha) : alpha;
      if (one) return (d, i, s, j) => ((d as Float64Array)[i] += s[j] as number);
      return f32 ? (d, i, s, j) => ((d as Float64Array)[i] += Math.fround(a * (s[j] as number))) : (d, i, s, j) => ((d as Float64Array)[i] += a * (s[j] as number));
    }
  }
}

/** The negation of every lane of `src` into `dst` (an exact sign flip, as PyTorch's neg). */
export function negateLanes(dtype: DType, dst: Lanes, src: Lanes): void {
  if (dtype === 'int64') {
    for (let k = 0; k < src.length; k++) (dst as BigInt64Array)[k] = -(src as BigInt64Array)[k];
  } else if (dtype === 'float16' || dtype === 'bfloat16') {
    for (let k = 0; k < src.length; k++) dst[k] = (src[k] as number) ^ 0x8000;
  } else {
    for (let k = 0; k < src.length; k++) dst[k] = -(src[k] as number);
  }
}
