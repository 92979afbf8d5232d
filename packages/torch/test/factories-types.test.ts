/**
 * The factories' types, derived from their schemas (Note [Front ends are declared once]): each
 * `@ts-expect-error` line must fail to compile (tsc runs over the tests) and also fails at run
 * time, so the types promise what the binder accepts.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { TorchTypeError } from '@torch-ts/torch';

describe('factories declared by their schema', () => {
  it('sizes as variadic ints, one list or by keyword, then the options', () => {
    expect(torch.zeros(2, 3).shape).toEqual([2, 3]);
    expect(torch.ones(2, 3, { dtype: 'int32' }).dtype).toBe('int32');
    expect(torch.empty([2, 3], { dtype: 'long' }).dtype).toBe('int64');
    expect(torch.rand({ size: [2], generator: new torch.Generator() }).shape).toEqual([2]);
    expect(torch.randn(...[2, 2]).shape).toEqual([2, 2]);
    // (no sizes: a 0-dim tensor, so `zeros(...shape)` works for every shape)
    expect(torch.zeros().shape).toEqual([]);
    // @ts-expect-error: a size is ints
    expect(() => torch.zeros('2')).toThrow(TorchTypeError);
    // @ts-expect-error: a misspelled keyword
    expect(() => torch.ones(2, { dtpye: 'int32' })).toThrow("ones() got an unexpected keyword argument 'dtpye'");
    // @ts-expect-error: not a dtype
    expect(() => torch.zeros(2, { dtype: 'float33' })).toThrow(/float33/);
  });

  it('full, arange, linspace and eye take their required arguments positionally or by keyword', () => {
    expect(torch.full([2], 7).tolist()).toEqual([7, 7]);
    expect(torch.full({ size: [1], fillValue: true }).dtype).toBe('bool');
    expect(torch.arange(3).tolist()).toEqual([0, 1, 2]);
    expect(torch.arange(1, 3).tolist()).toEqual([1, 2]);
    expect(torch.arange(0, 1, 0.5, { dtype: 'float64' }).tolist()).toEqual([0, 0.5]);
    expect(torch.linspace(0, 1, { steps: 2 }).tolist()).toEqual([0, 1]);
    expect(torch.eye(1, 2).tolist()).toEqual([[1, 0]]);
    // @ts-expect-error: full needs a fill value
    expect(() => torch.full([2])).toThrow('full() missing 1 required positional argument: "fillValue"');
    // @ts-expect-error: steps is an int, required
    expect(() => torch.linspace(0, 1)).toThrow('linspace() missing 1 required positional argument: "steps"');
    // @ts-expect-error: eye's sizes are ints
    expect(() => torch.eye('2')).toThrow(TorchTypeError);
    // @ts-expect-error: arange has no generator
    expect(() => torch.arange(2, { generator: new torch.Generator() })).toThrow(TorchTypeError);
  });

  it('tensor takes its data and keywords', () => {
    expect(torch.tensor([1, 2], { dtype: 'float64', requiresGrad: true }).requiresGrad).toBe(true);
    expect(torch.tensor({ data: [[1]] }).shape).toEqual([1, 1]);
    // @ts-expect-error: a misspelled keyword
    expect(() => torch.tensor([1], { requiresGrd: true })).toThrow("tensor() got an unexpected keyword argument 'requiresGrd'");
  });
});
