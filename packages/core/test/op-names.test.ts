import { describe, expect, it } from 'vitest';
import { allOperators, KERNEL_OP_NAMES } from '../src';

describe('KERNEL_OP_NAMES (Note [Ops that need a derivative])', () => {
  it('names exactly the operators with kernels of their own (not composites, not out= variants)', () => {
    const registered = allOperators()
      .filter((o) => !o.def.composite && !o.schema.overload.endsWith('out'))
      .map((o) => o.name)
      .sort();
    expect([...KERNEL_OP_NAMES].sort()).toEqual(registered);
  });
});
