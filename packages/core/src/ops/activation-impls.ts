import type { TensorImpl } from '../tensor/tensor-impl';

/**
 * The impls of the activation ops (Note [What a backend implements]): `self` and `out` in
 * the op's floating compute dtype (hardtanh also integral), same shape; the op's scalar
 * arguments arrive as plain numbers, already defaulted and validated by core.
 */
export interface ActivationImpls {
  /** x > 0 ? x : x * negativeSlope */
  leakyRelu: (out: TensorImpl, self: TensorImpl, negativeSlope: number) => void;
  /** x > 0 ? x * scale : (exp(x * inputScale) - 1) * alpha * scale (selu is elu with its constants) */
  elu: (out: TensorImpl, self: TensorImpl, alpha: number, scale: number, inputScale: number) => void;
  /** clamp(x, minVal, maxVal), NaN kept (relu6 is hardtanh(x, 0, 6)) */
  hardtanh: (out: TensorImpl, self: TensorImpl, minVal: number, maxVal: number) => void;
  gelu: (out: TensorImpl, self: TensorImpl, approximate: 'none' | 'tanh') => void;
  silu: (out: TensorImpl, self: TensorImpl) => void;
  mish: (out: TensorImpl, self: TensorImpl) => void;
  /** x * beta > threshold ? x : log1p(exp(x * beta)) / beta */
  softplus: (out: TensorImpl, self: TensorImpl, beta: number, threshold: number) => void;
  hardsigmoid: (out: TensorImpl, self: TensorImpl) => void;
  hardswish: (out: TensorImpl, self: TensorImpl) => void;
  /** log(z / (1 - z)), z = clamp(x, eps, 1 - eps) when eps is not null */
  logit: (out: TensorImpl, self: TensorImpl, eps: number | null) => void;
}
