/**
 * The SparseCPU kernels of mul, div and abs (Note [Sparse COO tensors]). Each computes the new
 * values with the dense op on the values tensor, so type promotion, rounding and division
 * by zero are the dense ones, as PyTorch 1.13's sparse kernels call the dense op on `_values()`:
 *  - `sparse * number`, `sparse * 0-d dense` (and the reverse): the values times it, the
 *    indices copied, the coalesced flag kept;
 *  - `sparse * dense` (the dense broadcast to the sparse size): each entry's value times the
 *    dense block at its index, in entry order (duplicates each times the same block);
 *  - `sparse / number | 0-d dense`: the values divided; with a rounding mode the tensor is
 *    coalesced first (the floor of a sum is not the sum of floors); any other divisor is
 *    refused with PyTorch's message;
 *  - `abs`: coalesced first, then the values' abs.
 * The in-place forms follow PyTorch 1.13 exactly, as `clip_grad_norm_`'s `g.detach().mul_(c)`
 * depends on it: `mul_` gives the tensor new members marked uncoalesced (an alias made before,
 * a `detach()`, keeps the old ones: 1.13 does not scale a sparse gradient there), while `div_`
 * divides the values in place (an alias sees it) and keeps the flag.
 */
import { DispatchKey } from '../dispatch/dispatch-key';
import { registerKernel } from '../dispatch/dispatcher';
import { CPU } from '../device';
import { AutogradError, DTypeError, NotImplementedError, ShapeError, TorchError, fmtShape } from '../errors';
import { torchTypeName } from '../ops/meta-utils';
import { canCast } from '../dtype';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { tidy } from '../tensor/scope';
import { zeros } from '../ops/factories';
import { SparseTensorImpl } from './sparse-tensor-impl';
import { adopt, coalesce, indicesOf, linearIndices, valuesOf } from './sparse-kernels';

type Operand = number | boolean | TensorImpl;
const isSparse = (t: unknown): t is SparseTensorImpl => t instanceof SparseTensorImpl;

/** A sparse tensor with a copy of `t`'s indices and `values` (a new reference, passed on). */
function withValues(t: SparseTensorImpl, values: TensorImpl, coalesced: boolean): SparseTensorImpl {
  const indices = TensorImpl.empty('sparse', [t.sparseDim, t.nnz], 'int64', CPU);
  indices.storage.typed(BigInt64Array).set(indicesOf(t));
  return adopt(t.sizes, indices, values, coalesced);
}

/** `f(values)` as a new TensorImpl reference, the temporaries freed. */
function mapValues(t: SparseTensorImpl, f: (v: Tensor) => Tensor): TensorImpl {
  return tidy(() => f(new Tensor(t.values.retain())).contiguous().impl.retain());
}

/** The dense operand as a Tensor (a number stays a number). */
function operand(o: Operand): Tensor | number {
  return typeof o === 'boolean' ? Number(o) : typeof o === 'number' ? o : new Tensor(o.retain());
}

/** The blocks of `dense` (broadcast to `s`'s size) at `s`'s entries: [nnz, ...dense dims]. */
function denseAtEntries(op: string, s: SparseTensorImpl, dense: Tensor): Tensor {
  if (dense.device.type !== 'cpu') throw new NotImplementedError(`${op}: torch-ts has sparse kernels on the CPU only, got a dense tensor on ${dense.device}`);
  if (dense.ndim > s.dim) {
    throw new NotImplementedError(`${op}: torch-ts multiplies a sparse tensor of size ${fmtShape(s.sizes)} by a dense one that broadcasts to its size, got ${fmtShape(dense.shape)}`);
  }
  const sparseSizes = s.sizes.slice(0, s.sparseDim);
  const rows = sparseSizes.reduce((a, b) => a * b, 1);
  const lin = linearIndices(s);
  const at = TensorImpl.empty(op, [lin.length], 'int64', CPU);
  const a = at.storage.typed(BigInt64Array);
  lin.forEach((l, k) => (a[k] = BigInt(l)));
  const flat = dense.expand([...s.sizes]).contiguous().reshape([rows, ...s.sizes.slice(s.sparseDim)]);
  return flat.indexSelect(0, new Tensor(at));
}

function mulOf(op: string, self: unknown, other: unknown): SparseTensorImpl {
  if (isSparse(self) && isSparse(other)) throw new NotImplementedError(`${op}: torch-ts multiplies a sparse tensor by a number or a dense tensor, not by a sparse tensor`);
  const [s, o] = isSparse(self) ? [self, other as Operand] : [other as SparseTensorImpl, self as Operand];
  const values = mapValues(s, (v) => {
    const d = operand(o);
    if (typeof d === 'number' || d.ndim === 0) return v.mul(d);
    return v.mul(denseAtEntries(op, s, d));
  });
  return withValues(s, values, s.coalesced);
}

function divOf(op: string, self: unknown, other: unknown, mode: unknown): SparseTensorImpl {
  if (!isSparse(self)) throw new NotImplementedError(`${op}: torch-ts divides a sparse tensor by a number or a zero-dim dense tensor only, got a sparse divisor`);
  if (isSparse(other)) throw new TorchError(`${op}: Sparse division requires a scalar or zero-dim dense tensor divisor (got a sparse tensor of shape ${fmtShape(other.sizes)} for divisor)`);
  const o = other as Operand;
  if (typeof o === 'object' && o.dim !== 0) throw new TorchError(`${op}: Sparse division requires a scalar or zero-dim dense tensor divisor (got shape ${fmtShape(o.sizes)} for divisor)`);
  const roundingMode = (mode ?? null) as 'trunc' | 'floor' | null;
  const base = roundingMode !== null && !self.coalesced ? coalesce(self) : self;
  try {
    const values = mapValues(base, (v) => v.div(operand(o), { roundingMode }));
    return withValues(base, values, base.coalesced);
  } finally {
    if (base !== self) base.release();
  }
}

/**
 * `mm(sparse [n, m], dense [m, p])` (and `addmm(input, sparse, dense, beta, alpha)`, which starts
 * from `beta * input`): dense [n, p], each entry's value times its row of `mat2`
 * added into its output row in entry order (s_addmm_out_sparse_dense_cpu: no coalescing, so
 * duplicates add), with that kernel's messages. Computed with dense ops on detached operands
 * (a kernel records no graph). `op` names the caller: `mm` and `addmm` refuse a sparse operand
 * that requires grad, as 1.13's (their derivative needs a strided self); `_sparse_addmm`
 * (torch.sparse.mm / addmm) has a sparse gradient for it.
 */
export function mmOf(op: 'mm' | 'addmm' | '_sparse_addmm', self: unknown, mat2: unknown, input?: TensorImpl, beta = 1, alpha = 1): TensorImpl {
  if (!isSparse(self) || isSparse(mat2)) throw new NotImplementedError(`${op}: torch-ts multiplies a sparse COO matrix by a dense one only (mm(sparse, dense))`);
  const d = mat2 as TensorImpl;
  // (PyTorch's autograd kernel of mm checks this before it runs; torch-ts's sparse kernel does,
  // so it raises under noGrad too)
  if (op !== '_sparse_addmm' && self.autogradMeta?.requiresGrad === true) {
    throw new AutogradError(
      "mm: The backward pass for this operation requires the 'self' tensor to be strided, but a sparse tensor was given instead. Please either use a strided tensor or set requires_grad=False for 'self'",
    );
  }
  // (1.13's order: the shapes, then the dtypes)
  if (self.sparseDim !== 2) throw new ShapeError(`addmm: matrices expected, got ${self.sparseDim}D tensor`);
  if (self.denseDim !== 0) throw new NotImplementedError(`${op}: torch-ts multiplies a sparse matrix with no dense dims, got ${self.denseDim} dense dims`);
  if (d.dim !== 2) throw new ShapeError(`addmm: matrices expected, got ${d.dim}D tensor`);
  if (self.sizes[1] !== d.sizes[0]) throw new ShapeError(`addmm: Argument #3 (dense): Expected dim 0 size ${self.sizes[1]}, got ${d.sizes[0]}`);
  if (self.dtype !== d.dtype) throw new DTypeError(`${op}: expected scalar type ${torchTypeName(self.dtype)} but found ${torchTypeName(d.dtype)}`);
  if (d.device.type !== 'cpu') throw new NotImplementedError(`${op}: torch-ts has sparse kernels on the CPU only, got a dense tensor on ${d.device}`);
  return tidy(() => {
    const dense = new Tensor(d.retain()).detach();
    const idx = new Tensor(self.indices.retain());
    const vals = new Tensor(self.values.retain());
    // (addmm: alpha times each value first, then times the dense row, as PyTorch's axpy of `alpha * value`)
    const prod = (alpha === 1 ? vals : vals.mul(alpha)).unsqueeze(1).mul(dense.indexSelect(0, idx.select(0, 1)));
    const n = self.sizes[0];
    const p = d.sizes[1];
    const start =
      input === undefined || beta === 0
        ? zeros([n, p], { dtype: d.dtype })
        : new Tensor(input.retain()).detach().mul(beta).expand([n, p]).contiguous();
    return start.indexAdd(0, idx.select(0, 0), prod).impl.retain();
  });
}

/** PyTorch's check that an in-place result's dtype can be written to `self`. */
function checkInPlace(op: string, self: SparseTensorImpl, result: SparseTensorImpl, message: 'cast' | 'values'): void {
  if (result.dtype === self.dtype) return;
  if (message === 'values') {
    throw new DTypeError(`${op}: dtype of values (${torchTypeName(result.dtype)}) must match dtype of sparse tensor (${torchTypeName(self.dtype)})`);
  }
  if (!canCast(result.dtype, self.dtype)) {
    throw new DTypeError(`${op}: result type ${torchTypeName(result.dtype)} can't be cast to the desired output type ${torchTypeName(self.dtype)}`);
  }
}

export function registerSparseMath(): void {
  const on = (name: string, kernel: (args: unknown[]) => unknown): void => registerKernel(name, DispatchKey.SparseCPU, (_ks, args) => kernel(args));
  on('mul', ([self, other]) => mulOf('mul', self, other));
  on('mul_', ([self, other]) => {
    if (!isSparse(self)) throw new NotImplementedError('mul_: torch-ts multiplies a dense tensor in place by a dense tensor or number only, got a sparse other');
    const r = mulOf('mul_', self, other);
    try {
      checkInPlace('mul_', self, r, 'values');
      self.setMembers(r.indices, r.values, false);
    } finally {
      r.release();
    }
    return self;
  });
  on('div', ([self, other, mode]) => divOf('div', self, other, mode));
  on('div_', ([self, other, mode]) => {
    const r = divOf('div_', self, other, mode);
    const s = self as SparseTensorImpl;
    try {
      checkInPlace('div_', s, r, 'cast');
      // (a rounding mode coalesced a copy first: then the members are replaced)
      if ((mode == null || s.coalesced) && r.dtype === s.dtype) {
        // (the values divided where they are: an alias of the members sees it, as PyTorch's `r._values().div_(value)`)
        (valuesOf(s.values) as Float64Array).set(valuesOf(r.values) as Float64Array);
        s.setCoalesced(r.coalesced);
      } else {
        s.setMembers(r.indices, r.values, r.coalesced);
      }
    } finally {
      r.release();
    }
    return self;
  });
  on('mm', ([self, mat2]) => mmOf('mm', self, mat2));
  on('addmm', ([input, mat1, mat2, beta, alpha]) => {
    if (isSparse(input)) throw new NotImplementedError('addmm: torch-ts adds a sparse-dense product into a dense input only');
    return mmOf('addmm', mat1, mat2, input as TensorImpl, Number(beta ?? 1), Number(alpha ?? 1));
  });
  on('_sparse_addmm', ([input, mat1, mat2, beta, alpha]) => {
    if (isSparse(input)) throw new NotImplementedError('_sparse_addmm: torch-ts adds a sparse-dense product into a dense input only');
    return mmOf('_sparse_addmm', mat1, mat2, input as TensorImpl, Number(beta ?? 1), Number(alpha ?? 1));
  });
  on('abs', ([self]) => {
    const s = self as SparseTensorImpl;
    const c = s.coalesced ? s : coalesce(s);
    try {
      return withValues(c, mapValues(c, (v) => v.abs()), true);
    } finally {
      if (c !== s) c.release();
    }
  });
}
