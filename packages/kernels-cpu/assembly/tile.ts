// Note [Pointwise planes]
// The pointwise kernels take one 2-d plane of the TensorIterator (`forEachPlane`): n1 rows
// of n0 elements, element (i, j) of an operand at p + (i * s0 + j * s1) * size, strides in
// elements. Rows whose operands all step by 1 (or 0: a broadcast operand) along dim 0 run
// straight on the storages. Any other plane (a transposed operand: `a.T + b`) runs tile by
// tile, TR rows x TC columns: the strided operands are first packed into a row-major tile in
// scratch (4 x 4 blocks transposed in registers where the operand steps by 1 along dim 1), so
// each cache line of the strided operand is read once per tile, not once per element; a
// strided output is computed into a tile and scattered back the same way. Each element is
// computed by the same instructions whatever the split, so results do not depend on tiles
// or threads.
export const TR = 16;
export const TC = 128;
/** Bytes of scratch one plane call needs: three float64 tiles, 16-byte aligned. */
export const TILE_BYTES = TR * TC * 8;

export function tileScratchBytes(): i32 {
  return 3 * TILE_BYTES + 32;
}

/** 4 x 4 transpose: rows in v0..v3 become columns, stored at dst with row stride `ld` bytes. */
// @ts-ignore: decorator
@inline function transposeStore(v0: v128, v1: v128, v2: v128, v3: v128, dst: usize, ld: usize): void {
  const t0 = v128.shuffle<i32>(v0, v1, 0, 4, 1, 5);
  const t1 = v128.shuffle<i32>(v2, v3, 0, 4, 1, 5);
  const t2 = v128.shuffle<i32>(v0, v1, 2, 6, 3, 7);
  const t3 = v128.shuffle<i32>(v2, v3, 2, 6, 3, 7);
  v128.store(dst, v128.shuffle<i64>(t0, t1, 0, 2));
  v128.store(dst + ld, v128.shuffle<i64>(t0, t1, 1, 3));
  v128.store(dst + 2 * ld, v128.shuffle<i64>(t2, t3, 0, 2));
  v128.store(dst + 3 * ld, v128.shuffle<i64>(t2, t3, 1, 3));
}

/** dst[r * ldd + c] = src element (c, r) (at (c * s0 + r * s1) * size), for a rows x cols tile. */
export function packTile<T>(src: usize, s0: i32, s1: i32, rows: i32, cols: i32, dst: usize, ldd: i32 = TC): void {
  const size = sizeof<T>();
  let r = 0;
  if (size == 4 && s1 == 1) {
    // Column quads outer, rows inner: the four source lines in flight are used up before the
    // next four are touched (a power-of-two s0 maps them all to one L1 set).
    const ld = <usize>ldd * 4;
    const st = <usize>s0 * 4;
    const rows4 = rows & ~3;
    let c = 0;
    for (; c + 4 <= cols; c += 4) {
      for (r = 0; r < rows4; r += 4) {
        const p = src + (<usize>(c * s0 + r)) * 4;
        transposeStore(v128.load(p), v128.load(p + st), v128.load(p + 2 * st), v128.load(p + 3 * st), dst + (<usize>(r * ldd + c)) * 4, ld);
      }
    }
    for (; c < cols; c++) {
      for (r = 0; r < rows4; r++) store<T>(dst + (<usize>(r * ldd + c)) * size, load<T>(src + (<usize>(c * s0 + r)) * size));
    }
    r = rows4;
  }
  for (; r < rows; r++) {
    let p = src + (<usize>(r * s1)) * size;
    const d = dst + (<usize>(r * ldd)) * size;
    const st = <usize>s0 * size;
    for (let c = 0; c < cols; c++) {
      store<T>(d + <usize>c * size, load<T>(p));
      p += st;
    }
  }
}

/** The inverse of packTile: dst element (c, r) = src[r * lds + c]. */
export function unpackTile<T>(src: usize, dst: usize, s0: i32, s1: i32, rows: i32, cols: i32, lds: i32 = TC): void {
  const size = sizeof<T>();
  let r = 0;
  if (size == 4 && s1 == 1) {
    const ld = <usize>s0 * 4;
    const st = <usize>lds * 4;
    const rows4 = rows & ~3;
    let c = 0;
    for (; c + 4 <= cols; c += 4) {
      for (r = 0; r < rows4; r += 4) {
        const p = src + (<usize>(r * lds + c)) * 4;
        transposeStore(v128.load(p), v128.load(p + st), v128.load(p + 2 * st), v128.load(p + 3 * st), dst + (<usize>(c * s0 + r)) * 4, ld);
      }
    }
    for (; c < cols; c++) {
      for (r = 0; r < rows4; r++) store<T>(dst + (<usize>(c * s0 + r)) * size, load<T>(src + (<usize>(r * lds + c)) * size));
    }
    r = rows4;
  }
  for (; r < rows; r++) {
    let p = dst + (<usize>(r * s1)) * size;
    const s = src + (<usize>(r * lds)) * size;
    const st = <usize>s0 * size;
    for (let c = 0; c < cols; c++) {
      store<T>(p, load<T>(s + <usize>c * size));
      p += st;
    }
  }
}
