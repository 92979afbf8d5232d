/**
 * The twelve dtypes of torch-ts and the facts every other module asks about them: element
 * size, storage array, category. Plays the role of c10's ScalarType.h.
 */
import { DTypeError } from '../errors';

export type DType =
  | 'float32'
  | 'float64'
  | 'float16'
  | 'bfloat16'
  | 'int8'
  | 'uint8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'bool'
  | 'complex64'
  | 'complex128';

export const DTYPES: readonly DType[] = Object.freeze([
  'float32',
  'float64',
  'float16',
  'bfloat16',
  'int8',
  'uint8',
  'int16',
  'int32',
  'int64',
  'bool',
  'complex64',
  'complex128',
] as const);

/** The dtypes whose elements are one real number (all but the complex ones). */
export type RealDType = Exclude<DType, 'complex64' | 'complex128'>;
export const REAL_DTYPES: readonly RealDType[] = Object.freeze(DTYPES.filter((d): d is RealDType => !d.startsWith('complex')));

/**
 * Note [Category lattice]
 * Every dtype is in exactly one category, ordered bool < integral < floating < complex. Type
 * promotion (`resultType`) lets a lower-priority operand change the result only when its
 * category is higher, and `canCast` allows a cast exactly when it does not go down the
 * lattice. `categoryRank` is the order both rely on.
 */
export type DTypeCategory = 'bool' | 'integral' | 'floating' | 'complex';

/**
 * Note [16-bit floats are stored as words]
 * JavaScript has no Float16Array we can rely on and no bfloat16 array at all, so float16
 * and bfloat16 elements are stored as their raw IEEE / brain-float bit patterns in a
 * Uint16Array. Reading or writing a value goes through `half.ts`; copying, viewing and
 * permuting never needs to decode them.
 */
export type TypedArrayOf<D extends DType> = D extends 'float32' | 'complex64'
  ? Float32Array
  : D extends 'float64' | 'complex128'
    ? Float64Array
    : D extends 'float16' | 'bfloat16'
      ? Uint16Array
      : D extends 'int8'
        ? Int8Array
        : D extends 'uint8' | 'bool'
          ? Uint8Array
          : D extends 'int16'
            ? Int16Array
            : D extends 'int32'
              ? Int32Array
              : D extends 'int64'
                ? BigInt64Array
                : never;

export type AnyTypedArray = TypedArrayOf<DType>;

/** A constructor of a storage array, called like `new Float32Array(n)` or on a buffer. */
export interface TypedArrayConstructorOf<A extends AnyTypedArray> {
  new (length: number): A;
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): A;
  readonly BYTES_PER_ELEMENT: number;
}

export interface TypeMeta<D extends DType = DType> {
  readonly name: D;
  /** Bytes per element, as `torch.tensor([], dtype=d).element_size()`. */
  readonly itemSize: number;
  /** The array that stores elements of this dtype; see Note [16-bit floats are stored as words]. */
  readonly ArrayType: TypedArrayConstructorOf<TypedArrayOf<D>>;
  readonly isFloatingPoint: boolean;
  /** complex64 and complex128: Note [Complex tensors are pairs of reals]. */
  readonly isComplex: boolean;
  /** Whether negative values are representable (`dtype.is_signed`); false for uint8 and bool. */
  readonly isSigned: boolean;
  readonly category: DTypeCategory;
}

function meta<D extends DType>(
  name: D,
  itemSize: number,
  ArrayType: TypedArrayConstructorOf<TypedArrayOf<D>>,
  category: DTypeCategory,
  isSigned: boolean,
): TypeMeta<D> {
  return Object.freeze({
    name,
    itemSize,
    ArrayType,
    isFloatingPoint: category === 'floating',
    isComplex: category === 'complex',
    isSigned,
    category,
  });
}

const META: { readonly [D in DType]: TypeMeta<D> } = Object.freeze({
  float32: meta('float32', 4, Float32Array, 'floating', true),
  float64: meta('float64', 8, Float64Array, 'floating', true),
  float16: meta('float16', 2, Uint16Array, 'floating', true),
  bfloat16: meta('bfloat16', 2, Uint16Array, 'floating', true),
  int8: meta('int8', 1, Int8Array, 'integral', true),
  uint8: meta('uint8', 1, Uint8Array, 'integral', false),
  int16: meta('int16', 2, Int16Array, 'integral', true),
  int32: meta('int32', 4, Int32Array, 'integral', true),
  int64: meta('int64', 8, BigInt64Array, 'integral', true),
  bool: meta('bool', 1, Uint8Array, 'bool', false),
  complex64: meta('complex64', 8, Float32Array, 'complex', true),
  complex128: meta('complex128', 16, Float64Array, 'complex', true),
});

/**
 * Note [Complex tensors are pairs of reals]
 * A complex element is two reals, (real, imag), next to each other in the storage of its
 * component dtype (float32 for complex64, float64 for complex128), as C's and PyTorch's
 * complex<T> lay them out; sizes, strides and offsets count complex elements. So
 * `viewAsReal` is a view of the same storage in the component dtype with a trailing dim of
 * 2 (strides doubled, then 1), and complex ops are composites over real views (core's
 * ops/complex.ts): each backend computes them with its real kernels, and autograd, which
 * sees only the real ops, gives PyTorch's convention for complex gradients on its own
 * (Note [Complex gradients] there). `ArrayType` is the component's array.
 */
export function isComplexType(d: DType): boolean {
  return d === 'complex64' || d === 'complex128';
}

/** Whether tensors of `d` can require gradients (c10's isDifferentiableType): floating and complex dtypes. */
export function isDifferentiableType(d: DType): boolean {
  const c = typeMeta(d).category;
  return c === 'floating' || c === 'complex';
}

/** The dtype of a complex dtype's real and imaginary parts (c10's toRealValueType); others unchanged. */
export function toRealValueType(d: DType): DType {
  return d === 'complex64' ? 'float32' : d === 'complex128' ? 'float64' : d;
}

/** The complex dtype whose parts are `d` (c10's toComplexType); complex dtypes unchanged. */
export function toComplexType(d: DType): DType {
  // (bfloat16 too, as PyTorch 1.13's result_type gives it)
  if (d === 'float32' || d === 'bfloat16' || d === 'complex64') return 'complex64';
  if (d === 'float64' || d === 'complex128') return 'complex128';
  if (d === 'float16') throw new DTypeError('complex32 (ComplexHalf), the complex dtype of float16 parts, is not supported by torch-ts');
  throw new DTypeError(`Unknown Complex ScalarType for ${d}`);
}

export function typeMeta<D extends DType>(d: D): TypeMeta<D> {
  // The own-property check keeps 'toString' and friends from reaching Object.prototype.
  if (!isDType(d)) throw new DTypeError(`typeMeta: unknown dtype ${describe(d)}`);
  return META[d];
}

export function isDType(x: unknown): x is DType {
  return typeof x === 'string' && Object.prototype.hasOwnProperty.call(META, x);
}

export function isFloatingType(d: DType): boolean {
  return typeMeta(d).category === 'floating';
}

/** PyTorch's `isIntegralType(t, includeBool)`: int8..int64 and uint8, plus bool if asked. */
export function isIntegralType(d: DType, includeBool: boolean): boolean {
  const c = typeMeta(d).category;
  return c === 'integral' || (includeBool && c === 'bool');
}

/** The position of `d`'s category in Note [Category lattice]: bool 0, integral 1, floating 2, complex 3. */
export function categoryRank(d: DType): number {
  const c = typeMeta(d).category;
  return c === 'bool' ? 0 : c === 'integral' ? 1 : c === 'floating' ? 2 : 3;
}

// The other names torch gives the same dtype objects (`torch.float is torch.float32`).
const ALIASES = Object.freeze({
  float: 'float32',
  double: 'float64',
  half: 'float16',
  long: 'int64',
  int: 'int32',
  short: 'int16',
  cfloat: 'complex64',
  cdouble: 'complex128',
} as const satisfies Record<string, DType>);

/** What a caller may name a dtype by: its name or one of torch's aliases (`'double'`). */
export type DTypeLike = DType | keyof typeof ALIASES;

const isAlias = (x: string): x is keyof typeof ALIASES => Object.prototype.hasOwnProperty.call(ALIASES, x);

/**
 * Reads a user-supplied dtype: a canonical name or one of torch's aliases (`'float'`,
 * `'double'`, `'half'`, `'long'`, `'int'`, `'short'`). Anything else is a DTypeError that
 * names `op`.
 */
export function parseDType(op: string, x: unknown): DType {
  if (isDType(x)) return x;
  if (typeof x === 'string' && isAlias(x)) {
    return ALIASES[x];
  }
  throw new DTypeError(`${op}: expected a dtype (one of ${DTYPES.join(', ')}), got ${describe(x)}`);
}

function describe(x: unknown): string {
  if (typeof x === 'string') return `'${x}'`;
  if (typeof x === 'bigint') return `${x}n`;
  if (x === null) return 'null';
  if (typeof x === 'object') return Array.isArray(x) ? 'an array' : 'an object';
  return String(x);
}

// Note [Default dtype]
// The dtype that non-integer JS numbers and float creation ops get, as
// `torch.get_default_dtype()`. It is process-wide state, like PyTorch's, and only
// floating dtypes are allowed so that "the default float" is always a float.
let defaultDtype: DType = 'float32';

export function getDefaultDtype(): DType {
  return defaultDtype;
}

export function setDefaultDtype(d: DType): void {
  const parsed = parseDType('setDefaultDtype', d);
  if (!isFloatingType(parsed)) {
    throw new DTypeError(
      `setDefaultDtype: only floating-point types are supported as the default type, got ${parsed}`,
    );
  }
  defaultDtype = parsed;
}

/** 2^63: the first magnitude an int64 cannot hold. */
const INT64_LIMIT = 9223372036854775808;

/**
 * The dtype a JS scalar has on its own, used both for wrapped scalars in `resultType`
 * and for inferring a tensor's dtype from data.
 *
 * Note [Integer-valued numbers are integers]
 * JS has one number type, so "is it an int" is read from the value: an integer-valued
 * number counts as a Python int (int64) and anything else (fractions, NaN, ±Infinity) as a
 * Python float (the default dtype). Integer-valued numbers of magnitude 2^63 or more
 * cannot be an int64 and count as floats, where PyTorch would raise an overflow for the
 * equivalent Python int; `1e300` in JS source is meant as a float. `-0` is integer-valued
 * and so counts as an int, as `Number.isInteger(-0)` says. Booleans are bool, bigints int64.
 */
export function scalarDType(x: number | boolean | bigint): DType {
  if (typeof x === 'boolean') return 'bool';
  if (typeof x === 'bigint') return 'int64';
  return Number.isInteger(x) && Math.abs(x) < INT64_LIMIT ? 'int64' : defaultDtype;
}
