import { CPU, type Device } from '../device';
import { bf16BitsToNumber, canCast, f16BitsToNumber, typeMeta, type DType } from '../dtype';
import { DeviceError, DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import { broadcastStrides, computeOutputLayout } from '../iterator';
import { isNonOverlappingAndDense } from '../iterator/layout';
import type { AllocateOptions } from '../memory/allocator';
import { TensorImpl } from '../tensor/tensor-impl';
import { contiguousStrides } from '../views';
import { implOf, type Backend } from './registry';

export type Scalar = number | boolean | bigint;

export function isScalar(x: unknown): x is Scalar {
  return typeof x === 'number' || typeof x === 'boolean' || typeof x === 'bigint';
}

/** PyTorch's dtype names in messages: Float, Double, Long, Bool... */
export function torchTypeName(d: DType): string {
  return TYPE_NAMES[d];
}
/** The C++ type name PyTorch's TypeMeta prints for a dtype (`input(float), and weight(long int)`). */
export function cTypeName(d: DType): string {
  return C_TYPE_NAMES[d];
}
const C_TYPE_NAMES: Record<DType, string> = {
  float32: 'float',
  float64: 'double',
  float16: 'c10::Half',
  bfloat16: 'c10::BFloat16',
  int8: 'signed char',
  uint8: 'unsigned char',
  int16: 'short int',
  int32: 'int',
  int64: 'long int',
  bool: 'bool',
  complex64: 'c10::complex<float>',
  complex128: 'c10::complex<double>',
};
const TYPE_NAMES: Record<DType, string> = {
  float32: 'Float',
  float64: 'Double',
  float16: 'Half',
  bfloat16: 'BFloat16',
  int8: 'Char',
  uint8: 'Byte',
  int16: 'Short',
  int32: 'Int',
  int64: 'Long',
  bool: 'Bool',
  complex64: 'ComplexFloat',
  complex128: 'ComplexDouble',
};

/**
 * The device of a call: every tensor operand must be on it, except 0-dim CPU tensors,
 * which PyTorch accepts as scalars next to accelerator tensors.
 */
export function commonDevice(op: string, operands: readonly (TensorImpl | Scalar | null | undefined)[]): Device {
  let dev: Device | null = null;
  for (const t of operands) {
    if (!(t instanceof TensorImpl)) continue;
    if (t.device === CPU && t.sizes.length === 0) continue;
    if (dev === null) dev = t.device;
    else if (dev !== t.device) {
      throw new DeviceError(`${op}: expected all tensors to be on the same device, but found at least two devices, ${dev} and ${t.device}`);
    }
  }
  return dev ?? CPU; // only scalars (or 0-dim CPU tensors): the call runs on CPU
}

/** For outputs whose kernels write every element (Note [Uninitialized outputs]). */
export const UNINITIALIZED: AllocateOptions = { uninitialized: true };

/**
 * A new tensor of `sizes` on `device`, laid out like `like` (PyTorch's output strides) when
 * given, for a pointwise op's result: every element is written by the kernel, so its memory
 * is not zero-filled first (Note [Uninitialized outputs]).
 */
export function allocateOutput(
  op: string,
  sizes: readonly number[],
  dtype: DType,
  device: Device,
  like: readonly TensorImpl[] = [],
): TensorImpl {
  if (like.length === 0 || sizes.length <= 1) return TensorImpl.emptyStrided(op, sizes, contiguousStrides(sizes), dtype, device, UNINITIALIZED);
  // The layout rule reads the inputs' own sizes (not pre-broadcast ones), as PyTorch's does.
  const geoms = like.map((t) => ({ sizes: t.sizes, strides: t.strides }));
  return TensorImpl.emptyStrided(op, sizes, computeOutputLayout(sizes, geoms), dtype, device, UNINITIALIZED);
}

/** A 0-dim tensor holding `value` in `dtype` on `device`. */
export function scalarTensor(b: Backend, op: string, value: Scalar, dtype: DType, device: Device): TensorImpl {
  const t = TensorImpl.empty(op, [], dtype, device);
  try {
    implOf(b, 'fill', 'fill_')(t, value);
  } catch (e) {
    t.release(); // a backend may reject the dtype (WebGPU's float64): nothing leaks
    throw e;
  }
  return t;
}

/**
 * `t` as `dtype`: the same TensorImpl (retained) when it already is, else a converted copy.
 * The caller owns one reference on the result either way.
 */
export function castTo(b: Backend, op: string, t: TensorImpl, dtype: DType, device: Device): TensorImpl {
  if (t.dtype === dtype && t.device === device) return t.retain();
  if (t.device !== device) {
    // A 0-dim CPU scalar next to accelerator tensors: its value travels as a fill.
    return scalarTensor(b, op, readScalar(t), dtype, device);
  }
  const out = TensorImpl.empty(op, t.sizes, dtype, device, UNINITIALIZED);
  try {
    implOf(b, 'copy', 'copy_')(out, t);
  } catch (e) {
    out.release();
    throw e;
  }
  return out;
}

/** The value of a one-element CPU tensor. */
export function readScalar(t: TensorImpl): Scalar {
  const raw = t.storage.typed(typeMeta(t.dtype).ArrayType as never) as ArrayLike<number | bigint>;
  const v = raw[t.storageOffset];
  if (t.dtype === 'bool') return v !== 0;
  if (t.dtype === 'float16') return f16BitsToNumber(v as number);
  if (t.dtype === 'bfloat16') return bf16BitsToNumber(v as number);
  return v;
}

/** `t` viewed with `sizes` by broadcasting (stride 0 on new and size-1 dims). Caller owns the result. */
export function broadcastTo(t: TensorImpl, sizes: readonly number[]): TensorImpl {
  if (sameShape(t.sizes, sizes)) return t.retain();
  return t.view(sizes, broadcastStrides(t.sizes, t.strides, sizes), t.storageOffset);
}

export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * PyTorch refuses to write a tensor in which several elements share one memory location
 * (an expanded tensor): the result would depend on the order of the writes.
 */
export function checkNoInternalOverlap(op: string, dst: TensorImpl): void {
  for (let d = 0; d < dst.sizes.length; d++) {
    if (dst.strides[d] === 0 && dst.sizes[d] > 1) {
      throw new TorchError(
        `${op}: unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.`,
      );
    }
  }
}

/**
 * Note [Overlapping inputs and outputs]
 * As PyTorch's MemoryOverlap.cpp: two tensors overlap *fully* when they are the same tensor
 * or cover the same bytes with the same strides, *partially* when their byte ranges
 * intersect otherwise; when either is not non-overlapping-and-dense the answer is "too hard"
 * and nothing is refused. A pointwise op (TensorIterator's check) and `copy_` refuse an input
 * that partially overlaps the written tensor (`a.index('1:').sub_(a.index(':-1'))`: the
 * result would depend on the order of the writes); `cat` refuses any overlap with `out`.
 * Reductions and matmul's `out=` check nothing, as in PyTorch.
 */
type Overlap = 'no' | 'full' | 'partial' | 'too hard';

function overlapStatus(a: TensorImpl, b: TensorImpl): Overlap {
  if (a === b) return 'full';
  if (a.numel === 0 || b.numel === 0) return 'no';
  if (!isNonOverlappingAndDense(a.sizes, a.strides) || !isNonOverlappingAndDense(b.sizes, b.strides)) return 'too hard';
  if (a.storage !== b.storage) return 'no';
  const aBegin = a.storageOffset * a.itemSize;
  const aEnd = aBegin + a.numel * a.itemSize;
  const bBegin = b.storageOffset * b.itemSize;
  const bEnd = bBegin + b.numel * b.itemSize;
  if (aBegin === bBegin && aEnd === bEnd) return sameShape(a.strides, b.strides) ? 'full' : 'partial';
  return aBegin < bEnd && bBegin < aEnd ? 'partial' : 'no';
}

function overlapError(op: string): TorchError {
  return new TorchError(
    `${op}: unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.`,
  );
}

/** PyTorch's assert_no_partial_overlap for each tensor input (Note [Overlapping inputs and outputs]). */
export function checkNoPartialOverlap(op: string, dst: TensorImpl, inputs: readonly unknown[]): void {
  for (const t of inputs) if (t instanceof TensorImpl && overlapStatus(dst, t) === 'partial') throw overlapError(op);
}

/** PyTorch's assert_no_overlap: neither partial nor full (Note [Overlapping inputs and outputs]). */
export function checkNoOverlap(op: string, dst: TensorImpl, inputs: readonly unknown[]): void {
  for (const t of inputs) {
    if (!(t instanceof TensorImpl)) continue;
    const s = overlapStatus(dst, t);
    if (s === 'partial' || s === 'full') throw overlapError(op);
  }
}

/**
 * The checks of writing a result into an existing tensor (in-place `self` or `out=`);
 * `inputs` are the op's operands (scalars are skipped), checked as TensorIterator does.
 */
export function checkWritable(
  op: string,
  dst: TensorImpl,
  resultSizes: readonly number[],
  resultDtype: DType,
  device: Device,
  inputs: readonly unknown[] = [],
): void {
  checkNoInternalOverlap(op, dst);
  checkNoPartialOverlap(op, dst, inputs);
  if (dst.device !== device) {
    throw new DeviceError(`${op}: expected the output on ${device}, but it is on ${dst.device}`);
  }
  if (!sameShape(dst.sizes, resultSizes)) {
    throw new ShapeError(`${op}: output with shape ${fmtShape(dst.sizes)} doesn't match the broadcast shape ${fmtShape(resultSizes)}`);
  }
  if (!canCast(resultDtype, dst.dtype)) {
    throw new DTypeError(`${op}: result type ${torchTypeName(resultDtype)} can't be cast to the desired output type ${torchTypeName(dst.dtype)}`);
  }
}

/** Releases temporaries made during a call (each owned once). */
export function releaseAll(ts: readonly (TensorImpl | null | undefined)[]): void {
  for (const t of ts) t?.release();
}
