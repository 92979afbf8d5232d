import { canCast, resultType, type DType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { normalizeDim } from '../views';
import { callFunctional, callMutating, describe, unwrapTensor } from './call';
import { defineComposite } from './composite';
import { front, type OptionsOf } from './front';
import { checkNoInternalOverlap, checkNoOverlap, commonDevice, sameShape, torchTypeName } from './meta-utils';
import { defineStructured, implOf, type Backend } from './registry';
import { reshape } from './shape-ops';
import { unsqueeze } from './views';

/**
 * Note [cat's empty inputs]
 * PyTorch keeps a legacy rule: a 1-D tensor of size [0] may be concatenated with tensors
 * of any shape; it is skipped (it still takes part in type promotion). The dim is wrapped
 * against the first tensor that is not skipped; when every tensor is skipped the result is
 * that empty [0] tensor. A 0-dim tensor is never accepted.
 */
function isSkipped(t: TensorImpl): boolean {
  return t.sizes.length === 1 && t.sizes[0] === 0;
}

interface CatPlan {
  readonly sizes: number[];
  readonly dim: number;
  readonly dtype: DType;
  readonly parts: TensorImpl[];
}

function planCat(op: string, tensors: readonly TensorImpl[], dim: number): CatPlan {
  if (tensors.length === 0) throw new TorchError(`${op}: expected a non-empty list of Tensors`);
  tensors.forEach((t, i) => {
    if (t.sizes.length === 0) throw new ShapeError(`${op}: zero-dimensional tensor (at position ${i}) cannot be concatenated`);
  });
  const dtype = resultType(op, tensors.map((t) => ({ dtype: t.dtype, shape: t.sizes })));
  const ref = tensors.find((t) => !isSkipped(t)) ?? tensors[0];
  const d = normalizeDim(op, dim, ref.sizes.length);
  const sizes = [...ref.sizes];
  let total = 0;
  const parts: TensorImpl[] = [];
  tensors.forEach((t, i) => {
    if (isSkipped(t) && t !== ref) return;
    if (t.sizes.length !== ref.sizes.length) {
      throw new ShapeError(`${op}: Tensors must have same number of dimensions: got ${ref.sizes.length} and ${t.sizes.length}`);
    }
    for (let k = 0; k < sizes.length; k++) {
      if (k !== d && t.sizes[k] !== ref.sizes[k]) {
        throw new ShapeError(
          `${op}: Sizes of tensors must match except in dimension ${d}. Expected size ${ref.sizes[k]} but got size ${t.sizes[k]} for tensor number ${i} in the list.`,
        );
      }
    }
    total += t.sizes[d];
    parts.push(t);
  });
  sizes[d] = total;
  return { sizes, dim: d, dtype, parts };
}

/** Writes the parts one after another along `dim` into `out` (the backend's cat converts dtypes). */
function fillCat(b: Backend, op: string, out: TensorImpl, parts: readonly TensorImpl[], dim: number): void {
  if (out.numel > 0) implOf(b, 'cat', op)(out, parts, dim);
}

function checkOut(op: string, out: TensorImpl, sizes: readonly number[], dtype: DType, tensors: readonly TensorImpl[]): void {
  checkNoInternalOverlap(op, out);
  checkNoOverlap(op, out, tensors);
  commonDevice(op, [...tensors, out]);
  if (!sameShape(out.sizes, sizes)) {
    throw new ShapeError(`${op}: out= tensor has shape ${fmtShape(out.sizes)}, but the result has shape ${fmtShape(sizes)}`);
  }
  if (!canCast(dtype, out.dtype)) {
    throw new DTypeError(`${op}: result type ${torchTypeName(dtype)} can't be cast to the desired output type ${torchTypeName(out.dtype)}`);
  }
  for (const t of tensors) {
    if (t.storage === out.storage) {
      throw new TorchError(`${op}: unsupported operation: the input tensors cannot refer to any of the output memory locations.`);
    }
  }
}

function runCat(op: string, tensors: readonly TensorImpl[], dim: number, b: Backend, out: TensorImpl | null): TensorImpl {
  const plan = planCat(op, tensors, dim);
  const device = commonDevice(op, tensors);
  if (out) {
    checkOut(op, out, plan.sizes, plan.dtype, tensors);
    fillCat(b, op, out, plan.parts, plan.dim);
    return out;
  }
  const result = TensorImpl.empty(op, plan.sizes, plan.dtype, device);
  try {
    fillCat(b, op, result, plan.parts, plan.dim);
  } catch (e) {
    result.release();
    throw e;
  }
  return result;
}

export const CAT = defineStructured('cat(Tensor[] tensors, int dim=0) -> Tensor', ([tensors, dim], b) => runCat('cat', tensors, dim, b, null));
const CAT_OUT = defineStructured('cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)', ([tensors, dim, out], b) =>
  runCat('cat', tensors, dim, b, out),
  ['out'],
);

/** stack: each tensor gains `dim` (size 1) and the results are concatenated there. */
function planStack(tensors: readonly TensorImpl[], dim: number): { views: TensorImpl[]; dim: number } {
  if (tensors.length === 0) throw new TorchError('stack: stack expects a non-empty TensorList');
  const first = tensors[0];
  for (let i = 1; i < tensors.length; i++) {
    if (!sameShape(tensors[i].sizes, first.sizes)) {
      throw new ShapeError(
        `stack: stack expects each tensor to be equal size, but got ${fmtShape(first.sizes)} at entry 0 and ${fmtShape(tensors[i].sizes)} at entry ${i}`,
      );
    }
  }
  const d = normalizeDim('stack', dim, first.sizes.length + 1);
  const views = tensors.map((t) => {
    const sizes = [...t.sizes];
    const strides = [...t.strides];
    sizes.splice(d, 0, 1);
    strides.splice(d, 0, d < t.strides.length ? t.strides[d] * t.sizes[d] : 1);
    return t.view(sizes, strides, t.storageOffset);
  });
  return { views, dim: d };
}

function runStack(tensors: readonly TensorImpl[], d: number, b: Backend, out: TensorImpl | null): TensorImpl {
  const { views, dim } = planStack(tensors, d);
  try {
    return runCat('stack', views, dim, b, out);
  } finally {
    for (const v of views) v.release();
  }
}

export const STACK = defineStructured('stack(Tensor[] tensors, int dim=0) -> Tensor', ([tensors, dim], b) => runStack(tensors, dim, b, null));
const STACK_OUT = defineStructured('stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)', ([tensors, dim, out], b) =>
  runStack(tensors, dim, b, out),
  ['out'],
);

/** hstack / vstack: cat after atleast_1d / atleast_2d, as PyTorch composes them (CatBackward0). */
export const HSTACK = defineComposite('hstack(Tensor[] tensors) -> Tensor', ([tensors]) => {
    const ts = tensors.map((t) => (t.dim() === 0 ? reshape(t, [1]) : t));
    if (ts.length === 0) throw new TorchError('hstack: expected a non-empty list of Tensors');
    return cat(ts, ts[0].dim() === 1 ? 0 : 1);
  });

export const VSTACK = defineComposite('vstack(Tensor[] tensors) -> Tensor', ([tensors]) => {
    const ts = tensors.map((t) => (t.dim() === 0 ? reshape(t, [1, 1]) : t.dim() === 1 ? unsqueeze(t, 0) : t));
    if (ts.length === 0) throw new TorchError('vstack: expected a non-empty list of Tensors');
    return cat(ts, 0);
  });

// ---- front ends ----
function tensorList(op: string, tensors: unknown): TensorImpl[] {
  if (!Array.isArray(tensors)) {
    throw new TorchError(`${op}(): argument 'tensors' must be tuple of Tensors, not ${describe(tensors)}`);
  }
  // An empty list has no tensor to dispatch on: refused here, with the kernel's message.
  if (tensors.length === 0) {
    throw new TorchError(op === 'cat' ? 'cat: expected a non-empty list of Tensors' : `${op}: ${op} expects a non-empty TensorList`);
  }
  return tensors.map((t, i) => unwrapTensor(op, `tensors[${i}]`, t));
}


/** `torch.cat(tensors, dim?)` with PyTorch's type promotion and empty-tensor rules (Note [cat's empty inputs]). */
export const cat = front('cat(Tensor[] tensors, int dim=0, *, Tensor? out=None) -> Tensor', { method: false }).run(([tensors, d, out]): Tensor => {
  const list = tensorList('cat', tensors);
  if (out) return callMutating(CAT_OUT, [list, d, unwrapTensor('cat', 'out', out)], out);
  return callFunctional(CAT, [list, d]);
});
export type CatOptions = OptionsOf<typeof cat>;

/** `torch.concat` / `torch.concatenate`: aliases of cat. */
export const concat = cat;
export const concatenate = cat;

export const stack = front('stack(Tensor[] tensors, int dim=0, *, Tensor? out=None) -> Tensor', { method: false }).run(([tensors, d, out]): Tensor => {
  const list = tensorList('stack', tensors);
  if (out) return callMutating(STACK_OUT, [list, d, unwrapTensor('stack', 'out', out)], out);
  return callFunctional(STACK, [list, d]);
});

export const hstack = front('hstack(Tensor[] tensors, *, Tensor? out=None) -> Tensor', { method: false }).run(([tensors, out]): Tensor => {
  const r = callFunctional(HSTACK, [tensorList('hstack', tensors)]);
  return out ? copyOut('hstack', r, out) : r;
});

export const vstack = front('vstack(Tensor[] tensors, *, Tensor? out=None) -> Tensor', { method: false }).run(([tensors, out]): Tensor => {
  const r = callFunctional(VSTACK, [tensorList('vstack', tensors)]);
  return out ? copyOut('vstack', r, out) : r;
});

function copyOut(op: string, r: Tensor, out: Tensor): Tensor {
  try {
    return callMutating(CAT_OUT, [[r.impl], 0, unwrapTensor(op, 'out', out)], out);
  } finally {
    r.dispose();
  }
}
