/**
 * `torch.nn.utils`: gradient clipping, parameter <-> vector conversion, and `rnn`
 * (PackedSequence and its packing and padding functions).
 */
import { cat, fullLike, makeBinder, zeros, type FrontArgs, type FrontOptions } from '@torch-ts/core';
import { Tensor, TorchError, noGradGuard, ownGrad } from './internal';

type Params = Tensor | Iterable<Tensor>;

function toList(parameters: Params): Tensor[] {
  return parameters instanceof Tensor ? [parameters] : [...parameters];
}

function vectorNorm(g: Tensor, normType: number): Tensor {
  if (normType === Infinity) {
    // (a sparse gradient's abs is sparse, and its max has no sparse kernel: PyTorch 1.13's error)
    const a = g.abs();
    try {
      return a.amax();
    } finally {
      a.dispose();
    }
  }
  // (a sparse gradient: the norm of its coalesced values, as 1.13's torch.norm)
  if (g.isSparse) return g.norm(normType);
  if (normType === 2) {
    const sq = g.mul(g);
    const s = sq.sum();
    const r = s.sqrt();
    sq.dispose();
    s.dispose();
    return r;
  }
  const a = g.abs();
  const p = a.pow(normType);
  const s = p.sum();
  const r = s.pow(1 / normType);
  for (const z of [a, p, s]) z.dispose();
  return r;
}

/**
 * Note [nn.utils functions bind their arguments]
 * `clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None)`
 * and `clip_grad_value_(parameters, clip_value, foreach=None)` bind their arguments by PyTorch's
 * signature (Note [The argument binder]). `parameters` is a Tensor or any iterable of them,
 * which the schema language cannot spell: it is bound as `Any` (so the messages count it) and
 * its JS type is written; the rest's types come from the same text. `foreach` only picks
 * PyTorch's implementation, not the numbers, so it is accepted.
 */
const CLIP_GRAD_NORM = 'float max_norm, float norm_type=2.0, bool error_if_nonfinite=False, bool? foreach=None';
const clipGradNormArgs = makeBinder('clip_grad_norm_', `clip_grad_norm_(Any parameters, ${CLIP_GRAD_NORM}) -> Tensor`);
export type ClipGradNormOptions = FrontOptions<`clip_grad_norm_(${typeof CLIP_GRAD_NORM}) -> Tensor`>;

/**
 * Scales the gradients in place so their total `normType`-norm is at most `maxNorm`, and
 * returns the total norm (before clipping), as `clip_grad_norm_`. The total of the
 * per-gradient norms is accumulated with tensor ops, so nothing is read back.
 */
export function clipGradNorm_(parameters: Params, ...args: FrontArgs<`clip_grad_norm_(${typeof CLIP_GRAD_NORM}) -> Tensor`>): Tensor {
  const [, maxNorm, normType, errorIfNonfinite] = clipGradNormArgs.bind([parameters, ...args]);
  return noGradGuard(() => {
    const grads = toList(parameters)
      .map((p) => ownGrad(p))
      .filter((g): g is Tensor => g !== null);
    if (grads.length === 0) return zeros([]);
    try {
      const norms = grads.map((g) => vectorNorm(g, normType));
      let total: Tensor;
      if (normType === Infinity) {
        total = norms[0];
        for (let i = 1; i < norms.length; i++) {
          const t = total.maximum(norms[i]);
          total.dispose();
          norms[i].dispose();
          total = t;
        }
      } else {
        total = norms.length === 1 ? norms[0].clone() : norms[0].pow(normType);
        if (norms.length > 1) {
          for (let i = 1; i < norms.length; i++) {
            const pi = norms[i].pow(normType);
            total.add_(pi);
            pi.dispose();
          }
          const t = total.pow(1 / normType);
          total.dispose();
          total = t;
        }
        for (const n of norms) n.dispose();
      }
      if (errorIfNonfinite) {
        const v = Number(total.item());
        if (!Number.isFinite(v)) {
          total.dispose();
          throw new TorchError(
            `clipGradNorm_: the total norm of order ${normType} for gradients from \`parameters\` is non-finite, so it cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set \`errorIfNonfinite: false\``,
          );
        }
      }
      const denom = total.add(1e-6);
      const coef = fullLike(total, maxNorm).div(denom);
      const clamped = coef.clampMax(1.0);
      // PyTorch 1.13 scales `g.detach()` in place: a dense gradient's storage, but a sparse
      // gradient's detached alias gets new members from mul_ and the gradient is left as it
      // was (core Note in sparse/sparse-math.ts), so a sparse gradient is not clipped in 1.13.
      for (const g of grads) {
        const d = g.detach();
        d.mul_(clamped);
        d.dispose();
      }
      for (const z of [denom, coef, clamped]) z.dispose();
      return total;
    } finally {
      for (const g of grads) g.dispose();
    }
  });
}

const CLIP_GRAD_VALUE = 'float clip_value, bool? foreach=None';
const clipGradValueArgs = makeBinder('clip_grad_value_', `clip_grad_value_(Any parameters, ${CLIP_GRAD_VALUE}) -> ()`);

/** Clamps every gradient in place to [-clipValue, clipValue] (Note [nn.utils functions bind their arguments]). */
export function clipGradValue_(parameters: Params, ...args: FrontArgs<`clip_grad_value_(${typeof CLIP_GRAD_VALUE}) -> ()`>): void {
  const [, clipValue] = clipGradValueArgs.bind([parameters, ...args]);
  noGradGuard(() => {
    for (const p of toList(parameters)) {
      const g = ownGrad(p);
      if (g === null) continue;
      g.clamp_(-clipValue, clipValue);
      g.dispose();
    }
  });
}

/** One flat vector of all parameters: a differentiable `cat` of their flattened views. */
export function parametersToVector(parameters: Iterable<Tensor>): Tensor {
  const list = [...parameters];
  if (list.length === 0) throw new TorchError('parametersToVector: expected a non-empty list of parameters');
  const device = list[0].device;
  for (const p of list) {
    if (p.device.type !== device.type) throw new TorchError('parametersToVector: Found two parameters on different devices, this is currently not supported.');
  }
  const flats = list.map((p) => p.reshape(-1));
  try {
    return cat(flats);
  } finally {
    for (const f of flats) f.dispose();
  }
}

/** Copies consecutive slices of `vec` into the parameters (in place, under no-grad). */
export function vectorToParameters(vec: Tensor, parameters: Iterable<Tensor>): void {
  if (!(vec instanceof Tensor)) throw new TorchError(`vectorToParameters: expected a Tensor, but got ${typeof vec}`);
  if (vec.dim() !== 1) throw new TorchError(`vectorToParameters: expected a 1-D vector, but got ${vec.dim()}-D`);
  const list = [...parameters];
  const total = list.reduce((n, p) => n + p.numel(), 0);
  if (total !== vec.numel()) throw new TorchError(`vectorToParameters: the vector has ${vec.numel()} elements but the parameters hold ${total}`);
  noGradGuard(() => {
    let off = 0;
    for (const p of list) {
      const n = p.numel();
      const src = vec.narrow(0, off, n).view([...p.shape]);
      p.copy_(src);
      src.dispose();
      off += n;
    }
  });
}

export * as rnn from './rnn-utils';
export * as parametrize from './parametrize';
export * as parametrizations from './parametrizations';
export { weightNorm, removeWeightNorm, spectralNorm, removeSpectralNorm, type SpectralNormOptions } from './weight-norm';
