/**
 * The fast pointwise paths (Note [Pointwise vec4 layout]): the vec4 variant on broadcast and
 * strided operands (a bias add, a per-row scalar), the fallbacks where the layout does not
 * allow it, and the branch-light exp_f / exp_f4 / sigmoid_f4, checked bit for bit against the
 * formulas they replaced (kept here verbatim as WGSL).
 */
import { describe, expect, it } from 'vitest';
import { Tensor, TensorImpl, TensorIterator, add, add_, exp, exp2, expand, gelu, mul, narrow, permute, sigmoid, silu, sub, tanh } from '@torch-ts/core';
import { pointwiseVec4Layout, runPointwise } from '../src/kernels/launch';
import { rowExpr, SCALAR_OPS, UNARY_OPS } from '../src/kernels/pointwise-ops';
import type { Kind } from '../src/wgsl/kinds';
import { gpuTensor, readValues, WEBGPU, webgpuReady } from './helpers';

function seq(n: number, f: (i: number) => number): number[] {
  return Array.from({ length: n }, (_, i) => f(i));
}

const f32 = (x: number) => Math.fround(x);

/** The layout runPointwise picks for `out = f(inputs)`: inputs broadcast to `sizes` as core does. */
function layout(row: 'add' | 'exp', sizes: number[], inputs: Tensor[], kind: Kind = 'f32') {
  const e = row === 'add' ? rowExpr(SCALAR_OPS.add, 'f')! : rowExpr(UNARY_OPS.exp, 'f')!;
  const outStrides = sizes.map((_, d) => sizes.slice(d + 1).reduce((a, b) => a * b, 1));
  const views = inputs.map((t) => expand(t, sizes));
  const it = new TensorIterator(sizes, [outStrides, ...views.map((v) => v.impl.strides)]);
  const r = pointwiseVec4Layout(e, inputs.map(() => kind).concat(kind), it, [0, ...views.map((v) => v.impl.storageOffset)]);
  return { vec4: r.vec4, splat: r.splat.slice(1) };
}

/** The row-major values of `f(i, j)` over an [r, c] grid (JS references). */
function grid2(r: number, c: number, f: (i: number, j: number) => number): number[] {
  const out: number[] = [];
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) out.push(f(i, j));
  return out;
}

// The formulas exp_f, exp2_f, tanh_f and sigmoid_f had before they became branch-light (the references).
const OLD_HELPERS = /* wgsl */ `
fn exp_old(x: f32) -> f32 {
  if (isnan_f(x)) { return x; }
  if (x > 88.8) { return inf_f(); }
  if (x < -104.0) { return 0.0; }
  let n = round(x * 1.4426950408889634);
  let r = (x - n * 0.693145751953125) - n * 1.428606765330187e-06;
  let p = 1.0 + r * (1.0 + r * (0.5 + r * (0.16666666666666666 + r * (0.041666666666666664 + r * (0.008333333333333333 + r * (0.001388888888888889 + r * 0.0001984126984126984))))));
  let ni = i32(n);
  let h = ni / 2;
  return ldexp(ldexp(p, h), ni - h);
}
fn exp2_old(x: f32) -> f32 {
  if (isnan_f(x)) { return x; }
  if (x >= 128.0) { return inf_f(); }
  if (x < -150.0) { return 0.0; }
  let n = round(x);
  let ni = i32(n);
  let h = ni / 2;
  return ldexp(ldexp(exp_old((x - n) * 0.6931471805599453), h), ni - h);
}
fn tanh_old(x: f32) -> f32 {
  if (isnan_f(x)) { return x; }
  if (abs(x) < 0.55) {
    let x2 = x * x;
    return x * (1.0 + x2 * (-0.3333333333 + x2 * (0.1333333333 + x2 * (-0.0539682540 + x2 * (0.0218694885 + x2 * (-0.0088632355))))));
  }
  let e = expm1_f(2.0 * min(abs(x), 20.0));
  return sign(x) * e / (e + 2.0);
}
fn sigmoid_old(x: f32) -> f32 {
  if (x >= 0.0) { return 1.0 / (1.0 + exp_old(-x)); }
  let e = exp_old(x);
  return e / (1.0 + e);
}`;

function runOld(expr: string, x: Tensor): Tensor {
  const out = TensorImpl.empty('test', x.impl.sizes, 'float32', WEBGPU);
  runPointwise('test', `old:${expr}`, { expr, helpers: OLD_HELPERS }, out, [x.impl], ['f32', 'f32']);
  return new Tensor(out);
}

/** float32 bit patterns, NaN as one pattern. */
function bits(v: readonly number[]): number[] {
  const f = new Float32Array(v.length), u = new Uint32Array(f.buffer);
  v.forEach((x, i) => (f[i] = Number.isNaN(x) ? NaN : x));
  return Array.from(u, (w, i) => (Number.isNaN(v[i]) ? 0x7fc00000 : w));
}

/** exp's input sweep: the whole range, both edges finely, subnormals, specials, random bit patterns. */
function expInputs(): number[] {
  const xs: number[] = [];
  for (let x = -110; x <= 95; x += 0.0123) xs.push(f32(x));
  for (let x = -104.2; x <= -86; x += 0.000731) xs.push(f32(x)); // subnormal and smallest normal results
  for (let x = 88.6; x <= 89; x += 0.0000117) xs.push(f32(x)); // overflow edge
  const u = new Uint32Array(1), f = new Float32Array(u.buffer);
  for (const w of [0x00000001, 0x00000010, 0x007fffff, 0x00800000, 0x80000001, 0x807fffff]) {
    u[0] = w;
    xs.push(f[0]);
  }
  let s = 12345;
  for (let i = 0; i < 20000; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    u[0] = s;
    xs.push(f[0]);
  }
  xs.push(Infinity, -Infinity, NaN, 0, -0, -104, 88.8, f32(88.72283), f32(-87.33655), f32(-103.27893));
  while (xs.length % 4 !== 0) xs.push(1);
  return xs;
}

describe.skipIf(!webgpuReady)('WebGPU pointwise fast paths', () => {
  it('picks the vec4 variant for bias adds, per-row scalars, aligned strided views; not for unaligned ones', () => {
    const m = gpuTensor(seq(64 * 16, (i) => i), 'float32', [64, 16]);
    const bias = gpuTensor(seq(16, (i) => i), 'float32', [16]);
    const col = gpuTensor(seq(64, (i) => i), 'float32', [64, 1]);
    expect(layout('add', [64, 16], [m, bias])).toEqual({ vec4: true, splat: [false, false] });
    expect(layout('add', [64, 16], [m, col])).toEqual({ vec4: true, splat: [false, true] });
    expect(layout('add', [64, 12], [narrow(m, 1, 4, 12), narrow(bias, 0, 0, 12)])).toEqual({ vec4: true, splat: [false, false] });
    // fastest size not a multiple of 4; an offset of 1; a transposed operand: the scalar path
    expect(layout('add', [64, 14], [narrow(m, 1, 0, 14), narrow(bias, 0, 0, 14)]).vec4).toBe(false);
    expect(layout('add', [64, 12], [narrow(m, 1, 1, 12), narrow(bias, 0, 0, 12)]).vec4).toBe(false);
    const sq = gpuTensor(seq(16 * 16, (i) => i), 'float32', [16, 16]);
    expect(layout('add', [16, 16], [permute(sq, [1, 0]), sq]).vec4).toBe(false);
    // a row stride that is not a multiple of 4
    const odd = gpuTensor(seq(64 * 18, (i) => i), 'float32', [64, 18]);
    expect(layout('add', [64, 16], [narrow(odd, 1, 0, 16), bias]).vec4).toBe(false);
    expect(layout('exp', [64, 16], [m])).toEqual({ vec4: true, splat: [false] });
  });

  it('bias add, per-row scalar add, and 3-d broadcasts match JS (float32 and int32, alpha, in place)', async () => {
    const R = 33, C = 40;
    const mv = seq(R * C, (i) => ((i * 37) % 101) - 50), bv = seq(C, (i) => i * 3 - 7), cv = seq(R, (i) => 100 * i + 1);
    for (const dtype of ['float32', 'int32'] as const) {
      const m = gpuTensor(mv, dtype, [R, C]);
      const b = gpuTensor(bv, dtype, [C]);
      const c = gpuTensor(cv, dtype, [R, 1]);
      expect(await readValues(add(m, b))).toEqual(grid2(R, C, (i, j) => mv[i * C + j] + bv[j]));
      expect(await readValues(add(b, m))).toEqual(grid2(R, C, (i, j) => mv[i * C + j] + bv[j]));
      expect(await readValues(sub(m, b, { alpha: 2 }))).toEqual(grid2(R, C, (i, j) => mv[i * C + j] - 2 * bv[j]));
      expect(await readValues(mul(m, c))).toEqual(grid2(R, C, (i, j) => mv[i * C + j] * cv[i]));
      expect(await readValues(add(c, b))).toEqual(grid2(R, C, (i, j) => cv[i] + bv[j]));
      // strided: every other row (row stride 2C), an offset of 4 columns
      const v = narrow(m, 1, 4, 32);
      const rows = gpuTensor(seq(16, (i) => i), dtype, [16, 1]);
      const bias8 = narrow(gpuTensor(seq(48, (i) => i - 8), dtype, [48]), 0, 8, 32); // offset 8
      expect(layout('add', [R, 32], [v, bias8], dtype === 'int32' ? 'i32' : 'f32')).toEqual({ vec4: true, splat: [false, false] });
      expect(await readValues(add(v, bias8))).toEqual(grid2(R, 32, (i, j) => mv[i * C + 4 + j] + j));
      expect(await readValues(add(narrow(v, 0, 1, 16), rows))).toEqual(grid2(16, 32, (i, j) => mv[(i + 1) * C + 4 + j] + i));
      // 3-d: [5, R, C] + [R, 1] + [C]
      const t3 = expand(m, [5, R, C]);
      expect(await readValues(add(add(t3, c), b))).toEqual(seq(5 * R * C, (q) => { const i = Math.floor(q / C) % R, j = q % C; return mv[i * C + j] + cv[i] + bv[j]; }));
      // in place with a broadcast operand
      const acc = gpuTensor(mv, dtype, [R, C]);
      add_(acc, b);
      add_(acc, c);
      expect(await readValues(acc)).toEqual(grid2(R, C, (i, j) => mv[i * C + j] + bv[j] + cv[i]));
    }
  });

  it('the vec4 strided path equals the scalar strided path on the same data', async () => {
    const R = 24, C = 64;
    const mv = seq(R * C, (i) => Math.sin(i) * 10);
    const m = gpuTensor(mv, 'float32', [R, C]);
    const b = gpuTensor(seq(C, (i) => Math.cos(i)), 'float32', [C]);
    const vec = await readValues(add(m, b)); // vec4 decode
    const scalarPath = await readValues(add(narrow(m, 1, 1, C - 1), narrow(b, 0, 1, C - 1))); // offset 1: scalar decode
    expect(scalarPath).toEqual(grid2(R, C - 1, (i, j) => vec[i * C + j + 1]));
    const full = bits(await readValues(exp(m))); // vec4, no decode
    expect(layout('exp', [R, 32], [narrow(m, 1, 4, 32)])).toEqual({ vec4: true, splat: [false] });
    expect(bits(await readValues(exp(narrow(m, 1, 4, 32))))).toEqual(grid2(R, 32, (i, j) => full[i * C + 4 + j]));
  });

  it('exp_f (scalar path) and exp_f4 (vec4 path) equal the old branchy formula bit for bit', async () => {
    const xs = expInputs();
    const x = gpuTensor(xs, 'float32', [xs.length / 4, 4]);
    const want = bits(await readValues(runOld('exp_old($1)', x)));
    const vec4 = bits(await readValues(exp(x))); // contiguous: exp_f4
    const scalar = bits(await readValues(permute(exp(permute(x, [1, 0])), [1, 0]))); // transposed: exp_f
    expect(layout('exp', [4, xs.length / 4], [permute(x, [1, 0])]).vec4).toBe(false);
    const mismatch = (got: number[]) => got.map((w, i) => (w === want[i] ? null : [xs[i], w, want[i]])).filter((z) => z !== null).slice(0, 5);
    expect(mismatch(vec4)).toEqual([]);
    expect(mismatch(scalar)).toEqual([]);
    // sanity of the reference itself: edges and specials
    const at = (v: number) => want[xs.findIndex((y) => Object.is(y, v))];
    expect(at(Infinity)).toBe(0x7f800000);
    expect(at(-Infinity)).toBe(0);
    expect(at(NaN)).toBe(0x7fc00000);
    expect(at(0)).toBe(0x3f800000);
    // (subnormal results: whatever the adapter does with them, old and new agree, checked above)
  });

  it('sigmoid (vec4 and scalar) equals the old formula bit for bit; silu runs vec4 too', async () => {
    const xs = expInputs();
    const x = gpuTensor(xs, 'float32', [xs.length / 4, 4]);
    const want = bits(await readValues(runOld('select(sigmoid_old($1), $1, isnan_f($1))', x)));
    expect(bits(await readValues(sigmoid(x)))).toEqual(want);
    expect(bits(await readValues(permute(sigmoid(permute(x, [1, 0])), [1, 0])))).toEqual(want);
    const wantSilu = bits(await readValues(runOld('$1 * sigmoid_old($1)', x)));
    expect(bits(await readValues(silu(x)))).toEqual(wantSilu);
  });

  it('exp2 (bit for bit), tanh (4 ulp) and gelu(tanh) (float32 tolerance) match the old formulas, vec4 and scalar', async () => {
    const xs = expInputs();
    for (let x = -160; x <= 140; x += 0.0173) xs.push(f32(x)); // exp2's edges: -150, 128
    for (let x = -1; x <= 1; x += 0.00037) xs.push(f32(x)); // tanh's polynomial and its switch at 0.55
    xs.push(-150, 128, f32(-149.5), f32(127.99), 0.55, -0.55, f32(0.5499999));
    while (xs.length % 4 !== 0) xs.push(2);
    const x = gpuTensor(xs, 'float32', [xs.length / 4, 4]);
    const xT = permute(x, [1, 0]);
    // tanh's `e / (e + 2)`: SwiftShader's division is not correctly rounded (WGSL allows 2.5
    // ulp) and its last bits depend on the surrounding code (at -8.5 the old tanh gave
    // 1 - 6e-8, now 1 - 1.8e-7; at -8.8 1 - 1.2e-7, now -1). So tanh may differ from the old
    // result by 4 ulp, gelu(tanh) by float32's assert_close tolerance; exp2 is bit for bit.
    const f = new Float32Array(1), u = new Uint32Array(f.buffer);
    const val = (w: number) => ((u[0] = w), f[0]);
    const ulp = (a: number, b: number) => ((a ^ b) >>> 31 !== 0 ? Infinity : Math.abs(a - b));
    const cases: [string, (t: Tensor) => Tensor, (w: number, v: number) => boolean][] = [
      ['select(exp2_old($1), $1, isnan_f($1))', exp2, () => false],
      ['select(tanh_old($1), $1, isnan_f($1))', tanh, (w, v) => ulp(w, v) <= 4],
      [
        'select(0.5 * $1 * (1.0 + tanh_old(0.79788456080286536 * ($1 + 0.044715 * $1 * $1 * $1))), $1, isnan_f($1))',
        (t) => gelu(t, { approximate: 'tanh' }),
        (w, v) => Math.abs(val(w) - val(v)) <= 1e-5 + 1.3e-6 * Math.abs(val(v)),
      ],
    ];
    for (const [old, op, close] of cases) {
      const want = bits(await readValues(runOld(old, x)));
      const far = (w: number, i: number) => w !== want[i] && !close(w, want[i]);
      const mismatch = (got: number[]) => got.map((w, i) => (far(w, i) ? [xs[i], w, want[i]] : null)).filter((z) => z !== null).slice(0, 5);
      expect(mismatch(bits(await readValues(op(x))))).toEqual([]);
      expect(mismatch(bits(await readValues(permute(op(xT), [1, 0]))))).toEqual([]);
    }
  });
});
