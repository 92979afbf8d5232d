/**
 * torch.special and the gamma family where the OpInfo table does not reach: the namespace's
 * aliases are the very functions of torch.* (as in PyTorch), the Nodes PyTorch names by the
 * overload that ran, zeta's derivative (q's only: x's is not implemented in PyTorch, an error
 * at backward), and the argument errors of polygamma and mvlgamma. Values and the other
 * derivatives are the OpInfo table's (goldens/ops_special.json, gradcheck.test.ts).
 */
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { describe, expect, it } from 'vitest';

const { gradcheck, gradgradcheck } = torch.autograd;
const f64 = { dtype: 'float64' as const };
const leaf = (data: number[]): Tensor => torch.tensor(data, { ...f64, requiresGrad: true });

describe('torch.special', () => {
  it("aliases are torch.*'s functions, as in PyTorch", () => {
    const S = torch.special;
    expect(S.expit).toBe(torch.sigmoid);
    expect(S.gammaln).toBe(torch.lgamma);
    expect(S.psi).toBe(torch.digamma);
    expect(S.digamma).toBe(torch.digamma);
    expect(S.multigammaln).toBe(torch.mvlgamma);
    expect(S.polygamma).toBe(torch.polygamma);
    expect(S.xlogy).toBe(torch.xlogy);
    expect(S.gammainc).toBe(torch.igamma);
    expect(S.gammaincc).toBe(torch.igammac);
    for (const name of ['erf', 'erfc', 'erfinv', 'exp2', 'expm1', 'log1p', 'logit', 'i0', 'sinc', 'round', 'softmax', 'logSoftmax', 'logsumexp'] as const) {
      expect(S[name], name).toBe(torch[name]);
    }
  });

  it("has no torch.* name or method for torch.special's own functions (PyTorch has none)", () => {
    const x = torch.tensor([0.5]);
    for (const name of ['specialEntr', 'specialNdtri', 'specialI1', 'specialXlog1py', 'specialZeta', 'polygamma_']) {
      expect(Reflect.get(torch, name), name).toBeUndefined();
      if (name !== 'polygamma_') expect(Reflect.get(x, name), name).toBeUndefined();
    }
    expect(x.polygamma(1).item()).toBeCloseTo(Math.PI ** 2 / 2, 5);
    expect(x.clone().polygamma_(1).item()).toBeCloseTo(Math.PI ** 2 / 2, 5);
  });

  it('defines the edges PyTorch defines', () => {
    const S = torch.special;
    expect(S.ndtri(torch.tensor([0, 1, 0.5, -0.1], f64)).tolist()).toEqual([-Infinity, Infinity, 0, NaN]);
    expect(torch.xlogy(torch.tensor([0, 0, 0], f64), torch.tensor([0, NaN, Infinity], f64)).tolist()).toEqual([0, NaN, 0]);
    expect(S.entr(torch.tensor([0, -1], f64)).tolist()).toEqual([0, -Infinity]);
    expect(torch.lgamma(torch.tensor([0, -1, -2], f64)).tolist()).toEqual([Infinity, Infinity, Infinity]);
    expect(torch.digamma(torch.tensor([0, -0, -1], f64)).tolist()).toEqual([-Infinity, Infinity, NaN]);
    expect(S.zeta(torch.tensor([1, 0.5, 2], f64), torch.tensor([1, 1, 0], f64)).tolist()).toEqual([Infinity, NaN, Infinity]);
  });

  it('binds torch.polygamma(n, input) in PyTorch\'s order, and refuses a negative n', () => {
    const x = torch.tensor([1, 2], f64);
    expect(torch.polygamma(0, x).tolist()).toEqual(torch.digamma(x).tolist());
    expect(torch.polygamma({ n: 1, input: x }).tolist()).toEqual(x.polygamma(1).tolist());
    expect(() => torch.polygamma(-1, x)).toThrow(/polygamma\(n, x\) does not support negative n\./);
  });

  it("refuses mvlgamma's p < 1 and bool input with PyTorch's messages", () => {
    expect(() => torch.mvlgamma(torch.tensor([2.5]), 0)).toThrow(/p has to be greater than or equal to 1/);
    expect(() => torch.mvlgamma(torch.tensor([true]), 1)).toThrow(/The input tensor may not be a boolean tensor\./);
  });
});

describe("torch.special's Bessel functions", () => {
  it('record no Node, as PyTorch 1.13 gives them no derivative', () => {
    const x = leaf([0.5, 1.5]);
    for (const f of [torch.special.besselJ0, torch.special.besselY1, torch.special.modifiedBesselK0, torch.special.scaledModifiedBesselK1, torch.special.sphericalBesselJ0]) {
      const y = f(x);
      expect(y.requiresGrad).toBe(false);
      expect(y.gradFn).toBeNull();
    }
  });
});

describe("torch.special's PyTorch 2.x functions (airyAi, the orthogonal polynomials)", () => {
  const S = torch.special;
  const polynomials = {
    chebyshev_polynomial_t: S.chebyshevPolynomialT,
    chebyshev_polynomial_u: S.chebyshevPolynomialU,
    chebyshev_polynomial_v: S.chebyshevPolynomialV,
    chebyshev_polynomial_w: S.chebyshevPolynomialW,
    shifted_chebyshev_polynomial_t: S.shiftedChebyshevPolynomialT,
    shifted_chebyshev_polynomial_u: S.shiftedChebyshevPolynomialU,
    shifted_chebyshev_polynomial_v: S.shiftedChebyshevPolynomialV,
    shifted_chebyshev_polynomial_w: S.shiftedChebyshevPolynomialW,
    hermite_polynomial_h: S.hermitePolynomialH,
    hermite_polynomial_he: S.hermitePolynomialHe,
    laguerre_polynomial_l: S.laguerrePolynomialL,
    legendre_polynomial_p: S.legendrePolynomialP,
  } as const;

  it("record no Node: 2.x's derivatives.yaml marks x and n non_differentiable, so backward finds no grad_fn", () => {
    const x = leaf([0.25, 0.5]);
    const n = leaf([2, 3]);
    for (const f of Object.values(polynomials)) {
      for (const y of [f(x, n), f(x, 3), f(0.5, n)]) {
        expect(y.requiresGrad).toBe(false);
        expect(y.gradFn).toBeNull();
        expect(() => y.sum().backward()).toThrow(/does not require grad and does not have a grad_fn/);
      }
    }
    const a = S.airyAi(x);
    expect(a.requiresGrad).toBe(false);
    expect(() => a.sum().backward()).toThrow(/does not require grad and does not have a grad_fn/);
  });

  it("refuse float16 and bfloat16 with 2.x's messages (AT_DISPATCH_FLOATING_TYPES), whichever operand brings them", () => {
    for (const [aten, f] of Object.entries(polynomials)) {
      const kernel = `"${aten}_cpu" not implemented for`;
      expect(() => f(torch.tensor([0.5], { dtype: 'float16' }), torch.tensor([2], { dtype: 'float16' }))).toThrow(new RegExp(`special_${aten}: ${kernel} 'Half'`));
      expect(() => f(torch.tensor([0.5], { dtype: 'bfloat16' }), 2)).toThrow(new RegExp(`${kernel} 'BFloat16'`));
      expect(() => f(0.5, torch.tensor([2], { dtype: 'float16' }))).toThrow(new RegExp(`${kernel} 'Half'`));
      expect(() => f(torch.tensor([1, 2], { dtype: 'int32' }), torch.tensor([2], { dtype: 'float16' }))).toThrow(torch.DTypeError);
      // a float16 operand with a float32 tensor computes in float32 (with an int64 one, in float16: refused above)
      expect(f(torch.tensor([0.5], { dtype: 'float16' }), torch.tensor([2], { dtype: 'float32' })).dtype).toBe('float32');
    }
    expect(() => S.airyAi(torch.tensor([0.5], { dtype: 'float16' }))).toThrow(/special_airy_ai: "airy_ai_cpu" not implemented for 'Half'/);
    expect(() => S.airyAi(torch.tensor([0.5], { dtype: 'bfloat16' }))).toThrow(/"airy_ai_cpu" not implemented for 'BFloat16'/);
  });

  it('compute integral and bool inputs in the default float dtype, and follow promotion with a float64 operand', () => {
    expect(S.chebyshevPolynomialT(torch.tensor([2, 3]), torch.tensor([2, 2])).dtype).toBe('float32');
    expect(S.chebyshevPolynomialT(torch.tensor([2, 3]), torch.tensor([2, 2])).tolist()).toEqual([7, 17]);
    expect(S.legendrePolynomialP(torch.tensor([true, false]), 2).dtype).toBe('float32');
    expect(S.hermitePolynomialH(torch.tensor([0.5], f64), torch.tensor([3])).dtype).toBe('float64');
    expect(S.airyAi(torch.tensor([0, 1])).dtype).toBe('float32');
  });

  it("keep 2.x's special cases: n < 0 and non-finite n give 0, n truncates, x = ±1 in closed form, Hermite's limits", () => {
    const T = (x: number, n: number) => (S.chebyshevPolynomialT(torch.tensor([x], f64), n).tolist() as number[])[0];
    expect(T(0.3, -1)).toBe(0);
    expect(T(0.3, 2.9)).toBeCloseTo(2 * 0.09 - 1, 15);
    expect(T(0.3, -0.5)).toBe(1); // truncated to 0
    expect(T(-1, 7)).toBe(-1);
    expect(S.chebyshevPolynomialU(torch.tensor([-1], f64), 4).tolist()).toEqual([5]);
    expect(S.chebyshevPolynomialT(torch.tensor([0.3], f64), torch.tensor([NaN, Infinity, -Infinity], f64)).tolist()).toEqual([0, 0, 0]);
    // float32 refuses H_n above 128, float64 above 512 (2.x's getHermitianLimit)
    expect(S.hermitePolynomialH(torch.tensor([0.1]), 129).tolist()).toEqual([NaN]);
    expect(Number.isFinite((S.hermitePolynomialH(torch.tensor([0.1], f64), 129).tolist() as number[])[0])).toBe(true);
    expect(S.hermitePolynomialHe(torch.tensor([0.1], f64), 513).tolist()).toEqual([NaN]);
  });

  it('are torch.special only: no torch.* function and no method, as in PyTorch', () => {
    expect(Reflect.get(torch, 'specialChebyshevPolynomialT')).toBeUndefined();
    expect(Reflect.get(torch, 'chebyshevPolynomialT')).toBeUndefined();
    expect(Reflect.get(torch.tensor([1]), 'specialAiryAi')).toBeUndefined();
    expect(Reflect.get(torch.tensor([1]), 'chebyshevPolynomialT')).toBeUndefined();
  });
});

describe('Nodes named as PyTorch names them', () => {
  const x = (): Tensor => leaf([1.5, 2.5]);
  const cases: [string, () => Tensor][] = [
    ['LgammaBackward0', () => torch.lgamma(x())],
    ['DigammaBackward0', () => torch.digamma(x())],
    ['PolygammaBackward0', () => torch.polygamma(2, x())],
    ['MvlgammaBackward0', () => torch.mvlgamma(x(), 2)],
    ['I0Backward0', () => torch.i0(x())],
    ['SincBackward0', () => torch.sinc(x())],
    ['SpecialEntrBackward0', () => torch.special.entr(x())],
    ['SpecialNdtriBackward0', () => torch.special.ndtri(torch.tensor([0.25], { ...f64, requiresGrad: true }))],
    ['SpecialLogNdtrBackward0', () => torch.special.logNdtr(x())],
    ['SpecialErfcxBackward0', () => torch.special.erfcx(x())],
    ['SpecialI0EBackward0', () => torch.special.i0e(x())],
    ['SpecialI1Backward0', () => torch.special.i1(x())],
    ['SpecialI1EBackward0', () => torch.special.i1e(x())],
    ['XlogyBackward0', () => torch.xlogy(x(), x())],
    ['XlogyBackward1', () => torch.xlogy(2, x())],
    ['XlogyBackward2', () => torch.xlogy(x(), 2)],
    ['SpecialXlog1PyBackward0', () => torch.special.xlog1py(x(), x())],
    ['SpecialXlog1PyBackward1', () => torch.special.xlog1py(2, x())],
    ['SpecialXlog1PyBackward2', () => torch.special.xlog1py(x(), 2)],
    ['SpecialZetaBackward1', () => torch.special.zeta(2, x())],
    ['SpecialZetaBackward2', () => torch.special.zeta(x(), 2)],
    ['IgammaBackward0', () => torch.igamma(x(), x())],
    ['IgammacBackward0', () => torch.special.gammaincc(x(), x())],
    // (ndtr is PyTorch's composite, recorded as the last op it runs; PyTorch 1.13's C++ multiplies
    // by the Scalar overload, MulBackward1, torch-ts's mul by a number records MulBackward0 as
    // Python's `x * 0.5` does: a documented deviation of the Node's name only)
    ['MulBackward0', () => torch.special.ndtr(x())],
  ];
  for (const [name, make] of cases) {
    it(name, () => {
      expect(make().gradFn?.name()).toBe(name);
    });
  }
});

describe("igamma's and igammac's derivatives", () => {
  it("are other's only: input's is not implemented, an error at backward as in PyTorch", () => {
    const a = leaf([2, 3]);
    const y = torch.special.gammainc(a, torch.tensor([1.5, 2], f64));
    expect(() => y.sum().backward()).toThrow(/the derivative for 'igamma: input' is not implemented\./);
    const z = torch.igammac(leaf([2, 3]), torch.tensor([1.5, 2], f64));
    expect(() => z.sum().backward()).toThrow(/the derivative for 'igammac: input' is not implemented\./);
  });

  it('pass gradcheck and gradgradcheck in other, input constant', async () => {
    const a = torch.tensor([0.5, 2, 7.5], f64);
    const x = leaf([0.75, 2.5, 6]);
    for (const f of [torch.igamma, torch.igammac]) {
      expect(await gradcheck((t: Tensor) => f(a, t), [x])).toBe(true);
      expect(await gradgradcheck((t: Tensor) => f(a, t), [x])).toBe(true);
    }
  });
});

describe("zeta's derivative", () => {
  it("is q's only: x's is not implemented, an error at backward as in PyTorch", () => {
    const s = leaf([2, 3]);
    const y = torch.special.zeta(s, torch.tensor([1.5, 2], f64));
    expect(() => y.sum().backward()).toThrow(/the derivative for 'zeta' is not implemented\./);
  });

  it('passes gradcheck and gradgradcheck in q, x constant (Tensor and Scalar x)', async () => {
    const s = torch.tensor([2, 3.5, 5], f64);
    const q = leaf([0.75, 1.5, 4]);
    expect(await gradcheck((t: Tensor) => torch.special.zeta(s, t), [q])).toBe(true);
    expect(await gradgradcheck((t: Tensor) => torch.special.zeta(s, t), [q])).toBe(true);
    expect(await gradcheck((t: Tensor) => torch.special.zeta(3, t), [q])).toBe(true);
  });
});
