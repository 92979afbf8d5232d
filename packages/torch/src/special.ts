/**
 * `torch.special`: PyTorch's special functions under its names, camelCased
 * (`torch.special.logNdtr`). torch.special's own functions are core's rows keyed by PyTorch's
 * operator names (`specialEntr` is `special_entr`: Note [torch.special's rows]); the others are
 * the very functions of torch.* they alias in PyTorch (expit is sigmoid, gammaln lgamma, psi
 * digamma, multigammaln mvlgamma...), so a message names the operator that ran, as PyTorch's do.
 */
export {
  specialEntr as entr,
  specialNdtri as ndtri,
  specialLogNdtr as logNdtr,
  specialErfcx as erfcx,
  specialI0e as i0e,
  specialI1 as i1,
  specialI1e as i1e,
  specialNdtr as ndtr,
  specialXlog1py as xlog1py,
  specialZeta as zeta,
  xlogy,
  polygammaNFirst as polygamma,
  mvlgamma as multigammaln,
  lgamma as gammaln,
  digamma,
  digamma as psi,
  i0,
  sinc,
  sigmoid as expit,
  logit,
  erf,
  erfc,
  erfinv,
  exp2,
  expm1,
  log1p,
  round,
  softmax,
  logSoftmax,
  logsumexp,
} from '@torch-ts/core';
