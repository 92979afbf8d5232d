import { ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { front } from './front';
import { batchNorm } from './normalization';
import { avgPool2d } from './pooling';
import { avgPool3d } from './pooling-3d';
import { pad } from './resample';

/**
 * Note [Instance norm as batch norm]
 * PyTorch 1.13 computes instance_norm as batch_norm of the input viewed [1, N * C, ...]: the
 * weight, bias and running statistics repeated N times, so every (n, c) plane is its own
 * "channel"; the N running-statistic copies that batch_norm updated are then averaged over
 * the batch back into the caller's running_mean / running_var. The result is that batch
 * norm's viewed back (gradients flow through batch norm's derivative). local_response_norm
 * is 1.13's Python composite: the squares averaged over a window of `size` channels by
 * avg_pool2d (3-d input) or avg_pool3d, zero-padded size // 2 before and (size - 1) // 2
 * after.
 */
const F_ONLY = { method: false, namespaces: ['nn.functional'] } as const;

/** aten's instance_norm (Note [Instance norm as batch norm]); the caller checks the spatial size. */
function instanceNormImpl(
  x: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  rm: Tensor | null,
  rv: Tensor | null,
  useInputStats: boolean,
  momentum: number,
  eps: number,
): Tensor {
  if (x.dim() < 2) throw new ShapeError(`instance_norm: expected an input with at least 2 dimensions, got shape ${fmtShape(x.shape)}`);
  if (!useInputStats && (rm === null || rv === null)) {
    throw new TorchError('instance_norm: Expected running_mean and running_var to be defined when use_input_stats is false');
  }
  const [b, c] = x.shape;
  return tidy(() => {
    const rep = (t: Tensor | null) => (t === null ? null : t.repeat([b]));
    const rmB = rep(rm);
    const rvB = rep(rv);
    const flat = x.contiguous().view([1, b * c, ...x.shape.slice(2)]);
    const out = batchNorm(flat, rmB, rvB, rep(weight), rep(bias), useInputStats, momentum, eps);
    if (rm !== null && rmB !== null) rm.copy_(rmB.view([b, c]).mean(0));
    if (rv !== null && rvB !== null) rv.copy_(rvB.view([b, c]).mean(0));
    return out.viewAs(x);
  });
}

/** `F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)`. */
export const instanceNorm = front(
  'instance_norm(Tensor input, Tensor? running_mean=None, Tensor? running_var=None, Tensor? weight=None, Tensor? bias=None, bool use_input_stats=True, float momentum=0.1, float eps=1e-05) -> Tensor',
  F_ONLY,
).run(([x, runningMean, runningVar, weight, bias, useInputStats, momentum, eps]): Tensor => {
  if (useInputStats && x.dim() >= 2) {
    let spatial = 1;
    for (let i = 2; i < x.dim(); i++) spatial *= x.shape[i];
    if (spatial === 1) throw new TorchError(`instance_norm: Expected more than 1 spatial element when training, got input size ${fmtShape(x.shape)}`);
  }
  return instanceNormImpl(x, weight ?? null, bias ?? null, runningMean ?? null, runningVar ?? null, useInputStats, momentum, eps);
});

/**
 * `torch.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum,
 * eps, cudnn_enabled)`: aten's argument order, every argument required (Note [aten's own
 * signatures on torch]); no spatial-size check (that is F's).
 */
export const atenInstanceNorm = front(
  'instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) -> Tensor',
  { method: false, name: 'atenInstanceNorm', exportAs: 'instanceNorm' },
).run(([x, weight, bias, runningMean, runningVar, useInputStats, momentum, eps]): Tensor =>
  instanceNormImpl(x, weight ?? null, bias ?? null, runningMean ?? null, runningVar ?? null, useInputStats, momentum, eps),
);

/** `F.local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0)`: x / (k + alpha * mean of x^2 over `size` channels)^beta. */
export const localResponseNorm = front('local_response_norm(Tensor input, int size, float alpha=0.0001, float beta=0.75, float k=1.0) -> Tensor', F_ONLY).run(
  ([x, size, alpha, beta, k]): Tensor => {
    const dim = x.dim();
    if (dim < 3) throw new ShapeError(`local_response_norm: Expected 3D or higher dimensionality input (got ${dim} dimensions)`);
    if (x.numel() === 0) return x;
    return tidy(() => {
      let div = x.mul(x).unsqueeze(1);
      const before = Math.floor(size / 2), after = Math.floor((size - 1) / 2);
      if (dim === 3) {
        div = avgPool2d(pad(div, [0, 0, before, after]), [size, 1], 1).squeeze(1);
      } else {
        const s = x.shape;
        div = div.view([s[0], 1, s[1], s[2], -1]);
        div = avgPool3d(pad(div, [0, 0, 0, 0, before, after]), [size, 1, 1], 1).squeeze(1).view(s);
      }
      return x.div(div.mul(alpha).add(k).pow(beta));
    });
  },
);
