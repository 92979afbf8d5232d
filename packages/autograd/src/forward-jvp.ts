import {
  AutogradError,
  Tensor,
  TensorImpl,
  callBoxed,
  conj,
  getOperator,
  isComplexType,
  isDifferentiableType,
  mul,
  real,
  sum,
  tidy,
  zeros,
} from '@torch-ts/core';
import { grad as autogradGrad } from './api';
import type { Derivative } from './derivative';
import type { InputInfo } from './formula-node';
import { sameLayout, setTangent, tangentOf, withoutForward, zerosLaidOutAs } from './forward-ad';
import { requiresGrad } from './autograd-meta';
import { enableGrad, isGradEnabled } from './grad-mode';
import { validateGrad } from './validate-grads';

/**
 * Note [JVPs from backward formulas]
 * Every entry of the derivative table has a backward formula, `g -> J^T g` (the VJP; for a
 * complex op, PyTorch's conjugate convention `J^H g`). The formula is linear in `g` and is
 * written with ordinary core ops, so the JVP of the op follows from it by the "double VJP"
 * trick: with `u` a zero of the output's shape that requires grad,
 *     s(u) = sum_i Re< J_i^H u, v_i >   (v_i the tangent of input i)
 * is linear in u with gradient exactly J v = sum_i J_i v_i (for complex, PyTorch's gradient
 * of a real function of u is dL/dRe u + i dL/dIm u, which gives J v again). So one backward
 * through the formula's own graph gives every output's tangent, for every differentiable op,
 * with no second table to keep in step with the first: this is PyTorch's
 * `result: auto_linear`/double-backward path, used for every entry without an explicit
 * formula (Note [Explicit JVP formulas] in derivatives/forward-formulas.ts).
 * Views are the exception that must not go through it: a view's tangent is the same view of
 * its input's tangent (sharing that tangent's storage, so an in-place change of the base's
 * tangent shows through it), which `viewTangent` makes from the output's geometry.
 * The primals the formula reads are detached, and tangent propagation is off while the JVP is
 * computed (Note [Forward-mode AD]). A formula that is not differentiable in its incoming
 * gradient cannot give a JVP this way; the op then raises PyTorch's "Trying to use forward AD
 * with X that does not support it".
 */

/** Whether any of `args[i]` (i in `indices`; list elements too) has a tangent. */
export function anyTangent(args: readonly unknown[], indices: readonly number[]): boolean {
  for (const i of indices) {
    const a = args[i];
    if (a instanceof TensorImpl) {
      if (tangentOf(a)) return true;
    } else if (Array.isArray(a)) {
      for (const t of a) if (t instanceof TensorImpl && tangentOf(t)) return true;
    }
  }
  return false;
}

/** The tangent of a view `out` of `input`: the same window on `input`'s tangent, or null when the layouts differ. */
function viewTangent(input: TensorImpl, out: TensorImpl): TensorImpl | null {
  const t = tangentOf(input);
  if (!t || out.dtype !== input.dtype || out.isConj !== input.isConj) return null;
  if (!sameLayout(t, input)) return null;
  return t.view(out.sizes, out.strides, out.storageOffset - input.storageOffset + t.storageOffset);
}

export interface JvpCall {
  readonly name: string;
  readonly derivative: Derivative;
  readonly args: readonly unknown[];
  /** The op's differentiable inputs, flattened (a list input counts element by element). */
  readonly inputs: readonly (TensorImpl | null)[];
  readonly infos: readonly (InputInfo | null)[];
  /** Schema argument index of each name the derivative saves (results excluded). */
  readonly argIndex: (name: string) => number;
  /** The Node's arguments (tensors taken out). */
  readonly nodeArgs: readonly unknown[];
  /** An in-place op's `self` as it was before the op (what the formula reads as `self`). */
  readonly selfBefore: TensorImpl | null;
}

const detachedOf = (impl: TensorImpl) => withoutForward(() => new Tensor(impl.retain()).detach());
const attachedOf = (impl: TensorImpl) => new Tensor(impl.retain());

/**
 * Note [Reverse-over-forward]
 * With grad mode on and a primal or a tangent requiring grad (`torch.func.grad` of a function
 * that calls `jvp`, or `autograd.grad` of an unpacked tangent), the tangent must carry the
 * reverse-mode history of what it was computed from, as PyTorch's tangent formulas, which
 * are ordinary differentiable ops, give it. The JVP is then computed from the primals as they
 * are (not detached) and the double-VJP's inner gradient is taken with `createGraph`, so the
 * resulting tangent's history reaches both the primals and the input tangents. A view's
 * tangent is then computed the same way rather than made a raw view of its input's tangent
 * (raw views carry no history): such a tangent does not share its input tangent's storage.
 */
export function tangentNeedsGraph(inputs: readonly (TensorImpl | null)[], tangents: readonly (TensorImpl | null)[]): boolean {
  return isGradEnabled() && (inputs.some((t) => t !== null && requiresGrad(t)) || tangents.some((t) => t !== null && requiresGrad(t)));
}

/** The outputs' tangents by the double-VJP trick (Note [JVPs from backward formulas]); null for an output with none. */
function jvpFromBackward(c: JvpCall, tangents: readonly (TensorImpl | null)[], outs: readonly TensorImpl[]): (TensorImpl | null)[] {
  // (Note [Reverse-over-forward])
  const graph = tangentNeedsGraph(c.inputs, tangents);
  const detached = graph ? attachedOf : detachedOf;
  // (PyTorch's message; where the backward formula refused for a reason of its own, the reason follows)
  const fail = (why: string): never => {
    const reason = c.derivative.name === 'NotImplemented' ? '' : ` (${why})`;
    throw new AutogradError(`Trying to use forward AD with aten::${c.name} that does not support it.${reason}`);
  };
  return withoutForward(() =>
    enableGrad(() =>
      tidy(() => {
        const saved: Record<string, Tensor> = {};
        for (const entry of c.derivative.saves) {
          const s = entry.split('@')[0];
          if (s.startsWith('result')) {
            const k = s === 'result' ? 0 : Number(s.slice(6));
            if (outs[k]) saved[s] = detached(outs[k]);
            continue;
          }
          const a = c.argIndex(s) === 0 && c.selfBefore ? c.selfBefore : c.args[c.argIndex(s)];
          if (a instanceof TensorImpl) saved[s] = detached(a);
        }
        if (c.derivative.forward) {
          const own = c.derivative.forward({
            tangents: tangents.map((t) => (t ? new Tensor(t.retain()) : null)),
            primals: c.inputs.map((t, i) => (i === 0 && c.selfBefore ? detached(c.selfBefore) : t ? detached(t) : null)),
            results: outs.map(detached),
            args: c.nodeArgs,
            tensorArgs: c.args.map((a, i) => {
              if (a instanceof TensorImpl) return detached(i === 0 && c.selfBefore ? c.selfBefore : a);
              if (Array.isArray(a) && a.some((x) => x instanceof TensorImpl)) return a.map((x) => (x instanceof TensorImpl ? detached(x) : null));
              return null;
            }),
          });
          if (own) return [...own];
        }
        const us = outs.map((o) => (isDifferentiableType(o.dtype) ? zeros([...o.sizes], { dtype: o.dtype, device: o.device }).requiresGrad_() : null));
        const needs = tangents.map((t) => t !== null);
        let raw: readonly (Tensor | null)[];
        try {
          raw = c.derivative.backward({ grad: us[0] ?? us.find((u) => u !== null)!, grads: us, saved, args: c.nodeArgs, needs, inputs: c.infos });
        } catch (e) {
          return fail(e instanceof Error ? e.message : String(e));
        }
        let s: Tensor | null = null;
        tangents.forEach((t, i) => {
          const g = raw[i];
          const info = c.infos[i];
          if (!t || !g || !info) return;
          const gi = validateGrad(() => c.name, i, g, info);
          const v = new Tensor(t.retain());
          const dot = isComplexType(gi.dtype) ? real(sum(mul(conj(gi), v))) : sum(mul(gi, v));
          s = s === null ? dot : s.add(dot);
        });
        const live = us.filter((u): u is Tensor => u !== null);
        const sum0 = s as Tensor | null;
        const jv = sum0 !== null && sum0.requiresGrad ? autogradGrad(sum0, live, { allowUnused: true, createGraph: graph }) : live.map(() => null);
        let k = 0;
        return us.map((u) => {
          if (u === null) return null;
          const g = jv[k++];
          return g ?? zeros(u.shape, { dtype: u.dtype, device: u.device });
        });
      }),
    ),
  ).map((t) => {
    if (!t) return null;
    const impl = t.impl.retain();
    t.dispose();
    return impl;
  });
}

/**
 * Sets the tangents of an op's outputs (Note [Forward-mode AD]): after the op ran, with the
 * inputs' tangents as they were before it (for an in-place op, `self`'s tangent is then
 * replaced in place).
 */
export function propagateTangents(c: JvpCall, outs: readonly TensorImpl[], inplaceSelf: TensorImpl | null): void {
  const tangents = c.inputs.map((t) => (t ? tangentOf(t) : null));
  // A view of one input: the same view of its tangent (unless that tangent has a history to keep: Note [Reverse-over-forward]).
  if (!inplaceSelf && outs.length === 1 && c.inputs[0] && tangents[0] && tangents.slice(1).every((t) => t === null) && !(isGradEnabled() && requiresGrad(tangents[0]))) {
    const self = c.inputs[0];
    if (outs[0].storage === self.storage && outs[0] !== self) {
      const v = viewTangent(self, outs[0]);
      if (v) {
        setTangent(outs[0], v);
        v.release();
        return;
      }
    }
  }
  const jv = jvpFromBackward(c, tangents, outs);
  try {
    if (inplaceSelf) {
      if (jv[0]) writeTangentInPlace(inplaceSelf, jv[0]);
      return;
    }
    outs.forEach((o, k) => {
      const t = jv[k];
      if (t && isDifferentiableType(o.dtype) && o !== c.inputs[0]) setTangent(o, t);
    });
  } finally {
    for (const t of jv) t?.release();
  }
}

/** An in-place op's new tangent for `self`: written into its tangent (a view's into its base's, made if need be). */
function writeTangentInPlace(self: TensorImpl, t: TensorImpl): void {
  let target = tangentOf(self);
  if (!target) {
    const base = self.base;
    if (base && base.storage === self.storage && base.dtype === self.dtype) {
      let bt = tangentOf(base);
      if (!bt) {
        const z = zerosLaidOutAs(base);
        setTangent(base, z);
        z.release();
        bt = tangentOf(base)!;
      }
      const v = viewTangent(base, self);
      if (v) {
        setTangent(self, v);
        v.release();
        target = tangentOf(self);
      }
    }
  }
  if (!target) {
    const z = zerosLaidOutAs(self);
    setTangent(self, z);
    z.release();
    target = tangentOf(self)!;
  }
  const dst = target;
  withoutForward(() => callBoxed(getOperator('copy_'), [dst, t, false]));
}
