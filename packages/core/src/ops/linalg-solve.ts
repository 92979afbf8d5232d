import { isComplexType, type DType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import { broadcastShapes } from '../iterator';
import { TensorImpl } from '../tensor/tensor-impl';
import { countsAreAsync } from './data-dependent';
import { broadcastTo, commonDevice, releaseAll, torchTypeName } from './meta-utils';
import { defineStructured, implOf, type Backend } from './registry';
import { conjugateInPlace, freshComplexCopy, withParts } from './linalg-complex-factor';

/**
 * Note [The linalg primitives]
 * torch.linalg's LU / Cholesky / triangular family rests on four operators, declared by
 * PyTorch's schemas as ATen declares them: linalg_lu_factor_ex, linalg_lu_solve,
 * linalg_solve_triangular and linalg_cholesky_ex. Everything else (inv, det, slogdet,
 * solve, lu, matrix_power, ...: linalg-front.ts) is composed of them and ordinary ops, so
 * their derivatives (autograd's derivatives/linalg-solve.ts, PyTorch's FunctionsManual
 * formulas) cover the composites too. Their meta here checks shapes and dtypes, broadcasts
 * the batch dims and hands the backend (LinalgImpls) fresh contiguous float32 / float64
 * tensors, one batch dim, nothing shared: the impl works in place on its first argument.
 * `left=False` is rewritten as the transposed problem (X A = B is A^T X^T = B^T), so the
 * impls only solve from the left. Pivots are int32 and 1-based, info int32, as PyTorch's.
 */

/** The dtypes the factorizations compute in (PyTorch: float, double; `complex`: and the complex dtypes, Note [Complex linalg primitives]). */
export function isLinalgDtype(d: DType, complex = false): boolean {
  return d === 'float32' || d === 'float64' || (complex && isComplexType(d));
}

/**
 * `"lu_cpu" not implemented for 'Half'`: the kernel dtype check of PyTorch's CPU kernels.
 * `computes`: whether the kernel runs. PyTorch's lu_factor_ex, lu_solve and cholesky_ex
 * return before dispatching on the dtype when there is nothing to compute, so an empty int
 * or float16 input gets empty results there rather than this error.
 */
export function checkKernelDtype(kernel: string, t: TensorImpl, computes: boolean, complex = false): void {
  if (computes && !isLinalgDtype(t.dtype, complex)) throw new DTypeError(`"${kernel}" not implemented for '${torchTypeName(t.dtype)}'`);
}

/**
 * PyTorch's checkFloatingOrComplex: `linalg.inv: Expected a floating point or complex tensor
 * as input. Got Long`; `lowPrecision=false` (inv, slogdet, logdet) also refuses float16 and
 * bfloat16 up front ("Low precision dtypes not supported. Got Half"), where the others let
 * them reach the kernel, which refuses them unless the input is empty.
 */
export function checkFloating(op: string, t: { readonly dtype: DType }, lowPrecision = true, complex = false): void {
  if (complex && isComplexType(t.dtype)) return;
  if (t.dtype !== 'float32' && t.dtype !== 'float64' && t.dtype !== 'float16' && t.dtype !== 'bfloat16') {
    throw new DTypeError(`${op}: Expected a floating point or complex tensor as input. Got ${torchTypeName(t.dtype)}`);
  }
  if (!lowPrecision && !isLinalgDtype(t.dtype)) throw new DTypeError(`${op}: Low precision dtypes not supported. Got ${torchTypeName(t.dtype)}`);
}

/** PyTorch's squareCheckInputs. */
export function checkSquare(op: string, sizes: readonly number[], name = 'A'): void {
  if (sizes.length < 2) throw new ShapeError(`${op}: The input tensor ${name} must have at least 2 dimensions.`);
  const m = sizes[sizes.length - 2];
  const n = sizes[sizes.length - 1];
  if (m !== n) throw new ShapeError(`${op}: ${name} must be batches of square matrices, but they are ${m} by ${n} matrices`);
}

export function checkAtLeast2d(op: string, sizes: readonly number[], name: string): void {
  if (sizes.length < 2) throw new ShapeError(`${op}: The input tensor ${name} must have at least 2 dimensions.`);
}

/** PyTorch's checkSameDtype: `linalg.solve: Expected A and B to have the same dtype, but found A of type Float and B of type Double instead`. */
export function checkSameDtype(op: string, a: { readonly dtype: DType }, b: { readonly dtype: DType }, an: string, bn: string): void {
  if (a.dtype !== b.dtype) {
    throw new DTypeError(`${op}: Expected ${an} and ${bn} to have the same dtype, but found ${an} of type ${torchTypeName(a.dtype)} and ${bn} of type ${torchTypeName(b.dtype)} instead`);
  }
}

/** PyTorch's linearSolveCheckInputs' shape check (the equation AX = B, or XA = B). */
export function checkSolveShapes(op: string, a: readonly number[], b: readonly number[], left: boolean): void {
  const n = a[a.length - 1];
  const [p, q] = b.slice(-2);
  if ((left ? p : q) !== n) {
    throw new ShapeError(`${op}: Incompatible shapes of A and B for the equation ${left ? 'AX = B' : 'XA = B'} (${a[a.length - 2]}x${n} and ${p}x${q})`);
  }
}

/** The impl tensors a failure must release: every tensor allocated so far. */
export function guarded<T>(temps: TensorImpl[], results: TensorImpl[], fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    releaseAll(results);
    throw e;
  } finally {
    releaseAll(temps);
  }
}

/** `t`'s last two dims swapped (a view). */
export function mT(t: TensorImpl): TensorImpl {
  const d = t.dim;
  const sizes = [...t.sizes];
  const strides = [...t.strides];
  [sizes[d - 2], sizes[d - 1]] = [sizes[d - 1], sizes[d - 2]];
  [strides[d - 2], strides[d - 1]] = [strides[d - 1], strides[d - 2]];
  return t.view(sizes, strides, t.storageOffset);
}

/** A fresh contiguous copy of `t` broadcast to `sizes`. */
export function freshCopy(b: Backend, op: string, t: TensorImpl, sizes: readonly number[]): TensorImpl {
  const out = TensorImpl.empty(op, [...sizes], t.dtype, t.device);
  if (out.numel === 0) return out;
  const src = broadcastTo(t, sizes);
  try {
    implOf(b, 'copy', op)(out, src);
  } catch (e) {
    out.release();
    throw e;
  } finally {
    src.release();
  }
  return out;
}

/**
 * Note [Checking info without a device read]
 * PyTorch's non-`_ex` functions read `info` and raise a LinAlgError naming the first batch
 * element whose factorization failed. A device that reads asynchronously (WebGPU) cannot
 * read info without a sync, which torch-ts never makes behind a call: there the check is
 * skipped and the results hold what the factorization produced (inf / NaN for a singular
 * input, a partial factor for one that is not positive-definite). Users who need the check
 * call the `_ex` form and read `info` (`await info.toArrayAsync()`).
 */
export function infoReadable(info: TensorImpl): boolean {
  return info.device.type !== 'meta' && !countsAreAsync(info.device);
}

/** PyTorch's LinAlgError (torch.linalg.LinAlgError): a factorization failed on the input's values. */
export class LinAlgError extends TorchError {}

/** The failing batch element and its info (first one), or null; `info` is readable. */
export function firstFailure(info: TensorImpl): { batch: number; info: number } | null {
  const raw = info.storage.typed(Int32Array);
  for (let i = 0; i < info.numel; i++) {
    const v = raw[info.storageOffset + i];
    if (v !== 0) return { batch: i, info: v };
  }
  return null;
}

/** The messages of PyTorch's _linalg_check_errors, by the kind of api. */
export type InfoKind = 'inv' | 'solve' | 'cholesky' | 'lu_factor';

/** Raises PyTorch's error for a nonzero info (CPU; Note [Checking info without a device read]). */
export function checkInfo(api: string, kind: InfoKind, info: TensorImpl): void {
  if (!infoReadable(info)) return;
  const f = firstFailure(info);
  if (f === null) return;
  const where = info.dim === 0 ? '' : `: (Batch element ${f.batch})`;
  const i = f.info;
  switch (kind) {
    case 'inv':
      throw new LinAlgError(`${api}${where}: The diagonal element ${i} is zero, the inversion could not be completed because the input matrix is singular.`);
    case 'solve':
      throw new LinAlgError(`${api}${where}: The solver failed because the input matrix is singular.`);
    case 'cholesky':
      throw new LinAlgError(
        `${api}${where}: The factorization could not be completed because the input is not positive-definite (the leading minor of order ${i} is not positive-definite).`,
      );
    case 'lu_factor':
      // (a RuntimeError in PyTorch, not a LinAlgError: TORCH_CHECK)
      throw new TorchError(
        `${api}${where}: U[${i},${i}] is zero and using it on lu_solve would result in a division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)`,
      );
  }
}

// ---- linalg_lu_factor_ex ----
export const LINALG_LU_FACTOR_EX = defineStructured(
  'linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> (Tensor LU, Tensor pivots, Tensor info)',
  ([A, pivot, checkErrors], b) => {
    const op = 'torch.linalg.lu_factor_ex';
    if (A.dim < 2) throw new ShapeError(`torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: ${fmtShape(A.sizes)} instead`);
    checkKernelDtype('lu_cpu', A, A.numel > 0, true);
    if (!pivot) throw new TorchError('linalg.lu_factor: LU without pivoting is not implemented on the CPU');
    const batch = A.sizes.slice(0, -2);
    const [m, n] = A.sizes.slice(-2);
    const complex = isComplexType(A.dtype);
    const LU = (complex ? freshComplexCopy : freshCopy)(b, op, A, A.sizes);
    const pivots = TensorImpl.empty(op, [...batch, Math.min(m, n)], 'int32', A.device);
    const info = TensorImpl.empty(op, batch, 'int32', A.device);
    return guarded([], [LU, pivots, info], () => {
      if (info.numel > 0) implOf(b, 'fill', op)(info, 0);
      if (LU.numel > 0 && complex) withParts([LU], ([p]) => implOf(b, 'luFactorComplex', op)(p!, pivots, info));
      else if (LU.numel > 0) implOf(b, 'luFactor', op)(LU, pivots, info);
      if (checkErrors) checkInfo('torch.linalg.lu_factor_ex', 'lu_factor', info);
      return [LU, pivots, info];
    });
  },
);

// ---- linalg_lu_solve ----
export const LINALG_LU_SOLVE = defineStructured(
  'linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) -> Tensor',
  ([LU, pivots, B, left, adjoint], b) => {
    const op = 'linalg.lu_solve';
    // (1.13's order and wording, torch. prefix included where it has one)
    checkFloating(`torch.${op}`, LU, true, true);
    checkSameDtype(op, LU, B, 'LU', 'B');
    if (pivots.dtype !== 'int32') throw new DTypeError(`${op}: pivots should be a Tensor of scalar type torch.int32`);
    checkSquare(`torch.${op}`, LU.sizes);
    checkAtLeast2d(op, B.sizes, 'B');
    checkSolveShapes(op, LU.sizes, B.sizes, left);
    const n = LU.sizes[LU.dim - 1];
    if (pivots.dim < 1 || pivots.sizes[pivots.dim - 1] !== n) throw new ShapeError(`${op}: Number of pivots per batch should be same as the dimension of the matrix`);
    commonDevice(op, [LU, pivots, B]);
    const batch = broadcastShapes(op, broadcastShapes(op, LU.sizes.slice(0, -2), pivots.sizes.slice(0, -1)), B.sizes.slice(0, -2));
    const k = B.sizes[B.dim - (left ? 1 : 2)];
    checkKernelDtype('linalg.lu_solve_cpu', LU, batch.reduce((a, s) => a * s, n * k) > 0, true);
    const complex = isComplexType(LU.dtype);
    const copyOf = complex ? freshComplexCopy : freshCopy;
    const Bl = left ? B.retain() : mT(B);
    const temps: TensorImpl[] = [Bl];
    const X = copyOf(b, op, Bl, [...batch, n, k]);
    return guarded(temps, [X], () => {
      if (X.numel > 0) {
        const lu = copyOf(b, op, LU, [...batch, n, n]);
        temps.push(lu);
        const piv = freshCopy(b, op, pivots, [...batch, n]);
        temps.push(piv);
        if (!complex) implOf(b, 'luSolve', op)(X, lu, piv, left ? adjoint : !adjoint);
        else if (left) withParts([X, lu], ([x, a]) => implOf(b, 'luSolveComplex', op)(x!, a!, piv, adjoint));
        else {
          // X A = B is A^T X^T = B^T, and X A^H = B is (A^H)^T X^T = B^T, A^T = conj(A^H): a
          // transposed solve is an adjoint solve of the conjugated right-hand side, conjugated back
          conjugateInPlace(b, op, X);
          withParts([X, lu], ([x, a]) => implOf(b, 'luSolveComplex', op)(x!, a!, piv, !adjoint));
          conjugateInPlace(b, op, X);
        }
      }
      if (left) return X;
      const r = mT(X);
      X.release();
      return r;
    });
  },
);

// ---- linalg_solve_triangular ----
export const LINALG_SOLVE_TRIANGULAR = defineStructured(
  'linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, bool unitriangular=False) -> Tensor',
  ([A, B, upper, left, unitriangular], b) => {
    const op = 'linalg.solve_triangular';
    checkAtLeast2d(op, A.sizes, 'A');
    checkAtLeast2d(op, B.sizes, 'B');
    checkSquare(op, A.sizes);
    checkSolveShapes(op, A.sizes, B.sizes, left);
    checkSameDtype(op, A, B, 'A', 'B');
    // (1.13 dispatches solve_triangular on the dtype before its empty check: it refuses an empty float16 A)
    checkKernelDtype('triangular_solve_cpu', A, true, true);
    commonDevice(op, [A, B]);
    const copyOf = isComplexType(A.dtype) ? freshComplexCopy : freshCopy;
    const n = A.sizes[A.dim - 1];
    const batch = broadcastShapes(op, A.sizes.slice(0, -2), B.sizes.slice(0, -2));
    const Bl = left ? B.retain() : mT(B);
    const Al = left ? A.retain() : mT(A);
    const k = Bl.sizes[Bl.dim - 1];
    const temps: TensorImpl[] = [Bl, Al];
    const X = copyOf(b, op, Bl, [...batch, n, k]);
    return guarded(temps, [X], () => {
      if (X.numel > 0) {
        const a = copyOf(b, op, Al, [...batch, n, n]);
        temps.push(a);
        // X A = B is A^T X^T = B^T: A^T's triangle is the other one
        if (copyOf === freshCopy) implOf(b, 'solveTriangular', op)(X, a, left ? upper : !upper, unitriangular);
        else withParts([X, a], ([x, t]) => implOf(b, 'solveTriangularComplex', op)(x!, t!, left ? upper : !upper, unitriangular));
      }
      if (left) return X;
      const r = mT(X);
      X.release();
      return r;
    });
  },
);

// ---- linalg_cholesky_ex ----
export const LINALG_CHOLESKY_EX = defineStructured(
  'linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor info)',
  ([A, upper, checkErrors], b) => {
    const op = 'linalg.cholesky';
    checkSquare(op, A.sizes);
    checkFloating(op, A, true, true);
    checkKernelDtype('cholesky_cpu', A, A.numel > 0, true);
    const batch = A.sizes.slice(0, -2);
    const complex = isComplexType(A.dtype);
    const L = (complex ? freshComplexCopy : freshCopy)(b, op, A, A.sizes);
    const info = TensorImpl.empty(op, batch, 'int32', A.device);
    const results = [L, info];
    return guarded([], results, () => {
      if (info.numel > 0) implOf(b, 'fill', op)(info, 0);
      if (L.numel > 0 && complex) withParts([L], ([p]) => implOf(b, 'choleskyComplex', op)(p!, info));
      else if (L.numel > 0) implOf(b, 'cholesky', op)(L, info);
      if (checkErrors) checkInfo(op, 'cholesky', info);
      if (!upper || L.numel === 0) return [L, info];
      // U = L^H, contiguous as PyTorch's
      const lt = mT(L);
      try {
        const U = (complex ? freshComplexCopy : freshCopy)(b, op, lt, lt.sizes);
        results.push(U);
        if (complex) conjugateInPlace(b, op, U);
        L.release();
        results.splice(0, 1);
        return [U, info];
      } finally {
        lt.release();
      }
    });
  },
);
