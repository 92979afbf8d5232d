import { backendKeyOf } from '../dispatch/dispatch-key';
import type { Device } from '../device';
import type { DType } from '../dtype';
import type { Generator } from '../random/generator';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import type { BackendImpls } from './backend-impls';
import { backendOf } from './registry';

/**
 * Note [Counter-based random streams]
 * The CPU backend has no random impls: core draws its values on the host from the
 * generator's MT19937 engine, in PyTorch CPU's order and precision, and copies them to the
 * tensor (random.ts), so a seed gives PyTorch CPU's exact values. A backend that cannot
 * take host values cheaply (WebGPU: float64 host values would need a device cast, and an
 * upload per call) implements the impls below instead and draws on the device from
 * Philox4x32-10, the counter-based generator PyTorch's CUDA backend uses:
 *   key     = the generator's 64-bit seed as two u32 words (lo, hi);
 *   counter = (block, 0, offset lo, offset hi), where `offset` is the generator's count of
 *             device draws (`Generator.nextDeviceStream`, one per call, reset by manualSeed)
 *             and `block` numbers the 4-word outputs within the call.
 * Element i of a result, in row-major LOGICAL order (not memory order), takes word i % 4 of
 * block i / 4 (32-bit draws: uniform, bernoulli, randint with a range below 2^32); a
 * normal takes block i / 4 too, whose 4 words make 2 Box-Muller pairs (4 normals); a
 * 64-bit draw (randint over 2^32 or more) takes words 2(i % 2), 2(i % 2) + 1 of block i / 2.
 * So a seed gives the same values run to run and whatever the output's strides, but not
 * CPU's values (as PyTorch's CUDA values are not its CPU values, for the same seed).
 * Checks of the data (a probability outside [0, 1], a negative weight) cannot run in core
 * without a read of device data: the kernels make them and report CPU's error, which
 * surfaces at the next read or synchronize, as a CUDA device assert does.
 */
export interface DeviceStream {
  /** The generator's seed (the Philox key). */
  readonly seed: bigint;
  /** The generator's device-draw count at this call (the high half of the Philox counter). */
  readonly offset: bigint;
}

/** What `randomFill` draws into each element (scalars already validated by core). */
export type RandomFill =
  /** uniform on [from, to): a 24-bit float in [0, 1) times (to - from) plus from */
  | { readonly kind: 'uniform'; readonly from: number; readonly to: number }
  /** normal(mean, std) by Box-Muller */
  | { readonly kind: 'normal'; readonly mean: number; readonly std: number }
  /** integers from + (draw mod range), `range` >= 1 (a 64-bit draw when range >= 2^32) */
  | { readonly kind: 'randint'; readonly from: bigint; readonly range: bigint }
  /** 1 where a 24-bit uniform in [0, 1) is below p, else 0 */
  | { readonly kind: 'bernoulli'; readonly p: number };

/**
 * The impls of device-side random draws (Note [Counter-based random streams]). A backend
 * that opts out (`notImplemented`) gets core's host path: MT19937 values, then a copy.
 */
export interface RandomImpls {
  /** Fills `out` (any dtype the backend computes in, any strides) with draws of `fill`. */
  randomFill: (out: TensorImpl, fill: RandomFill, stream: DeviceStream) => void;
  /**
   * out[i] = 1 where a 24-bit uniform draw is below p[i], else 0. `p` is floating, broadcast
   * to out's shape by core (stride-0 views); a p outside [0, 1] (or NaN) is reported by the
   * kernel with CPU's message, to surface at the next read.
   */
  bernoulliTensor: (out: TensorImpl, p: TensorImpl, stream: DeviceStream) => void;
  /**
   * `out` int64 [rows, numSamples]: category indices drawn from each row of `probs`
   * (floating, [rows, nCat], any strides, not normalised); with replacement each sample
   * inverts the row's cumulative distribution at a uniform draw, without replacement the
   * samples are the top numSamples of p / q with q ~ Exp(1) (ties to the lower index).
   * One sample comes without replacement, as on CPU. Shapes are validated by core; a
   * negative, NaN or infinite weight or a row summing to 0 is reported by the kernel with
   * CPU's message for the path, to surface at the next read.
   */
  multinomial: (out: TensorImpl, probs: TensorImpl, replacement: boolean, stream: DeviceStream) => void;
  /**
   * Gamma(alpha, 1) draws into `out` (contiguous), alpha the same-shaped contiguous `alpha`:
   * PyTorch's sample_gamma (Marsaglia and Tsang, alpha < 1 boosted), each element from its
   * own stream of the call, as many draws as its rejections take.
   */
  standardGamma: (out: TensorImpl, alpha: TensorImpl, stream: DeviceStream) => void;
  /** Dirichlet draws: each row along the last dim of `out` (contiguous) its Gamma draws of `alpha`'s row (same shape, contiguous), normalised. */
  sampleDirichlet: (out: TensorImpl, alpha: TensorImpl, stream: DeviceStream) => void;
  /** Poisson draws into `out` (contiguous), the rates the same-shaped contiguous `rate`; a negative or NaN rate is reported by the kernel with CPU's message. */
  poisson: (out: TensorImpl, rate: TensorImpl, stream: DeviceStream) => void;
  /** Binomial draws into `out` (contiguous): `count` trials of probability `prob` (both broadcast by core to out's shape, contiguous). */
  binomial: (out: TensorImpl, count: TensorImpl, prob: TensorImpl, stream: DeviceStream) => void;
}

/** The backend's random impl for tensors on `device`, or null when core draws on the host. */
export function deviceRandomImpl<K extends keyof RandomImpls>(device: Device, name: K): BackendImpls[K] | null {
  const f = backendOf(backendKeyOf(device.type))?.impls[name];
  return typeof f === 'function' ? (f as BackendImpls[K]) : null;
}

/** The stream of one device call; advances the generator's device-draw count. */
export function deviceStream(gen: Generator): DeviceStream {
  return gen.nextDeviceStream();
}

/**
 * A new tensor drawn by its device's `randomFill` (Note [Counter-based random streams]), or
 * null where core draws on the host (CPU, meta).
 */
export function drawnOnDevice(op: string, sizes: readonly number[], dtype: DType, device: Device, fill: RandomFill, gen: Generator): Tensor | null {
  const impl = deviceRandomImpl(device, 'randomFill');
  if (!impl) return null;
  const t = TensorImpl.empty(op, sizes, dtype, device);
  try {
    impl(t, fill, deviceStream(gen));
  } catch (e) {
    t.release();
    throw e;
  }
  return new Tensor(t);
}
