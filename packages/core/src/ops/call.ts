import { callBoxed, type OperatorHandle } from '../dispatch/dispatcher';
import { TorchError } from '../errors';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import type { KernelArgs } from './kernel-args';
import { isScalar, type Scalar } from './meta-utils';

/**
 * Note [Kernel results and ownership]
 * Boxed arguments are TensorImpls (or scalars, lists, options). A functional kernel returns
 * a new TensorImpl whose single reference passes to the caller (the front end wraps it in a
 * Tensor handle). In-place and `out=` kernels return the mutated TensorImpl *borrowed*: no
 * reference is added, and the front end returns the handle the user passed in.
 */
export function unwrapTensor(op: string, name: string, x: unknown): TensorImpl {
  return implOf(op, name, tensorArg(op, name, x));
}

/** A Tensor argument as the Tensor handle, refused in PyTorch's words where a binder let a number through. */
export function tensorArg(op: string, name: string, x: unknown): Tensor {
  if (x instanceof Tensor) return x;
  throw new TorchError(`${op}(): argument '${name}' must be Tensor, not ${describe(x)}`);
}

/**
 * An optional Tensor argument (`out=`) as a Tensor or undefined: a binder that takes numbers
 * for Tensors (`numbersAsTensors`) lets a number through here too, which PyTorch refuses.
 */
export function optionalTensor(op: string, name: string, x: unknown): Tensor | undefined {
  return x === undefined || x === null ? undefined : tensorArg(op, name, x);
}

function implOf(op: string, name: string, x: Tensor): TensorImpl {
  if (x.isDisposed) throw new TorchError(`${op}(): argument '${name}' is a tensor that was disposed and cannot be used`);
  return x.impl;
}

export function unwrapOptionalTensor(op: string, name: string, x: unknown): TensorImpl | undefined {
  return x == null ? undefined : unwrapTensor(op, name, x);
}

export function unwrapTensorOrScalar(op: string, name: string, x: unknown): TensorImpl | Scalar {
  if (x instanceof Tensor) return implOf(op, name, x);
  if (isScalar(x)) return x;
  throw new TorchError(`${op}(): argument '${name}' must be Tensor or Number, not ${describe(x)}`);
}

export function describe(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'Array';
  if (typeof x === 'object') return x.constructor?.name ?? 'object';
  return typeof x;
}

/** A kernel's result as the TensorImpl its schema promises (a kernel returning anything else is a bug, named here). */
export function implResult(h: OperatorHandle, r: unknown): TensorImpl {
  if (r instanceof TensorImpl) return r;
  throw new TorchError(`aten::${h.name}: internal error: the kernel returned ${describe(r)}, not a tensor`);
}

/** Calls a functional op and wraps its result. */
export function callFunctional<S extends string>(h: OperatorHandle<S>, args: KernelArgs<S>): Tensor {
  return new Tensor(implResult(h, callBoxed(h, args)));
}

/** Calls an op that returns several new tensors. */
export function callMulti<S extends string>(h: OperatorHandle<S>, args: KernelArgs<S>): Tensor[] {
  const r = callBoxed(h, args);
  if (!Array.isArray(r)) throw new TorchError(`aten::${h.name}: internal error: the kernel returned ${describe(r)}, not a list of tensors`);
  return r.map((i) => new Tensor(implResult(h, i)));
}

/** Calls an in-place or out= op and returns the handle that was written. */
export function callMutating<S extends string, T extends Tensor>(h: OperatorHandle<S>, args: KernelArgs<S>, written: T): T {
  callBoxed(h, args);
  return written;
}
