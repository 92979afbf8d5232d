/**
 * The complex eig checks against goldens/linalg_eig.json's complex_cases (PyTorch 1.13's
 * zgeev / cgeev results), shared by linalg-eig-complex.test.ts (CPU) and
 * linalg-eig-complex-webgpu.test.ts (WebGPU).
 */
import { expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

export interface EigCase {
  id: string;
  dtype: 'complex64' | 'complex128';
  shape: number[];
  a: number[];
  L: number[];
  V: number[];
}

export type C = [number, number];
export const pairsOf = (z: Tensor): number[] => torch.viewAsReal(z.resolveConj()).reshape([-1]).tolist() as number[];
export const maxAbsDiff = (x: number[], y: number[]): number => Math.max(0, ...x.map((v, i) => Math.abs(v - y[i])));
export const cmul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
export const complexOf = (pairs: number[], shape: number[], dtype: 'complex64' | 'complex128' = 'complex128'): Tensor =>
  torch.viewAsComplex(torch.tensor(pairs, { dtype: dtype === 'complex64' ? 'float32' : 'float64' }).reshape([...shape, 2]));

/** Splits flat pairs into per-matrix lists of complex numbers. */
export function matrices(flat: number[], count: number): C[][] {
  const per = flat.length / 2 / Math.max(count, 1);
  return Array.from({ length: count }, (_, b) => Array.from({ length: per }, (_, i): C => [flat[2 * (b * per + i)], flat[2 * (b * per + i) + 1]]));
}

/** max over the simple columns of 1 - |<w, v>|, the phase-free distance of unit vectors. */
export function phaseDistance(v: C[], w: C[], n: number, simple: boolean[]): number {
  let worst = 0;
  for (let j = 0; j < n; j++) {
    if (!simple[j]) continue;
    let dr = 0;
    let di = 0;
    for (let i = 0; i < n; i++) {
      const [wr, wi] = w[i * n + j];
      const [vr, vi] = v[i * n + j];
      dr += wr * vr + wi * vi;
      di += wr * vi - wi * vr;
    }
    worst = Math.max(worst, 1 - Math.hypot(dr, di));
  }
  return worst;
}

/** The problems of (L, V) as eigenpairs of the complex n x n `a`: A V - V diag(L), unit columns, largest component real. */
export function eigProblems(a: C[], Lm: C[], Vm: C[], n: number, tol: number): string[] {
  const problems: string[] = [];
  const scale = Math.max(1, ...a.map((z) => Math.hypot(...z)));
  for (let j = 0; j < n; j++) {
    let norm = 0;
    let big = 0;
    let bigAt = 0;
    for (let i = 0; i < n; i++) {
      let s: C = [0, 0];
      for (let k = 0; k < n; k++) {
        const p = cmul(a[i * n + k], Vm[k * n + j]);
        s = [s[0] + p[0], s[1] + p[1]];
      }
      const lv = cmul(Lm[j], Vm[i * n + j]);
      const r = Math.hypot(s[0] - lv[0], s[1] - lv[1]);
      if (!(r <= tol * scale * n)) problems.push(`(A v - l v)[${i}] of column ${j}: ${r}`);
      const m = Math.hypot(...Vm[i * n + j]);
      norm += m * m;
      if (m > big + tol) {
        big = m;
        bigAt = i;
      }
    }
    if (!(Math.abs(Math.sqrt(norm) - 1) <= tol * n)) problems.push(`|v_${j}| = ${Math.sqrt(norm)}`);
    if (!(Math.abs(Vm[bigAt * n + j][1]) <= tol)) problems.push(`largest component of column ${j} not real: ${Vm[bigAt * n + j]}`);
  }
  return problems;
}

/** The largest distance of a matching of two multisets of complex numbers, each of `xs` paired greedily with the nearest unused of `ys` (not by sorting: a conjugate pair's rounded real parts may order either way). */
export function multisetDistance(xs: C[], ys: C[]): number {
  const used = ys.map(() => false);
  let worst = 0;
  for (const x of xs) {
    let best = Infinity;
    let at = -1;
    ys.forEach((y, k) => {
      const d = Math.hypot(x[0] - y[0], x[1] - y[1]);
      if (!used[k] && d < best) {
        best = d;
        at = k;
      }
    });
    if (at >= 0) used[at] = true;
    worst = Math.max(worst, best);
  }
  return worst;
}

export function checkAgainstGolden(c: EigCase, Lm: number[], Vm: number[]): void {
  const n = c.shape[c.shape.length - 1];
  const batch = c.shape.slice(0, -2).reduce((x, y) => x * y, 1);
  const scale = Math.max(1, ...c.a.map(Math.abs));
  if (c.dtype === 'complex128') {
    // zgeev's order and normalisation, element for element
    expect(maxAbsDiff(Lm, c.L)).toBeLessThan(1e-13 * scale);
    expect(maxAbsDiff(Vm, c.V)).toBeLessThan(1e-12);
  } else {
    const mine = matrices(Lm, batch);
    const theirs = matrices(c.L, batch);
    for (let b = 0; b < batch; b++) {
      expect(multisetDistance(mine[b], theirs[b])).toBeLessThan(1e-5 * scale);
      const close = (l: C, m: C) => Math.hypot(l[0] - m[0], l[1] - m[1]) <= 1e-4 * scale;
      const simple = mine[b].map((l) => mine[b].filter((m) => close(l, m)).length === 1);
      const perm = mine[b].map((l) => theirs[b].findIndex((m) => close(l, m)));
      const vt = matrices(c.V, batch)[b];
      const permuted = vt.map((_, k) => vt[Math.floor(k / n) * n + perm[k % n]]);
      expect(phaseDistance(matrices(Vm, batch)[b], permuted, n, simple)).toBeLessThan(1e-4);
    }
  }
  const a64 = c.a.map((x) => (c.dtype === 'complex64' ? Math.fround(x) : x));
  const as = matrices(a64, batch);
  for (let b = 0; b < batch; b++) {
    expect(eigProblems(as[b], matrices(Lm, batch)[b], matrices(Vm, batch)[b], n, c.dtype === 'complex128' ? 1e-13 : 2e-6)).toEqual([]);
  }
}

