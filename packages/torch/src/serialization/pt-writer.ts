/**
 * Writing PyTorch's own checkpoint format, as `torch.save` (PyTorch 1.13) writes it:
 * a zip (./zip-writer.ts) holding `archive/data.pkl`, a protocol-2 pickle of the object
 * (./pickle-writer.ts), one `archive/data/<key>` entry per storage (its raw little-endian
 * bytes, keys '0', '1', ... in the order the pickle meets them, entries in key order as
 * strings), and `archive/version` ("3\n"). A tensor pickles as
 * `torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad,
 * OrderedDict())` whose storage is the persistent id `('storage', torch.FloatStorage, key,
 * 'cpu', numel)`; an `nn.Parameter` as `torch._utils._rebuild_parameter(tensor,
 * requires_grad, OrderedDict())`. Everything it writes is on PyTorch's weights_only
 * allow-list, so `torch.load(f, weights_only=True)` reads it (checked by
 * scripts/goldens/serialization_write.py).
 *
 * Note [Saving shared storages]
 * Tensors that view one storage (a tensor and its transpose, slices, `.real` of a complex
 * tensor) write the storage once, whole, and each view its own offset, sizes and strides,
 * so they share memory again after loading, in PyTorch and here. As in PyTorch, one
 * storage viewed as two dtypes is refused. A conjugated view (the conjugate bit) is
 * written resolved, as its own storage: PyTorch's files have no conjugate bit. Tensors on
 * a device are written from host copies of their storages (read once per storage) with
 * location 'cpu', so that any PyTorch loads them; that read is asynchronous on WebGPU,
 * hence `serializePtAsync`.
 *
 * Values map to Python as: Map -> collections.OrderedDict (how PyTorch's state dicts are
 * typed; keys strings, numbers, bigints or booleans), plain object -> dict (string keys),
 * array -> list, integer-valued number or bigint -> int, other number -> float, string
 * -> str, boolean -> bool, null -> None, Tensor -> tensor, a module or optimizer (anything
 * with `stateDict()`) -> its state dict. Anything else (a function, a symbol, undefined, a
 * class instance, a cycle) is a TorchError naming where it is in the object. Browser-safe.
 */
import { DeviceError, Tensor, TorchError, typeMeta, type DType, type StorageImpl } from '@torch-ts/core';
import { noGradGuard } from '../nn/internal';
import { Parameter } from '../nn/parameter';
import { Module } from '../nn/module';
import { PickleWriter } from './pickle-writer';
import { writeZip, type ZipWriteEntry } from './zip-writer';
import { tensorBytes } from './bytes';

/** torch-ts dtype -> PyTorch's legacy storage class (what `pickle_storage_type()` names). */
const STORAGE_CLASSES: Record<DType, string> = {
  float32: 'FloatStorage',
  float64: 'DoubleStorage',
  float16: 'HalfStorage',
  bfloat16: 'BFloat16Storage',
  int64: 'LongStorage',
  int32: 'IntStorage',
  int16: 'ShortStorage',
  int8: 'CharStorage',
  uint8: 'ByteStorage',
  bool: 'BoolStorage',
  complex64: 'ComplexFloatStorage',
  complex128: 'ComplexDoubleStorage',
};

interface StorageRef {
  key: string;
  dtype: DType;
  numel: number;
  storage: StorageImpl;
  /** A tensor viewing it (to read a device storage back through). */
  sample: Tensor;
}

type Node =
  | { k: 'none' }
  | { k: 'bool'; v: boolean }
  | { k: 'int'; v: number | bigint }
  | { k: 'float'; v: number }
  | { k: 'str'; v: string }
  | { k: 'list'; items: Node[] }
  | { k: 'dict'; ordered: boolean; entries: [Node, Node][] }
  | { k: 'tensor'; t: Tensor; s: StorageRef; param: boolean; requiresGrad: boolean }
  | { k: 'sparse'; sizes: readonly number[]; indices: Node; values: Node };

const NONE: Node = { k: 'none' };

/** The object made ready to pickle: every value checked, every storage numbered, in pickling order. */
class Plan {
  readonly storages = new Map<StorageImpl, StorageRef>();
  /** Tensors made here (resolved conjugates, module state dicts), released when done. */
  readonly temps: Tensor[] = [];
  private readonly done = new Map<object, Node>();
  private readonly open = new Set<object>();

  constructor(readonly op: string) {}

  private fail(what: string, path: string): never {
    throw new TorchError(
      `${this.op}: cannot save ${what} at ${path} (a .pt file holds tensors, numbers, bigints, strings, booleans, null, arrays, Maps, plain objects and state dicts)`,
    );
  }

  node(x: unknown, path: string): Node {
    // A module (callable: a function object) or an optimizer: its state dict.
    if ((typeof x === 'function' || (typeof x === 'object' && x !== null)) && 'stateDict' in x && typeof x.stateDict === 'function') {
      const sd: unknown = x.stateDict();
      // A module's state dict holds detached aliases made for this call: released after.
      if (x instanceof Module && sd instanceof Map) for (const t of sd.values()) if (t instanceof Tensor) this.temps.push(t);
      return this.node(sd, `${path}.stateDict()`);
    }
    switch (typeof x) {
      case 'number':
        return Number.isSafeInteger(x) && !Object.is(x, -0) ? { k: 'int', v: x } : { k: 'float', v: x };
      case 'bigint':
        return { k: 'int', v: x };
      case 'string':
        return { k: 'str', v: x };
      case 'boolean':
        return { k: 'bool', v: x };
      case 'undefined':
        return this.fail('undefined', path);
      case 'function':
        return this.fail(`a function${x.name ? ` (${x.name})` : ''}`, path);
      case 'symbol':
        return this.fail(`a symbol (${String(x)})`, path);
    }
    if (x === null) return NONE;
    const obj = x as object;
    // An object met again is written once and referenced (BINGET), as pickle does; one met inside itself is a cycle.
    const seen = this.done.get(obj);
    if (seen) return seen;
    if (this.open.has(obj)) this.fail('a circular reference', path);
    this.open.add(obj);
    try {
      const n = this.make(obj, path);
      this.done.set(obj, n);
      return n;
    } finally {
      this.open.delete(obj);
    }
  }

  private make(x: object, path: string): Node {
    if (x instanceof Tensor) return this.tensor(x, path);
    if (Array.isArray(x)) return { k: 'list', items: x.map((v, i) => this.node(v, `${path}[${i}]`)) };
    if (x instanceof Map) {
      const entries: [Node, Node][] = [];
      for (const [k, v] of x) {
        const kt = typeof k;
        if (kt !== 'string' && kt !== 'number' && kt !== 'bigint' && kt !== 'boolean') this.fail(`a Map key that is ${describe(k)} (keys are strings, numbers, bigints or booleans)`, path);
        entries.push([this.node(k, path), this.node(v, `${path}[${JSON.stringify(typeof k === 'bigint' ? String(k) : k)}]`)]);
      }
      return { k: 'dict', ordered: true, entries };
    }
    const proto: unknown = Object.getPrototypeOf(x);
    if (proto !== Object.prototype && proto !== null) return this.fail(describe(x), path);
    const entries: [Node, Node][] = Object.entries(x).map(([k, v]) => [{ k: 'str', v: k }, this.node(v, `${path}[${JSON.stringify(k)}]`)]);
    return { k: 'dict', ordered: false, entries };
  }

  private tensor(x: Tensor, path: string): Node {
    if (x.isSparse) {
      // Note [Sparse COO tensors are saved as their members]: Tensor.__reduce_ex__ of a sparse
      // COO tensor is `_rebuild_sparse_tensor(layout, (indices, values, size))`, its members
      // pickled as any tensor (so they share storages with other tensors as PyTorch's do)
      if (x.requiresGrad) this.fail('a sparse tensor that requires grad', path);
      const i = x._indices();
      const v = x._values();
      this.temps.push(i, v);
      return { k: 'sparse', sizes: x.shape, indices: this.tensor(i, `${path}._indices()`), values: this.tensor(v, `${path}._values()`) };
    }
    if (x.device.type === 'meta') this.fail('a tensor on the meta device (it has no data)', path);
    let t = x;
    if (x.impl.isConj) {
      t = noGradGuard(() => x.resolveConj());
      this.temps.push(t);
    }
    const dtype = t.dtype;
    const st = t.impl.storage;
    let s = this.storages.get(st);
    if (!s) {
      const numel = Math.floor(st.nbytes / typeMeta(dtype).itemSize);
      s = { key: String(this.storages.size), dtype, numel, storage: st, sample: t };
      this.storages.set(st, s);
    } else if (s.dtype !== dtype) {
      throw new TorchError(
        `${this.op}: cannot save tensors that view the same storage as different dtypes (${s.dtype} and ${dtype}, at ${path}); save a .clone() of one of them`,
      );
    }
    return { k: 'tensor', t, s, param: x instanceof Parameter, requiresGrad: x.requiresGrad };
  }
}

function describe(x: unknown): string {
  if (x === null) return 'null';
  if (typeof x !== 'object') return `a ${typeof x}`;
  const name = (x as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name ? `an object of class ${name}` : 'an object';
}

function pickleNode(w: PickleWriter, n: Node): void {
  switch (n.k) {
    case 'none':
      return w.none();
    case 'bool':
      return w.bool(n.v);
    case 'int':
      return w.int(n.v);
    case 'float':
      return w.float(n.v);
    case 'str':
      return w.str(n.v);
    case 'list':
      if (w.recall(n)) return;
      return w.list(n, n.items, (x) => pickleNode(w, x as Node));
    case 'dict':
      if (w.recall(n)) return;
      if (n.ordered) {
        emptyOrderedDict(w, n);
      } else {
        w.emptyDict(n);
      }
      return w.setItems(n.entries.length, (i) => {
        pickleNode(w, n.entries[i][0]);
        pickleNode(w, n.entries[i][1]);
      }, !n.ordered);
    case 'tensor':
      if (w.recall(n)) return;
      if (n.param) {
        // Parameter.__reduce_ex__: _rebuild_parameter(self.data, self.requires_grad, OrderedDict())
        w.global('torch._utils', '_rebuild_parameter');
        rebuildTensor(w, n, false);
        w.memoize({}); // `self.data`: a tensor of its own in Python
        w.bool(n.requiresGrad);
        emptyOrderedDict(w, {});
        w.endTuple(3, {});
        w.reduce();
      } else {
        rebuildTensor(w, n, n.requiresGrad);
      }
      w.memoize(n);
      return;
    case 'sparse': {
      if (w.recall(n)) return;
      w.global('torch._utils', '_rebuild_sparse_tensor');
      w.global('torch.serialization', '_get_layout');
      w.str('torch.sparse_coo');
      w.endTuple(1, {});
      w.reduce();
      w.memoize({});
      pickleNode(w, n.indices);
      pickleNode(w, n.values);
      w.global('torch', 'Size');
      w.tuple(n.sizes, (x) => w.int(x as number), {});
      w.endTuple(1, {});
      w.reduce();
      w.memoize({});
      w.endTuple(3, {});
      w.endTuple(2, {});
      w.reduce();
      w.memoize(n);
    }
  }
}

/** `collections.OrderedDict()`: GLOBAL, EMPTY_TUPLE, REDUCE, memoized as `obj`. */
function emptyOrderedDict(w: PickleWriter, obj: object): void {
  w.global('collections', 'OrderedDict');
  w.emptyTuple();
  w.reduce();
  w.memoize(obj);
}

/** `_rebuild_tensor_v2(storage, offset, size, stride, requires_grad, OrderedDict())`, through its REDUCE (not memoized). */
function rebuildTensor(w: PickleWriter, n: Extract<Node, { k: 'tensor' }>, requiresGrad: boolean): void {
  w.global('torch._utils', '_rebuild_tensor_v2');
  w.mark();
  w.mark();
  w.str('storage', true);
  w.global('torch', STORAGE_CLASSES[n.s.dtype]);
  w.str(n.s.key, true);
  w.str('cpu', true);
  w.int(n.s.numel);
  w.endTuple(5, {});
  w.persid();
  w.int(n.t.storageOffset());
  const ints = (x: unknown) => w.int(x as number);
  w.tuple(n.t.shape, ints, {});
  w.tuple(n.t.stride(), ints, {});
  w.bool(requiresGrad);
  emptyOrderedDict(w, {});
  w.endTuple(6, {});
  w.reduce();
}

function archive(plan: Plan, root: Node, bytesOf: (s: StorageRef) => Uint8Array): Uint8Array {
  const w = new PickleWriter();
  pickleNode(w, root);
  const entries: ZipWriteEntry[] = [{ name: 'archive/data.pkl', data: w.finish() }];
  // PyTorch writes the storages sorted by key, as strings ('10' before '2').
  const refs = [...plan.storages.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const s of refs) entries.push({ name: `archive/data/${s.key}`, data: bytesOf(s) });
  entries.push({ name: 'archive/version', data: new TextEncoder().encode('3\n') });
  return writeZip(entries);
}

function plan(op: string, obj: unknown): [Plan, Node] {
  const p = new Plan(op);
  try {
    return [p, p.node(obj, 'obj')];
  } catch (e) {
    release(p);
    throw e;
  }
}

function release(p: Plan): void {
  for (const t of p.temps) t.dispose();
}

/** A CPU storage's bytes (a view: the zip writer copies them). */
function hostBytes(op: string, s: StorageRef): Uint8Array {
  if (s.storage.device.type !== 'cpu') {
    throw new DeviceError(`${op}: tensors on ${s.storage.device} cannot be read synchronously; use serializePtAsync (or torch.saveAsync)`);
  }
  return s.storage.typed(Uint8Array).subarray(0, s.numel * typeMeta(s.dtype).itemSize);
}

/**
 * The bytes of a PyTorch `.pt` checkpoint (zip format) holding `obj` (CPU tensors: see
 * `serializePtAsync` for others), as `torch.save(obj, f)` writes them; PyTorch reads it
 * with `torch.load(f, weights_only=True)`. The output depends on `obj` only.
 */
export function serializePt(obj: unknown): Uint8Array {
  return ptBytes('serializePt', obj);
}

/** `serializePt` for tensors on any device: each device storage is read back to the host once. */
export function serializePtAsync(obj: unknown): Promise<Uint8Array> {
  return ptBytesAsync('serializePtAsync', obj);
}

/** `serializePt`, its errors named for `op` (`torch.save`). */
export function ptBytes(op: string, obj: unknown): Uint8Array {
  const [p, root] = plan(op, obj);
  try {
    return archive(p, root, (s) => hostBytes(op, s));
  } finally {
    release(p);
  }
}

/** `serializePtAsync`, its errors named for `op`. */
export async function ptBytesAsync(op: string, obj: unknown): Promise<Uint8Array> {
  const [p, root] = plan(op, obj);
  try {
    const host = new Map<StorageRef, Uint8Array>();
    for (const s of p.storages.values()) {
      if (s.storage.device.type === 'cpu') continue;
      // The whole storage, as one flat view of it on the device, then copied to the host.
      const flat = noGradGuard(() => s.sample.asStrided([s.numel], [1], 0));
      try {
        const c = await flat.toAsync('cpu');
        try {
          host.set(s, tensorBytes(op, c));
        } finally {
          c.dispose();
        }
      } finally {
        flat.dispose();
      }
    }
    return archive(p, root, (s) => host.get(s) ?? hostBytes(op, s));
  } finally {
    release(p);
  }
}
