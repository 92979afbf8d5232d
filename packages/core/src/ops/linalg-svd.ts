import { isComplexType, toRealValueType } from '../dtype';
import { ShapeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { complexParts } from '../tensor/host-data';
import { TensorImpl } from '../tensor/tensor-impl';
import { callFunctional, callMulti, unwrapTensor } from './call';
import { checkFloating, checkKernelDtype } from './linalg-solve';
import { freshComplexCopy, withParts } from './linalg-complex-factor';
import { releaseAll } from './meta-utils';
import { defineStructured, implOf, type Backend } from './registry';

/**
 * Note [The SVD primitive]
 * torch.linalg's SVD family (svd, svdvals, pinv, matrix_rank, cond, the 2 / -2 / nuclear
 * norms: linalg-svd-front.ts) rests on one operator, PyTorch's
 * `_linalg_svd(A, full_matrices, compute_uv, *, driver)`, whose derivative is PyTorch's
 * svd_backward (autograd's derivatives/linalg-svd.ts), so the composites differentiate
 * through it. Its meta checks the input as 1.13's linalg_svd does, allocates U / S / Vh
 * (U and Vh empty, of size [0], without compute_uv, as PyTorch's) and hands the backend
 * (SvdImpls) a fresh contiguous copy of A with one batch dim and 3-d views of the results.
 * `driver` picks a cuSOLVER algorithm in PyTorch: on any other device it raises, and
 * torch-ts has no CUDA, so a non-None driver always raises, with PyTorch's message.
 *
 * Singular vectors are unique only up to a sign per pair (u_i, v_i) (and not at all for a
 * repeated or zero singular value): the backends' one-sided Jacobi and LAPACK's gesdd may
 * pick other signs, so tests compare U and Vh up to that sign (the OpInfo entries normalize
 * each pair), or compare |U|, U diag(S) Vh and the orthonormality, as PyTorch's tests do.
 *
 * Note [Complex SVD]
 * A complex A falls through the Complex key (Note [Complex linalg primitives]), so autograd
 * records `_linalg_svd` itself with PyTorch's complex svd_backward (its gauge check
 * included). S has A's real value type (float32 for complex64), U and Vh are complex, and
 * the backend's svdComplex gets the parts of a fresh contiguous copy of A and of U / Vh
 * ([B, m, n, 2], ...). A complex pair (u_i, v_i) is unique only up to a common unit phase
 * e^{i phi}: tests compare the vectors up to that phase (or compare gauge-invariant
 * functions: S, |U|, U diag(S) Vh, pinv). The CPU and WebGPU kernels fix that phase the same
 * way (kernels-cpu's Note [Complex SVD phase convention]), so the two devices agree.
 */

function asBatched(t: TensorImpl, batch: number): TensorImpl {
  const [r, c] = t.sizes.slice(-2);
  return t.view([batch, r, c], [r * c, c, 1], t.storageOffset);
}

/** Square identity matrices into the contiguous batch `t` ([..., r, r]): zeros, then ones on a strided view of the diagonals. */
function identityInto(b: Backend, op: string, t: TensorImpl, batch: number, temps: TensorImpl[]): void {
  const r = t.sizes[t.dim - 1];
  // (a complex identity through its parts: ones on the real parts of the diagonal)
  const w = isComplexType(t.dtype) ? complexParts(t) : t;
  if (w !== t) temps.push(w);
  const step = w === t ? 1 : 2;
  implOf(b, 'fill', op)(w, 0);
  const diag = w.view([batch, r], [step * r * r, step * (r + 1)], w.storageOffset);
  temps.push(diag);
  implOf(b, 'fill', op)(diag, 1);
}

// ---- _linalg_svd ----
export const LINALG_SVD = defineStructured(
  '_linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)',
  ([A, fullMatrices, computeUv, driver], b) => {
    const op = 'linalg.svd';
    if (A.dim < 2) throw new ShapeError(`${op}: The input tensor A must have at least 2 dimensions.`);
    checkFloating(op, A, true, true);
    if (driver !== null) throw new TorchError('torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend.');
    checkKernelDtype('linalg_svd_cpu', A, A.numel > 0, true);
    return svdOf(b, op, A, fullMatrices, computeUv);
  },
);

/** The SVD of A's matrices as `_linalg_svd` computes it: [U, S, Vh] of A's batch shape (lstsq's 'gelsd' and 'gelss' call it too). */
export function svdOf(b: Backend, op: string, A: TensorImpl, full: boolean, computeUv: boolean): TensorImpl[] {
  const batchSizes = A.sizes.slice(0, -2);
  const batch = batchSizes.reduce((x, y) => x * y, 1);
  const [m, n] = A.sizes.slice(-2);
  const k = Math.min(m, n);
  const complex = isComplexType(A.dtype);
  // (the singular values are real: A's real value type, Note [Complex SVD])
  const S = TensorImpl.empty(op, [...batchSizes, k], toRealValueType(A.dtype), A.device);
  const results = [S];
  const temps: TensorImpl[] = [];
  try {
    let U: TensorImpl;
    let Vh: TensorImpl;
    if (computeUv) {
      U = TensorImpl.empty(op, [...batchSizes, m, full ? m : k], A.dtype, A.device);
      results.push(U);
      Vh = TensorImpl.empty(op, [...batchSizes, full ? n : k, n], A.dtype, A.device);
      results.push(Vh);
    } else {
      U = TensorImpl.empty(op, [0], A.dtype, A.device);
      results.push(U);
      Vh = TensorImpl.empty(op, [0], A.dtype, A.device);
      results.push(Vh);
    }
    if (batch > 0 && m * n === 0) {
      // no matrix to decompose: the vectors are the identity's (full_matrices), or empty
      if (computeUv) for (const t of [U, Vh]) if (t.numel > 0) identityInto(b, op, t, batch, temps);
    } else if (batch > 0) {
      const s = S.view([batch, k], [k, 1], S.storageOffset);
      temps.push(s);
      const u = computeUv ? asBatched(U, batch) : null;
      const vh = computeUv ? asBatched(Vh, batch) : null;
      if (u) temps.push(u);
      if (vh) temps.push(vh);
      if (complex) {
        const copy = freshComplexCopy(b, op, A, A.sizes);
        temps.push(copy);
        const a = asBatched(copy, batch);
        temps.push(a);
        withParts([a, u, vh], ([ap, up, vp]) => implOf(b, 'svdComplex', op)(ap!, s, up, vp));
      } else {
        const a = TensorImpl.empty(op, [batch, m, n], A.dtype, A.device);
        temps.push(a);
        const dst = a.view([...A.sizes], A.sizes.map((_, i) => A.sizes.slice(i + 1).reduce((x, y) => x * y, 1)), 0);
        temps.push(dst);
        implOf(b, 'copy', op)(dst, A);
        implOf(b, 'svd', op)(a, s, u, vh);
      }
    }
    return [results[1], results[0], results[2]];
  } catch (e) {
    releaseAll(results);
    throw e;
  } finally {
    releaseAll(temps);
  }
}

/** `_linalg_svd` of a Tensor: [U, S, Vh]. */
export function svdTensors(A: Tensor, fullMatrices: boolean, computeUv: boolean, driver: string | null): Tensor[] {
  return callMulti(LINALG_SVD, [unwrapTensor('linalg.svd', 'A', A), fullMatrices, computeUv, driver]);
}

/**
 * linalg.svdvals: the S of `_linalg_svd`, with the vectors computed only where a gradient
 * may be asked for (PyTorch's _may_require_fw_or_bw_grad: svd_backward needs U and Vh).
 */
export function svdvalsOf(A: Tensor, driver: string | null = null): Tensor {
  const [U, S, Vh] = svdTensors(A, false, A.requiresGrad, driver);
  U.dispose();
  Vh.dispose();
  return S;
}

/**
 * Note [The determinant's derivative]
 * linalg.det is LU-based (linalg-front.ts), and differentiating it through lu_factor_ex gives
 * inf / NaN at an exactly singular matrix, where det is 0 but its derivative, the cofactor
 * matrix, is finite. PyTorch 1.13 gives det its own derivative, linalg_det_backward: the
 * solve det * A^-T, or where |det| < 100 eps the SVD formula U diag(prod_{j != i} s_j) Vh
 * (times det(U) det(Vh)), which stays finite and is right for every rank. torch-ts keeps
 * det's forward as it was, computed without a graph, and attaches that derivative with this
 * operator: `_linalg_det_attach(A, det)` returns det (a copy) and its derivative in A is
 * linalg_det_backward (autograd's derivatives/linalg-svd.ts); `det` itself has none (it was
 * computed from a detached A). The formula is written with ordinary ops, so it differentiates
 * again. That is PyTorch's create_graph path; its first-order path (no create_graph)
 * perturbs the LU factors instead, which gives 0, not the cofactors, at an exactly singular
 * matrix of rank n - 1 (1.13's own gradcheck of det fails there): torch-ts uses the one
 * formula for both, for real and complex A (a complex one where the device has a complex SVD:
 * elsewhere, WebGPU today, a complex det keeps the LU factors' derivative, inf / NaN at an
 * exactly singular A). At an exactly singular complex A the first derivative is exact but the
 * second is not (the complex SVD backward's diag(U^H gU) / (2 S) term meets S = 0; PyTorch
 * 1.13's gradgradcheck fails there too). slogdet and logdet keep the LU derivative: their gradient A^-T is
 * infinite at a singular matrix in PyTorch too.
 */
export const LINALG_DET_ATTACH = defineStructured('_linalg_det_attach(Tensor A, Tensor det) -> Tensor', ([A, det], b) => {
  const op = 'linalg.det';
  const out = TensorImpl.empty(op, [...det.sizes], det.dtype, det.device);
  if (out.numel > 0) {
    // (a complex det, which falls through the Complex key as the linalg primitives do, Note
    // [Complex linalg primitives], is copied as its parts: backends copy real dtypes)
    const parts = isComplexType(det.dtype) ? [complexParts(out), complexParts(det)] : null;
    try {
      implOf(b, 'copy', op)(parts ? parts[0] : out, parts ? parts[1] : det);
    } catch (e) {
      out.release();
      throw e;
    } finally {
      if (parts) releaseAll(parts);
    }
  }
  void A;
  return out;
});

/** det (computed from a detached A) with linalg_det_backward as its derivative in A (Note [The determinant's derivative]). */
export function attachDet(A: Tensor, det: Tensor): Tensor {
  return callFunctional(LINALG_DET_ATTACH, [unwrapTensor('linalg.det', 'A', A), unwrapTensor('linalg.det', 'det', det)]);
}
