import { isFloatingType, isIntegralType, parseDType, type DType } from '../dtype';
import { DTypeError, IndexError, ShapeError, TorchError, fmtShape } from '../errors';
import { reductionGeometry } from '../iterator';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { contiguousStrides, normalizeDim } from '../views';
import type { ImplName } from './backend-impls';
import { makeBinder, makeOverloads, type OptionalArgs } from './binder';
import { callFunctional, callMulti, unwrapTensor } from './call';
import { broadcastTo, castTo, releaseAll, sameShape, scalarTensor, torchTypeName } from './meta-utils';
import { defineStructured, implOf, type Backend } from './registry';
import { maximum, minimum } from './generated/table-ops';
import { callWithOut, defineOutVariant } from './out-variant';
import { registerOperator } from '../dispatch/dispatcher';

/**
 * Note [Reduction outputs]
 * Core allocates a reduction's result contiguous at the keepdim shape (size 1 in reduced
 * dims), which is what the impl fills; without keepdim the user gets a view of it with the
 * reduced dims dropped. The impl writes every output element (identity for empty inputs).
 */
function reduce(
  b: Backend,
  op: string,
  impl: 'sum' | 'prod' | 'amax' | 'amin',
  self: TensorImpl,
  dims: readonly number[] | null,
  keepdim: boolean,
  outDtype: DType,
): TensorImpl {
  const geom = reductionGeometry(op, self.sizes, self.strides, dims ?? [], keepdim);
  const input = castTo(b, op, self, outDtype, self.device);
  const full = TensorImpl.empty(op, geom.keepdimSizes, outDtype, self.device);
  try {
    if (geom.dims.length > 0 || self.sizes.length === 0) implOf(b, impl, op)(full, input, geom.dims);
    else implOf(b, 'copy', op)(full, input);
  } catch (e) {
    full.release();
    throw e;
  } finally {
    input.release();
  }
  return keepdim ? full : dropDims(full, geom.sizes);
}

/** `t` (contiguous, keepdim sizes) viewed at `sizes` without the reduced dims; consumes `t`. */
function dropDims(t: TensorImpl, sizes: readonly number[]): TensorImpl {
  const v = t.regeometried(sizes, contiguousStrides(sizes), t.storageOffset);
  t.release();
  return v;
}

function sumDtype(self: TensorImpl, dtype: unknown): DType {
  if (dtype != null) return parseDType('sum', dtype);
  return isIntegralType(self.dtype, true) ? 'int64' : self.dtype;
}

function requireNonEmpty(op: string, self: TensorImpl, dims: readonly number[] | null): void {
  if (self.numel !== 0) return;
  if (dims === null || dims.length === 0) {
    throw new IndexError(
      `${op}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.`,
    );
  }
  for (const d of dims) {
    const nd = normalizeDim(op, d, self.sizes.length);
    if (self.sizes[nd] === 0) throw new IndexError(`${op}(): Expected reduction dim ${nd} to have non-zero size.`);
  }
}

export const SUM = defineStructured(
  'sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
  ([self, dim, keepdim, dtype], b) => {
    const s = self;
    return reduce(b, 'sum', 'sum', s, dim ?? null, keepdim, sumDtype(s, dtype));
  },
  ['reduction'],
);

export const PROD = defineStructured(
  'prod.dim_int(Tensor self, int? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
  ([self, dim, keepdim, dtype], b) => {
    const s = self;
    return reduce(b, 'prod', 'prod', s, dim == null ? null : [dim], keepdim, sumDtype(s, dtype));
  },
  ['reduction'],
);

function defineExtremum(name: 'amax' | 'amin') {
  return defineStructured(
    `${name}(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor`,
    ([self, dim, keepdim], b) => {
      const s = self;
      requireNonEmpty(name, s, dim);
      return reduce(b, name, name, s, dim, keepdim, s.dtype);
    },
    ['reduction'],
  );
}
export const AMAX = defineExtremum('amax');
export const AMIN = defineExtremum('amin');

/** max/min over a dim: (values, indices), both at the keepdim shape then squeezed. */
function defineArgExtremum(name: 'max' | 'min', impl: 'maxDim' | 'minDim') {
  return defineStructured(
    `${name}.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)`,
    ([self, dim, keepdim], b) => {
      const s = self;
      const d = normalizeDim(name, dim, s.sizes.length);
      requireNonEmpty(name, s, [d]);
      const keep = s.sizes.map((n, i) => (i === d ? 1 : n));
      const values = TensorImpl.empty(name, keep, s.dtype, s.device);
      const indices = TensorImpl.empty(name, keep, 'int64', s.device);
      try {
        if (s.sizes.length > 0) implOf(b, impl, name)(values, indices, s, d);
        else {
          implOf(b, 'copy', name)(values, s);
          implOf(b, 'fill', name)(indices, 0);
        }
      } catch (e) {
        values.release();
        indices.release();
        throw e;
      }
      if (keepdim || s.sizes.length === 0) return [values, indices];
      const sizes = s.sizes.filter((_, i) => i !== d);
      return [dropDims(values, sizes), dropDims(indices, sizes)];
    },
    ['reduction'],
  );
}
export const MAX_DIM = defineArgExtremum('max', 'maxDim');
export const MIN_DIM = defineArgExtremum('min', 'minDim');

function defineArgIndex(name: 'argmax' | 'argmin') {
  return defineStructured(
    `${name}(Tensor self, int? dim=None, bool keepdim=False) -> Tensor`,
    ([self, dim, keepdim], b) => {
      const s = self;
      if (s.dtype === 'bool') throw new DTypeError(`${name}: "${name}_cpu" not implemented for 'Bool'`);
      if (dim == null) {
        if (s.numel === 0) throw new IndexError(`${name}(): Expected reduction dim to be specified for input.numel() == 0.`);
        // Over all elements: reduce a flat contiguous copy; the result is 0-dim (or all-ones with keepdim).
        const flat = s.isContiguous ? s.view([s.numel], [1], s.storageOffset) : flatCopy(b, s);
        const idx = TensorImpl.empty(name, [1], 'int64', s.device);
        try {
          implOf(b, name, name)(null, idx, flat, 0);
        } catch (e) {
          idx.release(); // a backend that rejects the dtype must not leak the output
          throw e;
        } finally {
          flat.release();
        }
        const sizes = keepdim ? s.sizes.map(() => 1) : [];
        return dropDims(idx, sizes);
      }
      const d = normalizeDim(name, dim, s.sizes.length);
      requireNonEmpty(name, s, [d]);
      const keep = s.sizes.map((n, i) => (i === d ? 1 : n));
      const idx = TensorImpl.empty(name, keep, 'int64', s.device);
      try {
        if (s.sizes.length === 0) implOf(b, 'fill', name)(idx, 0);
        else implOf(b, name, name)(null, idx, s, d);
      } catch (e) {
        idx.release();
        throw e;
      }
      return keepdim || s.sizes.length === 0 ? idx : dropDims(idx, s.sizes.filter((_, i) => i !== d));
    },
    ['reduction'],
  );
}
export const ARGMAX = defineArgIndex('argmax');
export const ARGMIN = defineArgIndex('argmin');

function flatCopy(b: Backend, s: TensorImpl): TensorImpl {
  const out = TensorImpl.empty('flatten', [s.numel], s.dtype, s.device);
  const v = out.view(s.sizes, contiguousStrides(s.sizes), 0);
  try {
    implOf(b, 'copy', 'flatten')(v, s);
  } finally {
    v.release();
  }
  return out;
}

/** `mean`: the sum (in the output dtype) divided by the count, as PyTorch's CPU mean computes it; floating dtypes only. */
export const MEAN = defineStructured(
  'mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
  ([self, dim, keepdim, dtype], b) => {
    const s = self;
    const outDtype = dtype != null ? parseDType('mean', dtype) : s.dtype;
    if (!isFloatingType(outDtype)) {
      throw new DTypeError(
        `mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: ${torchTypeName(outDtype)}`,
      );
    }
    const out = reduce(b, 'mean', 'sum', s, dim ?? null, keepdim, outDtype);
    if (out.numel === 0) return out;
    const count = s.numel === 0 ? 0 : s.numel / out.numel; // 0 / 0 gives PyTorch's nan for an empty input
    const n = scalarTensor(b, 'mean', count, outDtype, out.device);
    const nb = broadcastTo(n, out.sizes);
    try {
      implOf(b, 'div', 'mean')(out, out, nb);
    } catch (e) {
      out.release();
      throw e;
    } finally {
      releaseAll([nb, n]);
    }
    return out;
  },
  ['reduction'],
);

const SUM_OUT = defineOutVariant(SUM);
const PROD_OUT = defineOutVariant(PROD);
const MEAN_OUT = defineOutVariant(MEAN);
const AMAX_OUT = defineOutVariant(AMAX);
const AMIN_OUT = defineOutVariant(AMIN);
const ARGMAX_OUT = defineOutVariant(ARGMAX);
const ARGMIN_OUT = defineOutVariant(ARGMIN);


// ---- front ends ----
export interface ReduceOptions {
  keepdim?: boolean;
  dtype?: DType | null;
  out?: Tensor | null;
}

type DimArg = number | readonly number[] | null | undefined;

// Bound by Note [The argument binder]: `x.sum(1, true)`, `x.sum({ dim: 1, keepdim: true })`,
// `x.sum(1, { dtype })` all bind, and an unknown keyword raises.
const sumArgs = makeBinder('sum', 'sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor');
const meanArgs = makeBinder('mean', 'mean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor');
const prodArgs = makeBinder('prod', 'prod(Tensor self, int? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor');
const amaxArgs = makeBinder('amax', 'amax(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor? out=None) -> Tensor');
const aminArgs = makeBinder('amin', 'amin(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor? out=None) -> Tensor');
const argmaxArgs = makeBinder('argmax', 'argmax(Tensor self, int? dim=None, bool keepdim=False, *, Tensor? out=None) -> Tensor');
const argminArgs = makeBinder('argmin', 'argmin(Tensor self, int? dim=None, bool keepdim=False, *, Tensor? out=None) -> Tensor');

type Reduce<O> = (input: Tensor, ...rest: OptionalArgs<[dim: DimArg, keepdim: boolean], O & { dim?: DimArg }>) => Tensor;

export const sum: Reduce<ReduceOptions> = (...args: unknown[]): Tensor => {
  const [self, dim, keepdim, dtype, out] = sumArgs.bind(args);
  return callWithOut(SUM, SUM_OUT, [unwrapTensor('sum', 'input', self), dim ?? null, keepdim, dtype ?? null], out);
};

export const prod: (input: Tensor, ...rest: OptionalArgs<[dim: number | null, keepdim: boolean], ReduceOptions & { dim?: number | null }>) => Tensor = (...args: unknown[]): Tensor => {
  const [self, dim, keepdim, dtype, out] = prodArgs.bind(args);
  return callWithOut(PROD, PROD_OUT, [unwrapTensor('prod', 'input', self), dim ?? null, keepdim, dtype ?? null], out);
};

export const mean: Reduce<ReduceOptions> = (...args: unknown[]): Tensor => {
  const [self, dim, keepdim, dtype, out] = meanArgs.bind(args);
  return callWithOut(MEAN, MEAN_OUT, [unwrapTensor('mean', 'input', self), dim ?? null, keepdim, dtype ?? null], out);
};

export interface KeepdimOptions {
  keepdim?: boolean;
  out?: Tensor | null;
}

export const amax: Reduce<KeepdimOptions> = (...args: unknown[]): Tensor => {
  const [self, dim, keepdim, out] = amaxArgs.bind(args);
  return callWithOut(AMAX, AMAX_OUT, [unwrapTensor('amax', 'input', self), dim, keepdim], out);
};

export const amin: Reduce<KeepdimOptions> = (...args: unknown[]): Tensor => {
  const [self, dim, keepdim, out] = aminArgs.bind(args);
  return callWithOut(AMIN, AMIN_OUT, [unwrapTensor('amin', 'input', self), dim, keepdim], out);
};

/** PyTorch's named tuple (values, indices): an array that also has `.values` and `.indices`. */
export type ValuesIndices = [Tensor, Tensor] & { readonly values: Tensor; readonly indices: Tensor };

export function valuesIndices(pair: readonly Tensor[]): ValuesIndices {
  const [values, indices] = pair;
  const tuple: [Tensor, Tensor] = [values, indices];
  const r = Object.assign(tuple, { values, indices });
  // (the names are not elements: not enumerated, as a named tuple's fields are not its items)
  Object.defineProperty(r, 'values', { enumerable: false, writable: false, configurable: false });
  Object.defineProperty(r, 'indices', { enumerable: false, writable: false, configurable: false });
  return r;
}

/** Options of the ops that return (values, indices) along a dim; `out` is the pair to write, as PyTorch's `out=(values, indices)`. */
export interface ValuesIndicesOptions {
  keepdim?: boolean;
  /** The (values, indices) pair; without a dim (`max(x, { out })`), one tensor. */
  out?: readonly [Tensor, Tensor] | Tensor | null;
}

/**
 * Writes a (values, indices) result into the caller's pair and returns that pair (named):
 * shapes and dtypes must match, as out= checks them (Note in out-variant.ts); `r` is disposed.
 */
export function writeValuesIndicesOut(op: string, r: ValuesIndices, out: readonly Tensor[]): ValuesIndices {
  try {
    if (!Array.isArray(out) || out.length !== 2) throw new TorchError(`${op}(): argument 'out' must be a tuple of 2 Tensors (values, indices)`);
    if (r[0].requiresGrad) {
      throw new TorchError(`${op}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.`);
    }
    for (let i = 0; i < 2; i++) {
      const o = unwrapTensor(op, i === 0 ? 'values' : 'indices', out[i]);
      const x = r[i].impl;
      if (!sameShape(o.sizes, x.sizes)) throw new ShapeError(`${op}: out tensor ${i} has shape ${fmtShape(o.sizes)}, expected ${fmtShape(x.sizes)}`);
      if (o.dtype !== x.dtype) throw new DTypeError(`${op}: Expected out tensor to have dtype ${x.dtype}, but got ${o.dtype} instead`);
      if (o.device.toString() !== x.device.toString()) throw new TorchError(`${op}: Expected out tensor ${i} on ${x.device}, but got it on ${o.device}`);
    }
    out[0].copy_(r[0]);
    out[1].copy_(r[1]);
  } finally {
    r[0].dispose();
    r[1].dispose();
  }
  return valuesIndices([out[0], out[1]]);
}

/** max/min's three overloads, as PyTorch's parser tries them: all elements, along a dim, elementwise with `other`. */
function extremumArgs(name: 'max' | 'min') {
  return makeOverloads(name, [
    `${name}(Tensor self, *, Tensor? out=None) -> Tensor`,
    `${name}.dim(Tensor self, int dim, bool keepdim=False, *, Tensor[]? out=None) -> (Tensor, Tensor)`,
    `${name}.other(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor`,
  ]);
}
const maxArgs = extremumArgs('max');
const minArgs = extremumArgs('min');

function extremum(name: 'max' | 'min', args: readonly unknown[]): Tensor | ValuesIndices {
  const { index, values } = (name === 'max' ? maxArgs : minArgs).bind(args);
  const s = unwrapTensor(name, 'input', values[0]);
  if (index === 0) {
    requireNonEmpty(name, s, null);
    // `max(x, { out })`: PyTorch 2.x's max.unary_out, a single tensor
    return callWithOut(name === 'max' ? AMAX : AMIN, name === 'max' ? AMAX_OUT : AMIN_OUT, [s, [], false], values[1]);
  }
  if (index === 2) {
    const other = values[1];
    const out = values[2];
    return (name === 'max' ? maximum : minimum)(values[0], other, { out });
  }
  const [, dim, keepdim, out] = values;
  const r = valuesIndices(callMulti(name === 'max' ? MAX_DIM : MIN_DIM, [s, dim, keepdim]));
  return out ? writeValuesIndicesOut(name, r, out) : r;
}

export function max(self: Tensor): Tensor;
export function max(self: Tensor, options: { out?: Tensor | null }): Tensor;
export function max(self: Tensor, dim: number, options?: ValuesIndicesOptions): ValuesIndices;
export function max(self: Tensor, dim: number, keepdim: boolean, options?: ValuesIndicesOptions): ValuesIndices;
export function max(self: Tensor, options: ValuesIndicesOptions & { dim: number }): ValuesIndices;
export function max(self: Tensor, other: Tensor): Tensor;
export function max(...args: unknown[]): Tensor | ValuesIndices {
  return extremum('max', args);
}

export function min(self: Tensor): Tensor;
export function min(self: Tensor, options: { out?: Tensor | null }): Tensor;
export function min(self: Tensor, dim: number, options?: ValuesIndicesOptions): ValuesIndices;
export function min(self: Tensor, dim: number, keepdim: boolean, options?: ValuesIndicesOptions): ValuesIndices;
export function min(self: Tensor, options: ValuesIndicesOptions & { dim: number }): ValuesIndices;
export function min(self: Tensor, other: Tensor): Tensor;
export function min(...args: unknown[]): Tensor | ValuesIndices {
  return extremum('min', args);
}

type ArgReduce = (input: Tensor, ...rest: OptionalArgs<[dim: number | null, keepdim: boolean], KeepdimOptions & { dim?: number | null }>) => Tensor;

export const argmax: ArgReduce = (...args: unknown[]): Tensor => {
  const [self, dim, keepdim, out] = argmaxArgs.bind(args);
  return callWithOut(ARGMAX, ARGMAX_OUT, [unwrapTensor('argmax', 'input', self), dim ?? null, keepdim], out);
};

export const argmin: ArgReduce = (...args: unknown[]): Tensor => {
  const [self, dim, keepdim, out] = argminArgs.bind(args);
  return callWithOut(ARGMIN, ARGMIN_OUT, [unwrapTensor('argmin', 'input', self), dim ?? null, keepdim], out);
};
