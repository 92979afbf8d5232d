import { describe, expect, it } from 'vitest';
import * as torch from '../src';

// indexPut_/indexPut and einsum bind their arguments (issue 15): `accumulate` given
// positionally was ignored before, and a misspelt keyword was dropped silently.
describe('indexPut and einsum bind their arguments', () => {
  it('indexPut_/indexPut take accumulate positionally or by keyword and refuse unknown keywords', () => {
    const base = torch.tensor([1, 2, 3]);
    const idx = torch.tensor([0, 0], { dtype: 'int64' });
    const v = torch.tensor([5, 7]);
    expect(base.clone().indexPut_([idx], v, true).tolist()).toEqual([13, 2, 3]);
    expect(base.clone().indexPut_([idx], v, { accumulate: true }).tolist()).toEqual([13, 2, 3]);
    expect(torch.indexPut(base, [idx], v, true).tolist()).toEqual([13, 2, 3]);
    expect(base.indexPut([idx], v).tolist()).toEqual([7, 2, 3]);
    expect(() => base.clone().indexPut_([idx], v, { accumlate: true } as never)).toThrow(/index_put_\(\) got an unexpected keyword argument 'accumlate'/);
    expect(() => Reflect.apply(base.clone().indexPut_, base, [[idx], v, true, false])).toThrow(torch.TorchTypeError);
    expect(() => base.clone().indexPut_(idx as never, v)).toThrow(/argument 'indices' must be an array/);
  });

  it('einsum takes its operands variadic, as one array, or by keyword; path is refused', () => {
    const a = torch.tensor([[1, 2], [3, 4]]);
    const b = torch.tensor([[1, 0], [0, 1]]);
    expect(torch.einsum('ij,jk->ik', a, b).tolist()).toEqual([[1, 2], [3, 4]]);
    expect(torch.einsum('ij,jk->ik', [a, b]).tolist()).toEqual([[1, 2], [3, 4]]);
    expect(torch.einsum({ equation: 'ii', tensors: [a] }).item()).toBe(5);
    expect(torch.einsum('ii', a).item()).toBe(5);
    expect(torch.einsum('ii', a, { path: null }).item()).toBe(5);
    expect(() => torch.einsum('ij,jk->ik', a, b, { path: [0, 1] })).toThrow(torch.NotImplementedError);
    expect(() => torch.einsum('ij,jk->ik', a, b, { pth: [0, 1] } as never)).toThrow(/einsum\(\) got an unexpected keyword argument 'pth'/);
  });
});
