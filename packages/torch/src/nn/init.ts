/**
 * `torch.nn.init`: in-place initialisers, run under no-grad. They draw through `uniform_` /
 * `normal_`, which follow PyTorch's CPU generator exactly, so after `manualSeed(s)` the
 * values equal PyTorch's; bounds and standard deviations are computed in doubles in the
 * same order as PyTorch's Python code.
 */
import type { Generator } from '@torch-ts/core';
import { Tensor, TorchError, noGradGuard } from './internal';

export type Nonlinearity =
  | 'linear'
  | 'conv1d'
  | 'conv2d'
  | 'conv3d'
  | 'conv_transpose1d'
  | 'conv_transpose2d'
  | 'conv_transpose3d'
  | 'sigmoid'
  | 'tanh'
  | 'relu'
  | 'leaky_relu'
  | 'selu';

export type FanMode = 'fan_in' | 'fan_out';

export interface GeneratorOption {
  generator?: Generator | null;
}

/** The recommended gain for a nonlinearity (`calculate_gain`). */
export function calculateGain(nonlinearity: Nonlinearity, param?: number | null): number {
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
      if (param != null) {
        if (typeof param !== 'number' || Number.isNaN(param)) throw new TorchError(`calculateGain: negative_slope ${param} not a valid number`);
        slope = param;
      }
      return Math.sqrt(2.0 / (1 + slope * slope));
    }
    case 'selu':
      return 3.0 / 4;
    default:
      throw new TorchError(`calculateGain: unsupported nonlinearity ${String(nonlinearity)}`);
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

function correctFan(tensor: Tensor, mode: FanMode): number {
  if (mode !== 'fan_in' && mode !== 'fan_out') throw new TorchError(`Mode ${String(mode)} not supported, please use one of fan_in, fan_out`);
  const [fanIn, fanOut] = calculateFanInAndFanOut(tensor);
  return mode === 'fan_in' ? fanIn : fanOut;
}

export function uniform_(tensor: Tensor, a = 0, b = 1, options: GeneratorOption = {}): Tensor {
  return noGradGuard(() => tensor.uniform_(a, b, { generator: options.generator }));
}

export function normal_(tensor: Tensor, mean = 0, std = 1, options: GeneratorOption = {}): Tensor {
  return noGradGuard(() => tensor.normal_(mean, std, { generator: options.generator }));
}

export function constant_(tensor: Tensor, val: number): Tensor {
  return noGradGuard(() => tensor.fill_(val));
}

export function zeros_(tensor: Tensor): Tensor {
  return noGradGuard(() => tensor.zero_());
}

export function ones_(tensor: Tensor): Tensor {
  return noGradGuard(() => tensor.fill_(1));
}

export function xavierUniform_(tensor: Tensor, gain = 1, options: GeneratorOption = {}): Tensor {
  const [fanIn, fanOut] = calculateFanInAndFanOut(tensor);
  const std = gain * Math.sqrt(2.0 / (fanIn + fanOut));
  const a = Math.sqrt(3.0) * std;
  return uniform_(tensor, -a, a, options);
}

export function xavierNormal_(tensor: Tensor, gain = 1, options: GeneratorOption = {}): Tensor {
  const [fanIn, fanOut] = calculateFanInAndFanOut(tensor);
  const std = gain * Math.sqrt(2.0 / (fanIn + fanOut));
  return normal_(tensor, 0, std, options);
}

export interface KaimingOptions extends GeneratorOption {
  a?: number;
  mode?: FanMode;
  nonlinearity?: Nonlinearity;
}

export function kaimingUniform_(tensor: Tensor, options: KaimingOptions = {}): Tensor {
  if (tensor.shape.includes(0)) return tensor; // PyTorch warns and leaves an empty tensor alone
  const fan = correctFan(tensor, options.mode ?? 'fan_in');
  const gain = calculateGain(options.nonlinearity ?? 'leaky_relu', options.a ?? 0);
  const std = gain / Math.sqrt(fan);
  const bound = Math.sqrt(3.0) * std;
  return uniform_(tensor, -bound, bound, options);
}

export function kaimingNormal_(tensor: Tensor, options: KaimingOptions = {}): Tensor {
  if (tensor.shape.includes(0)) return tensor;
  const fan = correctFan(tensor, options.mode ?? 'fan_in');
  const gain = calculateGain(options.nonlinearity ?? 'leaky_relu', options.a ?? 0);
  const std = gain / Math.sqrt(fan);
  return normal_(tensor, 0, std, options);
}
