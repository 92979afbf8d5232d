/**
 * Note [WebAssembly float32 sum]
 * The unit-stride float32 sum of kernels/reduce-folds.ts as a WebAssembly SIMD kernel:
 *   k(p, n) -> f64: the sum of the n float32 values at byte `p` of the module's memory,
 * n a multiple of 8. Each step loads 8 floats as two f32x4, widens each half to an f64x2
 * and adds it to one of four f64x2 accumulators (8 float64 partial sums, elements i mod 8),
 * which are added pairwise at the end: the order Note [Four float64 partial sums of float32]
 * argues for, with twice the partial sums. A JS loop over a Float32Array converts, adds
 * and bounds-checks one element at a time (about 1 ns an element); here 8 elements cost
 * a few instructions, so the sum runs at about the speed memory delivers it.
 * Tensor storage is an ArrayBuffer of its own (Note [CPU storage is a region of an
 * ArrayBuffer]), so `sumF32Wasm` copies a row through the module's memory in pieces of
 * PIECE floats, which stay in cache between the copy and the sum.
 */
import {
  BLOCK,
  BR,
  BR_IF,
  END,
  F64,
  F64_ADD,
  F64X2_ADD,
  F64X2_EXTRACT_LANE,
  F64X2_PROMOTE_LOW_F32X4,
  I32,
  I32_ADD,
  I32_CONST,
  I32_GE_U,
  I32_SHL,
  I8X16_SHUFFLE,
  LOOP,
  V128,
  V128_LOAD,
  VOID,
  body,
  emitter,
  instantiateKernel,
  kernelModule,
  simd,
  sleb,
  type WasmKernel,
} from './wasm-asm';

/** Floats per copy: 64 KiB, the module's one page. */
const PIECE = 1 << 14;

function kernelBody(): number[] {
  const [P, N, END_P, V] = [0, 1, 2, 3];
  const acc = (j: number): number => 4 + j; // 4..7
  const { code, get, set, tee, memarg } = emitter();
  // end = p + 4n
  get(P);
  get(N);
  code.push(I32_CONST, ...sleb(2), I32_SHL, I32_ADD);
  set(END_P);
  code.push(BLOCK, VOID, LOOP, VOID);
  get(P);
  get(END_P);
  code.push(I32_GE_U, BR_IF, 1);
  for (let h = 0; h < 2; h++) {
    get(P);
    code.push(...simd(V128_LOAD));
    memarg(2, 16 * h);
    tee(V);
    code.push(...simd(F64X2_PROMOTE_LOW_F32X4));
    get(acc(2 * h));
    code.push(...simd(F64X2_ADD));
    set(acc(2 * h));
    // the high two floats: swap the halves, then widen the (new) low half
    get(V);
    get(V);
    code.push(...simd(I8X16_SHUFFLE), 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    code.push(...simd(F64X2_PROMOTE_LOW_F32X4));
    get(acc(2 * h + 1));
    code.push(...simd(F64X2_ADD));
    set(acc(2 * h + 1));
  }
  get(P);
  code.push(I32_CONST, ...sleb(32), I32_ADD);
  set(P);
  code.push(BR, 0, END, END);
  // ((acc0 + acc1) + (acc2 + acc3)), then its two lanes
  get(acc(0));
  get(acc(1));
  code.push(...simd(F64X2_ADD));
  get(acc(2));
  get(acc(3));
  code.push(...simd(F64X2_ADD), ...simd(F64X2_ADD));
  tee(V);
  code.push(...simd(F64X2_EXTRACT_LANE), 0);
  get(V);
  code.push(...simd(F64X2_EXTRACT_LANE), 1, F64_ADD, END);
  return body([[1, I32], [5, V128]], code);
}

type SumFn = (p: number, n: number) => number;

let kernel: { k: WasmKernel<SumFn>; f32: Float32Array } | null | undefined;

function sumKernel(): { k: WasmKernel<SumFn>; f32: Float32Array } | null {
  if (kernel !== undefined) return kernel;
  const k = instantiateKernel<SumFn>(kernelModule([I32, I32], [F64], kernelBody()));
  return (kernel = k && { k, f32: new Float32Array(k.memory.buffer, 0, PIECE) });
}

/** Whether `sumF32Wasm` runs here (WebAssembly SIMD validates). */
export function hasWasmSum(): boolean {
  return sumKernel() !== null;
}

/**
 * The float64 sum of `a[ao .. ao + n)` (Note [WebAssembly float32 sum]); null where the
 * kernel is unavailable.
 */
export function sumF32Wasm(n: number, a: Float32Array, ao: number): number | null {
  const w = sumKernel();
  if (w === null) return null;
  const { k, f32 } = w;
  let s = 0;
  let i = 0;
  for (; i + 8 <= n; ) {
    const m = Math.min(PIECE, (n - i) & ~7);
    f32.set(a.subarray(ao + i, ao + i + m));
    s += k.fn(0, m);
    i += m;
  }
  for (; i < n; i++) s += a[ao + i];
  return s;
}
