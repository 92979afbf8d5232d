/**
 * The complex factorization rows of goldens/linalg_complex.json (scripts/goldens/linalg_complex.py):
 * what each row computes from its inputs. linalg-complex.test.ts runs them on the CPU and
 * linalg-complex-webgpu.test.ts on WebGPU.
 */
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

const L = torch.linalg;

/** A tensor in a goldens file: its shape and its values (complex as (re, im) pairs). */
export interface Pairs {
  shape: number[];
  values: number[];
}

/** A case of goldens/linalg_complex_qr.json (scripts/goldens/linalg_complex_qr.py), read by the CPU and WebGPU tests. */
export interface QrCase {
  id: string;
  dtype: 'complex64' | 'complex128';
  cond: number;
  A: Pairs;
  geqrf: [Pairs, Pairs];
  reduced: [Pairs, Pairs];
  complete: [Pairs, Pairs];
  r: [Pairs, Pairs];
  householder: Pairs | null;
}

export const lu = (a: Tensor): [Tensor, Tensor] => {
  const r = L.luFactor(a);
  return [r.LU, r.pivots];
};
export const FACTOR: Record<string, (...xs: Tensor[]) => Tensor[]> = {
  cholesky: (a) => [L.cholesky(a)],
  'cholesky batched': (a) => [L.cholesky(a)],
  'cholesky upper': (a) => [L.cholesky(a, { upper: true })],
  'lu square': (a) => [...L.lu(a)],
  'lu wide': (a) => [...L.lu(a)],
  'lu tall': (a) => [...L.lu(a)],
  'lu_factor batched': (a) => [...lu(a)],
  lu_solve: (a, b) => [L.luSolve(...lu(a), b)],
  'lu_solve adjoint': (a, b) => [L.luSolve(...lu(a), b, { adjoint: true })],
  'lu_solve left=False': (a, b) => [L.luSolve(...lu(a), b.mT, { left: false })],
  'lu_solve left=False adjoint': (a, b) => [L.luSolve(...lu(a), b.mT, { left: false, adjoint: true })],
  'solve_triangular upper': (a, b) => [L.solveTriangular(a, b, { upper: true })],
  'solve_triangular lower left=False unitriangular': (a, b) => [L.solveTriangular(a.mH, b.mT, { upper: false, left: false, unitriangular: true })],
  det: (a) => [L.det(a)],
  'det batched': (a) => [L.det(a)],
  slogdet: (a) => [...L.slogdet(a)],
  logdet: (a) => [torch.logdet(a)],
  eigvalsh: (a) => [L.eigvalsh(a)],
  'eigvalsh U': (a) => [L.eigvalsh(a, 'U')],
  'eigh invariant': (a) => {
    const [w, V] = L.eigh(a);
    return [torch.matmul(torch.mul(V, torch.exp(torch.div(w, 10)).unsqueeze(-2)), V.mH)];
  },
  eigh: (a) => [L.eigh(a)[0]],
};

/** The largest magnitude of `v`, at least 1 (tolerances scale with it). */
export const scaleOf = (v: number[]): number => Math.max(1, ...v.map(Math.abs));

/** grads-webgpu's float32 comparison: |x - y| <= 1e-3 |x| + 2e-5 max|x|. */
export function gradProblem(cpu: number[], gpu: number[]): string | null {
  const scale = scaleOf(cpu);
  for (let j = 0; j < cpu.length; j++) {
    if (!(Math.abs(cpu[j] - gpu[j]) <= 1e-3 * Math.abs(cpu[j]) + 2e-5 * scale)) return `[${j}]: cpu ${cpu[j]}, webgpu ${gpu[j]}`;
  }
  return null;
}
