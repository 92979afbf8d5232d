/**
 * Reading PyTorch's own checkpoints (`torch.save`, the zip format of PyTorch >= 1.6) with
 * the semantics of `torch.load(weights_only=True)`, PyTorch's default since 2.6:
 * `<archive>/data.pkl` is a pickle whose tensors refer, through persistent ids
 * `('storage', torch.FloatStorage, key, location, numel)`, to raw little-endian storages
 * in `<archive>/data/<key>`; `torch._utils._rebuild_tensor_v2(storage, offset, size,
 * stride, ...)` makes each tensor a strided view of its storage. Here every storage
 * becomes one CPU tensor and every tensor a view of it, so tensors that shared a storage
 * in PyTorch share it here too (same sizes, strides and offsets).
 *
 * Only the globals of PyTorch's weights_only allow-list resolve (tensor rebuilds, storage
 * types, dtypes, `OrderedDict`, plain containers), plus what the user allows with
 * `addSafeGlobals`; anything else is refused with PyTorch's message. Sizes, strides,
 * offsets and storage lengths are checked with overflow-checked arithmetic before a
 * storage is inflated or allocated (Note [Hostile archives], Note [Bounded unpickling]).
 * All storages and views are made and checked before anything is returned; on any error
 * they are released and a TorchError says what is wrong. Browser-safe (deflated entries
 * need `inflateRaw`).
 */
import { Tensor, TorchError, sparseCooTensor, typeMeta, type DType } from '@torch-ts/core';
import { tensorFromBytes } from './bytes';
import { PyObject, UnpicklingError, isPyCallable, unpickle, type PyCallable } from './pickle';
import { errorMessage, isCount } from './guards';
import { userGlobal, type SafeGlobal } from './safe-globals';
import { ZipReader, type InflateRaw } from './zip';

/** Legacy storage class names; null: a PyTorch dtype torch-ts does not have. */
const STORAGE_DTYPES: Record<string, DType | null> = {
  FloatStorage: 'float32',
  DoubleStorage: 'float64',
  HalfStorage: 'float16',
  BFloat16Storage: 'bfloat16',
  LongStorage: 'int64',
  IntStorage: 'int32',
  ShortStorage: 'int16',
  CharStorage: 'int8',
  ByteStorage: 'uint8',
  BoolStorage: 'bool',
  UntypedStorage: 'uint8',
  ComplexFloatStorage: 'complex64',
  ComplexDoubleStorage: 'complex128',
  QInt8Storage: null,
  QUInt8Storage: null,
  QInt32Storage: null,
  QUInt4x2Storage: null,
  QUInt2x4Storage: null,
};

/** `str(torch.float32)` and friends, as `torch.<name>` globals: they load as torch-ts dtype names. */
const DTYPE_NAMES = new Set([
  'float32', 'float64', 'float16', 'bfloat16', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool',
  'complex32', 'complex64', 'complex128', 'uint16', 'uint32', 'uint64', 'float8_e4m3fn', 'float8_e5m2', 'float8_e4m3fnuz', 'float8_e5m2fnuz',
  'qint8', 'quint8', 'qint32', 'quint4x2', 'quint2x4',
]); // prettier-ignore

/** Rebuild functions PyTorch allows whose tensors torch-ts cannot make. */
const UNSUPPORTED_REBUILDS: Record<string, string> = {
  _rebuild_qtensor: 'quantized tensors',
  _rebuild_sparse_csr_tensor: 'sparse CSR tensors',
  _rebuild_meta_tensor_no_storage: 'meta tensors',
  _rebuild_wrapper_subclass: 'tensor subclasses',
  _rebuild_device_tensor_from_numpy: 'numpy-backed tensors',
  _rebuild_device_tensor_from_cpu_tensor: 'device tensors rebuilt from numpy',
  _rebuild_tensor_v3: 'tensors of untyped storages (_rebuild_tensor_v3)',
  _rebuild_nested_tensor: 'nested tensors',
};

/** Most dimensions a loaded tensor may have (PyTorch's own kernels stop at 25 to 64). */
const MAX_DIMS = 64;

const bad = (msg: string) => new TorchError(`torch.load: ${msg}`);

class StorageType {
  constructor(
    readonly name: string,
    readonly dtype: DType | null,
  ) {}
}

/** `torch.Tensor` / `torch.nn.Parameter` as values (the `new_type` of `_rebuild_from_type_v2`). */
class TensorClass {
  constructor(readonly name: string) {}
}

export interface LoadPtOptions {
  /** Inflates deflated entries within a size limit (see `InflateRaw`); without it they are an error. */
  inflateRaw?: InflateRaw;
  /** Globals allowed for this call only, on top of `addSafeGlobals`. */
  safeGlobals?: readonly SafeGlobal[];
  /** Deepest container nesting accepted in the pickle (1000). */
  maxDepth?: number;
}

/** True when `bytes` starts like a zip archive (a PyTorch >= 1.6 checkpoint). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** The first bytes of a legacy (pre-1.6) checkpoint: PROTO 2, then LONG1 of the magic number 0x1950a86a20f9469cfc6c. */
const LEGACY_MAGIC = [0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19];

/** True for PyTorch's legacy formats: the pickle-sequence format (0.4 to 1.5) and the older tar one. */
export function isLegacyPt(bytes: Uint8Array): boolean {
  if (bytes.length >= LEGACY_MAGIC.length && LEGACY_MAGIC.every((b, i) => bytes[i] === b)) return true;
  const ustar = [0x75, 0x73, 0x74, 0x61, 0x72]; // "ustar" at 257: a tar archive
  return bytes.length >= 262 && ustar.every((b, i) => bytes[257 + i] === b);
}

/** a * b, or an error when it leaves the safe integers. */
function mul(a: number, b: number, what: string): number {
  const r = a * b;
  if (!Number.isSafeInteger(r)) throw bad(`${what} overflows (${a} * ${b})`);
  return r;
}

function add(a: number, b: number, what: string): number {
  const r = a + b;
  if (!Number.isSafeInteger(r)) throw bad(`${what} overflows (${a} + ${b})`);
  return r;
}

const fn = (call: (args: unknown[]) => unknown, extra: Partial<PyCallable> = {}): PyCallable => ({ call, ...extra });

/**
 * The object a `.pt` file holds: a state dict comes back as a `Map<string, Tensor>` (in
 * the file's key order); dicts as Maps, lists/tuples as arrays, numbers, strings.
 */
export function loadPt(bytes: Uint8Array, options: LoadPtOptions = {}): unknown {
  if (!(bytes instanceof Uint8Array)) throw bad('expected a Uint8Array');
  if (!isZip(bytes)) {
    if (isLegacyPt(bytes)) {
      throw bad('this is a legacy (pre-1.6, non-zip) PyTorch checkpoint, which torch-ts does not load; re-save it with torch.save in PyTorch >= 1.6 (the default zip format)');
    }
    throw bad('not a PyTorch zip checkpoint (no zip signature at the start)');
  }
  const zip = new ZipReader(bytes, options.inflateRaw);
  // As PyTorch's reader: the archive's folder is the first entry's, and data.pkl is in it.
  const first = zip.names[0] ?? '';
  const slash = first.indexOf('/');
  if (slash <= 0) throw bad(`the archive's first entry "${first}" is not in a folder (not a torch.save archive)`);
  const prefix = first.slice(0, slash + 1);
  const pkl = `${prefix}data.pkl`;
  if (!zip.has(pkl)) throw bad(`the archive has no ${pkl}`);
  if (zip.has(`${prefix}byteorder`)) {
    const order = new TextDecoder().decode(zip.read(`${prefix}byteorder`));
    if (order !== 'little') throw bad(`byte order "${order.slice(0, 20)}" is not supported`);
  }

  const made: Tensor[] = [];
  const storages = new Map<string, Tensor>();
  const isStorage = new Set<Tensor>();
  const persistentLoad = (pid: unknown): unknown => {
    if (!Array.isArray(pid) || pid[0] !== 'storage' || pid.length !== 5) throw bad('unsupported persistent id (expected ("storage", type, key, location, numel))');
    const [, type, key, , numel]: unknown[] = pid;
    if (!(type instanceof StorageType)) throw bad('the persistent id has no storage type');
    if (type.dtype === null) throw bad(`storage type ${type.name} has no torch-ts dtype`);
    if (typeof key !== 'string') throw bad('malformed persistent id (the storage key is not a string)');
    if (!isCount(numel)) throw bad(`storage "${key}" has a bad number of elements (${String(numel)})`);
    const cached = storages.get(key);
    if (cached) {
      if (cached.dtype !== type.dtype) throw bad(`storage "${key}" is used as both ${cached.dtype} and ${type.dtype}`);
      if (cached.numel() !== numel) throw bad(`storage "${key}" is declared with ${cached.numel()} and ${numel} elements`);
      return cached;
    }
    const name = `${prefix}data/${key}`;
    const entry = zip.entries.get(name);
    if (!entry) throw bad(`storage "${key}" is missing from the archive`);
    const want = mul(numel, typeMeta(type.dtype).itemSize, `the size of storage "${key}"`);
    // Checked against the declared size before a byte is inflated or allocated.
    if (entry.size !== want) throw bad(`storage "${key}" has ${entry.size} bytes, expected ${want} for ${numel} ${type.dtype} elements`);
    const t = tensorFromBytes('torch.load', zip.read(name), type.dtype, [numel]);
    made.push(t);
    storages.set(key, t);
    isStorage.add(t);
    return t;
  };

  const rebuildTensor = (args: unknown[]): Tensor => {
    const [storage, offset, size, stride, requiresGrad] = args;
    if (!(storage instanceof Tensor) || !isStorage.has(storage)) throw bad('_rebuild_tensor_v2 without a storage');
    const ints = (v: unknown): v is number[] => Array.isArray(v) && v.length <= MAX_DIMS && v.every(isCount);
    if (!isCount(offset)) throw bad(`tensor storage offset ${String(offset)} is not a non-negative integer`);
    if (!ints(size) || !ints(stride)) throw bad(`malformed tensor sizes or strides (non-negative integers, at most ${MAX_DIMS} dimensions)`);
    if (size.length !== stride.length) throw bad(`tensor sizes [${size.join(', ')}] and strides [${stride.join(', ')}] differ in length`);
    let numel = 1;
    for (const s of size) numel = mul(numel, s, `the number of elements of a tensor of size [${size.join(', ')}]`);
    const n = storage.numel();
    if (numel > 0) {
      let last = offset;
      for (let i = 0; i < size.length; i++) last = add(last, mul(size[i] - 1, stride[i], 'a tensor extent'), 'a tensor extent');
      if (last >= n) throw bad(`a tensor of size [${size.join(', ')}], stride [${stride.join(', ')}] and offset ${offset} reaches past its storage of ${n} elements`);
    } else if (offset > n) {
      throw bad(`an empty tensor's offset ${offset} is past its storage of ${n} elements`);
    }
    const t = storage.asStrided(size, stride, offset);
    made.push(t);
    if (requiresGrad === true && t.isFloatingPoint()) t.requiresGrad_(true);
    return t;
  };

  const parameter = (args: unknown[]): Tensor => {
    const [data, requiresGrad] = args;
    if (!(data instanceof Tensor)) throw bad('a Parameter without a tensor');
    if (requiresGrad === true && data.isFloatingPoint() && !data.requiresGrad) data.requiresGrad_(true);
    return data;
  };

  // `_rebuild_sparse_tensor(layout, (indices, values, size))`: PyTorch makes it unchecked, then
  // validates it when the load ends (_validate_loaded_sparse_tensors); torch.sparseCooTensor's
  // checks are those, and its result is uncoalesced, as PyTorch's
  const rebuildSparse = (args: unknown[]): Tensor => {
    const [layout, data] = args;
    if (layout !== 'torch.sparse_coo') throw bad(`rebuilding sparse tensor for layout ${String(layout)} is not supported by torch-ts`);
    if (!Array.isArray(data) || data.length !== 3) throw bad('malformed _rebuild_sparse_tensor data (expected (indices, values, size))');
    const [indices, values, size] = data as unknown[];
    if (!(indices instanceof Tensor) || !(values instanceof Tensor)) throw bad('_rebuild_sparse_tensor without indices and values tensors');
    if (!Array.isArray(size) || size.length > MAX_DIMS || !size.every(isCount)) throw bad('malformed sparse tensor size');
    if (indices.dtype !== 'int64') throw bad(`sparse tensor indices must be int64, got ${indices.dtype}`);
    const t = sparseCooTensor(indices, values, size as number[]);
    made.push(t);
    return t;
  };

  const findClass = (module: string, name: string): unknown => {
    const path = `${module}.${name}`;
    if (module === 'torch' && name in STORAGE_DTYPES) return new StorageType(name, STORAGE_DTYPES[name]);
    if (module === 'torch' && DTYPE_NAMES.has(name)) return name;
    if (path === 'collections.OrderedDict' || path === 'collections.Counter') {
      return fn((a) => {
        const m = new Map();
        if (a[0] instanceof Map) for (const [k, v] of a[0]) m.set(k, v);
        else if (a.length > 0 && !(Array.isArray(a[0]) && a[0].length === 0)) throw bad(`${name}(...) with arguments that are not a dict`);
        return m;
      });
    }
    if (path === 'torch._utils._rebuild_tensor_v2' || path === 'torch._utils._rebuild_tensor') return fn(rebuildTensor);
    if (path === 'torch._utils._rebuild_parameter' || path === 'torch._utils._rebuild_parameter_with_state') return fn(parameter);
    if (path === 'torch._utils._rebuild_sparse_tensor') return fn(rebuildSparse);
    if (path === 'torch.nn.parameter.Parameter') {
      return Object.assign(new TensorClass(path), fn((a) => parameter([a[0], a.length > 1 ? a[1] : true]), { newobj: true }));
    }
    if (path === 'torch.Tensor') return new TensorClass(path);
    if (module === 'torch._utils' && name in UNSUPPORTED_REBUILDS) {
      return fn(() => {
        throw bad(`${UNSUPPORTED_REBUILDS[name]} are not supported by torch-ts (${path})`);
      });
    }
    if (path === 'torch._tensor._rebuild_from_type_v2') {
      return fn((args) => {
        const [func, newType, fargs] = args;
        if (!(newType instanceof TensorClass)) throw bad('_rebuild_from_type_v2 of a type that is not torch.Tensor or torch.nn.Parameter');
        if (!isPyCallable(func) || !Array.isArray(fargs)) throw bad('malformed _rebuild_from_type_v2');
        const r = func.call(fargs);
        if (!(r instanceof Tensor)) throw bad('_rebuild_from_type_v2 did not rebuild a tensor');
        return r;
      });
    }
    if (path === 'torch.Size') return fn((a) => (Array.isArray(a[0]) ? [...a[0]] : a.length === 0 ? [] : badSize()));
    if (path === 'torch.device') return fn((a) => String(a[0]) + (a.length > 1 && a[1] != null ? `:${String(a[1])}` : ''));
    if (path === 'torch.serialization._get_layout') return fn((a) => String(a[0]));
    if (path === '_codecs.encode' || path === 'builtins.bytearray') return fn((a) => encode(name, a));
    if (path === 'builtins.set') {
      return fn((a) => {
        if (a.length === 0) return new Set();
        if (!Array.isArray(a[0])) throw bad('set(...) of something that is not a list');
        return new Set(a[0]);
      });
    }
    if (path === 'builtins.complex') {
      return fn((a) => {
        if (!a.every((x) => typeof x === 'number') || a.length > 2) throw bad('complex(...) of something that is not two numbers');
        return { re: a[0] ?? 0, im: a[1] ?? 0 };
      });
    }
    return userGlobal(options.safeGlobals, module, name);
  };

  try {
    const obj = unpickle(zip.read(pkl), { findClass, persistentLoad, maxDepth: options.maxDepth });
    // Storages are internal, and a tensor the pickle built but dropped is unreachable:
    // release both now (views in the result keep their storages alive).
    const kept = reachableTensors(obj);
    for (const t of made) if (!kept.has(t)) t.dispose();
    return obj;
  } catch (e) {
    for (const t of made) t.dispose();
    if (e instanceof UnpicklingError) throw new UnpicklingError(`torch.load: Weights only load failed. WeightsUnpickler error: ${e.message}`);
    if (e instanceof TorchError) throw e;
    throw bad(`corrupt checkpoint (${errorMessage(e)})`);
  }
}

function badSize(): never {
  throw bad('torch.Size(...) of something that is not a tuple');
}

/** `_codecs.encode(text, 'latin1')` (how protocol 2 pickles bytes) and `bytearray(...)`. */
function encode(name: string, a: unknown[]): Uint8Array {
  if (a.length === 0) return new Uint8Array(0);
  if (a[0] instanceof Uint8Array) return a[0].slice();
  const [text, enc = 'utf-8'] = a;
  if (typeof text !== 'string' || typeof enc !== 'string') throw bad(`${name}(...) of something that is not text`);
  const e = enc.toLowerCase().replace(/[-_]/g, '');
  if (e === 'utf8') return new TextEncoder().encode(text);
  if (e !== 'latin1' && e !== 'iso88591') throw bad(`${name}(...) with encoding "${enc.slice(0, 20)}" is not supported`);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) throw bad(`${name}(...): text is not latin-1`);
    out[i] = c;
  }
  return out;
}

/** Every tensor inside `obj` (Maps, Sets, arrays, PyObjects, plain objects), for ownership. Iterative: any depth. */
export function reachableTensors(obj: unknown): Set<Tensor> {
  const out = new Set<Tensor>();
  const seen = new Set<unknown>();
  const todo: unknown[] = [obj];
  while (todo.length) {
    const x = todo.pop();
    if (x === null || typeof x !== 'object' || seen.has(x)) continue;
    seen.add(x);
    if (x instanceof Tensor) out.add(x);
    else if (x instanceof Map) for (const [k, v] of x) todo.push(k, v);
    else if (x instanceof Set || Array.isArray(x)) for (const v of x) todo.push(v);
    else if (x instanceof PyObject) todo.push(x.args, x.state);
    else if (!ArrayBuffer.isView(x)) todo.push(...Object.values(x));
  }
  return out;
}

export { PyObject };
