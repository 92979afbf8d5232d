/**
 * `torch.func.functionalCall` and `torch.func.stackModuleState`: running a Module with
 * parameters and buffers given as values, and stacking several models' state for ensembling.
 *
 * Note [functionalCall substitutes in place]
 * PyTorch 1.13's functional_call swaps each named tensor into its module (as a plain
 * attribute, so a non-Parameter tensor with a graph behind it can stand in for a Parameter),
 * runs the module, and swaps the originals back in a `finally`. Here the swap goes through
 * `Module._substituteTensor`, which files the tensor unchecked; the originals are restored
 * in reverse order even when forward throws, so the module is never left holding a
 * substituted tensor. Names the module does not have are an error before anything is swapped.
 */
import { Tensor, ValueError, stack } from '@torch-ts/core';
import { noGrad } from '@torch-ts/autograd';
import { Module } from '../nn/module';

export type TensorDict = Readonly<Record<string, Tensor>> | ReadonlyMap<string, Tensor>;

function entries(d: TensorDict): [string, Tensor][] {
  return d instanceof Map ? [...d.entries()] : Object.entries(d as Record<string, Tensor>);
}

function owner(module: Module, name: string): [Module, string] {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return [module, name];
  return [module.getSubmodule(name.slice(0, dot)), name.slice(dot + 1)];
}

/**
 * `torch.func.functionalCall(module, parametersAndBuffers, args, kwargs?)`: `module(...args)`
 * with the named parameters and buffers replaced by the given tensors for this call only
 * (Note [functionalCall substitutes in place]). `parametersAndBuffers` is an object or Map
 * keyed by `namedParameters` / `namedBuffers` names, or an array of them (merged; a name in
 * two of them is an error). `args` is one argument or an array of arguments.
 */
export function functionalCall(module: Module, parametersAndBuffers: TensorDict | readonly TensorDict[], args: unknown, kwargs?: Record<string, unknown>): any {
  const dicts = Array.isArray(parametersAndBuffers) ? (parametersAndBuffers as readonly TensorDict[]) : [parametersAndBuffers as TensorDict];
  const all = new Map<string, Tensor>();
  for (const d of dicts) {
    for (const [k, v] of entries(d)) {
      if (all.has(k)) throw new ValueError(`functionalCall: ${k} appeared in multiple dictionaries; behavior of functional call is ambiguous`);
      if (!(v instanceof Tensor)) throw new ValueError(`functionalCall: expected a Tensor for '${k}', got ${v === null ? 'null' : typeof v}`);
      all.set(k, v);
    }
  }
  const targets = [...all].map(([name, value]) => {
    const [mod, leaf] = owner(module, name);
    if (!mod._parameters.has(leaf) && !mod._buffers.has(leaf)) {
      throw new ValueError(`functionalCall: ${module.constructor.name} has no parameter or buffer named '${name}'`);
    }
    return { mod, leaf, value };
  });
  const restore: { mod: Module; leaf: string; old: Tensor | null }[] = [];
  try {
    for (const t of targets) restore.push({ mod: t.mod, leaf: t.leaf, old: t.mod._substituteTensor(t.leaf, t.value) });
    const list = Array.isArray(args) ? args : [args];
    return kwargs === undefined ? module(...list) : module(...list, kwargs);
  } finally {
    for (let i = restore.length - 1; i >= 0; i--) {
      const r = restore[i]!;
      r.mod._substituteTensor(r.leaf, r.old);
    }
  }
}

/**
 * `torch.func.stackModuleState(models)`: `[params, buffers]`, each name's tensors of all
 * models stacked along a new dim 0 (PyTorch's stack_module_state), for
 * `vmap((p, b, x) => functionalCall(base, [p, b], x), { inDims: [0, 0, null] })`. The stacked
 * parameters are new leaves that require grad when the originals do.
 */
export function stackModuleState(models: readonly Module[]): [Record<string, Tensor>, Record<string, Tensor>] {
  if (models.length === 0) throw new ValueError('stackModuleState: Expected at least one model, got 0.');
  const training = models[0]!.training;
  if (!models.every((m) => m.training === training)) {
    throw new ValueError('stackModuleState: Expected all models to have the same training/eval mode.');
  }
  const firstType = models[0]!.constructor;
  if (!models.every((m) => m.constructor === firstType)) {
    throw new ValueError('stackModuleState: Expected all models to be of the same class.');
  }
  const stackAll = (get: (m: Module) => [string, Tensor][], leaf: boolean): Record<string, Tensor> => {
    const names = get(models[0]!).map(([n]) => n);
    const per = models.map((m) => new Map(get(m)));
    const out: Record<string, Tensor> = {};
    for (const n of names) {
      const ts = per.map((p) => p.get(n));
      if (ts.some((t) => t === undefined)) throw new ValueError(`stackModuleState: Expected all models to have '${n}'`);
      const s = noGrad(() => stack(ts as Tensor[], 0));
      out[n] = leaf && ts.every((t) => t!.requiresGrad) ? s.requiresGrad_(true) : s;
    }
    return out;
  };
  return [stackAll((m) => [...m.namedParameters()], true), stackAll((m) => [...m.namedBuffers()], false)];
}
