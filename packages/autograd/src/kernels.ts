import {
  AUTOGRAD_KEYS,
  AUTOGRAD_KEYSET,
  AutogradError,
  DispatchKey,
  KERNEL_OP_NAMES,
  TensorImpl,
  allOperators,
  callBoxed,
  exchangeExcluded,
  getOperator,
  isDifferentiableType,
  localExcluded,
  redispatch,
  registerKernel,
  type BoxedKernel,
  type DispatchKeySet,
  type KernelOpName,
  type OperatorHandle,
} from '@torch-ts/core';
import { ensureMeta, metaOf, requiresGrad } from './autograd-meta';
import { recordForwardTrace } from './anomaly';
import { isGradEnabled, reverseRecordingOff } from './grad-mode';
import type { Derivative, DerivativeTable } from './derivative';
import { FormulaNode, type InputInfo } from './formula-node';
import { CopySlices, ViewOfBase, stridedGeometryOf } from './copy-slices';
import { nodeOnEdges, type Node } from './node';
import { SavedVariable } from './saved-variable';
import { forwardActive, tangentOf, withoutForward } from './forward-ad';
import { anyTangent, propagateTangents, type JvpCall } from './forward-jvp';

/** Runs `op` below autograd, with autograd off for everything it calls (composites inside). */
export function belowAutograd(op: OperatorHandle, ks: DispatchKeySet, args: unknown[]): unknown {
  // Every op call passes here: no closure (withExcluded's), just a swap and a restore.
  const prev = exchangeExcluded(localExcluded().union(AUTOGRAD_KEYSET));
  try {
    return redispatch(op, ks, DispatchKey.AutogradCPU, args);
  } finally {
    exchangeExcluded(prev);
  }
}

/**
 * Note [Autograd kernels]
 * For each op with a derivative entry, one kernel at every Autograd key:
 *  - when no differentiable input requires grad, the op runs below autograd untouched;
 *  - otherwise PyTorch's in-place rules are checked, the gradient edges of the inputs are
 *    taken BEFORE the op runs (an in-place op replaces `self`'s history), what the formula
 *    reads is saved (a `self` the op overwrites is cloned first), the op runs below autograd,
 *    and every floating-point output gets the new Node as its gradFn.
 * An in-place op on a view also rewrites its base's history (Note [In-place ops on views
 * (CopySlices)]).
 *
 * Note [In-place view ops]
 * `t_`, `transpose_`, `squeeze_`, `unsqueeze_`, `as_strided_` (PyTorch's `inplace_view` tag)
 * change `self`'s geometry, not its data (core's Note [In-place view ops]). For autograd they
 * are in-place ops as PyTorch 1.13 records them (its codegen's `set_history` for them, where
 * other in-place ops `rebase_history`): the in-place checks refuse a leaf requiring grad and a
 * view of one, the version bump invalidates what earlier Nodes saved of `self`, and the new
 * Node (TBackward1, TransposeBackward1...), whose input is `self`'s history so far, becomes
 * `self`'s gradFn. When `self` is a view, that history is its view Node (`base[0:2].t_()`
 * records TBackward1 -> SliceBackward0) and the base's history stays: its data did not change,
 * so there is no CopySlices. InputInfo keeps `self`'s geometry from before the op (the
 * geometry arrays are replaced, not written), which is what the formulas read.
 */
function differentiableKernel<A extends readonly unknown[]>(op: OperatorHandle, d: Derivative<A>): BoxedKernel {
  const index = new Map(op.schema.args.map((a, i) => [a.name, i]));
  const at = (name: string) => {
    const i = index.get(name);
    if (i === undefined) throw new AutogradError(`autograd: the derivative of aten::${op.name} names '${name}', which its schema lacks`);
    return i;
  };
  const inputIdx = d.inputs.map(at);
  // `name@input`: saved only when `input` needs a gradient (mul saves self for other's).
  const parsed = d.saves.map((entry) => {
    const [s, when] = entry.split('@');
    return { s, when: when === undefined ? -1 : d.inputs.indexOf(when) };
  });
  const argSaves = parsed.filter((p) => !p.s.startsWith('result')).map((p) => [p.s, at(p.s), p.when] as const);
  const resultSaves = parsed
    .filter((p) => p.s.startsWith('result'))
    .map((p) => [p.s, p.s === 'result' ? 0 : Number(p.s.slice(6)), p.when] as const);
  const inplace = op.schema.args[0]?.mutable === true && op.schema.overload !== 'out';
  // (Note [In-place view ops])
  const inplaceView = inplace && (op.def.tags ?? []).includes('inplace_view');
  const name = op.schema.name;
  const reverse: BoxedKernel = (ks, args) => {
    // The common case first, without building anything: no input requires grad.
    // (under noGrad inside a dual level the kernel runs for the tangents only: Note [noGrad keeps forward AD])
    if (reverseRecordingOff() || firstRequiringGrad(args, inputIdx) === null) return belowAutograd(op, ks, args);
    // A Tensor[] input (cat's `tensors`) counts as one input per element, in order; a formula
    // returns one gradient per element. (`name@input` saves index the flattened inputs, so a
    // derivative with a list input saves nothing conditionally.)
    const inputs = inputIdx.flatMap((i) => {
      const a = args[i];
      if (Array.isArray(a)) return a.map((t) => (t instanceof TensorImpl ? t : null));
      return [a instanceof TensorImpl ? a : null];
    });
    const self = inplace ? mutatedSelf(name, args[0]) : null;
    if (self) checkInplace(name, self);
    // In-place on a view: input 0's edge is the base's old history (Note [In-place ops on views
    // (CopySlices)]); an in-place view op leaves the data, so the base's history, alone.
    const viewBase = self && !inplaceView ? self.base : null;
    const needs = inputs.map((t) => t !== null && requiresGrad(t));
    const wanted = (when: number) => when < 0 || needs[when];
    const saved = new Map<string, SavedVariable>();
    const infos: (InputInfo | null)[] = inputs.map((t) =>
      t ? { sizes: t.sizes, strides: t.strides, storageOffset: t.storageOffset, dtype: t.dtype, device: t.device } : null,
    );
    const node = nodeOnEdges(
      inputs.map((t, k) => (k === 0 && viewBase ? (requiresGrad(viewBase) ? viewBase : null) : t && requiresGrad(t) ? t : null)),
      (edges) => new FormulaNode(d, edges, infos, saved, nodeArgs<A>(args)),
    );
    try {
      for (const [s, i, when] of argSaves) {
        const t = args[i];
        if (!(t instanceof TensorImpl) || !wanted(when)) continue;
        if (inplace && i === 0) {
          // The value `self` had before the op, with its history (a recorded clone), so a
          // double backward through it still reaches what `self` was computed from.
          const copy = tensorOutput('clone', callBoxed(getOperator('clone'), [t, null]));
          saved.set(s, new SavedVariable(copy, false));
          copy.release();
        } else saved.set(s, new SavedVariable(t, false));
      }
      const result = belowAutograd(op, ks, args);
      const outs = (Array.isArray(result) ? result : [result]).map((o) => tensorOutput(name, o));
      for (const [s, k, when] of resultSaves) if (wanted(when)) saved.set(s, new SavedVariable(outs[k], true, k));
      recordForwardTrace(node);
      if (viewBase && self) rebaseHistory(viewBase, self, node);
      else {
        outs.forEach((o, k) => {
          if (isDifferentiableType(o.dtype)) ensureMeta(o).setGradFn(node, k);
        });
      }
      return result;
    } finally {
      node.release(); // the outputs hold the node now (or nothing does, and it is freed)
    }
  };
  const savesIdx = new Map(parsed.filter((p) => !p.s.startsWith('result')).map((p) => [p.s, at(p.s)]));
  // Forward AD (Note [Forward-mode AD]): the op as above, then its outputs' tangents.
  return (ks, args) => {
    if (!forwardActive() || !anyTangent(args, inputIdx)) return reverse(ks, args);
    if (inplaceView) {
      // (Note [In-place view ops]) the tangent takes the same new geometry as `self`
      const t = tangentOf(mutatedSelf(name, args[0]))!;
      const result = reverse(ks, args);
      withoutForward(() => belowAutograd(op, ks, [t, ...args.slice(1)]));
      return result;
    }
    const inputs = inputIdx.flatMap((i) => {
      const a = args[i];
      if (Array.isArray(a)) return a.map((t) => (t instanceof TensorImpl ? t : null));
      return [a instanceof TensorImpl ? a : null];
    });
    const infos: (InputInfo | null)[] = inputs.map((t) =>
      t ? { sizes: t.sizes, strides: t.strides, storageOffset: t.storageOffset, dtype: t.dtype, device: t.device } : null,
    );
    const self = inplace && !inplaceView ? mutatedSelf(name, args[0]) : null;
    const selfBefore = self ? withoutForward(() => tensorOutput('clone', belowAutograd(getOperator('clone'), ks, [self, null]))) : null;
    try {
      const result = reverse(ks, args);
      const outs = (Array.isArray(result) ? result : [result]).map((o) => tensorOutput(name, o));
      const call: JvpCall = {
        name,
        derivative: d as Derivative,
        args,
        inputs,
        infos,
        argIndex: (s) => savesIdx.get(s) ?? at(s),
        nodeArgs: nodeArgs<A>(args),
        selfBefore,
      };
      propagateTangents(call, outs, self);
      return result;
    } finally {
      selfBefore?.release();
    }
  };
}

/** The first tensor among `args[i]` (i in `indices`; a list's elements too) that requires grad, or null. */
function firstRequiringGrad(args: readonly unknown[], indices: readonly number[]): TensorImpl | null {
  for (let k = 0; k < indices.length; k++) {
    const a = args[indices[k]];
    if (a instanceof TensorImpl) {
      if (requiresGrad(a)) return a;
    } else if (Array.isArray(a)) {
      for (const t of a) if (t instanceof TensorImpl && requiresGrad(t)) return t;
    }
  }
  return null;
}

function checkInplace(name: string, self: TensorImpl): void {
  const meta = metaOf(self);
  if (meta?.leafRequiresGrad && meta.gradFn === null) {
    throw new AutogradError(`${name}: a leaf Variable that requires grad is being used in an in-place operation.`);
  }
  const bm = self.base ? metaOf(self.base) : null;
  if (bm?.leafRequiresGrad && bm.gradFn === null) {
    throw new AutogradError(`${name}: a view of a leaf Variable that requires grad is being used in an in-place operation.`);
  }
  // Note [Inputs returned as-is by a custom Function]
  if (meta?.customFunctionView && meta.gradFn !== null && isGradEnabled()) {
    throw new AutogradError(`${name}: ${meta.customFunctionView}`);
  }
}

/** After an in-place op `node` on `view`: the base's history goes through CopySlices, the view's through the new base. */
function rebaseHistory(base: TensorImpl, view: TensorImpl, node: Node): void {
  const bg = stridedGeometryOf(base);
  const vg = stridedGeometryOf(view);
  const copy = new CopySlices(bg, vg, node);
  ensureMeta(base).setGradFn(copy, 0);
  const viewNode = new ViewOfBase(bg, vg, { node: copy, inputNr: 0 });
  ensureMeta(view).setGradFn(viewNode, 0);
  copy.release();
  viewNode.release();
}

/**
 * The arguments a Node keeps: tensors removed (formulas read tensors from `saved`), typed as
 * the Node's derivative reads them (Note [Derivative arguments]).
 */
function nodeArgs<A extends readonly unknown[]>(args: readonly unknown[]): A {
  const kept: unknown = args.map((a) => (a instanceof TensorImpl ? null : Array.isArray(a) && a.some((x) => x instanceof TensorImpl) ? null : a));
  // The boxing boundary, the one place the untyped boxed list meets the typed entry: the
  // boxed calling convention promises each op its schema's tuple (Note [Checking kernel
  // arguments] in core, checked in the test suites), which with the tensors taken out as
  // above is `A` (registerAutogradKernels pairs each op with its own entry).
  return kept as A;
}

/** An in-place op's `self`: the boxed convention makes a mutable `Tensor(a!)` slot a TensorImpl. */
function mutatedSelf(name: string, a: unknown): TensorImpl {
  if (!(a instanceof TensorImpl)) throw new AutogradError(`autograd: ${name} is in-place but its self is not a tensor`);
  return a;
}

/** An op's output (every differentiable op returns Tensors: one, a tuple or a list). */
function tensorOutput(name: string, o: unknown): TensorImpl {
  if (!(o instanceof TensorImpl)) throw new AutogradError(`autograd: ${name} returned an output that is not a tensor`);
  return o;
}

/** PyTorch refuses out= when autograd would have to record it. */
const outKernel =
  (op: OperatorHandle): BoxedKernel =>
  (ks, args) => {
    if (!reverseRecordingOff() && firstRequiringGrad(args, op.schema.tensorArgs) !== null) {
      throw new AutogradError(
        `${op.schema.name}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.`,
      );
    }
    return belowAutograd(op, ks, args);
  };

/**
 * Registers the autograd kernel of one op from its derivative (ops autograd defines itself):
 * `d` reads the arguments of `op`'s schema (Note [Derivative arguments]).
 */
export function registerDerivative<A extends readonly unknown[]>(op: OperatorHandle, d: Derivative<A>): void {
  const kernel = differentiableKernel(op, d);
  for (const k of AUTOGRAD_KEYS) registerKernel(op, k, kernel);
}

/**
 * One op's entry, typed by its op's schema. (Called with the union of every name, K's
 * pairing of a name with its own entry rests on the table's type, DerivativeTable, which
 * types each entry by its key.)
 */
function registerEntry<K extends KernelOpName>(name: K, entry: DerivativeTable[K] | undefined): void {
  if (!entry) throw new AutogradError(`autograd: aten::${name} has no derivative entry`);
  if ('notDifferentiable' in entry) return; // the autograd keys fall through to the backend
  registerDerivative(getOperator(name), entry);
}

export function registerAutogradKernels(table: DerivativeTable): void {
  for (const name of KERNEL_OP_NAMES) registerEntry(name, table[name]);
  for (const op of allOperators()) {
    if (op.schema.overload.endsWith('out')) {
      for (const k of AUTOGRAD_KEYS) registerKernel(op, k, outKernel(op));
    }
  }
}
