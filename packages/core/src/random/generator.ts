import { TorchError } from '../errors';
import { MT19937, type MT19937State } from './mt19937';

/** c10's `default_rng_seed_val`: the seed of a generator nobody seeded. */
export const DEFAULT_SEED = 67280421310721n;

export interface GeneratorState {
  readonly seed: bigint;
  readonly engine: MT19937State;
  /** CPUGeneratorImpl's cached second Box-Muller samples (null when none is cached). */
  readonly nextFloatNormal: number | null;
  readonly nextDoubleNormal: number | null;
  /** Device draws made since the seed (Note [Counter-based random streams]); absent reads as 0. */
  readonly deviceOffset?: bigint;
}

function toSeed(op: string, seed: number | bigint): bigint {
  if (typeof seed === 'number' && !Number.isInteger(seed)) {
    throw new TorchError(`${op}(): seed must be an integer, but got ${seed}`);
  }
  const s = BigInt(seed);
  if (s < -(1n << 63n) || s >= 1n << 64n) {
    throw new TorchError(`${op}(): seed ${s} does not fit in 64 bits`);
  }
  return BigInt.asUintN(64, s); // a negative seed wraps, as PyTorch's uint64 unpacking does
}

/**
 * PyTorch's CPU generator (CPUGeneratorImpl): an MT19937 engine plus the cached normal
 * samples that `normal_distribution` keeps between calls. Seeding resets the caches.
 * The same object keys the draws of devices with their own random kernels (WebGPU's
 * Philox, Note [Counter-based random streams]): its seed and a count of device draws,
 * which seeding resets too. (PyTorch keeps one generator per device, all seeded by
 * `manual_seed`; torch-ts keeps one whose device streams are apart from its CPU stream.)
 */
export class Generator {
  readonly device = 'cpu';
  private engine = new MT19937(DEFAULT_SEED);
  private seedValue = DEFAULT_SEED;
  /** The second sample of the last scalar Box-Muller pair, used by the next draw. */
  nextFloatNormal: number | null = null;
  nextDoubleNormal: number | null = null;
  /** Calls that drew on a device since the seed: the Philox counter's high half (Note [Counter-based random streams]). */
  private deviceOffset = 0n;

  constructor(options: { device?: string } = {}) {
    if (options.device !== undefined && options.device !== 'cpu') {
      throw new TorchError(`Generator(): only 'cpu' generators are supported, but got device '${options.device}'`);
    }
  }

  manualSeed(seed: number | bigint): this {
    this.seedValue = toSeed('manualSeed', seed);
    this.engine.seed(this.seedValue);
    this.nextFloatNormal = null;
    this.nextDoubleNormal = null;
    this.deviceOffset = 0n;
    return this;
  }

  /** Seeds from a non-deterministic source and returns that seed. */
  seed(): bigint {
    const words = new Uint32Array(2);
    globalThis.crypto.getRandomValues(words);
    const s = (BigInt(words[0]!) << 32n) | BigInt(words[1]!);
    this.manualSeed(s);
    return s;
  }

  initialSeed(): bigint {
    return this.seedValue;
  }

  /** A copy of the whole state; `setState` of it replays the same values. */
  getState(): GeneratorState {
    return {
      seed: this.seedValue,
      engine: this.engine.getState(),
      nextFloatNormal: this.nextFloatNormal,
      nextDoubleNormal: this.nextDoubleNormal,
      deviceOffset: this.deviceOffset,
    };
  }

  setState(state: GeneratorState): this {
    this.engine.setState(state.engine);
    this.seedValue = state.seed;
    this.nextFloatNormal = state.nextFloatNormal;
    this.nextDoubleNormal = state.nextDoubleNormal;
    this.deviceOffset = state.deviceOffset ?? 0n;
    return this;
  }

  /** The next uint32 (`CPUGeneratorImpl::random`). */
  random(): number {
    return this.engine.random();
  }

  /** The next uint64 (`CPUGeneratorImpl::random64`): the first 32-bit draw is the high word. */
  random64(): bigint {
    return this.engine.random64();
  }

  /**
   * The key and counter of one random op on a device (Note [Counter-based random streams]):
   * the seed, and the count of device draws so far, which this call advances. Device draws
   * leave the MT19937 engine alone, as CUDA's generator is apart from CPU's in PyTorch.
   */
  nextDeviceStream(): { seed: bigint; offset: bigint } {
    const offset = this.deviceOffset;
    this.deviceOffset = BigInt.asUintN(64, offset + 1n);
    return { seed: this.seedValue, offset };
  }

  /** `random64() & (2^53 - 1)` as a number. */
  random53(): number {
    return this.engine.random53();
  }
}

/** The generator every random op uses unless given one (`torch.default_generator`). */
export const defaultGenerator = new Generator();

/** Seeds the default generator (`torch.manual_seed`). */
export function manualSeed(seed: number | bigint): Generator {
  return defaultGenerator.manualSeed(seed);
}

/** Seeds the default generator non-deterministically and returns the seed (`torch.seed`). */
export function seed(): bigint {
  return defaultGenerator.seed();
}

/** The default generator's seed (`torch.initial_seed`). */
export function initialSeed(): bigint {
  return defaultGenerator.initialSeed();
}
