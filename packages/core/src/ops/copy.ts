import { CPU, toDevice, type Device, type DeviceLike } from '../device';
import { checkScalarFits, isComplexType, parseDType, type DType } from '../dtype';
import { DeviceError, TorchError } from '../errors';
import { broadcastShapes, computeOutputLayout } from '../iterator';
import { Tensor } from '../tensor/tensor';
import { deviceReader, deviceUploader } from '../tensor/device-reader';
import { TensorImpl } from '../tensor/tensor-impl';
import { isNonOverlappingAndDense } from '../iterator/layout';
import { selectGeometry } from '../views';
import { formatStrides, isContiguousAs, MEMORY_FORMATS, parseMemoryFormat, suggestMemoryFormat, type MemoryFormatName } from '../tensor/memory-format';
import { complexParts } from '../tensor/host-data';
import { callBoxed } from '../dispatch/dispatcher';
import { isOptionsObject, makeBinder, type OptionalArgs } from './binder';
import { front, overloadedFront, type OptionsOf } from './front';
import { callFunctional, callMutating, implResult, unwrapTensor } from './call';
import { UNINITIALIZED, broadcastTo, checkNoInternalOverlap, checkNoPartialOverlap, isScalar, readScalar, sameShape } from './meta-utils';
import { defineStructured, implOf, type Backend } from './registry';

/** `copy_`: writes `src` (broadcast to `self`'s shape, converted to its dtype) into `self`. */
export const COPY_ = defineStructured(
  'copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)',
  ([self, src], b) => {
    const dst = self;
    const s = src;
    if (s.device !== dst.device && !(s.device.type === 'cpu' && s.sizes.length === 0)) {
      if (s.device.type !== 'cpu' || dst.device.type === 'meta') {
        throw new DeviceError(
          `copy_: copying from ${s.device} to ${dst.device} is not supported synchronously` +
            (s.device.type === 'cpu' ? '' : `; read the source first with \`await src.toAsync('cpu')\``),
        );
      }
      // A CPU source for a device tensor: upload it (Note [Cross-device copies]), then copy on the device.
      const up = crossDeviceCopy(s, s.dtype, dst.device, null);
      const v = broadcastTo(up, dst.sizes);
      try {
        implOf(b, 'copy', 'copy_')(dst, v);
      } finally {
        v.release();
        up.release();
      }
      return dst;
    }
    checkNoInternalOverlap('copy_', dst);
    checkNoPartialOverlap('copy_', dst, [s]);
    const shape = broadcastShapes('copy_', dst.sizes, s.sizes);
    if (!sameShape(shape, dst.sizes)) {
      throw new TorchError(`copy_: output with shape [${dst.sizes.join(', ')}] doesn't match the broadcast shape [${shape.join(', ')}]`);
    }
    if (s.device !== dst.device) {
      implOf(b, 'fill', 'copy_')(dst, readScalar(s));
    } else {
      const v = broadcastTo(s, dst.sizes);
      try {
        implOf(b, 'copy', 'copy_')(dst, v);
      } finally {
        v.release();
      }
    }
    return dst;
  },
  ['inplace'],
);

/** `fill_`: every element of `self` set to `value` (converted to `self`'s dtype). */
export const FILL_ = defineStructured(
  'fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)',
  ([self, value], b) => {
    const dst = self;
    checkScalarFits('fill_', value, dst.dtype);
    implOf(b, 'fill', 'fill_')(dst, value);
    return dst;
  },
  ['inplace'],
);

/**
 * `_to_copy` (what `to` does when it must copy): a new tensor with `dtype`, laid out as the
 * source when that layout is dense (PyTorch's preserve_format), else contiguous.
 */
export const TO_COPY = defineStructured(
  '_to_copy(Tensor self, *, ScalarType? dtype=None, Device? device=None, MemoryFormat? memory_format=None) -> Tensor',
  ([self, dtype, device, format], b) => {
    const src = self;
    const dev = device ? toDevice('to', device) : src.device;
    if (dtype != null && isComplexType(dtype) && !isComplexType(src.dtype) && dev.type !== 'meta') return realToComplex(src, dtype, dev, b);
    // A meta tensor has no data: moving there is just the geometry.
    if (dev.type === 'meta') return TensorImpl.empty('to', src.sizes, dtype ?? src.dtype, dev);
    if (dev !== src.device) return crossDeviceCopy(src, dtype ?? src.dtype, dev, b);
    const strides = copyStrides('to', src, format);
    const out = TensorImpl.emptyStrided('to', src.sizes, strides, dtype ?? src.dtype, dev, UNINITIALIZED);
    try {
      implOf(b, 'copy', 'to')(out, src);
    } catch (e) {
      out.release(); // a backend whose copy rejects a dtype (WebGPU's float64) must not leak the output
      throw e;
    }
    return out;
  },
);

/**
 * A real tensor converted to a complex dtype: its values in the real parts of a new complex
 * tensor, zeros in the imaginary parts, written through the parts' views by the backend's
 * real kernels (Note [Complex tensors are pairs of reals]); then moved to `dev` (the complex
 * tensor's own `_to_copy`).
 */
function realToComplex(src: TensorImpl, dtype: DType, dev: Device, b: Backend | null): TensorImpl {
  if (!b) throw new DeviceError(`to: cannot convert ${src.dtype} to ${dtype} on ${src.device}`);
  const out = TensorImpl.empty('to', src.sizes, dtype, src.device);
  const pairs = complexParts(out);
  const part = (k: number) => {
    const g = selectGeometry('select', { sizes: pairs.sizes, strides: pairs.strides, offset: pairs.storageOffset }, -1, k);
    return pairs.view(g.sizes, g.strides, g.offset);
  };
  const [re, im] = [part(0), part(1)];
  try {
    implOf(b, 'copy', 'to')(re, src);
    implOf(b, 'fill', 'to')(im, 0);
    if (dev === src.device) return out.retain();
    return implResult(TO_COPY, callBoxed(TO_COPY, [out, dtype, dev, null]));
  } finally {
    re.release();
    im.release();
    pairs.release();
    out.release();
  }
}

/**
 * The strides of a copy of `src` in memory format `format` (Note [Memory formats]): for
 * 'preserve' (or none), the source's own strides when it is non-overlapping and dense, else
 * dense strides in its dim order (PyTorch's infer_dense_strides, as empty_like's); for a
 * named format, that format's strides (a rank it does not fit is PyTorch's error).
 */
export function copyStrides(op: string, src: { readonly sizes: readonly number[]; readonly strides: readonly number[] }, format: string | null | undefined): number[] {
  const f = format == null ? 'preserve' : parseMemoryFormat(op, format);
  if (f !== 'preserve') return formatStrides(op, src.sizes, f);
  if (isNonOverlappingAndDense(src.sizes, src.strides)) return [...src.strides];
  return computeOutputLayout(src.sizes, [{ sizes: src.sizes, strides: src.strides }]);
}

/** `clone`: a copy with its own storage (preserving a dense layout, as PyTorch does). */
export const CLONE = defineStructured(
  'clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor',
  ([self, format], b) => {
    const src = self;
    const strides = copyStrides('clone', src, format);
    const out = TensorImpl.emptyStrided('clone', src.sizes, strides, src.dtype, src.device, UNINITIALIZED);
    try {
      implOf(b, 'copy', 'clone')(out, src);
    } catch (e) {
      out.release();
      throw e;
    }
    return out;
  },
);

/**
 * Note [Cross-device copies]
 * A CPU tensor moves to a device through the uploader its backend registered (converted to
 * the target dtype on the CPU first, when `cpuBackend` can do it); a device tensor never
 * moves to the CPU synchronously: its memory is read with `await x.toAsync('cpu')`, and the
 * error says so. There is no silent round trip between two device backends.
 */
function crossDeviceCopy(src: TensorImpl, dtype: DType, dev: Device, cpuBackend: Backend | null): TensorImpl {
  if (src.device.type !== 'cpu') {
    throw new DeviceError(
      `to: cannot copy a tensor on ${src.device} to ${dev} synchronously; use \`await x.toAsync('${dev}')\` instead`,
    );
  }
  let host = src;
  if (dtype !== src.dtype) {
    if (!cpuBackend) throw new DeviceError(`to: cannot convert ${src.dtype} to ${dtype} while copying to ${dev}`);
    host = TensorImpl.empty('to', src.sizes, dtype, src.device, UNINITIALIZED);
    try {
      implOf(cpuBackend, 'copy', 'to')(host, src);
    } catch (e) {
      host.release();
      throw e;
    }
  }
  try {
    return deviceUploader('to', dev.type)(host, dev);
  } finally {
    if (host !== src) host.release();
  }
}

// ---- front ends ----
// (Note [Front ends are declared once])

/** `x.copy_(src)`: `src` (broadcast, converted to `x`'s dtype) written into `x`. */
export const copy_ = front('copy_(Tensor self, Tensor src, bool non_blocking=False) -> Tensor', { namespaces: [] }).run(([self, src, nonBlocking]): Tensor =>
  callMutating(COPY_, [unwrapTensor('copy_', 'self', self), unwrapTensor('copy_', 'src', src), nonBlocking], self),
);

/** `x.fill_(value)`: every element set to `value`, a number or a 0-dim tensor. */
export const fill_ = overloadedFront(['fill_(Tensor self, Tensor value) -> Tensor', 'fill_(Tensor self, Scalar value) -> Tensor'], { namespaces: [] }).run(
  ({ values: [self, value] }): Tensor => {
    let v = value;
    if (!isScalar(v)) {
      const t = unwrapTensor('fill_', 'value', value);
      if (t.sizes.length !== 0) {
        throw new TorchError(`fill_: fill_ only supports 0-dimension value tensor but got tensor with ${t.sizes.length} dimensions.`);
      }
      if (t.device.type !== 'cpu') throw new DeviceError('fill_: a value tensor on a device must be read first (await value.itemAsync())');
      v = readScalar(t);
    }
    return callMutating(FILL_, [unwrapTensor('fill_', 'self', self), v], self);
  },
);

/**
 * `self.copy_(r)`, then `r` released: the in-place form of a composite (`x.addmv_(mat, vec)`
 * is `x.copy_(addmv(x, mat, vec))`, so versions and autograd apply as to any copy_).
 */
export function copyResult_(self: Tensor, r: Tensor): Tensor {
  try {
    return copy_(self, r);
  } finally {
    r.dispose();
  }
}

/** `x.zero_()`: every element set to 0. */
export const zero_ = front('zero_(Tensor self) -> Tensor', { namespaces: [] }).run(([self]): Tensor => fill_(self, 0));

/** A copy with its own storage (`memoryFormat: 'preserve'`, the default, keeps a dense layout; Note [Memory formats]). */
export const clone = front('clone(Tensor input, *, MemoryFormat? memory_format=None) -> Tensor', { choices: { memory_format: MEMORY_FORMATS } }).run(
  ([self, memoryFormat]): Tensor => {
    const f = memoryFormat == null ? null : parseMemoryFormat('clone', memoryFormat);
    return callFunctional(CLONE, [unwrapTensor('clone', 'self', self), f]);
  },
);
export type CloneOptions = OptionsOf<typeof clone>;

/** `x.contiguous()`, `x.contiguous({ memoryFormat })`: `x` itself when it is contiguous in that format, else a copy in it. */
export const contiguous = front("contiguous(Tensor self, MemoryFormat memory_format='contiguous') -> Tensor", {
  choices: { memory_format: MEMORY_FORMATS },
}).run(([self, memoryFormat]): Tensor => {
  const f = parseMemoryFormat('contiguous', memoryFormat);
  const i = self.impl;
  if (isContiguousAs(i.sizes, i.strides, f, i.isContiguous)) return self;
  if (f === 'preserve') throw new TorchError('contiguous: preserve memory format is unsupported by the contiguous operator');
  return clone(self, { memoryFormat: f });
});

export interface ToOptions {
  dtype?: DType | string | null;
  device?: DeviceLike | null;
  /** Accepted as PyTorch's hint: copies here are synchronous, so it changes nothing. */
  nonBlocking?: boolean | null;
  copy?: boolean | null;
  memoryFormat?: MemoryFormatName | null;
}

// PyTorch's three `to` signatures, told apart by the first argument after self (a dtype, a
// tensor, or else a device); `memoryFormat` is a keyword of each, as in PyTorch.
const toDtypeArgs = makeBinder('to', 'to(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None) -> Tensor');
const toDeviceArgs = makeBinder('to', 'to(Tensor self, Device? device=None, ScalarType? dtype=None, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None) -> Tensor');
const toOtherArgs = makeBinder('to', 'to(Tensor self, Tensor other, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None) -> Tensor');

type ToTarget = DType | DeviceLike | Tensor | string;

/**
 * `x.to('float64')`, `x.to('cpu')`, `x.to('cpu', 'float64')`, `x.to(other)`,
 * `x.to({ dtype, device, copy })`: the same object when nothing changes (unless `copy`),
 * else a converted copy.
 */
type ToArgs = OptionalArgs<[target: ToTarget, dtypeOrNonBlocking: DType | string | boolean, nonBlockingOrCopy: boolean, copy: boolean], ToOptions & { other?: Tensor | null }>;

/** A `to` call's tensor, dtype, device, copy flag and memory format, bound as PyTorch binds them. */
function bindTo(args: readonly unknown[]): [Tensor, DType | string | undefined, DeviceLike | undefined, boolean, MemoryFormatName | undefined] {
  let a = args;
  // (a device written as a plain object, `{ type: 'webgpu' }`, is not the options object)
  if (isOptionsObject(a[1]) && 'type' in a[1]) a = [a[0], toDevice('to', a[1] as DeviceLike), ...a.slice(2)];
  const target = a[1];
  let self: Tensor;
  let dtype: DType | string | undefined;
  let device: DeviceLike | undefined;
  let copy: boolean;
  let memoryFormat: string | undefined;
  if (target instanceof Tensor) {
    const [s, other, , c, mf] = toOtherArgs.bind(a);
    [self, dtype, device, copy, memoryFormat] = [s, other.dtype, other.device, c, mf];
  } else if (typeof target === 'string' && isDTypeName(target)) {
    [self, dtype, , copy, memoryFormat] = toDtypeArgs.bind(a);
  } else {
    [self, device, dtype, , copy, memoryFormat] = toDeviceArgs.bind(a);
  }
  return [self, dtype, device, copy, memoryFormat == null ? undefined : (memoryFormat as MemoryFormatName)];
}

/**
 * `x.to('float64')`, `x.to('cpu')`, `x.to('cpu', 'float64')`, `x.to(other)`,
 * `x.to({ dtype, device, copy, memoryFormat })`: the same object when nothing changes (unless
 * `copy`; a memory format changes nothing when it is the one `x` suggests, as PyTorch's
 * to_will_alias), else a converted copy laid out in that format.
 */
/** `x.cpu()`: `x.to('cpu')` (synchronous, so a device tensor must be read with `await x.toAsync('cpu')`). */
export const cpu = front('cpu(Tensor self) -> Tensor', { namespaces: [] }).run(([self]): Tensor => to(self, 'cpu'));

/**
 * `x.typeAs(other)`: `x` in `other`'s dtype and on its device (PyTorch's `self.to(other.options())`,
 * which for a CUDA `other` moves too); `x` itself when both already match.
 */
export const typeAs = front('type_as(Tensor self, Tensor other) -> Tensor', { namespaces: [] }).run(([self, other]): Tensor => to(self, { dtype: other.dtype, device: other.device }));

export function to(input: Tensor, ...rest: ToArgs): Tensor;
export function to(...a: unknown[]): Tensor {
  const [self, dtypeArg, deviceArg, copy, formatArg] = bindTo(a);
  const impl = unwrapTensor('to', 'self', self);
  const dtype = dtypeArg === undefined ? impl.dtype : parseDType('to', dtypeArg);
  const device = deviceArg === undefined ? impl.device : toDevice('to', deviceArg);
  const format = formatArg === undefined ? 'preserve' : parseMemoryFormat('to', formatArg);
  const sameFormat = format === 'preserve' || suggestMemoryFormat(impl.sizes, impl.strides) === format;
  if (dtype === impl.dtype && device === impl.device && !copy && sameFormat) return self;
  const r = callFunctional(TO_COPY, [impl, dtype, device, format]);
  // A device upload is laid out by the uploader; the asked format (or, preserving, the one the
  // source suggests) is then restored on the device, as PyTorch's _to_copy allocates it there.
  // (A backend's own _to_copy, as the complex kernels', may not honour a format: checked too.)
  const want = format !== 'preserve' ? format : device === impl.device ? null : suggestMemoryFormat(impl.sizes, impl.strides);
  if (want === null || isContiguousAs(r.impl.sizes, r.impl.strides, want, r.impl.isContiguous)) return r;
  const c = clone(r, { memoryFormat: want });
  r.dispose();
  return c;
}

function isDTypeName(s: string): boolean {
  try {
    parseDType('to', s);
    return true;
  } catch {
    return false;
  }
}

export const float = (x: Tensor): Tensor => to(x, 'float32');
export const double = (x: Tensor): Tensor => to(x, 'float64');
export const half = (x: Tensor): Tensor => to(x, 'float16');
export const bfloat16 = (x: Tensor): Tensor => to(x, 'bfloat16');
export const long = (x: Tensor): Tensor => to(x, 'int64');
export const int = (x: Tensor): Tensor => to(x, 'int32');
export const short = (x: Tensor): Tensor => to(x, 'int16');
export const bool = (x: Tensor): Tensor => to(x, 'bool');
export const byte = (x: Tensor): Tensor => to(x, 'uint8');
export const char = (x: Tensor): Tensor => to(x, 'int8');

/**
 * `await x.toAsync('cpu')`: like `to`, and able to read device memory back (which the sync
 * `to('cpu')` of a device tensor cannot).
 */
export async function toAsync(input: Tensor, ...rest: ToArgs): Promise<Tensor>;
export async function toAsync(...a: unknown[]): Promise<Tensor> {
  const [self, dtype, device, copy] = bindTo(a);
  const impl = unwrapTensor('toAsync', 'self', self);
  if (impl.device.type !== 'cpu' && device !== undefined && toDevice('toAsync', device) === CPU) {
    const host = new Tensor(await deviceReader('toAsync', impl.device.type).toHost(impl, 'toAsync'));
    if (dtype === undefined || parseDType('toAsync', dtype) === host.dtype) return host;
    const converted = to(host, { dtype });
    host.dispose();
    return converted;
  }
  return to(self, { dtype, device, copy });
}
