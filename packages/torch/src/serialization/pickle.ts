/**
 * A pickle reader with the semantics of PyTorch's `weights_only` unpickler
 * (`torch/_weights_only_unpickler.py`): the same opcodes (protocol 2, what `torch.save`
 * writes), the same rules for what may be called, built and mutated, and globals resolved
 * only through the caller's allow-list (`findClass`); any other global is refused with
 * PyTorch's message. It never runs code and never makes an object of a class nobody
 * allowed. Dicts become Maps (insertion order kept), lists and tuples arrays, Python ints
 * numbers (BigInt beyond 2^53), bytes Uint8Arrays.
 *
 * Note [Bounded unpickling]
 * Every read is bounds-checked against the stream; integers come only from LONG1 (at most
 * 255 bytes: LONG4 is not a weights_only opcode, and its quadratic BigInt decoding was a
 * denial of service); MARK frames and container nesting are capped at `maxDepth`; a
 * container may not be changed once it sits inside another (pickle builds bottom-up, so
 * only recursive structures do that), which keeps every container's recorded depth exact.
 * So the work and the memory are linear in the stream's length. Browser-safe.
 */
import { Tensor, TorchError } from '@torch-ts/core';

/** A malformed pickle, or one that asks for something the weights_only rules refuse. */
export class UnpicklingError extends TorchError {}

/** An object of a class the caller allowed by name only: its class name and construction data. */
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
  /** May NEWOBJ make it (`torch.nn.Parameter`, allowlisted classes)? REDUCE only otherwise. */
  readonly newobj?: boolean;
  /** BUILD on an object this callable made: applies the state (absent: BUILD is refused). */
  build?(obj: unknown, state: unknown): void;
}

export interface UnpicklerOptions {
  /** The value of an allowed global `module.name`; `undefined` refuses it (Unsupported global). */
  findClass(module: string, name: string): unknown;
  /** `persistent_load(pid)` for BINPERSID (pid is a tuple starting with "storage", or an int). */
  persistentLoad?(pid: unknown): unknown;
  /** Deepest container nesting (and MARK nesting) accepted; 1000 by default. */
  maxDepth?: number;
}

export const DEFAULT_MAX_DEPTH = 1000;

const bad = (msg: string) => new UnpicklingError(`pickle: ${msg}`);

/** The message of PyTorch's weights_only unpickler for a global it does not allow. */
export function unsupportedGlobal(module: string, name: string): UnpicklingError {
  const path = module === 'builtins' ? name : `${module}.${name}`;
  return new UnpicklingError(
    `Unsupported global: GLOBAL ${path} was not an allowed global by default. ` +
      `Please use \`torch.serialization.addSafeGlobals(['${module}.${name}'])\` to allowlist this global if you trust this class/function.`,
  );
}

/** Modules that stay refused even when a user allowlists a name in them (as PyTorch's `_blocklisted_modules`). */
export const BLOCKED_MODULES: ReadonlySet<string> = new Set(['sys', 'os', 'posix', 'nt']);

export function blockedGlobal(module: string, name: string): UnpicklingError {
  return new UnpicklingError(
    `Unsupported global: GLOBAL ${module}.${name}: trying to load unsupported GLOBAL ${module}.${name} whose module ${module} is blocked.`,
  );
}

const OPCODE_NAMES: Record<number, string> = {
  0x8b: 'LONG4',
  0x95: 'FRAME',
  0x93: 'STACK_GLOBAL',
  0x94: 'MEMOIZE',
  0x8c: 'SHORT_BINUNICODE',
  0x8d: 'BINUNICODE8',
  0x42: 'BINBYTES',
  0x43: 'SHORT_BINBYTES',
  0x8e: 'BINBYTES8',
  0x96: 'BYTEARRAY8',
  0x92: 'NEWOBJ_EX',
  0x52: 'REDUCE',
  0x49: 'INT',
  0x4c: 'LONG',
  0x46: 'FLOAT',
  0x53: 'STRING',
  0x56: 'UNICODE',
  0x54: 'BINSTRING',
  0x50: 'PERSID',
  0x70: 'PUT',
  0x67: 'GET',
  0x69: 'INST',
  0x6f: 'OBJ',
  0x30: 'POP',
  0x31: 'POP_MARK',
  0x32: 'DUP',
  0x90: 'ADDITEMS',
  0x91: 'FROZENSET',
  0x6c: 'LIST',
  0x64: 'DICT',
  0x82: 'EXT1',
  0x83: 'EXT2',
  0x84: 'EXT4',
  0x97: 'NEXT_BUFFER',
  0x98: 'READONLY_BUFFER',
};

/**
 * Protocol 2 writes Python 3 globals under their Python 2 names (`__builtin__.eval`,
 * `commands.Popen` for `subprocess.Popen`); like PyTorch's `_read_global_instruction`,
 * names are mapped back first, so the allow-list, the blocked modules and the messages all
 * see the Python 3 name. The modules and names of `_compat_pickle` that matter here.
 */
const IMPORT_MAPPING: Record<string, string> = {
  __builtin__: 'builtins',
  exceptions: 'builtins',
  copy_reg: 'copyreg',
  commands: 'subprocess',
  cPickle: 'pickle',
  StringIO: 'io',
  cStringIO: 'io',
  UserDict: 'collections',
  UserList: 'collections',
  UserString: 'collections',
  thread: '_thread',
  Queue: 'queue',
  urlparse: 'urllib.parse',
  httplib: 'http.client',
};
const NAME_MAPPING: Record<string, readonly [string, string]> = {
  '__builtin__.xrange': ['builtins', 'range'],
  '__builtin__.reduce': ['functools', 'reduce'],
  '__builtin__.intern': ['sys', 'intern'],
  '__builtin__.unichr': ['builtins', 'chr'],
  '__builtin__.unicode': ['builtins', 'str'],
  '__builtin__.long': ['builtins', 'int'],
  '__builtin__.basestring': ['builtins', 'str'],
  'itertools.izip': ['builtins', 'zip'],
  'itertools.imap': ['builtins', 'map'],
  'itertools.ifilter': ['builtins', 'filter'],
  'UserDict.IterableUserDict': ['collections', 'UserDict'],
};

export function python3Global(module: string, name: string): [string, string] {
  const n = NAME_MAPPING[`${module}.${name}`];
  if (n) return [n[0], n[1]];
  return [IMPORT_MAPPING[module] ?? module, name];
}

const isObj = (x: unknown): x is object => x !== null && typeof x === 'object';

/** A value REDUCE / NEWOBJ can call: what `findClass` returns for an allowed global. */
export function isPyCallable(f: unknown): f is PyCallable {
  return isObj(f) && 'call' in f && typeof f.call === 'function';
}

export function unpickle(bytes: Uint8Array, options: UnpicklerOptions): unknown {
  if (!(bytes instanceof Uint8Array)) throw bad('expected a Uint8Array');
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const utf8 = new TextDecoder('utf-8', { fatal: false });
  const utf8Strict = new TextDecoder('utf-8', { fatal: true });
  let pos = 0;
  let stack: unknown[] = [];
  const marks: unknown[][] = [];
  const memo = new Map<number, unknown>();
  // Note [Bounded unpickling]: depth of each container made here, lists (not tuples), and
  // containers already placed inside another. Strong maps (they live as long as this call):
  // V8's weak collections are several times slower to fill.
  const depth = new Map<object, number>();
  const lists = new Set<unknown[]>();
  const nested = new Set<object>();
  const madeBy = new Map<object, PyCallable>();

  const need = (n: number) => {
    if (n > bytes.length - pos) throw bad(`truncated stream (${n} bytes needed at byte ${pos}, ${bytes.length - pos} left)`);
  };
  const u8 = () => (need(1), bytes[pos++]);
  const u16 = () => (need(2), (pos += 2), view.getUint16(pos - 2, true));
  const u32 = () => (need(4), (pos += 4), view.getUint32(pos - 4, true));
  const i32 = () => (need(4), (pos += 4), view.getInt32(pos - 4, true));
  const take = (n: number) => (need(n), (pos += n), bytes.subarray(pos - n, pos));
  const line = () => {
    const start = pos;
    const end = bytes.indexOf(0x0a, pos);
    if (end < 0) throw bad('truncated stream (a line has no end)');
    pos = end + 1;
    try {
      return utf8Strict.decode(bytes.subarray(start, end));
    } catch {
      throw bad(`the line at byte ${start} is not valid UTF-8`);
    }
  };
  const pop = () => {
    if (stack.length === 0) throw bad(`stack underflow at byte ${pos - 1}`);
    return stack.pop();
  };
  const top = () => {
    if (stack.length === 0) throw bad(`stack underflow at byte ${pos - 1}`);
    return stack[stack.length - 1];
  };
  const popMark = (): unknown[] => {
    const prev = marks.pop();
    if (!prev) throw bad(`MARK missing at byte ${pos - 1}`);
    const items = stack;
    stack = prev;
    return items;
  };
  // Untracked objects (empty containers, tensors, bytes) count as depth 1.
  const depthOf = (x: unknown) => (isObj(x) ? (depth.get(x) ?? 1) : 0);
  /** Records `c` as a container of `items` (at least depth 1) and the items as nested. */
  const contain = <T extends object>(c: T, items: readonly unknown[]): T => {
    if (items.length === 0) return c;
    let d = depth.get(c) ?? 1;
    for (const x of items) {
      if (!isObj(x)) continue;
      if (x === c) throw bad('a container that holds itself (recursive structures are not supported)');
      d = Math.max(d, depthOf(x) + 1);
      nested.add(x);
    }
    if (d > maxDepth) throw bad(`containers nest deeper than ${maxDepth} levels`);
    depth.set(c, d);
    return c;
  };
  const mutable = (c: object, op: string) => {
    if (nested.has(c)) throw bad(`${op} on a container that is already inside another (recursive structures are not supported)`);
  };
  const longFromBytes = (b: Uint8Array): number | bigint => {
    if (b.length === 0) return 0;
    let hex = '';
    for (let i = b.length - 1; i >= 0; i--) hex += b[i].toString(16).padStart(2, '0');
    let v = BigInt(`0x${hex}`);
    if (b[b.length - 1] & 0x80) v -= 1n << BigInt(8 * b.length);
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  };
  const describe = (x: unknown) => (x instanceof PyObject ? x.className : Array.isArray(x) ? (lists.has(x) ? 'list' : 'tuple') : x instanceof Map ? 'dict' : typeof x);
  const made = (fn: PyCallable, r: unknown, args: unknown[]) => {
    if (isObj(r) && fn.build && !madeBy.has(r)) madeBy.set(r, fn);
    if (isObj(r) && !depth.has(r) && (r instanceof Map || r instanceof Set || Array.isArray(r) || r instanceof PyObject)) contain(r, args);
    return r;
  };

  for (;;) {
    const op = u8();
    switch (op) {
      case 0x80: // PROTO
        u8();
        break;
      case 0x2e: // STOP
        if (stack.length !== 1 || marks.length !== 0) throw bad('malformed stream (stack not balanced at STOP)');
        return stack[0];
      case 0x28: // MARK
        if (marks.length >= maxDepth) throw bad(`MARKs nest deeper than ${maxDepth} levels`);
        marks.push(stack);
        stack = [];
        break;
      case 0x29: // EMPTY_TUPLE
        stack.push([]);
        break;
      case 0x5d: {
        // EMPTY_LIST
        const l: unknown[] = [];
        lists.add(l);
        stack.push(l);
        break;
      }
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
      case 0x8a: // LONG1 (at most 255 bytes: Note [Bounded unpickling])
        stack.push(longFromBytes(take(u8())));
        break;
      case 0x47: // BINFLOAT (big-endian double)
        need(8);
        stack.push(view.getFloat64(pos, false));
        pos += 8;
        break;
      case 0x58: // BINUNICODE
        stack.push(utf8.decode(take(u32())));
        break;
      case 0x55: {
        // SHORT_BINSTRING (torch.load decodes it as UTF-8, strictly)
        const b = take(u8());
        try {
          stack.push(utf8Strict.decode(b));
        } catch {
          throw bad(`SHORT_BINSTRING at byte ${pos - b.length - 2} is not valid UTF-8`);
        }
        break;
      }
      case 0x74: {
        // TUPLE (popMark first: it swaps `stack`)
        const items = popMark();
        stack.push(contain(items, items));
        break;
      }
      case 0x85: {
        // TUPLE1
        const a = pop();
        stack.push(contain([a], [a]));
        break;
      }
      case 0x86: {
        // TUPLE2
        const b = pop();
        const a = pop();
        stack.push(contain([a, b], [a, b]));
        break;
      }
      case 0x87: {
        // TUPLE3
        const c = pop();
        const b = pop();
        const a = pop();
        stack.push(contain([a, b, c], [a, b, c]));
        break;
      }
      case 0x61: // APPEND
      case 0x65: {
        // APPENDS
        const items = op === 0x61 ? [pop()] : popMark();
        const l = top();
        if (!Array.isArray(l) || !lists.has(l)) throw bad(`Can only append to lists, but got ${describe(l)}`);
        mutable(l, op === 0x61 ? 'APPEND' : 'APPENDS');
        contain(l, items);
        for (const x of items) l.push(x);
        break;
      }
      case 0x73: // SETITEM
      case 0x75: {
        // SETITEMS
        const kv = op === 0x73 ? [] : popMark();
        if (op === 0x73) {
          const v = pop();
          kv.push(pop(), v);
        }
        const d = top();
        const name = op === 0x73 ? 'SETITEM' : 'SETITEMS';
        if (!(d instanceof Map)) throw bad(`Can only ${name} for dict, collections.OrderedDict, collections.Counter, but got ${describe(d)}`);
        if (kv.length % 2 !== 0) throw bad(`${name} with an odd number of items`);
        mutable(d, name);
        contain(d, kv);
        for (let i = 0; i < kv.length; i += 2) d.set(kv[i], kv[i + 1]);
        break;
      }
      case 0x71: // BINPUT
      case 0x72: // LONG_BINPUT
        memo.set(op === 0x71 ? u8() : u32(), top());
        break;
      case 0x68: // BINGET
      case 0x6a: {
        // LONG_BINGET
        const k = op === 0x68 ? u8() : u32();
        if (!memo.has(k)) throw bad(`memo key ${k} missing`);
        stack.push(memo.get(k));
        break;
      }
      case 0x63: {
        // GLOBAL
        const [module, name] = python3Global(line(), line());
        if (BLOCKED_MODULES.has(module.split('.')[0])) throw blockedGlobal(module, name);
        const g = options.findClass(module, name);
        if (g === undefined) throw unsupportedGlobal(module, name);
        stack.push(g);
        break;
      }
      case 0x52: {
        // REDUCE
        const args = pop();
        const fn = pop();
        if (!isPyCallable(fn)) throw bad(`Trying to call reduce for unrecognized function ${describe(fn)}`);
        if (!Array.isArray(args)) throw bad('REDUCE arguments are not a tuple');
        stack.push(made(fn, fn.call(args), args));
        break;
      }
      case 0x81: {
        // NEWOBJ
        const args = pop();
        const cls = pop();
        if (!isPyCallable(cls) || cls.newobj !== true) {
          throw bad(`Can only create new object for nn.Parameter or classes allowlisted via \`addSafeGlobals\` but got ${describe(cls)}`);
        }
        if (!Array.isArray(args)) throw bad('NEWOBJ arguments are not a tuple');
        stack.push(made(cls, cls.call(args), args));
        break;
      }
      case 0x62: {
        // BUILD
        const state = pop();
        const obj = top();
        const maker = isObj(obj) ? madeBy.get(obj) : undefined;
        if (maker?.build) {
          if (isObj(obj)) mutable(obj, 'BUILD');
          if (obj instanceof PyObject) contain(obj, [state]);
          maker.build(obj, state);
        } else if (!(obj instanceof Map) && !(obj instanceof Tensor)) {
          throw bad(`Can only build Tensor, Parameter, OrderedDict or types allowlisted via \`addSafeGlobals\`, but got ${describe(obj)}`);
        }
        // An OrderedDict's `_metadata` and a tensor's Python attributes are dropped: their
        // state has no place here.
        break;
      }
      case 0x51: {
        // BINPERSID
        const pid = pop();
        if (!Array.isArray(pid) && typeof pid !== 'number') throw bad(`persistent_load id must be tuple or int, but got ${describe(pid)}`);
        if (Array.isArray(pid) && pid.length > 0 && pid[0] !== 'storage') throw bad('Only persistent_load of storage is allowed');
        if (!options.persistentLoad) throw bad('a persistent id appears but no persistent_load is available');
        stack.push(options.persistentLoad(pid));
        break;
      }
      default: {
        const name = OPCODE_NAMES[op];
        throw bad(`Unsupported operand ${op}${name ? ` (${name})` : ''} at byte ${pos - 1}`);
      }
    }
  }
}
