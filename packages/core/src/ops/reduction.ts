import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { normalizeDim } from '../views';
import type { OverloadCall } from './binder';
import { overloadedFront } from './front';
import { callMulti, unwrapTensor } from './call';
import { sameShape } from './meta-utils';
import { defineStructured, implOf } from './registry';
import { maximum, minimum } from './generated/table-ops';
import { callWithOut } from './out-variant';
import { dropDims, requireNonEmpty } from './reduction-kernels';
import { reductionOperators } from './reduction-table';

/**
 * max and min, which stay outside the op table's reduction rows (table/reduction.ts): three
 * overloads (every element, along a dim with (values, indices), elementwise with `other`),
 * the first of them amax/amin's operators; and the (values, indices) results that max, min,
 * median, mode, sort and the scans share.
 */

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

// ---- front ends ----
export interface KeepdimOptions {
  keepdim?: boolean;
  out?: Tensor | null;
}

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
const extremumSchemas = <N extends 'max' | 'min'>(name: N) =>
  [
    `${name}(Tensor self, *, Tensor? out=None) -> Tensor`,
    `${name}.dim(Tensor self, int dim, bool keepdim=False, *, Tensor[]? out=None) -> (Tensor, Tensor)`,
    `${name}.other(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor`,
  ] as const;

function extremum(name: 'max' | 'min', call: OverloadCall<ReturnType<typeof extremumSchemas<'max'>>, {}>): Tensor | ValuesIndices {
  const s = unwrapTensor(name, 'input', call.values[0]);
  if (call.index === 0) {
    requireNonEmpty(name, s, null);
    // `max(x, { out })`: PyTorch 2.x's max.unary_out, a single tensor
    const ops = reductionOperators(name === 'max' ? 'amax' : 'amin');
    return callWithOut(ops.op, ops.out, [s, [], false], call.values[1]);
  }
  if (call.index === 2) {
    const [self, other, out] = call.values;
    return (name === 'max' ? maximum : minimum)(self, other, { out });
  }
  const [, dim, keepdim, out] = call.values;
  const r = valuesIndices(callMulti(name === 'max' ? MAX_DIM : MIN_DIM, [s, dim, keepdim]));
  return out ? writeValuesIndicesOut(name, r, out) : r;
}

/** `max(x)`: the largest element; `max(x, dim)`: (values, indices) along `dim`; `max(x, other)`: the elementwise maximum. */
export const max = overloadedFront(extremumSchemas('max')).runEach<[Tensor, ValuesIndices, Tensor]>((call): Tensor | ValuesIndices => extremum('max', call));

/** `min(x)`: the smallest element; `min(x, dim)`: (values, indices) along `dim`; `min(x, other)`: the elementwise minimum. */
export const min = overloadedFront(extremumSchemas('min')).runEach<[Tensor, ValuesIndices, Tensor]>((call): Tensor | ValuesIndices => extremum('min', call));
