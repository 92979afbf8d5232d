/**
 * The view, shape and join front ends' types, derived from their schemas (Note [Front ends are
 * declared once]): each `@ts-expect-error` line must fail to compile (tsc runs over the tests)
 * and also fails at run time, so the types promise what the binder accepts.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { TorchTypeError } from '@torch-ts/torch';

describe('views, shapes and joins declared by their schema', () => {
  it('an int list as variadic ints, one list or by keyword (Note [Variadic int lists])', () => {
    const x = torch.arange(6);
    expect(x.view(2, 3).shape).toEqual([2, 3]);
    expect(x.view([2, 3]).shape).toEqual([2, 3]);
    expect(x.view({ size: [2, 3] }).shape).toEqual([2, 3]);
    expect(torch.view(x, 3, 2).shape).toEqual([3, 2]);
    expect(x.reshape(3, -1).permute(1, 0).shape).toEqual([2, 3]);
    expect(torch.permute(x.view(2, 3), { dims: [1, 0] }).shape).toEqual([3, 2]);
    expect(x.view(1, 6).expand(2, 6).shape).toEqual([2, 6]);
    expect(x.view(1, 6).expand([2, 6], { implicit: false }).shape).toEqual([2, 6]);
    // @ts-expect-error: a size is ints
    expect(() => x.view('a')).toThrow(/argument 'size' \(position 2\) must be tuple of ints, not string/);
  });

  it('split takes a size or a list of sizes; cat and stack a list and a dim, not Tensor methods', () => {
    const x = torch.arange(6);
    expect(x.split(2).map((p) => p.tolist())).toEqual([[0, 1], [2, 3], [4, 5]]);
    expect(torch.split(x, [2, 4], { dim: 0 }).map((p) => p.shape[0])).toEqual([2, 4]);
    expect(torch.cat([x, x], { dim: 0 }).shape).toEqual([12]);
    expect(torch.stack([x, x], 1).shape).toEqual([6, 2]);
    const options: torch.CatOptions = { dim: 0 };
    expect(torch.concat([x, x], options).shape).toEqual([12]);
    expect(x.view(2, 3).diagonal({ dim1: 1, dim2: 0 }).tolist()).toEqual([0, 4]);
    // @ts-expect-error: narrow's length is required
    expect(() => x.narrow(0, 1)).toThrow(TorchTypeError);
    // @ts-expect-error: cat is not a Tensor method, as in PyTorch
    expect(x.cat).toBeUndefined();
  });
});
