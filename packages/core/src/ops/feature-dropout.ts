import { isFloatingType } from '../dtype';
import { DTypeError, ShapeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { empty, zeros } from './factories';
import { front } from './front';
import { torchTypeName } from './meta-utils';

/**
 * Note [Feature dropout]
 * F.dropout1d / 2d / 3d zero whole channels: PyTorch's feature_dropout draws one
 * `bernoulli_(1 - p)` per (n, c) into a [N, C, 1, ...] noise (so a seed gives its values),
 * scales it by 1 / (1 - p) and multiplies (p = 1 multiplies by 0, never dividing by it).
 * dropout1d takes (N, C, L) or unbatched (C, L); dropout2d (N, C, H, W), and 3-d input as
 * (N, C, L), as 1.13 reads it; dropout3d (N, C, D, H, W) or unbatched (C, D, H, W). And
 * F.normalize: x / max(||x||_p over dim, eps), PyTorch's Python composition.
 */
function featureDropout(op: string, x: Tensor, p: number, training: boolean, inplace: boolean, unbatched: boolean): Tensor {
  if (!(p >= 0 && p <= 1)) throw new TorchError(`${op}: dropout probability has to be between 0 and 1, but got ${p}`);
  if (!training || p === 0 || x.numel() === 0) return x;
  if (!isFloatingType(x.dtype)) throw new DTypeError(`${op}: result type Float can't be cast to the desired output type ${torchTypeName(x.dtype)}`);
  const noise = tidy(() => {
    const lead = unbatched ? [1, x.shape[0]] : [x.shape[0], x.shape[1]];
    const shape = [...lead, ...Array<number>(x.dim() - (unbatched ? 1 : 2)).fill(1)];
    const n = p === 1 ? zeros(shape, { dtype: x.dtype, device: x.device }) : empty(shape, { dtype: x.dtype, device: x.device }).bernoulli_(1 - p).div_(1 - p);
    return unbatched ? n.squeeze(0) : n;
  });
  try {
    return inplace ? x.mul_(noise) : x.mul(noise);
  } finally {
    noise.dispose();
  }
}

const DROPOUT_ARGS = '(Tensor input, float p=0.5, bool training=True, bool inplace=False) -> Tensor';
const F_ONLY = { method: false, namespaces: ['nn.functional'] } as const;

/** `F.dropout1d(x, p, training, inplace)`: whole channels of (N, C, L) or (C, L) zeroed. */
export const dropout1d = front(`dropout1d${DROPOUT_ARGS}`, F_ONLY).run(([x, p, training, inplace]): Tensor => {
  if (x.dim() !== 2 && x.dim() !== 3) {
    throw new ShapeError(
      `dropout1d: Expected 2D or 3D input, but received a ${x.dim()}D input. Note that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).`,
    );
  }
  return featureDropout('dropout1d', x, p, training, inplace, x.dim() === 2);
});

/** `F.dropout2d(x, p, training, inplace)`: whole channels of (N, C, H, W) zeroed (3-d input as (N, C, L)). */
export const dropout2d = front(`dropout2d${DROPOUT_ARGS}`, F_ONLY).run(([x, p, training, inplace]): Tensor => featureDropout('dropout2d', x, p, training, inplace, false));

/** `F.dropout3d(x, p, training, inplace)`: whole channels of (N, C, D, H, W) or (C, D, H, W) zeroed. */
export const dropout3d = front(`dropout3d${DROPOUT_ARGS}`, F_ONLY).run(([x, p, training, inplace]): Tensor =>
  featureDropout('dropout3d', x, p, training, inplace, x.dim() === 4),
);

/** `F.normalize(x, p=2, dim=1, eps=1e-12)`: x divided by its p-norm over dim (at least eps). */
export const normalize = front('normalize(Tensor input, float p=2.0, int dim=1, float eps=1e-12, *, Tensor? out=None) -> Tensor', {
  ...F_ONLY,
  unsupported: ['out'],
}).run(([x, p, dim, eps]): Tensor => tidy(() => x.div(x.norm(p, dim, true).clampMin(eps).expandAs(x))));

/**
 * Note [Alpha dropout]
 * 1.13's _dropout_impl with alpha: the same bernoulli_(1 - p) noise as dropout (per element,
 * or per (n, c) for the feature form), then with alpha = 1.7580993408473766 (SELU's
 * -scale * alpha) and a = 1 / sqrt((alpha^2 p + 1)(1 - p)), out = x * (a * noise) +
 * (noise - 1) * alpha * a + alpha * a * p, which keeps SELU's zero mean and unit variance.
 * p = 1 gives x * 0. Unlike F.dropout these default to training=False.
 */
const SELU_ALPHA = 1.7580993408473766;

function alphaDropoutImpl(op: string, x: Tensor, p: number, training: boolean, inplace: boolean, feature: boolean): Tensor {
  if (!(p >= 0 && p <= 1)) throw new TorchError(`${op}: dropout probability has to be between 0 and 1, but got ${p}`);
  if (!training || p === 0 || x.numel() === 0) return x;
  if (!isFloatingType(x.dtype)) throw new DTypeError(`${op}: result type Float can't be cast to the desired output type ${torchTypeName(x.dtype)}`);
  if (feature && x.dim() < 2) throw new ShapeError(`${op}: Feature dropout requires at least 2 dimensions in the input`);
  if (p === 1) return inplace ? x.mul_(0) : x.mul(0);
  const a = 1 / Math.sqrt((SELU_ALPHA * SELU_ALPHA * p + 1) * (1 - p));
  const [noise, b] = tidy(() => {
    const shape = feature ? [x.shape[0], x.shape[1], ...Array<number>(x.dim() - 2).fill(1)] : x.shape;
    const n = empty(shape, { dtype: x.dtype, device: x.device }).bernoulli_(1 - p);
    const shift = n.add(-1).mul_(SELU_ALPHA * a).add_(SELU_ALPHA * a * p);
    return [n.mul_(a), shift];
  });
  try {
    return inplace ? x.mul_(noise).add_(b) : x.mul(noise).add_(b);
  } finally {
    noise.dispose();
    b.dispose();
  }
}

const ALPHA_ARGS = '(Tensor input, float p=0.5, bool training=False, bool inplace=False) -> Tensor';
// (torch.alpha_dropout(input, p, train) takes F's first three arguments in F's order)
const TORCH_AND_F = { method: false, namespaces: ['torch', 'nn.functional'] } as const;

/** `F.alpha_dropout(x, p=0.5, training=False, inplace=False)`: dropout that keeps SELU's self-normalization. */
export const alphaDropout = front(`alpha_dropout${ALPHA_ARGS}`, TORCH_AND_F).run(([x, p, training, inplace]): Tensor =>
  alphaDropoutImpl('alpha_dropout', x, p, training, inplace, false),
);

/** `F.feature_alpha_dropout(x, p=0.5, training=False, inplace=False)`: alpha dropout of whole channels. */
export const featureAlphaDropout = front(`feature_alpha_dropout${ALPHA_ARGS}`, TORCH_AND_F).run(([x, p, training, inplace]): Tensor =>
  alphaDropoutImpl('feature_alpha_dropout', x, p, training, inplace, true),
);

/** `torch.alpha_dropout_(input, p, train)`: alpha dropout in place. */
export const alphaDropout_ = front('alpha_dropout_(Tensor input, float p, bool train) -> Tensor', { method: false }).run(([x, p, train]): Tensor =>
  alphaDropoutImpl('alpha_dropout_', x, p, train, true, false),
);

/** `torch.feature_alpha_dropout_(input, p, train)`: feature alpha dropout in place. */
export const featureAlphaDropout_ = front('feature_alpha_dropout_(Tensor input, float p, bool train) -> Tensor', { method: false }).run(([x, p, train]): Tensor =>
  alphaDropoutImpl('feature_alpha_dropout_', x, p, train, true, true),
);
