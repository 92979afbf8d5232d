import { NotImplementedError, Tensor, ValueError, broadcastShapes, digamma, lgamma, linalgSolveTriangular, softplus, where } from '@torch-ts/core';
import { Bernoulli } from './bernoulli';
import { Categorical, OneHotCategorical } from './categorical';
import { Distribution } from './distribution';
import { Exponential } from './exponential';
import { Beta, Dirichlet, Gamma, Poisson } from './gamma';
import { Binomial } from './binomial';
import { MultivariateNormal, batchMahalanobis } from './multivariate-normal';
import { Independent } from './independent';
import { Laplace } from './laplace';
import { Normal } from './normal';
import { TransformedDistribution } from './transformed-distribution';
import { Uniform } from './uniform';
import { sumRightmost } from './utils';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type DistClass<D extends Distribution> = abstract new (...args: any[]) => D;
type KLFn = (p: Distribution, q: Distribution) => Tensor;

interface Entry {
  readonly p: DistClass<Distribution>;
  readonly q: DistClass<Distribution>;
  readonly fn: KLFn;
}

const REGISTRY: Entry[] = [];

/**
 * Registers the KL divergence of a pair of distribution classes (PyTorch's `register_kl`):
 * `klDivergence` uses the most specific registered pair of classes the arguments belong to.
 */
export function registerKl<P extends Distribution, Q extends Distribution>(p: DistClass<P>, q: DistClass<Q>, fn: (p: P, q: Q) => Tensor): void {
  const checked: KLFn = (a, b) => {
    if (!(a instanceof p) || !(b instanceof q)) throw new ValueError(`registerKl: the pair ${a.constructor.name}, ${b.constructor.name} is not ${p.name}, ${q.name}`);
    return fn(a, b);
  };
  REGISTRY.unshift({ p, q, fn: checked });
}

/** How far up `x`'s prototype chain `cls` is (0: its own class), or -1. */
function distance(x: Distribution, cls: DistClass<Distribution>): number {
  let proto: unknown = Object.getPrototypeOf(x);
  for (let d = 0; proto !== null; d++) {
    if (proto === cls.prototype) return d;
    proto = Object.getPrototypeOf(proto);
  }
  return -1;
}

/** KL(p ‖ q) over the batch, for a registered pair of classes (PyTorch's `kl_divergence`). */
export function klDivergence(p: Distribution, q: Distribution): Tensor {
  let best: Entry | null = null;
  let bestRank: [number, number] = [Infinity, Infinity];
  for (const e of REGISTRY) {
    const dp = distance(p, e.p);
    const dq = distance(q, e.q);
    if (dp < 0 || dq < 0) continue;
    if (dp < bestRank[0] || (dp === bestRank[0] && dq < bestRank[1])) {
      best = e;
      bestRank = [dp, dq];
    }
  }
  if (best === null) throw new NotImplementedError(`No KL(p || q) is implemented for p type ${p.constructor.name} and q type ${q.constructor.name}`);
  return best.fn(p, q);
}

const inf = Number.POSITIVE_INFINITY;

registerKl(Normal, Normal, (p, q) => {
  const varRatio = p.scale.div(q.scale).pow(2);
  const t1 = p.loc.sub(q.loc).div(q.scale).pow(2);
  return varRatio.add(t1).sub(1).sub(varRatio.log()).mul(0.5);
});

registerKl(Uniform, Uniform, (p, q) => {
  const result = q.high.sub(q.low).div(p.high.sub(p.low)).log();
  return where(q.low.gt(p.low).logicalOr(q.high.lt(p.high)), inf, result);
});

registerKl(Bernoulli, Bernoulli, (p, q) => {
  let t1 = p.probs.mul(softplus(q.logits.neg()).sub(softplus(p.logits.neg())));
  t1 = where(p.probs.eq(0), 0, where(q.probs.eq(0), inf, t1));
  let t2 = p.probs.neg().add(1).mul(softplus(q.logits).sub(softplus(p.logits)));
  t2 = where(p.probs.eq(1), 0, where(q.probs.eq(1), inf, t2));
  return t1.add(t2);
});

registerKl(Categorical, Categorical, (p, q) => {
  let t = p.probs.mul(p.logits.sub(q.logits));
  t = where(p.probs.eq(0).expandAs(t), 0, where(q.probs.eq(0).expandAs(t), inf, t));
  return t.sum(-1);
});

registerKl(OneHotCategorical, OneHotCategorical, (p, q) => klDivergence(new Categorical({ probs: p.probs, validateArgs: false }), new Categorical({ probs: q.probs, validateArgs: false })));

registerKl(Exponential, Exponential, (p, q) => {
  const rateRatio = q.rate.div(p.rate);
  return rateRatio.log().neg().add(rateRatio).sub(1);
});

registerKl(Laplace, Laplace, (p, q) => {
  const scaleRatio = p.scale.div(q.scale);
  const locAbsDiff = p.loc.sub(q.loc).abs();
  const t1 = scaleRatio.log().neg();
  const t2 = locAbsDiff.div(q.scale);
  const t3 = scaleRatio.mul(locAbsDiff.neg().div(p.scale).exp());
  return t1.add(t2).add(t3).sub(1);
});

registerKl(Independent, Independent, (p, q) => {
  if (p.reinterpretedBatchNdims !== q.reinterpretedBatchNdims) throw new NotImplementedError('KL between Independents with different reinterpreted_batch_ndims is not implemented');
  return sumRightmost(klDivergence(p.baseDist, q.baseDist), p.reinterpretedBatchNdims);
});

registerKl(TransformedDistribution, TransformedDistribution, (p, q) => {
  if (p.transforms.length !== q.transforms.length || p.transforms.some((t, i) => !t.equals(q.transforms[i]))) {
    throw new NotImplementedError('KL between TransformedDistributions with different transforms is not implemented');
  }
  if (p.eventShape.join() !== q.eventShape.join()) throw new ValueError('KL between TransformedDistributions with different event shapes is not implemented');
  return klDivergence(p.baseDist, q.baseDist);
});

registerKl(Gamma, Gamma, (p, q) => {
  const t1 = q.concentration.mul(p.rate.div(q.rate).log());
  const t2 = lgamma(q.concentration).sub(lgamma(p.concentration));
  const t3 = p.concentration.sub(q.concentration).mul(digamma(p.concentration));
  const t4 = q.rate.sub(p.rate).mul(p.concentration.div(p.rate));
  return t1.add(t2).add(t3).add(t4);
});

registerKl(Beta, Beta, (p, q) => {
  const sumP = p.concentration1.add(p.concentration0);
  const sumQ = q.concentration1.add(q.concentration0);
  const t1 = lgamma(q.concentration1).add(lgamma(q.concentration0)).add(lgamma(sumP));
  const t2 = lgamma(p.concentration1).add(lgamma(p.concentration0)).add(lgamma(sumQ));
  const t3 = p.concentration1.sub(q.concentration1).mul(digamma(p.concentration1));
  const t4 = p.concentration0.sub(q.concentration0).mul(digamma(p.concentration0));
  const t5 = sumQ.sub(sumP).mul(digamma(sumP));
  return t1.sub(t2).add(t3).add(t4).add(t5);
});

registerKl(Dirichlet, Dirichlet, (p, q) => {
  const sumP = p.concentration.sum(-1);
  const sumQ = q.concentration.sum(-1);
  const t1 = lgamma(sumP).sub(lgamma(sumQ));
  const t2 = lgamma(p.concentration).sub(lgamma(q.concentration)).sum(-1);
  const t3 = p.concentration.sub(q.concentration);
  const t4 = digamma(p.concentration).sub(digamma(sumP).unsqueeze(-1));
  return t1.sub(t2).add(t3.mul(t4).sum(-1));
});

registerKl(Poisson, Poisson, (p, q) => p.rate.mul(p.rate.log().sub(q.rate.log())).sub(p.rate.sub(q.rate)));

registerKl(Binomial, Binomial, (p, q) => {
  if (p.totalCount.lt(q.totalCount).any().item() === true) throw new NotImplementedError('KL between Binomials where q.total_count > p.total_count is not implemented');
  const kl = p.totalCount.mul(p.probs.mul(p.logits.sub(q.logits)).add(p.probs.neg().log1p()).sub(q.probs.neg().log1p()));
  return where(p.totalCount.gt(q.totalCount), Number.POSITIVE_INFINITY, kl);
});

registerKl(MultivariateNormal, MultivariateNormal, (p, q) => {
  if (p.eventShape[0] !== q.eventShape[0]) throw new ValueError('KL-divergence between two Multivariate Normals with different event shapes cannot be computed');
  const n = p.eventShape[0];
  const pL = p.unbroadcastedScaleTril;
  const qL = q.unbroadcastedScaleTril;
  const halfTerm1 = qL.diagonal(0, -2, -1).log().sum(-1).sub(pL.diagonal(0, -2, -1).log().sum(-1));
  const batch = broadcastShapes('kl_divergence', qL.shape.slice(0, -2), pL.shape.slice(0, -2));
  const solved = linalgSolveTriangular(qL.expand([...batch, n, n]), pL.expand([...batch, n, n]), { upper: false });
  // (PyTorch's _batch_trace_XXT: the squared Frobenius norm of each matrix)
  const term2 = solved.reshape([-1, n * n]).pow(2).sum(-1).reshape(batch);
  const term3 = batchMahalanobis(qL, q.loc.sub(p.loc));
  return halfTerm1.add(term2.add(term3).sub(n).mul(0.5));
});
