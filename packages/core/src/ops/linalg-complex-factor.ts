import { FALLTHROUGH, registerKernel, type OperatorHandle } from '../dispatch/dispatcher';
import { DispatchKey } from '../dispatch/dispatch-key';
import { complexParts } from '../tensor/host-data';
import { TensorImpl } from '../tensor/tensor-impl';
import type { Device } from '../device';
import { backendKeyOf } from '../dispatch/dispatch-key';
import { broadcastTo } from './meta-utils';
import { backendOf, implOf, type Backend } from './registry';

/**
 * Note [Complex linalg primitives]
 * Most complex ops are composites over real views (Note [Complex tensors are pairs of
 * reals]), so that autograd records real ops. A factorization cannot be written that way:
 * its pivoting, square roots and rotations are complex arithmetic all through. So the linalg
 * primitives that take complex inputs (linalg_lu_factor_ex, linalg_lu_solve,
 * linalg_solve_triangular, linalg_cholesky_ex, _linalg_eigh, geqrf,
 * linalg_householder_product, linalg_qr, _linalg_svd, linalg_lstsq, linalg_matrix_exp) fall through the Complex key
 * (as the view ops do): a complex call reaches autograd, which records the primitive itself
 * with PyTorch's derivative formula, written with ^H (autograd's derivatives/linalg-solve.ts
 * and linalg-qr.ts; ^H is ^T for a real dtype), so the gradients are PyTorch's for complex
 * inputs too (the conjugate Wirtinger convention of Note [Complex gradients]), and the
 * formula's own ops are complex composites, which differentiate again. The meta then hands
 * the backend the complex matrices' parts (fresh contiguous float32 / float64 tensors with a
 * trailing dim of 2: ComplexLinalgImpls), so backends keep seeing real dtypes only. The
 * results are complex tensors allocated here; the impls write their parts through a real
 * view. The functions composed of these primitives (det, slogdet, lu, lu_solve, cholesky,
 * eigh, eigvalsh, ...) then take complex inputs with no code of their own. WebGPU computes
 * them in complex64 (kernels-webgpu's Note [WebGPU complex LU, Cholesky, triangular solves
 * and eigh]); a backend whose table opts out with notImplemented raises core's "no kernel
 * for aten::op on <device> (reason)", and its linalg.solve and inv take the real embedding.
 */

/** Complex inputs pass the Complex key and reach autograd and the backend (Note [Complex linalg primitives]). */
export function fallThroughComplex(...ops: OperatorHandle[]): void {
  for (const op of ops) registerKernel(op, DispatchKey.Complex, FALLTHROUGH);
}

/** A fresh contiguous complex copy of the complex `t` broadcast to `sizes` (copied as parts: backends copy real dtypes). */
export function freshComplexCopy(b: Backend, op: string, t: TensorImpl, sizes: readonly number[]): TensorImpl {
  const out = TensorImpl.empty(op, [...sizes], t.dtype, t.device);
  if (out.numel === 0) return out;
  const src = broadcastTo(t, sizes);
  const sp = complexParts(src);
  const op2 = complexParts(out);
  try {
    implOf(b, 'copy', op)(op2, sp);
  } catch (e) {
    out.release();
    throw e;
  } finally {
    src.release();
    sp.release();
    op2.release();
  }
  return out;
}

/** Runs `fn` on the parts views of the complex tensors `ts` (null passes through). */
export function withParts<T>(ts: (TensorImpl | null)[], fn: (parts: (TensorImpl | null)[]) => T): T {
  const ps = ts.map((t) => (t === null ? null : complexParts(t)));
  try {
    return fn(ps);
  } finally {
    for (const p of ps) p?.release();
  }
}

/** Conjugates the contiguous complex `z` in place (negates its imaginary parts). */
export function conjugateInPlace(b: Backend, op: string, z: TensorImpl): void {
  if (z.numel === 0) return;
  const parts = complexParts(z);
  const im = parts.view([z.numel], [2], parts.storageOffset + 1);
  try {
    implOf(b, 'neg', op)(im, im);
  } finally {
    im.release();
    parts.release();
  }
}

/** Whether `device`'s backend factors complex matrices itself (else linalg.solve and inv take the real embedding: Note [Complex linear solves by the real embedding]). */
export function hasComplexLinalg(device: Device): boolean {
  return typeof backendOf(backendKeyOf(device.type))?.impls.luFactorComplex === 'function';
}
