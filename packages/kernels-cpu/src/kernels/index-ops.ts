import { IndexError, type IndexedAccess, type IndexErrorStyle, type ScatterMode, type TensorImpl } from '@torch-ts/core';
import { raw1, raw2, raw4 } from '../loops/arrays';
import { readerOf, writerOf } from '../loops/convert';

/**
 * The indexing kernels (Note [Indexed access] in core): every op of the family comes here as
 * a gather or a scatter over an iteration shape. The work is split in two passes so that
 * the value loops stay monomorphic (Note [Monomorphic loops]): first the storage offset of
 * every position is computed (dtype-free integer arithmetic, where the bounds check
 * happens, before anything is written), then one loop per element width (gather, 'set') or
 * per dtype family (the arithmetic modes) moves or combines the elements.
 */

/** The storage offsets of every element of a strided view, row-major. */
function stridedOffsets(sizes: readonly number[], strides: readonly number[], offset: number): Int32Array {
  const n = sizes.reduce((a, b) => a * b, 1);
  const out = new Int32Array(n);
  if (n === 0) return out;
  const nd = sizes.length;
  if (nd === 0) {
    out[0] = offset;
    return out;
  }
  const last = nd - 1;
  const inner = sizes[last];
  const innerStride = strides[last];
  const idx = new Array<number>(nd).fill(0);
  let base = offset;
  for (let i = 0; i < n; i += inner) {
    for (let j = 0, o = base; j < inner; j++, o += innerStride) out[i + j] = o;
    // advance the outer counter
    for (let d = last - 1; d >= 0; d--) {
      idx[d]++;
      base += strides[d];
      if (idx[d] < sizes[d]) break;
      base -= strides[d] * sizes[d];
      idx[d] = 0;
    }
  }
  return out;
}

function outOfRange(op: string, style: IndexErrorStyle, value: number, dim: number, size: number): IndexError {
  if (style === 'take') {
    return new IndexError(`${op}: out of range: tried to access index ${value} on a tensor of ${size} elements.`);
  }
  return new IndexError(`${op}: index ${value} is out of bounds for dimension ${dim} with size ${size}`);
}

/** The offset of every position of the access in its data's storage; throws on a bad index. */
function accessOffsets(op: string, a: IndexedAccess, style: IndexErrorStyle): Int32Array {
  const d = a.data;
  const offsets = stridedOffsets(d.sizes, d.strides, d.storageOffset);
  const wrap = style !== 'nowrap';
  for (let k = 0; k < a.indices.length; k++) {
    const ix = a.indices[k];
    const io = stridedOffsets(ix.sizes, ix.strides, ix.storageOffset);
    const words = raw4(ix); // int64 as two words, low first
    const size = a.sizes[k];
    const stride = a.strides[k];
    for (let i = 0; i < io.length; i++) {
      const lo = words[2 * io[i]];
      const hi = words[2 * io[i] + 1];
      // Values in int32 range have hi equal to lo's sign; anything else is out of range.
      let v = lo;
      if (hi !== lo >> 31 || v < (wrap ? -size : 0) || v >= size) {
        const exact = hi * 4294967296 + (lo >>> 0);
        throw outOfRange(op, style, exact, a.dims[k], size);
      }
      if (v < 0) v += size;
      offsets[i] += v * stride;
    }
  }
  return offsets;
}

export function indexGather(op: string, out: TensorImpl, access: IndexedAccess, style: IndexErrorStyle): void {
  const src = accessOffsets(op, access, style);
  if (src.length === 0) return;
  const dst = stridedOffsets(out.sizes, out.strides, out.storageOffset);
  move(out.itemSize, out, dst, access.data, src);
}

/** dst[dOff[i]] = src[sOff[i]] on raw element bits. */
function move(width: number, dstT: TensorImpl, dOff: Int32Array, srcT: TensorImpl, sOff: Int32Array): void {
  const n = dOff.length;
  if (width === 1) {
    const d = raw1(dstT);
    const s = raw1(srcT);
    for (let i = 0; i < n; i++) d[dOff[i]] = s[sOff[i]];
  } else if (width === 2) {
    const d = raw2(dstT);
    const s = raw2(srcT);
    for (let i = 0; i < n; i++) d[dOff[i]] = s[sOff[i]];
  } else if (width === 4) {
    const d = raw4(dstT);
    const s = raw4(srcT);
    for (let i = 0; i < n; i++) d[dOff[i]] = s[sOff[i]];
  } else {
    const d = raw4(dstT);
    const s = raw4(srcT);
    for (let i = 0; i < n; i++) {
      const a = 2 * dOff[i];
      const b = 2 * sOff[i];
      d[a] = s[b];
      d[a + 1] = s[b + 1];
    }
  }
}

export function indexScatter(
  op: string,
  access: IndexedAccess,
  src: TensorImpl,
  mode: ScatterMode,
  alpha: number | bigint,
  style: IndexErrorStyle,
): void {
  const dOff = accessOffsets(op, access, style);
  if (dOff.length === 0) return;
  const sOff = stridedOffsets(src.sizes, src.strides, src.storageOffset);
  const data = access.data;
  if (mode === 'set') {
    move(data.itemSize, data, dOff, src, sOff);
    return;
  }
  if (data.dtype === 'int64') scatterInt64(data, dOff, src, sOff, mode, BigInt(alpha));
  else scatterNumbers(data, dOff, src, sOff, mode, Number(alpha));
}

/** Every dtype but int64 through float64 scratch: exact reads, the writer rounds / wraps each store. */
function scatterNumbers(data: TensorImpl, dOff: Int32Array, src: TensorImpl, sOff: Int32Array, mode: ScatterMode, alpha: number): void {
  const n = dOff.length;
  const sv = new Float64Array(n);
  const readS = readerOf(src);
  const cell = new Float64Array(1);
  for (let i = 0; i < n; i++) {
    readS(1, cell, sOff[i], 1);
    sv[i] = cell[0];
  }
  const read = readerOf(data);
  const write = writerOf(data);
  const isBool = data.dtype === 'bool';
  const isFloat = data.dtype === 'float32' || data.dtype === 'float64' || data.dtype === 'float16' || data.dtype === 'bfloat16';
  const f32 = data.dtype !== 'float64';
  for (let i = 0; i < n; i++) {
    const o = dOff[i];
    read(1, cell, o, 1);
    const a = cell[0];
    const b = sv[i];
    let r: number;
    switch (mode) {
      case 'add':
        r = isBool ? (a !== 0 || b !== 0 ? 1 : 0) : a + (alpha === 1 ? b : alpha * b);
        break;
      case 'mul':
        r = isBool ? (a !== 0 && b !== 0 ? 1 : 0) : a * b;
        break;
      case 'amax':
        r = Number.isNaN(a) || Number.isNaN(b) ? NaN : a > b ? a : b;
        break;
      default:
        r = Number.isNaN(a) || Number.isNaN(b) ? NaN : a < b ? a : b;
        break;
    }
    // float32 opmath: the op is computed in float32 (exact in double, then rounded once);
    // integer results wrap in the writer (integer products beyond 2^53 are not exact: int32
    // products are reduced through Math.imul below).
    if (!isFloat && !isBool && mode === 'mul') r = intMul(data.dtype, a, b);
    if (!isFloat && !isBool && mode === 'add' && alpha !== 1) r = a + intMul(data.dtype, alpha, b);
    cell[0] = isFloat && f32 ? Math.fround(r) : r;
    write(1, cell, o, 1);
  }
}

function intMul(dtype: string, a: number, b: number): number {
  if (dtype === 'int32') return Math.imul(a, b);
  return a * b; // int8/int16/uint8 products are exact in a double; the writer wraps them
}

function scatterInt64(data: TensorImpl, dOff: Int32Array, src: TensorImpl, sOff: Int32Array, mode: ScatterMode, alpha: bigint): void {
  const d = data.storage.typed(BigInt64Array);
  const s = src.storage.typed(BigInt64Array);
  const n = dOff.length;
  for (let i = 0; i < n; i++) {
    const o = dOff[i];
    const a = d[o];
    const b = s[sOff[i]];
    // the BigInt64Array store wraps modulo 2^64, as int64 arithmetic does
    if (mode === 'add') d[o] = a + (alpha === 1n ? b : alpha * b);
    else if (mode === 'mul') d[o] = a * b;
    else if (mode === 'amax') d[o] = a > b ? a : b;
    else d[o] = a < b ? a : b;
  }
}

/** Whether each element is nonzero, as 0/1 bytes in row-major order. */
function nonzeroFlags(self: TensorImpl): Uint8Array {
  const offs = stridedOffsets(self.sizes, self.strides, self.storageOffset);
  const flags = new Uint8Array(offs.length);
  if (self.dtype === 'int64') {
    const w = raw4(self);
    for (let i = 0; i < offs.length; i++) flags[i] = (w[2 * offs[i]] | w[2 * offs[i] + 1]) !== 0 ? 1 : 0;
    return flags;
  }
  if (self.dtype === 'float16' || self.dtype === 'bfloat16') {
    const h = raw2(self);
    for (let i = 0; i < offs.length; i++) flags[i] = (h[offs[i]] & 0x7fff) !== 0 ? 1 : 0;
    return flags;
  }
  const read = readerOf(self);
  const cell = new Float64Array(1);
  for (let i = 0; i < offs.length; i++) {
    read(1, cell, offs[i], 1);
    flags[i] = cell[0] !== 0 ? 1 : 0; // NaN !== 0: NaN counts, as in PyTorch
  }
  return flags;
}

export function nonzeroCount(self: TensorImpl): number {
  const f = nonzeroFlags(self);
  let c = 0;
  for (let i = 0; i < f.length; i++) c += f[i];
  return c;
}

export function nonzeroFill(out: TensorImpl, self: TensorImpl): void {
  const f = nonzeroFlags(self);
  const nd = self.sizes.length;
  const w = raw4(out);
  const idx = new Array<number>(nd).fill(0);
  let row = out.storageOffset;
  for (let i = 0; i < f.length; i++) {
    if (f[i]) {
      for (let d = 0; d < nd; d++) {
        w[2 * (row + d)] = idx[d];
        w[2 * (row + d) + 1] = 0;
      }
      row += nd;
    }
    for (let d = nd - 1; d >= 0; d--) {
      if (++idx[d] < self.sizes[d]) break;
      idx[d] = 0;
    }
  }
}
