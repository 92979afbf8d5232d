/**
 * The derivative table (src/derivatives) checked op by op: every differentiable entry passes
 * gradcheck in float64 on small random inputs (broadcast, 0-dim and non-contiguous ones
 * included), the common ops and the views also pass gradgradcheck, backward leaks nothing,
 * each op records the Node PyTorch names, nodes keep only what PyTorch's keep, the table
 * covers KERNEL_OP_NAMES exactly, and gradients match PyTorch's (goldens/grads.json, written
 * by goldens/make-goldens.py).
 */
import { readFileSync } from 'node:fs';
import * as c from '@torch-ts/core';
import {
  DispatchKey,
  KERNEL_OP_NAMES,
  Tensor,
  emptyStats,
  registerAllocator,
  registerBackend,
  tensor,
  typeMeta,
  type Allocator,
  type BackendImplTable,
  type KernelOpName,
  type TensorImpl,
} from '@torch-ts/core';
import { describe, expect, it } from 'vitest';
import { grad, gradcheck, gradgradcheck } from '../src';
import { DERIVATIVES } from '../src/derivatives';
import { BINARY_DERIVATIVES } from '../src/derivatives/binary';
import { COPY_DERIVATIVES } from '../src/derivatives/copies';
import { LINALG_DERIVATIVES } from '../src/derivatives/linalg';
import { POINTWISE_DERIVATIVES } from '../src/derivatives/pointwise';
import { REDUCTION_DERIVATIVES } from '../src/derivatives/reductions';
import { ACTIVATION_TABLE_DERIVATIVES } from '../src/derivatives/table';
import { VIEW_DERIVATIVES } from '../src/derivatives/views';

// ---- a reference CPU backend ----

/**
 * Note [The reference backend of the autograd tests]
 * Autograd may import only core (docs/architecture.md; tools/check-boundaries.mjs checks tests
 * too), so these tests run on a plain backend of their own: every impl of core's
 * BackendImpls as a naive loop over logical indices, computed in JS doubles and stored
 * through the output's typed array (so float32 rounds and int64 truncates). It is the
 * obvious reference (STYLE.md: a plain reference is the oracle), independent of the real
 * CPU kernels, which the OpInfo gradcheck in @torch-ts/testing exercises instead.
 */
const hostAllocator: Allocator = {
  deviceType: 'cpu',
  allocate: (nbytes, device) => ({ data: { buffer: new ArrayBuffer(nbytes), byteOffset: 0, byteLength: nbytes }, context: null, deleter: () => {}, device }),
  stats: () => emptyStats(),
  resetPeakStats: () => {},
};

type Storage = Float64Array | Float32Array | BigInt64Array | Int32Array | Int16Array | Int8Array | Uint8Array | Uint16Array;
const storageOf = (t: TensorImpl) => t.storage.typed(typeMeta(t.dtype).ArrayType as never) as Storage;

/** The storage positions of `t`'s elements, row-major. */
function positions(t: TensorImpl): number[] {
  const out: number[] = [];
  forEachIndex(t.sizes, (idx) => out.push(idx.reduce((p, i, d) => p + i * t.strides[d], t.storageOffset)));
  return out;
}

function forEachIndex(sizes: readonly number[], fn: (idx: readonly number[]) => void): void {
  if (sizes.some((s) => s === 0)) return;
  const idx = sizes.map(() => 0);
  for (;;) {
    fn(idx);
    let d = sizes.length - 1;
    for (; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

function read(s: Storage, pos: number): number {
  return Number(s[pos]);
}

function write(t: TensorImpl, s: Storage, pos: number, v: number): void {
  if (s instanceof BigInt64Array) s[pos] = BigInt(Math.trunc(v));
  else if (t.dtype === 'bool') s[pos] = v !== 0 ? 1 : 0; // NaN is true, as bool(nan) is
  else s[pos] = v;
}

/** out[i] = f(inputs[0][i], ...): the inputs arrive cast and broadcast to out's shape. */
function pointwise(f: (...v: number[]) => number) {
  return (out: TensorImpl, ...inputs: TensorImpl[]): void => {
    const so = storageOf(out);
    const ss = inputs.map(storageOf);
    const ps = inputs.map(positions);
    positions(out).forEach((p, k) => write(out, so, p, f(...ss.map((s, j) => read(s, ps[j][k])))));
  };
}

const nanOr = (f: (a: number, b: number) => number) => (a: number, b: number) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : f(a, b));

/**
 * erf from its series of positive terms, 2/sqrt(pi) * exp(-x^2) * sum 2^n x^(2n+1) / (2n+1)!!,
 * which has no cancellation: plain and accurate enough for a reference at moderate |x|.
 */
function referenceErf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (Math.abs(x) > 6) return Math.sign(x);
  let term = x;
  let sum = x;
  for (let n = 1; Math.abs(term) > 1e-17 * Math.abs(sum); n++) {
    term *= (2 * x * x) / (2 * n + 1);
    sum += term;
  }
  return (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
}

/**
 * The gamma family from their definitions, plainly (no reflection: the gradcheck inputs are
 * positive): ln Gamma and digamma recur up to x >= 20, then Stirling's and the asymptotic
 * series; polygamma(n >= 1) sums (x + k)^-(n+1) to k = 60 and the integral of the rest.
 */
function referenceLgamma(x: number): number {
  let acc = 0;
  for (; x < 20; x += 1) acc -= Math.log(x);
  return acc + (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x ** 3) + 1 / (1260 * x ** 5);
}
function referenceDigamma(x: number): number {
  let acc = 0;
  for (; x < 20; x += 1) acc -= 1 / x;
  return acc + Math.log(x) - 1 / (2 * x) - 1 / (12 * x ** 2) + 1 / (120 * x ** 4) - 1 / (252 * x ** 6);
}
function referencePolygamma(n: number, x: number): number {
  if (n === 0) return referenceDigamma(x);
  let factorial = 1;
  for (let k = 2; k <= n; k++) factorial *= k;
  const K = 60;
  let sum = 0;
  for (let k = 0; k < K; k++) sum += (x + k) ** -(n + 1);
  const a = x + K;
  sum += a ** -n / n + a ** -(n + 1) / 2 + ((n + 1) * a ** -(n + 2)) / 12;
  return (n % 2 === 1 ? 1 : -1) * factorial * sum;
}
/** I0 and I1 from their power series (all terms positive). */
function referenceBesselI(nu: 0 | 1, x: number): number {
  let term = nu === 0 ? 1 : x / 2;
  let sum = term;
  for (let k = 1; k < 200; k++) {
    term *= (x * x) / 4 / (k * (k + nu));
    sum += term;
  }
  return sum;
}
const referenceNdtr = (x: number): number => 0.5 * (1 + referenceErf(x / Math.SQRT2));

/** erfinv by bisection on referenceErf (erf is increasing). */
function referenceErfinv(y: number): number {
  if (!(Math.abs(y) <= 1)) return NaN;
  if (Math.abs(y) === 1) return y * Infinity;
  let lo = -6;
  let hi = 6;
  for (let i = 0; i < 200 && lo < hi; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (referenceErf(mid) < y) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Each slice along `dim` sorted stably (NaN largest), the first `keep` written to values/indices. */
function referenceSort(values: TensorImpl, indices: TensorImpl, self: TensorImpl, dim: number, descending: boolean, keep: number): void {
  const s = storageOf(self);
  const sv = storageOf(values);
  const si = storageOf(indices);
  const outer = self.sizes.map((n, d) => (d === dim ? 1 : n));
  forEachIndex(outer, (idx) => {
    const at = (t: TensorImpl, i: number) => idx.reduce((q, x, d) => q + (d === dim ? i : x) * t.strides[d], t.storageOffset);
    const key = (i: number) => read(s, at(self, i));
    const order = Array.from({ length: self.sizes[dim] }, (_, i) => i);
    order.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      const nx = Number.isNaN(x);
      const ny = Number.isNaN(y);
      const c0 = nx || ny ? Number(nx) - Number(ny) : x < y ? -1 : x > y ? 1 : 0;
      return (descending ? -c0 : c0) || a - b;
    });
    for (let j = 0; j < keep; j++) {
      write(values, sv, at(values, j), key(order[j]));
      write(indices, si, at(indices, j), order[j]);
    }
  });
}

/** A reduction over `dims` into `out` (the input's rank, size 1 in `dims`). */
function reduction(init: number, step: (acc: number, v: number) => number) {
  return (out: TensorImpl, self: TensorImpl, dims: readonly number[]): void => {
    const acc = new Map<number, number>();
    const s = storageOf(self);
    forEachIndex(self.sizes, (idx) => {
      const at = idx.reduce((p, i, d) => p + (dims.includes(d) ? 0 : i * out.strides[d]), out.storageOffset);
      const v = read(s, idx.reduce((p, i, d) => p + i * self.strides[d], self.storageOffset));
      acc.set(at, step(acc.get(at) ?? init, v));
    });
    const so = storageOf(out);
    for (const p of positions(out)) write(out, so, p, acc.get(p) ?? init);
  };
}

/** max / min along `dim`: the first extreme element (a NaN counts as extreme), and its index. */
function argReduction(better: (v: number, best: number) => boolean) {
  return (values: TensorImpl | null, indices: TensorImpl, self: TensorImpl, dim: number): void => {
    const s = storageOf(self);
    const si = storageOf(indices);
    const sv = values ? storageOf(values) : null;
    forEachIndex(indices.sizes, (idx) => {
      let best = NaN;
      let bestAt = -1;
      for (let i = 0; i < self.sizes[dim]; i++) {
        const v = read(s, idx.reduce((p, x, d) => p + (d === dim ? i : x) * self.strides[d], self.storageOffset));
        if (bestAt < 0 || (!Number.isNaN(best) && (Number.isNaN(v) || better(v, best)))) [best, bestAt] = [v, i];
      }
      write(indices, si, idx.reduce((p, x, d) => p + x * indices.strides[d], indices.storageOffset), bestAt);
      if (values && sv) write(values, sv, idx.reduce((p, x, d) => p + x * values.strides[d], values.storageOffset), best);
    });
  };
}

/** out[b, i, j] = sum_k a[b, i, k] * m[b, k, j], for 2-D (no b) and 3-D operands. */
function matmul(out: TensorImpl, a: TensorImpl, m: TensorImpl): void {
  const batched = out.sizes.length === 3;
  const [so, sa, sm] = [out, a, m].map(storageOf);
  const at = (t: TensorImpl, b: number, i: number, j: number) =>
    t.storageOffset + (batched ? b * t.strides[0] : 0) + i * t.strides[batched ? 1 : 0] + j * t.strides[batched ? 2 : 1];
  const [nb, n, p] = batched ? out.sizes : [1, ...out.sizes];
  const k = a.sizes[a.sizes.length - 1];
  for (let b = 0; b < nb; b++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < p; j++) {
        let acc = 0;
        for (let q = 0; q < k; q++) acc += read(sa, at(a, b, i, q)) * read(sm, at(m, b, q, j));
        write(out, so, at(out, b, i, j), acc);
      }
}

const REFERENCE_IMPLS = {
  copy: pointwise((v) => v),
  fill: (dst: TensorImpl, value: number | bigint | boolean) => pointwise(() => Number(value))(dst),
  add: (out: TensorImpl, a: TensorImpl, b: TensorImpl, alpha: number | bigint) => pointwise((x, y) => x + Number(alpha) * y)(out, a, b),
  mul: pointwise((a, b) => a * b),
  div: pointwise((a, b) => a / b),
  divTrunc: pointwise((a, b) => Math.trunc(a / b)),
  divFloor: pointwise((a, b) => Math.floor(a / b)),
  pow: pointwise((a, b) => a ** b),
  remainder: pointwise((a, b) => a - Math.floor(a / b) * b),
  maximum: pointwise(nanOr(Math.max)),
  minimum: pointwise(nanOr(Math.min)),
  fmod: pointwise((a, b) => a % b),
  atan2: pointwise(Math.atan2),
  hypot: pointwise(Math.hypot),
  fmax: pointwise((a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b))),
  fmin: pointwise((a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b))),
  clampMin: pointwise((a, m) => (a < m ? m : a)),
  clampMax: pointwise((a, m) => (m < a ? m : a)),
  lerp: (out: TensorImpl, s: TensorImpl, e: TensorImpl, w: TensorImpl) => pointwise((x, y, t) => x + t * (y - x))(out, s, e, w),
  addcmul: (out: TensorImpl, s: TensorImpl, a: TensorImpl, b: TensorImpl, v: number | bigint) => pointwise((x, y, z) => x + Number(v) * y * z)(out, s, a, b),
  addcdiv: (out: TensorImpl, s: TensorImpl, a: TensorImpl, b: TensorImpl, v: number | bigint) => pointwise((x, y, z) => x + (Number(v) * y) / z)(out, s, a, b),
  logicalNot: pointwise((a) => Number(a === 0)),
  logicalAnd: pointwise((a, b) => Number(a !== 0 && b !== 0)),
  logicalOr: pointwise((a, b) => Number(a !== 0 || b !== 0)),
  logicalXor: pointwise((a, b) => Number((a !== 0) !== (b !== 0))),
  bitwiseNot: pointwise((a) => ~a),
  bitwiseAnd: pointwise((a, b) => a & b),
  bitwiseOr: pointwise((a, b) => a | b),
  bitwiseXor: pointwise((a, b) => a ^ b),
  nanToNum: (out: TensorImpl, a: TensorImpl, nan: number, posinf: number, neginf: number) =>
    pointwise((v) => (Number.isNaN(v) ? nan : v === Infinity ? posinf : v === -Infinity ? neginf : v))(out, a),
  eq: pointwise((a, b) => Number(a === b)),
  ne: pointwise((a, b) => Number(a !== b)),
  lt: pointwise((a, b) => Number(a < b)),
  le: pointwise((a, b) => Number(a <= b)),
  gt: pointwise((a, b) => Number(a > b)),
  ge: pointwise((a, b) => Number(a >= b)),
  neg: pointwise((a) => -a),
  abs: pointwise(Math.abs),
  exp: pointwise(Math.exp),
  log: pointwise(Math.log),
  sqrt: pointwise(Math.sqrt),
  sin: pointwise(Math.sin),
  cos: pointwise(Math.cos),
  tanh: pointwise(Math.tanh),
  sigmoid: pointwise((a) => 1 / (1 + Math.exp(-a))),
  relu: pointwise((a) => (a <= 0 ? 0 : a)),
  floor: pointwise(Math.floor),
  ceil: pointwise(Math.ceil),
  rsqrt: pointwise((a) => 1 / Math.sqrt(a)),
  reciprocal: pointwise((a) => 1 / a),
  sign: pointwise((a) => (a > 0 ? 1 : a < 0 ? -1 : 0)),
  trunc: pointwise(Math.trunc),
  round: (out: TensorImpl, a: TensorImpl) => pointwise((v) => v - Math.floor(v) === 0.5 ? 2 * Math.round(v / 2) : Math.round(v))(out, a),
  frac: pointwise((a) => a - Math.trunc(a)),
  exp2: pointwise((a) => 2 ** a),
  expm1: pointwise(Math.expm1),
  log2: pointwise(Math.log2),
  log10: pointwise(Math.log10),
  log1p: pointwise(Math.log1p),
  tan: pointwise(Math.tan),
  asin: pointwise(Math.asin),
  acos: pointwise(Math.acos),
  atan: pointwise(Math.atan),
  sinh: pointwise(Math.sinh),
  cosh: pointwise(Math.cosh),
  erf: pointwise(referenceErf),
  erfc: pointwise((a) => 1 - referenceErf(a)),
  erfinv: pointwise(referenceErfinv),
  where: pointwise((c, a, b) => (c ? a : b)),
  sum: reduction(0, (acc, v) => acc + v),
  prod: reduction(1, (acc, v) => acc * v),
  amax: reduction(-Infinity, nanOr(Math.max)),
  amin: reduction(Infinity, nanOr(Math.min)),
  maxDim: argReduction((v, best) => v > best),
  minDim: argReduction((v, best) => v < best),
  argmax: argReduction((v, best) => v > best),
  argmin: argReduction((v, best) => v < best),
  mm: matmul,
  bmm: matmul,
  leakyRelu: (out, a, slope) => pointwise((x) => (x > 0 ? x : x * slope))(out, a),
  elu: (out, a, alpha, scale, inputScale) => pointwise((x) => (x <= 0 ? Math.expm1(x * inputScale) * alpha * scale : x * scale))(out, a),
  hardtanh: (out, a, lo, hi) => pointwise((x) => Math.min(Math.max(x, lo), hi))(out, a),
  gelu: (out, a, approximate) =>
    pointwise((x) =>
      approximate === 'tanh'
        ? 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)))
        : 0.5 * x * (1 + referenceErf(x / Math.SQRT2)),
    )(out, a),
  silu: pointwise((x) => x / (1 + Math.exp(-x))),
  mish: pointwise((x) => x * Math.tanh(Math.log1p(Math.exp(x)))),
  softplus: (out, a, beta, threshold) => pointwise((x) => (x * beta > threshold ? x : Math.log1p(Math.exp(x * beta)) / beta))(out, a),
  hardsigmoid: pointwise((x) => Math.min(Math.max(x + 3, 0), 6) / 6),
  hardswish: pointwise((x) => (x * Math.min(Math.max(x + 3, 0), 6)) / 6),
  logit: (out, a, eps) =>
    pointwise((x) => {
      const z = eps === null ? x : Math.min(Math.max(x, eps), 1 - eps);
      return Math.log(z / (1 - z));
    })(out, a),
  // the gamma family and torch.special's unary functions (the formulas call lgamma, digamma, i0...)
  lgamma: pointwise(referenceLgamma),
  digamma: pointwise(referenceDigamma),
  i0: pointwise((x) => referenceBesselI(0, x)),
  polygamma: (out, a, n) => pointwise((x) => referencePolygamma(n, x))(out, a),
  mvlgamma: (out, a, p) =>
    pointwise((x) => {
      let sum = ((p * (p - 1)) / 4) * Math.log(Math.PI);
      for (let j = 0; j < p; j++) sum += referenceLgamma(x - j / 2);
      return sum;
    })(out, a),
  specialEntr: pointwise((x) => (x > 0 ? -x * Math.log(x) : x === 0 ? 0 : -Infinity)),
  specialNdtri: pointwise((p) => Math.SQRT2 * referenceErfinv(2 * p - 1)),
  specialLogNdtr: pointwise((x) => Math.log(referenceNdtr(x))),
  specialErfcx: pointwise((x) => Math.exp(x * x) * (1 - referenceErf(x))),
  specialI0e: pointwise((x) => Math.exp(-Math.abs(x)) * referenceBesselI(0, x)),
  specialI1: pointwise((x) => referenceBesselI(1, x)),
  specialI1e: pointwise((x) => Math.exp(-Math.abs(x)) * referenceBesselI(1, x)),
  // joining and reordering (core/src/ops/join.ts, reorder.ts): naive index loops
  cat: (out, parts, dim) => {
    const so = storageOf(out);
    let at = 0;
    for (const p of parts) {
      const sp = storageOf(p);
      forEachIndex(p.sizes, (idx) => {
        const src = idx.reduce((q, i, d) => q + i * p.strides[d], p.storageOffset);
        const dst = idx.reduce((q, i, d) => q + (d === dim ? i + at : i) * out.strides[d], out.storageOffset);
        write(out, so, dst, read(sp, src));
      });
      at += p.sizes[dim];
    }
  },
  flip: (out, self, dims) => {
    const so = storageOf(out);
    const ss = storageOf(self);
    forEachIndex(self.sizes, (idx) => {
      const src = idx.reduce((q, i, d) => q + (dims.includes(d) ? self.sizes[d] - 1 - i : i) * self.strides[d], self.storageOffset);
      const dst = idx.reduce((q, i, d) => q + i * out.strides[d], out.storageOffset);
      write(out, so, dst, read(ss, src));
    });
  },
  triZero: (t, upper, k) => {
    const s = storageOf(t);
    const nd = t.sizes.length;
    forEachIndex(t.sizes, (idx) => {
      const off = idx[nd - 1] - idx[nd - 2];
      if (upper ? off < k : off > k) write(t, s, idx.reduce((q, i, d) => q + i * t.strides[d], t.storageOffset), 0);
    });
  },
  // view_scatter_add of an overlapping window (Note [Overlapping view gradients]): 'add' with no index
  indexScatter: (op, access, src, mode, alpha) => {
    if (access.indices.length !== 0 || mode !== 'add') throw new Error(`${op}: the reference indexScatter adds through the window only`);
    const d = access.data;
    const [sd, ss] = [d, src].map(storageOf);
    const dst = positions(d);
    const from = positions(src);
    dst.forEach((p, i) => write(d, sd, p, read(sd, p) + Number(alpha) * read(ss, from[i])));
  },
  sort: (values, indices, self, dim, descending) => referenceSort(values, indices, self, dim, descending, self.sizes[dim]),
  topk: (values, indices, self, k, dim, largest) => referenceSort(values, indices, self, dim, largest, k),
  searchsorted: () => {
    throw new Error('searchsorted: not in the reference backend (no derivative)');
  },
  unique: () => {
    throw new Error('unique: not in the reference backend (no derivative)');
  },
} satisfies Partial<BackendImplTable>;

registerAllocator(hostAllocator);
// The reference backend computes the families of REFERENCE_FAMILIES; an op of another family
// called here fails with "no kernel" (Note [What a backend implements]).
registerBackend(DispatchKey.CPU, REFERENCE_IMPLS as unknown as BackendImplTable);

// ---- inputs ----

/** Where random values come from: kinks (abs, relu) and poles (log, div) stay out of reach. */
type Domain = 'any' | 'pos' | 'nonzero' | 'unit';
/** contiguous; strided: every other element of a [..., 2] tensor; transposed: a permuted tensor. */
type Layout = 'contiguous' | 'strided' | 'transposed';

function seeded(text: string): () => number {
  let s = 0;
  for (const ch of text) s = (Math.imul(s, 31) + ch.charCodeAt(0)) >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Draw {
  (shape: readonly number[], domain?: Domain, layout?: Layout): Tensor;
  /** Fixed values (a leaf requiring grad). */
  fixed(values: readonly number[], shape: readonly number[]): Tensor;
  /** A bool mask that does not require grad. */
  mask(shape: readonly number[]): Tensor;
}

function drawer(seed: string): Draw {
  const random = seeded(seed);
  const value = (domain: Domain) => {
    const u = random();
    if (domain === 'any') return u * 4 - 2;
    if (domain === 'unit') return u * 1.8 - 0.9; // inside (-1, 1): asin, acos, erfinv; tan away from its poles
    const mag = u * 2 + 0.5;
    return domain === 'pos' || random() < 0.5 ? mag : -mag;
  };
  const values = (n: number, domain: Domain) => Float64Array.from({ length: n }, () => value(domain));
  const numel = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);
  const leaf = (t: Tensor) => {
    const l = c.detach(t);
    t.dispose();
    return l.requiresGrad_(true);
  };
  const draw = ((shape, domain = 'any', layout = 'contiguous') => {
    const n = numel(shape);
    if (layout === 'strided') return leaf(c.select(tensor(values(2 * n, domain)).reshape([...shape, 2]), -1, 0));
    if (layout === 'transposed') {
      const reversed = [...shape].reverse();
      return leaf(c.permute(tensor(values(n, domain)).reshape(reversed), reversed.map((_, i) => reversed.length - 1 - i)));
    }
    return leaf(tensor(values(n, domain)).reshape([...shape]));
  }) as Draw;
  draw.fixed = (v, shape) => leaf(tensor(Float64Array.from(v)).reshape([...shape]));
  draw.mask = (shape) => c.gt(tensor(values(numel(shape), 'any')).reshape([...shape]), 0);
  return draw;
}

// ---- the cases ----

type Fn = (...x: Tensor[]) => Tensor | readonly Tensor[];

interface Case {
  readonly op: KernelOpName;
  readonly title: string;
  readonly inputs: (draw: Draw) => Tensor[];
  readonly fn: Fn;
  /** Also run gradgradcheck. */
  readonly gradgrad?: boolean;
}

const cases: Case[] = [];
const add = (op: KernelOpName, title: string, inputs: Case['inputs'], fn: Fn, gradgrad = false) =>
  cases.push({ op, title, inputs, fn, gradgrad });

/** `x * 1`: a non-leaf copy, so an in-place op may write into it. */
const fresh = (x: Tensor) => c.mul(x, 1);
/** A two-tensor front end as a gradcheck function (its options argument left out). */
const two = (f: (a: Tensor, b: Tensor) => Tensor): Fn => (a, b) => f(a, b);
/** alias has no front end; it is what PyTorch returns for a view that changes nothing. */
const alias = (x: Tensor) => new Tensor(c.callBoxed(c.getOperator('alias'), [x.impl]) as c.TensorImpl);

// binary pointwise ops: same shape, broadcast, 0-dim, non-contiguous, scalar, in-place
type Binary = (a: Tensor, b: Tensor | number) => Tensor;
const BINARY: [KernelOpName, KernelOpName, Binary, Binary, Domain, Domain, number, boolean][] = [
  ['add', 'add_', (a, b) => c.add(a, b, { alpha: 2.5 }), (a, b) => c.add_(a, b, { alpha: 2.5 }), 'any', 'any', 1.5, true],
  ['sub', 'sub_', (a, b) => c.sub(a, b, { alpha: -0.5 }), (a, b) => c.sub_(a, b, { alpha: -0.5 }), 'any', 'any', 1.5, true],
  ['mul', 'mul_', c.mul, c.mul_, 'any', 'any', 1.5, true],
  ['div', 'div_', c.div, c.div_, 'any', 'nonzero', 1.5, true],
  ['pow', 'pow_', c.pow, c.pow_, 'pos', 'any', 2.5, true],
  ['remainder', 'remainder_', c.remainder, c.remainder_, 'any', 'nonzero', 1.5, false],
  ['fmod', 'fmod_', c.fmod, c.fmod_, 'any', 'nonzero', 1.5, false],
];
for (const [op, inplaceOp, fn, inplace, da, db, scalar, gradgrad] of BINARY) {
  add(op, 'same shape', (d) => [d([2, 3], da), d([2, 3], db)], fn, gradgrad);
  add(op, 'broadcast [2, 1, 3] with [4, 1]', (d) => [d([2, 1, 3], da), d([4, 1], db)], fn, gradgrad);
  add(op, '0-dim with [3]', (d) => [d([], da), d([3], db)], fn);
  add(op, 'non-contiguous', (d) => [d([3, 2], da, 'transposed'), d([3, 2], db, 'strided')], fn, gradgrad);
  add(op, `scalar ${scalar}`, (d) => [d([2, 3], da)], (a) => fn(a, scalar), gradgrad);
  add(inplaceOp, 'in-place, broadcast other', (d) => [d([2, 3], da), d([3], db)], (a, b) => inplace(fresh(a), b), gradgrad);
}
add('pow', 'integer scalar exponent of any base', (d) => [d([2, 3])], (a) => c.pow(a, 3), true);
add('pow', 'negative scalar exponent', (d) => [d([2, 3], 'nonzero')], (a) => c.pow(a, -2), true);
add('pow', 'scalar exponent 0 (zero gradient)', (d) => [d([2, 3])], (a) => c.pow(a, 0));
add('pow', 'square (pow(x, 2), PowBackward0)', (d) => [d([2, 3])], (a) => c.square(a), true);
add('pow_', 'square_ (pow_(x, 2))', (d) => [d([2, 3])], (a) => c.square_(fresh(a)), true);
// Integer exponents at the zero bases, so that x - eps stays in pow's domain.
add('pow', 'zero base, tensor exponent (the limits at 0)', (d) => [d.fixed([0, 0, 1.5, 2], [4]), d.fixed([2, 1, 0, 1.25], [4])], (a, b) => c.pow(a, b));
add('div', 'rounding mode floor (zero gradient)', (d) => [d([2, 3]), d([2, 3], 'nonzero')], (a, b) => c.div(a, b, { roundingMode: 'floor' }));
add('div', 'rounding mode trunc (zero gradient)', (d) => [d([2, 3]), d([2, 3], 'nonzero')], (a, b) => c.div(a, b, { roundingMode: 'trunc' }));

// atan2 / hypot take no scalar operand; fmax / fmin have no in-place form
for (const [op, inplaceOp, fn, inplace] of [
  ['atan2', 'atan2_', c.atan2, c.atan2_],
  ['hypot', 'hypot_', c.hypot, c.hypot_],
] as const) {
  add(op, 'same shape', (d) => [d([2, 3], 'nonzero'), d([2, 3], 'nonzero')], two(fn), true);
  add(op, 'broadcast [2, 1, 3] with [4, 1]', (d) => [d([2, 1, 3], 'nonzero'), d([4, 1], 'nonzero')], two(fn), true);
  add(op, 'non-contiguous', (d) => [d([3, 2], 'nonzero', 'transposed'), d([3, 2], 'nonzero', 'strided')], two(fn));
  add(inplaceOp, 'in-place, broadcast other', (d) => [d([2, 3], 'nonzero'), d([3], 'nonzero')], (a, b) => inplace(fresh(a), b), true);
}
for (const op of ['fmax', 'fmin'] as const) {
  const fn = two(op === 'fmax' ? c.fmax : c.fmin);
  add(op, 'same shape', (d) => [d([2, 3]), d([2, 3])], fn);
  add(op, 'broadcast', (d) => [d([2, 1, 3]), d([4, 1])], fn);
  add(op, 'non-contiguous', (d) => [d([3, 2], 'any', 'transposed'), d([3, 2], 'any', 'strided')], fn);
}
// clamp: scalar bounds (ClampBackward1), tensor bounds (ClampBackward0), one bound of each kind
add('clamp', 'scalar bounds', (d) => [d([2, 3])], (a) => c.clamp(a, -0.5, 0.5), true);
add('clamp', 'scalar min only', (d) => [d([2, 3])], (a) => c.clamp(a, 0.25));
add('clamp', 'tensor bounds, broadcast', (d) => [d([2, 3]), d([3]), d([2, 1])], (a, lo, hi) => c.clamp(a, lo, hi));
add('clamp', 'tensor max only', (d) => [d([2, 3]), d([3])], (a, hi) => c.clamp(a, null, hi));
add('clamp', 'tensor min, scalar max', (d) => [d([3, 2], 'any', 'transposed'), d([3, 2], 'any', 'strided')], (a, lo) => c.clamp(a, lo, 1));
add('clamp_', 'in-place, tensor bounds', (d) => [d([2, 3]), d([3]), d([3])], (a, lo, hi) => c.clamp_(fresh(a), lo, hi));
add('clamp_', 'in-place, scalar bounds', (d) => [d([2, 3])], (a) => c.clamp_(fresh(a), -0.5, 0.5));
for (const [op, inplaceOp, fn, inplace] of [
  ['clamp_min', 'clamp_min_', c.clampMin, c.clampMin_],
  ['clamp_max', 'clamp_max_', c.clampMax, c.clampMax_],
] as const) {
  add(op, 'scalar bound', (d) => [d([2, 3])], (a) => fn(a, 0.25));
  add(op, 'tensor bound, broadcast', (d) => [d([2, 1, 3]), d([4, 1])], two(fn));
  add(inplaceOp, 'in-place, tensor bound', (d) => [d([2, 3]), d([3])], (a, b) => inplace(fresh(a), b));
}
// lerp: Scalar weight (LerpBackward0), Tensor weight (LerpBackward1), both branches of the formula
add('lerp', 'scalar weight 0.3', (d) => [d([2, 3]), d([2, 3])], (a, b) => c.lerp(a, b, 0.3), true);
add('lerp', 'scalar weight 0.8, broadcast', (d) => [d([2, 1, 3]), d([4, 1])], (a, b) => c.lerp(a, b, 0.8));
add('lerp', 'tensor weight, broadcast', (d) => [d([2, 3]), d([3]), d([2, 1])], (a, b, w) => c.lerp(a, b, w), true);
add('lerp', 'non-contiguous', (d) => [d([3, 2], 'any', 'transposed'), d([3, 2], 'any', 'strided'), d([3, 2])], (a, b, w) => c.lerp(a, b, w));
add('lerp_', 'in-place, tensor weight', (d) => [d([2, 3]), d([3]), d([3])], (a, b, w) => c.lerp_(fresh(a), b, w));
// addcmul / addcdiv with a value, broadcast and in place
add('addcmul', 'value 0.5, broadcast', (d) => [d([2, 3]), d([3]), d([2, 1])], (a, b, e) => c.addcmul(a, b, e, { value: 0.5 }), true);
add('addcmul', 'non-contiguous', (d) => [d([3, 2], 'any', 'transposed'), d([3, 2], 'any', 'strided'), d([3, 2])], (a, b, e) => c.addcmul(a, b, e));
add('addcmul_', 'in-place', (d) => [d([2, 3]), d([3]), d([3])], (a, b, e) => c.addcmul_(fresh(a), b, e, { value: -2 }));
add('addcdiv', 'value 0.5, broadcast', (d) => [d([2, 3]), d([3]), d([2, 1], 'nonzero')], (a, b, e) => c.addcdiv(a, b, e, { value: 0.5 }), true);
add('addcdiv', 'non-contiguous', (d) => [d([3, 2], 'any', 'transposed'), d([3, 2], 'any', 'strided'), d([3, 2], 'nonzero')], (a, b, e) => c.addcdiv(a, b, e));
add('addcdiv_', 'in-place', (d) => [d([2, 3]), d([3]), d([3], 'nonzero')], (a, b, e) => c.addcdiv_(fresh(a), b, e, { value: -2 }));
for (const op of ['maximum', 'minimum'] as const) {
  const fn = two(op === 'maximum' ? c.maximum : c.minimum);
  add(op, 'same shape', (d) => [d([2, 3]), d([2, 3])], fn);
  add(op, 'broadcast', (d) => [d([2, 1, 3]), d([4, 1])], fn);
  add(op, 'non-contiguous', (d) => [d([3, 2], 'any', 'transposed'), d([3, 2], 'any', 'strided')], fn);
}

// unary pointwise ops: contiguous, non-contiguous, 0-dim, in-place
type Unary = (x: Tensor) => Tensor;
const UNARY: [KernelOpName, KernelOpName, Unary, Unary, Domain, boolean][] = [
  ['neg', 'neg_', c.neg, c.neg_, 'any', false],
  ['abs', 'abs_', c.abs, c.abs_, 'nonzero', false],
  ['nan_to_num', 'nan_to_num_', (x) => c.nanToNum(x), (x) => c.nanToNum_(x), 'any', true],
  ['relu', 'relu_', c.relu, c.relu_, 'nonzero', false],
  ['floor', 'floor_', c.floor, c.floor_, 'any', false],
  ['ceil', 'ceil_', c.ceil, c.ceil_, 'any', false],
  ['exp', 'exp_', c.exp, c.exp_, 'any', true],
  ['log', 'log_', c.log, c.log_, 'pos', true],
  ['sqrt', 'sqrt_', c.sqrt, c.sqrt_, 'pos', true],
  ['sin', 'sin_', c.sin, c.sin_, 'any', true],
  ['cos', 'cos_', c.cos, c.cos_, 'any', true],
  ['tanh', 'tanh_', c.tanh, c.tanh_, 'any', true],
  ['sigmoid', 'sigmoid_', c.sigmoid, c.sigmoid_, 'any', true],
  ['rsqrt', 'rsqrt_', c.rsqrt, c.rsqrt_, 'pos', true],
  ['reciprocal', 'reciprocal_', c.reciprocal, c.reciprocal_, 'nonzero', true],
  ['sign', 'sign_', c.sign, c.sign_, 'nonzero', false],
  ['trunc', 'trunc_', c.trunc, c.trunc_, 'any', false],
  ['round', 'round_', (x) => c.round(x), (x) => c.round_(x), 'any', false],
  ['frac', 'frac_', c.frac, c.frac_, 'any', true],
  ['exp2', 'exp2_', c.exp2, c.exp2_, 'any', true],
  ['expm1', 'expm1_', c.expm1, c.expm1_, 'any', true],
  ['log2', 'log2_', c.log2, c.log2_, 'pos', true],
  ['log10', 'log10_', c.log10, c.log10_, 'pos', true],
  ['log1p', 'log1p_', c.log1p, c.log1p_, 'pos', true],
  ['tan', 'tan_', c.tan, c.tan_, 'unit', true],
  ['asin', 'asin_', c.asin, c.asin_, 'unit', true],
  ['acos', 'acos_', c.acos, c.acos_, 'unit', true],
  ['atan', 'atan_', c.atan, c.atan_, 'any', true],
  ['sinh', 'sinh_', c.sinh, c.sinh_, 'any', true],
  ['cosh', 'cosh_', c.cosh, c.cosh_, 'any', true],
  ['erf', 'erf_', c.erf, c.erf_, 'any', true],
  ['erfc', 'erfc_', c.erfc, c.erfc_, 'any', true],
  ['erfinv', 'erfinv_', c.erfinv, c.erfinv_, 'unit', true],
];
for (const [op, inplaceOp, fn, inplace, domain, gradgrad] of UNARY) {
  add(op, '[2, 3]', (d) => [d([2, 3], domain)], fn, gradgrad);
  add(op, 'non-contiguous', (d) => [d([3, 2], domain, 'strided')], fn, gradgrad);
  add(op, '0-dim', (d) => [d([], domain)], fn);
  add(inplaceOp, 'in-place', (d) => [d([2, 3], domain)], (x) => inplace(fresh(x)), gradgrad);
}

// activations: the smooth ones twice differentiable; kinked ones away from their kinks
const KINKED = [-4, -2.5, -0.5, 0.5, 2.5, 4, 7, -1.5, 1.5] as const;
const fixedKinked = (d: Draw) => [d.fixed(KINKED, [3, 3])];
type Act = (x: Tensor) => Tensor;
const ACTIVATIONS: [KernelOpName, string, Act, Domain, boolean][] = [
  ['gelu', 'exact', (x) => c.gelu(x), 'any', true],
  ['gelu', 'tanh approximation', (x) => c.gelu(x, { approximate: 'tanh' }), 'any', true],
  ['silu', 'silu', (x) => c.silu(x), 'any', true],
  ['mish', 'mish', (x) => c.mish(x), 'any', true],
  ['softplus', 'defaults', (x) => c.softplus(x), 'any', true],
  ['softplus', 'beta 2, threshold 1 (linear above)', (x) => c.softplus(x, { beta: 2, threshold: 1 }), 'nonzero', true],
  ['elu', 'alpha 1', (x) => c.elu(x), 'nonzero', true],
  ['elu', 'alpha 0.5', (x) => c.elu(x, { alpha: 0.5 }), 'nonzero', true],
  ['elu', 'selu (elu with its constants)', (x) => c.selu(x), 'nonzero', true],
  ['leaky_relu', 'default slope', (x) => c.leakyRelu(x), 'nonzero', true],
  ['leaky_relu', 'slope 0.2', (x) => c.leakyRelu(x, { negativeSlope: 0.2 }), 'nonzero', true],
  ['hardsigmoid', 'hardsigmoid', (x) => c.hardsigmoid(x), 'any', true],
  ['hardswish', 'hardswish', (x) => c.hardswish(x), 'any', true],
];
for (const [op, title, fn, domain, gradgrad] of ACTIVATIONS) {
  add(op, `${title} [2, 3]`, (d) => [d([2, 3], domain)], fn, gradgrad);
  add(op, `${title} non-contiguous`, (d) => [d([3, 2], domain, 'strided')], fn, gradgrad);
  add(op, `${title} 0-dim`, (d) => [d([], domain)], fn);
}
add('hardtanh', 'defaults, away from the kinks', fixedKinked, (x) => c.hardtanh(x), true);
add('hardtanh', 'minVal -2, maxVal 3', fixedKinked, (x) => c.hardtanh(x, { minVal: -2, maxVal: 3 }), true);
add('hardtanh', 'relu6 (hardtanh(x, 0, 6))', fixedKinked, (x) => c.relu6(x), true);
add('hardsigmoid', 'both flat parts', fixedKinked, (x) => c.hardsigmoid(x), true);
add('hardswish', 'both outer parts', fixedKinked, (x) => c.hardswish(x), true);
add('logit', 'no eps', (d) => [d.fixed([0.1, 0.3, 0.5, 0.7, 0.95, 0.2], [2, 3])], (x) => c.logit(x), true);
add('logit', 'eps 0.25 (zero gradient outside)', (d) => [d.fixed([0.1, 0.3, 0.5, 0.7, 0.95, 0.2], [2, 3])], (x) => c.logit(x, { eps: 0.25 }), true);
// the gamma family with an argument, and torch.special's rows (their domains: x > 0, p in (0, 1), x > (p - 1) / 2)
const POSITIVE = [0.5, 1.25, 2, 3.5, 0.75, 5] as const;
add('polygamma', 'n = 0 (digamma)', (d) => [d.fixed(POSITIVE, [2, 3])], (x) => c.polygamma(x, 0), true);
add('polygamma', 'n = 1 (trigamma)', (d) => [d.fixed(POSITIVE, [2, 3])], (x) => c.polygamma(x, 1), true);
add('polygamma', 'n = 3', (d) => [d.fixed(POSITIVE, [2, 3])], (x) => c.polygamma(x, 3), true);
add('polygamma_', 'in-place', (d) => [d.fixed(POSITIVE, [2, 3])], (x) => c.polygamma_(fresh(x), 2), true);
add('mvlgamma', 'p = 3', (d) => [d.fixed([1.5, 2.25, 3, 4.5, 1.75, 6], [2, 3])], (x) => c.mvlgamma(x, 3), true);
add('mvlgamma_', 'in-place, p = 2', (d) => [d.fixed([1.5, 2.25, 3, 4.5, 1.75, 6], [2, 3])], (x) => c.mvlgamma_(fresh(x), 2), true);
add('special_entr', '[2, 3]', (d) => [d([2, 3], 'pos')], (x) => c.specialEntr(x), true);
add('special_ndtri', '[2, 3]', (d) => [d.fixed([0.1, 0.3, 0.5, 0.7, 0.95, 0.2], [2, 3])], (x) => c.specialNdtri(x), true);
add('special_log_ndtr', '[2, 3]', (d) => [d([2, 3])], (x) => c.specialLogNdtr(x), true);
add('special_erfcx', '[2, 3]', (d) => [d([2, 3])], (x) => c.specialErfcx(x), true);
add('special_i0e', '[2, 3]', (d) => [d([2, 3], 'nonzero')], (x) => c.specialI0e(x), true);
add('special_i1', '[2, 3]', (d) => [d([2, 3])], (x) => c.specialI1(x), true);
add('special_i1e', '[2, 3]', (d) => [d([2, 3], 'nonzero')], (x) => c.specialI1e(x), true);
add('leaky_relu_', 'in-place (LeakyReluBackward1)', (d) => [d([2, 3], 'nonzero')], (x) => c.leakyRelu_(fresh(x), { negativeSlope: 0.2 }), true);
add('elu_', 'in-place (EluBackward1)', (d) => [d([2, 3], 'nonzero')], (x) => c.elu_(fresh(x)), true);
add('elu_', 'selu_ in-place', (d) => [d([2, 3], 'nonzero')], (x) => c.selu_(fresh(x)), true);
add('hardtanh_', 'in-place', fixedKinked, (x) => c.hardtanh_(fresh(x)), true);
add('hardtanh_', 'relu6 inplace', fixedKinked, (x) => c.relu6(fresh(x), { inplace: true }), true);
add('silu_', 'in-place', (d) => [d([2, 3])], (x) => c.silu_(fresh(x)), true);
add('mish_', 'in-place', (d) => [d([2, 3])], (x) => c.mish_(fresh(x)), true);
add('hardsigmoid_', 'in-place', fixedKinked, (x) => c.hardsigmoid_(fresh(x)), true);
add('hardswish_', 'in-place', fixedKinked, (x) => c.hardswish_(fresh(x)), true);
add('logit_', 'in-place, eps 0.25', (d) => [d.fixed([0.1, 0.3, 0.5, 0.7, 0.95, 0.2], [2, 3])], (x) => c.logit_(fresh(x), { eps: 0.25 }), true);

// comparisons written in place keep a float result whose gradient is zero
const COMPARE_INPLACE: [KernelOpName, (a: Tensor, b: Tensor) => Tensor][] = [
  ['eq_', c.eq_], ['ne_', c.ne_], ['lt_', c.lt_], ['le_', c.le_], ['gt_', c.gt_], ['ge_', c.ge_],
];
for (const [op, fn] of COMPARE_INPLACE) add(op, 'zero gradient', (d) => [d([2, 3]), d([3])], (a, b) => fn(fresh(a), b));

add('where', 'broadcast', (d) => [d([2, 3]), d([3]), d.mask([2, 1])], (a, b, m) => c.where(m, a, b), true);
add('where', 'scalar other', (d) => [d([2, 3]), d.mask([2, 3])], (a, m) => c.where(m, a, 0.5));

// reductions
add('sum.dim_IntList', 'all dims', (d) => [d([2, 3])], (x) => c.sum(x), true);
add('sum.dim_IntList', 'dim 1', (d) => [d([2, 3, 4])], (x) => c.sum(x, 1), true);
add('sum.dim_IntList', 'dims [0, -1] keepdim', (d) => [d([2, 3, 4])], (x) => c.sum(x, [0, -1], { keepdim: true }), true);
add('sum.dim_IntList', 'dims [2, 0] (unsorted)', (d) => [d([2, 3, 4], 'any', 'transposed')], (x) => c.sum(x, [2, 0]));
add('sum.dim_IntList', '0-dim input', (d) => [d([])], (x) => c.sum(x, 0));
add('mean.dim', 'dim -1, strided input', (d) => [d([3, 4], 'any', 'strided')], (x) => c.mean(x, -1), true);
add('mean.dim', 'all dims', (d) => [d([2, 3])], (x) => c.mean(x), true);
add('mean.dim', 'dims [0, 2] keepdim', (d) => [d([2, 3, 4])], (x) => c.mean(x, [0, 2], { keepdim: true }), true);
add('mean.dim', '0-dim input', (d) => [d([])], (x) => c.mean(x, 0));
add('prod.dim_int', 'all', (d) => [d([2, 3], 'nonzero')], (x) => c.prod(x));
add('prod.dim_int', 'dim 1', (d) => [d([2, 3], 'nonzero', 'transposed')], (x) => c.prod(x, 1));
add('prod.dim_int', 'dim -1 keepdim', (d) => [d([2, 3], 'nonzero')], (x) => c.prod(x, -1, { keepdim: true }));
add('prod.dim_int', 'one zero per row', (d) => [d.fixed([1.5, 0, 3, 2, 4, 0], [2, 3])], (x) => c.prod(x, 1));
add('prod.dim_int', 'two zeros in a row', (d) => [d.fixed([0, 0, 3, 2, 4, 0.5], [2, 3])], (x) => c.prod(x, 1));
add('prod.dim_int', 'one zero, all dims', (d) => [d.fixed([1.5, 0, 3, 2, 4, 0.5], [2, 3])], (x) => c.prod(x));
add('prod.dim_int', '0-dim input', (d) => [d([], 'nonzero')], (x) => c.prod(x, 0));
for (const op of ['amax', 'amin'] as const) {
  const fn = op === 'amax' ? c.amax : c.amin;
  add(op, 'dim 1', (d) => [d([2, 3])], (x) => fn(x, 1));
  add(op, 'all dims', (d) => [d([2, 3], 'any', 'strided')], (x) => fn(x));
  add(op, 'dims [0, 2] keepdim', (d) => [d([2, 3, 2])], (x) => fn(x, [0, 2], { keepdim: true }));
  // A two-way tie: the central difference is 1/2 for each, which is what the even split gives.
  add(op, 'a tie shares the gradient', (d) => [d.fixed([1, 3, 3, -2, -2, 1], [2, 3])], (x) => fn(x, 1));
  add(op, '0-dim input', (d) => [d([])], (x) => fn(x));
}
for (const op of ['max.dim', 'min.dim'] as const) {
  const fn = op === 'max.dim' ? c.max : c.min;
  add(op, 'dim 1', (d) => [d([3, 4])], (x) => fn(x, 1));
  add(op, 'dim -2 keepdim', (d) => [d([3, 4], 'any', 'transposed')], (x) => fn(x, -2, { keepdim: true }));
  add(op, '0-dim input', (d) => [d([])], (x) => fn(x, 0));
}

// matrix products
add('mm', '[2, 3] @ [3, 4]', (d) => [d([2, 3]), d([3, 4])], two(c.mm), true);
add('mm', 'non-contiguous', (d) => [d([2, 3], 'any', 'transposed'), d([3, 4], 'any', 'strided')], two(c.mm));
add('mm', 'matmul 2-D', (d) => [d([2, 3]), d([3, 2])], two(c.matmul), true);
add('bmm', 'batches', (d) => [d([2, 2, 3]), d([2, 3, 2], 'any', 'strided')], two(c.bmm));
add('bmm', 'matmul with broadcast batch dims', (d) => [d([2, 1, 2, 3]), d([3, 3, 2])], two(c.matmul), true);
add('mv', 'matrix @ vector', (d) => [d([3, 2]), d([2])], two(c.mv));
add('mv', 'matmul 1-D @ 2-D', (d) => [d([3]), d([3, 2], 'any', 'transposed')], two(c.matmul), true);
add('dot', 'vectors', (d) => [d([4]), d([4], 'any', 'strided')], two(c.dot));
add('dot', 'matmul 1-D @ 1-D', (d) => [d([4]), d([4])], two(c.matmul), true);

// views: each one's backward, with a differentiable op after it so the gradient is not trivial
add('view', '[2, 3] -> [3, 2]', (d) => [d([2, 3])], (x) => c.view(x, 3, 2), true);
add('view', 'to 0-dim', (d) => [d([1])], (x) => c.view(x, []));
add('as_strided', 'contiguous input', (d) => [d([3, 3])], (x) => c.asStrided(x, [2, 2], [1, 2], 1), true);
add('as_strided', 'overlapping windows', (d) => [d([5])], (x) => c.asStrided(x, [3, 3], [1, 1], 0), true);
add('as_strided', 'non-contiguous input', (d) => [d([3, 2], 'any', 'transposed')], (x) => c.asStrided(x, [2, 2], [3, 1], 1), true);
add('as_strided', 'basic indexing', (d) => [d([3, 4])], (x) => c.index(x, '1:', '::2'), true);
add('permute', '[2, 3, 4] -> (2, 0, 1)', (d) => [d([2, 3, 4])], (x) => c.permute(x, 2, 0, -2), true);
add('transpose.int', 'dims 0, -1', (d) => [d([2, 3, 4])], (x) => c.transpose(x, 0, -1), true);
add('select.int', 'dim 1, index -1', (d) => [d([2, 3, 4])], (x) => c.select(x, 1, -1), true);
add('select.int', 'of a non-contiguous input', (d) => [d([3, 4], 'any', 'transposed')], (x) => c.select(x, 0, 1));
add('slice.Tensor', 'dim 1 from 1 step 2', (d) => [d([3, 5])], (x) => c.sliceDim(x, 1, 1, null, 2), true);
add('slice.Tensor', 'negative bounds', (d) => [d([6])], (x) => c.sliceDim(x, 0, -4, -1));
add('unsqueeze', 'dim -1', (d) => [d([2, 3])], (x) => c.unsqueeze(x, -1), true);
add('unsqueeze', '0-dim input', (d) => [d([])], (x) => c.unsqueeze(x, 0));
add('squeeze.dims', 'one dim', (d) => [d([3, 1, 2])], (x) => c.squeeze(x, 1), true);
add('squeeze.dims', 'every size-1 dim', (d) => [d([1, 3, 1])], (x) => c.squeeze(x));
// in-place view ops (Note [In-place view ops]): on a non-leaf, as PyTorch requires
add('t_', 'matrix', (d) => [d([2, 3])], (x) => c.t_(fresh(x)), true);
add('t_', 'vector', (d) => [d([3])], (x) => c.t_(fresh(x)));
add('t_', 'of a row slice (a view)', (d) => [d([4, 3])], (x) => c.t_(c.sliceDim(fresh(x), 0, 1, 3)), true);
add('transpose_', 'dims 0, -1', (d) => [d([2, 3, 4])], (x) => c.transpose_(fresh(x), 0, -1), true);
add('squeeze_', 'every size-1 dim', (d) => [d([1, 3, 1])], (x) => c.squeeze_(fresh(x)), true);
add('squeeze_.dim', 'dim 1', (d) => [d([3, 1, 2])], (x) => c.squeeze_(fresh(x), 1), true);
add('unsqueeze_', 'dim -1', (d) => [d([2, 3])], (x) => c.unsqueeze_(fresh(x), -1), true);
add('unsqueeze_', 'then t_', (d) => [d([3])], (x) => c.t_(c.unsqueeze_(fresh(x), 0)));
add('as_strided_', 'contiguous input', (d) => [d([3, 3])], (x) => c.asStrided_(fresh(x), [2, 2], [1, 2], 1), true);
add('as_strided_', 'overlapping windows', (d) => [d([5])], (x) => c.asStrided_(fresh(x), [3, 3], [1, 1], 0));
add('as_strided_', 'non-contiguous input (after t_)', (d) => [d([2, 3])], (x) => c.asStrided_(c.t_(fresh(x)), [2, 2], [3, 1], 1), true);
add('expand', '[3, 1] -> [2, 3, 4]', (d) => [d([3, 1])], (x) => c.expand(x, 2, 3, 4), true);
add('expand', '-1 keeps a size', (d) => [d([3, 1])], (x) => c.expand(x, -1, 4));
add('expand', '0-dim input', (d) => [d([])], (x) => c.expand(x, 3));
add('unfold', 'overlapping windows', (d) => [d([7])], (x) => c.unfold(x, 0, 3, 2), true);
add('unfold', 'dim 1 of a matrix', (d) => [d([2, 5], 'any', 'strided')], (x) => c.unfold(x, 1, 2, 1));
add('unfold', '0-dim input', (d) => [d([])], (x) => c.unfold(x, 0, 1, 1));
add('diagonal', 'offset 1', (d) => [d([3, 4])], (x) => c.diagonal(x, 1), true);
add('diagonal', 'offset -1, dims (2, 0)', (d) => [d([3, 2, 4])], (x) => c.diagonal(x, -1, 2, 0));
add('alias', 'same geometry', (d) => [d([2, 3])], alias, true);
// complex tensors are views of pairs of reals (core's Note [Complex gradients]): the real Jacobian of complex ops through them
add('view_as_complex', 'pairs as complex and back', (d) => [d([3, 2])], (x) => c.viewAsReal(c.viewAsComplex(x)), true);
add('view_as_real', 'complex products, as pairs', (d) => [d([3, 2]), d([3, 2])], (a, b) => c.viewAsReal(c.mul(c.viewAsComplex(a), c.div(c.viewAsComplex(b), c.add(c.viewAsComplex(a), 3)))), true);
add('view_as_real', 'complex matmul, abs and exp, as pairs', (d) => [d([2, 2, 2]), d([2, 2])], (a, b) => c.viewAsReal(c.exp(c.matmul(c.viewAsComplex(a), c.viewAsComplex(b)).div(4))).mul(c.abs(c.viewAsComplex(b)).sum()), true);
add('_conj', 'a lazy conjugate times its operand, resolved', (d) => [d([3, 2]), d([3, 2])], (a, b) => c.viewAsReal(c.mul(c.viewAsComplex(a).conj(), c.viewAsComplex(b)).resolveConj()), true);
add('_conj', 'in place through a lazy conjugate (the fallback writes back)', (d) => [d([3, 2]), d([3, 2])], (a, b) => {
  const z = c.viewAsComplex(a).mul(1);
  z.conj().mul_(c.viewAsComplex(b));
  return c.viewAsReal(z);
}, true);

// copies
add('clone', 'clone', (d) => [d([2, 3], 'any', 'strided')], (x) => c.clone(x), true);
add('_to_copy', 'to float64 with copy', (d) => [d([2, 3])], (x) => c.to(x, { dtype: 'float64', copy: true }), true);
add('copy_', 'src broadcast into a non-leaf', (d) => [d([2, 3]), d([3])], (a, b) => c.copy_(fresh(a), b), true);
add('fill_.Scalar', 'fill a non-leaf', (d) => [d([2, 3])], (x) => c.fill_(fresh(x), 2));

// joining, reordering, linear algebra extras
add('cat', 'dim 1, three inputs', (d) => [d([2, 1]), d([2, 3], 'any', 'strided'), d([2, 2])], (a, b, x) => c.cat([a, b, x], 1), true);
add('cat', 'a legacy empty input', (d) => [d([0]), d([2, 2])], (a, b) => c.cat([a, b]));
add('stack', 'new last dim', (d) => [d([2, 3]), d([2, 3], 'any', 'transposed')], (a, b) => c.stack([a, b], -1), true);
add('repeat', 'more repeats than dims', (d) => [d([2, 1])], (x) => c.repeat(x, 2, 1, 3), true);
add('flip', 'two dims, non-contiguous', (d) => [d([2, 3], 'any', 'strided')], (x) => c.flip(x, [0, 1]), true);
add('roll', 'two dims', (d) => [d([3, 4])], (x) => c.roll(x, [1, -2], [0, 1]), true);
add('roll', 'flattened', (d) => [d([2, 3])], (x) => c.roll(x, 4));
add('triu', 'diagonal 1, batched', (d) => [d([2, 3, 3])], (x) => c.triu(x, 1), true);
add('triu_', 'in place', (d) => [d([3, 4])], (x) => c.triu_(fresh(x), -1));
add('tril', 'diagonal -1', (d) => [d([3, 4], 'any', 'transposed')], (x) => c.tril(x, -1), true);
add('tril_', 'in place', (d) => [d([4, 3])], (x) => c.tril_(fresh(x)));
add('addmm', 'broadcast self, beta and alpha', (d) => [d([3]), d([2, 4]), d([4, 3])], (s, a, b) => c.addmm(s, a, b, { beta: 0.5, alpha: 2 }), true);
add('addmm', 'beta 0', (d) => [d([2, 3]), d([2, 4]), d([4, 3])], (s, a, b) => c.addmm(s, a, b, { beta: 0 }));
add('baddbmm', 'batched', (d) => [d([2, 2, 3]), d([2, 2, 4]), d([2, 4, 3], 'any', 'strided')], (s, a, b) => c.baddbmm(s, a, b, { alpha: 1.5 }), true);

// ---- the tests ----

const differentiable = KERNEL_OP_NAMES.filter((op) => !('notDifferentiable' in DERIVATIVES[op]));
/**
 * The derivative families this file gradchecks on its pure-JS reference backend. The later
 * families (indexing, nn, stats and scans, joins, sorting, linalg extras, spatial) are
 * gradchecked and gradgradchecked on the real CPU kernels from the OpInfo table
 * (@torch-ts/testing, test/gradcheck.test.ts), which this package may not import.
 */
const REFERENCE_FAMILIES: readonly Record<string, unknown>[] = [
  COPY_DERIVATIVES, VIEW_DERIVATIVES, LINALG_DERIVATIVES, POINTWISE_DERIVATIVES, ACTIVATION_TABLE_DERIVATIVES, BINARY_DERIVATIVES, REDUCTION_DERIVATIVES,
];
const referenceOps = new Set(REFERENCE_FAMILIES.flatMap((f) => Object.keys(f)));

describe('the derivative table', () => {
  it('has one entry per op of KERNEL_OP_NAMES, and no other', () => {
    const keys = Object.keys(DERIVATIVES).sort();
    expect(keys).toEqual([...KERNEL_OP_NAMES].sort());
  });

  it('gives every differentiable op at least one gradcheck case', () => {
    const covered = new Set(cases.map((k) => k.op));
    expect(differentiable.filter((op) => referenceOps.has(op) && !covered.has(op))).toEqual([]);
  });

  it("names only arguments of the op's schema in inputs and saves", () => {
    for (const op of differentiable) {
      const e = DERIVATIVES[op];
      if ('notDifferentiable' in e) continue;
      const args = c.getOperator(op).schema.args.map((a) => a.name);
      const saved = e.saves.map((x) => x.split('@')).flatMap(([name, when]) => [name.startsWith('result') ? null : name, when ?? null]);
      const whens = e.saves.map((x) => x.split('@')[1]).filter((w): w is string => w !== undefined);
      expect([...e.inputs, ...saved].filter((n): n is string => n !== null && !args.includes(n)), op).toEqual([]);
      expect(whens.filter((w) => !e.inputs.includes(w)), op).toEqual([]);
    }
  });

  it('says why each non-differentiable op has no gradient', () => {
    for (const op of KERNEL_OP_NAMES) {
      const e = DERIVATIVES[op];
      if ('notDifferentiable' in e) expect(e.notDifferentiable.length, op).toBeGreaterThan(10);
    }
  });
});

describe('gradcheck (float64)', () => {
  for (const k of cases) {
    it(`${k.op}: ${k.title}`, async () => {
      const inputs = k.inputs(drawer(`${k.op}/${k.title}`));
      expect(await gradcheck(k.fn, inputs)).toBe(true);
    });
  }
});

describe('leaks', () => {
  // Backward (through grad and through .grad) releases everything a formula makes.
  for (const k of cases) {
    it(`${k.op}: ${k.title}`, () => {
      const before = { ...c.liveCounts('cpu') };
      c.tidy(() => {
        const inputs = k.inputs(drawer(`${k.op}/${k.title}/leak`));
        const outs = ([] as Tensor[]).concat(k.fn(...inputs)).filter((o) => o.requiresGrad);
        const diff = inputs.filter((t) => t.requiresGrad);
        for (const o of outs) grad(o, diff, { gradOutputs: c.onesLike(o), allowUnused: true, retainGraph: true });
        for (const o of outs) o.backward(c.onesLike(o), { retainGraph: true });
        for (const t of diff) t.grad?.dispose();
      });
      expect(c.liveCounts('cpu')).toEqual(before);
    });
  }

  // A double backward (the first gradients built with createGraph) releases everything too.
  for (const k of cases.filter((x) => x.gradgrad)) {
    it(`${k.op}: ${k.title} (createGraph)`, () => {
      const before = { ...c.liveCounts('cpu') };
      c.tidy(() => {
        const inputs = k.inputs(drawer(`${k.op}/${k.title}/leak2`));
        const outs = ([] as Tensor[]).concat(k.fn(...inputs)).filter((o) => o.requiresGrad);
        const diff = inputs.filter((t) => t.requiresGrad);
        const firsts = grad(outs, diff, { gradOutputs: outs.map((o) => c.onesLike(o)), allowUnused: true, createGraph: true });
        // one backward over all of them: their graphs share the forward's nodes
        const squares = firsts.filter((g): g is Tensor => g !== null && g.requiresGrad).map((g) => c.sum(c.mul(g, g)));
        if (squares.length) squares.reduce((a, b) => c.add(a, b)).backward();
        for (const t of diff) t.grad?.dispose();
      });
      expect(c.liveCounts('cpu')).toEqual(before);
    });
  }
});

describe('gradgradcheck (float64)', () => {
  for (const k of cases.filter((x) => x.gradgrad)) {
    it(`${k.op}: ${k.title}`, async () => {
      const inputs = k.inputs(drawer(`${k.op}/${k.title}/gradgrad`));
      expect(await gradgradcheck(k.fn, inputs)).toBe(true);
    });
  }
});

// The Node each op records, as PyTorch names it (the case's last op is the op itself).
const NAMED: [string, (d: Draw) => Tensor][] = [
  ['AddBackward0', (d) => c.add(d([2]), d([2]))],
  ['AddBackward0', (d) => c.add_(fresh(d([2])), 1)],
  ['SubBackward0', (d) => c.sub(d([2]), 1)],
  ['MulBackward0', (d) => c.mul(d([2]), d([2]))],
  ['DivBackward0', (d) => c.div(d([2]), 2)],
  ['MeanBackward0', (d) => c.mean(d([2, 3]))],
  ['MeanBackward1', (d) => c.mean(d([2, 3]), 1)],
  ['DivBackward2', (d) => c.div(d([2]), d([2]), { roundingMode: 'floor' })],
  ['PowBackward0', (d) => c.pow(d([2]), 2)],
  ['PowBackward1', (d) => c.pow(d([2]), d([2]))],
  ['PowBackward0', (d) => c.pow_(fresh(d([2])), 2)],
  ['RemainderBackward0', (d) => c.remainder(d([2]), 2)],
  ['RemainderBackward1', (d) => c.remainder(d([2]), d([2], 'nonzero'))],
  ['MaximumBackward0', (d) => c.maximum(d([2]), d([2]))],
  ['FmodBackward0', (d) => c.fmod(d([2]), 2)],
  ['FmodBackward1', (d) => c.fmod(d([2]), d([2], 'nonzero'))],
  ['Atan2Backward0', (d) => c.atan2(d([2]), d([2]))],
  ['HypotBackward0', (d) => c.hypot(d([2]), d([2]))],
  ['FmaxBackward0', (d) => c.fmax(d([2]), d([2]))],
  ['ClampBackward1', (d) => c.clamp(d([2]), 0, 1)],
  ['LerpBackward0', (d) => c.lerp(d([2]), d([2]), 0.5)],
  ['AddcmulBackward0', (d) => c.addcmul(d([2]), d([2]), d([2]))],
  ['AddcdivBackward0', (d) => c.addcdiv(d([2]), d([2]), d([2], 'nonzero'))],
  ['LerpBackward1', (d) => c.lerp(d([2]), d([2]), d([2]))],
  ['ClampBackward0', (d) => c.clamp(d([2]), d([2]), null)],
  ['ClampBackward0', (d) => c.clamp(d([2]), null, d([2]))],
  ['ClampMinBackward0', (d) => c.clampMin(d([2]), 0)],
  ['ClampMinBackward1', (d) => c.clampMin(d([2]), d([2]))],
  ['ClampMaxBackward0', (d) => c.clampMax(d([2]), 0)],
  ['ClampMaxBackward1', (d) => c.clampMax(d([2]), d([2]))],
  ['FminBackward0', (d) => c.fmin(d([2]), d([2]))],
  ['MinimumBackward0', (d) => c.minimum(d([2]), d([2]))],
  ['EqBackward0', (d) => c.eq_(fresh(d([2])), 0)],
  ['GeBackward1', (d) => c.ge_(fresh(d([2])), d([2]))],
  ['NegBackward0', (d) => c.neg(d([2]))],
  ['GeluBackward0', (d) => c.gelu(d([2]), { approximate: 'tanh' })],
  ['SiluBackward0', (d) => c.silu(d([2]))],
  ['MishBackward0', (d) => c.mish(d([2]))],
  ['SoftplusBackward0', (d) => c.softplus(d([2]))],
  ['EluBackward0', (d) => c.selu(d([2]))],
  ['EluBackward1', (d) => c.elu_(fresh(d([2])))],
  ['LeakyReluBackward0', (d) => c.leakyRelu(d([2]))],
  ['LeakyReluBackward1', (d) => c.leakyRelu_(fresh(d([2])))],
  ['HardtanhBackward0', (d) => c.relu6(d([2]))],
  ['HardtanhBackward0', (d) => c.hardtanh_(fresh(d([2])))],
  ['HardsigmoidBackward0', (d) => c.hardsigmoid(d([2]))],
  ['HardswishBackward0', (d) => c.hardswish_(fresh(d([2])))],
  ['LogitBackward0', (d) => c.logit(d([2], 'unit'))],
  ['AbsBackward0', (d) => c.abs(d([2]))],
  ['NanToNumBackward0', (d) => c.nanToNum(d([2]))],
  ['NanToNumBackward0', (d) => c.nanToNum_(fresh(d([2])), { nan: 1 })],
  ['ReluBackward0', (d) => c.relu(d([2]))],
  ['FloorBackward0', (d) => c.floor(d([2]))],
  ['CeilBackward0', (d) => c.ceil(d([2]))],
  ['ExpBackward0', (d) => c.exp(d([2]))],
  ['ExpBackward0', (d) => c.exp_(fresh(d([2])))],
  ['LogBackward0', (d) => c.log(d([2], 'pos'))],
  ['SqrtBackward0', (d) => c.sqrt(d([2], 'pos'))],
  ['SinBackward0', (d) => c.sin(d([2]))],
  ['CosBackward0', (d) => c.cos(d([2]))],
  ['TanhBackward0', (d) => c.tanh(d([2]))],
  ['SigmoidBackward0', (d) => c.sigmoid(d([2]))],
  ['PowBackward0', (d) => c.square(d([2]))],
  ['RsqrtBackward0', (d) => c.rsqrt(d([2], 'pos'))],
  ['ReciprocalBackward0', (d) => c.reciprocal(d([2], 'nonzero'))],
  ['SignBackward0', (d) => c.sign(d([2]))],
  ['TruncBackward0', (d) => c.trunc(d([2]))],
  ['FracBackward0', (d) => c.frac(d([2]))],
  ['Exp2Backward0', (d) => c.exp2(d([2]))],
  ['Expm1Backward0', (d) => c.expm1(d([2]))],
  ['Log2Backward0', (d) => c.log2(d([2], 'pos'))],
  ['Log10Backward0', (d) => c.log10(d([2], 'pos'))],
  ['Log1PBackward0', (d) => c.log1p(d([2], 'pos'))],
  ['TanBackward0', (d) => c.tan(d([2], 'unit'))],
  ['AsinBackward0', (d) => c.asin(d([2], 'unit'))],
  ['AcosBackward0', (d) => c.acos(d([2], 'unit'))],
  ['AtanBackward0', (d) => c.atan(d([2]))],
  ['SinhBackward0', (d) => c.sinh(d([2]))],
  ['CoshBackward0', (d) => c.cosh(d([2]))],
  ['ErfBackward0', (d) => c.erf(d([2]))],
  ['ErfcBackward0', (d) => c.erfc(d([2]))],
  ['ErfinvBackward0', (d) => c.erfinv(d([2], 'unit'))],
  ['Log1PBackward0', (d) => c.log1p_(fresh(d([2], 'pos')))],
  ['WhereBackward0', (d) => c.where(d.mask([2]), d([2]), d([2]))],
  ['SumBackward0', (d) => c.sum(d([2, 2]))],
  ['SumBackward1', (d) => c.sum(d([2, 2]), 0)],
  ['ProdBackward0', (d) => c.prod(d([2, 2]))],
  ['ProdBackward1', (d) => c.prod(d([2, 2]), 0)],
  ['AmaxBackward0', (d) => c.amax(d([2, 2]), 0)],
  ['AminBackward0', (d) => c.amin(d([2, 2]), 0)],
  ['MaxBackward0', (d) => c.max(d([2, 2]), 0).values],
  ['MinBackward0', (d) => c.min(d([2, 2]), 0).values],
  ['MmBackward0', (d) => c.mm(d([2, 2]), d([2, 2]))],
  ['BmmBackward0', (d) => c.bmm(d([1, 2, 2]), d([1, 2, 2]))],
  ['MvBackward0', (d) => c.mv(d([2, 2]), d([2]))],
  ['DotBackward0', (d) => c.dot(d([2]), d([2]))],
  ['ViewBackward0', (d) => c.view(d([2, 2]), 4)],
  ['AsStridedBackward0', (d) => c.asStrided(d([4]), [2], [2])],
  ['PermuteBackward0', (d) => c.permute(d([2, 2]), 1, 0)],
  ['TransposeBackward0', (d) => c.transpose(d([2, 2]), 0, 1)],
  ['SelectBackward0', (d) => c.select(d([2, 2]), 0, 1)],
  ['SliceBackward0', (d) => c.sliceDim(d([4]), 0, 1, 3)],
  ['UnsqueezeBackward0', (d) => c.unsqueeze(d([2]), 0)],
  ['SqueezeBackward0', (d) => c.squeeze(d([1, 2]))],
  ['SqueezeBackward1', (d) => c.squeeze(d([1, 2]), 0)],
  ['TBackward1', (d) => c.t_(fresh(d([2, 2])))],
  ['TransposeBackward1', (d) => c.transpose_(fresh(d([2, 2])), 0, 1)],
  ['TransposeBackward1', (d) => c.swapaxes_(fresh(d([2, 2])), 0, 1)],
  ['TransposeBackward1', (d) => c.swapdims_(fresh(d([2, 2])), 0, 1)],
  ['SqueezeBackward2', (d) => c.squeeze_(fresh(d([1, 2])))],
  ['SqueezeBackward3', (d) => c.squeeze_(fresh(d([1, 2])), 0)],
  ['UnsqueezeBackward1', (d) => c.unsqueeze_(fresh(d([2])), 0)],
  ['AsStridedBackward1', (d) => c.asStrided_(fresh(d([4])), [2], [2])],
  ['ExpandBackward0', (d) => c.expand(d([1, 2]), 3, 2)],
  ['UnfoldBackward0', (d) => c.unfold(d([4]), 0, 2, 1)],
  ['DiagonalBackward0', (d) => c.diagonal(d([2, 2]))],
  ['AliasBackward0', (d) => alias(d([2]))],
  ['CloneBackward0', (d) => c.clone(d([2]))],
  ['ToCopyBackward0', (d) => c.to(d([2]), 'float32')],
  ['torch::autograd::CopyBackwards', (d) => c.copy_(fresh(d([2])), d([2]))],
  ['FillBackward2', (d) => c.fill_(fresh(d([2])), 1)],
];

describe('Node names', () => {
  for (const [name, make] of NAMED) {
    it(name, () => {
      expect(make(drawer(name)).gradFn?.name()).toBe(name);
    });
  }

  // digits may be part of the op's name: Exp2Backward0, Log10Backward0, Expm1Backward0
  it('every differentiable entry is named as in PyTorch (<Op>Backward<n>, or CopyBackwards)', () => {
    for (const op of differentiable) {
      const e = DERIVATIVES[op];
      if ('notDifferentiable' in e) continue;
      // a name that depends on the call: try a tensor (null) and a scalar in each position
      const names = typeof e.name === 'string' ? [e.name] : [[null, null, null], [null, 2, 2]].map((a) => (e.name as (a: unknown[]) => string)(a));
      // NotImplemented: PyTorch's Node for a formula it does not have (scatter with reduce=)
      for (const n of names) expect(n, op).toMatch(/^((torch::autograd::)?[A-Z][A-Za-z0-9]*Backward(s|\d)|NotImplemented)$/);
    }
  });

  it('non-differentiable ops give results that do not require grad', () => {
    const d = drawer('non-differentiable');
    const x = d([2, 3]);
    for (const y of [c.eq(x, 0), c.lt(x, x), c.logicalAnd(x, x), c.logicalNot(x), c.argmax(x), c.argmin(x, 1), c.detach(x), c.max(x, 1).indices]) {
      expect(y.requiresGrad).toBe(false);
      expect(y.gradFn).toBeNull();
    }
  });
});

// ---- gradients against PyTorch ----

interface GoldenTensor {
  readonly shape: readonly number[];
  readonly values: readonly number[];
}

interface GoldenCase {
  readonly inputs: Readonly<Record<string, GoldenTensor>>;
  readonly grad_fn: string;
  readonly grad_output?: GoldenTensor;
  readonly grads: Readonly<Record<string, readonly number[] | null>>;
}

const goldens = JSON.parse(readFileSync(new URL('./goldens/grads.json', import.meta.url), 'utf8')) as {
  torch_version: string;
  cases: Record<string, GoldenCase>;
};

type Expr = (...x: Tensor[]) => Tensor;

// The expressions of make-goldens.py, spelled in torch-ts (inputs in the same order).
const EXPRESSIONS: Record<string, Expr> = {
  'seed-example': (t0, t1) => c.mean(c.sin(c.add(c.add(c.mm(t0, t1), t1), t0))),
  'add-alpha-broadcast': (a, b) => c.add(a, b, { alpha: 2.5 }),
  'sub-alpha-broadcast': (a, b) => c.sub(a, b, { alpha: 0.5 }),
  'mul-broadcast': (a, b) => c.mul(a, b),
  'mul-scalar': (a) => c.mul(a, 3.5),
  'mul-self': (a) => c.add(c.mul(a, a), c.mul(c.sin(a), a)),
  div: (a, b) => c.div(a, b),
  'div-scalar': (a) => c.div(a, 4),
  'div-broadcast-0dim': (a, b) => c.div(a, b),
  'pow-scalar-int': (a) => c.pow(a, 3),
  'pow-scalar-frac': (a) => c.pow(a, 2.5),
  'pow-scalar-negative': (a) => c.pow(a, -2),
  'pow-tensor': (a, b) => c.pow(a, b),
  'pow-tensor-zero-base': (a, b) => c.pow(a, b),
  'pow-scalar-base': (b) => c.pow(2, b).sum(),
  'pow-scalar-base-zero': (b) => c.pow(0, b).sum(),
  exp: (a) => c.exp(a),
  log: (a) => c.log(a),
  sqrt: (a) => c.sqrt(a),
  'sin-cos': (a) => c.mul(c.sin(a), c.cos(a)),
  tanh: (a) => c.tanh(a),
  sigmoid: (a) => c.sigmoid(a),
  relu: (a) => c.relu(a),
  'neg-abs': (a) => c.mul(c.abs(c.neg(a)), a),
  'floor-ceil': (a) => c.add(c.mul(c.floor(a), a), c.ceil(a)),
  'maximum-ties': (a, b) => c.maximum(a, b),
  'minimum-ties': (a, b) => c.minimum(a, b),
  remainder: (a, b) => c.remainder(a, b),
  where: (a, b) => c.where(c.gt(a, 0), a, b),
  'sum-all': (a) => c.sum(a),
  'sum-dim': (a) => c.sum(a, 1),
  'sum-dims-keepdim': (a) => c.sum(a, [0, 2], { keepdim: true }),
  'sum-neg-dim': (a) => c.sum(a, -1),
  'mean-dim': (a) => c.mean(a, 0),
  'prod-all': (a) => c.prod(a),
  'prod-dim': (a) => c.prod(a, 1),
  'prod-one-zero': (a) => c.prod(a, 1),
  'prod-two-zeros': (a) => c.prod(a, 1),
  'prod-all-one-zero': (a) => c.prod(a),
  'amax-ties': (a) => c.amax(a, 1),
  'amin-all': (a) => c.amin(a),
  'max-dim': (a) => c.max(a, 1).values,
  'min-dim-keepdim': (a) => c.min(a, 0, { keepdim: true }).values,
  mm: (a, b) => c.mm(a, b),
  bmm: (a, b) => c.bmm(a, b),
  mv: (a, v) => c.mv(a, v),
  dot: (a, b) => c.dot(a, b),
  'matmul-batch-broadcast': (a, b) => c.matmul(a, b),
  view: (a) => c.mul(c.view(a, 6), c.arange(6, { dtype: 'float64' })),
  'transpose-mm': (a, b) => c.sum(c.tanh(c.mm(c.transpose(a, 0, 1), b)), 0),
  permute: (a) => c.permute(a, 2, 0, 1),
  select: (a) => c.select(a, 1, -1),
  'slice-step': (a) => c.sliceDim(a, 1, 1, null, 2),
  'squeeze-unsqueeze': (a) => c.unsqueeze(c.squeeze(a, 1), -1),
  expand: (a) => c.expand(a, 2, 3, 4),
  'unfold-overlapping': (a) => c.unfold(a, 0, 3, 2),
  'diagonal-offset': (a) => c.diagonal(a, 1),
  'as-strided': (a) => c.asStrided(a, [2, 2], [1, 2], 1),
  'index-basic': (a) => c.index(a, '1:', '::2'),
  'to-float32': (a) => c.double(c.mul(c.float(a), 3)),
  clone: (a) => c.mul(c.clone(a), a),
  'copy-inplace': (a, b, cc) => c.mul(c.copy_(c.mul(b, 1), a), cc),
  'fill-inplace': (a) => c.mul(c.fill_(c.mul(a, 2), 3), a),
  'sin-mul-inplace': (a, b) => c.mul_(c.sin(a), b),
  'sigmoid-inplace': (a) => c.sigmoid_(c.mul(a, 2)),
  'relu-inplace': (a) => c.relu_(c.add(a, 0)),
};

const make = (g: GoldenTensor) => tensor(Float64Array.from(g.values)).reshape([...g.shape]);

/** assert_close for float64: |got - want| <= 1e-7 + 1e-7 * |want|, element by element. */
function expectClose(got: ArrayLike<number>, want: readonly number[], what: string): void {
  expect(got.length, `${what}: number of elements`).toBe(want.length);
  const bad = want.flatMap((w, i) => (Math.abs(got[i] - w) <= 1e-7 + 1e-7 * Math.abs(w) ? [] : [`[${i}] got ${got[i]}, want ${w}`]));
  expect(bad, what).toEqual([]);
}

describe(`gradients match PyTorch ${goldens.torch_version} (goldens/grads.json)`, () => {
  it('has an expression for every golden case, and a golden for every expression', () => {
    expect(Object.keys(EXPRESSIONS).sort()).toEqual(Object.keys(goldens.cases).sort());
  });

  for (const [name, gc] of Object.entries(goldens.cases)) {
    it(name, () => {
      const expr = EXPRESSIONS[name];
      expect(expr, `no expression for ${name}`).toBeDefined();
      const names = Object.keys(gc.inputs);
      const inputs = names.map((k) => {
        const t = make(gc.inputs[k]);
        return t.isLeaf ? t.requiresGrad_(true) : t;
      });
      const y = expr(...inputs);
      if (gc.grad_output) y.backward(make(gc.grad_output));
      else y.backward();
      names.forEach((k, i) => {
        const want = gc.grads[k];
        const got = inputs[i].grad;
        if (want === null) expect(got, `${k}.grad`).toBeNull();
        else {
          expect(got, `${k}.grad`).not.toBeNull();
          expect(got!.shape, `${k}.grad shape`).toEqual(gc.inputs[k].shape);
          expectClose(got!.dataSync() as Float64Array, want, `${name}: ${k}.grad`);
        }
      });
    });
  }
});

// ---- what a node keeps ----

describe('saved tensors: only what PyTorch keeps', () => {
  // A backward that needs only its input's shape reads it from the context and saves nothing,
  // so the input may change in place afterwards (PyTorch saves only the sizes too).
  it('y = x.select(0, 0); x.add_(1); y.backward(g) works', () => {
    const x0 = drawer('select-shape')([2, 3]);
    const x = c.mul(x0, 1);
    const y = c.select(x, 0, 0);
    c.add_(x, 1);
    y.backward(c.onesLike(y));
    expect(Array.from(x0.grad!.dataSync() as Float64Array)).toEqual([1, 1, 1, 0, 0, 0]);
  });

  it('s = x.sum(); x.add_(1); s.backward() works, and a second backward too', () => {
    const x0 = drawer('sum-shape')([2, 3]);
    const x = c.mul(x0, 2);
    const s = c.sum(x);
    c.add_(x, 1);
    s.backward();
    s.backward();
    expect(Array.from(x0.grad!.dataSync() as Float64Array)).toEqual([4, 4, 4, 4, 4, 4]);
  });

  // An operand is saved only for the other operand's gradient (`self@other`).
  it('y = x.mul(2); x.add_(1); y.backward(g) works (x * 2 keeps nothing of x)', () => {
    const x0 = drawer('mul-scalar')([2, 3]);
    const x = c.mul(x0, 1);
    const y = c.mul(x, 2);
    c.add_(x, 1);
    y.backward(c.onesLike(y));
    expect(Array.from(x0.grad!.dataSync() as Float64Array)).toEqual([2, 2, 2, 2, 2, 2]);
  });

  it('y = a.mm(w) with a constant a keeps w out of it: w.add_(1) later is fine', () => {
    const d = drawer('mm-saves');
    const a = c.detach(d([2, 3]));
    const w0 = d([3, 2]);
    const w = c.mul(w0, 1);
    const y = c.mm(a, w);
    c.add_(w, 1);
    y.backward(c.onesLike(y));
    expect(w0.grad!.shape).toEqual([3, 2]);
  });

  it('but a tensor a formula reads still may not change in place', () => {
    const x = c.mul(drawer('exp-saves')([3]), 1);
    const y = c.exp(c.mul(x, 1));
    c.mul_(y, 2);
    expect(() => y.backward(c.onesLike(y))).toThrow(/modified by an inplace operation/);
  });
});
