import { forwardActive, tangentOf } from './forward-ad';
import { AutogradError, Tensor, isDifferentiableType, tidy, zeros, type TensorImpl } from '@torch-ts/core';
import { ensureMeta, metaOf, requiresGrad } from './autograd-meta';
import { recordForwardTrace } from './anomaly';
import type { InputInfo } from './formula-node';
import { isGradEnabled, noGrad } from './grad-mode';
import { Node, nodeOnEdges, type Edge } from './node';
import { SavedVariable } from './saved-variable';
import { typeName, validateGrad } from './validate-grads';
import { userHandle } from './engine';

/** The `ctx` of a custom Function, as PyTorch's. */
export class FunctionCtx {
  /** Per forward argument: whether it is a tensor that requires grad. */
  needsInputGrad: boolean[] = [];
  private toSave: Tensor[] = [];
  private saved: SavedVariable[] | null = null;
  private unpacked: Tensor[] | null = null;
  node: Node | null = null;
  readonly dirty = new Set<Tensor>();
  readonly nonDifferentiable = new Set<Tensor>();
  [key: string]: unknown;

  saveForBackward(...tensors: Tensor[]): void {
    this.toSave = tensors;
  }

  markDirty(...tensors: Tensor[]): void {
    for (const t of tensors) this.dirty.add(t);
  }

  markNonDifferentiable(...tensors: Tensor[]): void {
    for (const t of tensors) this.nonDifferentiable.add(t);
  }

  /** The saved tensors (valid inside `backward`). */
  get savedTensors(): Tensor[] {
    if (this.unpacked) return this.unpacked;
    if (!this.saved || !this.node) throw new AutogradError('savedTensors: only available in backward');
    this.unpacked = this.saved.map((s) => s.unpack(this.node!));
    return this.unpacked;
  }

  /** Called by apply after forward, once outputs are known (saving an output must not form a cycle). */
  captureSaved(outputs: readonly TensorImpl[]): void {
    this.saved = this.toSave.map((t) => {
      const k = outputs.indexOf(t.impl);
      return new SavedVariable(t.impl, k >= 0, Math.max(k, 0));
    });
    this.toSave = [];
  }

  endBackward(): void {
    this.unpacked = null;
  }

  releaseSaved(): void {
    for (const s of this.saved ?? []) s.release();
  }
}

type FunctionClass = {
  name: string;
  forward(ctx: FunctionCtx, ...args: unknown[]): Tensor | Tensor[];
  backward(ctx: FunctionCtx, ...grads: (Tensor | null)[]): Tensor | null | (Tensor | null)[];
};

class CustomFunctionNode extends Node {
  constructor(
    private readonly cls: FunctionClass,
    private readonly ctx: FunctionCtx,
    edges: (Edge | null)[],
    private readonly inputs: readonly (InputInfo | null)[],
    /** For each forward argument, its index among the tensor inputs (or -1). */
    private readonly argToInput: readonly number[],
    /** The outputs' shapes: an output that received no gradient gets zeros, as PyTorch's materialize_grads. */
    private readonly outputs: readonly InputInfo[],
  ) {
    super(edges);
  }

  name(): string {
    return `${this.cls.name}Backward`;
  }

  apply(gradOutputs: (Tensor | null)[]): (Tensor | null)[] {
    // `backward` is user code: it gets handles of its own and runs in the caller's scope
    // (Note [User code in backward]); only the engine's own temporaries are freed here.
    let r: unknown;
    try {
      const grads = this.outputs.map((o, k) => userHandle(gradOutputs[k] ?? null) ?? zeros([...o.sizes], { dtype: o.dtype, device: o.device }));
      r = this.cls.backward(this.ctx, ...grads);
    } finally {
      this.ctx.endBackward();
    }
    const perArg = this.checkedResults(Array.isArray(r) ? r : [r]);
    return tidy(() => {
      const out: (Tensor | null)[] = this.inputs.map(() => null);
      this.argToInput.forEach((k, argIndex) => {
        const g = perArg[argIndex];
        if (k >= 0 && g && this.nextEdges[k] && this.inputs[k]) {
          const v = validateGrad(() => this.name(), k, g, this.inputs[k]!);
          // the engine disposes what a node returns: never the user's own handle
          out[k] = v === g ? userHandle(g) : v;
        }
      });
      return out;
    });
  }

  /**
   * What `backward` returned, one entry per forward argument, checked as PyTorch's PyNode
   * does before the engine validates each gradient: extra trailing nulls are dropped, any
   * other count is an error, a non-tensor argument takes no gradient, and an entry is a
   * Tensor or null.
   */
  private checkedResults(results: readonly unknown[]): (Tensor | null)[] {
    const n = this.argToInput.length;
    let rs = results;
    if (rs.length > n && rs.slice(n).every((g) => g === null || g === undefined)) rs = rs.slice(0, n);
    if (rs.length !== n) {
      throw new AutogradError(`function ${this.name()} returned an incorrect number of gradients (expected ${n}, got ${rs.length})`);
    }
    return rs.map((g, i) => {
      if (g === null || g === undefined) return null;
      if (this.argToInput[i] < 0) {
        throw new AutogradError(
          `function ${this.name()} returned a gradient different than null at position ${i + 1}, but the corresponding forward input was not a Tensor`,
        );
      }
      if (!(g instanceof Tensor)) throw new AutogradError(`function ${this.name()} returned ${typeName(g)} at position ${i + 1}: expected a Tensor or null`);
      return g;
    });
  }

  override releaseVariables(): void {
    this.ctx.releaseSaved();
  }
}

/**
 * `torch.autograd.Function`: subclass with static `forward(ctx, ...args)` and
 * `backward(ctx, ...grads)`, call with `MyFn.apply(...args)`. Forward runs with grad mode
 * off; when an input requires grad, the outputs get a Node that calls `backward`, which
 * returns one gradient per forward argument (null for none).
 */
export class Function {
  static forward(_ctx: FunctionCtx, ..._args: unknown[]): Tensor | Tensor[] {
    throw new AutogradError(`${this.name}.forward is not implemented`);
  }

  static backward(_ctx: FunctionCtx, ..._grads: (Tensor | null)[]): Tensor | null | (Tensor | null)[] {
    throw new AutogradError(`${this.name}.backward is not implemented`);
  }

  static apply<T extends Tensor | Tensor[]>(this: FunctionClass, ...args: unknown[]): T {
    // The caller names what its forward returns (`F.apply<Tensor>(x)`, as PyTorch's apply is
    // untyped): the one place that claim is taken on trust.
    return applyFunction(this, args) as T;
  }
}

/** PyTorch's error for an in-place op on an input returned as-is (CreationMeta IN_CUSTOM_FUNCTION, or MULTI_OUTPUT_NODE with several outputs). */
function asIsMessage(output: string, multi: boolean): string {
  return multi
    ? `${output} is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.`
    : `${output} is a view and is being modified inplace. This view was created inside a custom Function (or because an input was returned as-is) and the autograd logic to handle view+inplace would override the custom backward associated with the custom Function, leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the output of the custom Function.`;
}

/** `Function.apply`: forward under no-grad, then the Node when an input requires grad. */
function applyFunction(cls: FunctionClass, args: unknown[]): Tensor | Tensor[] {
  const ctx = new FunctionCtx();
  const tensors = args.filter((a): a is Tensor => a instanceof Tensor);
  // (a Function has no jvp here: PyTorch's error for one without, Note [Forward-mode AD])
  if (forwardActive() && tensors.some((t) => tangentOf(t.impl) !== null)) {
    throw new AutogradError(`${cls.name}: You must implement the jvp function for custom autograd.Function to use it with forward mode AD.`);
  }
  ctx.needsInputGrad = args.map((a) => a instanceof Tensor && isGradEnabled() && requiresGrad(a.impl));
  const result = noGrad(() => cls.forward(ctx, ...args));
  const outputs = Array.isArray(result) ? result : [result];
  if (!ctx.needsInputGrad.some(Boolean)) {
    ctx.captureSaved([]);
    ctx.releaseSaved();
    return result;
  }
  for (const t of ctx.dirty) {
    const m = metaOf(t.impl);
    if (m?.leafRequiresGrad && !m.gradFn) {
      throw new AutogradError(`${cls.name}: a leaf Variable that requires grad has been used in an in-place operation.`);
    }
  }
  // PyTorch bumps a dirty tensor's version once more when it wraps the outputs.
  for (const t of ctx.dirty) t.impl.version.bump();
  const inputs = tensors.map((t) => t.impl);
  const argToInput = args.map((a) => (a instanceof Tensor ? tensors.indexOf(a) : -1));
  const infos = inputs.map((t) => ({ sizes: t.sizes, strides: t.strides, storageOffset: t.storageOffset, dtype: t.dtype, device: t.device }));
  // Note [Inputs returned as-is by a custom Function]
  // An input returned unchanged (and not marked dirty) is returned as a new alias, as PyTorch
  // does. PyTorch makes that alias a view "created inside a custom Function": an in-place op
  // on it (with grad mode on) raises, since rebasing the view's history would bypass the
  // custom backward. The alias's meta records its name for that error (kernels.ts checkInplace);
  // nn's full backward hooks rely on it (BackwardHookFunction returns its inputs).
  const fixed = outputs.map((o) => (tensors.includes(o) && !ctx.dirty.has(o) ? new Tensor(o.impl.regeometried(o.impl.sizes, o.impl.strides, o.impl.storageOffset)) : o));
  const node = nodeOnEdges(
    inputs.map((t) => (requiresGrad(t) ? t : null)),
    (edges) =>
      new CustomFunctionNode(cls, ctx, edges, infos, argToInput, fixed.map((o) => ({ sizes: o.shape, strides: o.stride(), storageOffset: o.storageOffset(), dtype: o.dtype, device: o.device }))),
  );
  try {
    ctx.node = node;
    ctx.captureSaved(fixed.map((o) => o.impl));
    recordForwardTrace(node);
    fixed.forEach((o, k) => {
      if (ctx.nonDifferentiable.has(outputs[k]) || !isDifferentiableType(o.dtype)) return;
      const meta = ensureMeta(o.impl);
      meta.setGradFn(node, k);
      if (o !== outputs[k]) meta.customFunctionView = asIsMessage(`Output ${k} of ${node.name()}`, fixed.length > 1);
    });
  } finally {
    node.release();
  }
  return Array.isArray(result) ? fixed : fixed[0];
}
