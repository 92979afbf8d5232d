/**
 * Reading PyTorch's own checkpoints (`torch.save`, the zip format of PyTorch >= 1.6):
 * `<archive>/data.pkl` is a pickle whose tensors refer, through persistent ids
 * `('storage', torch.FloatStorage, key, location, numel)`, to raw little-endian storages
 * in `<archive>/data/<key>`; `torch._utils._rebuild_tensor_v2(storage, offset, size,
 * stride, ...)` makes each tensor a strided view of its storage. Here every storage
 * becomes one CPU tensor and every tensor a view of it, so tensors that shared a storage
 * in PyTorch share it here too (same sizes, strides and offsets). All storages and views
 * are made and checked before anything is returned; on any error they are released and a
 * TorchError says what is wrong. Browser-safe (deflated entries need `inflateRaw`).
 */
import { Tensor, TorchError, typeMeta, type DType } from '@torch-ts/core';
import { tensorFromBytes } from './bytes';
import { PyObject, unpickle, type PyCallable } from './pickle';
import { ZipReader, type InflateRaw } from './zip';

const STORAGE_DTYPES: Record<string, DType> = {
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
};

const bad = (msg: string) => new TorchError(`torch.load: ${msg}`);

class StorageType {
  constructor(readonly dtype: DType) {}
}

export interface LoadPtOptions {
  inflateRaw?: InflateRaw;
}

/** True when `bytes` starts like a zip archive (a PyTorch >= 1.6 checkpoint). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

const fn = (call: (args: unknown[]) => unknown): PyCallable => ({ call });

/**
 * The object a `.pt` file holds: a state dict comes back as a `Map<string, Tensor>` (in
 * the file's key order); dicts as Maps, lists/tuples as arrays, numbers, strings.
 */
export function loadPt(bytes: Uint8Array, options: LoadPtOptions = {}): unknown {
  if (!(bytes instanceof Uint8Array)) throw bad('expected a Uint8Array');
  if (!isZip(bytes)) {
    if (bytes.length >= 2 && bytes[0] === 0x80) throw bad('this is a legacy (pre-1.6, non-zip) PyTorch file, which is not supported; re-save it with a newer PyTorch');
    throw bad('not a PyTorch zip checkpoint');
  }
  const zip = new ZipReader(bytes, options.inflateRaw);
  const pkl = [...zip.entries.keys()].find((n) => n === 'data.pkl' || n.endsWith('/data.pkl'));
  if (!pkl) throw bad('the archive has no data.pkl');
  const prefix = pkl.slice(0, pkl.length - 'data.pkl'.length);
  if (zip.has(`${prefix}byteorder`)) {
    const order = new TextDecoder().decode(zip.read(`${prefix}byteorder`));
    if (order !== 'little') throw bad(`byte order "${order}" is not supported`);
  }

  const made: Tensor[] = [];
  const storages = new Map<string, Tensor>();
  const persistentLoad = (pid: unknown): unknown => {
    if (!Array.isArray(pid) || pid[0] !== 'storage' || pid.length < 5) throw bad(`unsupported persistent id ${JSON.stringify(pid)}`);
    const [, type, key, , numel] = pid as [string, unknown, unknown, unknown, unknown];
    if (!(type instanceof StorageType)) throw bad(`unsupported storage type in persistent id`);
    if (typeof key !== 'string' || typeof numel !== 'number') throw bad('malformed persistent id');
    const cached = storages.get(key);
    if (cached) return cached;
    const name = `${prefix}data/${key}`;
    if (!zip.has(name)) throw bad(`storage "${key}" is missing from the archive`);
    const data = zip.read(name);
    const item = typeMeta(type.dtype).itemSize;
    if (data.length !== numel * item) throw bad(`storage "${key}" has ${data.length} bytes, expected ${numel * item} for ${numel} ${type.dtype} elements`);
    const t = tensorFromBytes('torch.load', data, type.dtype, [numel]);
    made.push(t);
    storages.set(key, t);
    return t;
  };

  const rebuildTensor = (args: unknown[]): Tensor => {
    const [storage, offset, size, stride, requiresGrad] = args;
    if (!(storage instanceof Tensor)) throw bad('_rebuild_tensor_v2 without a storage');
    const ints = (v: unknown) => Array.isArray(v) && v.every((x) => Number.isSafeInteger(x) && (x as number) >= 0);
    if (typeof offset !== 'number' || !ints(size) || !ints(stride)) throw bad('malformed tensor record');
    const sz = size as number[];
    const st = stride as number[];
    if (sz.length !== st.length) throw bad('tensor sizes and strides differ in length');
    let last = offset;
    if (!sz.includes(0)) for (let i = 0; i < sz.length; i++) last += (sz[i] - 1) * st[i];
    if (!sz.includes(0) && last >= storage.numel()) throw bad(`a tensor of size [${sz.join(', ')}] reaches past its storage of ${storage.numel()} elements`);
    const t = storage.asStrided(sz, st, offset);
    made.push(t);
    if (requiresGrad === true && t.isFloatingPoint()) t.requiresGrad_(true);
    return t;
  };

  const findClass = (module: string, name: string): PyCallable | null => {
    if (module === 'torch' && name in STORAGE_DTYPES) {
      const st = new StorageType(STORAGE_DTYPES[name]);
      return Object.assign(st, { call: () => st }) as unknown as PyCallable;
    }
    if (module === 'collections' && name === 'OrderedDict') return fn(() => new Map());
    if (module === 'builtins' && name === 'dict') return fn(() => new Map());
    if (module === 'torch._utils' && name === '_rebuild_tensor_v2') return fn(rebuildTensor);
    if (module === 'torch._utils' && (name === '_rebuild_parameter' || name === '_rebuild_parameter_with_state')) {
      return fn((args) => {
        const [data, requiresGrad] = args;
        if (data instanceof Tensor && requiresGrad === true && data.isFloatingPoint() && !data.requiresGrad) data.requiresGrad_(true);
        return data;
      });
    }
    if (module === 'torch._tensor' && name === '_rebuild_from_type_v2') {
      return fn((args) => {
        const [func, , fargs] = args;
        if (!func || typeof (func as PyCallable).call !== 'function' || !Array.isArray(fargs)) throw bad('malformed _rebuild_from_type_v2');
        return (func as PyCallable).call(fargs);
      });
    }
    if (module === 'torch' && name === 'device') return fn((args) => String(args[0]) + (args.length > 1 && args[1] != null ? `:${String(args[1])}` : ''));
    if (module === '_codecs' && name === 'encode') {
      return fn((args) => Uint8Array.from(String(args[0]), (c) => c.charCodeAt(0) & 0xff));
    }
    return null;
  };

  try {
    const obj = unpickle(zip.read(pkl), { findClass, persistentLoad });
    // Storages are internal, and a tensor the pickle built but dropped is unreachable:
    // release both now (views in the result keep their storages alive).
    const kept = reachableTensors(obj);
    for (const t of made) if (!kept.has(t)) t.dispose();
    return obj;
  } catch (e) {
    for (const t of made) t.dispose();
    if (e instanceof TorchError) throw e;
    throw bad(`corrupt checkpoint (${(e as Error).message})`);
  }
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
