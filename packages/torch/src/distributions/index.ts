/**
 * `torch.distributions`: probability distributions with PyTorch's parameters, shapes
 * (`sampleShape + batchShape + eventShape`), reparameterised `rsample`, `logProb`, `entropy`,
 * `cdf`/`icdf`, argument validation and `klDivergence`.
 */
export * as constraints from './constraints';
export * as transforms from './transforms';
export { Constraint } from './constraints';
export { Distribution } from './distribution';
export { Normal } from './normal';
export { Uniform } from './uniform';
export { Bernoulli, type ProbsOrLogits } from './bernoulli';
export { Categorical, OneHotCategorical } from './categorical';
export { Exponential } from './exponential';
export { Laplace } from './laplace';
export { Gamma, Chi2, Beta, Dirichlet, Poisson } from './gamma';
export { Binomial, type BinomialOptions } from './binomial';
export { MultivariateNormal, type MultivariateNormalOptions } from './multivariate-normal';
export { Independent } from './independent';
export { TransformedDistribution, LogNormal } from './transformed-distribution';
export { Transform, ExpTransform, AffineTransform, SigmoidTransform, TanhTransform, PowerTransform, ComposeTransform } from './transforms';
export { klDivergence, registerKl } from './kl';
export type { ValidateOptions } from './args';
