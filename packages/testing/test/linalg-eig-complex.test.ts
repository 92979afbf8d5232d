/**
 * torch.linalg.eig / eigvals of complex matrices (core's Note [The eig primitive], kernels-cpu's
 * Note [CPU complex eig: LAPACK's zgeev]) against PyTorch 1.13's CPU results
 * (goldens/linalg_eig.json's complex_cases, LAPACK's zgeev):
 *  - complex128: the eigenvalues in zgeev's order and the eigenvectors with its normalisation,
 *    element for element (the CPU kernel follows zgeev step by step);
 *  - complex64: cgeev iterates in single precision, so the eigenvalues are compared as
 *    multisets and the eigenvectors up to a unit phase per column (simple eigenvalues);
 *    every result also satisfies A V = V diag(L) with unit columns whose largest component is real;
 *  - the derivative: PyTorch's (complex) gradient of a gauge-invariant loss, gradcheck and
 *    gradgradcheck in complex128 of the eigenvalues and |V|, the gauge error;
 *  - the error paths, and WebGPU's missing-kernel error (no complex eig kernel there).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import * as torch from '@torch-ts/torch';
import { ShapeError, TorchError, type Tensor } from '@torch-ts/torch';

vi.setConfig({ testTimeout: 120_000 });

interface EigCase {
  id: string;
  dtype: 'complex64' | 'complex128';
  shape: number[];
  a: number[];
  L: number[];
  V: number[];
}
interface GradCase {
  id: string;
  shape: number[];
  a: number[];
  wr: number[];
  wi: number[];
  c: number[];
  grad: number[];
}
const goldens = JSON.parse(readFileSync(new URL('../goldens/linalg_eig.json', import.meta.url), 'utf8')) as { complex_cases: EigCase[]; complex_grads: GradCase[] };

const L = torch.linalg;
const { gradcheck, gradgradcheck } = torch.autograd;

type C = [number, number];
const pairsOf = (z: Tensor): number[] => torch.viewAsReal(z.resolveConj()).reshape([-1]).tolist() as number[];
const maxAbsDiff = (x: number[], y: number[]): number => Math.max(0, ...x.map((v, i) => Math.abs(v - y[i])));
const cmul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
const complexOf = (pairs: number[], shape: number[], dtype: 'complex64' | 'complex128' = 'complex128'): Tensor =>
  torch.viewAsComplex(torch.tensor(pairs, { dtype: dtype === 'complex64' ? 'float32' : 'float64' }).reshape([...shape, 2]));

/** Splits flat pairs into per-matrix lists of complex numbers. */
function matrices(flat: number[], count: number): C[][] {
  const per = flat.length / 2 / Math.max(count, 1);
  return Array.from({ length: count }, (_, b) => Array.from({ length: per }, (_, i): C => [flat[2 * (b * per + i)], flat[2 * (b * per + i) + 1]]));
}

/** max over the simple columns of 1 - |<w, v>|, the phase-free distance of unit vectors. */
function phaseDistance(v: C[], w: C[], n: number, simple: boolean[]): number {
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
function eigProblems(a: C[], Lm: C[], Vm: C[], n: number, tol: number): string[] {
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
function multisetDistance(xs: C[], ys: C[]): number {
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

function checkAgainstGolden(c: EigCase, Lm: number[], Vm: number[]): void {
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

describe('linalg.eig of complex matrices against PyTorch 1.13 (LAPACK zgeev)', () => {
  for (const dtype of ['complex128', 'complex64'] as const) {
    it(`${dtype}: every golden case (values, vectors, eigvals)`, () => {
      const cases = goldens.complex_cases.filter((c) => c.dtype === dtype);
      expect(cases.length).toBe(14);
      for (const c of cases) {
        const A = complexOf(c.a, c.shape, dtype);
        const { eigenvalues, eigenvectors } = L.eig(A);
        expect([c.id, eigenvalues.dtype, eigenvectors.dtype, eigenvalues.shape, eigenvectors.shape]).toEqual([c.id, dtype, dtype, c.shape.slice(0, -1), c.shape]);
        const Lm = pairsOf(eigenvalues);
        checkAgainstGolden(c, Lm, pairsOf(eigenvectors));
        expect([c.id, maxAbsDiff(pairsOf(L.eigvals(A)), Lm)]).toEqual([c.id, 0]);
      }
    });
  }

  it('a conjugated (lazy conj bit) and a non-contiguous input', () => {
    const c = goldens.complex_cases.find((x) => x.id === 'random 4x4' && x.dtype === 'complex128')!;
    const A = complexOf(c.a, c.shape);
    // eig(conj(A)) = conj of eig(A), as the matrix is conjugated before the factorization
    const direct = L.eig(A.conj().resolveConj());
    const lazy = L.eig(A.conj());
    expect(maxAbsDiff(pairsOf(lazy.eigenvalues), pairsOf(direct.eigenvalues))).toBe(0);
    expect(maxAbsDiff(pairsOf(lazy.eigenvectors), pairsOf(direct.eigenvectors))).toBe(0);
    const t = L.eig(A.mT);
    const tc = L.eig(A.mT.contiguous());
    expect(maxAbsDiff(pairsOf(t.eigenvalues), pairsOf(tc.eigenvalues))).toBe(0);
  });
});

describe('linalg.eig derivative, complex input', () => {
  it("PyTorch's gradient of a gauge-invariant loss", () => {
    for (const g of goldens.complex_grads) {
      const A = complexOf(g.a, g.shape).requiresGrad_(true);
      const wr = torch.tensor(g.wr, { dtype: 'float64' }).reshape(g.shape.slice(0, -1));
      const wi = torch.tensor(g.wi, { dtype: 'float64' }).reshape(g.shape.slice(0, -1));
      const c = torch.tensor(g.c, { dtype: 'float64' }).reshape(g.shape);
      const { eigenvalues, eigenvectors } = L.eig(A);
      const loss = torch.add(torch.add(torch.mul(torch.real(eigenvalues), wr).sum(), torch.mul(torch.imag(eigenvalues), wi).sum()), torch.mul(torch.abs(eigenvectors), c).sum());
      loss.backward();
      expect(A.grad!.dtype).toBe('complex128');
      expect([g.id, maxAbsDiff(pairsOf(A.grad!), g.grad) < 1e-10 * Math.max(1, ...g.grad.map(Math.abs))]).toEqual([g.id, true]);
    }
  });

  it('gradcheck and gradgradcheck in complex128: eigvals (batched) and |V|', async () => {
    const g = new torch.Generator().manualSeed(11);
    const x = torch.randn([2, 3, 3, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const eigvals = (t: Tensor) => torch.viewAsReal(L.eigvals(torch.viewAsComplex(t)));
    expect(await gradcheck(eigvals, [x])).toBe(true);
    expect(await gradgradcheck(eigvals, [x])).toBe(true);
    const y = torch.randn([3, 3, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const absV = (t: Tensor) => torch.abs(L.eig(torch.viewAsComplex(t)).eigenvectors);
    expect(await gradcheck(absV, [y])).toBe(true);
    expect(await gradgradcheck(absV, [y])).toBe(true);
  });

  it("a loss that depends on the eigenvectors' phase raises the gauge error; empty inputs give empty gradients", () => {
    const A = torch.viewAsComplex(torch.randn([3, 3, 2], { dtype: 'float64', generator: new torch.Generator().manualSeed(4) })).requiresGrad_(true);
    const loss = torch.imag(L.eig(A).eigenvectors).sum();
    expect(() => loss.backward()).toThrow(TorchError);
    const loss2 = torch.imag(L.eig(A).eigenvectors).sum();
    expect(() => loss2.backward()).toThrow(/^linalg_eig_backward: The eigenvectors in the complex case are specified up to multiplication by e\^\{i phi\}/);
    const E = torch.zeros([0, 2, 2], { dtype: 'complex128' }).requiresGrad_(true);
    torch.abs(L.eigvals(E)).sum().backward();
    expect([E.grad!.shape, E.grad!.dtype]).toEqual([[0, 2, 2], 'complex128']);
  });
});

describe('linalg.eig errors and other devices, complex input (PyTorch 1.13)', () => {
  it('shapes and non-finite values', () => {
    const z = (re: number[][]) => torch.complex(torch.tensor(re, { dtype: 'float64' }), torch.zerosLike(torch.tensor(re, { dtype: 'float64' })));
    expect(() => L.eig(z([[1, 2, 3], [4, 5, 6]]))).toThrow(ShapeError);
    expect(() => L.eig(z([[1, 2, 3], [4, 5, 6]]))).toThrow(/^linalg\.eig: A must be batches of square matrices, but they are 2 by 3 matrices$/);
    expect(() => L.eigvals(z([[1, 2, 3], [4, 5, 6]]))).toThrow(/^linalg\.eigvals: A must be batches of square matrices, but they are 2 by 3 matrices$/);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => L.eig(z([[1, bad], [0, 1]]))).toThrow(/^torch\.linalg\.eig: input tensor should not contain infs or NaNs\.$/);
      expect(() => L.eigvals(torch.complex(torch.tensor([[1, 0], [0, 1]], { dtype: 'float32' }), torch.tensor([[0, bad], [0, 0]], { dtype: 'float32' })))).toThrow(/^torch\.linalg\.eig: input tensor should not contain infs or NaNs\.$/);
    }
  });

  it('WebGPU has no complex eig kernel: the missing-kernel error names the op', async (ctx) => {
    if (!(await torch.webgpu.init())) return ctx.skip();
    const A = await torch.complex(torch.ones([2, 2]), torch.zeros([2, 2])).toAsync('webgpu');
    expect(() => L.eig(A)).toThrow(/^linalg\.eig: no kernel for aten::linalg\.eig on WebGPU \(no complex eig kernel on WebGPU\)$/);
  });
});
