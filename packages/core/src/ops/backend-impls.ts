import type { DType } from '../dtype';
import type { TensorImpl } from '../tensor/tensor-impl';
import type { NnImpls } from './nn-impls';
import type { SpatialImpls } from './spatial-impls';
import type { IndexingImpls } from './indexing-impls';
import type { StatsImpls } from './reduction-stats-impls';
import type { ScanImpls } from './scan-impls';
import type { SortingImpls } from './sorting-impls';
import type { ReorderImpls } from './reorder-impls';
import type { JoinImpls } from './join-impls';
import type { RandomImpls } from './random-impls';
import type { ConvImpls } from './conv-impls';
import type { LinalgImpls } from './linalg-solve-impls';
import type { SvdImpls } from './linalg-svd-impls';
import type { LinalgQrImpls } from './linalg-qr-impls';
import type { EigImpls } from './linalg-eig-impls';
import type { ComplexLinalgImpls } from './linalg-complex-impls';
import type { FftImpls } from './fft-impls';
import type { UnaryTableName } from './table/unary';
import type { BINARY_TABLE, BinaryTableName } from './table/binary';
import type { ACTIVATION_TABLE, ActivationTableName } from './table/activation';
import type { RowArgs } from './table/types';
import type { REDUCTION_TABLE, ReductionTableName } from './table/reduction';

/**
 * Note [What a backend implements]
 * Meta runs once, in core (STYLE.md, "meta before kernels"): by the time an impl is called,
 *  - `out` is allocated (or is the in-place `self` / the user's `out=`), with its final shape;
 *  - pointwise inputs are already cast to the op's compute dtype and broadcast to `out`'s
 *    shape as stride-0 views, so no impl computes broadcasting or promotion;
 *  - a scalar operand (`x + 2`) arrives as a 0-dim tensor on the same device, broadcast;
 *  - every argument has been validated (shapes, dtypes, devices, dims normalised).
 * An impl only computes. Impls are keyed by name in a table the compiler checks against
 * `ImplName`: a backend that lacks one writes `notImplemented('reason')` explicitly.
 */
export type UnaryImpl = (out: TensorImpl, self: TensorImpl) => void;
export type BinaryImpl = (out: TensorImpl, self: TensorImpl, other: TensorImpl) => void;

/** Reductions: `out` has the input's rank (reduced dims of size 1), `dims` are sorted and non-empty. */
export type ReduceImpl = (out: TensorImpl, self: TensorImpl, dims: readonly number[]) => void;
/** Values and int64 indices along one dim (`max(dim)`, `argmax`); `values` may be null (argmax). Outputs have size 1 in `dim`. */
export type ArgReduceImpl = (values: TensorImpl | null, indices: TensorImpl, self: TensorImpl, dim: number) => void;
/**
 * A row reduction (Note [Row reductions] in reduction-stats-impls.ts): one result per run of
 * `rowLength` elements of the contiguous `self`. logsumexp: log(sum(exp(x))) of each row,
 * stable (max subtracted first; an infinite max counts as 0), `self` float32 or float64 (16-bit
 * inputs arrive as float32), `out` the result's float dtype. all / any: `self` is bool; `out`
 * bool or uint8.
 */
export type RowReduceImpl = (out: TensorImpl, self: TensorImpl, rowLength: number) => void;

/**
 * One impl per unary row of the op table (Note [The op table]), named as the row: a backend
 * without one does not compile. The input is in the compute dtype; `out` in the compute dtype,
 * or bool for a `compare` row (logicalNot).
 */
export type TableUnaryImpls = { readonly [K in UnaryTableName]: UnaryImpl };
/** The binary rows computed by the impl of their name: all but those with a `compute` of their own (sub, div). */
export type TableBinaryImplName = {
  [K in BinaryTableName]: (typeof BINARY_TABLE)[K] extends { compute(...args: never): void } ? never : K;
}[BinaryTableName];
/** One impl per binary row of the op table without a `compute`, named as the row (`out` bool for the `compare` rows: eq, logicalAnd). */
export type TableBinaryImpls = { readonly [K in TableBinaryImplName]: BinaryImpl };
/**
 * One impl per activation row of the op table, named as the row: `self` and `out` in the
 * compute dtype (floating, or any hardtanh accepts), same shape; then the row's arguments in
 * schema order (`leakyRelu(out, self, negativeSlope)`), typed from its `args` text (a Scalar as
 * a number, a `float?` as a number or null, a `str` as one of its choices), defaults filled in
 * and checked by core.
 */
export type TableActivationImpls = {
  readonly [K in ActivationTableName]: (out: TensorImpl, self: TensorImpl, ...args: RowArgs<(typeof ACTIVATION_TABLE)[K]>) => void;
};

type ReductionImplOf<R> = R extends { readonly reduces: 'dims' } ? ReduceImpl : R extends { readonly reduces: 'rows' } ? RowReduceImpl : ArgReduceImpl;
/**
 * One impl per reduction row of the op table, named by the row's `impl` (mean's is sum's), of the
 * type its `reduces` says: `dims` ReduceImpl (sum, prod, amax, amin), `rows` RowReduceImpl
 * (logsumexp, all, any), `index` ArgReduceImpl (argmax, argmin).
 */
export type TableReductionImpls = {
  readonly [K in ReductionTableName as (typeof REDUCTION_TABLE)[K]['impl']]: ReductionImplOf<(typeof REDUCTION_TABLE)[K]>;
};

export interface BackendImpls extends TableUnaryImpls, TableBinaryImpls, TableActivationImpls, TableReductionImpls, StatsImpls, ScanImpls, IndexingImpls, SortingImpls, ReorderImpls, JoinImpls, SpatialImpls, NnImpls, RandomImpls, ConvImpls, LinalgImpls, SvdImpls, LinalgQrImpls, EigImpls, ComplexLinalgImpls, FftImpls {
  // data movement: same shape, any dtypes, same device
  copy: (dst: TensorImpl, src: TensorImpl) => void;
  fill: (dst: TensorImpl, value: number | bigint | boolean) => void;
  // pointwise binary: inputs in the compute dtype; `out` in the compute dtype
  add: (out: TensorImpl, self: TensorImpl, other: TensorImpl, alpha: number | bigint) => void;
  div: BinaryImpl;
  divTrunc: BinaryImpl;
  divFloor: BinaryImpl;
  pow: BinaryImpl;
  // binary math: the op table's rows (TableBinaryImpls) and these
  /** clamp with a Scalar bound (already a broadcast 0-dim tensor): a NaN bound is ignored. */
  clampMin: BinaryImpl;
  clampMax: BinaryImpl;
  /** self, end, weight and out in one floating dtype; a Scalar weight also comes as a number (PyTorch's opmath weight). */
  lerp: (out: TensorImpl, self: TensorImpl, end: TensorImpl, weight: TensorImpl, weightScalar: number | null) => void;
  /** out = self + value * t1 * t2 (or / t2), all in out's dtype; `value` unconverted. */
  addcmul: (out: TensorImpl, self: TensorImpl, t1: TensorImpl, t2: TensorImpl, value: number | bigint) => void;
  addcdiv: (out: TensorImpl, self: TensorImpl, t1: TensorImpl, t2: TensorImpl, value: number | bigint) => void;
  /**
   * d x / d alpha of Gamma(alpha, 1) samples x (PyTorch's `_standard_gamma_grad`): `alpha` and
   * `x` contiguous, of out's floating dtype, `n` elements each.
   */
  standardGammaGrad: (out: TensorImpl, alpha: TensorImpl, x: TensorImpl, n: number) => void;
  /** nan_to_num on a floating dtype (input and out): replacements as doubles, converted on store. */
  nanToNum: (out: TensorImpl, self: TensorImpl, nan: number, posinf: number, neginf: number) => void;
  // pointwise unary: the op table's rows (TableUnaryImpls) and these
  /** round half to even; with `decimals` (floating only), scaled by 10^decimals in the op's math type. */
  round: (out: TensorImpl, self: TensorImpl, decimals: number | null) => void;
  /** `cond` is bool; self/other and out in the compute dtype. */
  where: (out: TensorImpl, cond: TensorImpl, self: TensorImpl, other: TensorImpl) => void;
  // reductions: the op table's rows (TableReductionImpls, self already in the accumulation/output dtype) and these
  maxDim: ArgReduceImpl;
  minDim: ArgReduceImpl;
  // linear algebra: out [n, p] = self [n, m] @ other [m, p]; bmm adds a leading batch dim. Same dtype.
  mm: (out: TensorImpl, self: TensorImpl, other: TensorImpl) => void;
  bmm: (out: TensorImpl, self: TensorImpl, other: TensorImpl) => void;
  // out [n, p] = self + a [n, m] @ b [m, p]: the bias fused into the GEMM, for float32 and
  // float64 (`self` already broadcast to out's shape). Optional: without it core composes mm
  // and add (Note [Fused addmm]).
  addmm: (out: TensorImpl, self: TensorImpl, a: TensorImpl, b: TensorImpl) => void;
}

export type ImplName = keyof BackendImpls;

/** An explicit, documented opt-out of an impl (STYLE.md habit 4). */
export interface NotImplemented {
  readonly notImplemented: string;
}

export function notImplemented(reason: string): NotImplemented {
  return { notImplemented: reason };
}

/**
 * Impls a backend's table may leave out (absent reads as not implemented): hooks core only
 * takes when a backend has them, with a path of its own otherwise, added after the tables of
 * the backends in this repository were complete (Note [Channels-last pooling impls]).
 */
export type OptionalImplName =
  | 'adaptiveMaxPool2dChannelsLast'
  | 'adaptiveMaxPool2dBackwardChannelsLast'
  | 'groupNormChannelsLast'
  | 'groupNormBackwardChannelsLast'
  | 'upsampleNearest2dChannelsLast'
  | 'upsampleNearest2dBackwardChannelsLast'
  | 'upsampleBilinear2dChannelsLast'
  | 'upsampleBilinear2dBackwardChannelsLast';

export type BackendImplTable = { readonly [K in Exclude<ImplName, OptionalImplName>]: BackendImpls[K] | NotImplemented } & {
  readonly [K in OptionalImplName]?: BackendImpls[K] | NotImplemented;
};


/**
 * The dtypes each impl of a backend computes in, as data next to its kernels (Note [Dtype
 * support is data]): complete, so a new impl needs its entry. An impl the backend opts out of
 * (`notImplemented`) has none.
 */
export type ImplDtypes = { readonly [K in Exclude<ImplName, OptionalImplName>]: readonly DType[] } & { readonly [K in OptionalImplName]?: readonly DType[] };

/** Dtypes of an impl for one value of an argument (`indexScatter.add`), where they differ from the impl's entry. */
export type ImplDtypeVariants = { readonly [K in `${ImplName}.${string}`]?: readonly DType[] };

/** What a backend registers (Note [Dtype support is data]). */
export type BackendDtypes = ImplDtypes & ImplDtypeVariants;
