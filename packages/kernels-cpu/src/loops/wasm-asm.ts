/**
 * A minimal WebAssembly assembler for the SIMD kernels (loops/gemm-wasm.ts, loops/sum-wasm.ts):
 * each kernel is one function, written as opcodes here, in a module that imports its memory
 * as `e.m` and exports the function as `k`. No toolchain and no .wasm file to ship or fetch.
 * SIMD is part of WebAssembly in every engine Node 16.4+ ships; where a module fails to
 * validate, `instantiateKernel` returns null and the caller keeps its plain JS loops.
 */

/** Unsigned LEB128. */
export function uleb(n: number): number[] {
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
export function sleb(n: number): number[] {
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
export const LOCAL_GET = 0x20;
export const LOCAL_SET = 0x21;
export const LOCAL_TEE = 0x22;
export const I32_CONST = 0x41;
export const I32_ADD = 0x6a;
export const I32_SUB = 0x6b;
export const I32_SHL = 0x74;
export const I32_GE_U = 0x4f;
export const F64_LOAD = 0x2b;
export const F64_ADD = 0xa0;
export const BLOCK = 0x02;
export const LOOP = 0x03;
export const BR = 0x0c;
export const BR_IF = 0x0d;
export const END = 0x0b;
export const VOID = 0x40;
export const I32 = 0x7f;
export const F64 = 0x7c;
export const V128 = 0x7b;
export const simd = (op: number): number[] => [0xfd, ...uleb(op)];
export const V128_LOAD = 0;
export const V128_STORE = 11;
export const I8X16_SHUFFLE = 13;
export const F64X2_SPLAT = 20;
export const F64X2_EXTRACT_LANE = 33;
export const F64X2_PROMOTE_LOW_F32X4 = 95;
export const F64X2_ADD = 240;
export const F64X2_MUL = 242;

/** An instruction buffer with shorthands for the local and memory operands the kernels write. */
export function emitter(): {
  code: number[];
  get(l: number): void;
  set(l: number): void;
  tee(l: number): void;
  memarg(align: number, offset: number): void;
} {
  const code: number[] = [];
  return {
    code,
    get: (l) => void code.push(LOCAL_GET, ...uleb(l)),
    set: (l) => void code.push(LOCAL_SET, ...uleb(l)),
    tee: (l) => void code.push(LOCAL_TEE, ...uleb(l)),
    memarg: (align, offset) => void code.push(...uleb(align), ...uleb(offset)),
  };
}

/** A function body: its local declarations (runs of [count, type]) and code (ending in END). */
export function body(locals: readonly (readonly [number, number])[], code: readonly number[]): number[] {
  const b = [...uleb(locals.length), ...locals.flatMap(([n, t]) => [...uleb(n), t]), ...code];
  return [...uleb(b.length), ...b];
}

/** The module of one function `k(params) -> results` over the imported memory `e.m`. */
export function kernelModule(params: readonly number[], results: readonly number[], fnBody: readonly number[]): Uint8Array<ArrayBuffer> {
  const type = [...uleb(1), 0x60, ...uleb(params.length), ...params, ...uleb(results.length), ...results];
  const imports = [...uleb(1), ...str('e'), ...str('m'), 0x02, 0x00, ...uleb(1)];
  const funcs = [...uleb(1), ...uleb(0)];
  const exports = [...uleb(1), ...str('k'), 0x00, ...uleb(0)];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, type),
    ...section(2, imports),
    ...section(3, funcs),
    ...section(7, exports),
    ...section(10, [...uleb(1), ...fnBody]),
  ]);
}

/** An instantiated kernel and its memory (one 64 KiB page to start). */
export interface WasmKernel<F> {
  readonly fn: F;
  readonly memory: WebAssembly.Memory;
}

/** Instantiates `bytes`; null where WebAssembly or its SIMD is unavailable. */
export function instantiateKernel<F>(bytes: Uint8Array<ArrayBuffer>): WasmKernel<F> | null {
  try {
    if (typeof WebAssembly === 'undefined' || !WebAssembly.validate(bytes)) return null;
    const memory = new WebAssembly.Memory({ initial: 1 });
    const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), { e: { m: memory } });
    return { fn: inst.exports.k as F, memory };
  } catch {
    return null;
  }
}
