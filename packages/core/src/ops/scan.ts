import { isIntegralType, parseDType, type DType } from '../dtype';
import { DTypeError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { normalizeDim } from '../views';
import { callMulti, callMutating, unwrapTensor } from './call';
import { front, type OptionsOf } from './front';
import { castTo, checkNoInternalOverlap, releaseAll, torchTypeName } from './meta-utils';
import { callWithOut, defineOutVariant } from './out-variant';
import { valuesIndices, writeValuesIndicesOut, type ValuesIndices } from './reduction';
import { defineStructured, implOf, type Backend } from './registry';

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
      const s = self;
      const d = normalizeDim(name, dim, s.sizes.length);
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
      const s = self;
      const d = normalizeDim(op, dim, s.sizes.length);
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
      const s = self;
      const d = normalizeDim(name, dim, s.sizes.length);
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
// (Note [Front ends are declared once])

/** Cumulative sum along `dim`; integral and bool inputs give int64 unless `dtype` is given. */
export const cumsum = front('cumsum(Tensor input, int dim, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor').run(
  ([self, dim, dtype, out]): Tensor => callWithOut(CUMSUM.functional, CUMSUM.out, [unwrapTensor('cumsum', 'input', self), dim, dtype ?? null], out),
);
export type ScanOptions = OptionsOf<typeof cumsum>;

export const cumsum_ = front('cumsum_(Tensor input, int dim, *, ScalarType? dtype=None) -> Tensor').run(
  ([self, dim, dtype]): Tensor => callMutating(CUMSUM.inplace, [unwrapTensor('cumsum_', 'self', self), dim, dtype ?? null], self),
);

/** Cumulative product along `dim`; integral and bool inputs give int64 unless `dtype` is given. */
export const cumprod = front('cumprod(Tensor input, int dim, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor').run(
  ([self, dim, dtype, out]): Tensor => callWithOut(CUMPROD.functional, CUMPROD.out, [unwrapTensor('cumprod', 'input', self), dim, dtype ?? null], out),
);

export const cumprod_ = front('cumprod_(Tensor input, int dim, *, ScalarType? dtype=None) -> Tensor').run(
  ([self, dim, dtype]): Tensor => callMutating(CUMPROD.inplace, [unwrapTensor('cumprod_', 'self', self), dim, dtype ?? null], self),
);

/** Running maximum along `dim` and the index where it was found: (values, indices). */
export const cummax = front('cummax(Tensor input, int dim, *, Tensor[]? out=None) -> (Tensor, Tensor)').run(([self, dim, out]): ValuesIndices => {
  const r = valuesIndices(callMulti(CUMMAX, [unwrapTensor('cummax', 'input', self), dim]));
  return out ? writeValuesIndicesOut('cummax', r, out) : r;
});

/** Running minimum along `dim` and the index where it was found: (values, indices). */
export const cummin = front('cummin(Tensor input, int dim, *, Tensor[]? out=None) -> (Tensor, Tensor)').run(([self, dim, out]): ValuesIndices => {
  const r = valuesIndices(callMulti(CUMMIN, [unwrapTensor('cummin', 'input', self), dim]));
  return out ? writeValuesIndicesOut('cummin', r, out) : r;
});
