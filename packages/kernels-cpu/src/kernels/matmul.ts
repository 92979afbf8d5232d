import { isFloatingType, type TensorImpl } from '@torch-ts/core';
import { bigints, floatArray, type FloatArray } from '../loops/arrays';
import { readerOf, writerOf, type Reader } from '../loops/convert';
import { gemmKernel, type GemmKernel } from '../loops/gemm-wasm';

/**
 * Note [CPU matmul]
 * out[n, p] = a[n, m] @ b[m, p], for any strides (transposed operands included). Floating
 * dtypes run on the WebAssembly SIMD kernel (Note [Blocked matmul on the WebAssembly
 * kernel]); where WebAssembly SIMD is missing, and for integers, plain JS loops:
 *  - b is packed once into a contiguous row-major float64 copy (decoding 16-bit floats and
 *    integers), so the inner loop always streams unit-stride doubles whatever b's layout;
 *  - rows of a are decoded four at a time, and an i-k-j loop accumulates four output rows
 *    in float64, reading each packed element of b once per four rows and updating each
 *    accumulator once per four k (so sums are grouped by fours: still float64 throughout);
 *  - each output row is rounded once to out's dtype, so float32 (and 16-bit) products are
 *    accumulated in double: more accurate than PyTorch's float32 GEMM, within its rounding.
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
 * Note [Blocked matmul on the WebAssembly kernel]
 * The float path when the WebAssembly kernel exists (loops/gemm-wasm.ts): b is packed once
 * into 4-column micro-panels of float64 (k-major, columns padded with zeros to a multiple of
 * 4), a into 4-row micro-panels (rows padded likewise), both through the dtype's reader, so
 * any layout and any float dtype lands in the same format. C accumulates in float64 in the
 * module's memory and each row is written once through out's writer (one rounding, as
 * before). Blocking: KC steps of k at a time (a 4 x KC A panel and a KC x 4 B panel, 8 KiB
 * each, stay in L1) and MC rows of a per sweep over b's panels (MC x KC of A stays in L2).
 * Every C element is the sequential float64 sum over k, split into KC-long runs that add in
 * order: the same value as a plain i-j-k loop, rounded once. Rows of a are packed in chunks
 * when a, b and c together would pass WASM_BUDGET bytes; b larger than that keeps the JS loops.
 */
const KC = 256;
const MC_PANELS = 16;
const WASM_BUDGET = 256 * 1024 * 1024;

function isF32OrF64(t: TensorImpl): boolean {
  return t.dtype === 'float32' || t.dtype === 'float64';
}

/**
 * Packs `lanes` x `len` elements of X (element (l, k) at `off + l * ls + k * ks`) into
 * 4-lane micro-panels of f from `dst`: element (l, k) at dst + ((l >> 2) * len + k) * 4 +
 * (l & 3); missing lanes of the last panel are zeros. For b the lanes
 * are its columns and k its rows; for a the lanes are its rows. Panel by panel, so the
 * writes are sequential and the four lanes' source lines are reused while in cache.
 */
function packPanels(f: Float64Array, dst: number, X: FloatArray, off: number, ls: number, ks: number, lanes: number, len: number): void {
  const full = lanes >> 2;
  for (let q = 0; q < full; q++) {
    let d = dst + q * len * 4;
    let x = off + 4 * q * ls;
    for (let k = 0; k < len; k++, d += 4, x += ks) {
      f[d] = X[x];
      f[d + 1] = X[x + ls];
      f[d + 2] = X[x + 2 * ls];
      f[d + 3] = X[x + 3 * ls];
    }
  }
  if (4 * full === lanes) return;
  const tail = dst + full * len * 4;
  f.fill(0, tail, tail + 4 * len);
  for (let l = 4 * full; l < lanes; l++) {
    let d = tail + (l & 3);
    let x = off + l * ls;
    for (let k = 0; k < len; k++, d += 4, x += ks) f[d] = X[x];
  }
}

function mmWasm(g: GemmKernel, n: number, m: number, p: number, out: Mat, a: Mat, b: Mat): boolean {
  const pP = (p + 3) >> 2;
  const pPad = 4 * pP;
  const bDoubles = pPad * m;
  // Rows of a (a multiple of 4) per chunk: its packed panels plus its rows of C.
  const perRow = m + pPad;
  let chunk = Math.floor((WASM_BUDGET / 8 - bDoubles) / perRow) & ~3;
  if (chunk < 4) return false;
  const nPad = (n + 3) & ~3;
  if (chunk > nPad) chunk = nPad;
  const aBase = bDoubles;
  const cBase = aBase + chunk * m;
  g.reserve(8 * (cBase + chunk * pPad));
  const f = g.f64;
  const kernel = g.kernel;
  const row = new Float64Array(Math.max(m, p));
  // Pack b: element (k, j) at ((j >> 2) * m + k) * 4 + (j & 3).
  if (isF32OrF64(b.t)) packPanels(f, 0, floatArray(b.t), b.off, b.s1, b.s0, p, m);
  else {
    f.fill(0, 0, bDoubles);
    const readB = readerOf(b.t);
    for (let k = 0; k < m; k++) {
      readB(p, row, b.off + k * b.s0, b.s1);
      for (let j = 0; j < p; j++) f[((j >> 2) * m + k) * 4 + (j & 3)] = row[j];
    }
  }
  const direct = isF32OrF64(a.t);
  const A = direct ? floatArray(a.t) : null;
  const readA = readerOf(a.t);
  const write = writerOf(out.t);
  const ldc = 8 * pPad;
  for (let i0 = 0; i0 < n; i0 += chunk) {
    const rows = Math.min(chunk, n - i0);
    const nP = (rows + 3) >> 2;
    // Pack rows i0.. of a: element (i, k) at (((i - i0) >> 2) * m + k) * 4 + ((i - i0) & 3).
    if (A !== null) packPanels(f, aBase, A, a.off + i0 * a.s0, a.s0, a.s1, rows, m);
    else {
      f.fill(0, aBase, aBase + 4 * nP * m);
      for (let r = 0; r < rows; r++) {
        readA(m, row, a.off + (i0 + r) * a.s0, a.s1);
        const base = aBase + (r >> 2) * m * 4 + (r & 3);
        for (let k = 0; k < m; k++) f[base + 4 * k] = row[k];
      }
    }
    f.fill(0, cBase, cBase + 4 * nP * pPad);
    for (let k0 = 0; k0 < m; k0 += KC) {
      const kc = Math.min(KC, m - k0);
      for (let ip0 = 0; ip0 < nP; ip0 += MC_PANELS) {
        const ipEnd = Math.min(ip0 + MC_PANELS, nP);
        for (let jp = 0; jp < pP; jp++) {
          const bPtr = 8 * (jp * m + k0) * 4;
          const cCol = 8 * cBase + 32 * jp;
          for (let ip = ip0; ip < ipEnd; ip++) kernel(kc, 8 * (aBase + (ip * m + k0) * 4), bPtr, cCol + 4 * ip * ldc, ldc);
        }
      }
    }
    for (let r = 0; r < rows; r++) {
      const c0 = cBase + r * pPad;
      write(p, f.subarray(c0, c0 + p), out.off + (i0 + r) * out.s0, out.s1);
    }
  }
  return true;
}

function mmFloat(n: number, m: number, p: number, out: Mat, a: Mat, b: Mat): void {
  const g = gemmKernel();
  if (g !== null && mmWasm(g, n, m, p, out, a, b)) return;
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
  const [n, m] = a.sizes;
  const p = b.sizes[1];
  mm2d(
    n,
    m,
    p,
    { t: out, off: out.storageOffset, s0: out.strides[0], s1: out.strides[1] },
    { t: a, off: a.storageOffset, s0: a.strides[0], s1: a.strides[1] },
    { t: b, off: b.storageOffset, s0: b.strides[0], s1: b.strides[1] },
  );
}

/** out [B, n, p] = self [B, n, m] @ other [B, m, p], batch by batch. */
export function bmm(out: TensorImpl, a: TensorImpl, b: TensorImpl): void {
  const [batch, n, m] = a.sizes;
  const p = b.sizes[2];
  for (let z = 0; z < batch; z++) {
    mm2d(
      n,
      m,
      p,
      { t: out, off: out.storageOffset + z * out.strides[0], s0: out.strides[1], s1: out.strides[2] },
      { t: a, off: a.storageOffset + z * a.strides[0], s0: a.strides[1], s1: a.strides[2] },
      { t: b, off: b.storageOffset + z * b.strides[0], s0: b.strides[1], s1: b.strides[2] },
    );
  }
}
