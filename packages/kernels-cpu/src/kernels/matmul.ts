import { isFloatingType, TensorImpl } from '@torch-ts/core';
import { bigints } from '../loops/arrays';
import { readerOf, writerOf, type Reader } from '../loops/convert';
import { wasm, type WasmKernels } from '../wasm/kernels';
import { kernelHeap } from '../wasm/kernel-heap';
import { Operands, addressOf } from '../wasm/operands';
import { copy } from './copy';
import { getNumThreads, runTasks } from '../wasm/pool';

/**
 * Note [CPU matmul]
 * out[n, p] = a[n, m] @ b[m, p], for any strides (transposed operands included). Floating
 * dtypes run on the WebAssembly GEMM (Note [Matmul on the WebAssembly GEMM]); where
 * WebAssembly SIMD is missing, and for integers, plain JS loops:
 *  - b is packed once into a contiguous row-major float64 copy (decoding 16-bit floats and
 *    integers), so the inner loop always streams unit-stride doubles whatever b's layout;
 *  - rows of a are decoded four at a time, and an i-k-j loop accumulates four output rows
 *    in float64, reading each packed element of b once per four rows and updating each
 *    accumulator once per four k (so sums are grouped by fours: still float64 throughout);
 *  - each output row is rounded once to out's dtype (the JS loops accumulate float32 in
 *    double: more accurate than PyTorch's float32 GEMM, within its rounding).
 * Integer dtypes do the same in Int32Array with Math.imul, wrapping modulo 2^32 as the
 * narrow types' arithmetic does modulo their width; int64 multiplies BigInts exactly
 * (wrapping modulo 2^64). Buffers up to PACK_CACHE elements are kept between calls.
 */
interface Mat {
  readonly t: TensorImpl;
  readonly off: number;
  /** Strides of rows and columns. */
  readonly s0: number;
  readonly s1: number;
}

const ROWS = 4;
const PACK_CACHE = 1 << 20;
let packCache = new Float64Array(0);
let packCacheInt = new Int32Array(0);

function f64Buffer(n: number): Float64Array {
  if (n > PACK_CACHE) return new Float64Array(n);
  if (packCache.length < n) packCache = new Float64Array(Math.max(n, 2 * packCache.length, 1024));
  return packCache;
}

function i32Buffer(n: number): Int32Array {
  if (n > PACK_CACHE) return new Int32Array(n);
  if (packCacheInt.length < n) packCacheInt = new Int32Array(Math.max(n, 2 * packCacheInt.length, 1024));
  return packCacheInt;
}

/** `rows` rows of x (from row r0), decoded into `dst` row-major with row length `len`. */
function readRows(read: Reader, x: Mat, r0: number, rows: number, len: number, dst: Float64Array): void {
  for (let r = 0; r < rows; r++) read(len, dst.subarray(r * len, (r + 1) * len), x.off + (r0 + r) * x.s0, x.s1);
}

/**
 * C[0..4p) = A[4 rows of m] @ B[m, p]: the hot loop, on Float64Array only. Four rows of A and
 * four k at a time: each loaded element of B serves four rows, and each C element is loaded
 * and stored once per four k (measured 2-3x faster than one k at a time in V8).
 */
function gemm4(m: number, p: number, A: Float64Array, B: Float64Array, C: Float64Array): void {
  C.fill(0, 0, 4 * p);
  const p2 = 2 * p;
  const p3 = 3 * p;
  const r1 = m;
  const r2 = 2 * m;
  const r3 = 3 * m;
  let k = 0;
  for (; k + 3 < m; k += 4) {
    const a00 = A[k], a01 = A[k + 1], a02 = A[k + 2], a03 = A[k + 3];
    const a10 = A[r1 + k], a11 = A[r1 + k + 1], a12 = A[r1 + k + 2], a13 = A[r1 + k + 3];
    const a20 = A[r2 + k], a21 = A[r2 + k + 1], a22 = A[r2 + k + 2], a23 = A[r2 + k + 3];
    const a30 = A[r3 + k], a31 = A[r3 + k + 1], a32 = A[r3 + k + 2], a33 = A[r3 + k + 3];
    const k0 = k * p;
    const k1 = k0 + p;
    const k2 = k1 + p;
    const k3 = k2 + p;
    for (let j = 0; j < p; j++) {
      const b0 = B[k0 + j];
      const b1 = B[k1 + j];
      const b2 = B[k2 + j];
      const b3 = B[k3 + j];
      C[j] += a00 * b0 + a01 * b1 + a02 * b2 + a03 * b3;
      C[p + j] += a10 * b0 + a11 * b1 + a12 * b2 + a13 * b3;
      C[p2 + j] += a20 * b0 + a21 * b1 + a22 * b2 + a23 * b3;
      C[p3 + j] += a30 * b0 + a31 * b1 + a32 * b2 + a33 * b3;
    }
  }
  for (; k < m; k++) {
    const a0 = A[k];
    const a1 = A[r1 + k];
    const a2 = A[r2 + k];
    const a3 = A[r3 + k];
    const kp = k * p;
    for (let j = 0; j < p; j++) {
      const b = B[kp + j];
      C[j] += a0 * b;
      C[p + j] += a1 * b;
      C[p2 + j] += a2 * b;
      C[p3 + j] += a3 * b;
    }
  }
}

/** One row: C[0..p) = A[0..m) @ B, four k at a time as gemm4. */
function gemm1(m: number, p: number, A: Float64Array, B: Float64Array, C: Float64Array): void {
  C.fill(0, 0, p);
  let k = 0;
  for (; k + 3 < m; k += 4) {
    const a0 = A[k];
    const a1 = A[k + 1];
    const a2 = A[k + 2];
    const a3 = A[k + 3];
    const k0 = k * p;
    const k1 = k0 + p;
    const k2 = k1 + p;
    const k3 = k2 + p;
    for (let j = 0; j < p; j++) C[j] += a0 * B[k0 + j] + a1 * B[k1 + j] + a2 * B[k2 + j] + a3 * B[k3 + j];
  }
  for (; k < m; k++) {
    const a = A[k];
    const kp = k * p;
    for (let j = 0; j < p; j++) C[j] += a * B[kp + j];
  }
}

function gemm1Int(m: number, p: number, A: Int32Array, B: Int32Array, C: Int32Array): void {
  C.fill(0, 0, p);
  for (let k = 0; k < m; k++) {
    const a = A[k];
    const kp = k * p;
    for (let j = 0; j < p; j++) C[j] = (C[j] + Math.imul(a, B[kp + j])) | 0;
  }
}

/**
 * Note [Matmul on the WebAssembly GEMM]
 * Floating matmul runs on the GEMM of the kernels' module (Note [GEMM as the BLAS libraries
 * build it]), in place on the operands' storages: their strides go to the packing routines,
 * so transposed operands and batch slices are read where they lie. float32 and float64 run
 * in their own type (float32 accumulates in float32, as PyTorch's sgemm); float16 and
 * bfloat16 are widened to float32 copies first and rounded once on the way out, as PyTorch
 * computes them. The result is written straight into `out` when `out` is row-major in the
 * kernels' memory (the usual fresh result), else into a temporary and copied.
 */
function mmWasm(w: WasmKernels, n: number, m: number, p: number, out: Mat, a: Mat, b: Mat, accumulate = false): void {
  const ops = new Operands();
  try {
    const d = out.t.dtype;
    const native = d === 'float32' || d === 'float64';
    const size = d === 'float64' ? 8 : 4;
    const pa = native ? addressIn(ops, a) : widened(ops, a, n, m);
    const pb = native ? addressIn(ops, b) : widened(ops, b, m, p);
    const [rsa, csa] = native ? [a.s0, a.s1] : [m, 1];
    const [rsb, csb] = native ? [b.s0, b.s1] : [p, 1];
    const direct = native && out.s1 === 1 && out.s0 >= p;
    if (accumulate && !direct) throw new Error('mmWasm: accumulating needs a row-major float32/float64 out');
    const c = direct ? ops.output(out.t) + (out.off - out.t.storageOffset) * size : ops.temp(n * p * size);
    const ldc = direct ? out.s0 : p;
    if (m === 0) {
      if (!accumulate) new Uint8Array(kernelHeap.buffer()).fill(0, c, c + ((n - 1) * ldc + p) * size);
    } else if (!smallGemmOnPool(w, n, m, p, size, pa, rsa, csa, pb, rsb, csb, c, ldc, accumulate)) {
      runTasks(d === 'float64' ? 'dgemm' : 'sgemm', gemmTasks(n, m, p, size, pa, rsa, csa, pb, rsb, csb, c, ldc, accumulate), w.gemmScratchBytes());
    }
    if (!direct) {
      const C = d === 'float64' ? new Float64Array(kernelHeap.buffer(), c, n * p) : new Float32Array(kernelHeap.buffer(), c, n * p);
      const row = new Float64Array(p);
      const write = writerOf(out.t);
      for (let i = 0; i < n; i++) {
        row.set(C.subarray(i * p, (i + 1) * p));
        write(p, row, out.off + i * out.s0, out.s1);
      }
    }
  } finally {
    ops.finish();
  }
}

/**
 * Multiply-adds from which a GEMM splits the usual way (each task packing what it needs);
 * below, one whose B packs into one block splits over rows of A with B packed once (Note
 * [Small GEMMs on the pool]), from SMALL_GEMM_GRAIN (about 30 us of work: a smaller product
 * is done before a sleeping worker wakes) up; anything else stays on the calling thread.
 */
const GEMM_GRAIN = 1 << 22;
const SMALL_GEMM_GRAIN = 1 << 20;
/**
 * Small GEMMs a process runs on one thread before it splits them. The split's exports start
 * in V8's baseline WebAssembly code (Liftoff) on every thread and the pool's JS starts
 * interpreted: measured in a fresh process, the first ~20 split 128^3 products took 200 to
 * 480 us against 90 to 270 us on one thread, then 53 against 85 us. So the first products
 * stay on the tiered-up one-thread GEMM; a loop that repeats them then gains the split.
 */
const SMALL_GEMM_WARM = 32;
let smallGemmCalls = 0;
/** Rows of A in a small GEMM's tasks are split on multiples of the micro-tile's 3 rows. */
const SMALL_GEMM_ROWS = 3;

/**
 * Note [Small GEMMs on the pool]: B packed once by the calling thread, then rows of A in
 * a few tasks per thread; false when the product is not such a GEMM.
 */
function smallGemmOnPool(w: WasmKernels, n: number, m: number, p: number, size: number, a: number, rsa: number, csa: number, b: number, rsb: number, csb: number, c: number, ldc: number, accumulate: boolean): boolean {
  const work = n * m * p;
  const threads = getNumThreads();
  const units = Math.floor(n / SMALL_GEMM_ROWS);
  if (threads <= 1 || work < SMALL_GEMM_GRAIN || work >= GEMM_GRAIN || units < 2 || !w.gemmFitsOneBlock(m, p, size)) return false;
  if (smallGemmCalls < SMALL_GEMM_WARM) {
    smallGemmCalls++;
    return false;
  }
  const bytes = w.gemmPackedBBytes(m, p, size);
  const packed = kernelHeap.alloc(bytes, true);
  if (packed < 0) return false;
  try {
    if (size === 8) w.dgemmPackB(m, p, b, rsb, csb, packed);
    else w.sgemmPackB(m, p, b, rsb, csb, packed);
    // A few tasks per thread, so that a worker that wakes late still takes a share; the
    // last task also takes the n mod 3 rows left.
    const parts = Math.min(units, 2 * threads);
    const tasks: number[][] = [];
    for (let t = 0; t < parts; t++) {
      const lo = Math.floor((t * units) / parts) * SMALL_GEMM_ROWS;
      const hi = t === parts - 1 ? n : Math.floor(((t + 1) * units) / parts) * SMALL_GEMM_ROWS;
      tasks.push([hi - lo, p, m, a + lo * rsa * size, rsa, csa, packed, c + lo * ldc * size, ldc, accumulate ? 1 : 0]);
    }
    runTasks(size === 8 ? 'dgemmPackedB' : 'sgemmPackedB', tasks, w.gemmScratchBytes());
  } finally {
    kernelHeap.release(packed, bytes);
  }
  return true;
}

/**
 * The GEMM's tasks: one per thread, splitting the longer of C's two sides on micro-tile
 * boundaries (12 float32 or 6 float64 columns, 3 rows), so every element of C is computed
 * by the same kernel steps, in the same order, whatever the number of threads.
 */
function gemmTasks(n: number, m: number, p: number, size: number, a: number, rsa: number, csa: number, b: number, rsb: number, csb: number, c: number, ldc: number, accumulate: boolean): number[][] {
  const acc = accumulate ? 1 : 0;
  const threads = n * m * p < GEMM_GRAIN ? 1 : getNumThreads();
  const byCols = p >= n;
  const len = byCols ? p : n;
  const unit = byCols ? 48 / size : 3;
  const units = Math.ceil(len / unit);
  const parts = Math.min(threads, units);
  const tasks: number[][] = [];
  for (let t = 0; t < parts; t++) {
    const lo = Math.floor((t * units) / parts) * unit;
    const hi = Math.min(len, Math.floor(((t + 1) * units) / parts) * unit);
    if (hi <= lo) continue;
    if (byCols) tasks.push([n, hi - lo, m, a, rsa, csa, b + lo * csb * size, rsb, csb, c + lo * size, ldc, acc]);
    else tasks.push([hi - lo, p, m, a + lo * rsa * size, rsa, csa, b, rsb, csb, c + lo * ldc * size, ldc, acc]);
  }
  return tasks;
}

/** The address of x's element (0, 0) (x.off is past its tensor's own offset inside a batch). */
function addressIn(ops: Operands, x: Mat): number {
  return ops.input(x.t) + (x.off - x.t.storageOffset) * x.t.itemSize;
}

/** rows x cols of x as a row-major float32 temporary (16-bit floats widened). */
function widened(ops: Operands, x: Mat, rows: number, cols: number): number {
  const t = ops.temp(rows * cols * 4);
  const dst = new Float32Array(kernelHeap.buffer(), t, rows * cols);
  const row = new Float64Array(cols);
  const read = readerOf(x.t);
  for (let r = 0; r < rows; r++) {
    read(cols, row, x.off + r * x.s0, x.s1);
    dst.set(row, r * cols);
  }
  return t;
}

function mmFloat(n: number, m: number, p: number, out: Mat, a: Mat, b: Mat): void {
  if (wasm !== null) return mmWasm(wasm, n, m, p, out, a, b);
  const B = f64Buffer(m * p);
  readRows(readerOf(b.t), b, 0, m, p, B);
  const A = new Float64Array(ROWS * m);
  const C = new Float64Array(ROWS * p);
  const readA = readerOf(a.t);
  const write = writerOf(out.t);
  let i = 0;
  for (; i + ROWS <= n; i += ROWS) {
    readRows(readA, a, i, ROWS, m, A);
    gemm4(m, p, A, B, C);
    for (let r = 0; r < ROWS; r++) write(p, C.subarray(r * p, (r + 1) * p), out.off + (i + r) * out.s0, out.s1);
  }
  for (; i < n; i++) {
    readRows(readA, a, i, 1, m, A);
    gemm1(m, p, A, B, C);
    write(p, C, out.off + i * out.s0, out.s1);
  }
}

function mmInt(n: number, m: number, p: number, out: Mat, a: Mat, b: Mat): void {
  const decoded = new Float64Array(Math.max(m, p));
  const readB = readerOf(b.t);
  const B = i32Buffer(m * p);
  for (let k = 0; k < m; k++) {
    readB(p, decoded, b.off + k * b.s0, b.s1);
    B.set(decoded.subarray(0, p), k * p);
  }
  const readA = readerOf(a.t);
  const write = writerOf(out.t);
  const A = new Int32Array(m);
  const C = new Int32Array(p);
  const row = new Float64Array(p);
  for (let i = 0; i < n; i++) {
    readA(m, decoded, a.off + i * a.s0, a.s1);
    A.set(decoded.subarray(0, m));
    gemm1Int(m, p, A, B, C);
    row.set(C);
    write(p, row, out.off + i * out.s0, out.s1);
  }
}

function mmInt64(n: number, m: number, p: number, out: Mat, a: Mat, b: Mat): void {
  const O = bigints(out.t);
  const A = bigints(a.t);
  const B = bigints(b.t);
  const C = new BigInt64Array(p);
  for (let i = 0; i < n; i++) {
    C.fill(0n);
    for (let k = 0; k < m; k++) {
      const aik = A[a.off + i * a.s0 + k * a.s1];
      if (aik === 0n) continue;
      const bk = b.off + k * b.s0;
      for (let j = 0; j < p; j++) C[j] += aik * B[bk + j * b.s1];
    }
    for (let j = 0; j < p; j++) O[out.off + i * out.s0 + j * out.s1] = C[j];
  }
}

function mm2d(n: number, m: number, p: number, out: Mat, a: Mat, b: Mat): void {
  if (n === 0 || p === 0) return;
  const d = out.t.dtype;
  if (isFloatingType(d)) mmFloat(n, m, p, out, a, b);
  else if (d === 'int64') mmInt64(n, m, p, out, a, b);
  else mmInt(n, m, p, out, a, b);
}

/** out [n, p] = self [n, m] @ other [m, p]; all three of one dtype (bool excluded by core). */
export function mm(out: TensorImpl, a: TensorImpl, b: TensorImpl): void {
  mm2d(a.sizes[0], a.sizes[1], b.sizes[1], matOf(out, 0), matOf(a, 0), matOf(b, 0));
}

/** out [B, n, p] = self [B, n, m] @ other [B, m, p], batch by batch. */
export function bmm(out: TensorImpl, a: TensorImpl, b: TensorImpl): void {
  const [batch, n, m] = a.sizes;
  const p = b.sizes[2];
  for (let z = 0; z < batch; z++) mm2d(n, m, p, matOf(out, z), matOf(a, z), matOf(b, z));
}

/**
 * out [n, p] = self + a @ b for float32 and float64 (core Note [Fused addmm]): self is copied
 * into out and the GEMM accumulates onto it. Without WebAssembly SIMD, or into an out the
 * GEMM cannot write in place, the product goes through a temporary and is added row by row.
 */
export function addmm(out: TensorImpl, self: TensorImpl, a: TensorImpl, b: TensorImpl): void {
  const [n, m] = a.sizes;
  const p = b.sizes[1];
  copy(out, self);
  if (n === 0 || p === 0) return;
  const o = matOf(out, 0);
  if (wasm !== null && o.s1 === 1 && o.s0 >= p && addressOf(out) >= 0) {
    mmWasm(wasm, n, m, p, o, matOf(a, 0), matOf(b, 0), true);
    return;
  }
  const prod = TensorImpl.empty('addmm', [n, p], out.dtype, out.device);
  try {
    mm(prod, a, b);
    const read = readerOf(prod);
    const readOut = readerOf(out);
    const write = writerOf(out);
    const x = new Float64Array(p);
    const y = new Float64Array(p);
    for (let i = 0; i < n; i++) {
      read(p, x, i * p, 1);
      readOut(p, y, o.off + i * o.s0, o.s1);
      for (let j = 0; j < p; j++) y[j] += x[j];
      write(p, y, o.off + i * o.s0, o.s1);
    }
  } finally {
    prod.release();
  }
}

/** A 2-D tensor (or the batch slice z of a 3-D one) as a Mat. */
function matOf(t: TensorImpl, z: number): Mat {
  const d = t.sizes.length - 2;
  return { t, off: t.storageOffset + (d > 0 ? z * t.strides[0] : 0), s0: t.strides[d], s1: t.strides[d + 1] };
}
