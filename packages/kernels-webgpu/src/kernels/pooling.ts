import { DTypeError, type BackendImpls, type Pool2dGeometry, type TensorImpl } from '@torch-ts/core';
import { kindOf } from '../wgsl/kinds';
import { G, IN_INDEX, OUT_INDEX, chans, elemAt, geom4, paramLets, runSpatial } from '../wgsl/spatial';

/**
 * Pooling kernels (Note [WebGPU spatial kernels]) on [P, H, W] planes, or on dense channels-last
 * [N, C, H, W] operands (Note [WebGPU channels-last pooling]), float32 (float16 and bfloat16
 * computed in f32), with the CPU
 * kernels' window rules (kernels-cpu/src/kernels/pooling.ts): max pooling's NaN wins (the
 * last NaN of a window names the index), its indices are int64 (lo, hi words) flat within the
 * plane; avg pooling's divisor is the padded window clipped to H + pad, the clipped window
 * when count_include_pad is false, or divisor_override; adaptive windows are
 * [floor(o H / oH), ceil((o + 1) H / oH)).
 */
type FloatKind = 'f32' | 'f16' | 'bf16';
const FLOAT_KINDS: Partial<Record<string, FloatKind>> = { float32: 'f32', float16: 'f16', bfloat16: 'bf16' };

/** The kind of a floating operand: float32, or float16 / bfloat16 (computed in f32, Note [float16 on WebGPU]). */
function floatKind(op: string, t: TensorImpl): FloatKind {
  const k = kindOf(op, t.dtype, false, 'bf16');
  if (k !== 'f32' && k !== 'f16' && k !== 'bf16') throw new DTypeError(`${op}: "${op}" not implemented for '${t.dtype}' on webgpu`);
  return k;
}

/**
 * Note [WebGPU channels-last pooling]
 * The same kernels serve the NCHW impls (on [P, H, W] planes) and the channels-last hooks
 * (Note [Channels-last pooling impls] in core; dense [N, C, H, W] in NHWC order): every
 * operand travels as (offset, sN, sC, sH, sW) and a plane's base is n * sN + c * sC, with C a
 * param word. The flat invocation index decodes with c fastest, then w, h, n: for the
 * channels-last operands that is memory order, so neighbouring invocations touch
 * neighbouring words (coalesced); the NCHW impls pass C = 1 (a plane p is n = p, c = 0, sC
 * unused), where the same decode is the plane-major one they always had. One source and one
 * pipeline per kernel for both layouts; max pooling's indices stay flat h * W + w within the
 * plane. The hooks decline (false) dtypes without a kernel (float64, int64 avg pooling), so
 * core takes the NCHW path and raises its error there.
 */
/** The float kind of the channels-last hooks' operands, or null (decline) when the NCHW kernels have none. */
function hookKind(...ts: TensorImpl[]): FloatKind | null {
  const k = FLOAT_KINDS[ts[0].dtype];
  return k && ts.every((t) => t.dtype === ts[0].dtype) ? k : null;
}

const hw = (t: TensorImpl): [number, number] => [t.sizes[t.dim - 2], t.sizes[t.dim - 1]];

const POOL = ['H', 'W', 'kH', 'kW', 'sH', 'sW', 'pH', 'pW', 'dH', 'dW', 'oH', 'oW'];
const poolWords = (g: Pool2dGeometry) => [g.height, g.width, g.kernelH, g.kernelW, g.strideH, g.strideW, g.padH, g.padW, g.dilationH, g.dilationW, g.outH, g.outW];
/**
 * WGSL: the maximum of the window [h0, h1) x [w0, w1) (steps dh, dw) of x into out and its
 * flat index h * W + w into the int64 indices (lo, hi words): NaN wins, the last NaN naming
 * the index; else the first maximum.
 */
const windowMax = (dh: string, dw: string) => `  var best = -inf_f();
  var at = h0 * W + w0;
  for (var h = h0; h < h1; h += ${dh}) {
    for (var w = w0; w < w1; w += ${dw}) {
      let v = ld2(${elemAt('x', 'h', 'w')});
      if (v > best || isnan_f(v)) { best = v; at = h * W + w; }
    }
  }
  st0(${elemAt('o', 'oh', 'ow')}, best);
  let q = 2u * ${elemAt('i', 'oh', 'ow')};
  b1[q] = u32(at);
  b1[q + 1u] = 0u;`;

/**
 * WGSL: input pixel (h, w)'s gradient, the gradOutput elements of windows [ohs, ohe) x
 * [ows, owe) whose index names it, summed in output order (Note [Max pool backward]).
 */
const GATHER_BY_INDEX = `  let me = h * W + w;
  var s = 0.0;
  for (var oh = ohs; oh < ohe; oh++) {
    for (var ow = ows; ow < owe; ow++) {
      let q = 2u * ${elemAt('i', 'oh', 'ow')};
      if (bitcast<i32>(b2[q]) == me && b2[q + 1u] == 0u) { s += ld1(${elemAt('o', 'oh', 'ow')}); }
    }
  }
  st0(${elemAt('g', 'h', 'w')}, s);`;

function maxPoolRun(out: TensorImpl, indices: TensorImpl, self: TensorImpl, g: Pool2dGeometry, fk: FloatKind): void {
  const op = 'max_pool2d';
  const body = `${paramLets([...G('o'), ...G('i'), ...G('x'), 'C', ...POOL])}
${OUT_INDEX}
  var h0 = oh * sH - pH;
  let h1 = min(h0 + (kH - 1) * dH + 1, H);
  if (h0 < 0) { h0 += ((-h0 + dH - 1) / dH) * dH; }
  var w0 = ow * sW - pW;
  let w1 = min(w0 + (kW - 1) * dW + 1, W);
  if (w0 < 0) { w0 += ((-w0 + dW - 1) / dW) * dW; }
${windowMax('dH', 'dW')}`;
  runSpatial(
    op,
    'maxpool2d',
    [{ t: out, kind: fk, output: true }, { t: indices, kind: 'i64', output: true }, { t: self, kind: fk }],
    [...geom4(out), ...geom4(indices), ...geom4(self), chans(self), ...poolWords(g)],
    out.numel,
    body,
  );
}

export const maxPool2d: BackendImpls['maxPool2d'] = (out, indices, self, g) => maxPoolRun(out, indices, self, g, floatKind('max_pool2d', self));

export const maxPool2dChannelsLast: BackendImpls['maxPool2dChannelsLast'] = (out, indices, self, g) => {
  const fk = hookKind(self, out);
  if (!fk || indices.dtype !== 'int64') return false;
  maxPoolRun(out, indices, self, g, fk);
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
function maxPoolBackwardRun(gradInput: TensorImpl, gradOutput: TensorImpl, indices: TensorImpl, g: Pool2dGeometry, fk: FloatKind): void {
  const op = 'max_pool2d_with_indices_backward';
  const body = `${paramLets([...G('g'), ...G('o'), ...G('i'), 'C', ...POOL])}
${IN_INDEX}
  let eh = h + pH - (kH - 1) * dH;
  let ohs = select(0, (eh + sH - 1) / sH, eh > 0);
  let ohe = min((h + pH) / sH + 1, oH);
  let ew = w + pW - (kW - 1) * dW;
  let ows = select(0, (ew + sW - 1) / sW, ew > 0);
  let owe = min((w + pW) / sW + 1, oW);
${GATHER_BY_INDEX}`;
  runSpatial(
    op,
    'maxpool2d-backward',
    [{ t: gradInput, kind: fk, output: true }, { t: gradOutput, kind: fk }, { t: indices, kind: 'i64' }],
    [...geom4(gradInput), ...geom4(gradOutput), ...geom4(indices), chans(gradInput), ...poolWords(g)],
    gradInput.numel,
    body,
  );
}

export const maxPool2dBackward: BackendImpls['maxPool2dBackward'] = (gradInput, gradOutput, indices, g) =>
  maxPoolBackwardRun(gradInput, gradOutput, indices, g, floatKind('max_pool2d_with_indices_backward', gradInput));

export const maxPool2dBackwardChannelsLast: BackendImpls['maxPool2dBackwardChannelsLast'] = (gradInput, gradOutput, indices, g) => {
  const fk = hookKind(gradInput, gradOutput);
  if (!fk || indices.dtype !== 'int64') return false;
  maxPoolBackwardRun(gradInput, gradOutput, indices, g, fk);
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

function avgPoolRun(out: TensorImpl, self: TensorImpl, g: Pool2dGeometry, countIncludePad: boolean, divisorOverride: number | null, fk: FloatKind): void {
  const op = 'avg_pool2d';
  const body = `${paramLets([...G('o'), ...G('x'), 'C', ...AVG])}
${OUT_INDEX}
  let win = avg_window(oh, ow, ${AVG_ARGS});
  var s = 0.0;
  if (win.x < win.y && win.z < win.w) {
    for (var h = win.x; h < win.y; h++) {
      for (var w = win.z; w < win.w; w++) { s += ld1(${elemAt('x', 'h', 'w')}); }
    }
    s = s / avg_divisor(oh, ow, ${AVG_ARGS});
  }
  st0(${elemAt('o', 'oh', 'ow')}, s);`;
  runSpatial(
    op,
    'avgpool2d',
    [{ t: out, kind: fk, output: true }, { t: self, kind: fk }],
    [...geom4(out), ...geom4(self), chans(self), ...avgWords(g, countIncludePad, divisorOverride)],
    out.numel,
    body,
    AVG_WINDOW,
  );
}

export const avgPool2d: BackendImpls['avgPool2d'] = (out, self, g, countIncludePad, divisorOverride) =>
  avgPoolRun(out, self, g, countIncludePad, divisorOverride, floatKind('avg_pool2d', self));

export const avgPool2dChannelsLast: BackendImpls['avgPool2dChannelsLast'] = (out, self, g, countIncludePad, divisorOverride) => {
  const fk = hookKind(self, out);
  if (!fk) return false;
  avgPoolRun(out, self, g, countIncludePad, divisorOverride, fk);
};

/** A gather: each input pixel sums gradOutput / divisor over the windows that contain it. */
function avgPoolBackwardRun(gradInput: TensorImpl, gradOutput: TensorImpl, g: Pool2dGeometry, countIncludePad: boolean, divisorOverride: number | null, fk: FloatKind): void {
  const op = 'avg_pool2d_backward';
  const body = `${paramLets([...G('g'), ...G('o'), 'C', ...AVG])}
${IN_INDEX}
  let ohs = select((h + pH - kH) / sH + 1, 0, h + pH < kH);
  let ohe = min((h + pH) / sH + 1, oH);
  let ows = select((w + pW - kW) / sW + 1, 0, w + pW < kW);
  let owe = min((w + pW) / sW + 1, oW);
  var s = 0.0;
  for (var oh = ohs; oh < ohe; oh++) {
    for (var ow = ows; ow < owe; ow++) {
      s += ld1(${elemAt('o', 'oh', 'ow')}) / avg_divisor(oh, ow, ${AVG_ARGS});
    }
  }
  st0(${elemAt('g', 'h', 'w')}, s);`;
  runSpatial(
    op,
    'avgpool2d-backward',
    [{ t: gradInput, kind: fk, output: true }, { t: gradOutput, kind: fk }],
    [...geom4(gradInput), ...geom4(gradOutput), chans(gradInput), ...avgWords(g, countIncludePad, divisorOverride)],
    gradInput.numel,
    body,
    AVG_WINDOW,
  );
}

export const avgPool2dBackward: BackendImpls['avgPool2dBackward'] = (gradInput, gradOutput, g, countIncludePad, divisorOverride) =>
  avgPoolBackwardRun(gradInput, gradOutput, g, countIncludePad, divisorOverride, floatKind('avg_pool2d_backward', gradInput));

export const avgPool2dBackwardChannelsLast: BackendImpls['avgPool2dBackwardChannelsLast'] = (gradInput, gradOutput, g, countIncludePad, divisorOverride) => {
  const fk = hookKind(gradInput, gradOutput);
  if (!fk) return false;
  avgPoolBackwardRun(gradInput, gradOutput, g, countIncludePad, divisorOverride, fk);
};

/** WGSL: adaptive window bounds [floor(o n / on), ceil((o + 1) n / on)). */
const ADAPTIVE = `
fn ad_start(o: i32, n: i32, on: i32) -> i32 { return (o * n) / on; }
fn ad_end(o: i32, n: i32, on: i32) -> i32 { return ((o + 1) * n + on - 1) / on; }`;

function adaptiveRun(out: TensorImpl, self: TensorImpl, fk: FloatKind): void {
  const op = 'adaptive_avg_pool2d';
  const body = `${paramLets([...G('o'), ...G('x'), 'C', 'H', 'W', 'oH', 'oW'])}
${OUT_INDEX}
  let h0 = ad_start(oh, H, oH); let h1 = ad_end(oh, H, oH);
  let w0 = ad_start(ow, W, oW); let w1 = ad_end(ow, W, oW);
  var s = 0.0;
  for (var h = h0; h < h1; h++) {
    for (var w = w0; w < w1; w++) { s += ld1(${elemAt('x', 'h', 'w')}); }
  }
  st0(${elemAt('o', 'oh', 'ow')}, s / f32((h1 - h0) * (w1 - w0)));`;
  runSpatial(
    op,
    'adaptiveavgpool2d',
    [{ t: out, kind: fk, output: true }, { t: self, kind: fk }],
    [...geom4(out), ...geom4(self), chans(self), ...hw(self), ...hw(out)],
    out.numel,
    body,
    ADAPTIVE,
  );
}

export const adaptiveAvgPool2d: BackendImpls['adaptiveAvgPool2d'] = (out, self) => adaptiveRun(out, self, floatKind('adaptive_avg_pool2d', self));

export const adaptiveAvgPool2dChannelsLast: BackendImpls['adaptiveAvgPool2dChannelsLast'] = (out, self) => {
  const fk = hookKind(self, out);
  if (!fk) return false;
  adaptiveRun(out, self, fk);
};

/** A gather: each input pixel sums gradOutput / window size over the windows that contain it. */
function adaptiveBackwardRun(gradInput: TensorImpl, gradOutput: TensorImpl, fk: FloatKind): void {
  const op = 'adaptive_avg_pool2d_backward';
  const body = `${paramLets([...G('g'), ...G('o'), 'C', 'H', 'W', 'oH', 'oW'])}
${IN_INDEX}
  let ohs = (h * oH) / H; let ohe = min(((h + 1) * oH + H - 1) / H, oH);
  let ows = (w * oW) / W; let owe = min(((w + 1) * oW + W - 1) / W, oW);
  var s = 0.0;
  for (var oh = ohs; oh < ohe; oh++) {
    let h0 = ad_start(oh, H, oH); let h1 = ad_end(oh, H, oH);
    if (h < h0 || h >= h1) { continue; }
    for (var ow = ows; ow < owe; ow++) {
      let w0 = ad_start(ow, W, oW); let w1 = ad_end(ow, W, oW);
      if (w < w0 || w >= w1) { continue; }
      s += ld1(${elemAt('o', 'oh', 'ow')}) / f32((h1 - h0) * (w1 - w0));
    }
  }
  st0(${elemAt('g', 'h', 'w')}, s);`;
  runSpatial(
    op,
    'adaptiveavgpool2d-backward',
    [{ t: gradInput, kind: fk, output: true }, { t: gradOutput, kind: fk }],
    [...geom4(gradInput), ...geom4(gradOutput), chans(gradInput), ...hw(gradInput), ...hw(gradOutput)],
    gradInput.numel,
    body,
    ADAPTIVE,
  );
}

export const adaptiveAvgPool2dBackward: BackendImpls['adaptiveAvgPool2dBackward'] = (gradInput, gradOutput) =>
  adaptiveBackwardRun(gradInput, gradOutput, floatKind('adaptive_avg_pool2d_backward', gradInput));

export const adaptiveAvgPool2dBackwardChannelsLast: BackendImpls['adaptiveAvgPool2dBackwardChannelsLast'] = (gradInput, gradOutput) => {
  const fk = hookKind(gradInput, gradOutput);
  if (!fk) return false;
  adaptiveBackwardRun(gradInput, gradOutput, fk);
};

/**
 * Note [WebGPU channels-last adaptive max pooling]
 * adaptive_max_pool2d has no NCHW kernel here (core's composite gathers window tables); on
 * dense channels-last operands (Note [Channels-last pooling impls]) it runs as the adaptive
 * windows of adaptiveRun with max pooling's rule: NaN wins and the last NaN of a window names
 * the index, else the first maximum; indices h * W + w within the plane, int64. The backward
 * is a gather like adaptive avg pooling's: each input pixel sums, in output order, the
 * gradOutput elements of the windows containing it whose index names it.
 */
function adaptiveMaxRun(out: TensorImpl, indices: TensorImpl, self: TensorImpl, fk: FloatKind): void {
  const op = 'adaptive_max_pool2d';
  const body = `${paramLets([...G('o'), ...G('i'), ...G('x'), 'C', 'H', 'W', 'oH', 'oW'])}
${OUT_INDEX}
  let h0 = ad_start(oh, H, oH); let h1 = ad_end(oh, H, oH);
  let w0 = ad_start(ow, W, oW); let w1 = ad_end(ow, W, oW);
${windowMax('1', '1')}`;
  runSpatial(
    op,
    'adaptivemaxpool2d',
    [{ t: out, kind: fk, output: true }, { t: indices, kind: 'i64', output: true }, { t: self, kind: fk }],
    [...geom4(out), ...geom4(indices), ...geom4(self), chans(self), ...hw(self), ...hw(out)],
    out.numel,
    body,
    ADAPTIVE,
  );
}

export const adaptiveMaxPool2dChannelsLast: BackendImpls['adaptiveMaxPool2dChannelsLast'] = (out, indices, self) => {
  const fk = hookKind(self, out);
  if (!fk || indices.dtype !== 'int64') return false;
  adaptiveMaxRun(out, indices, self, fk);
};

function adaptiveMaxBackwardRun(gradInput: TensorImpl, gradOutput: TensorImpl, indices: TensorImpl, fk: FloatKind): void {
  const op = 'adaptive_max_pool2d_backward';
  const body = `${paramLets([...G('g'), ...G('o'), ...G('i'), 'C', 'H', 'W', 'oH', 'oW'])}
${IN_INDEX}
  let ohs = (h * oH) / H; let ohe = min(((h + 1) * oH + H - 1) / H, oH);
  let ows = (w * oW) / W; let owe = min(((w + 1) * oW + W - 1) / W, oW);
${GATHER_BY_INDEX}`;
  runSpatial(
    op,
    'adaptivemaxpool2d-backward',
    [{ t: gradInput, kind: fk, output: true }, { t: gradOutput, kind: fk }, { t: indices, kind: 'i64' }],
    [...geom4(gradInput), ...geom4(gradOutput), ...geom4(indices), chans(gradInput), ...hw(gradInput), ...hw(gradOutput)],
    gradInput.numel,
    body,
  );
}

export const adaptiveMaxPool2dBackwardChannelsLast: BackendImpls['adaptiveMaxPool2dBackwardChannelsLast'] = (gradInput, gradOutput, indices) => {
  const fk = hookKind(gradInput, gradOutput);
  if (!fk || indices.dtype !== 'int64') return false;
  adaptiveMaxBackwardRun(gradInput, gradOutput, indices, fk);
};

export const poolingImpls = {
  maxPool2d,
  maxPool2dBackward,
  avgPool2d,
  avgPool2dBackward,
  adaptiveAvgPool2d,
  adaptiveAvgPool2dBackward,
  // Note [WebGPU channels-last pooling]
  maxPool2dChannelsLast,
  maxPool2dBackwardChannelsLast,
  avgPool2dChannelsLast,
  avgPool2dBackwardChannelsLast,
  adaptiveAvgPool2dChannelsLast,
  adaptiveAvgPool2dBackwardChannelsLast,
  // Note [WebGPU channels-last adaptive max pooling]
  adaptiveMaxPool2dChannelsLast,
  adaptiveMaxPool2dBackwardChannelsLast,
};
