import { DTypeError, TensorImpl, type BackendImpls, type Conv2dGeometry } from '@torch-ts/core';
import { isNarrowIntKind, kindOf, loadExpr, storeStmt, valueType, type Kind } from '../wgsl/kinds';
import { geom, paramLets, runSpatial } from '../wgsl/spatial';
import { copy } from './pointwise';

/**
 * Note [WebGPU convolution]
 * Core runs every convolution (conv1d, conv2d, their transposes, and all three gradients) as
 * im2col / col2im plus the backend's `mm` on views (Note [Convolution as GEMM] in core's
 * conv.ts), so the WebGPU backend adds the two data-movement kernels and reuses the tiled
 * matmul (kernels/matmul.ts) for the arithmetic:
 *  - im2col: one invocation per column element (row (c, i, j), column (oh, ow)) reads its
 *    pixel or writes 0 in the padding: a pure gather, any strides on both sides;
 *  - col2im (the adjoint): one invocation per image pixel sums the column elements of the
 *    kernel taps that land on it, i.e. the (i, j) with (h + pH - i dH) divisible by sH and
 *    the quotient a valid output row (same for w). No atomics, and each pixel sums in the
 *    same (i, j) order as the CPU kernel.
 * float32 and int32 (uint8 im2col too: PyTorch's CPU convolution takes uint8, and the matmul
 * widens it to int32); int64 and the other dtypes raise `kindOf`'s DTypeError.
 */
const GEOM = ['C', 'H', 'W', 'kH', 'kW', 'sH', 'sW', 'pH', 'pW', 'dH', 'dW', 'oH', 'oW'];

function geometryWords(g: Conv2dGeometry): number[] {
  return [g.channels, g.height, g.width, g.kernelH, g.kernelW, g.strideH, g.strideW, g.padH, g.padW, g.dilationH, g.dilationW, g.outH, g.outW];
}

export const im2col: BackendImpls['im2col'] = (col: TensorImpl, image: TensorImpl, g: Conv2dGeometry) => {
  const op = 'im2col';
  const k = kindOf(op, col.dtype);
  const zero = valueType(k) === 'f32' ? '0.0' : valueType(k) === 'i32' ? '0' : '0u';
  const body = `${paramLets(['cOff', 'cRs', 'cCs', 'xOff', 'xc', 'xh', 'xw', ...GEOM])}
  let L = oH * oW;
  let r = i32(idx) / L; let q = i32(idx) % L;
  let j = r % kW; let t = r / kW; let i = t % kH; let c = t / kH;
  let oh = q / oW; let ow = q % oW;
  let ih = oh * sH - pH + i * dH;
  let iw = ow * sW - pW + j * dW;
  var v: ${valueType(k)} = ${zero};
  if (ih >= 0 && ih < H && iw >= 0 && iw < W) { v = ${loadExpr(1, k, 'u32(xOff + c * xc + ih * xh + iw * xw)')}; }
  ${storeStmt(0, k, 'u32(cOff + r * cRs + q * cCs)', 'v')}`;
  runSpatial(op, 'im2col', [{ t: col, kind: k, output: true }, { t: image, kind: k }], [...geom(col), ...geom(image), ...geometryWords(g)], col.numel, body);
};

export const col2im: BackendImpls['col2im'] = (image: TensorImpl, col: TensorImpl, g: Conv2dGeometry) => {
  const op = 'col2im';
  const k = kindOf(op, image.dtype);
  if (k !== 'f32' && k !== 'i32') throw new DTypeError(`${op}: "${op}" not implemented for '${image.dtype}' on webgpu`);
  const body = `${paramLets(['xOff', 'xc', 'xh', 'xw', 'cOff', 'cRs', 'cCs', ...GEOM])}
  let w = i32(idx) % W; let t = i32(idx) / W; let h = t % H; let c = t / H;
  var acc: ${valueType(k)} = ${k === 'f32' ? '0.0' : '0'};
  for (var i = 0; i < kH; i++) {
    let th = h + pH - i * dH;
    if (th < 0) { break; }
    if (th % sH != 0) { continue; }
    let oh = th / sH;
    if (oh >= oH) { continue; }
    for (var j = 0; j < kW; j++) {
      let tw = w + pW - j * dW;
      if (tw < 0) { break; }
      if (tw % sW != 0) { continue; }
      let ow = tw / sW;
      if (ow >= oW) { continue; }
      acc += b1[u32(cOff + ((c * kH + i) * kW + j) * cRs + (oh * oW + ow) * cCs)];
    }
  }
  b0[u32(xOff + c * xc + h * xh + w * xw)] = acc;`;
  runSpatial(op, 'col2im', [{ t: image, kind: k, output: true }, { t: col, kind: k }], [...geom(image), ...geom(col), ...geometryWords(g)], image.numel, body);
};


/**
 * Note [WebGPU direct convolution]
 * im2col + mm costs a dispatch (two, with the column matrix) per batch element and group,
 * and the tiled matmul's workgroup barriers are what SwiftShader runs slowest: a 28x28 MNIST
 * convolution of a batch of 32 took seconds. So WebGPU registers the direct impls of Note
 * [Direct convolution impls]: one dispatch per convolution for the whole batch and every
 * group, with no workgroup memory and no materialised columns.
 *  - conv2d: one invocation per (n, block of 4 output channels of a group, oh, block of 4
 *    ow) accumulates a 4x4 register tile over the taps (i, j) and, innermost (the long
 *    loop, with the padding tests hoisted out of it), the input channels c: each input
 *    load feeds 4 channels and each weight load 4 columns; the bias is added to the finished
 *    sums in the same dispatch.
 *  - conv2dInputGrad (the transposed convolution): one invocation per (n, block of 4 input
 *    channels, h, w; 4 adjacent w at stride 1) sums, over the kernel taps (i, j) that land on (h, w) (those with
 *    h + pH - i dH a multiple of sH, as in col2im) and then over the output channels of
 *    its group, gradOut times the 4 weights: a gather, no atomics, summed in the CPU
 *    path's order (col2im's (i, j) outside, the GEMM's channel sum inside).
 *  - conv2dWeightGrad: a reduction over n, oh, ow for each weight element (a 4x4 tile of
 *    output x input channels per invocation, for one tap), split over S chunks of the
 *    (n, oh) rows so that a small weight (144 elements for MNIST's first layer) still
 *    fills the device: the first pass writes S partial sums per element, a second sums
 *    them in chunk order (deterministic).
 * float32 and int32 (int32 wraps, as PyTorch's integer convolution); uint8 runs in int32
 * copies and wraps on the way back, as the matmul does.
 */
const DIRECT = ['G', 'cig', 'cog', 'H', 'W', 'kH', 'kW', 'sH', 'sW', 'pH', 'pW', 'dH', 'dW', 'oH', 'oW'];

function geom4(t: TensorImpl): number[] {
  return [t.storageOffset, ...t.strides];
}

function directWords(g: Conv2dGeometry, groups: number, cog: number): number[] {
  return [groups, g.channels, cog, g.height, g.width, g.kernelH, g.kernelW, g.strideH, g.strideW, g.padH, g.padW, g.dilationH, g.dilationW, g.outH, g.outW];
}

/** Runs `f` on int32 copies of uint8, int8 and int16 operands (results copied back, wrapping), else on the operands. */
function widened(op: string, out: TensorImpl, inputs: readonly TensorImpl[], f: (k: Kind, out: TensorImpl, inputs: readonly TensorImpl[]) => void): void {
  const k = kindOf(op, out.dtype);
  if (k === 'f32' || k === 'i32') return f(k, out, inputs);
  if (k !== 'u8' && !isNarrowIntKind(k)) throw new DTypeError(`${op}: "${op}" not implemented for '${out.dtype}' on webgpu`);
  const wide = [out, ...inputs].map((t) => TensorImpl.empty(op, t.sizes, 'int32', t.device));
  try {
    wide.slice(1).forEach((w, i) => copy(w, inputs[i]));
    f('i32', wide[0], wide.slice(1));
    copy(out, wide[0]);
  } finally {
    for (const w of wide) w.release();
  }
}

const zeroOf = (k: Kind) => (k === 'f32' ? '0.0' : '0');

export const conv2d: BackendImpls['conv2d'] = (out, x, w, g, groups, bias) => {
  const op = 'conv2d';
  const cog = out.sizes[1] / groups;
  const cb = Math.ceil(cog / 4);
  const owb = Math.ceil(g.outW / 4);
  widened(op, out, bias ? [x, w, bias] : [x, w], (k, o, [xi, wi, bi]) => {
    const t = valueType(k);
    const z = zeroOf(k);
    // the input element of output column ow0 + d at this tap (0 in the padding)
    const xload = (d: number) => `select(${z}, b1[u32(xc + col${d})], ok${d})`;
    const store = (d: number) => {
      const a = `acc${d}`;
      return `  if (ow0 + ${d} < oW) {
    let ob = obase + (ow0 + ${d}) * o3;
    b0[u32(ob)] = ${a}.x;
    if (nv > 1) { b0[u32(ob + o1)] = ${a}.y; }
    if (nv > 2) { b0[u32(ob + 2 * o1)] = ${a}.z; }
    if (nv > 3) { b0[u32(ob + 3 * o1)] = ${a}.w; }
  }`;
    };
    const body = `${paramLets(['oOff', 'o0', 'o1', 'o2', 'o3', 'xOff', 'x0', 'x1', 'x2', 'x3', 'wOff', 'w0', 'w1', 'w2', 'w3', ...DIRECT, 'CB', 'OWB', ...(bi ? ['bOff', 'bs'] : [])])}
  let owb = i32(idx) % OWB; var q = i32(idx) / OWB;
  let oh = q % oH; q = q / oH;
  let cb = q % CB; q = q / CB;
  let gi = q % G; let n = q / G;
  let ow0 = owb * 4;
  let c0 = cb * 4;
  let co = gi * cog + c0;
  let last = gi * cog + cog - 1;
  let wb0 = wOff + co * w0;
  let wb1 = wOff + min(co + 1, last) * w0;
  let wb2 = wOff + min(co + 2, last) * w0;
  let wb3 = wOff + min(co + 3, last) * w0;
  let ih0 = oh * sH - pH;
  let xb = xOff + n * x0 + gi * cig * x1;
  var acc0 = vec4<${t}>(${z}); var acc1 = vec4<${t}>(${z}); var acc2 = vec4<${t}>(${z}); var acc3 = vec4<${t}>(${z});
  for (var i = 0; i < kH; i++) {
    let ih = ih0 + i * dH;
    if (ih < 0 || ih >= H) { continue; }
    let xr = xb + ih * x2;
    for (var j = 0; j < kW; j++) {
      let iwb = ow0 * sW - pW + j * dW;
${[0, 1, 2, 3].map((d) => `      let ok${d} = iwb + ${d} * sW >= 0 && iwb + ${d} * sW < W; let col${d} = clamp(iwb + ${d} * sW, 0, W - 1) * x3;`).join('\n')}
      let wt = i * w2 + j * w3;
      for (var c = 0; c < cig; c++) {
        let xc = xr + c * x1;
        let wo = wt + c * w1;
        let wv = vec4<${t}>(b2[u32(wb0 + wo)], b2[u32(wb1 + wo)], b2[u32(wb2 + wo)], b2[u32(wb3 + wo)]);
        acc0 += ${xload(0)} * wv;
        acc1 += ${xload(1)} * wv;
        acc2 += ${xload(2)} * wv;
        acc3 += ${xload(3)} * wv;
      }
    }
  }
  let obase = oOff + n * o0 + co * o1 + oh * o2;
  let nv = cog - c0;
${bi ? `  let bv = vec4<${t}>(b3[u32(bOff + co * bs)], b3[u32(bOff + min(co + 1, last) * bs)], b3[u32(bOff + min(co + 2, last) * bs)], b3[u32(bOff + min(co + 3, last) * bs)]);
  acc0 += bv; acc1 += bv; acc2 += bv; acc3 += bv;` : ''}
${[0, 1, 2, 3].map(store).join('\n')}`;
    const n = out.sizes[0] * groups * cb * g.outH * owb;
    const operands = [{ t: o, kind: k, output: true }, { t: xi, kind: k }, { t: wi, kind: k }, ...(bi ? [{ t: bi, kind: k }] : [])];
    const words = [...geom4(o), ...geom4(xi), ...geom4(wi), ...directWords(g, groups, cog), cb, owb, ...(bi ? [bi.storageOffset, bi.strides[0]] : [])];
    runSpatial(op, bi ? 'conv2d-direct-bias' : 'conv2d-direct', operands, words, n, body);
  });
};

export const conv2dInputGrad: BackendImpls['conv2dInputGrad'] = (image, cols, w, g, groups) => {
  const op = 'conv2d_input_grad';
  const cog = cols.sizes[1] / groups;
  const cig = g.channels;
  const cb = Math.ceil(cig / 4);
  widened(op, image, [cols, w], (k, o, [ci, wi]) => {
    const t = valueType(k);
    const body = `${paramLets(['oOff', 'o0', 'o1', 'o2', 'o3', 'cOff', 'c0s', 'c1s', 'c2s', 'c3s', 'wOff', 'w0', 'w1', 'w2', 'w3', ...DIRECT, 'CB'])}
  let w = i32(idx) % W; var q = i32(idx) / W;
  let h = q % H; q = q / H;
  let cb = q % CB; q = q / CB;
  let gi = q % G; let n = q / G;
  let c0 = cb * 4;
  let lastc = cig - 1;
  let wc0 = c0 * w1;
  let wc1 = min(c0 + 1, lastc) * w1;
  let wc2 = min(c0 + 2, lastc) * w1;
  let wc3 = min(c0 + 3, lastc) * w1;
  let gb = cOff + n * c0s + gi * cog * c1s;
  let wg = wOff + gi * cog * w0;
  var acc = vec4<${t}>(${zeroOf(k)});
  for (var i = 0; i < kH; i++) {
    let th = h + pH - i * dH;
    if (th < 0) { break; }
    if (th % sH != 0) { continue; }
    let oh = th / sH;
    if (oh >= oH) { continue; }
    for (var j = 0; j < kW; j++) {
      let tw = w + pW - j * dW;
      if (tw < 0) { break; }
      if (tw % sW != 0) { continue; }
      let ow = tw / sW;
      if (ow >= oW) { continue; }
      let gp = gb + oh * c2s + ow * c3s;
      let wt = wg + i * w2 + j * w3;
      var part = vec4<${t}>(${zeroOf(k)});
      for (var co = 0; co < cog; co++) {
        let gv = b1[u32(gp + co * c1s)];
        let wr = wt + co * w0;
        part += gv * vec4<${t}>(b2[u32(wr + wc0)], b2[u32(wr + wc1)], b2[u32(wr + wc2)], b2[u32(wr + wc3)]);
      }
      acc += part;
    }
  }
  let ob = oOff + n * o0 + (gi * cig + c0) * o1 + h * o2 + w * o3;
  let nv = cig - c0;
  b0[u32(ob)] = acc.x;
  if (nv > 1) { b0[u32(ob + o1)] = acc.y; }
  if (nv > 2) { b0[u32(ob + 2 * o1)] = acc.z; }
  if (nv > 3) { b0[u32(ob + 3 * o1)] = acc.w; }`;
    const operands = [{ t: o, kind: k, output: true }, { t: ci, kind: k }, { t: wi, kind: k }];
    if (g.strideH === 1 && g.strideW === 1) {
      const wb = Math.ceil(g.width / 4);
      const n = image.sizes[0] * groups * cb * g.height * wb;
      runSpatial(op, 'conv2d-input-grad-s1', operands, [...geom4(o), ...geom4(ci), ...geom4(wi), ...directWords(g, groups, cog), cb, wb], n, unitStrideInputGrad(k));
      return;
    }
    const n = image.sizes[0] * groups * cb * g.height * g.width;
    runSpatial(op, 'conv2d-input-grad', operands, [...geom4(o), ...geom4(ci), ...geom4(wi), ...directWords(g, groups, cog), cb], n, body);
  });
};

/**
 * conv2dInputGrad for stride 1 (the usual 'same' convolution): 4 adjacent pixels per
 * invocation, whose taps (i, j) read 4 adjacent gradOut columns, so each weight load feeds
 * 4 pixels as each gradOut load feeds 4 channels (a 4x4 register tile, as conv2d's).
 */
function unitStrideInputGrad(k: Kind): string {
  const t = valueType(k);
  const z = zeroOf(k);
  const lane = (d: number) => `select(${z}, b1[u32(gr + clamp(owb + ${d}, 0, oW - 1) * c3s + co * c1s)], owb + ${d} >= 0 && owb + ${d} < oW)`;
  const store = (d: number) => `  if (px0 + ${d} < W) {
    let ob = obase + (px0 + ${d}) * o3;
    b0[u32(ob)] = acc${d}.x;
    if (nv > 1) { b0[u32(ob + o1)] = acc${d}.y; }
    if (nv > 2) { b0[u32(ob + 2 * o1)] = acc${d}.z; }
    if (nv > 3) { b0[u32(ob + 3 * o1)] = acc${d}.w; }
  }`;
  return `${paramLets(['oOff', 'o0', 'o1', 'o2', 'o3', 'cOff', 'c0s', 'c1s', 'c2s', 'c3s', 'wOff', 'w0', 'w1', 'w2', 'w3', ...DIRECT, 'CB', 'WB'])}
  let wblk = i32(idx) % WB; var q = i32(idx) / WB;
  let h = q % H; q = q / H;
  let cb = q % CB; q = q / CB;
  let gi = q % G; let n = q / G;
  let px0 = wblk * 4;
  let c0 = cb * 4;
  let lastc = cig - 1;
  let wc0 = c0 * w1;
  let wc1 = min(c0 + 1, lastc) * w1;
  let wc2 = min(c0 + 2, lastc) * w1;
  let wc3 = min(c0 + 3, lastc) * w1;
  let gb = cOff + n * c0s + gi * cog * c1s;
  let wg = wOff + gi * cog * w0;
  var acc0 = vec4<${t}>(${z}); var acc1 = vec4<${t}>(${z}); var acc2 = vec4<${t}>(${z}); var acc3 = vec4<${t}>(${z});
  for (var i = 0; i < kH; i++) {
    let oh = h + pH - i * dH;
    if (oh < 0) { break; }
    if (oh >= oH) { continue; }
    let gr = gb + oh * c2s;
    for (var j = 0; j < kW; j++) {
      let owb = px0 + pW - j * dW;
      let wt = wg + i * w2 + j * w3;
      var p0 = vec4<${t}>(${z}); var p1 = vec4<${t}>(${z}); var p2 = vec4<${t}>(${z}); var p3 = vec4<${t}>(${z});
      for (var co = 0; co < cog; co++) {
        let wr = wt + co * w0;
        let wv = vec4<${t}>(b2[u32(wr + wc0)], b2[u32(wr + wc1)], b2[u32(wr + wc2)], b2[u32(wr + wc3)]);
        p0 += ${lane(0)} * wv;
        p1 += ${lane(1)} * wv;
        p2 += ${lane(2)} * wv;
        p3 += ${lane(3)} * wv;
      }
      acc0 += p0; acc1 += p1; acc2 += p2; acc3 += p3;
    }
  }
  let obase = oOff + n * o0 + (gi * cig + c0) * o1 + h * o2;
  let nv = cig - c0;
${[0, 1, 2, 3].map(store).join('\n')}`;
}

/** Invocations the weight-grad reduction aims at (elements x chunks). */
const WEIGHT_GRAD_TARGET = 32768;

export const conv2dWeightGrad: BackendImpls['conv2dWeightGrad'] = (gw, cols, x, g, groups) => {
  const op = 'conv2d_weight_grad';
  const cog = cols.sizes[1] / groups;
  const cb = Math.ceil(cog / 4);
  const ib = Math.ceil(g.channels / 4);
  const E = gw.numel;
  // invocations: (group, block of 4 output channels, block of 4 input channels, i, j) x chunk
  const blocks = groups * cb * ib * g.kernelH * g.kernelW;
  const rows = x.sizes[0] * g.outH;
  const S = Math.max(1, Math.min(rows, Math.floor(WEIGHT_GRAD_TARGET / blocks)));
  const R = Math.ceil(rows / S);
  widened(op, gw, [cols, x], (k, o, [ci, xi]) => {
    const t = valueType(k);
    const z = zeroOf(k);
    const partial = S > 1 ? TensorImpl.empty(op, [S, E], o.dtype, o.device) : null;
    try {
      // element (co + a, c + b, i, j) of gw: at its strides, or flat in chunk s's row of the partial sums
      const dst = (a: number, b: number) => {
        const v = `acc${b}.${'xyzw'[a]}`;
        const at = partial ? `s * E + ((co + ${a}) * cig + c + ${b}) * kk + tap` : `oOff + (co + ${a}) * o0 + (c + ${b}) * o1 + i * o2 + j * o3`;
        return `if (nv > ${a} && mv > ${b}) { b0[u32(${at})] = ${v}; }`;
      };
      const body = `${paramLets(['oOff', 'o0', 'o1', 'o2', 'o3', 'cOff', 'c0s', 'c1s', 'c2s', 'c3s', 'xOff', 'x0', 'x1', 'x2', 'x3', ...DIRECT, 'E', 'R', 'rows', 'CB', 'IB', 'NB'])}
  let e = i32(idx) % NB; let s = i32(idx) / NB;
  let j = e % kW; var q = e / kW;
  let i = q % kH; q = q / kH;
  let ib = q % IB; q = q / IB;
  let cb = q % CB; let gi = q / CB;
  let co = gi * cog + cb * 4;
  let c = ib * 4;
  let nv = gi * cog + cog - co;
  let mv = cig - c;
  let kk = kH * kW;
  let tap = i * kW + j;
  let kw = j * dW - pW;
  let owLo = select(0, (-kw + sW - 1) / sW, kw < 0);
  let owHi = select(min(oW, (W - 1 - kw) / sW + 1), 0, W - 1 - kw < 0);
  let r0 = s * R;
  let r1 = min(r0 + R, rows);
  // channel offsets of the 4 gradOut and the 4 input channels (repeating the last past the end)
  let g1 = min(1, nv - 1) * c1s; let g2 = min(2, nv - 1) * c1s; let g3 = min(3, nv - 1) * c1s;
  let e1 = min(1, mv - 1) * x1; let e2 = min(2, mv - 1) * x1; let e3 = min(3, mv - 1) * x1;
  var acc0 = vec4<${t}>(${z}); var acc1 = vec4<${t}>(${z}); var acc2 = vec4<${t}>(${z}); var acc3 = vec4<${t}>(${z});
  for (var r = r0; r < r1; r++) {
    let n = r / oH; let oh = r % oH;
    let ih = oh * sH - pH + i * dH;
    if (ih < 0 || ih >= H) { continue; }
    let gr = cOff + n * c0s + co * c1s + oh * c2s;
    let xr = xOff + n * x0 + (gi * cig + c) * x1 + ih * x2 + kw * x3;
    for (var ow = owLo; ow < owHi; ow++) {
      let gp = gr + ow * c3s;
      let xp = xr + ow * sW * x3;
      let gv = vec4<${t}>(b1[u32(gp)], b1[u32(gp + g1)], b1[u32(gp + g2)], b1[u32(gp + g3)]);
      acc0 += b2[u32(xp)] * gv;
      acc1 += b2[u32(xp + e1)] * gv;
      acc2 += b2[u32(xp + e2)] * gv;
      acc3 += b2[u32(xp + e3)] * gv;
    }
  }
${[0, 1, 2, 3].flatMap((a) => [0, 1, 2, 3].map((b) => `  ${dst(a, b)}`)).join('\n')}`;
      runSpatial(
        op,
        `conv2d-weight-grad${partial ? '-split' : ''}`,
        [{ t: partial ?? o, kind: k, output: true }, { t: ci, kind: k }, { t: xi, kind: k }],
        [...geom4(o), ...geom4(ci), ...geom4(xi), ...directWords(g, groups, cog), E, R, rows, cb, ib, blocks],
        blocks * S,
        body,
      );
      if (partial) {
        const sum = `${paramLets(['oOff', 'o0', 'o1', 'o2', 'o3', 'E', 'S', 'kH', 'kW', 'cig'])}
  let e = i32(idx);
  let j = e % kW; var q = e / kW;
  let i = q % kH; q = q / kH;
  let c = q % cig; let co = q / cig;
  var acc: ${t} = ${z};
  for (var s = 0; s < S; s++) { acc += b1[u32(s * E + e)]; }
  b0[u32(oOff + co * o0 + c * o1 + i * o2 + j * o3)] = acc;`;
        runSpatial(op, 'conv2d-weight-grad-sum', [{ t: o, kind: k, output: true }, { t: partial, kind: k }], [...geom4(o), E, S, g.kernelH, g.kernelW, g.channels], E, sum);
      }
    } finally {
      partial?.release();
    }
  });
};

/**
 * Note [WebGPU channels-last convolution]
 * core hands `conv2dChannelsLast` a dense channels-last input and output (Note
 * [Channels-last convolution impl] in core). conv2d's direct kernel already addresses every
 * operand through its storage offset and strides, which are uniform parameters (Note [WebGPU
 * direct convolution]), so the same pipeline reads NHWC and writes NHWC: no new WGSL source
 * (no pipeline to compile) and none of the two layout copies. The layout even suits the kernel:
 * its innermost loop runs over input channels, at stride 1 in NHWC (H W apart in NCHW), and
 * the 4 output channels of a register tile are adjacent when stored. float32 and int32, the
 * kinds the kernel computes in natively; the rest decline (uint8 / int8 / int16 would widen
 * through contiguous int32 copies, the copies this path exists to avoid; core never passes
 * 16-bit floats, which convolve in float32 copies), and core takes the contiguous path.
 * The gradients likewise: `conv2dInputGrad` and `conv2dWeightGrad` read grad_output, the input
 * and the weight through their strides and write the input gradient through its own, so the
 * channels-last gradient impls are those kernels on the NHWC operands (float32: gradients are
 * floating).
 */
export const conv2dChannelsLast: BackendImpls['conv2dChannelsLast'] = (out, x, w, g, groups, bias) => {
  if (out.dtype !== 'float32' && out.dtype !== 'int32') return false;
  conv2d(out, x, w, g, groups, bias);
  return true;
};

export const conv2dChannelsLastInputGrad: BackendImpls['conv2dChannelsLastInputGrad'] = (image, cols, w, g, groups) => {
  if (image.dtype !== 'float32') return false;
  conv2dInputGrad(image, cols, w, g, groups);
  return true;
};

export const conv2dChannelsLastWeightGrad: BackendImpls['conv2dChannelsLastWeightGrad'] = (gw, cols, x, g, groups) => {
  if (gw.dtype !== 'float32') return false;
  conv2dWeightGrad(gw, cols, x, g, groups);
  return true;
};

export const convImpls = {
  im2col,
  col2im,
  conv2d,
  conv2dChannelsLast,
  conv2dChannelsLastInputGrad,
  conv2dChannelsLastWeightGrad,
  conv2dInputGrad,
  conv2dWeightGrad,
};
