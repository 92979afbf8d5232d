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
 * Where WebAssembly SIMD is unavailable `gemmKernel()` returns null and matmul keeps its
 * plain JS loops (loops/wasm-asm.ts).
 */
import {
  END,
  F64_LOAD,
  F64X2_ADD,
  F64X2_MUL,
  F64X2_SPLAT,
  I32,
  I32_ADD,
  I32_CONST,
  I32_SUB,
  BR_IF,
  LOOP,
  V128,
  V128_LOAD,
  V128_STORE,
  VOID,
  body,
  emitter,
  instantiateKernel,
  kernelModule,
  simd,
  sleb,
} from './wasm-asm';

/** The 4x4 kernel's body (see the Note); locals: params 0-4, v128 5-15, i32 16-18. */
function kernelBody(): number[] {
  const [KC, A, B, C, LDC] = [0, 1, 2, 3, 4];
  const acc = (r: number, h: number): number => 5 + 2 * r + h; // 5..12
  const B0 = 13;
  const B1 = 14;
  const AV = 15;
  const row = (r: number): number => (r === 0 ? C : 15 + r); // C, 16, 17, 18
  const { code, get, set, tee, memarg } = emitter();
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
  code.push(I32_CONST, ...sleb(1), I32_SUB);
  tee(KC);
  code.push(BR_IF, 0, END);
  for (let r = 0; r < 4; r++) {
    for (let h = 0; h < 2; h++) {
      get(row(r));
      get(acc(r, h));
      code.push(...simd(V128_STORE));
      memarg(3, 16 * h);
    }
  }
  code.push(END);
  return body([[11, V128], [3, I32]], code);
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
  const w = instantiateKernel<GemmKernelFn>(kernelModule([I32, I32, I32, I32, I32], [], kernelBody()));
  if (w === null) return (instance = null);
  const memory = w.memory;
  const k: GemmKernel = {
    kernel: w.fn,
    f64: new Float64Array(memory.buffer),
    reserve(bytes: number): void {
      const have = memory.buffer.byteLength;
      if (bytes <= have) return;
      memory.grow(Math.ceil((bytes - have) / 65536));
      k.f64 = new Float64Array(memory.buffer);
    },
  };
  return (instance = k);
}
