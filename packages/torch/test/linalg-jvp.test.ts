/**
 * Forward-mode tangents of linalg.svd (with vectors), linalg.pinv, linalg.eigvals and
 * masked_fill with a 0-d tensor value, and linalg.det's gradient at exactly singular matrices, against PyTorch 1.13
 * (test/goldens/linalg_jvp.json, written with its inputs by scripts/goldens/linalg_jvp.py).
 * Autograd Note [SVD and pinv JVPs], core Note [The determinant's derivative].
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { DType, Tensor } from '@torch-ts/torch';
import { thrown } from './helpers';

interface Values {
  shape: number[];
  dtype: DType;
  values: number[];
}
interface SvdCase {
  A: Values;
  dA: Values;
  full_matrices: boolean;
  U: Values;
  S: Values;
  Vh: Values;
  dU: Values;
  dS: Values;
  dVh: Values;
}
interface PinvCase {
  A: Values;
  dA: Values;
  hermitian: boolean;
  pinv: Values;
  dpinv: Values;
}
interface EigvalsCase {
  A: Values;
  dA: Values;
  L: Values;
  dL: Values;
}
interface MaskedFillCase {
  x: Values;
  xt: Values;
  mask: boolean[];
  value: Values;
  vt: Values;
  both: Values;
  value_only: Values;
  self_only: Values;
}
interface DetCase {
  label: string;
  A: Values;
  grad: Values;
  det: Values;
  gA: Values;
  gA_first_order: Values;
}
const G = JSON.parse(readFileSync(new URL('./goldens/linalg_jvp.json', import.meta.url), 'utf8')) as {
  svd: SvdCase[];
  pinv: PinvCase[];
  eigvals: EigvalsCase[];
  masked_fill: MaskedFillCase[];
  det_singular: DetCase[];
};
const fa = torch.autograd.forwardAd;

const isComplex = (d: DType) => d === 'complex64' || d === 'complex128';

/** A golden tensor (a complex one from its view_as_real pairs). */
function make(v: Values): Tensor {
  if (!isComplex(v.dtype)) return torch.tensor(v.values, { dtype: v.dtype }).reshape(v.shape);
  return torch.viewAsComplex(torch.tensor(v.values, { dtype: 'float64' }).reshape([...v.shape, 2])).clone();
}

/** Values of `t` (complex as pairs), flat. */
const flat = (t: Tensor): number[] => [...((isComplex(t.dtype) ? torch.viewAsReal(t.resolveConj()) : t).contiguous().dataSync() as Float64Array)];

/** dtype, shape and every value within atol + rtol |want|. */
function expectClose(got: Tensor | null, want: Tensor | Values, what: string, rtol = 1e-9, atol = 1e-10): void {
  expect(got, what).not.toBeNull();
  const w = want instanceof torch.Tensor ? want : make(want);
  expect(got!.shape, what).toEqual(w.shape);
  expect(got!.dtype, what).toBe(w.dtype);
  const a = flat(got!);
  const b = flat(w);
  const bad = a.map((x, i) => [i, x, b[i]] as const).filter(([, x, y]) => !(Math.abs(x - y) <= atol + rtol * Math.abs(y)));
  expect(bad.slice(0, 4), what).toEqual([]);
}

describe('forward AD of linalg.svd with vectors (svd_jvp)', () => {
  it(`gives PyTorch's dU, dS, dVh up to each pair's phase, real and complex, thin and full (${G.svd.length} cases)`, () => {
    for (const c of G.svd) {
      const what = `svd ${c.A.dtype} [${c.A.shape}] full=${c.full_matrices}`;
      torch.tidy(() => {
        const [U, S, Vh, dU, dS, dVh] = fa.dualLevel(() => {
          const r = [...torch.linalg.svd(fa.makeDual(make(c.A), make(c.dA)), { fullMatrices: c.full_matrices })].map((t) => fa.unpackDual(t));
          return [...r.map((u) => u.primal), ...r.map((u) => u.tangent!)];
        });
        expectClose(S, c.S, `${what} S`);
        expectClose(dS, c.dS, `${what} dS`);
        // (a pair (u_i, v_i) is PyTorch's times a unit phase d_i (a sign when real); the
        // tangents then are PyTorch's dU D and D^H dVh, Note [SVD and pinv JVPs])
        const k = S.shape[S.dim() - 1];
        const Ug = make(c.U).narrow(-1, 0, k);
        const d = torch.conj(Ug).mul(U.narrow(-1, 0, k)).sum(-2);
        expectClose(d.abs(), torch.onesLike(d.abs()), `${what} |phase|`);
        const rowPhase = torch.conj(d).unsqueeze(-1);
        expectClose(U.narrow(-1, 0, k), Ug.mul(d.unsqueeze(-2)), `${what} U`);
        expectClose(dU.narrow(-1, 0, k), make(c.dU).narrow(-1, 0, k).mul(d.unsqueeze(-2)), `${what} dU`);
        expectClose(Vh.narrow(-2, 0, k), make(c.Vh).narrow(-2, 0, k).mul(rowPhase), `${what} Vh`);
        expectClose(dVh.narrow(-2, 0, k), make(c.dVh).narrow(-2, 0, k).mul(rowPhase), `${what} dVh`);
        // the extra columns of U and rows of Vh (full_matrices) get zero tangents, as PyTorch's
        expect([dU.shape, dVh.shape], what).toEqual([c.dU.shape, c.dVh.shape]);
        const m = U.shape[U.dim() - 1];
        const n = Vh.shape[Vh.dim() - 2];
        if (m > k) expectClose(dU.narrow(-1, k, m - k), make(c.dU).narrow(-1, k, m - k), `${what} dU extra`);
        if (n > k) expectClose(dVh.narrow(-2, k, n - k), make(c.dVh).narrow(-2, k, n - k), `${what} dVh extra`);
      });
    }
  });
});

describe('forward AD of linalg.pinv (pinv_jvp)', () => {
  it(`gives PyTorch's tangent, real and complex, wide, tall, batched and hermitian (${G.pinv.length} cases)`, () => {
    for (const c of G.pinv) {
      const what = `pinv ${c.A.dtype} [${c.A.shape}] hermitian=${c.hermitian}`;
      torch.tidy(() => {
        const [P, dP] = fa.dualLevel(() => {
          const u = fa.unpackDual(torch.linalg.pinv(fa.makeDual(make(c.A), make(c.dA)), { hermitian: c.hermitian }));
          return [u.primal, u.tangent];
        });
        expectClose(P, c.pinv, `${what} pinv`);
        expectClose(dP, c.dpinv, `${what} dpinv`);
      });
    }
  });

  it('raises linalg.pinv\'s error for a dual 1-D input', () => {
    const e = thrown(() => fa.dualLevel(() => torch.linalg.pinv(fa.makeDual(torch.ones([3], { dtype: 'float64' }), torch.ones([3], { dtype: 'float64' })))));
    expect(e).toBeInstanceOf(torch.TorchError);
    expect(e.message).toMatch(/^linalg\.pinv\(Double\{\[3\]\}\): expected a tensor with 2 or more dimensions/);
  });
});

describe('forward AD of linalg.eigvals (the eigenvectors it does not return: linalg_eig_jvp)', () => {
  it(`gives PyTorch's eigenvalue tangents, real and complex (${G.eigvals.length} cases)`, () => {
    for (const c of G.eigvals) {
      torch.tidy(() => {
        const [L, dL] = fa.dualLevel(() => {
          const u = fa.unpackDual(torch.linalg.eigvals(fa.makeDual(make(c.A), make(c.dA))));
          return [u.primal, u.tangent];
        });
        expectClose(L, c.L, `eigvals ${c.A.dtype} L`);
        expectClose(dL, c.dL, `eigvals ${c.A.dtype} dL`);
      });
    }
  });
});

describe('forward AD of masked_fill with a 0-d tensor value', () => {
  it(`carries the value's tangent into the filled elements, functional and in-place (${G.masked_fill.length} dtypes)`, () => {
    for (const c of G.masked_fill) {
      const what = `masked_fill ${c.x.dtype}`;
      torch.tidy(() => {
        const mask = torch.tensor(c.mask, { dtype: 'bool' }).reshape(c.x.shape);
        fa.dualLevel(() => {
          const x = make(c.x);
          const value = make(c.value);
          const dualX = () => fa.makeDual(x, make(c.xt));
          const dualV = () => fa.makeDual(value, make(c.vt));
          expectClose(fa.unpackDual(dualX().maskedFill(mask, dualV())).tangent, c.both, `${what} both`);
          expectClose(fa.unpackDual(x.maskedFill(mask, dualV())).tangent, c.value_only, `${what} value only`);
          expectClose(fa.unpackDual(dualX().maskedFill(mask, value)).tangent, c.self_only, `${what} self only`);
          // in-place: a copy of x without a tangent of its own gets the value's where filled
          expectClose(fa.unpackDual(x.clone().maskedFill_(mask, dualV())).tangent, c.value_only, `${what} in-place value only`);
          expectClose(fa.unpackDual(dualX().clone().maskedFill_(mask, dualV())).tangent, c.both, `${what} in-place both`);
        });
      });
    }
  });
});

describe('linalg.det gradient at an exactly singular matrix', () => {
  it(`is PyTorch's (its create_graph SVD formula: the conjugated cofactors), real and complex, rank n-1 and n-2, batched (${G.det_singular.length} cases)`, () => {
    for (const c of G.det_singular) {
      torch.tidy(() => {
        const A = make(c.A).requiresGrad_();
        const d = torch.linalg.det(A);
        expectClose(d, c.det, `${c.label} det`, 1e-12, 1e-12);
        const [gA] = torch.autograd.grad([d], [A], [make(c.grad)]);
        // (the rank n-2 cofactors are 0 up to rounding: an absolute tolerance of a few eps times the scale)
        expectClose(gA, c.gA, `${c.label} grad`, 1e-9, 1e-12);
        // torch.det is the same function
        const [gB] = torch.autograd.grad([torch.det(A)], [A], [make(c.grad)]);
        expectClose(gB, c.gA, `${c.label} torch.det grad`, 1e-9, 1e-12);
      });
    }
  });

  it('gives the forward-AD tangent <conj cofactors, dA> at a singular complex matrix (finite, as the gradient)', () => {
    torch.tidy(() => {
      const c = G.det_singular.find((x) => x.label === 'complex_rank2')!;
      const A = make(c.A);
      const dA = torch.viewAsComplex(torch.arange(18, { dtype: 'float64' }).mul(0.7).sin().reshape([3, 3, 2])).clone();
      const t = fa.dualLevel(() => fa.unpackDual(torch.linalg.det(fa.makeDual(A, dA))).tangent!);
      // the gradient for grad = 1 is conj(cofactors): d det = sum(cofactors * dA)
      const Ar = A.clone().requiresGrad_();
      const [cofConj] = torch.autograd.grad([torch.linalg.det(Ar)], [Ar], [torch.ones([], { dtype: 'complex128' })]);
      expectClose(t, torch.conj(cofConj!).mul(dA).sum(), 'det tangent');
    });
  });
});
