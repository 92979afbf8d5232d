/**
 * Note [WebAssembly GEMM micro-kernel]
 * The inner kernel of float matmul (kernels/matmul.ts) as a tiny WebAssembly SIMD module,
 * assembled here byte by byte (no toolchain, no .wasm file to ship or fetch):
 *   k(kc, a, b, c, ldc): C[4][4] += sum over kc steps of A[k][0..4) (x) B[k][0..4)
 * on float64 in the module's memory: `a` a packed A micro-panel (4 doubles per k: one element
 * of each of 4 rows), `b` a packed B micro-panel (4 doubles per k: 4 columns), `c` the
 * top-left of a 4x4 tile of C with row stride `ldc` bytes; kc >= 1. The 16 accumulators live
 * in 8 f64x2 registers, loaded from C before the loop and stored after it, and each k adds
 * its products in order, so every C element is the sequential float64 sum of its products
 * (exactly a plain triple loop's result). The caller packs, blocks and writes back.
 * SIMD is part of WebAssembly in every engine Node 16.4+ ships; where it fails to validate,
 * `gemmKernel()` returns null and matmul keeps its plain JS loops.
 */

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 (small constants only). */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function str(s: string): number[] {
  return [...uleb(s.length), ...Array.from(s, (ch) => ch.charCodeAt(0))];
}

// Opcodes (core and the 0xfd SIMD prefix).
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const I32_CONST = 0x41;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const F64_LOAD = 0x2b;
const LOOP = 0x03;
const BR_IF = 0x0d;
const END = 0x0b;
const VOID = 0x40;
const I32 = 0x7f;
const V128 = 0x7b;
const simd = (op: number): number[] => [0xfd, ...uleb(op)];
const V128_LOAD = 0;
const V128_STORE = 11;
const F64X2_SPLAT = 20;
const F64X2_ADD = 240;
const F64X2_MUL = 242;

/** The 4x4 kernel's body (see the Note); locals: params 0-4, v128 5-15, i32 16-18. */
function kernelBody(): number[] {
  const [KC, A, B, C, LDC] = [0, 1, 2, 3, 4];
  const acc = (r: number, h: number): number => 5 + 2 * r + h; // 5..12
  const B0 = 13;
  const B1 = 14;
  const AV = 15;
  const row = (r: number): number => (r === 0 ? C : 15 + r); // C, 16, 17, 18
  const code: number[] = [];
  const get = (l: number) => code.push(LOCAL_GET, ...uleb(l));
  const set = (l: number) => code.push(LOCAL_SET, ...uleb(l));
  const memarg = (align: number, offset: number) => code.push(...uleb(align), ...uleb(offset));
  for (let r = 1; r < 4; r++) {
    get(row(r - 1));
    get(LDC);
    code.push(I32_ADD);
    set(row(r));
  }
  for (let r = 0; r < 4; r++) {
    for (let h = 0; h < 2; h++) {
      get(row(r));
      code.push(...simd(V128_LOAD));
      memarg(3, 16 * h);
      set(acc(r, h));
    }
  }
  code.push(LOOP, VOID);
  for (let h = 0; h < 2; h++) {
    get(B);
    code.push(...simd(V128_LOAD));
    memarg(3, 16 * h);
    set(h === 0 ? B0 : B1);
  }
  for (let r = 0; r < 4; r++) {
    get(A);
    code.push(F64_LOAD);
    memarg(3, 8 * r);
    code.push(...simd(F64X2_SPLAT));
    set(AV);
    for (let h = 0; h < 2; h++) {
      get(acc(r, h));
      get(AV);
      get(h === 0 ? B0 : B1);
      code.push(...simd(F64X2_MUL), ...simd(F64X2_ADD));
      set(acc(r, h));
    }
  }
  for (const p of [A, B]) {
    get(p);
    code.push(I32_CONST, ...sleb(32), I32_ADD);
    set(p);
  }
  get(KC);
  code.push(I32_CONST, ...sleb(1), I32_SUB, LOCAL_TEE, ...uleb(KC), BR_IF, 0, END);
  for (let r = 0; r < 4; r++) {
    for (let h = 0; h < 2; h++) {
      get(row(r));
      get(acc(r, h));
      code.push(...simd(V128_STORE));
      memarg(3, 16 * h);
    }
  }
  code.push(END);
  const locals = [...uleb(2), ...uleb(11), V128, ...uleb(3), I32];
  const body = [...locals, ...code];
  return [...uleb(body.length), ...body];
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const type = [...uleb(1), 0x60, ...uleb(5), I32, I32, I32, I32, I32, ...uleb(0)];
  const imports = [...uleb(1), ...str('e'), ...str('m'), 0x02, 0x00, ...uleb(1)];
  const funcs = [...uleb(1), ...uleb(0)];
  const exports = [...uleb(1), ...str('k'), 0x00, ...uleb(0)];
  const code = [...uleb(1), ...kernelBody()];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, type),
    ...section(2, imports),
    ...section(3, funcs),
    ...section(7, exports),
    ...section(10, code),
  ]);
}

export type GemmKernelFn = (kc: number, a: number, b: number, c: number, ldc: number) => void;

/** The module's memory and kernel; `f64` is re-made whenever the memory grows. */
export interface GemmKernel {
  readonly kernel: GemmKernelFn;
  /** A Float64Array over the whole memory (valid until the next `reserve`). */
  f64: Float64Array;
  /** Makes the memory at least `bytes` long. */
  reserve(bytes: number): void;
}

let instance: GemmKernel | null | undefined;

/** The kernel, instantiated on first use; null where WebAssembly SIMD is unavailable. */
export function gemmKernel(): GemmKernel | null {
  if (instance !== undefined) return instance;
  instance = null;
  try {
    const bytes = moduleBytes();
    if (typeof WebAssembly === 'undefined' || !WebAssembly.validate(bytes)) return null;
    const memory = new WebAssembly.Memory({ initial: 1 });
    const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), { e: { m: memory } });
    const k: GemmKernel = {
      kernel: inst.exports.k as GemmKernelFn,
      f64: new Float64Array(memory.buffer),
      reserve(bytes: number): void {
        const have = memory.buffer.byteLength;
        if (bytes <= have) return;
        memory.grow(Math.ceil((bytes - have) / 65536));
        k.f64 = new Float64Array(memory.buffer);
      },
    };
    instance = k;
  } catch {
    instance = null;
  }
  return instance;
}
