/**
 * Note [MT19937 as PyTorch seeds it]
 * PyTorch's CPU generator is the 32-bit Mersenne Twister (Matsumoto & Nishimura). Its seed
 * is a uint64, but only the low 32 bits reach the engine: state[0] = seed mod 2^32 and
 * state[i] = 1812433253 * (state[i-1] ^ (state[i-1] >>> 30)) + i (mod 2^32), the reference
 * `init_genrand`. A 64-bit draw is two 32-bit draws, the first being the high word.
 */
const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER = 0x80000000;
const LOWER = 0x7fffffff;

export interface MT19937State {
  readonly state: Uint32Array;
  /** How many words of `state` were already handed out (N: twist before the next draw). */
  readonly index: number;
}

export class MT19937 {
  private mt = new Uint32Array(N);
  private index = N;

  constructor(seed: number | bigint = 5489) {
    this.seed(seed);
  }

  seed(seed: number | bigint): void {
    const mt = this.mt;
    mt[0] = Number(BigInt.asUintN(32, BigInt(seed)));
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      // The product overflows 2^53; Math.imul keeps exactly its low 32 bits.
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  private twist(): void {
    const mt = this.mt;
    for (let i = 0; i < N; i++) {
      const y = (mt[i]! & UPPER) | (mt[(i + 1) % N]! & LOWER);
      mt[i] = mt[(i + M) % N]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    this.index = 0;
  }

  /** The next uint32. */
  random(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** The next uint64: two draws, the first the high word. */
  random64(): bigint {
    const hi = this.random();
    const lo = this.random();
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** `random64() & (2^53 - 1)` as a number, without a bigint (float64 uniforms use it). */
  random53(): number {
    const hi = this.random();
    const lo = this.random();
    return (hi & 0x1fffff) * 0x100000000 + lo;
  }

  getState(): MT19937State {
    return { state: this.mt.slice(), index: this.index };
  }

  setState(s: MT19937State): void {
    if (s.state.length !== N || !(s.index >= 0 && s.index <= N)) {
      throw new RangeError(`MT19937.setState: expected ${N} words and an index in [0, ${N}]`);
    }
    this.mt = Uint32Array.from(s.state);
    this.index = s.index;
  }
}
