/**
 * The OpInfo table against the front ends (core Note [Front ends are declared once]): an entry
 * named as a front end tests the variants its declaration gives, no more and no fewer, so an
 * entry cannot drift from the op it tests.
 */
import { describe, expect, it } from 'vitest';
import { allFronts, camelName, Tensor, type FrontInfo } from '@torch-ts/core';
import { OP_TABLE } from '../src/op-info';

const fronts = new Map<string, FrontInfo>(allFronts().map((f) => [f.name, f]));
// (and by the name the facade gives it on torch, where no other front end has that name: `var`
// is core's `variance`; torch.sparse.sum is not torch.sum)
for (const f of allFronts()) if (!fronts.has(f.exportName) && (f.namespaces.includes('torch') || f.namespaces.length === 0)) fronts.set(f.exportName, f);
// (an `out` the front refuses, `unsupported`, is PyTorch's keyword without an out= form here)
const hasOut = (f: FrontInfo) => !f.unsupported.includes('out') && f.schemas.some((s) => /[ (]out=None|\bTensor[^,]* out\b/.test(s));

/**
 * In-place front ends that are not the in-place form of the function of their name, as in
 * PyTorch: `x.bernoulli_(p)` fills x with draws of probability p, while `bernoulli(x)` draws
 * with x's probabilities (bernoulli_ is tested in torch's nn-functional and arguments tests).
 */
const ANOTHER_OP_IN_PLACE = new Set(['bernoulli_']);

/**
 * Front ends whose Tensor method is an op-table row's, not the front end's: torch.polygamma(n,
 * input) orders its arguments otherwise than x.polygamma(n), the polygamma row's method (core
 * Note [torch.special's rows]).
 */
const ROW_METHOD = new Set(['polygamma']);

describe('OpInfo entries agree with the front ends', () => {
  const entries = OP_TABLE.filter((op) => fronts.has(camelName(op.name)));

  it('covers the front ends converted so far', () => {
    expect(entries.length).toBeGreaterThan(0);
  });

  for (const op of entries) {
    it(`${op.name}: method, in-place and out= as declared`, () => {
      const f = fronts.get(camelName(op.name))!;
      // (a method of another signature than the function's stays hand-written: x.where(condition, other))
      const hasMethod = typeof (Tensor.prototype as unknown as Record<string, unknown>)[f.method ? f.exportName : f.name] === 'function';
      if (f.method) expect(hasMethod, 'the declared method is installed').toBe(true);
      expect(op.variants.method === true, 'method').toBe(hasMethod || ROW_METHOD.has(op.name));
      expect(op.variants.out !== undefined && op.variants.out !== false, 'out=').toBe(hasOut(f));
      const inplace = fronts.get(`${f.name}_`);
      if (inplace && !ANOTHER_OP_IN_PLACE.has(inplace.name)) expect(op.variants.inplace === true, 'in-place').toBe(true);
    });
  }
});
