import { DTypeError, type BackendImpls, type PadMode, type TensorImpl } from '@torch-ts/core';
import { kindOf, loadExpr, storeStmt, type Kind } from '../wgsl/kinds';
import { G, IN_INDEX, OUT_INDEX, chans, elemAt, geom, geom4, paramLets, runSpatial } from '../wgsl/spatial';
import { f32Word } from './launch';

/**
 * Interpolation and padding kernels (Note [WebGPU spatial kernels]) on [P, H, W] planes,
 * with the source-index rules of the CPU kernels (kernels-cpu/src/kernels/resample.ts) in
 * float32 arithmetic: nearest reads floor(dst * s) (s = float32(1 / scale_factor) or
 * float32(in / out), clamped; exact for out == in and out == 2 in); bilinear computes its
 * source index and lambdas in float32 (PyTorch's opmath for float32). The backward kernels
 * are gathers: each input element walks to the first output index that reads it (the index
 * maps are monotonic, so a walk from an estimate is a few steps) and sums the range.
 * Padding moves raw element bits (any dtype, int64 exact); its backward sums, per input
 * element, the (at most three, in ascending order, as the CPU kernel adds them) output
 * ranges that copy it.
 */
/** The kind of a floating operand: float32, or float16 / bfloat16 (computed in f32, Note [float16 on WebGPU]). */
type FloatKind = 'f32' | 'f16' | 'bf16';
function floatKind(op: string, t: TensorImpl): FloatKind {
  const k = kindOf(op, t.dtype, false, 'bf16');
  if (k !== 'f32' && k !== 'f16' && k !== 'bf16') throw new DTypeError(`${op}: "${op}" not implemented for '${t.dtype}' on webgpu`);
  return k;
}

// (operands as geom4 words with a c-fastest decode: Note [WebGPU channels-last upsampling])
const OPERANDS = [...G('a'), ...G('b'), 'C'];

// ---- nearest ----
const NEAREST = `
fn near_src(o: i32, n: i32, on: i32, s: f32) -> i32 {
  if (on == n) { return o; }
  if (on == 2 * n) { return o >> 1u; }
  return min(i32(floor(f32(o) * s)), n - 1);
}
// the first output index whose source is >= h
fn near_first(h: i32, n: i32, on: i32, s: f32) -> i32 {
  var o = i32(clamp(f32(h) / s - 1.0, 0.0, f32(on)));
  loop { if (o <= 0 || near_src(o - 1, n, on, s) < h) { break; } o--; }
  loop { if (o >= on || near_src(o, n, on, s) >= h) { break; } o++; }
  return o;
}`;

function nearestScale(inSize: number, outSize: number, scale: number | null): number {
  return f32Word(scale !== null && scale > 0 ? Math.fround(1 / scale) : Math.fround(inSize / outSize));
}

function nearestRun(out: TensorImpl, self: TensorImpl, scaleH: number | null, scaleW: number | null, k: Kind): void {
  const op = 'upsample_nearest2d';
  const [H, W] = self.sizes.slice(-2);
  const [oH, oW] = out.sizes.slice(-2);
  const body = `${paramLets([...OPERANDS, 'H', 'W', 'oH', 'oW'])}
  let sH = pf(${OPERANDS.length + 5}u); let sW = pf(${OPERANDS.length + 6}u);
${OUT_INDEX}
  let h = near_src(oh, H, oH, sH);
  let w = near_src(ow, W, oW, sW);
  let v = ${loadExpr(1, k, elemAt('b', 'h', 'w'))};
  ${storeStmt(0, k, elemAt('a', 'oh', 'ow'), 'v')}`;
  runSpatial(
    op,
    'upsample-nearest2d',
    [{ t: out, kind: k, output: true }, { t: self, kind: k }],
    [...geom4(out), ...geom4(self), chans(self), H, W, oH, oW, nearestScale(H, oH, scaleH), nearestScale(W, oW, scaleW)],
    out.numel,
    body,
    NEAREST,
  );
}

export const upsampleNearest2d: BackendImpls['upsampleNearest2d'] = (out, self, scaleH, scaleW) =>
  nearestRun(out, self, scaleH, scaleW, kindOf('upsample_nearest2d', self.dtype, false, 'bf16'));

function nearestBackwardRun(gradInput: TensorImpl, gradOutput: TensorImpl, scaleH: number | null, scaleW: number | null, fk: FloatKind): void {
  const op = 'upsample_nearest2d_backward';
  const [H, W] = gradInput.sizes.slice(-2);
  const [oH, oW] = gradOutput.sizes.slice(-2);
  const body = `${paramLets([...OPERANDS, 'H', 'W', 'oH', 'oW'])}
  let sH = pf(${OPERANDS.length + 5}u); let sW = pf(${OPERANDS.length + 6}u);
${IN_INDEX}
  let oh0 = near_first(h, H, oH, sH); let oh1 = near_first(h + 1, H, oH, sH);
  let ow0 = near_first(w, W, oW, sW); let ow1 = near_first(w + 1, W, oW, sW);
  var s = 0.0;
  for (var oh = oh0; oh < oh1; oh++) {
    for (var ow = ow0; ow < ow1; ow++) { s += ld1(${elemAt('b', 'oh', 'ow')}); }
  }
  st0(${elemAt('a', 'h', 'w')}, s);`;
  runSpatial(
    op,
    'upsample-nearest2d-backward',
    [{ t: gradInput, kind: fk, output: true }, { t: gradOutput, kind: fk }],
    [...geom4(gradInput), ...geom4(gradOutput), chans(gradInput), H, W, oH, oW, nearestScale(H, oH, scaleH), nearestScale(W, oW, scaleW)],
    gradInput.numel,
    body,
    NEAREST,
  );
}

export const upsampleNearest2dBackward: BackendImpls['upsampleNearest2dBackward'] = (gradInput, gradOutput, scaleH, scaleW) =>
  nearestBackwardRun(gradInput, gradOutput, scaleH, scaleW, floatKind('upsample_nearest2d_backward', gradInput));

// ---- bilinear ----
const LINEAR = `
fn lin_src(o: i32, ac: i32, s: f32) -> f32 {
  if (ac != 0) { return s * f32(o); }
  let a = s * (f32(o) + 0.5);
  return max(a - 0.5, 0.0);
}
fn lin_i0(o: i32, ac: i32, s: f32) -> i32 { return i32(lin_src(o, ac, s)); }
fn lin_i1(o: i32, n: i32, ac: i32, s: f32) -> i32 { let a = lin_i0(o, ac, s); return select(a, a + 1, a < n - 1); }
// the first output index whose i1 (upper = 1) or i0 (upper = 0) is >= h
fn lin_first(h: i32, n: i32, on: i32, ac: i32, s: f32, upper: bool) -> i32 {
  var o = i32(clamp(f32(h) / s - 2.0, 0.0, f32(on)));
  loop {
    if (o <= 0) { break; }
    let a = select(lin_i0(o - 1, ac, s), lin_i1(o - 1, n, ac, s), upper);
    if (a < h) { break; }
    o--;
  }
  loop {
    if (o >= on) { break; }
    let a = select(lin_i0(o, ac, s), lin_i1(o, n, ac, s), upper);
    if (a >= h) { break; }
    o++;
  }
  return o;
}
// the weight output index o gives to input index h
fn lin_weight(o: i32, h: i32, n: i32, ac: i32, s: f32) -> f32 {
  let src = lin_src(o, ac, s);
  let a = i32(src);
  let b = select(a, a + 1, a < n - 1);
  let l1 = src - f32(a);
  let l0 = 1.0 - l1;
  return select(0.0, l0, a == h) + select(0.0, l1, b == h);
}`;

/** PyTorch's area_pixel_compute_scale in float32. */
function linearScale(inSize: number, outSize: number, alignCorners: boolean, scale: number | null): number {
  const fr = Math.fround;
  if (alignCorners) return f32Word(outSize > 1 ? fr((inSize - 1) / (outSize - 1)) : 0);
  return f32Word(scale !== null && scale > 0 ? fr(1 / scale) : fr(inSize / outSize));
}

function bilinearRun(out: TensorImpl, self: TensorImpl, alignCorners: boolean, scaleH: number | null, scaleW: number | null, fk: FloatKind): void {
  const op = 'upsample_bilinear2d';
  const [H, W] = self.sizes.slice(-2);
  const [oH, oW] = out.sizes.slice(-2);
  const body = `${paramLets([...OPERANDS, 'H', 'W', 'oH', 'oW', 'ac'])}
  let sH = pf(${OPERANDS.length + 6}u); let sW = pf(${OPERANDS.length + 7}u);
${OUT_INDEX}
  let hs = lin_src(oh, ac, sH);
  let h0 = i32(hs); let h1 = select(h0, h0 + 1, h0 < H - 1);
  let a1 = hs - f32(h0); let a0 = 1.0 - a1;
  let ws = lin_src(ow, ac, sW);
  let w0 = i32(ws); let w1 = select(w0, w0 + 1, w0 < W - 1);
  let c1 = ws - f32(w0); let c0 = 1.0 - c1;
  let t0 = ld1(${elemAt('b', 'h0', 'w0')}) * c0 + ld1(${elemAt('b', 'h0', 'w1')}) * c1;
  let t1 = ld1(${elemAt('b', 'h1', 'w0')}) * c0 + ld1(${elemAt('b', 'h1', 'w1')}) * c1;
  st0(${elemAt('a', 'oh', 'ow')}, t0 * a0 + t1 * a1);`;
  runSpatial(
    op,
    'upsample-bilinear2d',
    [{ t: out, kind: fk, output: true }, { t: self, kind: fk }],
    [...geom4(out), ...geom4(self), chans(self), H, W, oH, oW, alignCorners ? 1 : 0, linearScale(H, oH, alignCorners, scaleH), linearScale(W, oW, alignCorners, scaleW)],
    out.numel,
    body,
    LINEAR,
  );
}

export const upsampleBilinear2d: BackendImpls['upsampleBilinear2d'] = (out, self, alignCorners, scaleH, scaleW) =>
  bilinearRun(out, self, alignCorners, scaleH, scaleW, floatKind('upsample_bilinear2d', self));

function bilinearBackwardRun(gradInput: TensorImpl, gradOutput: TensorImpl, alignCorners: boolean, scaleH: number | null, scaleW: number | null, fk: FloatKind): void {
  const op = 'upsample_bilinear2d_backward';
  const [H, W] = gradInput.sizes.slice(-2);
  const [oH, oW] = gradOutput.sizes.slice(-2);
  const body = `${paramLets([...OPERANDS, 'H', 'W', 'oH', 'oW', 'ac'])}
  let sH = pf(${OPERANDS.length + 6}u); let sW = pf(${OPERANDS.length + 7}u);
${IN_INDEX}
  let oh0 = lin_first(h, H, oH, ac, sH, true); let oh1 = lin_first(h + 1, H, oH, ac, sH, false);
  let ow0 = lin_first(w, W, oW, ac, sW, true); let ow1 = lin_first(w + 1, W, oW, ac, sW, false);
  var s = 0.0;
  for (var oh = oh0; oh < oh1; oh++) {
    let wh = lin_weight(oh, h, H, ac, sH);
    if (wh == 0.0) { continue; }
    for (var ow = ow0; ow < ow1; ow++) {
      s += ld1(${elemAt('b', 'oh', 'ow')}) * wh * lin_weight(ow, w, W, ac, sW);
    }
  }
  st0(${elemAt('a', 'h', 'w')}, s);`;
  runSpatial(
    op,
    'upsample-bilinear2d-backward',
    [{ t: gradInput, kind: fk, output: true }, { t: gradOutput, kind: fk }],
    [...geom4(gradInput), ...geom4(gradOutput), chans(gradInput), H, W, oH, oW, alignCorners ? 1 : 0, linearScale(H, oH, alignCorners, scaleH), linearScale(W, oW, alignCorners, scaleW)],
    gradInput.numel,
    body,
    LINEAR,
  );
}

export const upsampleBilinear2dBackward: BackendImpls['upsampleBilinear2dBackward'] = (gradInput, gradOutput, alignCorners, scaleH, scaleW) =>
  bilinearBackwardRun(gradInput, gradOutput, alignCorners, scaleH, scaleW, floatKind('upsample_bilinear2d_backward', gradInput));

/**
 * Note [WebGPU channels-last upsampling]
 * As pooling's (Note [WebGPU channels-last pooling]), one source per kernel serves the NCHW
 * impls ([P, H, W] planes, C = 1) and the hooks of Note [Channels-last upsampling] (dense
 * [N, C, h, w] in NHWC order, the decode c-fastest: memory order), so values are bit for
 * bit the NCHW path's. The hooks take float32, float16 and bfloat16 (nearest's forward also
 * uint8) and decline the rest.
 */
const FLOAT_HOOK_KINDS: Partial<Record<string, FloatKind>> = { float32: 'f32', float16: 'f16', bfloat16: 'bf16' };
const hookKind = (a: TensorImpl, b: TensorImpl): FloatKind | null => (a.dtype === b.dtype ? (FLOAT_HOOK_KINDS[a.dtype] ?? null) : null);

export const upsampleNearest2dChannelsLast: BackendImpls['upsampleNearest2dChannelsLast'] = (out, self, scaleH, scaleW) => {
  const k: Kind | null = self.dtype === 'uint8' && out.dtype === 'uint8' ? 'u8' : hookKind(out, self);
  if (!k) return false;
  nearestRun(out, self, scaleH, scaleW, k);
};

export const upsampleNearest2dBackwardChannelsLast: BackendImpls['upsampleNearest2dBackwardChannelsLast'] = (gradInput, gradOutput, scaleH, scaleW) => {
  const fk = hookKind(gradInput, gradOutput);
  if (!fk) return false;
  nearestBackwardRun(gradInput, gradOutput, scaleH, scaleW, fk);
};

export const upsampleBilinear2dChannelsLast: BackendImpls['upsampleBilinear2dChannelsLast'] = (out, self, alignCorners, scaleH, scaleW) => {
  const fk = hookKind(out, self);
  if (!fk) return false;
  bilinearRun(out, self, alignCorners, scaleH, scaleW, fk);
};

export const upsampleBilinear2dBackwardChannelsLast: BackendImpls['upsampleBilinear2dBackwardChannelsLast'] = (gradInput, gradOutput, alignCorners, scaleH, scaleW) => {
  const fk = hookKind(gradInput, gradOutput);
  if (!fk) return false;
  bilinearBackwardRun(gradInput, gradOutput, alignCorners, scaleH, scaleW, fk);
};

// ---- padding ----
// (on [P, H, W] planes only, plane-major)
const PLANES = ['aOff', 'as0', 'as1', 'as2', 'bOff', 'bs0', 'bs1', 'bs2'];
const PLANE_OUT_INDEX = '  let ow = i32(idx) % oW; let q0 = i32(idx) / oW; let oh = q0 % oH; let pl = q0 / oH;';
const PLANE_IN_INDEX = '  let w = i32(idx) % W; let q0 = i32(idx) / W; let h = q0 % H; let pl = q0 / H;';
const MODE: Record<PadMode, number> = { reflect: 0, replicate: 1, circular: 2 };

const PAD = `
fn pad_src(i: i32, n: i32, mode: i32) -> i32 {
  if (mode == 0) { if (i < 0) { return -i; } if (i >= n) { return 2 * (n - 1) - i; } return i; }
  if (mode == 1) { return clamp(i, 0, n - 1); }
  return ((i % n) + n) % n;
}
const NONE = vec3<i32>(0, 0, 1);
// The output positions that copy input index h, as up to three ascending (start, end, step) ranges.
fn pad_range(r: i32, h: i32, n: i32, before: i32, on: i32, mode: i32) -> vec3<i32> {
  let c = h + before;
  if (mode == 1) {
    if (r != 0) { return NONE; }
    return vec3<i32>(select(c, 0, h == 0), select(c + 1, on, h == n - 1), 1);
  }
  if (mode == 2) {
    if (r != 0) { return NONE; }
    return vec3<i32>(c % n, on, n);
  }
  if (r == 1) { return vec3<i32>(c, c + 1, 1); }
  if (r == 0) { let l = before - h; if (h > 0 && l >= 0) { return vec3<i32>(l, l + 1, 1); } return NONE; }
  let q = before + 2 * (n - 1) - h;
  if (h < n - 1 && q < on) { return vec3<i32>(q, q + 1, 1); }
  return NONE;
}`;

const RAW_KIND: Record<number, Kind> = { 1: 'u8', 2: 'u16', 4: 'i32', 8: 'i32' };

export const padIndexed: BackendImpls['padIndexed'] = (out, self, pads, mode) => {
  const op = `${mode === 'reflect' ? 'reflection' : mode === 'replicate' ? 'replication' : '_pad_circular'}_pad2d`;
  const item = out.itemSize;
  const k = RAW_KIND[item];
  if (!k) throw new DTypeError(`${op}: "${op}" not implemented for '${out.dtype}' on webgpu`);
  const [, H, W] = self.sizes;
  const [, oH, oW] = out.sizes;
  const dst = 'u32(aOff + pl * as0 + oh * as1 + ow * as2)';
  const src = 'u32(bOff + pl * bs0 + h * bs1 + w * bs2)';
  const move =
    item === 8
      ? `  let d = 2u * ${dst}; let s = 2u * ${src}; b0[d] = b1[s]; b0[d + 1u] = b1[s + 1u];`
      : `  let v = ${loadExpr(1, k, src)};\n  ${storeStmt(0, k, dst, 'v')}`;
  const body = `${paramLets([...PLANES, 'H', 'W', 'oH', 'oW', 'left', 'top', 'mode'])}
${PLANE_OUT_INDEX}
  let h = pad_src(oh - top, H, mode);
  let w = pad_src(ow - left, W, mode);
${move}`;
  runSpatial(
    op,
    `pad-${item}`,
    [{ t: out, kind: k, output: true }, { t: self, kind: k }],
    [...geom(out), ...geom(self), H, W, oH, oW, pads[0], pads[2], MODE[mode]],
    out.numel,
    body,
    PAD,
  );
};

export const padIndexedBackward: BackendImpls['padIndexedBackward'] = (gradInput, gradOutput, pads, mode) => {
  const op = `${mode === 'reflect' ? 'reflection' : mode === 'replicate' ? 'replication' : '_pad_circular'}_pad2d_backward`;
  const fk = floatKind(op, gradInput);
  const [, H, W] = gradInput.sizes;
  const [, oH, oW] = gradOutput.sizes;
  // rows in ascending order: for each H range, its rows, each with every W range
  const nested: string[] = [];
  for (let a = 0; a < 3; a++) {
    nested.push(
      `  for (var oh = rh${a}.x; oh < rh${a}.y; oh += rh${a}.z) {\n` +
        [0, 1, 2].map((b) => `    for (var ow = rw${b}.x; ow < rw${b}.y; ow += rw${b}.z) { s += ld1(u32(base + oh * bs1 + ow * bs2)); }`).join('\n') +
        '\n  }',
    );
  }
  const body = `${paramLets([...PLANES, 'H', 'W', 'oH', 'oW', 'left', 'top', 'mode'])}
${PLANE_IN_INDEX}
${[0, 1, 2].map((r) => `  let rh${r} = pad_range(${r}, h, H, top, oH, mode);\n  let rw${r} = pad_range(${r}, w, W, left, oW, mode);`).join('\n')}
  var s = 0.0;
  let base = bOff + pl * bs0;
${nested.join('\n')}
  st0(u32(aOff + pl * as0 + h * as1 + w * as2), s);`;
  runSpatial(
    op,
    'pad-backward',
    [{ t: gradInput, kind: fk, output: true }, { t: gradOutput, kind: fk }],
    [...geom(gradInput), ...geom(gradOutput), H, W, oH, oW, pads[0], pads[2], MODE[mode]],
    gradInput.numel,
    body,
    PAD,
  );
};

export const resampleImpls = {
  upsampleNearest2d,
  upsampleNearest2dBackward,
  upsampleBilinear2d,
  upsampleBilinear2dBackward,
  padIndexed,
  padIndexedBackward,
  // Note [WebGPU channels-last upsampling]
  upsampleNearest2dChannelsLast,
  upsampleNearest2dBackwardChannelsLast,
  upsampleBilinear2dChannelsLast,
  upsampleBilinear2dBackwardChannelsLast,
};

