/**
 * A minimal, safe pickle reader (protocols 0-5) for what `torch.save` writes. It never
 * runs code: globals resolve only through the caller's `findClass` table; anything else
 * becomes an inert `PyObject` recording its class and arguments. Dicts become Maps
 * (insertion order kept), lists and tuples arrays, Python ints numbers (BigInt beyond
 * 2^53), bytes Uint8Arrays. Every read is bounds-checked: a bad stream is a TorchError.
 * Browser-safe.
 */
import { TorchError } from '@torch-ts/core';

/** An object of a class the reader does not know: its class name and construction data. */
export class PyObject {
  state: unknown = undefined;
  constructor(
    readonly className: string,
    readonly args: unknown[] = [],
  ) {}
}

/** A global the reader resolved (`collections.OrderedDict`, `torch._utils._rebuild_tensor_v2`). */
export interface PyCallable {
  call(args: unknown[]): unknown;
}

export interface UnpicklerOptions {
  /** Resolves `module.name` to a callable; null makes an inert PyObject factory. */
  findClass(module: string, name: string): PyCallable | null;
  /** `persistent_load(pid)` for BINPERSID / PERSID. */
  persistentLoad?(pid: unknown): unknown;
}

const bad = (msg: string) => new TorchError(`pickle: ${msg}`);

class Unknown implements PyCallable {
  constructor(readonly className: string) {}
  call(args: unknown[]): unknown {
    return new PyObject(this.className, args);
  }
}

export function unpickle(bytes: Uint8Array, options: UnpicklerOptions): unknown {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dec = new TextDecoder('utf-8', { fatal: false });
  const latin1 = new TextDecoder('latin1');
  let pos = 0;
  let stack: unknown[] = [];
  const marks: unknown[][] = [];
  const memo = new Map<number, unknown>();

  const need = (n: number) => {
    if (pos + n > bytes.length) throw bad('truncated stream');
  };
  const u8 = () => (need(1), bytes[pos++]);
  const u16 = () => (need(2), (pos += 2), view.getUint16(pos - 2, true));
  const u32 = () => (need(4), (pos += 4), view.getUint32(pos - 4, true));
  const i32 = () => (need(4), (pos += 4), view.getInt32(pos - 4, true));
  const u64 = () => {
    need(8);
    const v = view.getBigUint64(pos, true);
    pos += 8;
    if (v > BigInt(bytes.length)) throw bad('truncated stream');
    return Number(v);
  };
  const take = (n: number) => {
    need(n);
    pos += n;
    return bytes.subarray(pos - n, pos);
  };
  const line = () => {
    const start = pos;
    while (pos < bytes.length && bytes[pos] !== 0x0a) pos++;
    if (pos >= bytes.length) throw bad('truncated stream');
    const s = latin1.decode(bytes.subarray(start, pos));
    pos++;
    return s;
  };
  const pop = () => {
    if (stack.length === 0) throw bad('stack underflow');
    return stack.pop();
  };
  const top = () => {
    if (stack.length === 0) throw bad('stack underflow');
    return stack[stack.length - 1];
  };
  const popMark = (): unknown[] => {
    const items = stack;
    const prev = marks.pop();
    if (!prev) throw bad('MARK missing');
    stack = prev;
    return items;
  };
  const longFromBytes = (b: Uint8Array): number | bigint => {
    if (b.length === 0) return 0;
    let v = 0n;
    for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
    if (b[b.length - 1] & 0x80) v -= 1n << BigInt(8 * b.length);
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  };
  const global = (module: string, name: string): PyCallable => options.findClass(module, name) ?? new Unknown(`${module}.${name}`);
  const callObj = (fn: unknown, args: unknown[]): unknown => {
    if (fn && typeof (fn as PyCallable).call === 'function') return (fn as PyCallable).call(args);
    throw bad('REDUCE on an object that is not callable');
  };
  const setItems = (d: unknown, kv: unknown[]) => {
    if (d instanceof Map) for (let i = 0; i + 1 < kv.length; i += 2) d.set(kv[i], kv[i + 1]);
    else if (d instanceof PyObject) d.args.push(...kv);
    else throw bad('SETITEMS on a non-dict');
  };
  const appendItems = (l: unknown, items: unknown[]) => {
    if (Array.isArray(l)) l.push(...items);
    else if (l instanceof PyObject) l.args.push(...items);
    else throw bad('APPENDS on a non-list');
  };

  for (;;) {
    const op = u8();
    switch (op) {
      case 0x80: // PROTO
        u8();
        break;
      case 0x95: // FRAME
        u64();
        break;
      case 0x2e: // STOP
        if (stack.length !== 1) throw bad('malformed stream (stack not balanced at STOP)');
        return stack[0];
      case 0x28: // MARK
        marks.push(stack);
        stack = [];
        break;
      case 0x29: // EMPTY_TUPLE
        stack.push([]);
        break;
      case 0x5d: // EMPTY_LIST
        stack.push([]);
        break;
      case 0x7d: // EMPTY_DICT
        stack.push(new Map());
        break;
      case 0x8f: // EMPTY_SET
        stack.push(new Set());
        break;
      case 0x4e: // NONE
        stack.push(null);
        break;
      case 0x88: // NEWTRUE
        stack.push(true);
        break;
      case 0x89: // NEWFALSE
        stack.push(false);
        break;
      case 0x4b: // BININT1
        stack.push(u8());
        break;
      case 0x4d: // BININT2
        stack.push(u16());
        break;
      case 0x4a: // BININT
        stack.push(i32());
        break;
      case 0x8a: // LONG1
        stack.push(longFromBytes(take(u8())));
        break;
      case 0x8b: // LONG4
        stack.push(longFromBytes(take(u32())));
        break;
      case 0x49: {
        // INT (text)
        const s = line();
        stack.push(s === '01' ? true : s === '00' ? false : Number.parseInt(s, 10));
        break;
      }
      case 0x4c: {
        // LONG (text)
        const s = line().replace(/L$/, '');
        const v = BigInt(s);
        stack.push(v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);
        break;
      }
      case 0x47: // BINFLOAT (big-endian double)
        need(8);
        stack.push(view.getFloat64(pos, false));
        pos += 8;
        break;
      case 0x46: // FLOAT (text)
        stack.push(Number.parseFloat(line()));
        break;
      case 0x58: // BINUNICODE
        stack.push(dec.decode(take(u32())));
        break;
      case 0x8c: // SHORT_BINUNICODE
        stack.push(dec.decode(take(u8())));
        break;
      case 0x8d: // BINUNICODE8
        stack.push(dec.decode(take(u64())));
        break;
      case 0x56: // UNICODE (raw-unicode-escape text)
        stack.push(line());
        break;
      case 0x54: // BINSTRING
        stack.push(latin1.decode(take(u32())));
        break;
      case 0x55: // SHORT_BINSTRING
        stack.push(latin1.decode(take(u8())));
        break;
      case 0x53: {
        // STRING (quoted text)
        const s = line();
        stack.push(s.slice(1, -1));
        break;
      }
      case 0x42: // BINBYTES
        stack.push(take(u32()).slice());
        break;
      case 0x43: // SHORT_BINBYTES
        stack.push(take(u8()).slice());
        break;
      case 0x8e: // BINBYTES8
        stack.push(take(u64()).slice());
        break;
      case 0x96: // BYTEARRAY8
        stack.push(take(u64()).slice());
        break;
      case 0x74: // TUPLE
      case 0x6c: {
        // LIST (popMark first: it swaps `stack`)
        const items = popMark();
        stack.push(items);
        break;
      }
      case 0x85: // TUPLE1
        stack.push([pop()]);
        break;
      case 0x86: {
        // TUPLE2
        const b = pop();
        const a = pop();
        stack.push([a, b]);
        break;
      }
      case 0x87: {
        // TUPLE3
        const c = pop();
        const b = pop();
        const a = pop();
        stack.push([a, b, c]);
        break;
      }
      case 0x64: {
        // DICT
        const kv = popMark();
        const d = new Map();
        setItems(d, kv);
        stack.push(d);
        break;
      }
      case 0x61: {
        // APPEND
        const v = pop();
        appendItems(top(), [v]);
        break;
      }
      case 0x65: {
        // APPENDS
        const items = popMark();
        appendItems(top(), items);
        break;
      }
      case 0x73: {
        // SETITEM
        const v = pop();
        const k = pop();
        setItems(top(), [k, v]);
        break;
      }
      case 0x75: {
        // SETITEMS
        const kv = popMark();
        setItems(top(), kv);
        break;
      }
      case 0x90: {
        // ADDITEMS
        const items = popMark();
        const s = top();
        if (!(s instanceof Set)) throw bad('ADDITEMS on a non-set');
        for (const i of items) s.add(i);
        break;
      }
      case 0x91: {
        // FROZENSET
        const items = popMark();
        stack.push(new Set(items));
        break;
      }
      case 0x30: // POP
        pop();
        break;
      case 0x31: // POP_MARK
        popMark();
        break;
      case 0x32: // DUP
        stack.push(top());
        break;
      case 0x71: // BINPUT
        memo.set(u8(), top());
        break;
      case 0x72: // LONG_BINPUT
        memo.set(u32(), top());
        break;
      case 0x70: // PUT
        memo.set(Number.parseInt(line(), 10), top());
        break;
      case 0x94: // MEMOIZE
        memo.set(memo.size, top());
        break;
      case 0x68: // BINGET
      case 0x6a: // LONG_BINGET
      case 0x67: {
        // GET
        const k = op === 0x68 ? u8() : op === 0x6a ? u32() : Number.parseInt(line(), 10);
        if (!memo.has(k)) throw bad(`memo key ${k} missing`);
        stack.push(memo.get(k));
        break;
      }
      case 0x63: {
        // GLOBAL
        const module = line();
        const name = line();
        stack.push(global(module, name));
        break;
      }
      case 0x93: {
        // STACK_GLOBAL
        const name = pop();
        const module = pop();
        if (typeof module !== 'string' || typeof name !== 'string') throw bad('STACK_GLOBAL needs strings');
        stack.push(global(module, name));
        break;
      }
      case 0x52: {
        // REDUCE
        const args = pop();
        const fn = pop();
        if (!Array.isArray(args)) throw bad('REDUCE arguments are not a tuple');
        stack.push(callObj(fn, args));
        break;
      }
      case 0x81: {
        // NEWOBJ
        const args = pop();
        const cls = pop();
        stack.push(callObj(cls, Array.isArray(args) ? args : []));
        break;
      }
      case 0x92: {
        // NEWOBJ_EX
        pop();
        const args = pop();
        const cls = pop();
        stack.push(callObj(cls, Array.isArray(args) ? args : []));
        break;
      }
      case 0x62: {
        // BUILD
        const state = pop();
        const obj = top();
        if (obj instanceof PyObject) obj.state = state;
        // Other objects (an OrderedDict's `_metadata`, a tensor's Python attributes) keep no state.
        break;
      }
      case 0x51: {
        // BINPERSID
        const pid = pop();
        if (!options.persistentLoad) throw bad('a persistent id appears but no persistent_load is available');
        stack.push(options.persistentLoad(pid));
        break;
      }
      case 0x50: {
        // PERSID
        const pid = line();
        if (!options.persistentLoad) throw bad('a persistent id appears but no persistent_load is available');
        stack.push(options.persistentLoad(pid));
        break;
      }
      default:
        throw bad(`unsupported opcode 0x${op.toString(16).padStart(2, '0')} at byte ${pos - 1}`);
    }
  }
}
