/**
 * What crosses between a DataLoader and its worker threads (Note [DataLoader workers] in
 * data.ts): samples and batches, with tensors as their bytes, and the datasets and functions
 * a worker rebuilds from a `WorkerSpec`, as PyTorch's workers unpickle theirs.
 *
 * Note [Tensors cross to the main thread as bytes]
 * A tensor's storage lives in this thread's allocator (WebAssembly or JS memory), which no
 * other thread can adopt. A tensor in a worker's batch is packed as `{ dtype, shape, data }`,
 * its logical elements read into a fresh typed array that is transferred (not copied) with
 * the message, and the receiving thread builds a new contiguous tensor of them. That is
 * PyTorch's behaviour too: a worker's tensors reach the main process through shared memory
 * and are new tensors there. 16-bit floats travel as float32 (exact), int64 as BigInt64Array,
 * complex as its real view (`viewAsReal`).
 */
import { Tensor, TorchError, TorchTypeError, isComplex, tensor, typeName, viewAsComplex, viewAsReal, type DType } from '@torch-ts/core';

/**
 * How a worker rebuilds a dataset or finds a function (PyTorch pickles both by reference:
 * a class or function by its module and name, and a dataset's state). The worker imports
 * `module` and takes its export `name`: for a dataset, a class is constructed with `args`
 * (`new C(...args)`) and a function is called with them (a factory, which may be async);
 * for a function (`collateFn`, `workerInitFn`), the export is the function. Without a
 * `module`, `name` is one of torch-ts's own datasets (`TensorDataset`, `Subset`, ...).
 * `args` are cloned (the structured clone of Web Workers); tensors in them cross as bytes,
 * and datasets with a `workerSpec()` as their specs.
 */
export interface WorkerSpec {
  module?: string | URL;
  name: string;
  args?: readonly unknown[];
}

/** The marker of a packed tensor and of a packed spec (plain objects: they must clone). */
const TENSOR = '__torchTsTensor';
const SPEC = '__torchTsWorkerSpec';

interface PackedTensor {
  [TENSOR]: true;
  dtype: DType;
  shape: number[];
  complex: boolean;
  data: ArrayBufferView;
}

interface PackedSpec {
  [SPEC]: true;
  module: string | null;
  name: string;
  args: unknown[];
}

const isPlainObject = (x: unknown): x is Record<string, unknown> => {
  if (typeof x !== 'object' || x === null) return false;
  const proto: unknown = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
};

/** A value's spec if it is a dataset (or function) that can be rebuilt in a worker. */
export function specOf(x: unknown): WorkerSpec | null {
  if (typeof x === 'function') {
    const s: unknown = Reflect.get(x, 'workerSpec');
    return isSpec(s) ? s : null;
  }
  if (typeof x === 'object' && x !== null) {
    const f: unknown = Reflect.get(x, 'workerSpec');
    if (typeof f !== 'function') return null;
    const s: unknown = Reflect.apply(f, x, []);
    if (!isSpec(s)) throw new TorchTypeError(`DataLoader: ${typeName(x)}.workerSpec() must return { module?, name, args? }, not ${typeName(s)}`);
    return s;
  }
  return null;
}

const isSpec = (s: unknown): s is WorkerSpec => typeof s === 'object' && s !== null && typeof Reflect.get(s, 'name') === 'string';

function packTensor(t: Tensor, transfer: Transferable[]): PackedTensor {
  const complex = isComplex(t);
  const src = complex ? viewAsReal(t) : t;
  let data: ArrayBufferView = src.dataSync({ bigint: true });
  // (only a whole, unshared ArrayBuffer can be transferred; a view of a larger or shared one is copied)
  const buf = data.buffer;
  if (!(buf instanceof ArrayBuffer) || data.byteOffset !== 0 || data.byteLength !== buf.byteLength) data = (data as Float64Array).slice();
  transfer.push(data.buffer as ArrayBuffer);
  return { [TENSOR]: true, dtype: src.dtype, shape: [...src.shape], complex, data };
}

/**
 * `value` made cloneable: tensors packed (their buffers added to `transfer`), datasets and
 * functions with a `workerSpec` replaced by their packed specs, arrays, plain objects and
 * Maps packed element by element. A function or class instance that cannot cross raises.
 */
export function pack(value: unknown, transfer: Transferable[], what = 'value'): unknown {
  if (value instanceof Tensor) return packTensor(value, transfer);
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function') {
      const s = specOf(value);
      if (s === null) throw new TorchTypeError(`DataLoader: cannot send ${what} (a function) to a worker thread: give it a workerSpec ({ module, name }), see Note [DataLoader workers]`);
      return packSpec(s, transfer);
    }
    if (typeof value === 'symbol') throw new TorchTypeError(`DataLoader: cannot send ${what} (a symbol) to a worker thread`);
    return value;
  }
  const s = specOf(value);
  if (s !== null) return packSpec(s, transfer);
  if (Array.isArray(value)) return value.map((v, i) => pack(v, transfer, `${what}[${i}]`));
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, pack(v, transfer, `${what}.get(${String(k)})`)]));
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date || value instanceof RegExp) return value;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = pack(v, transfer, `${what}.${k}`);
    return out;
  }
  throw new TorchTypeError(`DataLoader: cannot send ${what} (${typeName(value)}) to a worker thread: only tensors, numbers, strings, arrays, plain objects, Maps, typed arrays and objects with a workerSpec() cross (Note [DataLoader workers])`);
}

function packSpec(s: WorkerSpec, transfer: Transferable[]): PackedSpec {
  const args = (s.args ?? []).map((a, i) => pack(a, transfer, `${s.name} argument ${i}`));
  return { [SPEC]: true, module: s.module === undefined ? null : String(s.module), name: s.name, args };
}

const isPackedTensor = (x: Record<string, unknown>): boolean => x[TENSOR] === true;
const isPackedSpec = (x: Record<string, unknown>): x is Record<string, unknown> & PackedSpec => x[SPEC] === true;

/** Resolves a packed spec's export: a module's, or torch-ts's own (`builtins`). */
export type SpecResolver = (spec: { module: string | null; name: string }) => Promise<unknown>;

/** The modules a packed value names (the worker imports them before anything else). */
export function modulesOf(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) modulesOf(v, out);
  else if (value instanceof Map) for (const v of value.values()) modulesOf(v, out);
  else if (isPlainObject(value)) {
    if (isPackedSpec(value) && value.module !== null) out.add(value.module);
    for (const v of Object.values(value)) modulesOf(v, out);
  }
  return out;
}

function unpackTensor(p: Record<string, unknown>): Tensor {
  const data = p.data as Float64Array;
  const t = tensor(data, { dtype: p.dtype as DType }).reshape(p.shape as number[]);
  return p.complex === true ? viewAsComplex(t) : t;
}

/** The inverse of `pack` for values with no specs (a batch): tensors rebuilt here. */
export function unpack(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unpack);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, unpack(v)]));
  if (isPlainObject(value)) {
    if (isPackedTensor(value)) return unpackTensor(value);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = unpack(v);
    return out;
  }
  return value;
}

/** `unpack` that also rebuilds specs: a dataset constructed (or made by its factory), a function found. */
export async function unpackSpecs(value: unknown, resolve: SpecResolver, asFunction = false): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((v) => unpackSpecs(v, resolve)));
  if (value instanceof Map) return new Map(await Promise.all([...value].map(async ([k, v]) => [k, await unpackSpecs(v, resolve)] as const)));
  if (!isPlainObject(value)) return value;
  if (isPackedTensor(value)) return unpackTensor(value);
  if (isPackedSpec(value)) {
    const exp = await resolve(value);
    const where = value.module === null ? `torch-ts's ${value.name}` : `export '${value.name}' of ${value.module}`;
    if (typeof exp !== 'function') throw new TorchError(`DataLoader worker: ${where} is ${typeName(exp)}, not a class or function`);
    if (asFunction) return exp;
    const args = (await unpackSpecs(value.args, resolve)) as unknown[];
    // (a class is constructed, any other function is a factory, as pickle's reduce calls it)
    if (/^class\b/.test(Function.prototype.toString.call(exp))) return Reflect.construct(exp, args);
    return await (Reflect.apply(exp, undefined, args) as Promise<unknown>);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = await unpackSpecs(v, resolve);
  return out;
}
