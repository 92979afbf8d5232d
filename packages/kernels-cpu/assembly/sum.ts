// Note [WebAssembly float32 sum]
// float32 is summed in float64, in an order fixed by the data's length alone, so a sum is
// the same bits whatever the thread count or the task split (Note [CPU thread pool]):
//  - a row is cut into blocks of SUM_BLOCK elements from its start;
//  - within a block, each step of 8 elements widens them to float64 and adds them to 8
//    partial sums (elements i mod 8, in four f64x2 accumulators); the accumulators are
//    added pairwise ((a0 + a1) + (a2 + a3)), then their two lanes; the block's last n mod 8
//    elements are added to that, one at a time;
//  - block sums are added in order, starting from 0.
// Note [Four float64 partial sums of float32] argues why such an order keeps float32's
// rounding of the sequential sum. A parallel sum computes block sums on any threads into
// an array (`sumF32Blocks`) and the caller adds them in order: the same bits as `sumF32`.
// Kernels read the tensor in place (Note [CPU storage in WebAssembly memory]).

/** Elements per block of Note [WebAssembly float32 sum]. */
const SUM_BLOCK = 16384;

/** SUM_BLOCK, for the JS side. */
export function sumBlockElements(): i32 {
  return SUM_BLOCK;
}

function blockSum(p: usize, n: i32): f64 {
  let a0 = f64x2.splat(0), a1 = f64x2.splat(0), a2 = f64x2.splat(0), a3 = f64x2.splat(0);
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const v0 = v128.load(p), v1 = v128.load(p, 16);
    a0 = f64x2.add(a0, f64x2.promote_low_f32x4(v0));
    a1 = f64x2.add(a1, f64x2.promote_low_f32x4(v128.shuffle<u32>(v0, v0, 2, 3, 0, 1)));
    a2 = f64x2.add(a2, f64x2.promote_low_f32x4(v1));
    a3 = f64x2.add(a3, f64x2.promote_low_f32x4(v128.shuffle<u32>(v1, v1, 2, 3, 0, 1)));
    p += 32;
  }
  const t = f64x2.add(f64x2.add(a0, a1), f64x2.add(a2, a3));
  let s = f64x2.extract_lane(t, 0) + f64x2.extract_lane(t, 1);
  for (; i < n; i++) {
    s += <f64>load<f32>(p);
    p += 4;
  }
  return s;
}

/** The float64 sum of the n float32 at byte address p, in the order of Note [WebAssembly float32 sum]. */
export function sumF32(p: usize, n: i32): f64 {
  let s: f64 = 0;
  for (let i = 0; i < n; i += SUM_BLOCK) s += blockSum(p + (<usize>i << 2), min(SUM_BLOCK, n - i));
  return s;
}

/**
 * Block sums of a row: out[b] (float64) = the sum of block b of the n float32 at p, blocks
 * counted from p (so p must be a block boundary of the whole row). A pool task.
 */
export function sumF32Blocks(p: usize, n: i32, out: usize, scratch: usize): void {
  for (let i = 0; i < n; i += SUM_BLOCK) {
    store<f64>(out, blockSum(p + (<usize>i << 2), min(SUM_BLOCK, n - i)));
    out += 8;
  }
}

/** out[r] (float64) = sumF32 of row r: n float32 from p + 4 * r * rowStride. A pool task. */
export function sumF32Rows(p: usize, rows: i32, n: i32, rowStride: i32, out: usize, scratch: usize): void {
  const step = <usize>rowStride << 2;
  for (let r = 0; r < rows; r++) {
    store<f64>(out, sumF32(p, n));
    p += step;
    out += 8;
  }
}
