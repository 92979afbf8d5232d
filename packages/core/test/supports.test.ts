import { describe, expect, it } from 'vitest';
import { DTYPES, OP_KERNELS, TorchError, supportedDtypes, supports } from '../src';
import { META_IMPLS } from '../src/ops/meta-backend';

// Core alone registers the meta backend, without a dtype table (Note [Dtype support is data]).
describe('supports (core)', () => {
  it('a backend without a dtype table computes every impl it has in every dtype', () => {
    expect(supportedDtypes('add', 'meta')).toEqual([...DTYPES]);
    expect(supports('crossEntropy', 'bfloat16', 'meta')).toBe(true);
  });

  it('an impl the backend opts out of computes in no dtype, unless the op has another path', () => {
    // meta's addmm is notImplemented; the op composes mm and add (Note [Fused addmm])
    expect(typeof META_IMPLS.addmm).not.toBe('function');
    expect(supports('addmm', 'float32', 'meta')).toBe(true);
  });

  it('every need of OP_KERNELS is impl[.variant][@opmath|@bool], alternatives split by |', () => {
    for (const [op, needs] of Object.entries(OP_KERNELS)) {
      for (const n of needs) expect(n, op).toMatch(/^[a-zA-Z0-9]+(\.[a-zA-Z]+)?(@(opmath|bool))?(\|([a-zA-Z0-9]+(\.[a-zA-Z]+)?(@(opmath|bool))?|host))*$/);
    }
  });

  it('raises a TorchError for an unknown op, dtype or unregistered device', () => {
    expect(() => supports('noSuchOp', 'float32', 'meta')).toThrow(/supports: unknown op 'noSuchOp'/);
    expect(() => supports('add', 'float128' as never, 'meta')).toThrow(TorchError);
    expect(() => supports('add', 'float32', 'webgpu')).toThrow(/no backend registered for device 'webgpu'/);
  });
});
