import { isComplexType, toRealValueType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import { broadcastShapes } from '../iterator';
import { TensorImpl } from '../tensor/tensor-impl';
import { contiguousStrides } from '../views';
import { UNINITIALIZED, castTo, commonDevice, torchTypeName } from './meta-utils';
import { LinAlgError, checkFloating, checkKernelDtype, checkSquare, firstFailure, freshCopy, guarded, infoReadable, isLinalgDtype } from './linalg-solve';
import { MATRIX_EXP_WORK, lstsqWorkSize } from './linalg-qr-impls';
import { svdOf } from './linalg-svd';
import { defineStructured, implOf, type Backend } from './registry';
import { freshComplexCopy, withParts } from './linalg-complex-factor';
import { complexParts } from '../tensor/host-data';

/**
 * Note [The QR, eigh, lstsq and matrix_exp primitives]
 * torch.linalg part 2a rests on six operators with PyTorch's schemas: geqrf and
 * linalg_householder_product (LAPACK's geqrf / orgqr), linalg_qr (composed of the two in
 * its kernel, as ATen's, so that its derivative is linalg_qr_backward rather than geqrf's,
 * which PyTorch does not have), _linalg_eigh (what linalg.eigh and eigvalsh call),
 * linalg_lstsq and linalg_matrix_exp. Their metas check shapes and dtypes in PyTorch 1.13's
 * order and words and hand the backend (LinalgQrImpls) fresh contiguous tensors, as the LU
 * family's (Note [The linalg primitives]). The kernels follow LAPACK's conventions, so Q and
 * R equal PyTorch's up to rounding, signs included. Eigenvectors are unique only up to sign
 * (up to a rotation for a repeated eigenvalue) in LAPACK too: the tests compare them up to a
 * per-column sign, and through V diag(w) V^T = A, as PyTorch's own tests do.
 */

/** `t` narrowed to its first `rows` x `cols` of the last two dims (a view). */
function topLeft(t: TensorImpl, rows: number, cols: number): TensorImpl {
  const sizes = [...t.sizes];
  sizes[sizes.length - 2] = rows;
  sizes[sizes.length - 1] = cols;
  return t.view(sizes, [...t.strides], t.storageOffset);
}

/** A fresh contiguous copy (of `sizes`) of `t`, complex or real. */
function freshOf(b: Backend, op: string, t: TensorImpl, sizes: readonly number[]): TensorImpl {
  return (isComplexType(t.dtype) ? freshComplexCopy : freshCopy)(b, op, t, sizes);
}

/** A fresh contiguous copy of the first `rows` x `cols` of `t`. */
function topLeftCopy(b: Backend, op: string, t: TensorImpl, rows: number, cols: number): TensorImpl {
  const v = topLeft(t, rows, cols);
  try {
    return freshOf(b, op, v, v.sizes);
  } finally {
    v.release();
  }
}

/**
 * The taus householderProduct is given: a fresh copy, or for k = 0 one zero tau (H = I,
 * whatever its v), so that no backend binds an empty buffer and the product is I's columns.
 */
function nonEmptyTaus(b: Backend, op: string, tau: TensorImpl): TensorImpl {
  if (tau.sizes[tau.dim - 1] > 0) return freshOf(b, op, tau, tau.sizes);
  const t = TensorImpl.empty(op, [...tau.sizes.slice(0, -1), 1], tau.dtype, tau.device);
  if (t.numel > 0) withMaybeParts([t], ([p]) => implOf(b, 'fill', op)(p, 0));
  return t;
}

/** Runs `fn` on the tensors, or on their parts' views where they are complex (Note [Complex linalg primitives]). */
function withMaybeParts<T>(ts: TensorImpl[], fn: (ts: TensorImpl[]) => T): T {
  if (!isComplexType(ts[0].dtype)) return fn(ts);
  return withParts(ts, (ps) => fn(ps as TensorImpl[]));
}

/** geqrf's impl (the complex one on the parts) on fresh contiguous QR and tau. */
function runGeqrf(b: Backend, op: string, QR: TensorImpl, tau: TensorImpl): void {
  if (QR.numel === 0) return;
  if (isComplexType(QR.dtype)) withParts([QR, tau], ([q, t]) => implOf(b, 'geqrfComplex', op)(q!, t!));
  else implOf(b, 'geqrf', op)(QR, tau);
}

/** householderProduct's impl (the complex one on the parts) on a fresh contiguous Q and taus. */
function runHouseholder(b: Backend, op: string, Q: TensorImpl, tau: TensorImpl): void {
  if (Q.numel === 0) return;
  const t = nonEmptyTaus(b, op, tau);
  try {
    if (isComplexType(Q.dtype)) withParts([Q, t], ([q, tt]) => implOf(b, 'householderProductComplex', op)(q!, tt!));
    else implOf(b, 'householderProduct', op)(Q, t);
  } finally {
    t.release();
  }
}

function zeroBelowDiagonal(b: Backend, op: string, t: TensorImpl): void {
  if (t.numel === 0) return;
  if (!isComplexType(t.dtype)) {
    implOf(b, 'triZero', op)(t, true, 0);
    return;
  }
  // (the parts [.., r, n, 2] seen as two real planes [.., 2, r, n]: triZero takes any layout)
  const p = complexParts(t);
  const d = p.dim;
  const plane = p.view([...p.sizes.slice(0, -3), 2, p.sizes[d - 3], p.sizes[d - 2]], [...p.strides.slice(0, -3), p.strides[d - 1], p.strides[d - 3], p.strides[d - 2]], p.storageOffset);
  try {
    implOf(b, 'triZero', op)(plane, true, 0);
  } finally {
    plane.release();
    p.release();
  }
}

// ---- geqrf ----
export const GEQRF = defineStructured('geqrf(Tensor self) -> (Tensor a, Tensor tau)', ([A], b) => {
  const op = 'geqrf';
  if (A.dim < 2) throw new ShapeError('torch.geqrf: input must have at least 2 dimensions.');
  checkKernelDtype('geqrf_cpu', A, true, true);
  const [m, n] = A.sizes.slice(-2);
  const QR = freshOf(b, op, A, A.sizes);
  const tau = TensorImpl.empty(op, [...A.sizes.slice(0, -2), Math.min(m, n)], A.dtype, A.device);
  return guarded([], [QR, tau], () => {
    runGeqrf(b, op, QR, tau);
    return [QR, tau];
  });
});

// ---- linalg_householder_product ----
export const LINALG_HOUSEHOLDER_PRODUCT = defineStructured('linalg_householder_product(Tensor input, Tensor tau) -> Tensor', ([A, tau], b) => {
  const op = 'torch.linalg.householder_product';
  if (A.dim < 2) throw new ShapeError(`${op}: input must have at least 2 dimensions.`);
  const [m, n] = A.sizes.slice(-2);
  if (m < n) throw new ShapeError(`${op}: input.shape[-2] must be greater than or equal to input.shape[-1]`);
  if (n < tau.sizes[tau.dim - 1]) throw new ShapeError(`${op}: input.shape[-1] must be greater than or equal to tau.shape[-1]`);
  if (A.dim - tau.dim !== 1) {
    throw new ShapeError(`${op}: Expected tau to have one dimension less than input, but got tau.ndim equal to ${tau.dim} and input.ndim is equal to ${A.dim}`);
  }
  const batch = A.sizes.slice(0, -2);
  const tauBatch = tau.sizes.slice(0, -1);
  if (A.dim > 2 && (tauBatch.length !== batch.length || tauBatch.some((s, i) => s !== batch[i]))) {
    throw new ShapeError(`${op}: Expected batch dimensions of tau to be equal to input.shape[:-2], but got ${fmtShape(tauBatch)}`);
  }
  if (tau.dtype !== A.dtype) throw new DTypeError(`${op}: tau dtype ${torchTypeName(tau.dtype)} does not match input dtype ${torchTypeName(A.dtype)}`);
  commonDevice(op, [A, tau]);
  checkKernelDtype('orgqr_cpu', A, true, true);
  const Q = freshOf(b, op, A, A.sizes);
  return guarded([], [Q], () => {
    runHouseholder(b, op, Q, tau);
    return Q;
  });
});

// ---- linalg_qr ----
const QR_MODES = ['reduced', 'complete', 'r'];

export const LINALG_QR = defineStructured("linalg_qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)", ([A, mode], b) => {
  const op = 'linalg.qr';
  if (A.dim < 2) throw new ShapeError(`${op}: The input tensor A must have at least 2 dimensions.`);
  checkFloating(op, A, true, true);
  if (!QR_MODES.includes(mode)) throw new TorchError(`qr received unrecognized mode '${mode}' but expected one of 'reduced' (default), 'r', or 'complete'`);
  checkKernelDtype('geqrf_cpu', A, true, true);
  const batch = A.sizes.slice(0, -2);
  const [m, n] = A.sizes.slice(-2);
  const k = Math.min(m, n);
  const reduced = mode !== 'complete';
  const QR = freshOf(b, op, A, A.sizes);
  const tau = TensorImpl.empty(op, [...batch, k], A.dtype, A.device);
  const temps = [QR, tau];
  const results: TensorImpl[] = [];
  return guarded(temps, results, () => {
    runGeqrf(b, op, QR, tau);
    const R = topLeftCopy(b, op, QR, reduced ? k : m, n);
    results.push(R);
    zeroBelowDiagonal(b, op, R);
    if (mode === 'r') {
      const Q = TensorImpl.empty(op, [0], A.dtype, A.device);
      results.unshift(Q);
      return [Q, R];
    }
    const qCols = reduced ? k : m;
    let Q: TensorImpl;
    if (qCols <= n) Q = topLeftCopy(b, op, QR, m, qCols);
    else {
      // (complete, m > n: the reflectors fill the first n columns, orgqr sets the others)
      Q = TensorImpl.empty(op, [...batch, m, m], A.dtype, A.device);
      const head = topLeft(Q, m, n);
      try {
        if (head.numel > 0) withMaybeParts([head, QR], ([h, q]) => implOf(b, 'copy', op)(h, q));
      } finally {
        head.release();
      }
    }
    results.unshift(Q);
    runHouseholder(b, op, Q, tau);
    return [Q, R];
  });
});

// ---- _linalg_eigh ----
export const LINALG_EIGH = defineStructured('_linalg_eigh(Tensor A, str UPLO="L", bool compute_v=True) -> (Tensor eigenvalues, Tensor eigenvectors)', ([A, uplo, computeV], b) => {
  const op = 'linalg.eigh';
  checkSquare(op, A.sizes);
  if (uplo.length !== 1 || (uplo.toUpperCase() !== 'L' && uplo.toUpperCase() !== 'U')) throw new TorchError(`Expected UPLO argument to be 'L' or 'U', but got ${uplo}`);
  checkKernelDtype('linalg_eigh_cpu', A, A.numel > 0, true);
  const complex = isComplexType(A.dtype);
  const V = (complex ? freshComplexCopy : freshCopy)(b, op, A, A.sizes);
  // (the eigenvalues of a Hermitian matrix are real: the real dtype of a complex A)
  const w = TensorImpl.empty(op, [...A.sizes.slice(0, -1)], toRealValueType(A.dtype), A.device);
  const results = [w, V];
  return guarded([], results, () => {
    if (V.numel > 0 && complex) {
      withParts([V], ([p]) => implOf(b, 'eighComplex', op)(p!, w, uplo.toUpperCase() === 'U'));
    } else if (V.numel > 0) {
      const work = TensorImpl.empty(op, A.sizes, A.dtype, A.device);
      try {
        implOf(b, 'eigh', op)(V, w, uplo.toUpperCase() === 'U', work);
      } finally {
        work.release();
      }
    }
    if (computeV) return [w, V];
    V.release();
    results.pop();
    const none = TensorImpl.empty(op, [0], A.dtype, A.device);
    results.push(none);
    return [w, none];
  });
});

// ---- linalg_lstsq ----
const LSTSQ_DRIVERS = ['gels', 'gelsy', 'gelsd', 'gelss'];

/** PyTorch's linalg_solve_is_vector_rhs for lstsq: b has one dim less than A. */
export function lstsqIsVector(aDim: number, bDim: number): boolean {
  return aDim - bDim === 1;
}

export const LINALG_LSTSQ = defineStructured(
  'linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None) -> (Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)',
  ([A, B, rcond, driverArg], b) => {
    const op = 'torch.linalg.lstsq';
    if (A.dim < 2) throw new ShapeError(`${op}: input must have at least 2 dimensions.`);
    if (B.dim < 1) throw new ShapeError(`${op}: other must have at least 1 dimension.`);
    if (A.dtype !== B.dtype) {
      throw new DTypeError(`${op}: Expected input and other to have the same dtype, but got input's dtype ${torchTypeName(A.dtype)} and other's dtype ${torchTypeName(B.dtype)}`);
    }
    const diff = A.dim - B.dim;
    if (diff < 0 || diff > 1) throw new ShapeError(`${op}: input.dim() must be greater or equal to other.dim() and (input.dim() - other.dim()) <= 1`);
    const vector = lstsqIsVector(A.dim, B.dim);
    const [m, n] = A.sizes.slice(-2);
    const bRows = vector ? B.sizes[B.dim - 1] : B.sizes[B.dim - 2];
    if (m !== bRows) throw new ShapeError(`${op}: input.size(-2) should match other.size(${vector ? -1 : -2})`);
    commonDevice(op, [A, B]);
    const driver = driverArg == null ? 'gelsy' : driverArg.toLowerCase();
    if (!LSTSQ_DRIVERS.includes(driver)) throw new TorchError(`${op}: parameter \`driver\` should be one of (gels, gelsy, gelsd, gelss)`);
    if (!isLinalgDtype(A.dtype, true)) throw new DTypeError("This function doesn't handle types other than float and double");
    // complex: the kernels on the parts (Note [CPU complex lstsq and matrix_exp]); the
    // residuals and singular values are real, as 1.13's
    const complex = isComplexType(A.dtype);
    const realType = complex ? toRealValueType(A.dtype) : A.dtype;
    const k = vector ? 1 : B.sizes[B.dim - 1];
    const batch = broadcastShapes(op, A.sizes.slice(0, -2), B.sizes.slice(0, vector ? -1 : -2));
    const rows = Math.max(m, n);
    const dev = A.device;
    const X = TensorImpl.empty(op, [...batch, rows, k], A.dtype, dev);
    const results: TensorImpl[] = [X];
    const temps: TensorImpl[] = [];
    return guarded(temps, results, () => {
      const pivot = driver === 'gelsy';
      const bySvd = driver === 'gelsd' || driver === 'gelss';
      const nb = batch.reduce((p, s) => p * s, 1);
      const rankI = TensorImpl.empty(op, batch, 'int32', dev);
      temps.push(rankI);
      const info = TensorImpl.empty(op, batch, 'int32', dev);
      temps.push(info);
      if (nb > 0) {
        implOf(b, 'fill', op)(rankI, 0);
        implOf(b, 'fill', op)(info, 0);
      }
      const rc = rcond ?? (realType === 'float32' ? 2 ** -23 : 2 ** -52) * Math.max(m, n);
      let sv: TensorImpl;
      let uv: TensorImpl[] = [];
      if (bySvd) {
        // (A's own batch: the singular values and the rank have A's batch shape, as 1.13's)
        const [U, S, Vh] = svdOf(b, op, A, false, true);
        uv = [U, Vh];
        temps.push(U, Vh);
        sv = S;
      } else sv = TensorImpl.empty(op, [0], realType, dev);
      results.push(sv);
      if (X.numel > 0) {
        withMaybeParts([X], ([x]) => implOf(b, 'fill', op)(x, 0));
        const Bm = vector ? B.view([...B.sizes, 1], [...B.strides, 1], B.storageOffset) : B.retain();
        temps.push(Bm);
        const head = topLeft(X, m, k);
        temps.push(head);
        // (gels leaves X zero for an empty A, gelsd and gelss keep B: their residuals)
        if (head.numel > 0 && (m * n > 0 || bySvd)) {
          const src = freshOf(b, op, Bm, [...batch, m, k]);
          temps.push(src);
          withMaybeParts([head, src], ([h, sr]) => implOf(b, 'copy', op)(h, sr));
        }
        if (m * n > 0 && !bySvd) {
          const a = freshOf(b, op, A, [...batch, m, n]);
          temps.push(a);
          if (complex) withParts([a, X], ([ap, xp]) => implOf(b, 'lstsqComplex', op)(ap!, xp!, rankI, info, pivot, rc));
          else {
            const work = TensorImpl.empty(op, [...batch, lstsqWorkSize(m, n, k)], A.dtype, dev, UNINITIALIZED);
            temps.push(work);
            implOf(b, 'lstsq', op)(a, X, rankI, info, pivot, rc, work);
          }
        }
      }
      if (bySvd && nb > 0 && m * n > 0) solveBySvd(b, op, temps, X, rankI, uv[0], sv, uv[1], driver, rc, batch, m, n);
      if (!pivot && !bySvd && infoReadable(info)) {
        const f = firstFailure(info);
        if (f !== null) {
          throw new LinAlgError(
            `${op}${info.dim === 0 ? '' : `: (Batch element ${f.batch})`}: The least squares solution could not be computed because the input matrix does not have full rank (error code: ${f.info}).`,
          );
        }
      }
      const aBatch = A.sizes.slice(0, -2);
      // residuals (m > n; empty otherwise, as 1.13): gels', the squares of Q^T B's rows past n;
      // the SVD drivers', only where every matrix has rank n (Note [lstsq by the SVD])
      let residuals: TensorImpl;
      if (m > n && !pivot && (!bySvd || !infoReadable(rankI) || allOfRank(rankI, n))) {
        if (complex && m * n === 0) {
          // (no kernel ran: |X|^2 summed over the rows n..m of X, B's or gels' zeros)
          const parts = complexParts(X);
          temps.push(parts);
          const tail = parts.view([...batch, m - n, k, 2], [...parts.strides], parts.storageOffset + 2 * n * k);
          temps.push(tail);
          residuals = sumOfSquaresOverRows(b, op, tail, [...batch, k], [tail.dim - 3, tail.dim - 1]);
        } else if (complex) {
          // (the kernels' row n: the residuals in its real parts)
          const parts = complexParts(X);
          temps.push(parts);
          const row = parts.view([...batch, k], [...parts.strides.slice(0, -3), parts.strides[parts.dim - 2]], parts.storageOffset + 2 * n * k);
          temps.push(row);
          residuals = freshCopy(b, op, row, row.sizes);
        } else if (bySvd && n > 0) {
          const row = X.view([...batch, k], [...X.strides.slice(0, -2), 1], X.storageOffset + n * k);
          temps.push(row);
          residuals = freshCopy(b, op, row, row.sizes);
        } else {
          const tail = X.view([...batch, m - n, k], [...X.strides], X.storageOffset + n * k);
          temps.push(tail);
          residuals = sumOfSquaresOverRows(b, op, tail, [...batch, k]);
        }
      } else residuals = TensorImpl.empty(op, [0], realType, dev);
      results.push(residuals);
      let rank: TensorImpl;
      if (!pivot && !bySvd) rank = TensorImpl.empty(op, [0], 'int64', dev);
      else if (nb === 0) {
        rank = TensorImpl.empty(op, aBatch, 'int64', dev);
        if (rank.numel > 0) implOf(b, 'fill', op)(rank, 0);
      } else {
        const ofA = ofBatch(rankI, batch, aBatch);
        temps.push(ofA);
        rank = castTo(b, op, ofA, 'int64', dev);
      }
      results.push(rank);
      const solutionView = X.view(vector ? [...batch, n] : [...batch, n, k], vector ? [...X.strides.slice(0, -2), k] : [...X.strides], X.storageOffset);
      const solution = freshOf(b, op, solutionView, solutionView.sizes);
      solutionView.release();
      X.release();
      results[0] = solution;
      return [solution, residuals, rank, sv];
    });
  },
);

/**
 * The first element, along the dims that A's batch broadcast to, of the contiguous `t` of
 * the broadcast batch shape: `t` as A's batch shape (a view).
 */
function ofBatch(t: TensorImpl, batch: readonly number[], aBatch: readonly number[]): TensorImpl {
  const strides = contiguousStrides([...batch]);
  const lead = batch.length - aBatch.length;
  return t.view([...aBatch], aBatch.map((s, i) => (s === 1 ? 0 : strides[lead + i])), t.storageOffset);
}

/** Whether every rank (int32, readable) equals n. */
function allOfRank(rank: TensorImpl, n: number): boolean {
  const raw = rank.storage.typed(Int32Array);
  for (let i = 0; i < rank.numel; i++) if (raw[rank.storageOffset + i] !== n) return false;
  return true;
}

/**
 * Note [lstsq by the SVD]
 * 'gelsd' and 'gelss' solve from A's SVD as LAPACK's do (PyTorch's CPU calls them): the
 * singular values above a threshold are kept, the solution is V diag(1/s_kept) U^T B (the
 * minimum-norm one) and `rank` their count. LAPACK's thresholds differ in their edges, and
 * core hands the kernel (lstsqSvd) the resolved rcond and floor: gelsd's dlalsd keeps s >
 * rcond * s_max, with rcond <= 0 or >= 1 replaced by the dtype's eps (dlamch('E'), half the
 * machine epsilon); gelss keeps s > max(rcond * s_max, safe minimum), with a negative rcond
 * replaced by the machine epsilon (dlamch('P')). The singular values are the SVD's (A's
 * batch shape, as 1.13's, which decomposes each matrix of A once whatever B broadcasts to).
 * 1.13 fills `residuals` (m > n) only when every matrix has rank n, from LAPACK's rows n..m
 * of U^T B; the kernel computes the same number, |B - U_kept U_kept^T B|^2 per column. The
 * ranks are read on the host for that, as 1.13 does: where they cannot be read synchronously
 * (WebGPU) the residuals are always computed for m > n.
 */
function solveBySvd(
  b: Backend,
  op: string,
  temps: TensorImpl[],
  X: TensorImpl,
  rankI: TensorImpl,
  U: TensorImpl,
  S: TensorImpl,
  Vh: TensorImpl,
  driver: string,
  rc: number,
  batch: number[],
  m: number,
  n: number,
): void {
  const f32 = S.dtype === 'float32';
  const kk = Math.min(m, n);
  let rcond: number;
  let floor: number;
  if (driver === 'gelsd') {
    rcond = rc <= 0 || rc >= 1 ? (f32 ? 2 ** -24 : 2 ** -53) : rc;
    floor = 0;
  } else {
    rcond = rc < 0 ? (f32 ? 2 ** -23 : 2 ** -52) : rc;
    floor = f32 ? 2 ** -126 : 2 ** -1022;
  }
  const u = freshOf(b, op, U, [...batch, m, kk]);
  temps.push(u);
  const s = freshCopy(b, op, S, [...batch, kk]);
  temps.push(s);
  const vh = freshOf(b, op, Vh, [...batch, kk, n]);
  temps.push(vh);
  // (no right-hand side: the rank still counts; a zero column stands in)
  let x = X;
  if (X.numel === 0) {
    x = TensorImpl.empty(op, [...batch, Math.max(m, n), 1], X.dtype, X.device);
    temps.push(x);
    withMaybeParts([x], ([p]) => implOf(b, 'fill', op)(p, 0));
  }
  const k = x.sizes[x.dim - 1];
  if (isComplexType(x.dtype)) {
    withParts([u, vh, x], ([up, vp, xp]) => implOf(b, 'lstsqSvdComplex', op)(up!, s, vp!, xp!, rankI, rcond, floor));
    return;
  }
  const work = TensorImpl.empty(op, [...batch, kk * k], X.dtype, X.device, UNINITIALIZED);
  temps.push(work);
  implOf(b, 'lstsqSvd', op)(u, s, vh, x, rankI, rcond, floor, work);
}

/**
 * sum(t^2) over `dims` (default the rows, -2) into a fresh tensor of `sizes` (t: [..., r, k],
 * or a complex tensor's parts [..., r, k, 2] summed over the rows and the parts: |z|^2).
 */
function sumOfSquaresOverRows(b: Backend, op: string, t: TensorImpl, sizes: number[], dims: number[] = [t.dim - 2]): TensorImpl {
  const sq = TensorImpl.empty(op, t.sizes, t.dtype, t.device);
  const keep = TensorImpl.empty(op, t.sizes.map((s, i) => (dims.includes(i) ? 1 : s)), t.dtype, t.device);
  try {
    if (sq.numel > 0) {
      implOf(b, 'mul', op)(sq, t, t);
      implOf(b, 'sum', op)(keep, sq, dims);
    }
    return keep.view(sizes, contiguousStrides(sizes), 0);
  } finally {
    sq.release();
    keep.release();
  }
}

// ---- linalg_matrix_exp ----
export const LINALG_MATRIX_EXP = defineStructured('linalg_matrix_exp(Tensor self) -> Tensor', ([A], b) => {
  const op = 'linalg.matrix_exp';
  checkSquare(op, A.sizes);
  checkFloating('matrix_exp', A, true, true);
  const out = TensorImpl.empty(op, A.sizes, A.dtype, A.device);
  return guarded([], [out], () => {
    if (out.numel === 0) return out;
    if (isComplexType(A.dtype)) {
      // (Note [CPU complex lstsq and matrix_exp]: the complex matrix's own mexp)
      const contiguous = freshComplexCopy(b, op, A, A.sizes);
      try {
        withParts([out, contiguous], ([o, a]) => implOf(b, 'matrixExpComplex', op)(o!, a!));
      } finally {
        contiguous.release();
      }
      return out;
    }
    // 16-bit floats are exponentiated in float32 and rounded once (1.13 computes bfloat16 in
    // bfloat16 with float64's thresholds, overflowing where float32 does not, and fails
    // float16 at log2): float32's thresholds, as ATen's for float32
    const wide = isLinalgDtype(A.dtype) ? A.dtype : 'float32';
    const a = castTo(b, op, A, wide, A.device);
    const temps = [a];
    try {
      const contiguous = freshCopy(b, op, a, a.sizes);
      temps.push(contiguous);
      const r = wide === A.dtype ? out : TensorImpl.empty(op, A.sizes, wide, A.device);
      if (r !== out) temps.push(r);
      const n = A.sizes[A.dim - 1];
      const work = TensorImpl.empty(op, [...A.sizes.slice(0, -2), MATRIX_EXP_WORK, n, n], wide, A.device);
      temps.push(work);
      implOf(b, 'matrixExp', op)(r, contiguous, work);
      if (r !== out) implOf(b, 'copy', op)(out, r);
    } finally {
      for (const t of temps) t.release();
    }
    return out;
  });
});
