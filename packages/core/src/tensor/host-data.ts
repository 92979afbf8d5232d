import { bf16BitsToNumber, f16BitsToNumber, isComplexType, toRealValueType, typeMeta, type DType } from '../dtype';
import { DispatchKey } from '../dispatch/dispatch-key';
import { TorchError } from '../errors';
import type { TensorImpl } from './tensor-impl';

/** Logical elements of a tensor as JavaScript values, row-major. */
export type HostValues = Uint16Array | Float32Array | Float64Array | Int8Array | Uint8Array | Int16Array | Int32Array | BigInt64Array;

/**
 * Copies the logical elements of a CPU tensor (any strides, any offset) into a new
 * contiguous typed array of its storage element type (16-bit floats stay 16-bit words; a
 * complex element is its two parts, real then imaginary: Note [Complex tensors are pairs of
 * reals]).
 */
export function gatherHost(impl: TensorImpl): HostValues {
  refuseBatched(impl);
  if (isComplexType(impl.dtype)) {
    const parts = complexParts(impl);
    try {
      return conjugatedIf(impl, gatherHost(parts));
    } finally {
      parts.release();
    }
  }
  const meta = typeMeta(impl.dtype);
  const src = impl.storage.typed(meta.ArrayType as never) as HostValues;
  const n = impl.numel;
  const out = new (meta.ArrayType as unknown as { new (n: number): HostValues })(n);
  if (n === 0) return out;
  if (impl.isContiguous) {
    (out as Float64Array).set((src as Float64Array).subarray(impl.storageOffset, impl.storageOffset + n));
    return out;
  }
  const sizes = impl.sizes;
  const strides = impl.strides;
  const nd = sizes.length;
  const idx = new Array<number>(nd).fill(0);
  let off = impl.storageOffset;
  const innerSize = sizes[nd - 1];
  const innerStride = strides[nd - 1];
  for (let o = 0; o < n; o += innerSize) {
    for (let i = 0; i < innerSize; i++) (out as Float64Array)[o + i] = (src as Float64Array)[off + i * innerStride];
    // advance the odometer over dims nd-2 .. 0
    for (let d = nd - 2; d >= 0; d--) {
      idx[d]++;
      off += strides[d];
      if (idx[d] < sizes[d]) break;
      off -= strides[d] * sizes[d];
      idx[d] = 0;
    }
  }
  return out;
}

/**
 * A complex tensor's gathered parts, the imaginary ones negated where it has the conjugate
 * bit (core's Note [The conjugate bit]): its values are the conjugates of its storage's.
 */
export function conjugatedIf(impl: TensorImpl, parts: HostValues): HostValues {
  if (impl.isConj) for (let i = 1; i < parts.length; i += 2) (parts as Float64Array)[i] = -(parts as Float64Array)[i];
  return parts;
}

/** A complex tensor's parts as a real view with a trailing dim of 2 (a new reference for the caller). */
export function complexParts(impl: TensorImpl): TensorImpl {
  return impl.viewAsDtype(toRealValueType(impl.dtype), [...impl.sizes, 2], [...impl.strides.map((s) => 2 * s), 1], 2 * impl.storageOffset);
}

/** Decodes 16-bit float words to numbers; other dtypes pass through. */
export function decodeHost(dtype: DType, raw: HostValues): Exclude<HostValues, Uint16Array> {
  if (dtype === 'float16' || dtype === 'bfloat16') {
    const words = raw as unknown as Uint16Array;
    const out = new Float32Array(words.length);
    const dec = dtype === 'float16' ? f16BitsToNumber : bf16BitsToNumber;
    for (let i = 0; i < words.length; i++) out[i] = dec(words[i]);
    return out;
  }
  return raw as Exclude<HostValues, Uint16Array>;
}

/** A batched tensor's values differ per sample: reading them inside vmap is refused, as PyTorch's vmap does (core Note [Batched tensors]). */
export function refuseBatched(impl: TensorImpl): void {
  if (impl.keySet.has(DispatchKey.SparseCPU)) {
    throw new TorchError('Cannot access data of a sparse tensor: it has no strided storage; read x.toDense(), or x.indices() and x.values()');
  }
  if (impl.keySet.has(DispatchKey.FuncTorchBatched)) {
    throw new TorchError(
      "vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow (reading its values: item, tolist, data). We don't support that yet: keep the reads outside the function given to vmap",
    );
  }
}
