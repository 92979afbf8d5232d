import { BACKEND_KEYS, type DispatchKey } from './dispatch-key';

/**
 * A set of dispatch keys as a bitset (bit k = key k), immutable, as c10's DispatchKeySet.
 * Sets are interned by value, so they are cheap to compare and to keep on every TensorImpl.
 */
export class DispatchKeySet {
  // Indexed by the bits: every set of the NUM_DISPATCH_KEYS keys fits a short dense array,
  // and an array read is cheaper than a Map lookup on the path of every op call.
  private static readonly cache: (DispatchKeySet | undefined)[] = [];
  static readonly EMPTY = DispatchKeySet.fromBits(0);

  private constructor(readonly bits: number) {}

  static fromBits(bits: number): DispatchKeySet {
    let s = DispatchKeySet.cache[bits];
    if (s === undefined) {
      s = new DispatchKeySet(bits);
      DispatchKeySet.cache[bits] = s;
    }
    return s;
  }

  static of(...keys: DispatchKey[]): DispatchKeySet {
    let bits = 0;
    for (const k of keys) bits |= 1 << k;
    return DispatchKeySet.fromBits(bits);
  }

  has(k: DispatchKey): boolean {
    return (this.bits & (1 << k)) !== 0;
  }

  add(k: DispatchKey): DispatchKeySet {
    return DispatchKeySet.fromBits(this.bits | (1 << k));
  }

  union(o: DispatchKeySet): DispatchKeySet {
    return DispatchKeySet.fromBits(this.bits | o.bits);
  }

  remove(k: DispatchKey): DispatchKeySet {
    return DispatchKeySet.fromBits(this.bits & ~(1 << k));
  }

  minus(o: DispatchKeySet): DispatchKeySet {
    return DispatchKeySet.fromBits(this.bits & ~o.bits);
  }

  get isEmpty(): boolean {
    return this.bits === 0;
  }

  /** The highest-priority key, or -1 for the empty set. */
  highestPriorityKey(): DispatchKey | -1 {
    return this.bits === 0 ? -1 : ((31 - Math.clz32(this.bits)) as DispatchKey);
  }

  /** The backend key in the set (the highest one if several), or -1. */
  backendComponent(): DispatchKey | -1 {
    for (let i = BACKEND_KEYS.length - 1; i >= 0; i--) if (this.has(BACKEND_KEYS[i])) return BACKEND_KEYS[i];
    return -1;
  }

  keys(): DispatchKey[] {
    const out: DispatchKey[] = [];
    for (let k = 0; k < 31; k++) if (this.bits & (1 << k)) out.push(k as DispatchKey);
    return out;
  }
}
