import { add, amax, argmax, div, full, matmul, mul, sum, tensor, where, type Tensor } from '@torch-ts/core';
import { describe, expect, it } from 'vitest';
import '../src/index';

// End to end through core's dispatcher: the CPU backend is what runs `aten::*` on CPU.
describe('through the dispatcher', () => {
  const values = (t: Tensor): unknown => t.tolist();
  it('runs pointwise, reduction, where and matmul ops on CPU tensors', () => {
    const a = tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float32' });
    const b = tensor([10, 20, 30], { dtype: 'float32' });
    expect(values(add(a, b, { alpha: 2 }))).toEqual([[21, 42, 63], [24, 45, 66]]);
    expect(values(mul(a, 2))).toEqual([[2, 4, 6], [8, 10, 12]]);
    expect(values(div(tensor([7, -7]), 2, { roundingMode: 'floor' }))).toEqual([3, -4]);
    expect(values(sum(a, [1]))).toEqual([6, 15]);
    expect(values(amax(a, [0]))).toEqual([4, 5, 6]);
    expect(values(argmax(a, { dim: 1 }))).toEqual([2, 2]);
    expect(values(where(tensor([true, false, true]), b, full([3], -1)))).toEqual([10, -1, 30]);
    expect(values(matmul(a, tensor([[1], [0], [-1]], { dtype: 'float32' })))).toEqual([[-2], [-2]]);
  });
});
