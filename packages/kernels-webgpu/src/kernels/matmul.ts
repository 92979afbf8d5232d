import { TensorImpl, TorchError } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { isHalfKind, isNarrowIntKind, kindOf, valueType, type Kind } from '../wgsl/kinds';
import { PRELUDE } from '../wgsl/prelude';
import { kernelTuning } from '../runtime/tuning';
import { bindingOf, grid } from './launch';
import { copy, fill } from './pointwise';

/**
 * Note [WebGPU matmul]
 * out[b] = self[b] @ other[b] with a workgroup of 16x16 invocations per 64x64 tile of out:
 * each invocation accumulates a 4x4 register tile (four vec4 rows, unrolled:
 * no dynamically indexed private arrays, which are slow to compile and to run), and the workgroup stages 64x16 slices of
 * self and 16x64 slices of other through workgroup memory, so every loaded element is used
 * 64 times. Any strides and offsets (transposed and batched views run in place); the batch
 * is the workgroup's z. float32 and int32 (int32 wraps, as PyTorch's int kernels); float16
 * and bfloat16 load halves widened to f32, accumulate in f32 and round once on store (Note
 * [float16 on WebGPU]: PyTorch's CPU half matmul accumulates in float too). Small products
 * and software adapters take barrier-free shapes (Notes [Small matmul on WebGPU] and
 * [Barrier-free matmul on a software adapter]).
 */
const TILE = 64;
const KT = 16;

/** Bindings, parameters, element access and the masked 4-wide store, shared by the kernels. */
function header(k: Kind): string {
  const t = valueType(k);
  const f16 = isHalfKind(k);
  const elem = f16 ? 'u32' : t;
  // (a bfloat16 is the top half of a float32; float16 widens in integer code)
  const widen = (x: string) => (k === 'bf16' ? `bitcast<f32>((${x}) << 16u)` : `f16_to_f32(${x})`);
  const access = f16
    ? `fn lda(i: u32) -> f32 { return ${widen('ab[i >> 1u] >> ((i & 1u) * 16u)')}; }
fn ldb(i: u32) -> f32 { return ${widen('bb[i >> 1u] >> ((i & 1u) * 16u)')}; }
fn sto(i: u32, v: f32) { let w = i >> 1u; let sh = (i & 1u) * 16u; atomicAnd(&outb[w], ~(65535u << sh)); atomicOr(&outb[w], ${k === 'bf16' ? 'f32_to_bf16' : 'f32_to_f16'}(v) << sh); }`
    : `fn lda(i: u32) -> ${t} { return ab[i]; }
fn ldb(i: u32) -> ${t} { return bb[i]; }
fn sto(i: u32, v: ${t}) { outb[i] = v; }`;
  return /* wgsl */ `${f16 ? PRELUDE : ''}
@group(0) @binding(0) var<storage, read_write> outb: array<${f16 ? 'atomic<u32>' : t}>;
@group(0) @binding(1) var<storage, read_write> ab: array<${elem}>;
@group(0) @binding(2) var<storage, read_write> bb: array<${elem}>;
struct Params { w: array<vec4<u32>, 4> };
@group(0) @binding(3) var<uniform> P: Params;
fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }
${access}
fn store(base: u32, rs: u32, cs: u32, r: u32, c: u32, v: vec4<${t}>, n: u32, pp: u32) {
  if (r >= n) { return; }
  let o = base + r * rs;
  if (c < pp) { sto(o + c * cs, v.x); }
  if (c + 1u < pp) { sto(o + (c + 1u) * cs, v.y); }
  if (c + 2u < pp) { sto(o + (c + 2u) * cs, v.z); }
  if (c + 3u < pp) { sto(o + (c + 3u) * cs, v.w); }
}`;
}

function source(k: Kind): string {
  const t = valueType(k);
  const zero = t === 'f32' ? '0.0' : '0';
  return /* wgsl */ `${header(k)}
var<workgroup> As: array<array<${t}, ${TILE}>, ${KT}>;
var<workgroup> Bs: array<array<${t}, ${TILE}>, ${KT}>;
@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  // params: n m p | batch strides (out a b) | out rs cs | a rs cs | b rs cs | offsets (out a b)
  let n = p(0u); let m = p(1u); let pp = p(2u);
  let bo = wid.z;
  let oOff = p(15u) + bo * p(3u);
  let aOff = p(12u) + bo * p(4u);
  let bOff = p(13u) + bo * p(5u);
  let ors = p(6u); let ocs = p(7u); let ars = p(8u); let acs = p(9u); let brs = p(10u); let bcs = p(11u);
  let row0 = wid.y * ${TILE}u;
  let col0 = wid.x * ${TILE}u;
  var acc0 = vec4<${t}>(${zero}); var acc1 = vec4<${t}>(${zero}); var acc2 = vec4<${t}>(${zero}); var acc3 = vec4<${t}>(${zero});
  let tid = lid.y * 16u + lid.x;
  let r0 = lid.y * 4u;
  let c0 = lid.x * 4u;
  for (var k0 = 0u; k0 < m; k0 += ${KT}u) {
    // 1024 elements of each slice, 4 per invocation.
    for (var e = 0u; e < 4u; e++) {
      let q = tid * 4u + e;
      let ar = q / ${KT}u; let ak = q % ${KT}u;
      let gr = row0 + ar; let gk = k0 + ak;
      As[ak][ar] = select(${zero}, lda(aOff + gr * ars + gk * acs), gr < n && gk < m);
      let bk = q / ${TILE}u; let bc = q % ${TILE}u;
      let gk2 = k0 + bk; let gc = col0 + bc;
      Bs[bk][bc] = select(${zero}, ldb(bOff + gk2 * brs + gc * bcs), gk2 < m && gc < pp);
    }
    workgroupBarrier();
    for (var kk = 0u; kk < ${KT}u; kk++) {
      let a = vec4<${t}>(As[kk][r0], As[kk][r0 + 1u], As[kk][r0 + 2u], As[kk][r0 + 3u]);
      let b = vec4<${t}>(Bs[kk][c0], Bs[kk][c0 + 1u], Bs[kk][c0 + 2u], Bs[kk][c0 + 3u]);
      acc0 += a.x * b; acc1 += a.y * b; acc2 += a.z * b; acc3 += a.w * b;
    }
    workgroupBarrier();
  }
  let rr = row0 + r0;
  let cc = col0 + c0;
  store(oOff, ors, ocs, rr, cc, acc0, n, pp);
  store(oOff, ors, ocs, rr + 1u, cc, acc1, n, pp);
  store(oOff, ors, ocs, rr + 2u, cc, acc2, n, pp);
  store(oOff, ors, ocs, rr + 3u, cc, acc3, n, pp);
}`;
}

/**
 * Note [Small matmul on WebGPU]
 * A product of at most `SMALL_MACS` multiply-adds (the layers of a small MLP) runs one
 * invocation per output element looping over the inner dim, with no workgroup memory and
 * no barriers: the tiled kernel's 256-invocation workgroup and its barriers cost far more
 * than the arithmetic there (2.5 ms for a 32x16 @ 16x16 product under SwiftShader, where
 * barriers switch fibers; this kernel takes a fraction of it). Same parameters and bindings.
 */
const SMALL_MACS = 1 << 16;
const SMALL_WG = 64;

function smallSource(k: Kind): string {
  const t = valueType(k);
  const f16 = isHalfKind(k);
  const zero = t === 'f32' ? '0.0' : '0';
  return /* wgsl */ `${header(k)}
@compute @workgroup_size(${SMALL_WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let n = p(0u); let m = p(1u); let pp = p(2u);
  let idx = gid.x + gid.y * nwg.x * ${SMALL_WG}u;
  let per = n * pp;
  let bo = idx / per;
  if (bo >= p(14u)) { return; }
  let rc = idx - bo * per;
  let r = rc / pp; let c = rc - r * pp;
  var a = p(12u) + bo * p(4u) + r * p(8u);
  var b = p(13u) + bo * p(5u) + c * p(11u);
  let acs = p(9u); let brs = p(10u);
  var acc = ${f16 ? 'f32' : t}(${zero});
  for (var kk = 0u; kk < m; kk++) {
    acc += lda(a) * ldb(b);
    a += acs; b += brs;
  }
  sto(p(15u) + bo * p(3u) + r * p(6u) + c * p(7u), acc);
}`;
}

/**
 * Note [Barrier-free matmul on a software adapter]
 * On a software adapter (Note [Kernel tuning per adapter]) the tiled kernel's two barriers
 * per 16-deep slice of the inner dim dominate: MNIST's classifier, a [32, 1568] @ [1568, 10]
 * product, is one workgroup that crosses 196 barriers (34 ms under SwiftShader). There every
 * product above SMALL_MACS runs this kernel instead: each invocation accumulates the same
 * 4x4 register tile as the tiled kernel, loading its 4 rows of self and 4 columns of other
 * straight from storage at each step of the inner dim (on a CPU, caches give the reuse that
 * workgroup memory gives a GPU), in 8x8 workgroups with no workgroup memory and no barrier.
 * Rows and columns past the edge load a clamped (valid) index and are not stored. Each
 * output element sums its products in the same order as the tiled kernel.
 */
const REG_WG = 8;
const REG_TILE = 4 * REG_WG;

function registerTileSource(k: Kind): string {
  const t = valueType(k);
  const zero = t === 'f32' ? '0.0' : '0';
  const rows = [0, 1, 2, 3];
  return /* wgsl */ `${header(k)}
@compute @workgroup_size(${REG_WG}, ${REG_WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = p(0u); let m = p(1u); let pp = p(2u);
  let r0 = gid.y * 4u;
  let c0 = gid.x * 4u;
  if (r0 >= n || c0 >= pp) { return; }
  let bo = gid.z;
  let aOff = p(12u) + bo * p(4u);
  let bOff = p(13u) + bo * p(5u);
  let ars = p(8u); let acs = p(9u); let brs = p(10u); let bcs = p(11u);
${rows.map((i) => `  var a${i} = aOff + min(r0 + ${i}u, n - 1u) * ars;`).join('\n')}
${rows.map((i) => `  var b${i} = bOff + min(c0 + ${i}u, pp - 1u) * bcs;`).join('\n')}
  var acc0 = vec4<${t}>(${zero}); var acc1 = vec4<${t}>(${zero}); var acc2 = vec4<${t}>(${zero}); var acc3 = vec4<${t}>(${zero});
  for (var kk = 0u; kk < m; kk++) {
    let a = vec4<${t}>(lda(a0), lda(a1), lda(a2), lda(a3));
    let b = vec4<${t}>(ldb(b0), ldb(b1), ldb(b2), ldb(b3));
    acc0 += a.x * b; acc1 += a.y * b; acc2 += a.z * b; acc3 += a.w * b;
${rows.map((i) => `    a${i} += acs; b${i} += brs;`).join('\n')}
  }
  let oOff = p(15u) + bo * p(3u);
  let ors = p(6u); let ocs = p(7u);
  store(oOff, ors, ocs, r0, c0, acc0, n, pp);
  store(oOff, ors, ocs, r0 + 1u, c0, acc1, n, pp);
  store(oOff, ors, ocs, r0 + 2u, c0, acc2, n, pp);
  store(oOff, ors, ocs, r0 + 3u, c0, acc3, n, pp);
}`;
}

type Shape = 'tiled' | 'small' | 'register';

const sources = new Map<string, string>();

/** The kernel source, built once per (kind, aliasing, shape): the queue looks pipelines up by source (Note [Bind group cache]). */
function cachedSource(k: Kind, aliased: boolean, shape: Shape): string {
  const key = `${k}|${aliased}|${shape}`;
  let src = sources.get(key);
  if (src === undefined) {
    const base = shape === 'small' ? smallSource(k) : shape === 'register' ? registerTileSource(k) : source(k);
    src = aliased
      ? base.replace('@group(0) @binding(2) var<storage, read_write> bb', '// bb aliases ab').replaceAll('bb[', 'ab[').replace('@binding(3)', '@binding(2)')
      : base;
    sources.set(key, src);
  }
  return src;
}

/**
 * Edge tiles load with `select(0, x[i], inRange)`: both operands of a select are evaluated,
 * so an index past the tensor may be read; WebGPU's robust buffer access keeps such a read
 * inside the binding, and the select discards it.
 */
function run(op: string, out: TensorImpl, self: TensorImpl, other: TensorImpl, batched: boolean): void {
  const k = kindOf(op, out.dtype, false, 'bf16');
  if (out.numel === 0) return;
  if (self.numel === 0 || other.numel === 0) {
    fill(out, 0); // an empty inner dim: sums of nothing
    return;
  }
  if (k === 'u8' || isNarrowIntKind(k)) {
    // uint8, int8, int16: multiply in int32 and wrap on the cast back, as their arithmetic
    // wraps (Note [int8 and int16 on WebGPU])
    const a = TensorImpl.empty(op, self.sizes, 'int32', self.device);
    const b = TensorImpl.empty(op, other.sizes, 'int32', other.device);
    const o = TensorImpl.empty(op, out.sizes, 'int32', out.device);
    try {
      copy(a, self);
      copy(b, other);
      run(op, o, a, b, batched);
      copy(out, o);
    } finally {
      a.release();
      b.release();
      o.release();
    }
    return;
  }
  if (k !== 'f32' && k !== 'i32' && !isHalfKind(k)) throw new TorchError(`${op}: "${op}" not implemented for '${out.dtype}' on webgpu`);
  const bd = batched ? 1 : 0;
  const batch = batched ? out.sizes[0] : 1;
  const n = out.sizes[bd];
  const pp = out.sizes[bd + 1];
  const m = self.sizes[bd + 1];
  const blocks = [out, self, other].map((t) => t.storage.data);
  if (blocks[0] === blocks[1] || blocks[0] === blocks[2]) throw new TorchError(`${op}: the output shares storage with an input`);
  const params = new Uint32Array(16);
  params.set([
    n, m, pp,
    batched ? out.strides[0] : 0, batched ? self.strides[0] : 0, batched ? other.strides[0] : 0,
    out.strides[bd], out.strides[bd + 1],
    self.strides[bd], self.strides[bd + 1],
    other.strides[bd], other.strides[bd + 1],
    self.storageOffset, other.storageOffset, 0, out.storageOffset,
  ]);
  const q = commandQueue(op);
  const maxDim = 65535;
  if (batch > maxDim) throw new TorchError(`${op}: a batch of ${batch} exceeds one WebGPU dispatch`);
  // self and other may be the same storage (x @ x): bind it twice is fine for distinct
  // bindings only when ranges do not overlap, so alias by copying the binding.
  const bSelf = bindingOf(self);
  const bOther = blocks[1] === blocks[2] ? null : bindingOf(other);
  const shape: Shape = batch * n * pp * m <= SMALL_MACS ? 'small' : kernelTuning().barrierFree ? 'register' : 'tiled';
  const src = cachedSource(k, bOther === null, shape);
  const bindings = bOther ? [bindingOf(out), bSelf, bOther] : [bindingOf(out), bSelf];
  if (shape === 'small') {
    params[14] = batch; // (word 14 is unused by the other kernels)
    q.dispatch(src, bindings, params, grid(op, batch * n * pp, SMALL_WG));
  } else if (shape === 'register') {
    q.dispatch(src, bindings, params, [Math.ceil(pp / REG_TILE), Math.ceil(n / REG_TILE), batch]);
  } else q.dispatch(src, bindings, params, [Math.ceil(pp / TILE), Math.ceil(n / TILE), batch]);
}

export const matmulImpls = {
  mm: (out: TensorImpl, self: TensorImpl, other: TensorImpl) => run('mm', out, self, other, false),
  bmm: (out: TensorImpl, self: TensorImpl, other: TensorImpl) => run('bmm', out, self, other, true),
};
