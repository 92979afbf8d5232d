/**
 * Weight and spectral normalisation, in both of PyTorch's forms: the hook-based
 * `nn.utils.weightNorm` / `removeWeightNorm` / `spectralNorm` / `removeSpectralNorm`
 * (parameters `weight_g`, `weight_v`; `weight_orig` and buffers `weight_u`, `weight_v`), and
 * the parametrizations of `nn.utils.parametrizations` (PyTorch 2.x: keys
 * `parametrizations.weight.original0/1`, `parametrizations.weight.original` and the
 * parametrization's buffers `_u`, `_v`).
 *
 * Note [Spectral norm's power iteration]
 * Both forms estimate the largest singular value σ of the weight reshaped to a matrix
 * (`dim` first, the rest flattened) by power iteration on unit vectors u (rows) and v
 * (columns), first drawn from N(0, 1) with `weight.newEmpty(h).normal_()` then `v` likewise,
 * so after the same `manualSeed` they are PyTorch's, and normalised as `F.normalize` does
 * (x / max(‖x‖, eps)). The hook form iterates `v = normalize(Wᵀu)`, `u = normalize(Wv)`
 * before each training-mode forward; the parametrization iterates `u = normalize(Wv)`,
 * `v = normalize(Wᴴu)`, 15 times when registered and `nPowerIterations` times per
 * training forward. σ = u·(Wv), computed with grad so that the weight's gradient flows
 * through σ, while u and v are constants (updated in place under no-grad, as PyTorch's
 * `out=` writes).
 */
import { ValueError, empty } from '@torch-ts/core';
import { Tensor, TorchError, noGradGuard } from './internal';
import { Module } from './module';
import { Parameter } from './parameter';
import type { RemovableHandle } from './module';
import { registerParametrization } from './parametrize';

/** `torch.norm_except_dim(v, 2, dim)`: the 2-norm over every dim but `dim`, kept as size-1 dims (dim -1: of everything, 0-D). */
export function normExceptDim(v: Tensor, dim: number): Tensor {
  if (dim === -1) return v.norm(2);
  const dims = v.shape.map((_, i) => i).filter((i) => i !== dim);
  return v.norm(2, dims, true);
}

/** `torch._weight_norm(v, g, dim)`: v * (g / normExceptDim(v, dim)). */
export function weightNormOf(v: Tensor, g: Tensor, dim: number): Tensor {
  const n = normExceptDim(v, dim);
  const r = g.div(n);
  const out = v.mul(r);
  n.dispose();
  r.dispose();
  return out;
}

function checkDim(op: string, t: Tensor, dim: number | null): number {
  if (dim === null || dim === -1) return -1;
  if (!Number.isInteger(dim) || dim < -t.dim() || dim >= t.dim()) {
    throw new TorchError(`${op}: Dimension out of range (expected to be in range of [${-t.dim()}, ${t.dim() - 1}], but got ${dim})`);
  }
  return dim < 0 ? dim + t.dim() : dim;
}

/** F.normalize(x, dim=0, eps): x / max(‖x‖₂, eps). */
function normalize(x: Tensor, eps: number): Tensor {
  const n = x.norm(2, [0], true);
  const d = n.clampMin(eps);
  const out = x.div(d);
  n.dispose();
  d.dispose();
  return out;
}

/** The weight as a matrix: `dim` first, the rest flattened. */
function toMatrix(weight: Tensor, dim: number): Tensor {
  let w = weight;
  if (dim !== 0) w = w.permute(dim, ...weight.shape.map((_, i) => i).filter((i) => i !== dim));
  return w.reshape(w.shape[0], -1);
}

function isConvTranspose(m: Module): boolean {
  return /^ConvTranspose/.test(m.constructor.name);
}

// ---- the hook-based forms ----

class WeightNormHook {
  constructor(
    readonly name: string,
    readonly dim: number,
    public handle: RemovableHandle | null = null,
  ) {}

  compute(module: Module): Tensor {
    const g = module._parameters.get(`${this.name}_g`)!;
    const v = module._parameters.get(`${this.name}_v`)!;
    return weightNormOf(v, g, this.dim);
  }
}

const weightNorms = new WeakMap<Module, Map<string, WeightNormHook>>();
const spectralNorms = new WeakMap<Module, Map<string, SpectralNormHook>>();

function plainSet(module: Module, name: string, value: Tensor): void {
  (module as unknown as Record<string, unknown>)[name] = value;
}

/**
 * `nn.utils.weight_norm(module, name='weight', dim=0)`: replaces the parameter by `name_g`
 * (its norm over every dim but `dim`) and `name_v` (its direction), and recomputes
 * `module[name] = v * g / ‖v‖` before every forward. `dim: null` normalises the whole tensor.
 */
export function weightNorm<M extends Module>(module: M, name = 'weight', dim: number | null = 0): M {
  const hooks = weightNorms.get(module) ?? new Map<string, WeightNormHook>();
  if (hooks.has(name)) throw new TorchError(`weightNorm: Cannot register two weight_norm hooks on the same parameter ${name}`);
  const weight = module._parameters.get(name);
  if (!(weight instanceof Parameter)) throw new TorchError(`weightNorm: Module '${module._getName()}' has no parameter '${name}'`);
  const fn = new WeightNormHook(name, checkDim('weightNorm', weight, dim));
  Reflect.deleteProperty(module, name);
  const g = noGradGuard(() => normExceptDim(weight, fn.dim));
  module.registerParameter(`${name}_g`, new Parameter(g));
  module.registerParameter(`${name}_v`, new Parameter(weight));
  g.dispose();
  plainSet(module, name, fn.compute(module));
  fn.handle = module.registerForwardPreHook((m) => void plainSet(m, name, fn.compute(m)));
  hooks.set(name, fn);
  weightNorms.set(module, hooks);
  return module;
}

/** `nn.utils.remove_weight_norm(module, name='weight')`: the computed weight becomes a parameter again. */
export function removeWeightNorm<M extends Module>(module: M, name = 'weight'): M {
  const fn = weightNorms.get(module)?.get(name);
  if (!fn) throw new ValueError(`removeWeightNorm: weight_norm of '${name}' not found in ${String(module)}`);
  const w = noGradGuard(() => fn.compute(module));
  Reflect.deleteProperty(module, name);
  Reflect.deleteProperty(module, `${name}_g`);
  Reflect.deleteProperty(module, `${name}_v`);
  module.registerParameter(name, new Parameter(w));
  w.dispose();
  fn.handle?.remove();
  weightNorms.get(module)!.delete(name);
  return module;
}

class SpectralNormHook {
  handle: RemovableHandle | null = null;
  constructor(
    readonly name: string,
    readonly nPowerIterations: number,
    readonly dim: number,
    readonly eps: number,
  ) {}

  /** PyTorch's SpectralNorm.compute_weight (Note [Spectral norm's power iteration]). */
  compute(module: Module, doPowerIteration: boolean): Tensor {
    const weight = module._parameters.get(`${this.name}_orig`)!;
    const u = module._buffers.get(`${this.name}_u`)!;
    const v = module._buffers.get(`${this.name}_v`)!;
    const mat = toMatrix(weight, this.dim);
    if (doPowerIteration) {
      noGradGuard(() => {
        for (let i = 0; i < this.nPowerIterations; i++) {
          const wtu = mat.t().mv(u);
          const nv = normalize(wtu, this.eps);
          v.copy_(nv);
          const wv = mat.mv(v);
          const nu = normalize(wv, this.eps);
          u.copy_(nu);
          for (const t of [wtu, nv, wv, nu]) t.dispose();
        }
      });
    }
    // (clones, as PyTorch's after iterating: the next iteration writes u and v in place)
    const uc = noGradGuard(() => u.clone());
    const vc = noGradGuard(() => v.clone());
    const wv = mat.mv(vc);
    const sigma = uc.dot(wv);
    const out = weight.div(sigma);
    for (const t of [uc, vc, wv, sigma]) t.dispose();
    if (mat !== weight) mat.dispose();
    return out;
  }
}

export interface SpectralNormOptions {
  nPowerIterations?: number;
  eps?: number;
  dim?: number | null;
}

function drawUV(weightMat: Tensor, eps: number): [Tensor, Tensor] {
  return noGradGuard(() => {
    const [h, w] = weightMat.shape;
    const u0 = empty([h], { dtype: weightMat.dtype, device: weightMat.device }).normal_(0, 1);
    const v0 = empty([w], { dtype: weightMat.dtype, device: weightMat.device }).normal_(0, 1);
    const u = normalize(u0, eps);
    const v = normalize(v0, eps);
    u0.dispose();
    v0.dispose();
    return [u, v];
  });
}

/**
 * `nn.utils.spectral_norm(module, name='weight', n_power_iterations=1, eps=1e-12, dim=None)`:
 * the parameter becomes `name_orig`, buffers `name_u` and `name_v` hold the power
 * iteration's vectors, and `module[name] = name_orig / σ` is recomputed before every forward
 * (Note [Spectral norm's power iteration]). `dim` defaults to 1 for ConvTranspose, else 0.
 */
export function spectralNorm<M extends Module>(module: M, name = 'weight', options: SpectralNormOptions = {}): M {
  const hooks = spectralNorms.get(module) ?? new Map<string, SpectralNormHook>();
  if (hooks.has(name)) throw new TorchError(`spectralNorm: Cannot register two spectral_norm hooks on the same parameter ${name}`);
  const n = options.nPowerIterations ?? 1;
  if (n <= 0) throw new ValueError(`spectralNorm: Expected n_power_iterations to be positive, but got n_power_iterations=${n}`);
  const weight = module._parameters.get(name);
  if (!(weight instanceof Parameter)) throw new TorchError(`spectralNorm: Module '${module._getName()}' has no parameter '${name}'`);
  const dim = options.dim ?? (isConvTranspose(module) ? 1 : 0);
  const fn = new SpectralNormHook(name, n, checkDim('spectralNorm', weight, dim), options.eps ?? 1e-12);
  const mat = noGradGuard(() => toMatrix(weight, fn.dim));
  const [u, v] = drawUV(mat, fn.eps);
  mat.dispose();
  Reflect.deleteProperty(module, name);
  module.registerParameter(`${name}_orig`, weight);
  plainSet(module, name, noGradGuard(() => weight.detach()));
  module.registerBuffer(`${name}_u`, u);
  module.registerBuffer(`${name}_v`, v);
  fn.handle = module.registerForwardPreHook((m) => void plainSet(m, name, fn.compute(m, m.training)));
  hooks.set(name, fn);
  spectralNorms.set(module, hooks);
  return module;
}

/** `nn.utils.remove_spectral_norm(module, name='weight')`: the normalised weight (without iterating) becomes the parameter. */
export function removeSpectralNorm<M extends Module>(module: M, name = 'weight'): M {
  const fn = spectralNorms.get(module)?.get(name);
  if (!fn) throw new ValueError(`removeSpectralNorm: spectral_norm of '${name}' not found in ${String(module)}`);
  const w = noGradGuard(() => fn.compute(module, false));
  for (const k of [name, `${name}_u`, `${name}_v`, `${name}_orig`]) Reflect.deleteProperty(module, k);
  module.registerParameter(name, new Parameter(w));
  w.dispose();
  fn.handle?.remove();
  spectralNorms.get(module)!.delete(name);
  return module;
}

// ---- the parametrizations (PyTorch 2.x `torch.nn.utils.parametrizations`) ----

/** PyTorch's `_WeightNorm` parametrization: (g, v) -> v * g / ‖v‖. */
export class WeightNormParametrization extends Module {
  constructor(readonly dim: number) {
    super();
  }

  override forward(weightG: Tensor, weightV: Tensor): Tensor {
    return weightNormOf(weightV, weightG, this.dim);
  }

  rightInverse(weight: Tensor): Tensor[] {
    return [normExceptDim(weight, this.dim), weight];
  }

  override _getName(): string {
    return '_WeightNorm';
  }
}

/** PyTorch's `_SpectralNorm` parametrization (Note [Spectral norm's power iteration]). */
export class SpectralNormParametrization extends Module {
  declare _u: Tensor;
  declare _v: Tensor;

  constructor(
    weight: Tensor,
    readonly nPowerIterations = 1,
    public dim = 0,
    readonly eps = 1e-12,
  ) {
    super();
    const ndim = weight.dim();
    if (dim >= ndim || dim < -ndim) {
      throw new TorchError(`spectralNorm: Dimension out of range (expected to be in range of [-${ndim}, ${ndim - 1}] but got ${dim})`);
    }
    if (nPowerIterations <= 0) {
      throw new ValueError(`spectralNorm: Expected n_power_iterations to be positive, but got n_power_iterations=${nPowerIterations}`);
    }
    this.dim = dim >= 0 ? dim : dim + ndim;
    if (ndim > 1) {
      const mat = noGradGuard(() => toMatrix(weight, this.dim));
      const [u, v] = drawUV(mat, eps);
      this.registerBuffer('_u', u);
      this.registerBuffer('_v', v);
      this.powerMethod(mat, 15);
      mat.dispose();
    }
  }

  private powerMethod(mat: Tensor, n: number): void {
    noGradGuard(() => {
      for (let i = 0; i < n; i++) {
        const wv = mat.mv(this._v);
        const nu = normalize(wv, this.eps);
        this._u.copy_(nu);
        const wtu = mat.t().mv(this._u);
        const nv = normalize(wtu, this.eps);
        this._v.copy_(nv);
        for (const t of [wv, nu, wtu, nv]) t.dispose();
      }
    });
  }

  override forward(weight: Tensor): Tensor {
    if (weight.dim() === 1) return normalize(weight, this.eps);
    const mat = toMatrix(weight, this.dim);
    if (this.training) this.powerMethod(mat, this.nPowerIterations);
    const u = noGradGuard(() => this._u.clone());
    const v = noGradGuard(() => this._v.clone());
    const wv = mat.mv(v);
    const sigma = u.dot(wv);
    const out = weight.div(sigma);
    for (const t of [u, v, wv, sigma, mat]) t.dispose();
    return out;
  }

  rightInverse(value: Tensor): Tensor {
    return value;
  }

  override _getName(): string {
    return '_SpectralNorm';
  }
}

function parametrizedTensor(op: string, module: Module, name: string): Tensor {
  const w = module._parameters.get(name) ?? module._buffers.get(name);
  if (!(w instanceof Tensor)) throw new ValueError(`${op}: Module '${module._getName()}' has no parameter or buffer with name '${name}'`);
  return w;
}

/** `parametrizations.weight_norm(module, name='weight', dim=0)`: keys `parametrizations.weight.original0` (g) and `original1` (v). */
export function weightNormParametrization<M extends Module>(module: M, name = 'weight', dim: number | null = 0): M {
  const w = parametrizedTensor('weightNorm', module, name);
  registerParametrization(module, name, new WeightNormParametrization(checkDim('weightNorm', w, dim)), { unsafe: true });
  return module;
}

/** `parametrizations.spectral_norm(module, name='weight', n_power_iterations=1, eps=1e-12, dim=None)`. */
export function spectralNormParametrization<M extends Module>(module: M, name = 'weight', options: SpectralNormOptions = {}): M {
  const w = parametrizedTensor('spectralNorm', module, name);
  const dim = options.dim ?? (isConvTranspose(module) ? 1 : 0);
  registerParametrization(module, name, new SpectralNormParametrization(w, options.nPowerIterations ?? 1, dim, options.eps ?? 1e-12));
  return module;
}
