import { isIntegralType, parseDType, type DType } from '../dtype';
import { DTypeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { normalizeDim } from '../views';
import { callFunctional, callMulti, callMutating, unwrapTensor } from './call';
import { castTo, checkNoInternalOverlap, releaseAll, torchTypeName } from './meta-utils';
import { callOut, defineOutVariant } from './out-variant';
import { valuesIndices, writeValuesIndicesOut, type ValuesIndices } from './reduction';
import { defineStructured, implOf, type Backend } from './registry';

/** `{ out: [values, indices] }`, PyTorch's `out=` pair. */
type TupleOut = { out?: readonly [Tensor, Tensor] | null };

/**
 * Note [Scans]
 * cumsum, cumprod, cummax and cummin run along one dim. Core picks the result dtype (cumsum
 * and cumprod of integral or bool inputs give int64 unless `dtype` says otherwise, as
 * PyTorch's), casts the input to it and allocates the output contiguous; the impl scans each
 * line with PyTorch's accumulator (double for float32/float64, float for 16-bit floats,
 * int64 for integers), rounding or wrapping each element on store. A 0-dim input is a
 * one-element line. The in-place forms scan `self` into itself (each element is read before
 * it is written).
 */

/** A 0-dim tensor as a one-element 1-D view (retained); others retained as they are. */
function asLine(t: TensorImpl): TensorImpl {
  return t.sizes.length === 0 ? t.view([1], [1], t.storageOffset) : t.retain();
}

function scanDtype(self: TensorImpl, dtype: unknown, op: string): DType {
  if (dtype != null) return parseDType(op, dtype);
  return isIntegralType(self.dtype, true) ? 'int64' : self.dtype;
}

function runScan(b: Backend, op: string, impl: 'cumsum' | 'cumprod', out: TensorImpl, self: TensorImpl, dim: number): void {
  // PyTorch fills a 0-dim result and skips an empty one before its kernel checks the dtype
  if (out.dtype === 'bool' && out.numel > 0 && out.sizes.length > 0) throw new DTypeError(`${op}: "${impl}_out_cpu" not implemented for 'Bool'`);
  const input = castTo(b, op, self, out.dtype, out.device);
  const o = asLine(out);
  const i = asLine(input);
  try {
    implOf(b, impl, op)(o, i, dim);
  } finally {
    releaseAll([o, i, input]);
  }
}

function defineScan(name: 'cumsum' | 'cumprod') {
  const functional = defineStructured(
    `${name}(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor`,
    ([self, dim, dtype], b) => {
      const s = self as TensorImpl;
      const d = normalizeDim(name, dim as number, s.sizes.length);
      const out = TensorImpl.empty(name, s.sizes, scanDtype(s, dtype, name), s.device);
      try {
        runScan(b, name, name, out, s, d);
      } catch (e) {
        out.release();
        throw e;
      }
      return out;
    },
    ['scan'],
  );
  const inplace = defineStructured(
    `${name}_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)`,
    ([self, dim, dtype], b) => {
      const op = `${name}_`;
      const s = self as TensorImpl;
      const d = normalizeDim(op, dim as number, s.sizes.length);
      if (dtype != null && parseDType(op, dtype) !== s.dtype) {
        throw new DTypeError(
          `${op}: provided dtype must match the dtype of self tensor in ${name}. Got ${torchTypeName(parseDType(op, dtype))} and ${torchTypeName(s.dtype)}.`,
        );
      }
      checkNoInternalOverlap(op, s);
      runScan(b, op, name, s, s, d);
      return s;
    },
    ['scan', 'inplace'],
  );
  return { functional, inplace, out: defineOutVariant(functional) };
}

export const CUMSUM = defineScan('cumsum');
export const CUMPROD = defineScan('cumprod');

function defineCumExtremum(name: 'cummax' | 'cummin') {
  return defineStructured(
    `${name}(Tensor self, int dim) -> (Tensor values, Tensor indices)`,
    ([self, dim], b) => {
      const s = self as TensorImpl;
      const d = normalizeDim(name, dim as number, s.sizes.length);
      const values = TensorImpl.empty(name, s.sizes, s.dtype, s.device);
      const indices = TensorImpl.empty(name, s.sizes, 'int64', s.device);
      const v = asLine(values);
      const i = asLine(indices);
      const x = asLine(s);
      try {
        implOf(b, name, name)(v, i, x, d);
      } catch (e) {
        releaseAll([values, indices]);
        throw e;
      } finally {
        releaseAll([v, i, x]);
      }
      return [values, indices];
    },
    ['scan'],
  );
}

export const CUMMAX = defineCumExtremum('cummax');
export const CUMMIN = defineCumExtremum('cummin');

// ---- front ends ----

export interface ScanOptions {
  dtype?: DType | null;
  out?: Tensor | null;
}

function dimOf(op: string, dim: unknown): number {
  const d = dim !== null && typeof dim === 'object' && !Array.isArray(dim) ? (dim as { dim?: number }).dim : dim;
  if (typeof d !== 'number') throw new TorchError(`${op}(): argument 'dim' must be int, not ${d === undefined ? 'missing' : typeof d}`);
  return d;
}

function optionsOf<O extends object>(dim: unknown, options: O | undefined): O {
  return dim !== null && typeof dim === 'object' && !Array.isArray(dim) ? (dim as O) : (options ?? ({} as O));
}

function scanFront(name: 'cumsum' | 'cumprod', h: ReturnType<typeof defineScan>) {
  return {
    fn: (self: Tensor, dim: number | (ScanOptions & { dim: number }), options?: ScanOptions): Tensor => {
      const o = optionsOf<ScanOptions>(dim, options);
      const args = [unwrapTensor(name, 'input', self), dimOf(name, dim), o.dtype ?? null];
      return o.out ? callOut(h.out, args, o.out) : callFunctional(h.functional, args);
    },
    inplace: (self: Tensor, dim: number | { dim: number; dtype?: DType | null }, options?: { dtype?: DType | null }): Tensor => {
      const o = optionsOf<{ dtype?: DType | null }>(dim, options);
      return callMutating(h.inplace, [unwrapTensor(`${name}_`, 'self', self), dimOf(`${name}_`, dim), o.dtype ?? null], self);
    },
  };
}

const _cumsum = scanFront('cumsum', CUMSUM);
const _cumprod = scanFront('cumprod', CUMPROD);

/** Cumulative sum along `dim`; integral and bool inputs give int64 unless `dtype` is given. */
export const cumsum: (self: Tensor, dim: number | (ScanOptions & { dim: number }), options?: ScanOptions) => Tensor = _cumsum.fn;
export const cumsum_: (self: Tensor, dim: number | { dim: number; dtype?: DType | null }, options?: { dtype?: DType | null }) => Tensor = _cumsum.inplace;
/** Cumulative product along `dim`; integral and bool inputs give int64 unless `dtype` is given. */
export const cumprod: (self: Tensor, dim: number | (ScanOptions & { dim: number }), options?: ScanOptions) => Tensor = _cumprod.fn;
export const cumprod_: (self: Tensor, dim: number | { dim: number; dtype?: DType | null }, options?: { dtype?: DType | null }) => Tensor = _cumprod.inplace;

/** Running maximum along `dim` and the index where it was found: (values, indices). */
export function cummax(self: Tensor, dim: number | (TupleOut & { dim: number }), options?: TupleOut): ValuesIndices {
  const out = (typeof dim === 'object' ? dim.out : options?.out) ?? null;
  const r = valuesIndices(callMulti(CUMMAX, [unwrapTensor('cummax', 'input', self), dimOf('cummax', dim)]));
  return out ? writeValuesIndicesOut('cummax', r, out) : r;
}

/** Running minimum along `dim` and the index where it was found: (values, indices). */
export function cummin(self: Tensor, dim: number | (TupleOut & { dim: number }), options?: TupleOut): ValuesIndices {
  const out = (typeof dim === 'object' ? dim.out : options?.out) ?? null;
  const r = valuesIndices(callMulti(CUMMIN, [unwrapTensor('cummin', 'input', self), dimOf('cummin', dim)]));
  return out ? writeValuesIndicesOut('cummin', r, out) : r;
}
