import { AutogradError, TorchError } from '../../errors';
import type { Tensor } from '../../tensor/tensor';
import { add, div, erf, exp, ge, gt, le, lt, mul, neg, sigmoid, softplus, sub, tanh, where } from './formula-ops';
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
    // (x > -3 && x < 3) ? grad / 6 : 0
    derivative: { saves: 'self', formula: (g, x): Tensor => where(gt(x, -3), where(lt(x, 3), div(g, 6), 0), 0) },
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
} as const satisfies Readonly<Record<string, ActivationRow>>;

export type ActivationTableName = keyof typeof ACTIVATION_TABLE;
