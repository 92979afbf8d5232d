/**
 * `nn.utils.parametrizations.orthogonal` (PyTorch 2.x, as 1.13's): the weight as an
 * orthogonal (or semi-orthogonal) matrix.
 *
 * Note [The orthogonal parametrization]
 * `original` holds an unconstrained matrix X that a map sends onto the orthogonal matrices:
 * `matrix_exp` (exp of the skew-symmetric A = tril(X) - tril(X)ᵀ), `cayley`
 * ((I - A/2)⁻¹(I + A/2)) or `householder` (the product of the reflectors below X's diagonal,
 * signed by the diagonal). A wide matrix is handled transposed. With `useTrivialization`
 * (the default) the result is multiplied by a buffer `base`, set by `rightInverse` to the
 * orthogonalised assigned value, and `original` restarts at the map's preimage of the
 * identity (-I on the diagonal), so registering keeps the weight (made orthogonal) and
 * training moves from it.
 */
import { NotImplementedError, ValueError, cat, eye, geqrf, linalgHouseholderProduct, linalgMatrixExp, linalgSolve, randn, zeros, zerosLike } from '@torch-ts/core';
import { Tensor } from './internal';
import { Module } from './module';
import { registerParametrization } from './parametrize';

const MAPS = ['matrix_exp', 'cayley', 'householder'] as const;
export type OrthogonalMap = (typeof MAPS)[number];

/** `_make_orthogonal(A)`: the Q of A's QR, each column signed by R's diagonal. */
function makeOrthogonal(A: Tensor): Tensor {
  const [X, tau] = geqrf(A);
  const Q = linalgHouseholderProduct(X, tau);
  return Q.mul(X.diagonal(0, -2, -1).sign().unsqueeze(-2));
}

function isOrthogonal(Q: Tensor): boolean {
  const [n, k] = [Q.size(-2), Q.size(-1)];
  const id = eye(k, { dtype: Q.dtype, device: Q.device });
  const eps = 10 * n * (Q.dtype === 'float64' ? 2.220446049250313e-16 : 1.1920928955078125e-7);
  // torch.allclose(QᵀQ, I, atol=eps) with rtol 1e-5: |a - b| <= atol + rtol * |b| everywhere
  const d = Q.mT.matmul(Q).sub(id).abs();
  const bound = id.abs().mul(1e-5).add(eps);
  return d.le(bound).all().item() as boolean;
}

/** PyTorch's `_Orthogonal` parametrization (Note [The orthogonal parametrization]). */
export class OrthogonalParametrization extends Module {
  declare base: Tensor | null;
  declare weightShape: readonly number[];

  constructor(
    weight: Tensor,
    readonly orthogonalMap: OrthogonalMap,
    readonly useTrivialization = true,
  ) {
    super();
    if (weight.isComplex() && orthogonalMap === 'householder') {
      throw new ValueError('orthogonal: The householder parametrization does not support complex tensors.');
    }
    Object.defineProperty(this, 'weightShape', { value: weight.shape, enumerable: false });
    if (useTrivialization) this.registerBuffer('base', null);
  }

  override forward(Xin: Tensor): Tensor {
    let X = Xin;
    let [n, k] = [X.size(-2), X.size(-1)];
    const transposed = n < k;
    if (transposed) {
      X = X.mT;
      [n, k] = [k, n];
    }
    let Q: Tensor;
    if (this.orthogonalMap === 'matrix_exp' || this.orthogonalMap === 'cayley') {
      X = X.tril();
      if (n !== k) X = cat([X, zeros([n, n - k], { dtype: X.dtype, device: X.device }).expand([...X.shape.slice(0, -2), -1, -1])], -1);
      const A = X.sub(X.mH);
      if (this.orthogonalMap === 'matrix_exp') Q = linalgMatrixExp(A);
      else {
        const id = eye(n, { dtype: A.dtype, device: A.device });
        Q = linalgSolve(id.add(A, { alpha: -0.5 }), id.add(A, { alpha: 0.5 }));
      }
      if (n !== k) Q = Q.narrow(-1, 0, k);
    } else {
      const A = X.tril(-1);
      const tau = A.mul(A).sum(-2).add(1).reciprocal().mul(2);
      Q = linalgHouseholderProduct(A, tau).mul(X.diagonal(0, -2, -1).int().unsqueeze(-2));
    }
    if (this.base != null) Q = this.base.matmul(Q);
    if (transposed) Q = Q.mT;
    return Q;
  }

  rightInverse(Qin: Tensor): Tensor {
    const shape = this.weightShape;
    if (Qin.shape.join() !== shape.join()) {
      throw new ValueError(`orthogonal: Expected a matrix or batch of matrices of shape [${shape.join(', ')}]. Got a tensor of shape [${Qin.shape.join(', ')}].`);
    }
    let Q = Qin;
    let [n, k] = [Q.size(-2), Q.size(-1)];
    const transpose = n < k;
    if (transpose) {
      Q = Q.mT;
      [n, k] = [k, n];
    }
    if (!this.useTrivialization) {
      if (this.orthogonalMap !== 'householder') {
        throw new NotImplementedError('orthogonal: It is not possible to assign to the matrix exponential or the Cayley parametrizations when use_trivialization=False.');
      }
      const [A, tau] = geqrf(Q);
      const d = A.diagonal(0, -2, -1);
      d.sign_();
      d.maskedFill_(tau.eq(0), -1);
      return transpose ? A.mT : A;
    }
    if (n === k) Q = isOrthogonal(Q) ? Q.clone() : makeOrthogonal(Q);
    else {
      const N = randn([...Q.shape.slice(0, -2), n, n - k], { dtype: Q.dtype, device: Q.device });
      Q = makeOrthogonal(cat([Q, N], -1));
    }
    this.base = Q;
    const negId = zerosLike(Qin);
    negId.diagonal(0, -2, -1).fill_(-1);
    return negId;
  }

  override _getName(): string {
    return '_Orthogonal';
  }
}

/**
 * `parametrizations.orthogonal(module, name='weight', orthogonal_map=None, *, use_trivialization=True)`:
 * the map defaults to `matrix_exp` for square (or complex) weights, else `householder`.
 */
export function orthogonal<M extends Module>(module: M, name = 'weight', options: { orthogonalMap?: OrthogonalMap | null; useTrivialization?: boolean } = {}): M {
  const weight = module._parameters.get(name) ?? module._buffers.get(name);
  if (!(weight instanceof Tensor)) throw new ValueError(`orthogonal: Module '${module._getName()}' has no parameter or buffer with name '${name}'`);
  if (weight.dim() < 2) throw new ValueError(`orthogonal: Expected a matrix or batch of matrices. Got a tensor of ${weight.dim()} dimensions.`);
  const map = options.orthogonalMap ?? (weight.size(-2) === weight.size(-1) || weight.isComplex() ? 'matrix_exp' : 'householder');
  if (!MAPS.includes(map)) throw new ValueError(`orthogonal: orthogonal_map has to be one of "matrix_exp", "cayley", "householder". Got: ${String(map)}`);
  registerParametrization(module, name, new OrthogonalParametrization(weight, map, options.useTrivialization ?? true), { unsafe: true });
  return module;
}
