/**
 * Note [Explicit JVP formulas]
 * Every op's tangent can be derived from its backward formula (Note [JVPs from backward
 * formulas]), at the price of building and differentiating the backward's graph on each
 * call. PyTorch's derivatives.yaml gives the common ops an explicit `result:` formula; these
 * are they, for the ops a forward-mode Jacobian spends its time in: the holomorphic
 * pointwise functions (`self_t * f'(self)`, so complex inputs need no conjugate), the
 * arithmetic, sums and means, the matrix products, convolution, the vector 2-norm and
 * softmax / log_softmax, and the indexing ops (forward-formulas-indexing.ts). A formula
 * returns null where its case is not covered (a rounding `div`, a plain-number operand
 * the formula would have to read from the arguments with another dtype), and the derived
 * JVP runs instead. Tangents are fitted to their output: expanded to its shape (a copy: an
 * in-place op on the output writes its tangent) and cast to its dtype.
 */
import { TensorImpl, Tensor, callBoxed, getOperator } from '@torch-ts/core';
import type { Derivative, ForwardContext } from '../derivative';
import { INDEXING_FORMULAS } from './forward-formulas-indexing';

const call = (name: string, args: unknown[]): Tensor => new Tensor(callBoxed(getOperator(name), args.map((a) => (a instanceof Tensor ? a.impl : a))) as TensorImpl);

/** `t` with the shape and dtype of `like`. */
function fit(t: Tensor, like: Tensor): Tensor {
  let r = t;
  if (r.dtype !== like.dtype) r = call('_to_copy', [r, like.dtype, null, null]);
  const same = r.shape.length === like.shape.length && r.shape.every((n, i) => n === like.shape[i]);
  if (!same) r = call('clone', [call('expand', [r, like.shape, false]), null]);
  return r;
}

/** Sum of the terms that exist (a tangent that is null contributes nothing), fitted to the result; null when none does. */
function total(ctx: ForwardContext, terms: readonly (Tensor | null)[]): (Tensor | null)[] {
  const live = terms.filter((x): x is Tensor => x !== null);
  if (live.length === 0) return [null];
  return [fit(live.reduce((a, b) => call('add', [a, b, 1])), ctx.results[0]!)];
}

type Formula = (ctx: ForwardContext) => readonly (Tensor | null)[] | null;

/** A unary holomorphic pointwise op: tangent * f'(self, result). */
const unary =
  (derivative: (self: Tensor, result: Tensor) => Tensor): Formula =>
  (ctx) => {
    const t = ctx.tangents[0];
    if (!t) return [null];
    return [fit(call('mul', [t, derivative(ctx.primals[0]!, ctx.results[0]!)]), ctx.results[0]!)];
  };

const mul = (a: Tensor, b: Tensor | number): Tensor => call('mul', [a, b]);

/** A tensor operand of a binary op (null where the op took a plain number: the derived JVP then runs). */
function operands(ctx: ForwardContext): [Tensor, Tensor] | null {
  const [a, b] = ctx.primals;
  return a && b ? [a, b] : null;
}

const FORMULAS: Record<string, Formula> = {
  exp: unary((_, y) => y),
  sin: unary((x) => call('cos', [x])),
  cos: unary((x) => call('neg', [call('sin', [x])])),
  tanh: unary((_, y) => call('add', [call('neg', [mul(y, y)]), 1, 1])),
  sigmoid: unary((_, y) => call('sub', [y, mul(y, y), 1])),
  log: unary((x) => call('reciprocal', [x])),
  sqrt: unary((_, y) => call('reciprocal', [mul(y, 2)])),
  neg: (ctx) => [ctx.tangents[0] ? call('neg', [ctx.tangents[0]]) : null],
  // add / sub: self_t + alpha * other_t
  add: (ctx) => {
    const [ts, to] = ctx.tangents;
    const alpha = (ctx.args[2] as number | undefined) ?? 1;
    return total(ctx, [ts, to ? (alpha === 1 ? to : mul(to, alpha)) : null]);
  },
  sub: (ctx) => {
    const [ts, to] = ctx.tangents;
    const alpha = (ctx.args[2] as number | undefined) ?? 1;
    return total(ctx, [ts, to ? mul(to, -alpha) : null]);
  },
  // mul: self_t * other + other_t * self
  mul: (ctx) => {
    const ab = operands(ctx);
    if (!ab) return null;
    const [ts, to] = ctx.tangents;
    return total(ctx, [ts ? mul(ts, ab[1]) : null, to ? mul(to, ab[0]) : null]);
  },
  // div: self_t / other - other_t * self / other^2 (= other_t * result / other)
  div: (ctx) => {
    const ab = operands(ctx);
    if (!ab || ctx.args[2] != null) return null;
    const [ts, to] = ctx.tangents;
    return total(ctx, [ts ? call('div', [ts, ab[1], null]) : null, to ? call('neg', [call('div', [mul(to, ctx.results[0]!), ab[1], null])]) : null]);
  },
  // linear reductions: the same reduction of the tangent
  'sum.dim_IntList': (ctx) => [ctx.tangents[0] ? fit(call('sum.dim_IntList', [ctx.tangents[0], ...ctx.args.slice(1)]), ctx.results[0]!) : null],
  'mean.dim': (ctx) => [ctx.tangents[0] ? fit(call('mean.dim', [ctx.tangents[0], ...ctx.args.slice(1)]), ctx.results[0]!) : null],
  // products: a_t @ b + a @ b_t
  mm: product('mm'),
  bmm: product('bmm'),
  mv: product('mv'),
  dot: product('dot'),
  // addmm: beta * self_t + alpha * (mat1_t @ mat2 + mat1 @ mat2_t)
  addmm: (ctx) => {
    const [, m1, m2] = ctx.primals;
    if (!m1 || !m2) return null;
    const [ts, t1, t2] = ctx.tangents;
    const beta = (ctx.args[3] as number | undefined) ?? 1;
    const alpha = (ctx.args[4] as number | undefined) ?? 1;
    const scale = (x: Tensor | null, k: number) => (x && k !== 1 ? mul(x, k) : x);
    return total(ctx, [
      beta === 0 ? null : scale(ts, beta),
      scale(t1 ? call('mm', [t1, m2]) : null, alpha),
      scale(t2 ? call('mm', [m1, t2]) : null, alpha),
    ]);
  },
  // softmax: result * (self_t - sum(result * self_t, dim)), which is softmax's backward of self_t
  _softmax: (ctx) => {
    const t = ctx.tangents[0];
    if (!t) return [null];
    const y = ctx.results[0]!;
    return [fit(call('_softmax_backward_data', [t, y, ctx.args[1], y.dtype]), y)];
  },
  // log_softmax: self_t - sum(exp(result) * self_t, dim)
  _log_softmax: (ctx) => {
    const t = ctx.tangents[0];
    if (!t) return [null];
    const y = ctx.results[0]!;
    const s = call('sum.dim_IntList', [mul(call('exp', [y]), t), [ctx.args[1] as number], true, null]);
    return [fit(call('sub', [t, s, 1]), y)];
  },
  // convolution is linear in input and in weight: conv(input_t, w) + conv(input, w_t) + bias_t over the channels
  convolution: (ctx) => {
    const [input, weight] = ctx.primals;
    if (!input || !weight) return null;
    const [ti, tw, tb] = ctx.tangents;
    const rest = ctx.args.slice(3);
    const y = ctx.results[0]!;
    const spatial = weight.shape.length - 2;
    const channel = y.shape.length - spatial - 1;
    const biasT = tb ? call('reshape', [tb, y.shape.map((n, i) => (i === channel ? n : 1))]) : null;
    return total(ctx, [ti ? call('convolution', [ti, weight, null, ...rest]) : null, tw ? call('convolution', [input, tw, null, ...rest]) : null, biasT]);
  },
  // the 2-norm of real input: sum(self * self_t) / result, 0 where the norm is 0 (PyTorch's norm_jvp)
  linalg_vector_norm: (ctx) => {
    const [x] = ctx.primals;
    const t = ctx.tangents[0];
    const ord = (ctx.args[1] as number | undefined) ?? 2;
    if (!x || !t || Number(ord) !== 2 || ctx.args[4] != null || x.dtype.startsWith('complex')) return null;
    const y = ctx.results[0]!;
    const dims = ctx.args[2] as number[] | null | undefined;
    const num = call('sum.dim_IntList', [mul(x, t), dims ?? null, ctx.args[3] ?? false, null]);
    const zero = call('eq', [y, 0]);
    return [fit(call('where', [zero, mul(y, 0), call('div', [num, y, null])]), y)];
  },
  ...INDEXING_FORMULAS,
};

function product(op: 'mm' | 'bmm' | 'mv' | 'dot'): Formula {
  return (ctx) => {
    const ab = operands(ctx);
    if (!ab) return null;
    const [ta, tb] = ctx.tangents;
    return total(ctx, [ta ? call(op, [ta, ab[1]]) : null, tb ? call(op, [ab[0], tb]) : null]);
  };
}

/** The table with the explicit formulas attached (new entries; an entry's own `forward` is kept). */
export function withForwardFormulas<T extends object>(table: T): T {
  const out: Record<string, unknown> = { ...(table as Record<string, unknown>) };
  for (const [name, forward] of Object.entries(FORMULAS)) {
    const entry = out[name] as Derivative | { notDifferentiable: string } | undefined;
    if (!entry || 'notDifferentiable' in entry || entry.forward) continue;
    out[name] = { ...entry, forward };
  }
  return out as T;
}

/** The ops with an explicit JVP formula (Note [Explicit JVP formulas]). */
export const FORWARD_FORMULA_OPS: readonly string[] = Object.keys(FORMULAS);
