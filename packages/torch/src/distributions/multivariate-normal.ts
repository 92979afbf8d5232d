import { Tensor, ValueError, broadcastShapes, eye, linalgCholesky, linalgSolveTriangular } from '@torch-ts/core';
import { distributionBinder, type ValidateOptions } from './args';
import { lowerCholesky, positiveDefinite, realVector, type Constraint } from './constraints';
import { Distribution } from './distribution';
import { standardNormal } from './utils';

const mvnArgs = distributionBinder(
  'MultivariateNormal',
  'Any loc, Tensor? covariance_matrix=None, Tensor? precision_matrix=None, Tensor? scale_tril=None, bool? validate_args=None',
);

export interface MultivariateNormalOptions extends ValidateOptions {
  covarianceMatrix?: Tensor | null;
  precisionMatrix?: Tensor | null;
  scaleTril?: Tensor | null;
}

/** L x for a batch of lower-triangular L and vectors x (PyTorch's `_batch_mv`). */
function batchMv(L: Tensor, x: Tensor): Tensor {
  return L.matmul(x.unsqueeze(-1)).squeeze(-1);
}

/**
 * The squared Mahalanobis norm |L^-1 x|² for lower-triangular L (PyTorch's
 * `_batch_mahalanobis`, which reshapes to solve once per distinct L; this broadcasts L to
 * x's batch instead, the same solves).
 */
export function batchMahalanobis(L: Tensor, x: Tensor): Tensor {
  const n = x.shape[x.dim() - 1];
  const batch = broadcastShapes('_batch_mahalanobis', L.shape.slice(0, -2), x.shape.slice(0, -1));
  const Lb = L.expand([...batch, n, n]);
  const xb = x.expand([...batch, n]);
  return linalgSolveTriangular(Lb, xb.unsqueeze(-1), { upper: false }).squeeze(-1).pow(2).sum(-1);
}

/** A scale_tril from a precision matrix P: the Cholesky factor of P's flip, flipped and inverted (PyTorch's `_precision_to_scale_tril`). */
function precisionToScaleTril(P: Tensor): Tensor {
  const Lf = linalgCholesky(P.flip([-2, -1]));
  const Linv = Lf.flip([-2, -1]).transpose(-2, -1);
  const Id = eye(P.shape[P.dim() - 1], { dtype: P.dtype, device: P.device });
  return linalgSolveTriangular(Linv, Id, { upper: false });
}

/**
 * The multivariate normal distribution N(loc, Σ), Σ given as `covarianceMatrix`,
 * `precisionMatrix` (Σ⁻¹) or `scaleTril` (the lower Cholesky factor of Σ): exactly one.
 */
export class MultivariateNormal extends Distribution {
  readonly loc: Tensor;
  readonly #given: 'covarianceMatrix' | 'precisionMatrix' | 'scaleTril';
  readonly #given0: Tensor;
  /** The lower Cholesky factor of Σ, before broadcasting (PyTorch's `_unbroadcasted_scale_tril`). */
  readonly unbroadcastedScaleTril: Tensor;

  constructor(...args: [loc: Tensor, covarianceMatrix?: Tensor | null, precisionMatrix?: Tensor | null, scaleTril?: Tensor | null, validateArgs?: boolean | null] | [loc: Tensor, options: MultivariateNormalOptions]) {
    super();
    const [loc, cov, prec, tril, validateArgs] = mvnArgs.bind(args);
    if (!(loc instanceof Tensor) || loc.dim() < 1) throw new ValueError('loc must be at least one-dimensional.');
    if (Number(cov != null) + Number(tril != null) + Number(prec != null) !== 1) {
      throw new ValueError('Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.');
    }
    const [name, m] = tril != null ? (['scaleTril', tril] as const) : cov != null ? (['covarianceMatrix', cov] as const) : (['precisionMatrix', prec!] as const);
    if (m.dim() < 2) {
      const py = name === 'scaleTril' ? 'scale_tril' : name === 'covarianceMatrix' ? 'covariance_matrix' : 'precision_matrix';
      throw new ValueError(`${py} matrix must be at least two-dimensional, with optional leading batch dimensions`);
    }
    const batch = broadcastShapes('MultivariateNormal', m.shape.slice(0, -2), loc.shape.slice(0, -1));
    this.#given = name;
    this.#given0 = m.expand([...batch, -1, -1]);
    this.loc = loc.expand([...batch, -1]);
    // (validated before the factorization, as PyTorch: a matrix that is not positive-definite is a ValueError)
    this.setup(batch, this.loc.shape.slice(-1), validateArgs);
    this.unbroadcastedScaleTril = name === 'scaleTril' ? m : name === 'covarianceMatrix' ? linalgCholesky(m) : precisionToScaleTril(m);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { loc: realVector, covarianceMatrix: positiveDefinite, precisionMatrix: positiveDefinite, scaleTril: lowerCholesky };
  }

  protected override givenParams(): readonly string[] {
    return ['loc', this.#given];
  }

  protected override param(name: string): Tensor | undefined {
    return name === this.#given ? this.#given0 : super.param(name);
  }

  override get support(): Constraint {
    return realVector;
  }

  override get hasRsample(): boolean {
    return true;
  }

  get scaleTril(): Tensor {
    return this.unbroadcastedScaleTril.expand([...this.batchShape, ...this.eventShape, ...this.eventShape]);
  }

  get covarianceMatrix(): Tensor {
    const L = this.unbroadcastedScaleTril;
    return L.matmul(L.transpose(-2, -1)).expand([...this.batchShape, ...this.eventShape, ...this.eventShape]);
  }

  get precisionMatrix(): Tensor {
    // (PyTorch's cholesky_inverse: (L L^T)^-1 = L^-T L^-1)
    const L = this.unbroadcastedScaleTril;
    const n = L.shape[L.dim() - 1];
    const Linv = linalgSolveTriangular(L, eye(n, { dtype: L.dtype, device: L.device }), { upper: false });
    return Linv.transpose(-2, -1).matmul(Linv).expand([...this.batchShape, ...this.eventShape, ...this.eventShape]);
  }

  override get mean(): Tensor {
    return this.loc;
  }

  override get mode(): Tensor {
    return this.loc;
  }

  override get variance(): Tensor {
    return this.unbroadcastedScaleTril.pow(2).sum(-1).expand([...this.batchShape, ...this.eventShape]);
  }

  protected override draw(sampleShape: number[]): Tensor {
    const eps = standardNormal(this.extendedShape(sampleShape), this.loc.dtype, this.loc.device);
    return this.loc.add(batchMv(this.unbroadcastedScaleTril, eps));
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    const diff = value.sub(this.loc);
    const M = batchMahalanobis(this.unbroadcastedScaleTril, diff);
    const halfLogDet = this.unbroadcastedScaleTril.diagonal(0, -2, -1).log().sum(-1);
    return M.add(this.eventShape[0] * Math.log(2 * Math.PI)).mul(-0.5).sub(halfLogDet);
  }

  override entropy(): Tensor {
    const halfLogDet = this.unbroadcastedScaleTril.diagonal(0, -2, -1).log().sum(-1);
    const H = halfLogDet.add(0.5 * this.eventShape[0] * (1 + Math.log(2 * Math.PI)));
    return this.batchShape.length === 0 ? H : H.expand(this.batchShape);
  }

  protected override expandTo(batchShape: number[]): Distribution {
    const n = this.eventShape[0];
    return new MultivariateNormal(this.loc.expand([...batchShape, n]), { scaleTril: this.unbroadcastedScaleTril.expand([...batchShape, n, n]), validateArgs: false });
  }
}
