/**
 * A pickle writer for protocol 2, emitting the opcodes CPython's `pickle.Pickler(f,
 * protocol=2)` emits for what `torch.save` pickles (and nothing else, so that PyTorch's
 * `weights_only` unpickler, which knows only those opcodes, reads every stream it writes):
 * ints as BININT1 / BININT2 / BININT / LONG1, floats as BINFLOAT, str as BINUNICODE,
 * NONE / NEWTRUE / NEWFALSE, EMPTY_DICT / EMPTY_LIST / EMPTY_TUPLE, TUPLE1..3 and
 * MARK..TUPLE, SETITEM(S) and APPEND(S) in batches of 1000, GLOBAL, REDUCE, BINPERSID,
 * and the memo (BINPUT / LONG_BINPUT, BINGET / LONG_BINGET). Browser-safe.
 *
 * Note [Pickle memo]
 * CPython memoizes every container, string and global it writes (BINPUT n, n counting
 * up from 0) and writes BINGET n when the same object comes again. Here containers and
 * tensors are memoized by identity, exactly so; globals by name (one object each in
 * Python); the strings of persistent ids ('storage', 'cpu', a storage's key) by value, as
 * they are one object each in PyTorch's pickler; other strings are written every time
 * (distinct objects in Python). So a state dict's bytes are those PyTorch writes for it
 * (scripts/goldens/serialization_write.py checks), and the output is a function of the
 * input only: the same object writes the same bytes.
 *
 * Note [Pickle batches]
 * CPython's C pickler writes container items in batches of 1000, differently for exact
 * lists and dicts than for items from an iterator (an OrderedDict's `__reduce__`): a
 * one-item list or dict is APPEND / SETITEM; a longer list is MARK..APPENDS batches; a
 * longer exact dict MARK..SETITEMS batches, the last of any size, plus an empty one after
 * a full last batch (its loop runs while a batch came out full); an iterator's items are
 * MARK..SETITEMS batches, but a last batch of one is a bare SETITEM and a full last batch
 * is not followed by an empty one. Doing the same keeps a state dict's bytes PyTorch's.
 */
import { TorchError } from '@torch-ts/core';

const BATCH = 1000;

export class PickleWriter {
  private buf = new Uint8Array(256);
  private len = 0;
  private readonly memo = new Map<unknown, number>();
  private readonly strings = new Map<string, number>();
  private readonly globals = new Map<string, number>();
  private readonly enc = new TextEncoder();
  /** The next memo index. */
  private next = 0;

  constructor() {
    this.bytes(0x80, 2); // PROTO 2
  }

  /** The finished stream (STOP appended). */
  finish(): Uint8Array {
    this.bytes(0x2e);
    return this.buf.slice(0, this.len);
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const b = new Uint8Array(cap);
    b.set(this.buf.subarray(0, this.len));
    this.buf = b;
  }

  private bytes(...b: number[]): void {
    this.reserve(b.length);
    for (const x of b) this.buf[this.len++] = x;
  }

  private u32(n: number): void {
    this.reserve(4);
    new DataView(this.buf.buffer).setUint32(this.len, n, true);
    this.len += 4;
  }

  private raw(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /** BINPUT / LONG_BINPUT of the next memo index; returns it. */
  private put(): number {
    const i = this.next++;
    if (i < 256) this.bytes(0x71, i);
    else {
      this.bytes(0x72);
      this.u32(i);
    }
    return i;
  }

  private get(i: number): void {
    if (i < 256) this.bytes(0x68, i);
    else {
      this.bytes(0x6a);
      this.u32(i);
    }
  }

  /** If `obj` was memoized, writes BINGET and returns true. */
  recall(obj: object): boolean {
    const i = this.memo.get(obj);
    if (i === undefined) return false;
    this.get(i);
    return true;
  }

  /** Memoizes the object just written (BINPUT). */
  memoize(obj: object): void {
    const i = this.put();
    this.memo.set(obj, i);
  }

  none(): void {
    this.bytes(0x4e);
  }

  bool(b: boolean): void {
    this.bytes(b ? 0x88 : 0x89);
  }

  /** A Python int: BININT1 / BININT2 / BININT, else LONG1 (two's complement, little-endian, shortest). */
  int(v: number | bigint): void {
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) throw new TorchError(`pickle: ${v} is not an integer`);
      if (v >= 0 && v < 256) return this.bytes(0x4b, v);
      if (v >= 0 && v < 65536) return this.bytes(0x4d, v & 0xff, v >> 8);
      if (v >= -0x80000000 && v <= 0x7fffffff) {
        this.bytes(0x4a);
        this.reserve(4);
        new DataView(this.buf.buffer).setInt32(this.len, v, true);
        this.len += 4;
        return;
      }
    }
    let x = BigInt(v);
    if (x >= -0x80000000n && x <= 0x7fffffffn) return this.int(Number(x));
    // CPython's encode_long: bit_length // 8 + 1 bytes, signed, then a redundant 0xff dropped.
    const bitLength = (x < 0n ? -x - 1n : x).toString(2).length;
    let n = (bitLength >> 3) + 1;
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      out.push(Number(x & 0xffn));
      x >>= 8n;
    }
    if (out[n - 1] === 0xff && (out[n - 2] & 0x80) !== 0) n--;
    if (n > 255) throw new TorchError('pickle: integer too large for LONG1');
    this.bytes(0x8a, n, ...out.slice(0, n));
  }

  /** BINFLOAT: an IEEE double, big-endian. */
  float(x: number): void {
    this.bytes(0x47);
    this.reserve(8);
    new DataView(this.buf.buffer).setFloat64(this.len, x, false);
    this.len += 8;
  }

  /**
   * BINUNICODE (UTF-8), then BINPUT. `shared`: one string object in Python (the
   * persistent id's 'storage', 'cpu' and storage keys), written once and then recalled;
   * otherwise written each time, as Python's distinct string objects are (Note [Pickle memo]).
   */
  str(s: string, shared = false): void {
    const i = shared ? this.strings.get(s) : undefined;
    if (i !== undefined) return this.get(i);
    const b = this.enc.encode(s);
    this.bytes(0x58);
    this.u32(b.length);
    this.raw(b);
    const at = this.put();
    if (shared) this.strings.set(s, at);
  }

  /** GLOBAL 'module\nname\n', memoized by name. */
  global(module: string, name: string): void {
    const key = `${module}\n${name}\n`;
    const i = this.globals.get(key);
    if (i !== undefined) return this.get(i);
    this.bytes(0x63);
    this.raw(this.enc.encode(key));
    this.globals.set(key, this.put());
  }

  mark(): void {
    this.bytes(0x28);
  }

  emptyTuple(): void {
    this.bytes(0x29);
  }

  /** Ends a tuple of `n` items written after a MARK (n > 3) or without one (TUPLE1..3); memoizes it as `obj` (n > 0). */
  endTuple(n: number, obj: object): void {
    if (n === 0) throw new TorchError('pickle: endTuple of no items (use emptyTuple)');
    if (n <= 3) this.bytes(0x84 + n);
    else this.bytes(0x74);
    this.memoize(obj);
  }

  /** A tuple of items written by `each` (MARK..TUPLE past 3 items, as CPython). */
  tuple(items: readonly unknown[], each: (x: unknown, i: number) => void, obj: object = items): void {
    if (items.length === 0) return this.emptyTuple();
    if (items.length > 3) this.mark();
    items.forEach(each);
    this.endTuple(items.length, obj);
  }

  /** EMPTY_LIST, memoized, then the items as CPython's batch_list_exact (Note [Pickle batches]). */
  list(obj: object, items: readonly unknown[], each: (x: unknown, i: number) => void): void {
    this.bytes(0x5d);
    this.memoize(obj);
    if (items.length === 1) {
      each(items[0], 0);
      return this.bytes(0x61); // APPEND
    }
    for (let start = 0; start < items.length; start += BATCH) {
      this.mark();
      for (let i = start; i < Math.min(items.length, start + BATCH); i++) each(items[i], i);
      this.bytes(0x65); // APPENDS
    }
  }

  /**
   * A dict's items (after EMPTY_DICT, or an OrderedDict's after its REDUCE), as CPython
   * writes them (Note [Pickle batches]): `exact` for a plain dict (batch_dict_exact),
   * otherwise as an iterator of items (batch_dict).
   */
  setItems(count: number, each: (i: number) => void, exact: boolean): void {
    if (count === 0) return;
    if (count === 1) {
      each(0);
      return this.bytes(0x73); // SETITEM
    }
    let start = 0;
    for (;;) {
      const n = Math.min(BATCH, count - start);
      if (!exact && n === 1) {
        each(start);
        return this.bytes(0x73);
      }
      if (!exact && n === 0) return;
      this.mark();
      for (let i = start; i < start + n; i++) each(i);
      this.bytes(0x75); // SETITEMS
      start += n;
      if (n < BATCH) return;
    }
  }

  emptyDict(obj: object): void {
    this.bytes(0x7d);
    this.memoize(obj);
  }

  reduce(): void {
    this.bytes(0x52);
  }

  persid(): void {
    this.bytes(0x51);
  }
}
