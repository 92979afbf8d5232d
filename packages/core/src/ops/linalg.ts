import type { OperatorHandle } from '../dispatch/dispatcher';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import { broadcastShapes } from '../iterator';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { unwrapTensor } from './call';
import { front } from './front';
import { defineComposite } from './composite';
import { UNINITIALIZED, commonDevice, torchTypeName } from './meta-utils';
import { defineStructured, implOf, type Backend } from './registry';
import { expand, unsqueeze, squeeze, transpose } from './views';
import { reshape } from './shape-ops';
import { callWithOut, defineOutVariant } from './out-variant';

function checkMatmulDtypes(op: string, a: TensorImpl, b: TensorImpl): void {
  if (a.dtype !== b.dtype) {
    throw new DTypeError(`${op}: expected mat1 and mat2 to have the same dtype, but got: ${a.dtype} != ${b.dtype}`);
  }
  if (a.dtype === 'bool') throw new DTypeError(`${op}: "addmm_impl_cpu_" not implemented for '${torchTypeName(a.dtype)}'`);
}

export const MM = defineStructured('mm(Tensor self, Tensor mat2) -> Tensor', ([self, mat2], b) => {
  const a = self;
  const m = mat2;
  if (a.dim !== 2) throw new ShapeError(`mm: self must be a matrix, got a tensor of shape ${fmtShape(a.sizes)}`);
  if (m.dim !== 2) throw new ShapeError(`mm: mat2 must be a matrix, got a tensor of shape ${fmtShape(m.sizes)}`);
  if (a.sizes[1] !== m.sizes[0]) {
    throw new ShapeError(`mm: shapes ${fmtShape(a.sizes)} and ${fmtShape(m.sizes)} cannot be multiplied (${a.sizes[1]} != ${m.sizes[0]})`);
  }
  checkMatmulDtypes('mm', a, m);
  const device = commonDevice('mm', [a, m]);
  const out = TensorImpl.empty('mm', [a.sizes[0], m.sizes[1]], a.dtype, device, UNINITIALIZED);
  try {
    implOf(b, 'mm', 'mm')(out, a, m);
  } catch (e) {
    out.release();
    throw e;
  }
  return out;
});

export const BMM = defineStructured('bmm(Tensor self, Tensor mat2) -> Tensor', ([self, mat2], b) => {
  const a = self;
  const m = mat2;
  if (a.dim !== 3) throw new ShapeError(`bmm: batch1 must be a 3D tensor, got a tensor of shape ${fmtShape(a.sizes)}`);
  if (m.dim !== 3) throw new ShapeError(`bmm: batch2 must be a 3D tensor, got a tensor of shape ${fmtShape(m.sizes)}`);
  if (a.sizes[0] !== m.sizes[0] || a.sizes[2] !== m.sizes[1]) {
    throw new ShapeError(
      `bmm: Expected size for first two dimensions of batch2 tensor to be: [${a.sizes[0]}, ${a.sizes[2]}] but got: [${m.sizes[0]}, ${m.sizes[1]}] (shapes ${fmtShape(a.sizes)} and ${fmtShape(m.sizes)}).`,
    );
  }
  checkMatmulDtypes('bmm', a, m);
  const device = commonDevice('bmm', [a, m]);
  const out = TensorImpl.empty('bmm', [a.sizes[0], a.sizes[1], m.sizes[2]], a.dtype, device, UNINITIALIZED);
  try {
    implOf(b, 'bmm', 'bmm')(out, a, m);
  } catch (e) {
    out.release();
    throw e;
  }
  return out;
});

/**
 * `mv` and `dot` run the backend's `mm` on [n, 1] / [1, 1] views of a fresh result, so the
 * result is an ordinary tensor (no view of a temporary), as PyTorch's are.
 */
function mmInto(b: Backend, op: string, out: TensorImpl, outSizes2d: number[], a: TensorImpl, m: TensorImpl): TensorImpl {
  const o2 = out.view(outSizes2d, [outSizes2d[1], 1], 0);
  try {
    implOf(b, 'mm', op)(o2, a, m);
  } catch (e) {
    out.release();
    throw e;
  } finally {
    o2.release();
  }
  return out;
}

export const MV = defineStructured('mv(Tensor self, Tensor vec) -> Tensor', ([self, vec], b) => {
  const a = self;
  const v = vec;
  if (a.dim !== 2 || v.dim !== 1) {
    throw new ShapeError(`mv: vector + matrix @ vector expected, got ${a.dim}, ${v.dim} (shapes ${fmtShape(a.sizes)} and ${fmtShape(v.sizes)})`);
  }
  if (a.sizes[1] !== v.sizes[0]) {
    throw new ShapeError(`mv: shapes ${fmtShape(a.sizes)} and ${fmtShape(v.sizes)} cannot be multiplied (${a.sizes[1]} != ${v.sizes[0]})`);
  }
  checkMatmulDtypes('mv', a, v);
  const device = commonDevice('mv', [a, v]);
  const col = v.view([v.sizes[0], 1], [v.strides[0], 1], v.storageOffset);
  try {
    return mmInto(b, 'mv', TensorImpl.empty('mv', [a.sizes[0]], a.dtype, device), [a.sizes[0], 1], a, col);
  } finally {
    col.release();
  }
});

export const DOT = defineStructured('dot(Tensor self, Tensor tensor) -> Tensor', ([self, other], b) => {
  const a = self;
  const v = other;
  if (a.dim !== 1 || v.dim !== 1) {
    throw new ShapeError(`dot: 1D tensors expected, but got ${a.dim}D and ${v.dim}D tensors`);
  }
  if (a.sizes[0] !== v.sizes[0]) {
    throw new ShapeError(`dot: inconsistent tensor size, expected tensor [${a.sizes[0]}] and src [${v.sizes[0]}] to have the same number of elements, but got ${a.sizes[0]} and ${v.sizes[0]} elements respectively`);
  }
  checkMatmulDtypes('dot', a, v);
  const device = commonDevice('dot', [a, v]);
  const row = a.view([1, a.sizes[0]], [0, a.strides[0]], a.storageOffset);
  const col = v.view([v.sizes[0], 1], [v.strides[0], 1], v.storageOffset);
  try {
    return mmInto(b, 'dot', TensorImpl.empty('dot', [], a.dtype, device), [1, 1], row, col);
  } finally {
    row.release();
    col.release();
  }
});

/**
 * `matmul` as PyTorch defines it, composed of mm / bmm and views: 1-D operands gain a dim
 * that is removed again, batch dims broadcast, and batches fold into one bmm.
 */
export const MATMUL = defineComposite('matmul(Tensor self, Tensor other) -> Tensor', ([self, other]) => matmulComposite(self, other));

function matmulComposite(a: Tensor, b: Tensor): Tensor {
  const da = a.dim();
  const db = b.dim();
  if (da === 0 || db === 0) {
    throw new TorchError(`matmul: both arguments to matmul need to be at least 1D, but they are ${da}D and ${db}D`);
  }
  if (da === 1 && db === 1) {
    if (a.shape[0] !== b.shape[0]) {
      throw new ShapeError(`matmul: inconsistent tensor size, expected tensor [${a.shape[0]}] and src [${b.shape[0]}] to have the same number of elements, but got ${a.shape[0]} and ${b.shape[0]} elements respectively`);
    }
    return dot(a, b);
  }
  if (da === 2 && db === 1) return mv(a, b);
  if (da === 1 && db === 2) return mv(transpose(b, 0, 1), a);
  if (da === 2 && db === 2) return mm(a, b);
  // batched: promote 1-D operands, broadcast the batch dims, fold them into one.
  const a3 = da === 1 ? unsqueeze(a, 0) : a;
  const b3 = db === 1 ? unsqueeze(b, 1) : b;
  const [n, k] = a3.shape.slice(-2);
  const [k2, p] = b3.shape.slice(-2);
  if (k !== k2) {
    throw new ShapeError(`matmul: shapes ${fmtShape(a.shape)} and ${fmtShape(b.shape)} cannot be multiplied (${k} != ${k2})`);
  }
  const batch = broadcastShapes('matmul', a3.shape.slice(0, -2), b3.shape.slice(0, -2));
  const nb = batch.reduce((x, y) => x * y, 1);
  const ea = reshape(expand(a3, [...batch, n, k]), [nb, n, k]);
  const eb = reshape(expand(b3, [...batch, k, p]), [nb, k, p]);
  let out = reshape(bmm(ea, eb), [...batch, n, p]);
  if (da === 1) out = squeeze(out, -2);
  if (db === 1) out = squeeze(out, -1);
  return out;
}

const MM_OUT = defineOutVariant(MM);
const MV_OUT = defineOutVariant(MV);
const DOT_OUT = defineOutVariant(DOT);
const BMM_OUT = defineOutVariant(BMM);
const MATMUL_OUT = defineOutVariant(MATMUL);

/** A product's call: `second` is its second argument's keyword (`mm(input, mat2)`, `dot(input, tensor)`). */
function product(name: string, second: string, h: typeof MM | typeof BMM | typeof MV | typeof DOT | typeof MATMUL, hOut: OperatorHandle, self: Tensor, other: Tensor, out: Tensor | undefined): Tensor {
  return callWithOut(h, hOut, [unwrapTensor(name, 'input', self), unwrapTensor(name, second, other)], out);
}

/** The matrix product of two matrices. */
export const mm = front('mm(Tensor input, Tensor mat2, *, Tensor? out=None) -> Tensor').run(([self, mat2, out]): Tensor => product('mm', 'mat2', MM, MM_OUT, self, mat2, out));

/** The matrix products of two batches of matrices. */
export const bmm = front('bmm(Tensor input, Tensor mat2, *, Tensor? out=None) -> Tensor').run(([self, mat2, out]): Tensor => product('bmm', 'mat2', BMM, BMM_OUT, self, mat2, out));

/** The product of a matrix and a vector. */
export const mv = front('mv(Tensor input, Tensor vec, *, Tensor? out=None) -> Tensor').run(([self, vec, out]): Tensor => product('mv', 'vec', MV, MV_OUT, self, vec, out));

/** The dot product of two vectors. */
export const dot = front('dot(Tensor input, Tensor tensor, *, Tensor? out=None) -> Tensor').run(([self, tensor, out]): Tensor => product('dot', 'tensor', DOT, DOT_OUT, self, tensor, out));

/** PyTorch's matmul: dot, mv, mm or a broadcast batched mm, by the operands' dims. */
export const matmul = front('matmul(Tensor input, Tensor other, *, Tensor? out=None) -> Tensor').run(([self, other, out]): Tensor =>
  product('matmul', 'other', MATMUL, MATMUL_OUT, self, other, out),
);
