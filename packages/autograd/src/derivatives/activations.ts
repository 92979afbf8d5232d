import { add, div, erf, exp, ge, gt, le, lt, mul, neg, sigmoid, softplus, sub, tanh, where, type Tensor } from '@torch-ts/core';
import { AutogradError } from '@torch-ts/core';
import type { Derivative, DerivativeArgs, DerivativeContext, DerivativeFamily, DerivativeOf } from '../derivative';
import { savedTensor, scalarNumber } from './common';

/**
 * The activations' derivatives, as PyTorch 1.13's derivatives.yaml and its *_backward
 * kernels write them, in core ops (so they are differentiable again). In-place elu_ and
 * leaky_relu_ have their own Nodes that read the result (EluBackward1, LeakyReluBackward1),
 * as PyTorch's; the other in-place forms share the functional Node.
 */

function activation<A extends readonly unknown[]>(
  name: string,
  saves: 'self' | 'result',
  formula: (grad: Tensor, x: Tensor, args: Readonly<A>) => Tensor,
): Derivative<A> {
  return {
    name,
    inputs: ['self'],
    saves: [saves],
    backward: (ctx: DerivativeContext<A>) => {
      if (!ctx.needs[0]) return [null];
      return [formula(ctx.grad, savedTensor(ctx, saves, name), ctx.args)];
    },
  };
}

// 1 / sqrt(2 pi) and sqrt(2 / pi), as PyTorch's kBeta of each approximation
const GELU_PDF = (2 / Math.sqrt(Math.PI)) * Math.SQRT1_2 * 0.5;
const GELU_TANH_BETA = Math.SQRT2 * (2 / Math.sqrt(Math.PI)) * 0.5;
const GELU_KAPPA = 0.044715;

// gelu_backward: grad * (cdf + x * pdf), or the derivative of the tanh approximation
const GeluBackward0: DerivativeOf<'gelu'> = activation('GeluBackward0', 'self', (g, x, args) => {
  if (args[1] === 'tanh') {
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
});

// grad * sigmoid(x) * (1 + x * (1 - sigmoid(x)))
const SiluBackward0: DerivativeOf<'silu'> = activation('SiluBackward0', 'self', (g, x) => {
  const s = sigmoid(x);
  return mul(mul(g, s), add(mul(x, neg(sub(s, 1))), 1));
});

// grad * (tanh(softplus(x)) + x * sigmoid(x) * (1 - tanh(softplus(x))^2))
const MishBackward0: DerivativeOf<'mish'> = activation('MishBackward0', 'self', (g, x) => {
  const t = tanh(softplus(x));
  return mul(g, add(t, mul(mul(x, sigmoid(x)), neg(sub(mul(t, t), 1)))));
});

// x * beta > threshold ? grad : grad * z / (z + 1), z = exp(x * beta)
const SoftplusBackward0: DerivativeOf<'softplus'> = activation('SoftplusBackward0', 'self', (g, x, args) => {
  const beta = scalarNumber(args[1], 1);
  const xb = mul(x, beta);
  const z = exp(xb);
  return where(gt(xb, scalarNumber(args[2], 20)), g, mul(g, div(z, add(z, 1))));
});

function eluCoefs(args: Readonly<DerivativeArgs<'elu'>>) {
  const alpha = scalarNumber(args[1], 1);
  const scale = scalarNumber(args[2], 1);
  const inputScale = scalarNumber(args[3], 1);
  return { neg: alpha * scale, pos: scale, input: inputScale, alpha };
}

// elu_backward(is_result=false): x <= 0 ? grad * input_scale * alpha * scale * exp(x * input_scale) : grad * scale
const EluBackward0: DerivativeOf<'elu'> = activation('EluBackward0', 'self', (g, x, args) => {
  const c = eluCoefs(args);
  return where(le(x, 0), mul(mul(g, c.input * c.neg), exp(mul(x, c.input))), mul(g, c.pos));
});

// elu_backward(is_result=true): y <= 0 ? grad * input_scale * (y + alpha * scale) : grad * scale
const EluBackward1: DerivativeOf<'elu_'> = activation('EluBackward1', 'result', (g, y, args) => {
  const c = eluCoefs(args);
  if (c.alpha < 0) {
    throw new AutogradError(
      'elu_backward: In-place elu backward calculation is triggered with a negative slope which is not supported. ' +
        'This is caused by calling in-place forward function with a negative slope, please call out-of-place version instead.',
    );
  }
  return where(le(y, 0), mul(mul(g, c.input), add(y, c.neg)), mul(g, c.pos));
});

const leaky = (name: string, saves: 'self' | 'result'): DerivativeOf<'leaky_relu'> =>
  activation(name, saves, (g, x, args) => {
    const slope = scalarNumber(args[1], 0.01);
    if (saves === 'result' && slope < 0) {
      throw new AutogradError(
        'leaky_relu_backward: In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. ' +
          'This is caused by calling in-place forward function with a negative slope, please call out-of-place version instead.',
      );
    }
    return where(gt(x, 0), g, mul(g, slope));
  });

// hardtanh_backward: nothing flows where x <= min_val or x >= max_val
const hardtanhBackward = (saves: 'self' | 'result'): DerivativeOf<'hardtanh'> =>
  activation('HardtanhBackward0', saves, (g, x, args) =>
    where(le(x, scalarNumber(args[1], -1)), 0, where(ge(x, scalarNumber(args[2], 1)), 0, g)),
  );

// (x > -3 && x < 3) ? grad / 6 : 0
const HardsigmoidBackward0: DerivativeOf<'hardsigmoid'> = activation('HardsigmoidBackward0', 'self', (g, x) =>
  where(gt(x, -3), where(lt(x, 3), div(g, 6), 0), 0),
);

// x < -3 ? 0 : x <= 3 ? grad * (x / 3 + 0.5) : grad
const HardswishBackward0: DerivativeOf<'hardswish'> = activation('HardswishBackward0', 'self', (g, x) =>
  where(lt(x, -3), 0, where(le(x, 3), mul(g, add(div(x, 3), 0.5)), g)),
);

// grad / (x * (1 - x)), zero outside [eps, 1 - eps] when eps is given
const LogitBackward0: DerivativeOf<'logit'> = activation('LogitBackward0', 'self', (g, x, args) => {
  const d = div(g, mul(x, neg(sub(x, 1))));
  const eps = args[1] == null ? -1 : Number(args[1]);
  if (eps < 0) return d;
  return where(lt(x, eps), 0, where(gt(x, 1 - eps), 0, d));
});

export const ACTIVATION_DERIVATIVES = {
  leaky_relu: leaky('LeakyReluBackward0', 'self'),
  leaky_relu_: leaky('LeakyReluBackward1', 'result'),
  elu: EluBackward0,
  elu_: EluBackward1,
  hardtanh: hardtanhBackward('self'),
  hardtanh_: hardtanhBackward('result'),
  gelu: GeluBackward0,
  silu: SiluBackward0,
  silu_: SiluBackward0,
  mish: MishBackward0,
  mish_: MishBackward0,
  softplus: SoftplusBackward0,
  hardsigmoid: HardsigmoidBackward0,
  hardsigmoid_: HardsigmoidBackward0,
  hardswish: HardswishBackward0,
  hardswish_: HardswishBackward0,
  logit: LogitBackward0,
  logit_: LogitBackward0,
} satisfies DerivativeFamily;
