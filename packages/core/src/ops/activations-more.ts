import { isFloatingType } from '../dtype';
import { DTypeError, ShapeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { normalizeDim } from '../views/dims';
import { copyResult_ } from './copy';
import { front } from './front';
import { torchTypeName } from './meta-utils';
import { where } from './pointwise';
import { softmax } from './softmax';

/**
 * Note [Composite activations]
 * The activations PyTorch users meet in torch.nn beyond the op table's rows, as compositions
 * (PyTorch writes softsign, tanhshrink and softmin in Python; the others are kernels there,
 * with Nodes of their own: LogSigmoidBackward0, GluBackward0, HardshrinkBackward0,
 * SoftshrinkBackward0, ThresholdBackward0, PreluBackward0, CeluBackward0, whose gradients
 * these compositions equal):
 *   logsigmoid(x)          min(x, 0) - log1p(exp(-|x|))   (no overflow either way)
 *   softsign(x)            x / (1 + |x|)
 *   tanhshrink(x)          x - tanh(x)
 *   softmin(x, dim)        softmax(-x, dim)
 *   glu(x, dim)            a * sigmoid(b), x split in halves a, b along dim
 *   hardshrink(x, l)       x where |x| > l, else 0
 *   softshrink(x, l)       x - l where x > l, x + l where x < -l, else 0
 *   threshold(x, t, v)     x where x > t, else v
 *   prelu(x, w)            x where x >= 0, else w x (w one slope, or one per channel, dim 1)
 *   celu(x, a)             max(0, x) + min(0, a (exp(x / a) - 1))
 *   rrelu(x, l, u, train)  leaky_relu with slope (l + u) / 2; in training each negative
 *                          element's slope uniform in [l, u) (drawn from the generator)
 */

const F_ONLY = { method: false, namespaces: ['nn.functional'] } as const;
const BOTH = { method: false, namespaces: ['torch', 'nn.functional'] } as const;

function floating(op: string, x: Tensor): void {
  if (!isFloatingType(x.dtype)) throw new DTypeError(`${op}: "${op}_cpu" not implemented for '${torchTypeName(x.dtype)}'`);
}

/** `F.logsigmoid(x)`: log(sigmoid(x)), stable for large |x|. */
export const logsigmoid = front('logsigmoid(Tensor input) -> Tensor', F_ONLY).run(([x]): Tensor => {
  floating('log_sigmoid_forward', x);
  return tidy(() => x.clampMax(0).sub(x.abs().neg().exp().log1p()));
});

/** `F.softsign(x)`: x / (1 + |x|). */
export const softsign = front('softsign(Tensor input) -> Tensor', F_ONLY).run(([x]): Tensor => tidy(() => x.div(x.abs().add(1))));

/** `F.tanhshrink(x)`: x - tanh(x). */
export const tanhshrink = front('tanhshrink(Tensor input) -> Tensor', F_ONLY).run(([x]): Tensor => tidy(() => x.sub(x.tanh())));

/** `F.softmin(x, dim)`: softmax(-x, dim). */
export const softmin = front('softmin(Tensor input, int? dim=None, *, ScalarType? dtype=None) -> Tensor', F_ONLY).run(([x, dim, dtype]): Tensor =>
  tidy(() => softmax(x.neg(), dim ?? (x.dim() === 0 || x.dim() === 1 || x.dim() === 3 ? 0 : 1), { dtype: dtype ?? undefined })),
);

/** `F.glu(x, dim=-1)`: the first half of x along dim gated by the sigmoid of the second. */
export const glu = front('glu(Tensor input, int dim=-1) -> Tensor', F_ONLY).run(([x, dim]): Tensor => {
  if (x.dim() === 0) throw new ShapeError('glu does not support scalars because halving size must be even');
  const d = normalizeDim('glu', dim, x.dim());
  const n = x.shape[d];
  if (n % 2 !== 0) throw new ShapeError(`Halving dimension must be even, but dimension ${d} is size ${n}`);
  return tidy(() => x.narrow(d, 0, n / 2).mul(x.narrow(d, n / 2, n / 2).sigmoid()));
});

/** `torch.hardshrink(x, lambd=0.5)`: x where |x| > lambd, else 0. */
export const hardshrink = front('hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor', { namespaces: ['torch', 'nn.functional'] }).run(([x, lambd]): Tensor =>
  tidy(() => where(x.abs().gt(lambd), x, 0)),
);

/** `F.softshrink(x, lambd=0.5)`: x shrunk towards 0 by lambd, 0 within it. */
export const softshrink = front('softshrink(Tensor input, Scalar lambd=0.5) -> Tensor', F_ONLY).run(([x, lambd]): Tensor => {
  const l = Number(lambd);
  if (!(l >= 0)) throw new TorchError(`lambda must be greater or equal to 0, but found to be ${lambd}.`);
  return tidy(() => where(x.gt(l), x.sub(l), where(x.lt(-l), x.add(l), 0)));
});

/** `torch.threshold(x, threshold, value)` (F.threshold): x where x > threshold, else value. */
export const threshold = front('threshold(Tensor input, Scalar threshold, Scalar value, bool inplace=False) -> Tensor', BOTH).run(
  ([x, t, value, inplace]): Tensor => {
    const r = tidy(() => where(x.gt(t), x, value));
    return inplace ? copyResult_(x, r) : r;
  },
);

/** `torch.threshold_(x, threshold, value)`. */
export const threshold_ = front('threshold_(Tensor input, Scalar threshold, Scalar value) -> Tensor', BOTH).run(([x, t, value]): Tensor =>
  copyResult_(x, threshold(x, t, value)),
);

/** `torch.prelu(x, weight)` (F.prelu): x where x >= 0, else weight x (one slope, or one per channel). */
export const prelu = front('prelu(Tensor input, Tensor weight) -> Tensor', { namespaces: ['torch', 'nn.functional'] }).run(([x, w]): Tensor => {
  const channels = x.dim() >= 2 ? x.shape[1] : 1;
  if (w.numel() !== 1 && w.numel() !== channels) {
    throw new ShapeError(`Mismatch of parameter numbers and input channel size. Found parameter numbers = ${w.numel()} and channel size = ${channels}.`);
  }
  if (w.dim() > 1) throw new ShapeError(`prelu: Expected \`weight\` to be a scalar or 1D tensor, but got: ndim = ${w.dim()}`);
  return tidy(() => {
    const slope = w.numel() === 1 || x.dim() < 2 ? w.reshape([]) : w.reshape([channels, ...Array<number>(x.dim() - 2).fill(1)]);
    return where(x.ge(0), x, x.mul(slope));
  });
});

/** `torch.celu(x, alpha=1)` (F.celu): max(0, x) + min(0, alpha (exp(x / alpha) - 1)). */
export const celu = front('celu(Tensor input, Scalar alpha=1.0, bool inplace=False) -> Tensor', BOTH).run(([x, alpha, inplace]): Tensor => {
  const a = Number(alpha);
  if (a === 0) throw new TorchError('ZeroDivisionError');
  const r = tidy(() => x.clampMin(0).add(x.div(a).expm1().mul(a).clampMax(0)));
  return inplace ? copyResult_(x, r) : r;
});

/** `torch.celu_(x, alpha)`. */
export const celu_ = front('celu_(Tensor input, Scalar alpha=1.0) -> Tensor', BOTH).run(([x, alpha]): Tensor => copyResult_(x, celu(x, alpha)));

/** `torch.rrelu(x, lower, upper, training)` (F.rrelu): a leaky relu with a fixed slope, or random slopes in training. */
export const rrelu = front('rrelu(Tensor input, float lower=0.125, float upper=0.3333333333333333, bool training=False, bool inplace=False) -> Tensor', BOTH).run(
  ([x, lower, upper, training, inplace]): Tensor => {
    if (!(lower <= upper)) throw new TorchError(`Lower bound should be less than or equal to the upper bound`);
    const r = tidy(() => {
      if (!training) return where(x.ge(0), x, x.mul((lower + upper) / 2));
      const slopes = x.detach().clone().uniform_(lower, upper);
      return where(x.ge(0), x, x.mul(slopes));
    });
    return inplace ? copyResult_(x, r) : r;
  },
);

/** `torch.rrelu_(x, ...)`. */
export const rrelu_ = front('rrelu_(Tensor input, float lower=0.125, float upper=0.3333333333333333, bool training=False) -> Tensor', BOTH).run(
  ([x, lower, upper, training]): Tensor => copyResult_(x, rrelu(x, lower, upper, training)),
);
