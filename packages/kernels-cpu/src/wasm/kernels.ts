import { RELAXED_SIMD_WASM, RELAXED_SIMD_WASM_UNSHARED, SIMD_WASM, SIMD_WASM_UNSHARED } from './generated/kernels-wasm';
import { memory, memoryIsShared } from './memory';

/**
 * Note [Kernels in AssemblyScript]
 * The hot CPU kernels are AssemblyScript (assembly/), compiled by `pnpm build` with the
 * `assemblyscript` package from npm (scripts/build-wasm.mjs): no system compiler, so a
 * fresh clone builds with the README's commands alone. AssemblyScript over C/C++ (clang's
 * wasm target is not on npm) and Rust (rustup downloads a toolchain): it is TypeScript's
 * syntax for a TypeScript team, has v128 intrinsics (relaxed SIMD included), shared
 * memory and atomics, and its output is small. The kernels take addresses in the kernels'
 * memory (Note [CPU storage in WebAssembly memory]) and allocate nothing themselves.
 *
 * Note [Two builds of the kernels]
 * Relaxed SIMD's fused multiply-add (`f32x4.relaxed_madd`) is what lifts the GEMM from
 * about 40 to about 60 GFLOP/s in cache on one core, but engines without it reject the
 * whole module. So the build makes the kernels twice, with and without relaxed SIMD (the
 * AssemblyScript sources branch on ASC_FEATURE_RELAXED_SIMD at compile time), each for a
 * shared and for a plain memory, and `loadKernels` takes the first the engine validates:
 * relaxed SIMD (Chrome 114+, Node 22+; Node 20 with --experimental-wasm-relaxed-simd), then
 * SIMD (every current engine), else none, and the CPU backend keeps its JS loops.
 * TORCH_TS_WASM=relaxed-simd|simd|off (in Node) forces a choice, to test each path.
 */
export type WasmLevel = 'relaxed-simd' | 'simd' | 'off';

/** The exports of assembly/index.ts (addresses and sizes are bytes; strides are elements; flags 0 or 1). */
export interface WasmKernels {
  sgemm(m: number, n: number, k: number, a: number, rsa: number, csa: number, b: number, rsb: number, csb: number, c: number, ldc: number, accumulate: number, scratch: number): void;
  dgemm(m: number, n: number, k: number, a: number, rsa: number, csa: number, b: number, rsb: number, csb: number, c: number, ldc: number, accumulate: number, scratch: number): void;
  gemmScratchBytes(): number;
  /** Note [Small GEMMs on the pool]: B [k, n] packed once, then pool tasks over rows of A. */
  gemmFitsOneBlock(k: number, n: number, size: number): number;
  gemmPackedBBytes(k: number, n: number, size: number): number;
  sgemmPackB(k: number, n: number, b: number, rsb: number, csb: number, dst: number): void;
  dgemmPackB(k: number, n: number, b: number, rsb: number, csb: number, dst: number): void;
  sgemmPackedB(m: number, n: number, k: number, a: number, rsa: number, csa: number, packed: number, c: number, ldc: number, accumulate: number, scratch: number): void;
  dgemmPackedB(m: number, n: number, k: number, a: number, rsa: number, csa: number, packed: number, c: number, ldc: number, accumulate: number, scratch: number): void;
  fill8(dst: number, value: number, count: number): void;
  fill16(dst: number, value: number, count: number): void;
  fill32(dst: number, value: number, count: number): void;
  fill64(dst: number, lo: number, hi: number, count: number): void;
  maxPool2dF32(p0: number, p1: number, x: number, o: number, ix: number, geom: number, scratch: number): void;
  maxPool2dF64(p0: number, p1: number, x: number, o: number, ix: number, geom: number, scratch: number): void;
  maxPool2dBackwardF32(p0: number, p1: number, gi: number, go: number, ix: number, hw: number, n: number, scratch: number): void;
  maxPool2dBackwardF64(p0: number, p1: number, gi: number, go: number, ix: number, hw: number, n: number, scratch: number): void;
  /** Note [Binary pointwise kernels]: one plane (Note [Pointwise planes]); op codes in kernels/pointwise-wasm.ts. */
  binaryF32(op: number, n0: number, n1: number, o: number, os0: number, os1: number, a: number, as0: number, as1: number, b: number, bs0: number, bs1: number, alpha: number, scratch: number): void;
  binaryF64(op: number, n0: number, n1: number, o: number, os0: number, os1: number, a: number, as0: number, as1: number, b: number, bs0: number, bs1: number, alpha: number, scratch: number): void;
  /** Note [Unary pointwise kernels]: float32 out = f(a) on one plane. */
  unaryF32(op: number, n0: number, n1: number, o: number, os0: number, os1: number, a: number, as0: number, as1: number, scratch: number): void;
  /** Note [Comparison and where kernels]: bool out = a op b for float32 a, b on one plane. */
  compareF32(op: number, n0: number, n1: number, o: number, os0: number, os1: number, a: number, as0: number, as1: number, b: number, bs0: number, bs1: number, scratch: number): void;
  /** 32-bit out = c ? a : b on one plane, c bool. */
  where32(n0: number, n1: number, o: number, os0: number, os1: number, c: number, cs0: number, cs1: number, a: number, as0: number, as1: number, b: number, bs0: number, bs1: number, scratch: number): void;
  /** Note [Copy and cast kernels]: out = a converted (dtype codes in kernels/copy-wasm.ts) on one plane. */
  convertPlane(src: number, dst: number, n0: number, n1: number, o: number, os0: number, os1: number, a: number, as0: number, as1: number, scratch: number): void;
  /** Bytes of scratch a plane kernel needs. */
  tileScratchBytes(): number;
  expF32(x: number, o: number, n: number): void;
  sumF32(p: number, n: number): number;
  sumF32Blocks(p: number, n: number, out: number, scratch: number): void;
  sumF32Rows(p: number, rows: number, n: number, rowStride: number, out: number, scratch: number): void;
  sumBlockElements(): number;
  softmaxLastF32(x: number, o: number, rows: number, n: number, log: number, scratch: number): void;
  softmaxInnerF32(x: number, o: number, b0: number, b1: number, size: number, inner: number, c0: number, c1: number, log: number, scratch: number): void;
  softmaxScratchBytes(): number;
  softmaxBackwardLastF32(gi: number, g: number, y: number, rows: number, n: number, log: number, scratch: number): void;
  softmaxBackwardInnerF32(gi: number, g: number, y: number, b0: number, b1: number, size: number, inner: number, c0: number, c1: number, log: number, scratch: number): void;
  /** Convolution tasks (Note [Convolution on the GEMM]): `params` is the address of a parameter block (Note [Convolution parameter block]). */
  conv2dForward32(params: number, u0: number, u1: number, scratch: number): void;
  conv2dForward64(params: number, u0: number, u1: number, scratch: number): void;
  conv2dInputGrad32(params: number, u0: number, u1: number, scratch: number): void;
  conv2dInputGrad64(params: number, u0: number, u1: number, scratch: number): void;
  conv2dWeightGrad32(params: number, u0: number, u1: number, scratch: number): void;
  conv2dWeightGrad64(params: number, u0: number, u1: number, scratch: number): void;
  conv2dScratchBytes(params: number, size: number): number;
  /** Forward of a convolution with one input channel per group (Note [Direct convolution of one input channel per group]). */
  conv2dDirect32(params: number, u0: number, u1: number, scratch: number): void;
  conv2dDirect64(params: number, u0: number, u1: number, scratch: number): void;
  /** Note [Channels-last convolution as an implicit GEMM] (assembly/conv2d-nhwc.ts). */
  conv2dNhwcForward32(params: number, u0: number, u1: number, scratch: number): void;
  conv2dNhwcForward64(params: number, u0: number, u1: number, scratch: number): void;
  conv2dNhwcScratchBytes(params: number, size: number): number;
  conv2dNhwcWeightGrad32(params: number, u0: number, u1: number, scratch: number): void;
  conv2dNhwcWeightGrad64(params: number, u0: number, u1: number, scratch: number): void;
  conv2dNhwcWeightGradScratchBytes(params: number, size: number): number;
  /** Note [Channels-last strided convolution input gradient] (assembly/conv2d-nhwc-grad.ts): units are images. */
  conv2dNhwcInputGrad32(params: number, u0: number, u1: number, scratch: number): void;
  conv2dNhwcInputGrad64(params: number, u0: number, u1: number, scratch: number): void;
  conv2dNhwcInputGradScratchBytes(params: number, size: number): number;
  /** Note [Normalization in SIMD]: layer norm rows (addresses offset to the task's first row; weight/bias 0 when absent). */
  layerNormF32(x: number, o: number, mean: number, rstd: number, w: number, b: number, rows: number, k: number, eps: number, scratch: number): void;
  layerNormInputGradF32(gi: number, g: number, x: number, mean: number, rstd: number, w: number, rows: number, k: number, scratch: number): void;
  layerNormParamGradF32(gw: number, gb: number, g: number, x: number, mean: number, rstd: number, rows: number, k: number, c0: number, c1: number, scratch: number): void;
  layerNormScratchBytes(): number;
  /** Batch norm channels [c0, c1); `params`: a float64 parameter block (assembly/batch-norm.ts). */
  batchNormF32(params: number, c0: number, c1: number, scratch: number): void;
  batchNormBackwardF32(params: number, c0: number, c1: number, scratch: number): void;
  /** Note [Average pooling in WebAssembly]: planes [p0, p1); `geom`: the i32 window block; scratch: 8 bytes per input column. */
  avgPool2dF32(p0: number, p1: number, x: number, o: number, geom: number, scratch: number): void;
  avgPool2dF64(p0: number, p1: number, x: number, o: number, geom: number, scratch: number): void;
  avgPool2dBackwardF32(p0: number, p1: number, gi: number, go: number, geom: number, scratch: number): void;
  avgPool2dBackwardF64(p0: number, p1: number, gi: number, go: number, geom: number, scratch: number): void;
  /** Note [Channels-last pooling and batch norm in WebAssembly]: output rows [r0, r1) of dense NHWC operands with C channels. */
  maxPool2dNhwcF32(r0: number, r1: number, x: number, o: number, ix: number, geom: number, C: number, scratch: number): void;
  maxPool2dNhwcF64(r0: number, r1: number, x: number, o: number, ix: number, geom: number, C: number, scratch: number): void;
  /** `geom`: the window block of Note [Average pooling in WebAssembly]; scratch: 8 bytes per channel. */
  avgPool2dNhwcF32(r0: number, r1: number, x: number, o: number, geom: number, C: number, scratch: number): void;
  avgPool2dNhwcF64(r0: number, r1: number, x: number, o: number, geom: number, C: number, scratch: number): void;
  /** Channels-last batch norm channels [c0, c1); `params`: a float64 parameter block (assembly/pool-nhwc.ts); scratch: 16 bytes per channel. */
  batchNormNhwcF32(params: number, c0: number, c1: number, scratch: number): void;
  /** Images [n0, n1) of the channels-last pooling backwards; avg's scratch: 8 bytes per input column and channel. */
  /** Note [Channels-last adaptive max pooling and group norm in WebAssembly]: output rows [r0, r1); `geom`: H, W, OH, OW (i32). */
  adaptiveMaxPool2dNhwcF32(r0: number, r1: number, x: number, o: number, ix: number, geom: number, C: number, scratch: number): void;
  adaptiveMaxPool2dNhwcF64(r0: number, r1: number, x: number, o: number, ix: number, geom: number, C: number, scratch: number): void;
  /** Channels-last group norm images [n0, n1); `params`: a float64 parameter block (assembly/pool-nhwc.ts); scratch: 56 bytes per channel. */
  groupNormNhwcF32(params: number, n0: number, n1: number, scratch: number): void;
  groupNormNhwcF64(params: number, n0: number, n1: number, scratch: number): void;
  /** Its gradient, images [n0, n1); scratch: 48 bytes per channel. */
  groupNormBackwardNhwcF32(params: number, n0: number, n1: number, scratch: number): void;
  groupNormBackwardNhwcF64(params: number, n0: number, n1: number, scratch: number): void;
  maxPool2dBackwardNhwcF32(n0: number, n1: number, gi: number, go: number, ix: number, hw: number, ohw: number, C: number, scratch: number): void;
  maxPool2dBackwardNhwcF64(n0: number, n1: number, gi: number, go: number, ix: number, hw: number, ohw: number, C: number, scratch: number): void;
  avgPool2dBackwardNhwcF32(n0: number, n1: number, gi: number, go: number, geom: number, C: number, scratch: number): void;
  avgPool2dBackwardNhwcF64(n0: number, n1: number, gi: number, go: number, geom: number, C: number, scratch: number): void;
  /** Channels-last batch norm's gradients, channels [c0, c1) (assembly/pool-nhwc.ts); scratch: 24 bytes per channel. */
  batchNormBackwardNhwcF32(params: number, c0: number, c1: number, scratch: number): void;
}

function decode(base64: string): Uint8Array<ArrayBuffer> {
  const s = atob(base64);
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return bytes;
}

function requestedLevel(): WasmLevel | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.TORCH_TS_WASM;
  return env === 'relaxed-simd' || env === 'simd' || env === 'off' ? env : undefined;
}

interface Loaded {
  readonly level: WasmLevel;
  /** The compiled module, for worker threads to instantiate on the same memory. */
  readonly module: WebAssembly.Module | null;
  readonly kernels: WasmKernels | null;
}

function load(): Loaded {
  const wanted = requestedLevel();
  const candidates: [WasmLevel, string][] = memoryIsShared
    ? [['relaxed-simd', RELAXED_SIMD_WASM], ['simd', SIMD_WASM]]
    : [['relaxed-simd', RELAXED_SIMD_WASM_UNSHARED], ['simd', SIMD_WASM_UNSHARED]];
  if (typeof WebAssembly === 'object' && wanted !== 'off') {
    for (const [level, base64] of candidates) {
      if (wanted !== undefined && wanted !== level) continue;
      const bytes = decode(base64);
      if (!WebAssembly.validate(bytes)) continue;
      const module = new WebAssembly.Module(bytes);
      const instance = new WebAssembly.Instance(module, { env: { memory } });
      return { level, module, kernels: instance.exports as unknown as WasmKernels };
    }
  }
  return { level: 'off', module: null, kernels: null };
}

const loaded = load();

/** Which build runs (Note [Two builds of the kernels]). */
export const wasmLevel: WasmLevel = loaded.level;
/** The compiled kernels' module (null when WebAssembly SIMD is off). */
export const wasmModule: WebAssembly.Module | null = loaded.module;
/** The kernels, instantiated on the kernels' memory; null when WebAssembly SIMD is off. */
export const wasm: WasmKernels | null = loaded.kernels;
