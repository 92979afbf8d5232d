import { describe, it, expect } from 'vitest';
import {
  AUTOGRAD_KEYS,
  AUTOGRAD_KEYSET,
  AFTER_AUTOGRAD_EXCLUDED,
  BACKEND_KEYS,
  DispatchKey,
  DispatchKeySet,
  autogradKeyOf,
  backendKeyOf,
  dispatchKeyName,
  isAutogradKey,
  isBackendKey,
} from '../src/index';

const { CPU, WebGPU, Meta, PrivateUse1, SparseCPU, ADInplaceOrView, AutogradCPU, AutogradWebGPU, AutogradMeta, AutogradPrivateUse1 } = DispatchKey;

describe('DispatchKey', () => {
  it('orders keys by priority: backends lowest, then SparseCPU, ADInplaceOrView, then autograd', () => {
    expect([CPU, WebGPU, Meta, PrivateUse1, SparseCPU, ADInplaceOrView, AutogradCPU, AutogradWebGPU, AutogradMeta, AutogradPrivateUse1]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(BACKEND_KEYS).toEqual([CPU, WebGPU, Meta, PrivateUse1]);
    expect(AUTOGRAD_KEYS).toEqual([AutogradCPU, AutogradWebGPU, AutogradMeta, AutogradPrivateUse1]);
  });

  it('names keys and classifies them', () => {
    expect(dispatchKeyName(CPU)).toBe('CPU');
    expect(dispatchKeyName(AutogradWebGPU)).toBe('AutogradWebGPU');
    expect(dispatchKeyName(ADInplaceOrView)).toBe('ADInplaceOrView');
    expect([CPU, WebGPU, Meta, PrivateUse1, ADInplaceOrView, AutogradCPU].map(isBackendKey)).toEqual([true, true, true, true, false, false]);
    expect([Meta, ADInplaceOrView, AutogradCPU, AutogradMeta].map(isAutogradKey)).toEqual([false, false, true, true]);
  });

  it('maps device types to backend keys and backend keys to their autograd key', () => {
    expect(backendKeyOf('cpu')).toBe(CPU);
    expect(backendKeyOf('webgpu')).toBe(WebGPU);
    expect(backendKeyOf('meta')).toBe(Meta);
    expect(backendKeyOf('privateuseone')).toBe(PrivateUse1);
    expect(autogradKeyOf(CPU)).toBe(AutogradCPU);
    expect(autogradKeyOf(WebGPU)).toBe(AutogradWebGPU);
    expect(autogradKeyOf(Meta)).toBe(AutogradMeta);
    expect(autogradKeyOf(PrivateUse1)).toBe(AutogradPrivateUse1);
  });
});

describe('DispatchKeySet', () => {
  it('is a bitset: of() sets bit k for key k', () => {
    expect(DispatchKeySet.of(CPU).bits).toBe(0b1);
    expect(DispatchKeySet.of(CPU, AutogradCPU).bits).toBe(0b1000001);
    expect(DispatchKeySet.of(Meta, Meta).bits).toBe(0b100);
    expect(DispatchKeySet.EMPTY.bits).toBe(0);
    expect(DispatchKeySet.EMPTY.isEmpty).toBe(true);
    expect(DispatchKeySet.of(WebGPU).isEmpty).toBe(false);
  });

  it('interns sets by value, so equal sets are the same object', () => {
    const a = DispatchKeySet.of(CPU, ADInplaceOrView, AutogradCPU);
    const b = DispatchKeySet.of(AutogradCPU).add(CPU).add(ADInplaceOrView);
    expect(b).toBe(a);
    expect(DispatchKeySet.fromBits(a.bits)).toBe(a);
    expect(DispatchKeySet.of()).toBe(DispatchKeySet.EMPTY);
    expect(a.remove(CPU).remove(ADInplaceOrView).remove(AutogradCPU)).toBe(DispatchKeySet.EMPTY);
    expect(DispatchKeySet.of(CPU)).not.toBe(DispatchKeySet.of(WebGPU));
  });

  it('has / add / remove / union / minus', () => {
    const s = DispatchKeySet.of(CPU, AutogradCPU);
    expect(s.has(CPU)).toBe(true);
    expect(s.has(AutogradCPU)).toBe(true);
    expect(s.has(Meta)).toBe(false);
    expect(s.add(Meta).keys()).toEqual([CPU, Meta, AutogradCPU]);
    expect(s.remove(CPU).keys()).toEqual([AutogradCPU]);
    expect(s.remove(Meta)).toBe(s); // removing an absent key changes nothing
    expect(s.union(DispatchKeySet.of(WebGPU, CPU)).keys()).toEqual([CPU, WebGPU, AutogradCPU]);
    expect(s.minus(DispatchKeySet.of(AutogradCPU, AutogradMeta)).keys()).toEqual([CPU]);
    expect(s.minus(DispatchKeySet.EMPTY)).toBe(s);
    expect(s.union(DispatchKeySet.EMPTY)).toBe(s);
    // immutability: the operations above did not change s
    expect(s.keys()).toEqual([CPU, AutogradCPU]);
  });

  it('lists keys in ascending priority', () => {
    expect(DispatchKeySet.of(AutogradMeta, CPU, ADInplaceOrView, Meta).keys()).toEqual([CPU, Meta, ADInplaceOrView, AutogradMeta]);
    expect(DispatchKeySet.EMPTY.keys()).toEqual([]);
  });

  it('highestPriorityKey is the key with the largest number, -1 for the empty set', () => {
    expect(DispatchKeySet.of(CPU).highestPriorityKey()).toBe(CPU);
    expect(DispatchKeySet.of(CPU, ADInplaceOrView, AutogradCPU).highestPriorityKey()).toBe(AutogradCPU);
    expect(DispatchKeySet.of(CPU, ADInplaceOrView).highestPriorityKey()).toBe(ADInplaceOrView);
    expect(DispatchKeySet.of(Meta, WebGPU).highestPriorityKey()).toBe(Meta);
    expect(DispatchKeySet.EMPTY.highestPriorityKey()).toBe(-1);
  });

  it('backendComponent finds the backend key under autograd keys', () => {
    expect(DispatchKeySet.of(CPU, ADInplaceOrView, AutogradCPU).backendComponent()).toBe(CPU);
    expect(DispatchKeySet.of(WebGPU, AutogradWebGPU).backendComponent()).toBe(WebGPU);
    expect(DispatchKeySet.of(Meta).backendComponent()).toBe(Meta);
    expect(DispatchKeySet.of(AutogradCPU, ADInplaceOrView).backendComponent()).toBe(-1);
    expect(DispatchKeySet.EMPTY.backendComponent()).toBe(-1);
    // with several backends, the highest one
    expect(DispatchKeySet.of(CPU, WebGPU).backendComponent()).toBe(WebGPU);
  });

  it('the autograd key sets of local state hold exactly the autograd (and view) keys', () => {
    expect(AUTOGRAD_KEYSET.keys()).toEqual([AutogradCPU, AutogradWebGPU, AutogradMeta, AutogradPrivateUse1]);
    expect(AFTER_AUTOGRAD_EXCLUDED.keys()).toEqual([ADInplaceOrView, AutogradCPU, AutogradWebGPU, AutogradMeta, AutogradPrivateUse1]);
    const tensorKeys = DispatchKeySet.of(CPU, ADInplaceOrView, AutogradCPU);
    expect(tensorKeys.minus(AFTER_AUTOGRAD_EXCLUDED)).toBe(DispatchKeySet.of(CPU));
  });
});
