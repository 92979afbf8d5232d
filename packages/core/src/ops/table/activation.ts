import { AutogradError, DTypeError, TorchError } from '../../errors';
import type { Tensor } from '../../tensor/tensor';
import { add, digamma, div, eq, erf, exp, ge, gt, i0, le, log, lt, mul, neg, polygamma, reciprocal, sigmoid, sign, softplus, specialErfcx, specialI0e, specialI1, specialI1e, specialLogNdtr, sub, tanh, where } from './formula-ops';
import { activationRow, type ActivationRow, type Rejects } from './types';

/**
 * The activations (Note [The op table]): unary pointwise ops with arguments after `self`,
 * `name(Tensor self, <args>)`, `name_` where the row has it, and `name.out`. Those with a kernel
 * of their own in PyTorch (and so their own values and Node names: GeluBackward0,
 * SiluBackward0...) are rows; selu and relu6 are composites over the elu and hardtanh rows, as
 * in PyTorch (ops/activations.ts). Formulas as PyTorch 1.13's derivatives.yaml and its
 * *_backward kernels write them.
 */

/** PyTorch's CPU kernels of most activations are floating only; the message names the kernel. */
const FLOAT_ONLY: Rejects = { bool: true, integral: true };

// 1 / sqrt(2 pi) and sqrt(2 / pi), as PyTorch's kBeta of each approximation
const GELU_PDF = (2 / Math.sqrt(Math.PI)) * Math.SQRT1_2 * 0.5;
const GELU_TANH_BETA = Math.SQRT2 * (2 / Math.sqrt(Math.PI)) * 0.5;
const GELU_KAPPA = 0.044715;

// gelu_backward: grad * (cdf + x * pdf), or the derivative of the tanh approximation
function geluBackward(g: Tensor, x: Tensor, approximate: 'none' | 'tanh'): Tensor {
  if (approximate === 'tanh') {
    const xSq = mul(x, x);
    const inner = mul(add(x, mul(mul(xSq, x), GELU_KAPPA)), GELU_TANH_BETA);
    const t = tanh(inner);
    const left = mul(x, 0.5);
    const right = add(t, 1);
    const rightDerivative = mul(mul(neg(sub(mul(t, t), 1)), GELU_TANH_BETA), add(mul(xSq, 3 * GELU_KAPPA), 1));
    return mul(g, add(mul(right, 0.5), mul(left, rightDerivative)));
  }
  const cdf = mul(add(erf(mul(x, Math.SQRT1_2)), 1), 0.5);
  const pdf = mul(exp(mul(mul(x, x), -0.5)), GELU_PDF);
  return mul(g, add(cdf, mul(x, pdf)));
}

/** In-place forms whose Node reads the result cannot undo a negative slope (PyTorch's message). */
function negativeSlopeInPlace(kernel: string, what: string): AutogradError {
  return new AutogradError(
    `${kernel}: In-place ${what} backward calculation is triggered with a negative slope which is not supported. ` +
      'This is caused by calling in-place forward function with a negative slope, please call out-of-place version instead.',
  );
}

// elu_backward(is_result=false): x <= 0 ? grad * input_scale * alpha * scale * exp(x * input_scale) : grad * scale
function eluBackward(g: Tensor, x: Tensor, alpha: number, scale: number, inputScale: number): Tensor {
  return where(le(x, 0), mul(mul(g, inputScale * (alpha * scale)), exp(mul(x, inputScale))), mul(g, scale));
}

// hardtanh_backward: nothing flows where x <= min_val or x >= max_val
const hardtanhBackward = (g: Tensor, x: Tensor, minVal: number, maxVal: number): Tensor => where(le(x, minVal), 0, where(ge(x, maxVal), 0, g));

const BESSEL_NO_DERIVATIVE = { notDifferentiable: "PyTorch 1.13 has no derivative for torch.special's Bessel functions: their results do not require grad" } as const;

/**
 * Note [torch.special's rows]
 * torch.special's own unary functions (entr, ndtri, log_ndtr, erfcx, i0e, i1, i1e) are rows
 * keyed by PyTorch's operator names (`special_entr`: `specialEntr`), so the dispatcher's
 * operators, their messages and their Nodes (SpecialEntrBackward0) are PyTorch's. They are
 * activation rows without arguments because that row kind can say what they lack: no method,
 * no in-place form, and no `torch.name` (`torchFunction: false`); the facade's torch.special
 * namespace exports them under PyTorch's short names (torch.special.entr), with the aliases.
 * polygamma is a row with an argument whose function form PyTorch orders `polygamma(int n,
 * Tensor self)`: the row gives the operators and `x.polygamma(n)`, and torch.polygamma is
 * declared apart over them (ops/special.ts).
 */
export const ACTIVATION_TABLE = {
  leakyRelu: activationRow({
    doc: 'x where x > 0, negative_slope * x elsewhere.',
    rule: 'promote',
    kernel: 'leaky_relu_cpu',
    rejects: FLOAT_ONLY,
    args: 'Scalar negative_slope=0.01',
    inplaceArg: true,
    nnFunctional: 'fn and inplace',
    domain: 'nonzero',
    derivative: {
      saves: 'self',
      formula: (g, x, [slope]): Tensor => where(gt(x, 0), g, mul(g, slope)),
      inplace: {
        saves: 'result',
        node: 'LeakyReluBackward1',
        formula: (g, y, [slope]): Tensor => {
          if (slope < 0) throw negativeSlopeInPlace('leaky_relu_backward', 'leakyReLu');
          return where(gt(y, 0), g, mul(g, slope));
        },
      },
    },
  }),
  elu: activationRow({
    doc: 'x where x > 0, alpha * (exp(x) - 1) elsewhere (the kernel also scales: selu is elu with its constants).',
    rule: 'promote',
    kernel: 'elu_cpu',
    rejects: FLOAT_ONLY,
    args: 'Scalar alpha=1, Scalar scale=1, Scalar input_scale=1',
    frontArgs: 'Scalar alpha=1',
    inplaceArg: true,
    nnFunctional: 'fn and inplace',
    domain: 'nonzero',
    derivative: {
      saves: 'self',
      formula: (g, x, [alpha, scale, inputScale]): Tensor => eluBackward(g, x, alpha, scale, inputScale),
      inplace: {
        // elu_backward(is_result=true): y <= 0 ? grad * input_scale * (y + alpha * scale) : grad * scale
        saves: 'result',
        node: 'EluBackward1',
        formula: (g, y, [alpha, scale, inputScale]): Tensor => {
          if (alpha < 0) throw negativeSlopeInPlace('elu_backward', 'elu');
          return where(le(y, 0), mul(mul(g, inputScale), add(y, alpha * scale)), mul(g, scale));
        },
      },
    },
  }),
  hardtanh: activationRow({
    doc: 'Each element clamped to [min_val, max_val], NaN kept (relu6 is hardtanh(x, 0, 6)).',
    rule: 'promote',
    kernel: 'clamp_scalar_cpu',
    rejects: { bool: 'Bool inputs not supported for hardtanh' },
    args: 'Scalar min_val=-1, Scalar max_val=1',
    check: (op, compute, [minVal, maxVal]) => {
      if (compute === 'uint8' && (minVal < 0 || maxVal < 0)) throw new TorchError(`${op}: cannot do hardtanh on an unsigned type with negative limits`);
    },
    inplaceArg: true,
    nnFunctional: 'fn and inplace',
    derivative: {
      saves: 'self',
      formula: (g, x, [minVal, maxVal]): Tensor => hardtanhBackward(g, x, minVal, maxVal),
      // (PyTorch 1.13 names it as the functional's)
      inplace: { saves: 'result', formula: (g, y, [minVal, maxVal]): Tensor => hardtanhBackward(g, y, minVal, maxVal) },
    },
  }),
  gelu: activationRow({
    doc: "x * Phi(x), Phi the standard normal CDF (approximate='tanh': its tanh approximation).",
    rule: 'promote',
    kernel: 'GeluKernelImpl',
    rejects: FLOAT_ONLY,
    args: "*, str approximate='none'",
    choices: { approximate: ['none', 'tanh'] },
    inplace: false,
    nnFunctional: 'fn',
    derivative: { saves: 'self', formula: (g, x, [approximate]): Tensor => geluBackward(g, x, approximate) },
  }),
  silu: activationRow({
    doc: 'x * sigmoid(x) for each element.',
    rule: 'promote',
    kernel: 'silu_cpu',
    rejects: FLOAT_ONLY,
    args: '',
    inplaceArg: true,
    nnFunctional: 'fn',
    derivative: {
      saves: 'self',
      // grad * sigmoid(x) * (1 + x * (1 - sigmoid(x)))
      formula: (g, x): Tensor => {
        const s = sigmoid(x);
        return mul(mul(g, s), add(mul(x, neg(sub(s, 1))), 1));
      },
    },
  }),
  mish: activationRow({
    doc: 'x * tanh(softplus(x)) for each element.',
    rule: 'promote',
    kernel: 'mish_cpu',
    rejects: FLOAT_ONLY,
    args: '',
    inplaceArg: true,
    nnFunctional: 'fn',
    derivative: {
      saves: 'self',
      // grad * (tanh(softplus(x)) + x * sigmoid(x) * (1 - tanh(softplus(x))^2))
      formula: (g, x): Tensor => {
        const t = tanh(softplus(x));
        return mul(g, add(t, mul(mul(x, sigmoid(x)), neg(sub(mul(t, t), 1)))));
      },
    },
  }),
  softplus: activationRow({
    doc: 'log(1 + exp(beta * x)) / beta for each element; x itself where beta * x > threshold.',
    rule: 'promote',
    kernel: 'softplus_cpu',
    rejects: FLOAT_ONLY,
    args: 'Scalar beta=1, Scalar threshold=20',
    inplace: false,
    nnFunctional: 'fn',
    derivative: {
      saves: 'self',
      // x * beta > threshold ? grad : grad * z / (z + 1), z = exp(x * beta)
      formula: (g, x, [beta, threshold]): Tensor => {
        const xb = mul(x, beta);
        const z = exp(xb);
        return where(gt(xb, threshold), g, mul(g, div(z, add(z, 1))));
      },
    },
  }),
  hardsigmoid: activationRow({
    doc: 'clamp(x / 6 + 1 / 2, 0, 1) for each element.',
    rule: 'promote',
    kernel: 'hardsigmoid_cpu',
    rejects: FLOAT_ONLY,
    args: '',
    inplaceArg: true,
    nnFunctional: 'fn',
    // (x > -3 && x < 3) ? grad * one_sixth : 0, one_sixth being PyTorch's float 1.0f / 6.0f
    // in every dtype (float64 gradients too are multiples of the float32 1/6)
    derivative: { saves: 'self', formula: (g, x): Tensor => where(gt(x, -3), where(lt(x, 3), mul(g, Math.fround(1 / 6)), 0), 0) },
  }),
  hardswish: activationRow({
    doc: 'x * hardsigmoid(x) for each element.',
    rule: 'promote',
    kernel: 'hardswish_cpu',
    rejects: FLOAT_ONLY,
    args: '',
    inplaceArg: true,
    nnFunctional: 'fn',
    // x < -3 ? 0 : x <= 3 ? grad * (x / 3 + 0.5) : grad
    derivative: { saves: 'self', formula: (g, x): Tensor => where(lt(x, -3), 0, where(le(x, 3), mul(g, add(div(x, 3), 0.5)), g)) },
  }),
  logit: activationRow({
    doc: 'log(x / (1 - x)) for each element, x first clamped to [eps, 1 - eps] when eps is given.',
    rule: 'float',
    kernel: 'logit_cpu',
    args: 'float? eps=None',
    // (PyTorch's kernel treats a negative eps as none)
    implArgs: ([eps]) => [eps !== null && eps >= 0 ? eps : null],
    method: true,
    domain: 'prob',
    derivative: {
      saves: 'self',
      // grad / (x * (1 - x)), zero outside [eps, 1 - eps] when eps is given
      formula: (g, x, [eps]): Tensor => {
        const d = div(g, mul(x, neg(sub(x, 1))));
        if (eps === null) return d;
        return where(lt(x, eps), 0, where(gt(x, 1 - eps), 0, d));
      },
    },
  }),
  // ---- the gamma family with an argument, and torch.special's own unary functions ----
  // (Note [torch.special's rows]: no method and no in-place form, as PyTorch; reached as torch.special.*)
  polygamma: activationRow({
    doc: 'The n-th derivative of digamma of each element (polygamma(0, x) is digamma).',
    rule: 'float',
    kernel: 'polygamma',
    args: 'int n',
    method: true,
    torchFunction: false,
    domain: 'pos',
    check: (_op, _compute, [n]) => {
      if (n < 0) throw new TorchError('polygamma(n, x) does not support negative n.');
    },
    // polygamma(n + 1, self) * grad
    derivative: { saves: 'self', formula: (g, x, [n]): Tensor => mul(g, polygamma(x, n + 1)) },
  }),
  mvlgamma: activationRow({
    doc: 'The log of the multivariate gamma function of dimension p of each element: p(p-1)/4 log(pi) + sum_j lgamma(x - j/2).',
    rule: 'float',
    kernel: 'lgamma_vml_cpu',
    args: 'int p',
    method: true,
    domain: 'above1',
    check: (op, _compute, [p], input) => {
      if (input === 'bool') throw new DTypeError(`${op}: The input tensor may not be a boolean tensor.`);
      if (p < 1) throw new TorchError('p has to be greater than or equal to 1');
    },
    // mvlgamma_backward: grad * sum_j digamma(self - j/2)
    derivative: {
      saves: 'self',
      formula: (g, x, [p]): Tensor => {
        let acc = digamma(x);
        for (let j = 1; j < p; j++) acc = add(acc, digamma(sub(x, j / 2)));
        return mul(g, acc);
      },
    },
  }),
  specialEntr: activationRow({
    doc: '-x log(x) for each element: 0 at 0, -inf below.',
    rule: 'float',
    kernel: 'entr_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    domain: 'pos',
    // grad * -(1 + log(self))
    derivative: { saves: 'self', formula: (g, x): Tensor => mul(g, neg(add(log(x), 1))) },
  }),
  specialNdtri: activationRow({
    doc: 'The quantile function of the standard normal distribution: ndtri(0) = -inf, ndtri(1) = inf.',
    rule: 'float',
    kernel: 'ndtri_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    domain: 'prob',
    // grad * sqrt(2 pi) * exp(result^2 / 2)
    derivative: { saves: 'result', formula: (g, y): Tensor => mul(mul(g, Math.sqrt(2 * Math.PI)), exp(div(mul(y, y), 2))) },
  }),
  specialLogNdtr: activationRow({
    doc: 'The log of the standard normal CDF of each element, accurate in the lower tail.',
    rule: 'float',
    kernel: 'log_ndtr_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    // grad / sqrt(2 pi) * exp(-(result + self^2 / 2))
    derivative: {
      saves: 'self',
      formula: (g, x): Tensor => mul(div(g, Math.sqrt(2 * Math.PI)), exp(neg(add(specialLogNdtr(x), div(mul(x, x), 2))))),
    },
  }),
  specialErfcx: activationRow({
    doc: 'The scaled complementary error function exp(x^2) erfc(x) of each element.',
    rule: 'float',
    kernel: 'erfcx_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    // (2 self result - 2 / sqrt(pi)) * grad
    derivative: { saves: 'self', formula: (g, x): Tensor => mul(sub(mul(mul(x, 2), specialErfcx(x)), 2 / Math.sqrt(Math.PI)), g) },
  }),
  specialI0e: activationRow({
    doc: 'exp(-|x|) i0(x) for each element.',
    rule: 'float',
    kernel: 'i0e_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    // grad * (i1e(self) - sgn(self) * result)
    derivative: { saves: 'self', node: 'SpecialI0EBackward0', formula: (g, x): Tensor => mul(g, sub(specialI1e(x), mul(sign(x), specialI0e(x)))) },
  }),
  specialI1: activationRow({
    doc: 'The modified Bessel function of the first kind of order 1 of each element.',
    rule: 'float',
    kernel: 'i1_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    // i1_backward: grad * (i0(self) - i1(self) / self), grad / 2 at 0
    derivative: { saves: 'self', formula: (g, x): Tensor => where(eq(x, 0), mul(g, 0.5), mul(g, sub(i0(x), div(specialI1(x), x)))) },
  }),
  specialI1e: activationRow({
    doc: 'exp(-|x|) i1(x) for each element.',
    rule: 'float',
    kernel: 'i1e_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    // i1e_backward: grad * (i0e(self) - i1e(self) * (sgn(self) + 1 / self)), grad / 2 at 0
    derivative: {
      saves: 'self',
      node: 'SpecialI1EBackward0',
      formula: (g, x): Tensor => where(eq(x, 0), mul(g, 0.5), mul(g, sub(specialI0e(x), mul(specialI1e(x), add(sign(x), reciprocal(x)))))),
    },
  }),
  // torch.special's Bessel functions: PyTorch 1.13 gives them no derivative (their results never require grad)
  specialBesselJ0: activationRow({
    doc: 'The Bessel function of the first kind of order 0 of each element.',
    rule: 'float',
    kernel: 'bessel_j0_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    derivative: BESSEL_NO_DERIVATIVE,
  }),
  specialBesselJ1: activationRow({
    doc: 'The Bessel function of the first kind of order 1 of each element.',
    rule: 'float',
    kernel: 'bessel_j1_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    derivative: BESSEL_NO_DERIVATIVE,
  }),
  specialBesselY0: activationRow({
    doc: 'The Bessel function of the second kind of order 0 of each element (nan below 0, -inf at 0).',
    rule: 'float',
    kernel: 'bessel_y0_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    derivative: BESSEL_NO_DERIVATIVE,
  }),
  specialBesselY1: activationRow({
    doc: 'The Bessel function of the second kind of order 1 of each element (nan below 0, -inf at 0).',
    rule: 'float',
    kernel: 'bessel_y1_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    derivative: BESSEL_NO_DERIVATIVE,
  }),
  specialModifiedBesselI0: activationRow({
    doc: 'The modified Bessel function of the first kind of order 0 of each element.',
    rule: 'float',
    kernel: 'modified_bessel_i0_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    derivative: BESSEL_NO_DERIVATIVE,
  }),
  specialModifiedBesselI1: activationRow({
    doc: 'The modified Bessel function of the first kind of order 1 of each element.',
    rule: 'float',
    kernel: 'modified_bessel_i1_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    derivative: BESSEL_NO_DERIVATIVE,
  }),
  specialModifiedBesselK0: activationRow({
    doc: 'The modified Bessel function of the second kind of order 0 of each element (nan below 0).',
    rule: 'float',
    kernel: 'modified_bessel_k0_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    derivative: BESSEL_NO_DERIVATIVE,
  }),
  specialModifiedBesselK1: activationRow({
    doc: 'The modified Bessel function of the second kind of order 1 of each element (nan below 0).',
    rule: 'float',
    kernel: 'modified_bessel_k1_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    derivative: BESSEL_NO_DERIVATIVE,
  }),
  specialScaledModifiedBesselK0: activationRow({
    doc: 'exp(x) times the modified Bessel function of the second kind of order 0 of each element.',
    rule: 'float',
    kernel: 'scaled_modified_bessel_k0_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    derivative: BESSEL_NO_DERIVATIVE,
  }),
  specialScaledModifiedBesselK1: activationRow({
    doc: 'exp(x) times the modified Bessel function of the second kind of order 1 of each element.',
    rule: 'float',
    kernel: 'scaled_modified_bessel_k1_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    derivative: BESSEL_NO_DERIVATIVE,
  }),
  specialSphericalBesselJ0: activationRow({
    doc: 'The spherical Bessel function of the first kind of order 0, sin(x) / x, of each element.',
    rule: 'float',
    kernel: 'spherical_bessel_j0_cpu',
    args: '',
    inplace: false,
    torchFunction: false,
    derivative: BESSEL_NO_DERIVATIVE,
  }),
  // PyTorch 2.x (1.13 lacks it): float32 and float64 only; x: non_differentiable
  specialAiryAi: activationRow({
    doc: 'The Airy function Ai(x) of each element (nan at ±inf).',
    rule: 'float',
    kernel: 'airy_ai_cpu',
    rejects: { reducedFloating: true },
    args: '',
    inplace: false,
    torchFunction: false,
    derivative: { notDifferentiable: "PyTorch 2.x's derivatives.yaml marks x non_differentiable: the result never requires grad" },
  }),
} as const satisfies Readonly<Record<string, ActivationRow>>;

export type ActivationTableName = keyof typeof ACTIVATION_TABLE;
