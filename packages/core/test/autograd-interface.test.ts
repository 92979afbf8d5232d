import { describe, expect, it } from 'vitest';
import {
  AutogradError,
  empty,
  registerAutogradHooks,
  registerAutogradMetaFactory,
  type AutogradHooks,
  type AutogradMetaInterface,
  type TensorImpl,
} from '../src';

const meta = () => empty([2], { device: 'meta' });

describe('autograd through the interfaces core declares', () => {
  it('without an engine: backward, requiresGrad_(true) and retainGrad are clear AutogradErrors', () => {
    const x = meta();
    for (const f of [() => x.backward(), () => x.requiresGrad_(true), () => x.retainGrad(), () => empty([2], { device: 'meta', requiresGrad: true })]) {
      expect(f).toThrow(AutogradError);
      expect(f).toThrow(/autograd is not available: no autograd engine is registered \(import '@torch-ts\/autograd'/);
    }
    expect(x.requiresGrad_(false)).toBe(x);
    expect(x.requiresGrad).toBe(false);
    expect(x.gradFn).toBeNull();
    expect(x.isLeaf).toBe(true);
    expect(x.grad).toBeNull();
  });

  it('with an engine registered, Tensor reaches it through the hooks and the meta factory', () => {
    const calls: string[] = [];
    const metas = new Map<TensorImpl, AutogradMetaInterface>();
    registerAutogradMetaFactory((impl) => {
      const m: AutogradMetaInterface = {
        requiresGrad: false,
        grad: null,
        gradHandle: null,
        setGrad: () => calls.push('setGrad'),
        release: () => calls.push('release'),
      };
      metas.set(impl, m);
      return m;
    });
    const hooks: AutogradHooks = {
      setRequiresGrad: (impl, v) => {
        impl.ensureAutogradMeta()!.requiresGrad = v;
        calls.push(`requiresGrad ${v}`);
      },
      backward: (_impl, gradient, options) => calls.push(`backward ${gradient ? 'with' : 'without'} gradient retain=${options.retainGraph}`),
      gradFnName: (impl) => (metas.get(impl)?.requiresGrad ? null : 'FakeBackward0'),
      gradFn: (impl) =>
        metas.get(impl)?.requiresGrad
          ? null
          : { name: () => 'FakeBackward0', nextFunctions: [], registerHook: () => ({ remove() {} }), registerPrehook: () => ({ remove() {} }) },
      detachInplace: () => calls.push('detach_'),
      isLeaf: (impl) => metas.get(impl)?.requiresGrad ?? false,
      retainGrad: () => calls.push('retainGrad'),
      retainsGrad: () => false,
      registerHook: () => ({ remove: () => {} }),
    };
    registerAutogradHooks(hooks);
    const x = meta().requiresGrad_();
    expect(x.requiresGrad).toBe(true);
    expect(x.isLeaf).toBe(true);
    x.backward(meta(), { retainGraph: true });
    x.retainGrad();
    const y = meta();
    expect(y.gradFn?.name()).toBe('FakeBackward0');
    x.dispose();
    expect(calls).toEqual(['requiresGrad true', 'backward with gradient retain=true', 'retainGrad', 'release']);
  });
});
