/**
 * Random factories and in-place samplers: `rand randn randint randperm randLike randnLike`,
 * `uniform_ normal_`. Values are drawn on the host in PyTorch's CPU order and precision
 * (../random/distributions.ts), so a seed gives PyTorch CPU's exact values, then converted
 * to the tensor's dtype and device by the backend's copy; a backend with random impls
 * (WebGPU) draws on the device instead (Note [Counter-based random streams]).
 */
import { CPU, factoryDevice, type Device } from '../device';
import { getDefaultDtype, isFloatingType, parseDType, type DType } from '../dtype';
import { DispatchKey } from '../dispatch/dispatch-key';
import { DispatchKeySet } from '../dispatch/dispatch-key-set';
import { withExcluded } from '../dispatch/local-state';
import { DTypeError, TorchError, TorchTypeError } from '../errors';
import { getAllocator } from '../memory/allocator';
import { defaultGenerator, type Generator } from '../random/generator';
import { narrow, sampleIntFromTo, sampleNormal, samplePermutation, sampleUniform } from '../random/distributions';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { isOptionsObject, makeOverloads, typeName } from './binder';
import { front } from './front';
import { callMutating } from './call';
import { COPY_, copy_, to } from './copy';
import { checkSizes, FACTORY_UNSUPPORTED, laidOutLike, LIKE, LIKE_KEYWORDS, SIZED, type BoundFactoryOptions, type FactoryOptions } from './factories';
import { drawnOnDevice } from './random-impls';

export { Generator, defaultGenerator, manualSeed, seed, initialSeed, type GeneratorState } from '../random/generator';

/** The keywords of the random factories: the factories' and a `generator`. */
export interface RandomOptions extends FactoryOptions {
  generator?: Generator | null;
}

const numelOf = (sizes: readonly number[]) => sizes.reduce((a, b) => a * b, 1);

function floatDtype(op: string, o: BoundFactoryOptions): DType {
  const dtype = o.dtype ?? getDefaultDtype();
  if (!isFloatingType(dtype)) {
    throw new DTypeError(`${op}(): expected a floating point dtype, but got ${dtype}`);
  }
  return dtype;
}

/**
 * Filling a tensor nobody has seen yet is initialisation, not an in-place change (as in
 * factories.ts): it runs below ADInplaceOrView, so a fresh tensor's version is 0.
 */
const BELOW_INPLACE = DispatchKeySet.of(DispatchKey.ADInplaceOrView);

/** A new tensor from host values (float64 or int64), cast by the backend's copy. */
function fromHost(op: string, sizes: readonly number[], values: Float64Array | BigInt64Array, dtype: DType, device: Device, o: BoundFactoryOptions): Tensor {
  // A device whose backend is not loaded (WebGPU before init()) fails here, under this op's
  // name, rather than in the upload below as `to`.
  if (device !== CPU) getAllocator(op, device.type);
  const hostDtype = values instanceof BigInt64Array ? 'int64' : 'float64';
  const impl = TensorImpl.empty(op, sizes, hostDtype, CPU);
  if (values instanceof BigInt64Array) impl.storage.typed(BigInt64Array).set(values);
  else impl.storage.typed(Float64Array).set(values);
  const host = new Tensor(impl);
  let t = host;
  if (dtype !== hostDtype || device !== CPU) {
    if (device === CPU) {
      t = new Tensor(TensorImpl.empty(op, sizes, dtype, CPU));
      withExcluded(BELOW_INPLACE, () => callMutating(COPY_, [t.impl, host.impl, false], t));
    } else {
      t = to(host, { dtype, device });
    }
    host.dispose();
  }
  if (o.requiresGrad) {
    try {
      t.requiresGrad_(true);
    } catch (e) {
      t.dispose();
      throw e;
    }
  }
  return t;
}

function withRequiresGrad(t: Tensor, o: BoundFactoryOptions): Tensor {
  if (o.requiresGrad) {
    try {
      t.requiresGrad_(true);
    } catch (e) {
      t.dispose();
      throw e;
    }
  }
  return t;
}

/** Writes a fresh device draw into `self` through copy_ (versions and autograd as on the host path). */
function writeDevice(self: Tensor, drawn: Tensor): Tensor {
  try {
    copy_(self, drawn);
  } finally {
    drawn.dispose();
  }
  return self;
}

const RANDOM_KEYWORDS =
  "*, Generator? generator=None, ScalarType? dtype=None, Layout layout='strided', Device? device=None, bool pin_memory=False, bool requires_grad=False, Dimname[]? names=None, MemoryFormat memory_format='contiguous', Tensor? out=None";

/** Uniform on [0, 1): `rand(2, 3)`, `rand([2, 3], { dtype: 'float64', generator })`. */
export const rand = front(`rand(SymInt[] size=[], ${RANDOM_KEYWORDS}) -> Tensor`, SIZED).run(([size, generator, dtypeArg, , deviceArg, , requiresGrad]): Tensor => {
  const o = { dtype: dtypeArg, device: deviceArg, requiresGrad, generator };
  const sizes = checkSizes('rand', size);
  const dtype = floatDtype('rand', o);
  const device = factoryDevice('rand', o.device ?? null);
  // (a meta tensor has no values to draw; PyTorch's meta kernels take nothing from the generator)
  if (device.type === 'meta') return withRequiresGrad(new Tensor(TensorImpl.empty('rand', sizes, dtype, device)), o);
  const d = drawnOnDevice('rand', sizes, dtype, device, { kind: 'uniform', from: 0, to: 1 }, o.generator ?? defaultGenerator);
  if (d) return withRequiresGrad(d, o);
  const values = sampleUniform(o.generator ?? defaultGenerator, numelOf(sizes), dtype, 0, 1);
  return fromHost('rand', sizes, values, dtype, device, o);
});

/** Standard normal: `randn(2, 3)`. */
export const randn = front(`randn(SymInt[] size=[], ${RANDOM_KEYWORDS}) -> Tensor`, SIZED).run(([size, generator, dtypeArg, , deviceArg, , requiresGrad]): Tensor => {
  const o = { dtype: dtypeArg, device: deviceArg, requiresGrad, generator };
  const sizes = checkSizes('randn', size);
  const dtype = floatDtype('randn', o);
  const device = factoryDevice('randn', o.device ?? null);
  // (a meta tensor has no values to draw; PyTorch's meta kernels take nothing from the generator)
  if (device.type === 'meta') return withRequiresGrad(new Tensor(TensorImpl.empty('randn', sizes, dtype, device)), o);
  const d = drawnOnDevice('randn', sizes, dtype, device, { kind: 'normal', mean: 0, std: 1 }, o.generator ?? defaultGenerator);
  if (d) return withRequiresGrad(d, o);
  const values = sampleNormal(o.generator ?? defaultGenerator, numelOf(sizes), dtype, 0, 1, true);
  return fromHost('randn', sizes, values, dtype, device, o);
});

/** Uniform on [0, 1) in the input's shape (and dtype and device, unless given). */
export const randLike = front(`rand_like(Tensor input, ${LIKE_KEYWORDS}) -> Tensor`, LIKE).run(([t, dtype, , device, , requiresGrad, format]): Tensor =>
  laidOutLike('rand_like', t, format, requiresGrad, (sizes) => rand(sizes, { dtype: dtype ?? t.dtype, device: device ?? t.device })),
);

/** Standard normal in the input's shape (and dtype and device, unless given). */
export const randnLike = front(`randn_like(Tensor input, ${LIKE_KEYWORDS}) -> Tensor`, LIKE).run(([t, dtype, , device, , requiresGrad, format]): Tensor =>
  laidOutLike('randn_like', t, format, requiresGrad, (sizes) => randn(sizes, { dtype: dtype ?? t.dtype, device: device ?? t.device })),
);

type IntLike = number | bigint;

function toBig(op: string, name: string, v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  throw new TorchError(`${op}(): ${name} must be an integer, but got ${String(v)}`);
}

/**
 * Integers uniform on [low, high): `randint(high, size)` or `randint(low, high, size)`,
 * int64 unless a dtype is given.
 */
// (low and high as Scalars: an int64 bound may be a bigint beyond 2**53, which `int` would round)
const randintArgs = makeOverloads(
  'randint',
  [`randint(Scalar high, SymInt[] size, ${RANDOM_KEYWORDS}) -> Tensor`, `randint(Scalar low, Scalar high, SymInt[] size, ${RANDOM_KEYWORDS}) -> Tensor`],
  { unsupported: FACTORY_UNSUPPORTED },
);

/**
 * Integers uniform on [low, high): `randint(high, size)` or `randint(low, high, size)`,
 * int64 unless a dtype is given.
 */
export function randint(high: IntLike, size: readonly number[], options?: RandomOptions): Tensor;
export function randint(low: IntLike, high: IntLike, size: readonly number[], options?: RandomOptions): Tensor;
export function randint(options: RandomOptions & { low?: IntLike; high: IntLike; size: readonly number[] }): Tensor;
export function randint(...args: unknown[]): Tensor {
  const r = randintArgs.bind(args);
  const index = r.index;
  const [lowArg, highArg, sizes, generator, dtypeArg, , deviceArg, , requiresGrad] = r.index === 1 ? r.values : [0, ...r.values];
  const o: BoundFactoryOptions = { generator, dtype: dtypeArg, device: deviceArg, requiresGrad };
  // (`size` is a list: `randint(3, 5)` is refused, as PyTorch refuses it, not size [5])
  const last = args[args.length - 1];
  const rawSize = isOptionsObject(last) && last.size !== undefined ? last.size : args[index + 1];
  if (!Array.isArray(rawSize)) throw new TorchTypeError(`randint(): argument 'size' must be tuple of ints, not ${typeName(rawSize)}`);
  for (const n of sizes) if (n < 0) throw new TorchError(`randint(): sizes must be non-negative integers, but got ${JSON.stringify(sizes)}`);
  const low = toBig('randint', 'low', lowArg);
  const high = toBig('randint', 'high', highArg);
  if (low >= high) {
    throw new TorchError(`randint(): random_ expects 'from' to be less than 'to', but got from=${low} >= to=${high}`);
  }
  const dtype = o.dtype == null ? 'int64' : parseDType('randint', o.dtype);
  if (dtype === 'bool') throw new DTypeError('randint(): bool is not supported');
  const [from, to] = isFloatingType(dtype) ? representableBounds(dtype, low, high) : [low, high];
  if (from >= to) {
    throw new TorchError(`randint(): random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got from=${from} >= to=${to}`);
  }
  checkInRange(dtype, from, to);
  const device = factoryDevice('randint', o.device ?? null);
  const d = drawnOnDevice('randint', sizes, dtype, device, { kind: 'randint', from, range: to - from }, o.generator ?? defaultGenerator);
  if (d) return withRequiresGrad(d, o);
  const values = sampleIntFromTo(o.generator ?? defaultGenerator, numelOf(sizes), dtype, from, to - from);
  return fromHost('randint', sizes, values, dtype, device, o);
}

const INT_BOUNDS: Partial<Record<DType, [bigint, bigint, string]>> = {
  int8: [-128n, 127n, 'signed char'],
  uint8: [0n, 255n, 'unsigned char'],
  int16: [-32768n, 32767n, 'short'],
  int32: [-(2n ** 31n), 2n ** 31n - 1n, 'int'],
};

function checkInRange(dtype: DType, from: bigint, to: bigint): void {
  const b = INT_BOUNDS[dtype];
  if (!b) return;
  if (from < b[0] || from > b[1]) throw new TorchError(`randint(): from is out of bounds for ${b[2]}`);
  if (to - 1n < b[0] || to - 1n > b[1]) throw new TorchError(`randint(): to - 1 is out of bounds for ${b[2]}`);
}

/** `value` rounded to the floating dtype, back as an integer. */
function roundThrough(dtype: DType, value: bigint): bigint {
  const x = Number(value);
  return BigInt(dtype === 'float64' ? x : narrow(dtype)(x));
}

const bitLength = (v: bigint): number => (v === 0n ? 0 : v.toString(2).length - 1);

/**
 * Note [randint bounds for floating dtypes]
 * PyTorch narrows [low, high) to integers the dtype can hold (`update_from` / `update_to`):
 * when low + 1 or high - 1 round past the bound, the bound moves by one step of the
 * dtype's spacing there.
 */
function representableBounds(dtype: DType, low: bigint, high: bigint): [bigint, bigint] {
  const digits = BigInt(dtype === 'float64' ? 53 : dtype === 'float32' ? 24 : dtype === 'float16' ? 11 : 8);
  let from = low;
  let to = high;
  const fromPlus1 = roundThrough(dtype, low + 1n);
  if (fromPlus1 < low) {
    const n = BigInt(bitLength(low + 1n < 0n ? -(low + 1n) : low + 1n));
    from = fromPlus1 + (1n << (n - digits + 1n));
  }
  const toMinus1 = roundThrough(dtype, high - 1n);
  if (toMinus1 >= high) {
    const n = BigInt(bitLength(high - 1n < 0n ? -(high - 1n) : high - 1n));
    to = toMinus1 - (1n << (n - digits + 1n));
  }
  return [from, to];
}

/** A random permutation of 0..n-1 (int64 unless a dtype is given). */
export const randperm = front(`randperm(int n, ${RANDOM_KEYWORDS}) -> Tensor`, { unsupported: FACTORY_UNSUPPORTED, method: false }).run(
  ([n, generator, dtypeArg, , deviceArg, , requiresGrad]): Tensor => {
    const options: BoundFactoryOptions = { generator, dtype: dtypeArg, device: deviceArg, requiresGrad };
    if (!Number.isInteger(n)) throw new TorchError(`randperm(): n must be an integer, but got ${n}`);
    if (n < 0) throw new TorchError(`randperm(): Trying to create tensor with negative dimension ${n}: [${n}]`);
    const dtype = options.dtype == null ? 'int64' : parseDType('randperm', options.dtype);
    const device = factoryDevice('randperm', options.device ?? null);
    const values = samplePermutation(options.generator ?? defaultGenerator, n);
    return fromHost('randperm', [n], values, dtype, device, options);
  },
);

/**
 * Note [Random values follow memory order]
 * PyTorch's CPU kernels hand out samples in the order TensorIterator walks the output,
 * which is memory order (dims sorted by stride), not logical order. For a transposed
 * tensor the i-th sample lands at the i-th smallest storage offset; `inMemoryOrder`
 * rearranges host values (in draw order) into logical order for `copy_`.
 */
function inMemoryOrder(t: Tensor, drawn: Float64Array): Float64Array {
  if (t.isContiguous()) return drawn;
  const shape = t.shape;
  const strides = t.stride();
  const n = drawn.length;
  const offsets = new Float64Array(n);
  const idx = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < n; i++) {
    let off = 0;
    for (let d = 0; d < shape.length; d++) off += idx[d]! * strides[d]!;
    offsets[i] = off;
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d]! < shape[d]!) break;
      idx[d] = 0;
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => offsets[a]! - offsets[b]! || a - b);
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) out[order[k]!] = drawn[k]!;
  return out;
}

/** Writes host values into `self` through the dispatcher, so autograd and versions apply. */
function writeInPlace(op: string, self: Tensor, values: Float64Array): Tensor {
  const impl = TensorImpl.empty(op, self.shape, 'float64', CPU);
  impl.storage.typed(Float64Array).set(inMemoryOrder(self, values));
  const host = new Tensor(impl);
  try {
    copy_(self, host);
  } finally {
    host.dispose();
  }
  return self;
}

function checkFloating(op: string, self: Tensor): void {
  if (!isFloatingType(self.dtype)) {
    throw new DTypeError(`${op}(): expected a floating point tensor, but got ${self.dtype}`);
  }
}

/** Fills `self` with values uniform on [from, to). */
export const uniform_ = front('uniform_(Tensor self, float from=0, float to=1, *, Generator? generator=None) -> Tensor', { namespaces: [] }).run(
  ([self, from, to, generator]): Tensor => {
    const options = { generator };
    checkFloating('uniform_', self);
    if (!(from <= to)) {
      throw new TorchError(`uniform_ expects to return a [from, to) range, but found from=${from} > to=${to}`);
    }
    // A meta tensor has no data to fill, and (as in PyTorch) its draw takes nothing from the generator.
    if (self.device.type === 'meta') return self;
    const d = drawnOnDevice('uniform_', self.shape, self.dtype, self.device, { kind: 'uniform', from, to }, options.generator ?? defaultGenerator);
    if (d) return writeDevice(self, d);
    const values = sampleUniform(options.generator ?? defaultGenerator, self.numel(), self.dtype, from, to);
    return writeInPlace('uniform_', self, values);
  },
);

/** Fills `self` with normal values of the given mean and standard deviation. */
export const normal_ = front('normal_(Tensor self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor', { namespaces: [] }).run(
  ([self, mean, std, generator]): Tensor => {
    const options = { generator };
    checkFloating('normal_', self);
    if (!(std >= 0)) throw new TorchError(`normal_(): normal expects std >= 0.0, but found std ${std}`);
    if (self.device.type === 'meta') return self;
    const d = drawnOnDevice('normal_', self.shape, self.dtype, self.device, { kind: 'normal', mean, std }, options.generator ?? defaultGenerator);
    if (d) return writeDevice(self, d);
    const values = sampleNormal(options.generator ?? defaultGenerator, self.numel(), self.dtype, mean, std, self.isContiguous());
    return writeInPlace('normal_', self, values);
  },
);
