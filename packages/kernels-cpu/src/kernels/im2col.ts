import type { BackendImpls, Conv2dGeometry, TensorImpl } from '@torch-ts/core';
import { floatArray, raw1, raw2, raw4, type FloatArray } from '../loops/arrays';
import { floatIn, floatOut, stridesIn } from './spatial-buffers';

/**
 * Note [CPU im2col]
 * im2col is pure data movement, so it moves elements in their own array type (float32,
 * float64, or the 16 bits of a half / bfloat16: three array kinds at most, Note [Monomorphic
 * loops]). For each column row (c, i, j) and each output row oh, the output columns whose
 * source lies inside the image form one range [lo, hi) computed once; the loop over it is a
 * strided copy (a unit-stride one for stride-1 convolutions), and only the ranges outside
 * are zero-filled. col2im is its adjoint: the same ranges, accumulated into a zeroed image
 * (float32 and float64 in place, 16-bit floats in float64 scratch rounded once).
 */
type Elems = Float32Array | Float64Array | Uint16Array;

function elems(t: TensorImpl): Elems {
  if (t.dtype === 'float32' || t.dtype === 'float64') return floatArray(t);
  return raw2(t);
}

/** The output columns [lo, hi) of row offset `k` (i * d - p) whose source index lies in [0, size). */
function validRange(k: number, stride: number, out: number, size: number): [number, number] {
  // ow * stride + k >= 0  and  ow * stride + k < size
  const lo = k >= 0 ? 0 : Math.min(out, Math.ceil(-k / stride));
  const hi = Math.max(lo, Math.min(out, Math.floor((size - 1 - k) / stride) + 1));
  return [lo, hi];
}

function im2colLoop(dst: Elems, dOff: number, sr: number, sp: number, src: Elems, sOff: number, sc: number, sh: number, sw: number, g: Conv2dGeometry): void {
  const { channels, height, width, kernelH, kernelW, strideH, strideW, padH, padW, dilationH, dilationW, outH, outW } = g;
  for (let c = 0; c < channels; c++) {
    for (let i = 0; i < kernelH; i++) {
      const kh = i * dilationH - padH;
      const [ohLo, ohHi] = validRange(kh, strideH, outH, height);
      for (let j = 0; j < kernelW; j++) {
        const kw = j * dilationW - padW;
        const [owLo, owHi] = validRange(kw, strideW, outW, width);
        const row = dOff + ((c * kernelH + i) * kernelW + j) * sr;
        const cbase = sOff + c * sc;
        for (let oh = 0; oh < outH; oh++) {
          let d = row + oh * outW * sp;
          if (oh < ohLo || oh >= ohHi) {
            for (let ow = 0; ow < outW; ow++, d += sp) dst[d] = 0;
            continue;
          }
          let ow = 0;
          for (; ow < owLo; ow++, d += sp) dst[d] = 0;
          let s = cbase + (oh * strideH + kh) * sh + (owLo * strideW + kw) * sw;
          const step = strideW * sw;
          if (sp === 1 && step === 1) {
            const n = owHi - owLo;
            for (let q = 0; q < n; q++) dst[d + q] = src[s + q];
            d += n;
            ow = owHi;
          } else {
            for (; ow < owHi; ow++, d += sp, s += step) dst[d] = src[s];
          }
          for (; ow < outW; ow++, d += sp) dst[d] = 0;
        }
      }
    }
  }
}

/**
 * The same moves for integer dtypes, on raw words (`unit` Int32 words per int64 element,
 * so int64 stays exact; one byte / one word otherwise), kept apart from the float loop so
 * that neither sees more than three array kinds.
 */
function im2colRawLoop(dst: Raw, dOff: number, sr: number, sp: number, src: Raw, sOff: number, sc: number, sh: number, sw: number, g: Conv2dGeometry, unit: number): void {
  const { channels, height, width, kernelH, kernelW, strideH, strideW, padH, padW, dilationH, dilationW, outH, outW } = g;
  for (let c = 0; c < channels; c++) {
    for (let i = 0; i < kernelH; i++) {
      const kh = i * dilationH - padH;
      for (let j = 0; j < kernelW; j++) {
        const kw = j * dilationW - padW;
        const row = dOff + ((c * kernelH + i) * kernelW + j) * sr;
        for (let oh = 0; oh < outH; oh++) {
          const ih = oh * strideH + kh;
          for (let ow = 0; ow < outW; ow++) {
            const iw = ow * strideW + kw;
            const d = (row + (oh * outW + ow) * sp) * unit;
            if (ih < 0 || ih >= height || iw < 0 || iw >= width) for (let u = 0; u < unit; u++) dst[d + u] = 0;
            else {
              const q = (sOff + c * sc + ih * sh + iw * sw) * unit;
              for (let u = 0; u < unit; u++) dst[d + u] = src[q + u];
            }
          }
        }
      }
    }
  }
}

type Raw = Uint8Array | Int16Array | Int32Array;

function raw(t: TensorImpl): [Raw, number] {
  if (t.itemSize === 1) return [raw1(t), 1];
  if (t.itemSize === 2) return [t.storage.typed(Int16Array), 1];
  return [raw4(t), t.itemSize / 4];
}

export const im2col: BackendImpls['im2col'] = (col, image, g) => {
  if (col.dtype === 'float32' || col.dtype === 'float64' || col.dtype === 'float16' || col.dtype === 'bfloat16') {
    im2colLoop(elems(col), col.storageOffset, col.strides[0], col.strides[1], elems(image), image.storageOffset, image.strides[0], image.strides[1], image.strides[2], g);
    return;
  }
  const [dst, unit] = raw(col);
  const [src] = raw(image);
  im2colRawLoop(dst, col.storageOffset, col.strides[0], col.strides[1], src, image.storageOffset, image.strides[0], image.strides[1], image.strides[2], g, unit);
};

function col2imLoop(dst: FloatArray, dOff: number, dc: number, dh: number, dw: number, src: FloatArray, sOff: number, sr: number, sp: number, g: Conv2dGeometry): void {
  const { channels, height, width, kernelH, kernelW, strideH, strideW, padH, padW, dilationH, dilationW, outH, outW } = g;
  for (let c = 0; c < channels; c++) {
    for (let i = 0; i < kernelH; i++) {
      const kh = i * dilationH - padH;
      const [ohLo, ohHi] = validRange(kh, strideH, outH, height);
      for (let j = 0; j < kernelW; j++) {
        const kw = j * dilationW - padW;
        const [owLo, owHi] = validRange(kw, strideW, outW, width);
        const row = sOff + ((c * kernelH + i) * kernelW + j) * sr;
        const cbase = dOff + c * dc;
        const step = strideW * dw;
        for (let oh = ohLo; oh < ohHi; oh++) {
          let s = row + (oh * outW + owLo) * sp;
          let d = cbase + (oh * strideH + kh) * dh + (owLo * strideW + kw) * dw;
          for (let ow = owLo; ow < owHi; ow++, s += sp, d += step) dst[d] += src[s];
        }
      }
    }
  }
}

export const col2im: BackendImpls['col2im'] = (image, col, g) => {
  const out = floatOut(image);
  const src = floatIn(col);
  const [dc, dh, dw] = stridesIn(image, out);
  const [sr, sp] = stridesIn(col, src);
  const [C, H, W] = image.sizes;
  for (let c = 0; c < C; c++) for (let h = 0; h < H; h++) for (let w = 0; w < W; w++) out.a[out.off + c * dc + h * dh + w * dw] = 0;
  col2imLoop(out.a, out.off, dc, dh, dw, src.a, src.off, sr, sp, g);
  out.commit();
};
