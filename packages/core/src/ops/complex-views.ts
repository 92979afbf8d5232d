/**
 * The views between a complex tensor and its parts (Note [Complex tensors are pairs of
 * reals]): `viewAsReal`, `viewAsComplex`, and `real` / `imag`, views of one part.
 */
import { BACKEND_KEYS, DispatchKey } from '../dispatch/dispatch-key';
import { FALLTHROUGH, registerKernel, registerOperator, type BoxedKernel, type OperatorHandle } from '../dispatch/dispatcher';
import { isComplexType, toComplexType } from '../dtype';
import { complexParts } from '../tensor/host-data';
import { DTypeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { tidy } from '../tensor/scope';
import { torchTypeName } from './meta-utils';
import { callFunctional, unwrapTensor } from './call';
import { front } from './front';
import { ALIAS, selectOf } from './views';

function defineDtypeView(schema: string, make: (self: TensorImpl) => TensorImpl): OperatorHandle {
  const h = registerOperator({ schema, tags: ['view'] });
  const kernel: BoxedKernel = (_ks, args) => {
    const self = args[0];
    if (!(self instanceof TensorImpl)) throw new TorchError(`${h.schema.qualifiedName}(): argument 'self' must be Tensor`);
    return make(self);
  };
  for (const k of BACKEND_KEYS) registerKernel(h, k, kernel);
  registerKernel(h, DispatchKey.Complex, FALLTHROUGH);
  registerKernel(h, DispatchKey.Conjugate, FALLTHROUGH);
  return h;
}

export const VIEW_AS_REAL = defineDtypeView('view_as_real(Tensor(a) self) -> Tensor(a)', (t) => {
  if (!isComplexType(t.dtype)) throw new DTypeError('view_as_real is only supported for complex tensors');
  if (t.isConj) {
    throw new TorchError(
      "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the conjugate tensor so you can view it as real, use self.resolve_conj(); however, be warned that the resulting tensor will NOT alias the original.",
    );
  }
  return complexParts(t);
});

/** `_conj`: a complex tensor's window with the conjugate bit flipped (Note [The conjugate bit] in conjugate.ts). */
export const CONJ_VIEW = defineDtypeView('_conj(Tensor(a) self) -> Tensor(a)', (t) => {
  if (!isComplexType(t.dtype)) throw new DTypeError(`_conj: expected a complex tensor, but got ${torchTypeName(t.dtype)}`);
  return t.conjugateView();
});

/** `_conj(t)` of a complex tensor: the same window with the bit flipped (a view). */
export const conjView = (t: Tensor): Tensor => callFunctional(CONJ_VIEW, [unwrapTensor('_conj', 'self', t)]);

export const VIEW_AS_COMPLEX = defineDtypeView('view_as_complex(Tensor(a) self) -> Tensor(a)', (t) => {
  if (t.dtype !== 'float32' && t.dtype !== 'float64') {
    throw new DTypeError(`view_as_complex is only supported for float and double tensors, but got a tensor of scalar type: ${torchTypeName(t.dtype)}`);
  }
  const nd = t.sizes.length;
  if (nd === 0) throw new TorchError('Input tensor must have one or more dimensions');
  if (t.sizes[nd - 1] !== 2) throw new TorchError('Tensor must have a last dimension of size 2');
  if (t.strides[nd - 1] !== 1) throw new TorchError('Tensor must have a last dimension with stride 1');
  const strides = t.strides.slice(0, -1);
  if (strides.some((s) => s % 2 !== 0)) throw new TorchError('Tensor must have a stride divisible by 2 for all but last dimension');
  if (t.storageOffset % 2 !== 0) throw new TorchError('Tensor must have a storage_offset divisible by 2');
  return t.viewAsDtype(toComplexType(t.dtype), t.sizes.slice(0, -1), strides.map((s) => s / 2), t.storageOffset / 2);
});

export const viewAsRealOf = (t: Tensor): Tensor => callFunctional(VIEW_AS_REAL, [unwrapTensor('view_as_real', 'self', t)]);
export const viewAsComplexOf = (t: Tensor): Tensor => callFunctional(VIEW_AS_COMPLEX, [unwrapTensor('view_as_complex', 'self', t)]);

/** `torch.viewAsReal(z)`: z's parts as a real view with a trailing dim of 2 (real, imag). */
export const viewAsReal = front('view_as_real(Tensor(a) self) -> Tensor(a)').run(([self]): Tensor => viewAsRealOf(self));

/** `torch.viewAsComplex(x)`: a real view with a trailing dim of 2 (stride 1) as complex elements. */
export const viewAsComplex = front('view_as_complex(Tensor(a) self) -> Tensor(a)').run(([self]): Tensor => viewAsComplexOf(self));

/** `torch.real(z)` / `z.real`: a view of the real parts; a real tensor itself. */
export const real = front('real(Tensor(a) self) -> Tensor(a)', { method: false }).run(([self]): Tensor => {
  if (!isComplexType(self.dtype)) return callFunctional(ALIAS, [unwrapTensor('real', 'self', self)]);
  // (a conjugate's real parts are its storage's: Note [The conjugate bit]; the intermediate views are released)
  return tidy(() => selectOf(viewAsRealOf(self.impl.isConj ? conjView(self) : self), -1, 0));
});

/** `torch.imag(z)` / `z.imag`: a view of the imaginary parts (PyTorch refuses a real tensor). */
export const imag = front('imag(Tensor(a) self) -> Tensor(a)', { method: false }).run(([self]): Tensor => {
  if (!isComplexType(self.dtype)) throw new TorchError('imag is not implemented for tensors with non-complex dtypes.');
  // (a conjugate's are the storage's negated: a new tensor, for want of PyTorch's negative bit)
  return tidy(() => (self.impl.isConj ? selectOf(viewAsRealOf(conjView(self)), -1, 1).neg() : selectOf(viewAsRealOf(self), -1, 1)));
});
