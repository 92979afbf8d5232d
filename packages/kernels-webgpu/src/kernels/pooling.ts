import { DTypeError, type BackendImpls, type Pool2dGeometry, type TensorImpl } from '@torch-ts/core';
import { kindOf } from '../wgsl/kinds';
import { geom, paramLets, runSpatial } from '../wgsl/spatial';

/**
 * Pooling kernels (Note [WebGPU spatial kernels]) on [P, H, W] planes, float32, with the CPU
 * kernels' window rules (kernels-cpu/src/kernels/pooling.ts): max pooling's NaN wins (the
 * last NaN of a window names the index), its indices are int64 (lo, hi words) flat within the
 * plane; avg pooling's divisor is the padded window clipped to H + pad, the clipped window
 * when count_include_pad is false, or divisor_override; adaptive windows are
 * [floor(o H / oH), ceil((o + 1) H / oH)).
 */
/** The kind of a floating operand: float32, or float16 / bfloat16 (computed in f32, Note [float16 on WebGPU]). */
function floatKind(op: string, t: TensorImpl): 'f32' | 'f16' | 'bf16' {
  const k = kindOf(op, t.dtype, false, 'bf16');
  if (k !== 'f32' && k !== 'f16' && k !== 'bf16') throw new DTypeError(`${op}: "${op}" not implemented for '${t.dtype}' on webgpu`);
  return k;
}

const POOL = ['H', 'W', 'kH', 'kW', 'sH', 'sW', 'pH', 'pW', 'dH', 'dW', 'oH', 'oW'];
const poolWords = (g: Pool2dGeometry) => [g.height, g.width, g.kernelH, g.kernelW, g.strideH, g.strideW, g.padH, g.padW, g.dilationH, g.dilationW, g.outH, g.outW];
/** Splits the flat output index into (plane, oh, ow). */
const OUT_INDEX = '  let ow = i32(idx) % oW; let q0 = i32(idx) / oW; let oh = q0 % oH; let pl = q0 / oH;';
const IN_INDEX = '  let w = i32(idx) % W; let q0 = i32(idx) / W; let h = q0 % H; let pl = q0 / H;';

export const maxPool2d: BackendImpls['maxPool2d'] = (out, indices, self, g) => {
  const op = 'max_pool2d';
  const fk = floatKind(op, self);
  const body = `${paramLets(['oOff', 'os0', 'os1', 'os2', 'iOff', 'is0', 'is1', 'is2', 'xOff', 'xs0', 'xs1', 'xs2', ...POOL])}
${OUT_INDEX}
  var h0 = oh * sH - pH;
  let h1 = min(h0 + (kH - 1) * dH + 1, H);
  if (h0 < 0) { h0 += ((-h0 + dH - 1) / dH) * dH; }
  var w0 = ow * sW - pW;
  let w1 = min(w0 + (kW - 1) * dW + 1, W);
  if (w0 < 0) { w0 += ((-w0 + dW - 1) / dW) * dW; }
  var best = -inf_f();
  var at = h0 * W + w0;
  let base = xOff + pl * xs0;
  for (var h = h0; h < h1; h += dH) {
    for (var w = w0; w < w1; w += dW) {
      let v = ld2(u32(base + h * xs1 + w * xs2));
      if (v > best || isnan_f(v)) { best = v; at = h * W + w; }
    }
  }
  st0(u32(oOff + pl * os0 + oh * os1 + ow * os2), best);
  let q = 2u * u32(iOff + pl * is0 + oh * is1 + ow * is2);
  b1[q] = u32(at);
  b1[q + 1u] = 0u;`;
  runSpatial(op, 'maxpool2d', [{ t: out, kind: fk, output: true }, { t: indices, kind: 'i64', output: true }, { t: self, kind: fk }], [...geom(out), ...geom(indices), ...geom(self), ...poolWords(g)], out.numel, body);
};

/**
 * Note [Max pool backward]
 * A gather, as PyTorch's CUDA kernel: one invocation per input element walks the windows
 * that contain it (oh in [ceil((h + pH - (kH - 1) dH) / sH), floor((h + pH) / sH)], clipped)
 * and sums the gradOutput elements whose index names it, in output order (the CPU's order
 * of accumulation, so the sums are the same, and deterministic). An index that names an
 * element outside its own window (never one max_pool2d wrote) is not seen, as on CUDA; so is
 * one whose high word is not the sign extension of the low one.
 */
export const maxPool2dBackward: BackendImpls['maxPool2dBackward'] = (gradInput, gradOutput, indices, g) => {
  const op = 'max_pool2d_with_indices_backward';
  const fk = floatKind(op, gradInput);
  const body = `${paramLets(['gOff', 'gs0', 'gs1', 'gs2', 'oOff', 'os0', 'os1', 'os2', 'iOff', 'is0', 'is1', 'is2', ...POOL])}
${IN_INDEX}
  let eh = h + pH - (kH - 1) * dH;
  let ohs = select(0, (eh + sH - 1) / sH, eh > 0);
  let ohe = min((h + pH) / sH + 1, oH);
  let ew = w + pW - (kW - 1) * dW;
  let ows = select(0, (ew + sW - 1) / sW, ew > 0);
  let owe = min((w + pW) / sW + 1, oW);
  let me = h * W + w;
  var s = 0.0;
  for (var oh = ohs; oh < ohe; oh++) {
    for (var ow = ows; ow < owe; ow++) {
      let q = 2u * u32(iOff + pl * is0 + oh * is1 + ow * is2);
      if (bitcast<i32>(b2[q]) == me && b2[q + 1u] == 0u) { s += ld1(u32(oOff + pl * os0 + oh * os1 + ow * os2)); }
    }
  }
  st0(u32(gOff + pl * gs0 + h * gs1 + w * gs2), s);`;
  runSpatial(
    op,
    'maxpool2d-backward',
    [{ t: gradInput, kind: fk, output: true }, { t: gradOutput, kind: fk }, { t: indices, kind: 'i64' }],
    [...geom(gradInput), ...geom(gradOutput), ...geom(indices), ...poolWords(g)],
    gradInput.numel,
    body,
  );
};

/** WGSL: the clipped window of output (oh, ow) and its divisor `d`, as the CPU kernel computes them. */
const AVG_WINDOW = `
fn avg_window(oh: i32, ow: i32, H: i32, W: i32, kH: i32, kW: i32, sH: i32, sW: i32, pH: i32, pW: i32, cip: i32, dov: i32) -> vec4<i32> {
  let h0 = oh * sH - pH;
  let w0 = ow * sW - pW;
  return vec4<i32>(max(h0, 0), min(min(h0 + kH, H + pH), H), max(w0, 0), min(min(w0 + kW, W + pW), W));
}
fn avg_divisor(oh: i32, ow: i32, H: i32, W: i32, kH: i32, kW: i32, sH: i32, sW: i32, pH: i32, pW: i32, cip: i32, dov: i32) -> f32 {
  if (dov > 0) { return f32(dov); }
  let h0 = oh * sH - pH;
  let h1 = min(h0 + kH, H + pH);
  let w0 = ow * sW - pW;
  let w1 = min(w0 + kW, W + pW);
  if (cip != 0) { return f32((h1 - h0) * (w1 - w0)); }
  return f32((min(h1, H) - max(h0, 0)) * (min(w1, W) - max(w0, 0)));
}`;
const AVG = ['H', 'W', 'kH', 'kW', 'sH', 'sW', 'pH', 'pW', 'oH', 'oW', 'cip', 'dov'];
const avgWords = (g: Pool2dGeometry, cip: boolean, dov: number | null) => [g.height, g.width, g.kernelH, g.kernelW, g.strideH, g.strideW, g.padH, g.padW, g.outH, g.outW, cip ? 1 : 0, dov ?? 0];
const AVG_ARGS = 'H, W, kH, kW, sH, sW, pH, pW, cip, dov';

export const avgPool2d: BackendImpls['avgPool2d'] = (out, self, g, countIncludePad, divisorOverride) => {
  const op = 'avg_pool2d';
  const fk = floatKind(op, self);
  const body = `${paramLets(['oOff', 'os0', 'os1', 'os2', 'xOff', 'xs0', 'xs1', 'xs2', ...AVG])}
${OUT_INDEX}
  let win = avg_window(oh, ow, ${AVG_ARGS});
  var s = 0.0;
  if (win.x < win.y && win.z < win.w) {
    let base = xOff + pl * xs0;
    for (var h = win.x; h < win.y; h++) {
      for (var w = win.z; w < win.w; w++) { s += ld1(u32(base + h * xs1 + w * xs2)); }
    }
    s = s / avg_divisor(oh, ow, ${AVG_ARGS});
  }
  st0(u32(oOff + pl * os0 + oh * os1 + ow * os2), s);`;
  runSpatial(op, 'avgpool2d', [{ t: out, kind: fk, output: true }, { t: self, kind: fk }], [...geom(out), ...geom(self), ...avgWords(g, countIncludePad, divisorOverride)], out.numel, body, AVG_WINDOW);
};

/** A gather: each input pixel sums gradOutput / divisor over the windows that contain it. */
export const avgPool2dBackward: BackendImpls['avgPool2dBackward'] = (gradInput, gradOutput, g, countIncludePad, divisorOverride) => {
  const op = 'avg_pool2d_backward';
  const fk = floatKind(op, gradInput);
  const body = `${paramLets(['gOff', 'gs0', 'gs1', 'gs2', 'oOff', 'os0', 'os1', 'os2', ...AVG])}
${IN_INDEX}
  let ohs = select((h + pH - kH) / sH + 1, 0, h + pH < kH);
  let ohe = min((h + pH) / sH + 1, oH);
  let ows = select((w + pW - kW) / sW + 1, 0, w + pW < kW);
  let owe = min((w + pW) / sW + 1, oW);
  var s = 0.0;
  let base = oOff + pl * os0;
  for (var oh = ohs; oh < ohe; oh++) {
    for (var ow = ows; ow < owe; ow++) {
      s += ld1(u32(base + oh * os1 + ow * os2)) / avg_divisor(oh, ow, ${AVG_ARGS});
    }
  }
  st0(u32(gOff + pl * gs0 + h * gs1 + w * gs2), s);`;
  runSpatial(
    op,
    'avgpool2d-backward',
    [{ t: gradInput, kind: fk, output: true }, { t: gradOutput, kind: fk }],
    [...geom(gradInput), ...geom(gradOutput), ...avgWords(g, countIncludePad, divisorOverride)],
    gradInput.numel,
    body,
    AVG_WINDOW,
  );
};

/** WGSL: adaptive window bounds [floor(o n / on), ceil((o + 1) n / on)). */
const ADAPTIVE = `
fn ad_start(o: i32, n: i32, on: i32) -> i32 { return (o * n) / on; }
fn ad_end(o: i32, n: i32, on: i32) -> i32 { return ((o + 1) * n + on - 1) / on; }`;

export const adaptiveAvgPool2d: BackendImpls['adaptiveAvgPool2d'] = (out, self) => {
  const op = 'adaptive_avg_pool2d';
  const fk = floatKind(op, self);
  const body = `${paramLets(['oOff', 'os0', 'os1', 'os2', 'xOff', 'xs0', 'xs1', 'xs2', 'H', 'W', 'oH', 'oW'])}
${OUT_INDEX}
  let h0 = ad_start(oh, H, oH); let h1 = ad_end(oh, H, oH);
  let w0 = ad_start(ow, W, oW); let w1 = ad_end(ow, W, oW);
  var s = 0.0;
  let base = xOff + pl * xs0;
  for (var h = h0; h < h1; h++) {
    for (var w = w0; w < w1; w++) { s += ld1(u32(base + h * xs1 + w * xs2)); }
  }
  st0(u32(oOff + pl * os0 + oh * os1 + ow * os2), s / f32((h1 - h0) * (w1 - w0)));`;
  runSpatial(op, 'adaptiveavgpool2d', [{ t: out, kind: fk, output: true }, { t: self, kind: fk }], [...geom(out), ...geom(self), self.sizes[1], self.sizes[2], out.sizes[1], out.sizes[2]], out.numel, body, ADAPTIVE);
};

/** A gather: each input pixel sums gradOutput / window size over the windows that contain it. */
export const adaptiveAvgPool2dBackward: BackendImpls['adaptiveAvgPool2dBackward'] = (gradInput, gradOutput) => {
  const op = 'adaptive_avg_pool2d_backward';
  const fk = floatKind(op, gradInput);
  const body = `${paramLets(['gOff', 'gs0', 'gs1', 'gs2', 'oOff', 'os0', 'os1', 'os2', 'H', 'W', 'oH', 'oW'])}
${IN_INDEX}
  let ohs = (h * oH) / H; let ohe = min(((h + 1) * oH + H - 1) / H, oH);
  let ows = (w * oW) / W; let owe = min(((w + 1) * oW + W - 1) / W, oW);
  var s = 0.0;
  let base = oOff + pl * os0;
  for (var oh = ohs; oh < ohe; oh++) {
    let h0 = ad_start(oh, H, oH); let h1 = ad_end(oh, H, oH);
    if (h < h0 || h >= h1) { continue; }
    for (var ow = ows; ow < owe; ow++) {
      let w0 = ad_start(ow, W, oW); let w1 = ad_end(ow, W, oW);
      if (w < w0 || w >= w1) { continue; }
      s += ld1(u32(base + oh * os1 + ow * os2)) / f32((h1 - h0) * (w1 - w0));
    }
  }
  st0(u32(gOff + pl * gs0 + h * gs1 + w * gs2), s);`;
  runSpatial(
    op,
    'adaptiveavgpool2d-backward',
    [{ t: gradInput, kind: fk, output: true }, { t: gradOutput, kind: fk }],
    [...geom(gradInput), ...geom(gradOutput), gradInput.sizes[1], gradInput.sizes[2], gradOutput.sizes[1], gradOutput.sizes[2]],
    gradInput.numel,
    body,
    ADAPTIVE,
  );
};

export const poolingImpls = { maxPool2d, maxPool2dBackward, avgPool2d, avgPool2dBackward, adaptiveAvgPool2d, adaptiveAvgPool2dBackward };
