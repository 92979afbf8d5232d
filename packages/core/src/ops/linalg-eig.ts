import { DTypeError, TorchError } from '../errors';
import { isComplexType, isFloatingType } from '../dtype';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { callMulti, unwrapTensor } from './call';
import { viewAsComplexOf } from './complex-views';
import { front } from './front';
import { LinAlgError, checkSquare, firstFailure, freshCopy, guarded, infoReadable } from './linalg-solve';
import { torchTypeName } from './meta-utils';
import { named } from './named-tuple';
import { defineStructured, implOf } from './registry';
import { freshComplexCopy } from './linalg-complex-factor';
import { complexParts } from '../tensor/host-data';

/**
 * Note [The eig primitive]
 * torch.linalg.eig and eigvals of a real matrix give complex results: the eigenvalues of a
 * real matrix come in conjugate pairs, and so do their eigenvectors. torch-ts computes
 * complex values as pairs of reals (Note [Complex tensors are pairs of reals]), so the
 * primitive is a real operator, `_linalg_eig_parts(A, compute_v)`, whose results hold the
 * (real, imaginary) parts in a trailing dim of 2: L [..., n, 2] and V [..., n, n, 2] (V
 * empty, of size [0], without compute_v, as linalg_eig's eigenvectors are when PyTorch skips
 * them). linalg.eig is view_as_complex of the two, so autograd records the real primitive and
 * view_as_complex, and the primitive's derivative (autograd's derivatives/linalg-eig.ts,
 * PyTorch's linalg_eig_backward) receives the gradients of the parts as real pairs.
 *
 * The values are exactly LAPACK's geev's (PyTorch's CPU kernel calls geev): the backends
 * follow dgeev step by step (balancing, Hessenberg reduction, dlahqr's Francis double-shift
 * QR, dtrevc's back substitution, geev's normalisation; kernels-cpu's Note [CPU eig:
 * LAPACK's dgeev; kernels-webgpu's Note [WebGPU eig: dgeev, an invocation per matrix]), so
 * the eigenvalues come in geev's order and each eigenvector has unit 2-norm with its largest
 * component real. The CPU computes in doubles: its float64 results are geev's to rounding,
 * its float32 ones geev's in double rounded once, where sgeev (PyTorch's float32, and the
 * WebGPU kernel, which iterates in float32 as sgeev does) may converge in another order. Eigenvectors are unique only up to that
 * normalisation (and not at all for a repeated eigenvalue), so tests compare them up to a
 * unit phase per column and through A V = V diag(L), as PyTorch's tests do.
 *
 * A complex A (complex64 / complex128) passes the Complex key (Note [Complex linalg
 * primitives]) and goes to the backend's eigComplex as its parts, which follows LAPACK's
 * zgeev (kernels-cpu's Note [CPU complex eig: LAPACK's zgeev]); the results are the same
 * parts tensors, and the derivative then returns the complex gradient itself. WebGPU runs
 * cgeev's steps in float32 (kernels-webgpu's Note [WebGPU complex eig: zgeev, an invocation
 * per matrix]); complex128 is a DTypeError there.
 *
 * Like PyTorch, the op refuses a matrix with an inf or a NaN (`torch.linalg.eig: input
 * tensor should not contain infs or NaNs.`) and raises a LinAlgError where the QR iteration
 * does not converge; both are read from the impl's `info` where the device reads
 * synchronously (Note [Checking info without a device read]): on WebGPU the results hold
 * what the iteration produced.
 */

function checkEigInput(op: string, A: TensorImpl): void {
  checkSquare(op, A.sizes);
  // (PyTorch makes the complex result dtype first: toComplexType refuses integers and bool)
  if (!isFloatingType(A.dtype) && !isComplexType(A.dtype)) throw new DTypeError(`Unknown Complex ScalarType for ${torchTypeName(A.dtype)}`);
  if (A.dtype === 'bfloat16') throw new DTypeError(`Unknown Complex ScalarType for ${torchTypeName(A.dtype)}`);
  if (A.dtype !== 'float32' && A.dtype !== 'float64' && !isComplexType(A.dtype) && A.numel > 0) throw new DTypeError(`"linalg_eig_out_cpu" not implemented for '${torchTypeName(A.dtype)}'`);
}

// ---- _linalg_eig_parts ----
export const LINALG_EIG_PARTS = defineStructured('_linalg_eig_parts(Tensor A, bool compute_v=True) -> (Tensor eigenvalues, Tensor eigenvectors)', ([A, computeV], b) => {
  const op = 'linalg.eig';
  checkEigInput(op, A);
  const batchSizes = A.sizes.slice(0, -2);
  const batch = batchSizes.reduce((x, y) => x * y, 1);
  const n = A.sizes[A.dim - 1];
  const complex = isComplexType(A.dtype);
  const partsDtype = A.dtype === 'float64' || A.dtype === 'complex128' ? 'float64' : 'float32';
  const w = TensorImpl.empty(op, [...batchSizes, n, 2], partsDtype, A.device);
  const results = [w];
  const temps: TensorImpl[] = [];
  return guarded(temps, results, () => {
    const V = TensorImpl.empty(op, computeV ? [...batchSizes, n, n, 2] : [0], partsDtype, A.device);
    results.push(V);
    if (batch === 0 || n === 0) return [w, V];
    const a = (complex ? freshComplexCopy : freshCopy)(b, op, A, A.sizes);
    temps.push(a);
    // (a complex matrix goes to the backend as its parts: Note [Complex linalg primitives])
    const aParts = complex ? complexParts(a) : null;
    if (aParts) temps.push(aParts);
    const a3 = complex ? aParts!.view([batch, n, n, 2], [2 * n * n, 2 * n, 2, 1], 0) : a.view([batch, n, n], [n * n, n, 1], 0);
    temps.push(a3);
    const w3 = w.view([batch, n, 2], [2 * n, 2, 1], w.storageOffset);
    temps.push(w3);
    let v4: TensorImpl | null = null;
    if (computeV) {
      v4 = V.view([batch, n, n, 2], [2 * n * n, 2 * n, 2, 1], V.storageOffset);
      temps.push(v4);
    }
    const info = TensorImpl.empty(op, [batch], 'int32', A.device);
    temps.push(info);
    const work = TensorImpl.empty(op, [batch, 4 * n], partsDtype, A.device);
    temps.push(work);
    implOf(b, complex ? 'eigComplex' : 'eig', op)(a3, w3, v4, info, work);
    if (infoReadable(info)) {
      const f = firstFailure(info);
      if (f && f.info < 0) throw new TorchError('torch.linalg.eig: input tensor should not contain infs or NaNs.');
      if (f) {
        const where = batchSizes.length === 0 ? '' : `: (Batch element ${f.batch})`;
        throw new LinAlgError(
          `torch.linalg.eig${where}: The algorithm failed to converge because the input matrix is ill-conditioned or has too many repeated eigenvalues (error code: ${f.info}).`,
        );
      }
    }
    return [w, V];
  });
});

function eigParts(op: string, A: Tensor, computeV: boolean): Tensor[] {
  return callMulti(LINALG_EIG_PARTS, [unwrapTensor(op, 'A', A), computeV]);
}

export type EigResult = [Tensor, Tensor] & { readonly eigenvalues: Tensor; readonly eigenvectors: Tensor };

/**
 * The eigenvalues and right eigenvectors (columns) of a square matrix, as LAPACK's geev
 * computes them (Note [The eig primitive]): both complex (complex64 for float32, complex128
 * for float64), the eigenvectors of unit norm with their largest component real.
 */
export const linalgEig = front('linalg_eig(Tensor A) -> (Tensor eigenvalues, Tensor eigenvectors)', { method: false, namespaces: ['linalg'], exportAs: 'eig' }).run(
  ([A]): EigResult => {
    const [L, V] = eigParts('linalg.eig', A, true);
    return named(['eigenvalues', 'eigenvectors'], [viewAsComplexOf(L), viewAsComplexOf(V)]);
  },
);

/** The eigenvalues of a square matrix (complex), in geev's order. */
export const linalgEigvals = front('linalg_eigvals(Tensor A) -> Tensor', { method: false, namespaces: ['linalg'], exportAs: 'eigvals' }).run(([A]): Tensor => {
  checkSquare('linalg.eigvals', A.shape);
  // (the eigenvectors too where a gradient may be asked for, as PyTorch's: the derivative needs them)
  const [L, V] = eigParts('linalg.eig', A, A.requiresGrad);
  V.dispose();
  return viewAsComplexOf(L);
});
