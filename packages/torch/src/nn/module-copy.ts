import { noGradGuard, Tensor } from './internal';
import { Module } from './module';
import { Parameter } from './parameter';

/** A Module's own bookkeeping fields (Note [Module registration by assignment]); copied separately. */
const INTERNAL = new Set(['_parameters', '_buffers', '_nonPersistent', '_modules', '_forwardHooks', '_forwardPreHooks', 'training']);

/**
 * Note [Deep-copying a module]
 * `nn.TransformerEncoder(layer, n)` and `nn.TransformerDecoder(layer, n)` hold `n` copies of
 * `layer` made by `copy.deepcopy` (PyTorch's `_get_clones`): same class, same settings,
 * parameters and buffers with the same values in new storage, and no draw from the random
 * generator (so what a model initialises after the stack draws what PyTorch's does).
 * `deepcopyModule` does that for any Module: a new callable Module (Note [Callable
 * modules]) given the source's prototype; its parameters, buffers and submodules registered
 * in the source's order (parameters cloned as new leaves with the same `requiresGrad`,
 * buffers cloned, submodules copied recursively, a parameter or module reached twice copied
 * once, as deepcopy's memo does); every other own field (settings, functions) copied as it
 * is, an array as a new array. Functions are shared, as deepcopy shares them, so a module
 * must not keep a closure over `this` or over one of its own submodules: the copy's closure
 * would reach the original's.
 * Hooks are not copied. Gradients are not copied (a fresh layer has none).
 */
export function deepcopyModule<M extends Module>(m: M, memo: Map<object, unknown> = new Map()): M {
  const seen = memo.get(m);
  if (seen !== undefined) return seen as M;
  const copy = new Module();
  Object.setPrototypeOf(copy, Object.getPrototypeOf(m));
  memo.set(m, copy);
  copy.training = m.training;
  noGradGuard(() => {
    for (const [name, p] of m._parameters) {
      let c: Parameter | null = null;
      if (p !== null) {
        c = (memo.get(p) as Parameter | undefined) ?? new Parameter(p.detach().clone(), p.requiresGrad);
        memo.set(p, c);
      }
      copy.registerParameter(name, c);
    }
    for (const [name, b] of m._buffers) {
      let c: Tensor | null = null;
      if (b !== null) {
        c = (memo.get(b) as Tensor | undefined) ?? b.detach().clone();
        memo.set(b, c);
      }
      copy.registerBuffer(name, c, { persistent: !m._nonPersistent.has(name) });
    }
  });
  for (const [name, sub] of m._modules) copy.registerModule(name, sub === null ? null : deepcopyModule(sub, memo));
  for (const key of Reflect.ownKeys(m)) {
    if (typeof key === 'string' && (INTERNAL.has(key) || m._parameters.has(key) || m._buffers.has(key) || m._modules.has(key))) continue;
    const desc: PropertyDescriptor | undefined = Reflect.getOwnPropertyDescriptor(m as object, key);
    if (desc === undefined) continue;
    // (an array setting, such as LayerNorm's normalizedShape, gets an array of its own)
    if (Array.isArray(desc.value)) desc.value = [...(desc.value as unknown[])];
    Reflect.defineProperty(copy, key, desc);
  }
  return copy as M;
}
