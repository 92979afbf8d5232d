import {
  AutogradError,
  Tensor,
  fmtShape,
  isDifferentiableType,
  isInferenceModeEnabled,
  makeBinder,
  onesLike,
  to,
  type AutogradHooks,
  type BackwardOptions,
  type GradFnHandle,
  type TensorImpl,
} from '@torch-ts/core';
import { ensureMeta, metaOf, requiresGrad, type TensorHook } from './autograd-meta';
import { execute } from './engine';
import { gradientEdge, type Edge, type Node } from './node';
import { typeName } from './validate-grads';

export interface GradOptions {
  gradOutputs?: Tensor | readonly (Tensor | null)[] | null;
  retainGraph?: boolean;
  createGraph?: boolean;
  allowUnused?: boolean;
}

/** Whether an argument that takes one value or a list of them got a list. */
function isList<T>(x: T | readonly T[]): x is readonly T[] {
  return Array.isArray(x);
}

export const list = <T>(x: T | readonly T[]): T[] => (isList(x) ? [...x] : [x]);

/** `backward`'s `inputs` (typed loosely by core, as a JS caller may pass anything): each must be a Tensor. */
function tensorInputs(inputs: unknown): Tensor[] {
  return list(inputs).map((t, i) => {
    if (!(t instanceof Tensor)) throw new TypeError(`backward: inputs[${i}] must be a Tensor, but got ${typeName(t)}`);
    return t;
  });
}

/**
 * The root gradients the engine owns: the user's (a new handle each) or ones for scalars.
 * A given gradient is checked as PyTorch's `_make_grads` and then `validate_outputs` check
 * it against its output (Note [Validating gradients]): a Tensor (or null), of the output's
 * shape, on its device (a 0-dim one is moved), cast to its dtype.
 */
function rootGrads(op: string, outputs: readonly Tensor[], given: readonly unknown[]): Tensor[] {
  const made: Tensor[] = [];
  try {
    outputs.forEach((o, i) => made.push(rootGrad(op, o, i, given[i])));
  } catch (e) {
    for (const t of made) t.dispose();
    throw e;
  }
  return made;
}

function rootGrad(op: string, o: Tensor, i: number, g: unknown): Tensor {
  if (g === null || g === undefined) {
    if (o.numel() !== 1) throw new AutogradError(`${op}: grad can be implicitly created only for scalar outputs`);
    return onesLike(o);
  }
  if (!(g instanceof Tensor)) throw new TypeError(`${op}: gradients can be either Tensors or null, but got ${typeName(g)}`);
  if (g.shape.length !== o.shape.length || g.shape.some((s, d) => s !== o.shape[d])) {
    throw new AutogradError(
      `${op}: Mismatch in shape: grad_output[${i}] has a shape of ${fmtShape(g.shape)} and output[${i}] has a shape of ${fmtShape(o.shape)}.`,
    );
  }
  if (g.device !== o.device && g.dim() !== 0) {
    throw new AutogradError(`${op}: invalid gradient at index ${i} - expected device ${o.device} but got ${g.device}`);
  }
  // `to` returns its input when nothing changes; the engine needs a handle of its own either way.
  const r = to(g, { dtype: o.dtype, device: o.device });
  return r === g ? new Tensor(g.impl.retain()) : r;
}

function rootEdges(op: string, outputs: readonly Tensor[], fresh: Node[]): Edge[] {
  return outputs.map((o, i) => {
    const e = requiresGrad(o.impl) ? gradientEdge(o.impl, fresh) : null;
    if (!e) throw new AutogradError(`${op}: element ${i} of tensors does not require grad and does not have a grad_fn`);
    return e;
  });
}

/**
 * Note [autograd's entry points bind their arguments]
 * `torch.autograd.backward`, `torch.autograd.grad` and `Tensor.backward` bind PyTorch's
 * signatures (Note [The argument binder]): `grad(y, x, { createGraph: true })` and
 * `grad(y, x, null, null, true)` are one call, and a misspelled keyword (`createGrph`) raises
 * instead of silently giving a first-order graph. The tensors and their lists are `Any` (a
 * Tensor or a list of them), checked here; `retain_graph=None` is `create_graph`'s value.
 */
const backwardArgs = makeBinder(
  'backward',
  'backward(Any tensors, Any grad_tensors=None, bool? retain_graph=None, bool create_graph=False, Any grad_variables=None, Any inputs=None) -> ()',
  { unsupported: ['gradVariables'] },
);

type GradTensors = Tensor | readonly (Tensor | null)[] | null;

/** `torch.autograd.backward(tensors, gradTensors, { retainGraph, createGraph, inputs })`. */
export function backward(tensors: Tensor | readonly Tensor[], gradTensors?: GradTensors, options?: BackwardOptions): void;
export function backward(tensors: Tensor | readonly Tensor[], options?: BackwardOptions & { gradTensors?: GradTensors }): void;
export function backward(...args: unknown[]): void {
  const [tensors, gradTensors, retainGraph, createGraph, , inputs] = backwardArgs.bind(args);
  runBackward(tensorList('backward', 'tensors', tensors), gradTensors, retainGraph ?? createGraph, createGraph, inputs);
}

/** A Tensor or a list of them (`tensors`, `outputs`, `inputs`), checked. */
function tensorList(op: string, name: string, x: unknown): Tensor[] {
  return list(x).map((t, i) => {
    if (!(t instanceof Tensor)) throw new TypeError(`${op}: ${name}[${i}] must be a Tensor, but got ${typeName(t)}`);
    return t;
  });
}

function runBackward(outs: readonly Tensor[], gradTensors: unknown, keepGraph: boolean, createGraph: boolean, inputs: unknown): void {
  const fresh: Node[] = [];
  try {
    const roots = rootEdges('backward', outs, fresh);
    const onlyTensors = inputs == null ? undefined : tensorInputs(inputs);
    const only = onlyTensors?.map((t) => {
      const e = gradientEdge(t.impl, fresh);
      if (!e) throw new AutogradError('backward: One of the differentiated Tensors does not require grad');
      return e;
    });
    // A non-leaf among `inputs` gets its gradient in `.grad`, as PyTorch does.
    const onlyMetas = onlyTensors?.map((t) => (metaOf(t.impl)?.gradFn ? metaOf(t.impl) : null));
    const grads = rootGrads('backward', outs, gradTensors == null ? [] : list(gradTensors));
    execute(roots, grads, { keepGraph, createGraph, only, onlyMetas });
  } finally {
    for (const f of fresh) f.release();
  }
}

const gradArgs = makeBinder(
  'grad',
  'grad(Any outputs, Any inputs, Any grad_outputs=None, bool? retain_graph=None, bool create_graph=False, bool only_inputs=True, bool allow_unused=False, bool is_grads_batched=False) -> ()',
  { unsupported: ['isGradsBatched'] },
);

/** `torch.autograd.grad(outputs, inputs, opts)`: the gradients, without touching `.grad`. */
export function grad(outputs: Tensor | readonly Tensor[], inputs: Tensor | readonly Tensor[], options?: GradOptions): (Tensor | null)[];
export function grad(outputs: Tensor | readonly Tensor[], inputs: Tensor | readonly Tensor[], gradOutputs: GradTensors, options?: Omit<GradOptions, 'gradOutputs'>): (Tensor | null)[];
export function grad(
  outputs: Tensor | readonly Tensor[],
  inputs: Tensor | readonly Tensor[],
  gradOutputs: GradTensors,
  retainGraph: boolean | null,
  createGraph?: boolean,
  options?: Pick<GradOptions, 'allowUnused'>,
): (Tensor | null)[];
export function grad(...args: unknown[]): (Tensor | null)[] {
  const [outputs, inputs, gradOutputs, retainGraph, createGraph, , allowUnused] = gradArgs.bind(args);
  const outs = tensorList('grad', 'outputs', outputs);
  const ins = tensorList('grad', 'inputs', inputs);
  const fresh: Node[] = [];
  try {
    const roots = rootEdges('grad', outs, fresh);
    const captures = ins.map((t) => {
      const e = requiresGrad(t.impl) ? gradientEdge(t.impl, fresh) : null;
      if (!e) throw new AutogradError('grad: One of the differentiated Tensors does not require grad');
      return e;
    });
    const grads = rootGrads('grad', outs, gradOutputs == null ? [] : list(gradOutputs));
    const result = execute(roots, grads, { keepGraph: retainGraph ?? createGraph, createGraph, captures });
    if (!allowUnused && result.some((g) => g === null)) {
      for (const g of result) g?.dispose();
      throw new AutogradError(
        'grad: One of the differentiated Tensors appears to not have been used in the graph. Set allowUnused: true if this is the desired behavior.',
      );
    }
    return result;
  } finally {
    for (const f of fresh) f.release();
  }
}

const handles = new WeakMap<Node, GradFnHandle>();

/** The `x.gradFn` object of a Node (cached, so `x.gradFn === x.gradFn`'s node compares equal). */
function nodeHandle(node: Node): GradFnHandle {
  let h = handles.get(node);
  if (h) return h;
  h = {
    name: () => node.name(),
    get nextFunctions() {
      return node.nextEdges.map((e): [GradFnHandle, number] | null => (e ? [nodeHandle(e.node), e.inputNr] : null));
    },
    registerHook: (hook) => removable(node.postHooks, hook),
    registerPrehook: (hook) => removable(node.preHooks, hook),
  };
  handles.set(node, h);
  return h;
}

function removable<T>(list: T[], item: T): { remove(): void } {
  list.push(item);
  return {
    remove: () => {
      const i = list.indexOf(item);
      if (i >= 0) list.splice(i, 1);
    },
  };
}

/** What core's Tensor calls (Note [Autograd through interfaces] in core). */
export const hooks: AutogradHooks = {
  setRequiresGrad(impl: TensorImpl, value: boolean): void {
    const meta = ensureMeta(impl);
    if (meta.gradFn) {
      if (value) return;
      throw new AutogradError(
        "requiresGrad_: you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use varNoGrad = var.detach().",
      );
    }
    if (value && !isDifferentiableType(impl.dtype)) {
      throw new AutogradError(`requiresGrad_: only Tensors of floating point dtype can require gradients (got ${impl.dtype}; complex dtypes can too)`);
    }
    if (value && impl.version.inference && !isInferenceModeEnabled()) {
      throw new AutogradError('requiresGrad_: Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.');
    }
    meta.leafRequiresGrad = value;
  },
  backward(impl: TensorImpl, gradient: TensorImpl | null, options: BackwardOptions): void {
    const out = new Tensor(impl.retain());
    const g = gradient ? new Tensor(gradient.retain()) : null;
    try {
      // (Tensor.backward has bound the options: Note [autograd's entry points bind their arguments])
      runBackward([out], g === null ? null : [g], options.retainGraph ?? options.createGraph ?? false, options.createGraph ?? false, options.inputs);
    } finally {
      out.dispose();
      g?.dispose();
    }
  },
  gradFnName: (impl) => metaOf(impl)?.gradFn?.name() ?? null,
  gradFn: (impl) => {
    const fn = metaOf(impl)?.gradFn;
    return fn ? nodeHandle(fn) : null;
  },
  detachInplace(impl: TensorImpl): void {
    const meta = metaOf(impl);
    if (!meta) return;
    if (impl.base !== null && meta.requiresGrad) {
      throw new AutogradError("detach_: Can't detach views in-place. Use detach() instead.");
    }
    meta.setGradFn(null, 0);
    meta.leafRequiresGrad = false;
  },
  isLeaf: (impl) => metaOf(impl)?.gradFn == null,
  retainsGrad: (impl) => metaOf(impl)?.gradFn != null && metaOf(impl)?.retainsGrad === true,
  retainGrad(impl: TensorImpl): void {
    const meta = metaOf(impl);
    if (!meta?.gradFn) {
      if (!meta?.leafRequiresGrad) throw new AutogradError("retainGrad: can't retain_grad on Tensor that has requires_grad=False");
      return; // leaves keep their grad anyway
    }
    meta.retainsGrad = true;
    meta.gradFn.retainedGrads.set(meta.outputNr, meta);
  },
  registerHook(impl: TensorImpl, hook: (g: unknown) => unknown): { remove(): void } {
    const meta = metaOf(impl);
    if (!meta?.requiresGrad) {
      throw new AutogradError("registerHook: cannot register a hook on a tensor that doesn't require gradient");
    }
    if (typeof hook !== 'function') throw new TypeError(`registerHook: expected a function, but got ${typeName(hook)}`);
    const h: TensorHook = hook;
    let where: TensorHook[];
    if (meta.gradFn) {
      const hooks = meta.gradFn.outputHooks;
      if (!hooks.has(meta.outputNr)) hooks.set(meta.outputNr, []);
      where = hooks.get(meta.outputNr)!;
    } else where = meta.hooks;
    where.push(h);
    return {
      remove: () => {
        const i = where.indexOf(h);
        if (i >= 0) where.splice(i, 1);
      },
    };
  },
};
