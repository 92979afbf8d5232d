import { CPU, factoryDevice, type Device, type DeviceLike } from '../device';
import { checkScalarFits, checkTensorValue, getDefaultDtype, isFloatingType, scalarDType, type DType } from '../dtype';
import { DispatchKey } from '../dispatch/dispatch-key';
import { DispatchKeySet } from '../dispatch/dispatch-key-set';
import { withExcluded } from '../dispatch/local-state';
import { DTypeError, ShapeError, TorchError } from '../errors';
import { fma32, fma64 } from '../numeric/fused';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { makeBinder } from './binder';
import { front, overloadedFront, type OptionsOf } from './front';
import type { Generator } from '../random/generator';
import { callMutating } from './call';
import { COPY_, copyStrides, fill_, to } from './copy';
import { MEMORY_FORMATS, formatStrides, parseMemoryFormat } from '../tensor/memory-format';
import { isContiguous } from '../views';
import { UNINITIALIZED, isScalar, torchTypeName, type Scalar } from './meta-utils';

/**
 * Filling a tensor nobody has seen yet is initialisation, not an in-place change: it runs
 * below ADInplaceOrView, so a fresh tensor's version is 0 as in PyTorch.
 */
const BELOW_INPLACE = DispatchKeySet.of(DispatchKey.ADInplaceOrView);
function initialise(fn: () => unknown): void {
  withExcluded(BELOW_INPLACE, fn);
}

/** A factory's dtype and device, as bound (None: the fallback dtype, the default device). */
export interface BoundFactoryOptions {
  dtype?: DType;
  device?: DeviceLike;
  requiresGrad: boolean;
  generator?: Generator;
}

function resolve(op: string, o: BoundFactoryOptions, fallback: DType): { dtype: DType; device: Device } {
  return { dtype: o.dtype ?? fallback, device: factoryDevice(op, o.device ?? null) };
}

function finish(t: Tensor, o: BoundFactoryOptions): Tensor {
  if (o.requiresGrad) {
    try {
      t.requiresGrad_(true);
    } catch (e) {
      t.dispose(); // refused (an integer dtype): the tensor was never the caller's
      throw e;
    }
  }
  return t;
}

/**
 * The keywords of PyTorch's sized factories (`zeros(*size, *, out=None, dtype=None,
 * layout=torch.strided, device=None, requires_grad=False)` and its relatives); those torch-ts
 * does not support yet raise NotImplementedError (Note [The argument binder]).
 */
export const SIZED_KEYWORDS =
  "*, ScalarType? dtype=None, Layout layout='strided', Device? device=None, bool pin_memory=False, bool requires_grad=False, Dimname[]? names=None, MemoryFormat memory_format='contiguous', Tensor? out=None";
export const FACTORY_UNSUPPORTED = ['layout', 'pinMemory', 'names', 'memoryFormat', 'out'] as const;
/** The keywords of `arange`, `linspace` and `eye`, as PyTorch's Python shows them. */
const RANGE_KEYWORDS = "*, Tensor? out=None, ScalarType? dtype=None, Layout layout='strided', Device? device=None, bool pin_memory=False, bool requires_grad=False";
const RANGE = { method: false, unsupported: ['out', 'layout', 'pinMemory'] } as const;
/**
 * The sized factories' declaration options: `zeros(2, 3)` as well as `zeros([2, 3])` (Note
 * [Variadic int lists]); functions of `torch` only.
 */
export const SIZED = { varargs: true, method: false, unsupported: FACTORY_UNSUPPORTED } as const;

/**
 * A sized factory's sizes, checked. (`size=[]` in their schemas: no sizes at all is a 0-dim
 * tensor, `zeros()` as `zeros([])`. PyTorch refuses `zeros()`; torch-ts takes it so that
 * `zeros(...shape)` works for every shape, the empty one too.)
 */
export function checkSizes(op: string, sizes: readonly number[]): number[] {
  for (const n of sizes) {
    if (n < 0) throw new TorchError(`${op}(): sizes must be non-negative integers, but got ${JSON.stringify(sizes)}`);
  }
  return [...sizes];
}

/**
 * Uninitialised memory of the given shape (zeros on CPU, since ArrayBuffers start zeroed),
 * laid out in `memoryFormat` (the only sized factory of PyTorch's that takes one).
 */
export const empty = front(`empty(SymInt[] size=[], ${SIZED_KEYWORDS}) -> Tensor`, {
  ...SIZED,
  unsupported: FACTORY_UNSUPPORTED.filter((k) => k !== 'memoryFormat'),
  choices: { memory_format: MEMORY_FORMATS },
}).run(([size, dtype, , device, , requiresGrad, , memoryFormat]): Tensor => {
  const o = { dtype, device, requiresGrad };
  const r = resolve('empty', o, getDefaultDtype());
  const sizes = checkSizes('empty', size);
  const f = parseMemoryFormat('empty', memoryFormat);
  if (f === 'preserve') throw new TorchError('empty: unsupported memory format Preserve');
  const impl = f === 'contiguous' ? TensorImpl.empty('empty', sizes, r.dtype, r.device) : TensorImpl.emptyStrided('empty', sizes, formatStrides('empty', sizes, f), r.dtype, r.device);
  return finish(new Tensor(impl), o);
});

function filled(op: string, size: readonly number[], value: Scalar, o: BoundFactoryOptions): Tensor {
  const { dtype, device } = resolve(op, o, getDefaultDtype());
  const t = new Tensor(TensorImpl.empty(op, checkSizes(op, size), dtype, device));
  initialise(() => fill_(t, value));
  return finish(t, o);
}

/** Zeros of the given shape: `zeros(2, 3)`, `zeros([2, 3], { dtype: 'int32' })`. */
export const zeros = front(`zeros(SymInt[] size=[], ${SIZED_KEYWORDS}) -> Tensor`, SIZED).run(([size, dtype, , device, , requiresGrad]): Tensor =>
  filled('zeros', size, 0, { dtype, device, requiresGrad }),
);

/** Ones of the given shape: `ones(2, 3)`, `ones([2, 3], { dtype: 'int32' })`. */
export const ones = front(`ones(SymInt[] size=[], ${SIZED_KEYWORDS}) -> Tensor`, SIZED).run(([size, dtype, , device, , requiresGrad]): Tensor =>
  filled('ones', size, 1, { dtype, device, requiresGrad }),
);

/** The keywords every factory takes: `{ dtype, device, requiresGrad }`, as the sized factories bind them. */
export type FactoryOptions = Omit<OptionsOf<typeof zeros>, 'size' | 'memoryFormat'>;

export const LIKE_KEYWORDS = "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False, MemoryFormat? memory_format=None";
/** The `*_like` factories' declaration options: functions of `torch` only, as PyTorch's. */
export const LIKE = { method: false, unsupported: ['layout', 'pinMemory'], choices: { memory_format: MEMORY_FORMATS } } as const;

/** `full(size, value)`: int64 for an integer value, bool for a boolean, else the default float. */
export const full = front(`full(SymInt[] size, Scalar fill_value, ${SIZED_KEYWORDS}) -> Tensor`, { method: false, unsupported: FACTORY_UNSUPPORTED }).run(
  ([size, fillValue, dtypeArg, , deviceArg, , requiresGrad]): Tensor => {
    const options = { dtype: dtypeArg, device: deviceArg, requiresGrad };
    // As tensor() infers (Note [Integer-valued numbers are integers]): `full([2], 1e20)` is a
    // float tensor, not an int64 overflow.
    const { dtype, device } = resolve('full', options, scalarDType(fillValue));
    checkScalarFits('full', fillValue, dtype);
    const t = new Tensor(TensorImpl.empty('full', checkSizes('full', size), dtype, device));
    initialise(() => fill_(t, fillValue));
    return finish(t, options);
  },
);

/**
 * A `*_like` factory's result laid out as `format` asks (Note [Memory formats]; 'preserve',
 * the default, is empty_like's: the input's strides when dense, else its dim order). `make`
 * builds contiguous values of the given sizes; when the layout is not row-major they are
 * made in memory order and copied into a tensor with the target strides, so storage holds
 * them in the order PyTorch's kernels (random ones included) write them.
 */
export function laidOutLike(op: string, t: Tensor, format: string | null | undefined, requiresGrad: boolean, make: (sizes: number[]) => Tensor): Tensor {
  const sizes = [...t.shape];
  const strides = copyStrides(op, t.impl, format);
  if (isContiguous(sizes, strides)) return finish(make(sizes), { requiresGrad });
  // dims from the slowest to the fastest in memory (stable: ties keep their order)
  const perm = sizes.map((_, d) => d).sort((a, b) => strides[b] - strides[a]);
  const values = make(perm.map((d) => sizes[d]));
  const out = new Tensor(TensorImpl.emptyStrided(op, sizes, strides, values.dtype, values.device, UNINITIALIZED));
  try {
    initialise(() => {
      const v = out.permute(perm);
      v.copy_(values);
      v.dispose();
    });
  } catch (e) {
    out.dispose();
    throw e;
  } finally {
    values.dispose();
  }
  return finish(out, { requiresGrad });
}

/** A `*_like` factory's options: the input's dtype and device unless given. */
function likeOptions(t: Tensor, dtype: DType | undefined, device: DeviceLike | undefined, requiresGrad: boolean): FactoryOptions {
  return { dtype: dtype ?? t.dtype, device: device ?? t.device, requiresGrad };
}

/** Uninitialised memory of the input's shape (and dtype and device, unless given). */
export const emptyLike = front(`empty_like(Tensor input, ${LIKE_KEYWORDS}) -> Tensor`, LIKE).run(([t, dtype, , device, , requiresGrad, format]): Tensor =>
  laidOutLike('empty_like', t, format, requiresGrad, (sizes) => empty(sizes, likeOptions(t, dtype, device, false))),
);

/** Zeros of the input's shape (and dtype and device, unless given). */
export const zerosLike = front(`zeros_like(Tensor input, ${LIKE_KEYWORDS}) -> Tensor`, LIKE).run(([t, dtype, , device, , requiresGrad, format]): Tensor =>
  laidOutLike('zeros_like', t, format, requiresGrad, (sizes) => zeros(sizes, likeOptions(t, dtype, device, false))),
);

/** Ones of the input's shape (and dtype and device, unless given). */
export const onesLike = front(`ones_like(Tensor input, ${LIKE_KEYWORDS}) -> Tensor`, LIKE).run(([t, dtype, , device, , requiresGrad, format]): Tensor =>
  laidOutLike('ones_like', t, format, requiresGrad, (sizes) => ones(sizes, likeOptions(t, dtype, device, false))),
);

/** `fillValue` in the input's shape (and dtype and device, unless given). */
export const fullLike = front(`full_like(Tensor input, Scalar fill_value, ${LIKE_KEYWORDS}) -> Tensor`, LIKE).run(
  ([t, fillValue, dtype, , device, , requiresGrad, format]): Tensor =>
    laidOutLike('full_like', t, format, requiresGrad, (sizes) => full(sizes, fillValue, likeOptions(t, dtype, device, false))),
);

/**
 * Values computed on the host in a wide dtype (float64, int64 or bool), then converted by
 * the backend's own copy, so `tensor([1.7], { dtype: 'int32' })` truncates exactly as a cast.
 */
function fromHost(op: string, sizes: readonly number[], values: ArrayLike<number> | BigInt64Array, hostDtype: 'float64' | 'int64' | 'bool', dtype: DType, device: Device): Tensor {
  const impl = TensorImpl.empty(op, sizes, hostDtype, CPU);
  if (hostDtype === 'int64') {
    const dst = impl.storage.typed(BigInt64Array);
    if (values instanceof BigInt64Array) dst.set(values);
    else for (let i = 0; i < values.length; i++) dst[i] = BigInt(values[i]);
  } else if (hostDtype === 'bool') {
    const dst = impl.storage.typed(Uint8Array);
    for (let i = 0; i < values.length; i++) dst[i] = values[i] ? 1 : 0;
  } else if (values instanceof BigInt64Array) {
    const dst = impl.storage.typed(Float64Array);
    for (let i = 0; i < values.length; i++) dst[i] = Number(values[i]);
  } else {
    impl.storage.typed(Float64Array).set(values);
  }
  return hostTo(op, new Tensor(impl), dtype, device);
}

/** A host tensor converted to `dtype` on `device` by the backend's copy (the host one is consumed). */
function hostTo(op: string, host: Tensor, dtype: DType, device: Device): Tensor {
  if (dtype === host.dtype && device === CPU) return host;
  try {
    if (device === CPU) {
      const out = new Tensor(TensorImpl.empty(op, host.shape, dtype, CPU));
      initialise(() => callMutating(COPY_, [out.impl, host.impl, false], out));
      return out;
    }
    return to(host, { dtype, device });
  } finally {
    host.dispose();
  }
}

export type TensorData = number | boolean | bigint | readonly TensorData[] | ArrayLike<number> | BigInt64Array;

const TYPED_DTYPES = new Map<unknown, DType>([
  [Float32Array, 'float32'],
  [Float64Array, 'float64'],
  [Int8Array, 'int8'],
  [Uint8Array, 'uint8'],
  [Int16Array, 'int16'],
  [Int32Array, 'int32'],
  [BigInt64Array, 'int64'],
]);

const tensorArgs = makeBinder('tensor', 'tensor(Any data, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False, bool pin_memory=False) -> Tensor', {
  unsupported: ['pinMemory'],
});

/** `tensor`'s keywords. */
export interface TensorOptions {
  dtype?: DType | null;
  device?: DeviceLike | null;
  requiresGrad?: boolean | null;
  pinMemory?: boolean | null;
}

/**
 * `tensor(data)`: nested arrays of numbers / booleans / bigints, or a typed array (which
 * keeps its dtype). Inference as PyTorch: all integers -> int64, any non-integer (or NaN,
 * ±Infinity) -> the default float dtype, booleans -> bool. (Written by hand over its binder:
 * the schema language has no type for nested data, `Any` to the binder.)
 */
export function tensor(data: TensorData, options?: TensorOptions): Tensor;
export function tensor(options: TensorOptions & { data: TensorData }): Tensor;
export function tensor(...args: unknown[]): Tensor {
  const [raw, dtype, device, requiresGrad] = tensorArgs.bind(args);
  return tensorOf(raw, { dtype, device, requiresGrad });
}

function isTensorData(d: unknown): d is TensorData {
  return isScalar(d) || isSequence(d);
}

function tensorOf(raw: unknown, options: BoundFactoryOptions): Tensor {
  if (!isTensorData(raw)) throw new TorchError(`tensor(): could not infer dtype of ${raw === null ? 'null' : typeof raw}`);
  const data = raw;
  if (ArrayBuffer.isView(data)) {
    const inferred = TYPED_DTYPES.get(data.constructor);
    if (!inferred) throw new TorchError(`tensor(): unsupported typed array ${data.constructor.name}`);
    const { dtype, device } = resolve('tensor', options, inferred);
    const vals = data instanceof BigInt64Array ? data : Float64Array.from(data);
    return finish(fromHost('tensor', [vals.length], vals, vals instanceof BigInt64Array ? 'int64' : 'float64', dtype, device), options);
  }
  const sizes = nestedSizes(data);
  // The host copy is allocated before the data is walked: sizes no host can hold (a small
  // array shared at every level can describe 2^60 elements) are refused at once, with the
  // out-of-memory or numel-overflow error, instead of walking for ever.
  const host = new Tensor(TensorImpl.empty('tensor', sizes, 'float64', CPU, { uninitialized: true }));
  let t: Tensor;
  try {
    const { kind, bigints } = storeNested(data, sizes, host.impl.storage.typed(Float64Array));
    const inferred: DType = kind === 'bool' ? 'bool' : kind === 'int' ? 'int64' : getDefaultDtype();
    const { dtype, device } = resolve('tensor', options, inferred);
    const values = host.impl.storage.typed(Float64Array).subarray(0, host.numel());
    if (!isFloatingType(dtype) && dtype !== 'bool') {
      for (let i = 0; i < values.length; i++) checkTensorValue('tensor()', bigints?.get(i) ?? values[i], dtype);
    }
    // `values` is read before fromHost allocates: an allocation may grow (and detach) the
    // heap that the host copy lives in.
    if (kind === 'bool' && dtype === 'bool') {
      t = fromHost('tensor', sizes, Uint8Array.from(values), 'bool', dtype, device);
    } else if (kind !== 'float' && !isFloatingType(dtype)) {
      const big = new BigInt64Array(values.length);
      for (let i = 0; i < values.length; i++) big[i] = bigints?.get(i) ?? BigInt(values[i]);
      t = fromHost('tensor', sizes, big, 'int64', dtype, device);
    } else {
      t = hostTo('tensor', new Tensor(host.impl.retain()), dtype, device);
    }
  } finally {
    host.dispose();
  }
  return finish(t, options);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** PyTorch's `MAX_DIMS` for nested data (torch/csrc/utils/tensor_new.cpp). */
const MAX_NESTED_DIMS = 128;

const isSequence = (d: unknown): d is ArrayLike<TensorData> => Array.isArray(d) || (ArrayBuffer.isView(d) && !(d instanceof DataView));

/**
 * The sizes of nested data, read down the first elements as PyTorch's `compute_sizes` does:
 * a loop, not recursion, and at most 128 dims, so neither a 10,000-deep array nor one that
 * contains itself can overflow the stack (storeNested then checks every other element).
 */
function nestedSizes(data: TensorData): number[] {
  const sizes: number[] = [];
  let d: unknown = data;
  while (isSequence(d)) {
    if (sizes.length === MAX_NESTED_DIMS) {
      throw new ShapeError(`tensor(): too many dimensions: data nested deeper than ${MAX_NESTED_DIMS} levels (or an array that contains itself)`);
    }
    sizes.push(d.length);
    if (d.length === 0) break;
    d = d[0];
  }
  return sizes;
}

type Kind = 'bool' | 'int' | 'float';
const rank = (k: Kind) => (k === 'bool' ? 0 : k === 'int' ? 1 : 2);

/**
 * Writes the elements of `data` (of the given sizes) into `out` in row-major order as
 * numbers, checking that every sequence has its dim's length, as PyTorch's
 * `recursive_store`. Returns the inferred kind and the bigints by position (a float64
 * cannot hold all of them exactly). Recursion is at most `sizes.length` (<= 128) deep.
 */
function storeNested(data: TensorData, sizes: readonly number[], out: Float64Array): { kind: Kind; bigints: Map<number, bigint> | null } {
  let kind: Kind | null = null;
  let bigints: Map<number, bigint> | null = null;
  let pos = 0;
  const visit = (d: unknown, depth: number): void => {
    if (isScalar(d)) {
      if (depth < sizes.length) throw new ShapeError(`tensor(): expected sequence of length ${sizes[depth]} at dim ${depth} (got a number)`);
      // A number's kind is its scalar dtype's (Note [Integer-valued numbers are integers]).
      const sd = scalarDType(d);
      const k: Kind = sd === 'bool' ? 'bool' : sd === 'int64' ? 'int' : 'float';
      kind = kind === null || rank(k) > rank(kind) ? k : kind;
      if (typeof d === 'bigint') {
        if (d < INT64_MIN || d > INT64_MAX) throw new TorchError(`tensor(): value ${d} is out of the range of int64 (Overflow when unpacking long)`);
        (bigints ??= new Map()).set(pos, d);
      }
      out[pos++] = Number(d);
      return;
    }
    if (!isSequence(d)) throw new TorchError(`tensor(): could not infer dtype of ${d === null ? 'null' : typeof d}`);
    if (depth === sizes.length) throw new ShapeError(`tensor(): expected a number at dim ${depth} (got a sequence)`);
    if (d.length !== sizes[depth]) throw new ShapeError(`tensor(): expected sequence of length ${sizes[depth]} at dim ${depth} (got ${d.length})`);
    for (let i = 0; i < d.length; i++) visit(d[i], depth + 1);
  };
  visit(data, 0);
  return { kind: kind ?? 'float', bigints };
}

const RANGE_SCHEMAS = [
  `arange(Scalar end, ${RANGE_KEYWORDS}) -> Tensor`,
  `arange(Scalar start, Scalar end, ${RANGE_KEYWORDS}) -> Tensor`,
  `arange(Scalar start, Scalar end, Scalar step=1, ${RANGE_KEYWORDS}) -> Tensor`,
] as const;

/** `arange(end)`, `arange(start, end, step?)`: int64 when every argument is an integer. */
export const arange = overloadedFront(RANGE_SCHEMAS, RANGE).run((call): Tensor => {
  if (call.index === 0) {
    const [end, , dtype, , device, , requiresGrad] = call.values;
    return rangeOf(0, Number(end), 1, { dtype, device, requiresGrad });
  }
  if (call.index === 1) {
    const [start, end, , dtype, , device, , requiresGrad] = call.values;
    return rangeOf(Number(start), Number(end), 1, { dtype, device, requiresGrad });
  }
  const [start, end, step, , dtype, , device, , requiresGrad] = call.values;
  return rangeOf(Number(start), Number(end), Number(step), { dtype, device, requiresGrad });
});

function rangeOf(start: number, end: number, step: number, opts: BoundFactoryOptions): Tensor {
  if (step === 0) throw new TorchError('arange: step must be nonzero');
  if (!Number.isFinite(start) || !Number.isFinite(end)) throw new TorchError(`arange: unsupported range: ${start} -> ${end}`);
  if ((end - start) / step < 0) {
    throw new TorchError('arange: upper bound and larger bound inconsistent with step sign');
  }
  const allInt = [start, end, step].every(Number.isInteger);
  const { dtype, device } = resolve('arange', opts, allInt ? 'int64' : getDefaultDtype());
  const n = Math.ceil((end - start) / step);
  const vals = new Float64Array(n);
  for (let i = 0; i < n; i++) vals[i] = start + i * step;
  const host = allInt && !isFloatingType(dtype) ? 'int64' : 'float64';
  return finish(fromHost('arange', [n], vals, host, dtype, device), opts);
}

/**
 * `linspace(start, end, steps)`, bit for bit as PyTorch's CPU kernel computes it (AVX2
 * build): the step in the target dtype's precision; the first half counted up from `start`,
 * the second half back from `end`, each such value one fused multiply-add (the kernel is
 * compiled with FMA contraction); in chunks of two SIMD vectors (8 float32 / 4 float64
 * lanes) whose lanes count up from their vector's first value with a separate multiply and
 * add (`Vectorized::arange`), and a scalar tail. Checked bit for bit against PyTorch.
 */
export const linspace = front(`linspace(Scalar start, Scalar end, int steps, ${RANGE_KEYWORDS}) -> Tensor`, RANGE).run(
  ([start, end, steps, , dtypeArg, , deviceArg, , requiresGrad]): Tensor => {
    const options = { dtype: dtypeArg, device: deviceArg, requiresGrad };
    if (steps < 0) throw new TorchError('linspace: number of steps must be non-negative');
    const { dtype, device } = resolve('linspace', options, getDefaultDtype());
    return finish(fromHost('linspace', [steps], linspaceValues(Number(start), Number(end), steps, dtype), 'float64', dtype, device), options);
  },
);

/**
 * `torch.logspace(start, end, steps, base=10)`: base ** linspace(start, end, steps), as
 * PyTorch's kernel computes it (from the start for the first half, from the end for the
 * rest), in double here, then cast to the dtype.
 */
export const logspace = front(`logspace(Scalar start, Scalar end, int steps, float base=10.0, ${RANGE_KEYWORDS}) -> Tensor`, RANGE).run(
  ([start, end, steps, base, , dtypeArg, , deviceArg, , requiresGrad]): Tensor => {
    const options = { dtype: dtypeArg, device: deviceArg, requiresGrad };
    if (steps < 0) throw new TorchError('logspace: number of steps must be non-negative');
    const { dtype, device } = resolve('logspace', options, getDefaultDtype());
    const a = Number(start);
    const b = Number(end);
    const vals = new Float64Array(steps);
    if (steps === 1) vals[0] = base ** a;
    else if (steps > 1) {
      const step = (b - a) / (steps - 1);
      const half = Math.floor(steps / 2);
      for (let i = 0; i < steps; i++) vals[i] = i < half ? base ** (a + step * i) : base ** (b - step * (steps - i - 1));
    }
    return finish(fromHost('logspace', [steps], vals, 'float64', dtype, device), options);
  },
);

function linspaceValues(startIn: number, endIn: number, steps: number, dtype: DType): Float64Array {
  const vals = new Float64Array(steps);
  if (steps === 1) vals[0] = startIn;
  if (steps <= 1) return vals;
  const single = dtype !== 'float64';
  const fma = single ? fma32 : fma64; // Note [Fused multiply-add in PyTorch's CPU kernels]
  const f = single ? Math.fround : (x: number) => x;
  const start = f(startIn);
  const end = f(endIn);
  const step = f(f(end - start) / (steps - 1));
  const halfway = Math.floor(steps / 2);
  const at = (i: number) => (i < halfway ? fma(step, i, start) : fma(-step, steps - i - 1, end));
  const lanes = single ? 8 : 4;
  let i = 0;
  for (; i + 2 * lanes <= steps; i += 2 * lanes) {
    for (const v of [i, i + lanes]) {
      const base = at(v);
      for (let l = 0; l < lanes; l++) vals[v + l] = f(base + f(l * step));
    }
  }
  for (; i < steps; i++) vals[i] = at(i);
  return vals;
}

/** `eye(n, m?)`: ones on the diagonal. */
export const eye = overloadedFront([`eye(int n, ${RANGE_KEYWORDS}) -> Tensor`, `eye(int n, int m, ${RANGE_KEYWORDS}) -> Tensor`], RANGE).run(
  (call): Tensor => {
    let n: number, cols: number, o: BoundFactoryOptions;
    if (call.index === 0) {
      const [rows, , dtype, , device, , requiresGrad] = call.values;
      [n, cols, o] = [rows, rows, { dtype, device, requiresGrad }];
    } else {
      const [rows, m, , dtype, , device, , requiresGrad] = call.values;
      [n, cols, o] = [rows, m, { dtype, device, requiresGrad }];
    }
    if (n < 0) throw new TorchError(`eye: n must be greater or equal to 0, got ${n}`);
    if (cols < 0) throw new TorchError(`eye: m must be greater or equal to 0, got ${cols}`);
    const { dtype, device } = resolve('eye', o, getDefaultDtype());
    const vals = new Float64Array(n * cols);
    for (let i = 0; i < Math.min(n, cols); i++) vals[i * cols + i] = 1;
    return finish(fromHost('eye', [n, cols], vals, 'float64', dtype, device), o);
  },
);

const TRI_INDICES_KEYWORDS = '*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None';
const TRI_INDICES = { method: false, unsupported: ['layout', 'pinMemory'] } as const;

/**
 * The [2, N] positions (rows, then columns) of a row x col matrix's lower (`lower`) or upper
 * triangle, from diagonal `offset` on, in row-major order; int64 unless `dtype` (int32 or
 * int64, the dtypes of PyTorch's kernel).
 */
function triIndices(op: 'tril_indices' | 'triu_indices', row: number, col: number, offset: number, dtypeArg: DType | undefined, deviceArg: DeviceLike | undefined): Tensor {
  if (row < 0) throw new TorchError(`${op}: row must be non-negative, got${row}`);
  if (col < 0) throw new TorchError(`${op}: col must be non-negative, got${col}`);
  const { dtype, device } = resolve(op, { dtype: dtypeArg, device: deviceArg, requiresGrad: false }, 'int64');
  if (dtype !== 'int64' && dtype !== 'int32') throw new DTypeError(`${op}: "${op}" not implemented for '${torchTypeName(dtype)}'`);
  const rows: number[] = [];
  const cols: number[] = [];
  for (let i = 0; i < row; i++) {
    // (the columns j of row i with j - i <= offset (tril) or >= offset (triu))
    const from = op === 'tril_indices' ? 0 : Math.max(0, i + offset);
    const until = op === 'tril_indices' ? Math.min(col, i + offset + 1) : col;
    for (let j = from; j < until; j++) {
      rows.push(i);
      cols.push(j);
    }
  }
  return fromHost(op, [2, rows.length], [...rows, ...cols], 'int64', dtype, device);
}

/** `torch.trilIndices(row, col, offset?)`: the positions of a matrix's lower triangle, as a [2, N] tensor. */
export const trilIndices = front(`tril_indices(int row, int col, int offset=0, ${TRI_INDICES_KEYWORDS}) -> Tensor`, TRI_INDICES).run(
  ([row, col, offset, dtype, , device]): Tensor => triIndices('tril_indices', row, col, offset, dtype, device),
);

/** `torch.triuIndices(row, col, offset?)`: the positions of a matrix's upper triangle, as a [2, N] tensor. */
export const triuIndices = front(`triu_indices(int row, int col, int offset=0, ${TRI_INDICES_KEYWORDS}) -> Tensor`, TRI_INDICES).run(
  ([row, col, offset, dtype, , device]): Tensor => triIndices('triu_indices', row, col, offset, dtype, device),
);
