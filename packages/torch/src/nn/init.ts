/**
 * `torch.nn.init`: in-place initialisers, run under no-grad. They draw through `uniform_` /
 * `normal_`, which follow PyTorch's CPU generator exactly, so after `manualSeed(s)` the
 * values equal PyTorch's; bounds and standard deviations are computed in doubles in the
 * same order as PyTorch's Python code.
 */
import { ValueError, empty, qr, randperm, tensor as makeTensor, type FrontOptions, type Generator } from '@torch-ts/core';
import { pyFunction } from './init-args';
import { Tensor, TorchError, noGradGuard } from './internal';

const NONLINEARITIES = [
  'linear',
  'conv1d',
  'conv2d',
  'conv3d',
  'conv_transpose1d',
  'conv_transpose2d',
  'conv_transpose3d',
  'sigmoid',
  'tanh',
  'relu',
  'leaky_relu',
  'selu',
] as const;
export type Nonlinearity = (typeof NONLINEARITIES)[number];
const FAN_MODES = ['fan_in', 'fan_out'] as const;
export type FanMode = (typeof FAN_MODES)[number];

/** The recommended gain for a nonlinearity (`calculate_gain(nonlinearity, param=None)`). */
export const calculateGain = pyFunction('calculate_gain(str nonlinearity, Scalar? param=None) -> float', { choices: { nonlinearity: NONLINEARITIES } }).run(
  ([nonlinearity, param]): number => gainOf(nonlinearity, param),
);

function gainOf(nonlinearity: string, param: number | boolean | bigint | undefined): number {
  switch (nonlinearity) {
    case 'linear':
    case 'conv1d':
    case 'conv2d':
    case 'conv3d':
    case 'conv_transpose1d':
    case 'conv_transpose2d':
    case 'conv_transpose3d':
    case 'sigmoid':
      return 1;
    case 'tanh':
      return 5.0 / 3;
    case 'relu':
      return Math.sqrt(2.0);
    case 'leaky_relu': {
      let slope = 0.01;
      if (param !== undefined) {
        if (typeof param !== 'number' || Number.isNaN(param)) throw new TorchError(`calculate_gain: negative_slope ${param} not a valid number`);
        slope = param;
      }
      return Math.sqrt(2.0 / (1 + slope * slope));
    }
    case 'selu':
      return 3.0 / 4;
    default:
      throw new TorchError(`calculate_gain: Unsupported nonlinearity ${nonlinearity}`);
  }
}

/** `_calculate_fan_in_and_fan_out`. */
export function calculateFanInAndFanOut(tensor: Tensor): [number, number] {
  const shape = tensor.shape;
  if (shape.length < 2) {
    throw new TorchError('Fan in and fan out can not be computed for tensor with fewer than 2 dimensions');
  }
  let receptive = 1;
  for (let i = 2; i < shape.length; i++) receptive *= shape[i];
  return [shape[1] * receptive, shape[0] * receptive];
}

function correctFan(tensor: Tensor, mode: string): number {
  if (mode !== 'fan_in' && mode !== 'fan_out') throw new TorchError(`Mode ${mode} not supported, please use one of fan_in, fan_out`);
  const [fanIn, fanOut] = calculateFanInAndFanOut(tensor);
  return mode === 'fan_in' ? fanIn : fanOut;
}

// (PyTorch 2.x's signatures: 1.13's have no `generator`, which torch-ts takes as 2.x does)
function drawUniform(tensor: Tensor, a: number, b: number, generator: Generator | undefined): Tensor {
  return noGradGuard(() => tensor.uniform_(a, b, { generator }));
}

function drawNormal(tensor: Tensor, mean: number, std: number, generator: Generator | undefined): Tensor {
  return noGradGuard(() => tensor.normal_(mean, std, { generator }));
}

/** Fills `tensor` from U(a, b). */
export const uniform_ = pyFunction('uniform_(Tensor tensor, float a=0., float b=1., Generator? generator=None) -> Tensor').run(
  ([tensor, a, b, generator]): Tensor => drawUniform(tensor, a, b, generator),
);

/** Fills `tensor` from N(mean, std²). */
export const normal_ = pyFunction('normal_(Tensor tensor, float mean=0., float std=1., Generator? generator=None) -> Tensor').run(
  ([tensor, mean, std, generator]): Tensor => drawNormal(tensor, mean, std, generator),
);

/** Fills `tensor` with `val`. */
export const constant_ = pyFunction('constant_(Tensor tensor, Scalar val) -> Tensor').run(([tensor, val]): Tensor => noGradGuard(() => tensor.fill_(val)));

/** Fills `tensor` with zeros. */
export const zeros_ = pyFunction('zeros_(Tensor tensor) -> Tensor').run(([tensor]): Tensor => noGradGuard(() => tensor.zero_()));

/** Fills `tensor` with ones. */
export const ones_ = pyFunction('ones_(Tensor tensor) -> Tensor').run(([tensor]): Tensor => noGradGuard(() => tensor.fill_(1)));

/** Glorot's uniform initialisation: U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out)). */
export const xavierUniform_ = pyFunction('xavier_uniform_(Tensor tensor, float gain=1., Generator? generator=None) -> Tensor').run(
  ([tensor, gain, generator]): Tensor => {
    const [fanIn, fanOut] = calculateFanInAndFanOut(tensor);
    const std = gain * Math.sqrt(2.0 / (fanIn + fanOut));
    const a = Math.sqrt(3.0) * std;
    return drawUniform(tensor, -a, a, generator);
  },
);

/** Glorot's normal initialisation: N(0, std²), std = gain * sqrt(2 / (fan_in + fan_out)). */
export const xavierNormal_ = pyFunction('xavier_normal_(Tensor tensor, float gain=1., Generator? generator=None) -> Tensor').run(
  ([tensor, gain, generator]): Tensor => {
    const [fanIn, fanOut] = calculateFanInAndFanOut(tensor);
    const std = gain * Math.sqrt(2.0 / (fanIn + fanOut));
    return drawNormal(tensor, 0, std, generator);
  },
);

const KAIMING = "Tensor tensor, float a=0, str mode='fan_in', str nonlinearity='leaky_relu', Generator? generator=None";
const KAIMING_CHOICES = { choices: { mode: FAN_MODES, nonlinearity: NONLINEARITIES } } as const;

/** He's standard deviation for `tensor`: gain / sqrt(fan). */
function kaimingStd(tensor: Tensor, a: number, mode: string, nonlinearity: string): number {
  const fan = correctFan(tensor, mode);
  return gainOf(nonlinearity, a) / Math.sqrt(fan);
}

/** He's uniform initialisation (`kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')`). */
export const kaimingUniform_ = pyFunction(`kaiming_uniform_(${KAIMING}) -> Tensor`, KAIMING_CHOICES).run(([tensor, a, mode, nonlinearity, generator]): Tensor => {
  if (tensor.shape.includes(0)) return tensor; // PyTorch warns and leaves an empty tensor alone
  const bound = Math.sqrt(3.0) * kaimingStd(tensor, a, mode, nonlinearity);
  return drawUniform(tensor, -bound, bound, generator);
});

/** He's normal initialisation (`kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')`). */
export const kaimingNormal_ = pyFunction(`kaiming_normal_(${KAIMING}) -> Tensor`, KAIMING_CHOICES).run(([tensor, a, mode, nonlinearity, generator]): Tensor => {
  if (tensor.shape.includes(0)) return tensor;
  return drawNormal(tensor, 0, kaimingStd(tensor, a, mode, nonlinearity), generator);
});

/** kaimingUniform_/kaimingNormal_'s keywords. */
export type KaimingOptions = FrontOptions<`kaiming_uniform_(${typeof KAIMING}) -> Tensor`, typeof KAIMING_CHOICES>;

/**
 * Fills a 2-D `tensor` with the identity (`eye_`): ones on the main diagonal, zeros elsewhere,
 * preserving the identity of the inputs in Linear layers. PyTorch raises ValueError for
 * any other rank.
 */
export const eye_ = pyFunction('eye_(Tensor tensor) -> Tensor').run(([tensor]): Tensor => {
  if (tensor.dim() !== 2) throw new ValueError(`eye_: Only tensors with 2 dimensions are supported (got ${tensor.dim()}-D, shape [${tensor.shape.join(', ')}])`);
  return noGradGuard(() => {
    tensor.zero_();
    const n = Math.min(tensor.shape[0], tensor.shape[1]);
    for (let i = 0; i < n; i++) tensor.select(0, i).select(0, i).fill_(1);
    return tensor;
  });
});

/**
 * Fills a 3-, 4- or 5-D `tensor` with the Dirac delta (`dirac_(tensor, groups=1)`): for each
 * group g and each d < min(out_channels_per_group, in_channels), a one at
 * [g * out_per_group + d, d, centre of each spatial dim], so a convolution with it preserves
 * the inputs' channels. Errors are PyTorch's ValueErrors.
 */
export const dirac_ = pyFunction('dirac_(Tensor tensor, int groups=1) -> Tensor').run(([tensor, groups]): Tensor => {
  const dims = tensor.dim();
  const sizes = tensor.shape;
  if (dims < 3 || dims > 5) throw new ValueError(`dirac_: Only tensors with 3, 4, or 5 dimensions are supported (got ${dims}-D, shape [${sizes.join(', ')}])`);
  if (sizes[0] % groups !== 0) throw new ValueError(`dirac_: dim 0 must be divisible by groups (dim 0 is ${sizes[0]}, groups is ${groups})`);
  const outPerGroup = Math.floor(sizes[0] / groups);
  const minDim = Math.min(outPerGroup, sizes[1]);
  return noGradGuard(() => {
    tensor.zero_();
    for (let g = 0; g < groups; g++) {
      for (let d = 0; d < minDim; d++) {
        let view = tensor.select(0, g * outPerGroup + d).select(0, d);
        for (let k = 2; k < dims; k++) view = view.select(0, Math.floor(sizes[k] / 2));
        view.fill_(1);
      }
    }
    return tensor;
  });
});

/** Φ(x), the standard normal CDF, in doubles (Python's `(1 + math.erf(x / sqrt(2))) / 2`). */
function normCdf(x: number): number {
  const t = makeTensor(x / Math.SQRT2, { dtype: 'float64' });
  const e = t.erf();
  const v = e.item() as number;
  t.dispose();
  e.dispose();
  return (1 + v) / 2;
}

/**
 * Fills `tensor` from N(mean, std²) truncated to [a, b] (`trunc_normal_`), by inverse CDF as
 * PyTorch does: U(2Φ(α) - 1, 2Φ(β) - 1), then erfinv, scale, shift and clamp, so a seed gives
 * PyTorch's values. (PyTorch warns when mean is more than 2 std from [a, b].)
 */
export const truncNormal_ = pyFunction('trunc_normal_(Tensor tensor, float mean=0., float std=1., float a=-2., float b=2., Generator? generator=None) -> Tensor').run(
  ([tensor, mean, std, a, b, generator]): Tensor => {
    const l = normCdf((a - mean) / std);
    const u = normCdf((b - mean) / std);
    return noGradGuard(() => {
      tensor.uniform_(2 * l - 1, 2 * u - 1, { generator });
      tensor.erfinv_();
      tensor.mul_(std * Math.sqrt(2.0));
      tensor.add_(mean);
      tensor.clamp_(a, b);
      return tensor;
    });
  },
);

/**
 * Fills `tensor` (2 or more dims, flattened to rows x rest) with a (semi-)orthogonal matrix
 * times `gain` (`orthogonal_`): the Q of the QR of a N(0, 1) draw (transposed when wide),
 * its columns' signs fixed by R's diagonal, as PyTorch's.
 */
export const orthogonal_ = pyFunction('orthogonal_(Tensor tensor, float gain=1, Generator? generator=None) -> Tensor').run(([tensor, gain, generator]): Tensor => {
  if (tensor.dim() < 2) throw new ValueError('orthogonal_: Only tensors with 2 or more dimensions are supported');
  if (tensor.numel() === 0) return tensor;
  const rows = tensor.shape[0];
  const cols = tensor.numel() / rows;
  return noGradGuard(() => {
    const flat = empty([rows, cols], { dtype: tensor.dtype, device: tensor.device }).normal_(0, 1, { generator });
    const m = rows < cols ? flat.t() : flat;
    const [q, r] = qr(m);
    const d = r.diagonal();
    const ph = d.sign();
    let qq = q.mul(ph);
    if (rows < cols) qq = qq.t();
    tensor.view(qq.shape).copy_(qq);
    tensor.mul_(gain);
    for (const t of [flat, m, q, r, d, ph, qq]) t.dispose();
    return tensor;
  });
});

/**
 * Fills a 2-D `tensor` from N(0, std²) and zeroes ceil(sparsity * rows) entries of each
 * column, chosen by `randperm(rows)` per column (`sparse_`), as PyTorch's.
 */
export const sparse_ = pyFunction('sparse_(Tensor tensor, float sparsity, float std=0.01, Generator? generator=None) -> Tensor').run(([tensor, sparsity, std, generator]): Tensor => {
  if (tensor.dim() !== 2) throw new ValueError('sparse_: Only tensors with 2 dimensions are supported');
  const [rows, cols] = tensor.shape;
  const numZeros = Math.ceil(sparsity * rows);
  return noGradGuard(() => {
    tensor.normal_(0, std, { generator });
    for (let c = 0; c < cols; c++) {
      const perm = randperm(rows, { generator });
      const zeroRows = (perm.tolist() as number[]).slice(0, numZeros);
      perm.dispose();
      const col = tensor.select(1, c);
      for (const r of zeroRows) col.select(0, r).fill_(0);
      col.dispose();
    }
    return tensor;
  });
});
