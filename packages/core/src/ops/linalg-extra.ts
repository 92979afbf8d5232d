import type { OperatorHandle } from '../dispatch/dispatcher';
import type { Device } from '../device';
import { isFloatingType } from '../dtype';
import { DTypeError, ShapeError, TorchError, TorchTypeError, fmtShape } from '../errors';
import { broadcastShapes } from '../iterator';
import { makeBinder, typeName, type BoundArgs } from './binder';
import { front, type OptionsOf } from './front';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { callFunctional, callMutating, unwrapTensor } from './call';
import { defineComposite } from './composite';
import { broadcastTo, castTo, checkNoInternalOverlap, commonDevice, releaseAll, sameShape, scalarTensor, torchTypeName, type Scalar } from './meta-utils';
import { callWithOut, defineOutVariant } from './out-variant';
import { mul, sum } from './generated/table-ops';
import type { BackendImpls } from './backend-impls';
import { defineStructured, implOf, type Backend } from './registry';
import { bmm, mm } from './linalg';
import { reshape } from './shape-ops';
import { diagonal, expand, permute } from './views';

/**
 * Linear algebra beyond the matrix products: addmm and baddbmm (kernels of their own, as
 * PyTorch's, with AddmmBackward0 / BaddbmmBackward0), and the composites outer, tensordot
 * and einsum, which PyTorch also composes of views, reshapes and (b)mm.
 */

function isOne(v: Scalar): boolean {
  return v === 1 || v === 1n || v === true;
}

function isZero(v: Scalar): boolean {
  return v === 0 || v === 0n || v === false;
}

function checkAlphaBeta(op: string, dtype: TensorImpl['dtype'], beta: Scalar, alpha: Scalar): void {
  if (!isFloatingType(dtype)) {
    for (const [name, v] of [['beta', beta], ['alpha', alpha]] as const) {
      if (typeof v === 'number' && !Number.isInteger(v)) {
        throw new DTypeError(`${op}: For integral input tensors, argument ${name} must not be a floating point number.`);
      }
    }
  }
}

/**
 * out = beta * self + alpha * (a @ b) in `a`'s dtype, with the product from the backend's
 * `product` impl (mm or bmm); beta = 0 ignores `self` (its NaNs included), as PyTorch does.
 */
/**
 * Note [Fused addmm]
 * addmm(self, a, b) with beta = alpha = 1 (what `linear` with a bias runs) is one GEMM whose
 * C starts as self, as BLAS computes C = beta * C + alpha * A @ B, where the backend offers
 * the fused impl (the CPU does); other betas and alphas, bmm, and backends without it
 * compose mm, mul and add. The result is the same sum up to the rounding of one add.
 */
function fusedAddmm(op: string, fused: BackendImpls['addmm'], self: TensorImpl, m1: TensorImpl, m2: TensorImpl, outSizes: number[], device: Device): TensorImpl {
  const out = TensorImpl.empty(op, outSizes, m1.dtype, device);
  const s = broadcastTo(self, outSizes);
  try {
    fused(out, s, m1, m2);
  } catch (e) {
    out.release();
    throw e;
  } finally {
    s.release();
  }
  return out;
}

function addProduct(
  b: Backend,
  op: string,
  product: 'mm' | 'bmm',
  self: TensorImpl,
  m1: TensorImpl,
  m2: TensorImpl,
  outSizes: number[],
  beta: Scalar,
  alpha: Scalar,
): TensorImpl {
  const dtype = m1.dtype;
  if (m2.dtype !== dtype) {
    throw new DTypeError(`${op}: expected ${product === 'mm' ? 'mat1 and mat2' : 'batch1, batch2 and self'} to have the same dtype, but got: ${dtype} != ${m2.dtype}`);
  }
  if (self.dtype !== dtype) {
    throw new DTypeError(`${op}: self and ${product === 'mm' ? 'mat2' : 'batch2'} must have the same dtype, but got ${torchTypeName(self.dtype)} and ${torchTypeName(dtype)}`);
  }
  if (dtype === 'bool') throw new DTypeError(`${op}: "${product === 'mm' ? 'addmm_impl_cpu_' : 'baddbmm'}" not implemented for 'Bool'`);
  checkAlphaBeta(op, dtype, beta, alpha);
  const device = commonDevice(op, [self, m1, m2]);
  const shape = broadcastShapes(op, self.sizes, outSizes);
  if (shape.length !== outSizes.length || shape.some((s, i) => s !== outSizes[i])) {
    throw new ShapeError(`${op}: self of shape ${fmtShape(self.sizes)} does not broadcast to the result's shape ${fmtShape(outSizes)}`);
  }
  if (dtype === 'float16' || dtype === 'bfloat16') {
    // PyTorch 2.x computes 16-bit addmm in float32 (opmath) and rounds once, on store
    const wide = [self, m1, m2].map((t) => castTo(b, op, t, 'float32', device));
    try {
      const r = addProduct(b, op, product, wide[0], wide[1], wide[2], outSizes, beta, alpha);
      try {
        return castTo(b, op, r, dtype, device);
      } finally {
        r.release();
      }
    } finally {
      releaseAll(wide);
    }
  }
  const fused = product === 'mm' && (dtype === 'float32' || dtype === 'float64') && isOne(beta) && isOne(alpha) ? b.impls.addmm : undefined;
  if (typeof fused === 'function') return fusedAddmm(op, fused, self, m1, m2, outSizes, device);
  const prod = TensorImpl.empty(op, outSizes, dtype, device);
  const temps: TensorImpl[] = [];
  try {
    implOf(b, product, op)(prod, m1, m2);
    if (isZero(beta)) {
      if (!isOne(alpha)) {
        const a = scalarTensor(b, op, alpha, dtype, device);
        temps.push(a);
        const ab = broadcastTo(a, outSizes);
        temps.push(ab);
        implOf(b, 'mul', op)(prod, prod, ab);
      }
      return prod;
    }
    const out = TensorImpl.empty(op, outSizes, dtype, device);
    try {
      let s = broadcastTo(self, outSizes);
      temps.push(s);
      if (!isOne(beta)) {
        const bt = scalarTensor(b, op, beta, dtype, device);
        temps.push(bt);
        const bb = broadcastTo(bt, outSizes);
        temps.push(bb);
        implOf(b, 'mul', op)(out, s, bb);
        s = out;
      }
      implOf(b, 'add', op)(out, s, prod, typeof alpha === 'boolean' ? (alpha ? 1 : 0) : alpha);
    } catch (e) {
      out.release();
      throw e;
    }
    prod.release();
    return out;
  } catch (e) {
    if (prod.isAlive) prod.release();
    throw e;
  } finally {
    releaseAll(temps);
  }
}

/** The result's sizes of addmm(self, a, m), after PyTorch's checks of the two matrices. */
function addmmSizes(op: string, a: TensorImpl, m: TensorImpl): number[] {
  if (a.dim !== 2) throw new ShapeError(`${op}: mat1 must be a matrix, got ${a.dim}-D tensor`);
  if (m.dim !== 2) throw new ShapeError(`${op}: mat2 must be a matrix, got ${m.dim}-D tensor`);
  if (a.sizes[1] !== m.sizes[0]) {
    throw new ShapeError(`${op}: mat1 and mat2 shapes cannot be multiplied (${a.sizes[0]}x${a.sizes[1]} and ${m.sizes[0]}x${m.sizes[1]})`);
  }
  return [a.sizes[0], m.sizes[1]];
}

/** The result's sizes of baddbmm(self, a, m), after PyTorch's checks of the two batches. */
function baddbmmSizes(op: string, a: TensorImpl, m: TensorImpl): number[] {
  if (a.dim !== 3) throw new ShapeError(`${op}: batch1 must be a 3D tensor, got ${a.dim}-D tensor`);
  if (m.dim !== 3) throw new ShapeError(`${op}: batch2 must be a 3D tensor, got ${m.dim}-D tensor`);
  if (a.sizes[0] !== m.sizes[0] || a.sizes[2] !== m.sizes[1]) {
    throw new ShapeError(
      `${op}: Expected size for first two dimensions of batch2 tensor to be: [${a.sizes[0]}, ${a.sizes[2]}] but got: [${m.sizes[0]}, ${m.sizes[1]}].`,
    );
  }
  return [a.sizes[0], a.sizes[1], m.sizes[2]];
}

export const ADDMM = defineStructured(
  'addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor',
  ([self, mat1, mat2, beta, alpha], b) => addProduct(b, 'addmm', 'mm', self, mat1, mat2, addmmSizes('addmm', mat1, mat2), beta, alpha),
);

export const BADDBMM = defineStructured(
  'baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor',
  ([self, batch1, batch2, beta, alpha], b) => addProduct(b, 'baddbmm', 'bmm', self, batch1, batch2, baddbmmSizes('baddbmm', batch1, batch2), beta, alpha),
);

const ADDMM_OUT = defineOutVariant(ADDMM);
const BADDBMM_OUT = defineOutVariant(BADDBMM);

/**
 * Note [In-place addmm]
 * addmm_ / baddbmm_ are operators of their own, as in PyTorch, so that autograd records
 * AddmmBackward0 / BaddbmmBackward0 on self (its gradient is grad * beta whatever self held,
 * so nothing of self is saved). The kernel computes the out-of-place result (the same checks
 * and paths, Note [Fused addmm]) and copies it into self; self must already have the result's
 * shape, as PyTorch's in-place call requires: it cannot broadcast up.
 */
function addProductInplace(
  b: Backend,
  op: string,
  product: 'mm' | 'bmm',
  self: TensorImpl,
  m1: TensorImpl,
  m2: TensorImpl,
  outSizes: number[],
  beta: Scalar,
  alpha: Scalar,
): TensorImpl {
  if (!sameShape(self.sizes, outSizes)) {
    throw new ShapeError(`${op}: Bad in-place call: input tensor size ${fmtShape(self.sizes)} and output tensor size ${fmtShape(outSizes)} should match`);
  }
  checkNoInternalOverlap(op, self);
  const r = addProduct(b, op, product, self, m1, m2, outSizes, beta, alpha);
  try {
    if (self.numel > 0) implOf(b, 'copy', op)(self, r);
  } finally {
    r.release();
  }
  return self;
}

export const ADDMM_ = defineStructured(
  'addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)',
  ([self, mat1, mat2, beta, alpha], b) => addProductInplace(b, 'addmm_', 'mm', self, mat1, mat2, addmmSizes('addmm_', mat1, mat2), beta, alpha),
  ['inplace'],
);

export const BADDBMM_ = defineStructured(
  'baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)',
  ([self, batch1, batch2, beta, alpha], b) => addProductInplace(b, 'baddbmm_', 'bmm', self, batch1, batch2, baddbmmSizes('baddbmm_', batch1, batch2), beta, alpha),
  ['inplace'],
);

// ---- outer ----
export const OUTER = defineComposite('outer(Tensor self, Tensor vec2) -> Tensor', ([self, vec2]) => {
    const a = self;
    const v = vec2;
    if (a.dim() !== 1) throw new ShapeError(`outer: Expected 1-D argument self, but got ${a.dim()}-D`);
    if (v.dim() !== 1) throw new ShapeError(`outer: Expected 1-D argument vec2, but got ${v.dim()}-D`);
    return mul(reshape(a, [a.shape[0], 1]), v);
  });

// ---- tensordot ----
export const TENSORDOT = defineComposite('tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor', ([self, other, dimsA, dimsB]) => tensordotComposite(self, other, dimsA, dimsB));

function normDims(op: string, dims: readonly number[], nd: number): number[] {
  const out = dims.map((d) => {
    if (d < -nd || d >= nd) throw new ShapeError(`${op}: Dimension out of range (expected to be in range of [${-nd}, ${nd - 1}], but got ${d})`);
    return d < 0 ? d + nd : d;
  });
  if (new Set(out).size !== out.length) throw new TorchError(`${op}: dim ${out.find((d, i) => out.indexOf(d) !== i)} appears multiple times in the list of dims`);
  return out;
}

function tensordotComposite(a: Tensor, b: Tensor, dimsA: readonly number[], dimsB: readonly number[]): Tensor {
  if (dimsA.length !== dimsB.length) throw new ShapeError('tensordot: both dimension lists should have same length');
  const da = normDims('tensordot', dimsA, a.dim());
  const db = normDims('tensordot', dimsB, b.dim());
  let k = 1;
  da.forEach((d, i) => {
    const sa = a.shape[d];
    const sb = b.shape[db[i]];
    if (sa !== sb) {
      throw new ShapeError(`tensordot: contracted dimensions need to match, but first has size ${sa} in dim ${d} and second has size ${sb} in dim ${db[i]}`);
    }
    k *= sa;
  });
  const freeA = a.shape.map((_, i) => i).filter((i) => !da.includes(i));
  const freeB = b.shape.map((_, i) => i).filter((i) => !db.includes(i));
  const sizesA = freeA.map((i) => a.shape[i]);
  const sizesB = freeB.map((i) => b.shape[i]);
  const m = sizesA.reduce((x, y) => x * y, 1);
  const n = sizesB.reduce((x, y) => x * y, 1);
  const pa = reshape(permute(a, [...freeA, ...da]), [m, k]);
  const pb = reshape(permute(b, [...db, ...freeB]), [k, n]);
  return reshape(mm(pa, pb), [...sizesA, ...sizesB]);
}

// ---- einsum ----
/**
 * Note [einsum as pairwise products]
 * As PyTorch's einsum (sumproduct_pair): each operand first takes the diagonal of a
 * repeated subscript and sums out the subscripts no one else needs; then operands are
 * combined left to right, each pair as one bmm over [batch, free_a, contracted] x
 * [batch, contracted, free_b] (size-1 dims broadcast by expanding); the result is permuted
 * to the output's order. An ellipsis stands for the same broadcast dims in every operand.
 */
type Label = number; // a char code, or ELLIPSIS_BASE + k for the k-th broadcast dim

const ELLIPSIS_BASE = 1000;

interface ParsedEquation {
  readonly inputs: Label[][]; // per operand, one label per dim (ellipsis expanded)
  readonly output: Label[];
}

function isLetter(c: string): boolean {
  return /^[a-zA-Z]$/.test(c);
}

function parseTerm(term: string, offset: number): (Label | 'ellipsis')[] {
  const out: (Label | 'ellipsis')[] = [];
  let ell = false;
  for (let i = 0; i < term.length; i++) {
    const c = term[i];
    if (c === ' ') continue;
    if (c === '.') {
      if (ell || term.slice(i, i + 3) !== '...') throw new TorchError('einsum(): found \'.\' for operand that is not part of any ellipsis');
      ell = true;
      out.push('ellipsis');
      i += 2;
      continue;
    }
    if (!isLetter(c)) throw new TorchError(`einsum(): invalid subscript given at index ${offset + i} in the equation string, subscripts must be in [a-zA-Z]`);
    out.push(c.charCodeAt(0));
  }
  return out;
}

function parseEquation(equation: string, operands: readonly Tensor[]): ParsedEquation {
  const arrow = equation.indexOf('->');
  const lhs = arrow < 0 ? equation : equation.slice(0, arrow);
  const terms = lhs.split(',');
  if (terms.length > operands.length) throw new TorchError('einsum(): fewer operands were provided than specified in the equation');
  if (terms.length < operands.length) throw new TorchError('einsum(): more operands were provided than specified in the equation');
  let offset = 0;
  const raw = terms.map((t) => {
    const r = parseTerm(t, offset);
    offset += t.length + 1;
    return r;
  });
  let ellDims = 0;
  raw.forEach((labels, i) => {
    const nd = operands[i].dim();
    const hasEll = labels.includes('ellipsis');
    const named = labels.length - (hasEll ? 1 : 0);
    if (hasEll ? named > nd : named !== nd) {
      throw new ShapeError(
        hasEll
          ? `einsum(): the number of subscripts in the equation (${named}) is more than the number of dimensions (${nd}) for operand ${i}`
          : `einsum(): the number of subscripts in the equation (${named}) does not match the number of dimensions (${nd}) for operand ${i} and no ellipsis was given`,
      );
    }
    if (hasEll) ellDims = Math.max(ellDims, nd - named);
  });
  // ellipsis dims are right-aligned: relabel with the final count
  const fixed = raw.map((labels, i) => {
    const nd = operands[i].dim();
    const named = labels.length - (labels.includes('ellipsis') ? 1 : 0);
    const k = nd - named;
    return labels.flatMap((l) => (l === 'ellipsis' ? Array.from({ length: k }, (_, j) => ELLIPSIS_BASE + ellDims - k + j) : [l]));
  });
  let output: Label[];
  if (arrow >= 0) {
    const o = parseTerm(equation.slice(arrow + 2), arrow + 2);
    output = o.flatMap((l) => (l === 'ellipsis' ? Array.from({ length: ellDims }, (_, j) => ELLIPSIS_BASE + j) : [l]));
    const seen = new Set<Label>();
    const all = new Set(fixed.flat());
    for (const l of output) {
      if (l < ELLIPSIS_BASE) {
        const c = String.fromCharCode(l);
        if (seen.has(l)) throw new TorchError(`einsum(): output subscript ${c} appears more than once in the output`);
        if (!all.has(l)) throw new TorchError(`einsum(): output subscript ${c} does not appear in the equation for any input operand`);
      }
      seen.add(l);
    }
    // an output without '...' sums the broadcast dims away
  } else {
    const counts = new Map<Label, number>();
    for (const l of fixed.flat()) if (l < ELLIPSIS_BASE) counts.set(l, (counts.get(l) ?? 0) + 1);
    const once = [...counts.entries()].filter(([, n]) => n === 1).map(([l]) => l);
    // implicit output: the broadcast dims, then the subscripts seen once, alphabetically (uppercase first)
    output = [...Array.from({ length: ellDims }, (_, j) => ELLIPSIS_BASE + j), ...once.sort((x, y) => x - y)];
  }
  return { inputs: fixed, output };
}

/** An operand with its labels: repeated labels reduced to their diagonal. */
function takeDiagonals(t: Tensor, labels: Label[]): [Tensor, Label[]] {
  let x = t;
  let ls = [...labels];
  for (;;) {
    const i = ls.findIndex((l, k) => ls.indexOf(l) !== k);
    if (i < 0) return [x, ls];
    const first = ls.indexOf(ls[i]);
    if (x.shape[first] !== x.shape[i]) {
      throw new ShapeError(
        `einsum(): subscript ${String.fromCharCode(ls[i])} is repeated for operand but the sizes don't match, ${x.shape[first]} != ${x.shape[i]}`,
      );
    }
    // diagonal removes both dims and appends the diagonal last
    x = diagonal(x, 0, first, i);
    const l = ls[i];
    ls = ls.filter((_, k) => k !== first && k !== i);
    ls.push(l);
  }
}

function sumOut(t: Tensor, labels: Label[], keep: (l: Label) => boolean): [Tensor, Label[]] {
  const dims = labels.map((l, i) => (keep(l) ? -1 : i)).filter((i) => i >= 0);
  if (dims.length === 0) return [t, labels];
  return [sum(t, dims), labels.filter((l) => keep(l))];
}

function einsumComposite(equation: string, operands: readonly Tensor[]): Tensor {
  if (operands.length === 0) throw new TorchError('einsum(): must provide at least one operand');
  const dtype = operands[0].dtype;
  for (const o of operands) {
    if (o.dtype !== dtype) throw new DTypeError(`einsum(): expected scalar type ${torchTypeName(dtype)} but found ${torchTypeName(o.dtype)}`);
  }
  const eq = parseEquation(equation, operands);
  // sizes per label must broadcast across operands
  const sizeOf = new Map<Label, number>();
  eq.inputs.forEach((ls, i) =>
    ls.forEach((l, d) => {
      const n = operands[i].shape[d];
      const seen = sizeOf.get(l);
      if (seen === undefined || seen === 1) sizeOf.set(l, n);
      else if (n !== 1 && n !== seen) {
        const name = l >= ELLIPSIS_BASE ? '...' : String.fromCharCode(l);
        throw new ShapeError(`einsum(): operands do not broadcast with remapped shapes (original->remapped): subscript ${name} has size ${n} for operand ${i} which does not broadcast with previously seen size ${seen}`);
      }
    }),
  );
  const prepared = operands.map((t, i) => takeDiagonals(t, eq.inputs[i]));
  const neededLater = (from: number, l: Label) => eq.output.includes(l) || prepared.slice(from).some(([, ls]) => ls.includes(l));
  let [acc, accLabels] = sumOut(prepared[0][0], prepared[0][1], (l) => neededLater(1, l));
  for (let i = 1; i < prepared.length; i++) {
    const [b0, bl0] = sumOut(prepared[i][0], prepared[i][1], (l) => neededLater(i + 1, l) || accLabels.includes(l));
    [acc, accLabels] = pairProduct(acc, accLabels, b0, bl0, (l) => neededLater(i + 1, l));
  }
  [acc, accLabels] = sumOut(acc, accLabels, (l) => eq.output.includes(l));
  // the output order; a dim of the output that broadcast away stays as is
  const perm = eq.output.map((l) => accLabels.indexOf(l));
  return permute(acc, perm);
}

function pairProduct(a: Tensor, la: Label[], b: Tensor, lb: Label[], keep: (l: Label) => boolean): [Tensor, Label[]] {
  const both = la.filter((l) => lb.includes(l));
  const batch = both.filter(keep);
  const contracted = both.filter((l) => !keep(l));
  const onlyA = la.filter((l) => !lb.includes(l));
  const onlyB = lb.filter((l) => !la.includes(l));
  const size = (l: Label) => Math.max(la.includes(l) ? a.shape[la.indexOf(l)] : 1, lb.includes(l) ? b.shape[lb.indexOf(l)] : 1);
  const prodOf = (ls: Label[]) => ls.reduce((x, l) => x * size(l), 1);
  const arrange = (t: Tensor, ls: Label[], order: Label[]) => {
    const p = permute(t, order.map((l) => ls.indexOf(l)));
    return expand(p, order.map((l) => size(l)));
  };
  if (contracted.length === 0) {
    // nothing to sum: an elementwise product, broadcast (as PyTorch's sumproduct_pair does)
    const pa = permute(a, [...batch, ...onlyA].map((l) => la.indexOf(l)));
    const pb = permute(b, [...batch, ...onlyB].map((l) => lb.indexOf(l)));
    const xa = reshape(pa, [...pa.shape, ...onlyB.map(() => 1)]);
    const xb = reshape(pb, [...batch.map((l) => b.shape[lb.indexOf(l)]), ...onlyA.map(() => 1), ...onlyB.map((l) => b.shape[lb.indexOf(l)])]);
    return [mul(xa, xb), [...batch, ...onlyA, ...onlyB]];
  }
  const ea = arrange(a, la, [...batch, ...onlyA, ...contracted]);
  const eb = arrange(b, lb, [...batch, ...contracted, ...onlyB]);
  const nb = prodOf(batch);
  const r = bmm(reshape(ea, [nb, prodOf(onlyA), prodOf(contracted)]), reshape(eb, [nb, prodOf(contracted), prodOf(onlyB)]));
  const labels = [...batch, ...onlyA, ...onlyB];
  return [reshape(r, labels.map(size)), labels];
}

export const EINSUM = defineComposite('einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor', ([equation, tensors]) => einsumComposite(equation, tensors));

// ---- front ends ----
// (Note [The argument binder]; beta and alpha are keyword-only, as in PyTorch)
/** beta * input + alpha * (a @ b), `ka`/`kb` being a and b's keywords. */
function addProductFront(op: string, h: typeof ADDMM | typeof BADDBMM, hOut: OperatorHandle, ka: string, kb: string, [self, a, b, beta, alpha, out]: readonly [Tensor, Tensor, Tensor, Scalar, Scalar, Tensor | undefined]): Tensor {
  return callWithOut(h, hOut, [unwrapTensor(op, 'input', self), unwrapTensor(op, ka, a), unwrapTensor(op, kb, b), beta, alpha], out);
}

/** `torch.addmm(input, mat1, mat2, { beta, alpha, out })`: beta * input + alpha * (mat1 @ mat2). */
export const addmm = front('addmm(Tensor input, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor? out=None) -> Tensor').run(
  (values): Tensor => addProductFront('addmm', ADDMM, ADDMM_OUT, 'mat1', 'mat2', values),
);
export type AddmmOptions = OptionsOf<typeof addmm>;

/** `torch.baddbmm(input, batch1, batch2, { beta, alpha, out })`: per batch, beta * input + alpha * (b1 @ b2). */
export const baddbmm = front('baddbmm(Tensor input, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor? out=None) -> Tensor').run(
  (values): Tensor => addProductFront('baddbmm', BADDBMM, BADDBMM_OUT, 'batch1', 'batch2', values),
);

// (PyTorch has these as Tensor methods only: no torch.addmm_; Note [In-place addmm])
/** `x.addmm_(mat1, mat2, { beta, alpha })`: x = beta * x + alpha * (mat1 @ mat2), x of the result's shape. */
export const addmm_ = front('addmm_(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor', { namespaces: [] }).run(
  ([self, mat1, mat2, beta, alpha]): Tensor =>
    callMutating(ADDMM_, [unwrapTensor('addmm_', 'self', self), unwrapTensor('addmm_', 'mat1', mat1), unwrapTensor('addmm_', 'mat2', mat2), beta, alpha], self),
);

/** `x.baddbmm_(batch1, batch2, { beta, alpha })`: per batch, x = beta * x + alpha * (b1 @ b2), x of the result's shape. */
export const baddbmm_ = front('baddbmm_(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor', { namespaces: [] }).run(
  ([self, batch1, batch2, beta, alpha]): Tensor =>
    callMutating(BADDBMM_, [unwrapTensor('baddbmm_', 'self', self), unwrapTensor('baddbmm_', 'batch1', batch1), unwrapTensor('baddbmm_', 'batch2', batch2), beta, alpha], self),
);

function runOuter(op: string, self: Tensor, vec2: Tensor): Tensor {
  return callFunctional(OUTER, [unwrapTensor(op, 'input', self), unwrapTensor(op, 'vec2', vec2)]);
}

// (`out` is PyTorch's keyword; outer has no out= form here yet)
/** `torch.outer(input, vec2)`: the outer product of two vectors. */
export const outer = front('outer(Tensor input, Tensor vec2, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(
  ([self, vec2]): Tensor => runOuter('outer', self, vec2),
);

/** `torch.ger`: the old name of outer. */
export const ger = front('ger(Tensor input, Tensor vec2, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(
  ([self, vec2]): Tensor => runOuter('ger', self, vec2),
);

// (dims: a count or a pair of lists, checked below; `out` is PyTorch's keyword, no out= form here yet)
const tensordotArgs = makeBinder('tensordot', 'tensordot(Tensor a, Tensor b, Any dims=2, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] });
type TensordotDims = number | readonly [readonly number[] | number, readonly number[] | number];

/** `torch.tensordot(a, b, dims)`: `dims` a count (the last n of a with the first n of b) or a pair of lists. */
export function tensordot(a: Tensor, ...rest: BoundArgs<[b: Tensor], [dims: TensordotDims], { b?: Tensor; dims?: TensordotDims | null; out?: Tensor | null }>): Tensor;
export function tensordot(...args: unknown[]): Tensor {
  const [a, b, d] = tensordotArgs.bind(args);
  if (typeof d !== 'number' && !(Array.isArray(d) && d.length === 2)) throw new TorchTypeError(`tensordot(): argument 'dims' must be int or a pair of lists of ints, not ${typeName(d)}`);
  const ta = unwrapTensor('tensordot', 'a', a);
  const tb = unwrapTensor('tensordot', 'b', b);
  let da: number[];
  let db: number[];
  if (typeof d === 'number') {
    if (!Number.isInteger(d) || d < 0) throw new TorchError(`tensordot: tensordot expects dims >= 0, but got dims=${d}`);
    if (d > ta.dim || d > tb.dim) throw new ShapeError(`tensordot: tensordot expects dims < ndim_a or ndim_b, but got dims=${d}`);
    da = Array.from({ length: d }, (_, i) => ta.dim - d + i);
    db = Array.from({ length: d }, (_, i) => i);
  } else {
    const [x, y]: unknown[] = d;
    da = tensordotDims(x);
    db = tensordotDims(y);
  }
  return callFunctional(TENSORDOT, [ta, tb, da, db]);
}

/** One of tensordot's pair of dim lists: a list of ints, or one int. */
function tensordotDims(v: unknown): number[] {
  if (typeof v === 'number') return [v];
  if (Array.isArray(v) && v.every((x): x is number => typeof x === 'number')) return [...v];
  throw new TorchTypeError(`tensordot(): argument 'dims' must be int or a pair of lists of ints, not ${typeName(v)}`);
}

// (`path`, PyTorch's opt_einsum contraction order, is not supported: torch-ts contracts left to right)
/**
 * `torch.einsum('ij,jk->ik', a, b)`: the operands variadic, as Python's `*operands`, or one
 * list, then optionally the options object.
 */
export const einsum = front('einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor', { varargs: true, method: false, unsupported: ['path'] }).run(
  ([equation, tensors]): Tensor => callFunctional(EINSUM, [equation, tensors.map((t, i) => unwrapTensor('einsum', `tensors[${i}]`, t)), null]),
);
