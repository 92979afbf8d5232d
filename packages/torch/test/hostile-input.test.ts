import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';

/**
 * Issue 14: values out of a dtype's range and malformed nested data are refused with
 * PyTorch 2.x's errors (core Notes [Checked scalar arguments] and [Checked tensor data]),
 * always as TorchErrors, never as a wrapped value or a raw engine error; nothing leaks.
 * Expected behaviour checked against PyTorch 1.13 on Python 3.10, which 2.x matches.
 */

function counters() {
  const s = torch.memory.stats('cpu');
  return { liveTensors: s.liveTensors, liveBytes: s.liveBytes };
}

function refusedWith(f: () => unknown, message: string | RegExp, cls: new (...a: never[]) => Error = torch.TorchError): void {
  const start = counters();
  let err: unknown = null;
  try {
    (f() as { dispose?: () => void } | undefined)?.dispose?.();
  } catch (e) {
    err = e;
  }
  expect(err, 'expected an error').toBeInstanceOf(cls);
  if (typeof message === 'string') expect((err as Error).message).toBe(message);
  else expect((err as Error).message).toMatch(message);
  expect(counters()).toEqual(start);
}

describe('values out of a dtype range at creation', () => {
  it('full checks its fill value (c10 checked_convert)', () => {
    // torch.full([2], float('nan'), dtype=torch.int64) -> value cannot be converted to type int64_t without overflow
    refusedWith(() => torch.full([2], NaN, { dtype: 'int64' }), 'full: value cannot be converted to type int64_t without overflow');
    refusedWith(() => torch.full([2], Infinity, { dtype: 'int64' }), 'full: value cannot be converted to type int64_t without overflow');
    refusedWith(() => torch.full([2], 1e20, { dtype: 'int32' }), 'full: value cannot be converted to type int without overflow');
    refusedWith(() => torch.full([1], -256, { dtype: 'uint8' }), 'full: value cannot be converted to type uint8_t without overflow');
    refusedWith(() => torch.full([1], -1.5, { dtype: 'uint8' }), 'full: value cannot be converted to type uint8_t without overflow');
    refusedWith(() => torch.full([1], 1e39, { dtype: 'float32' }), 'full: value cannot be converted to type float without overflow');
    // what PyTorch accepts: a negative integer wraps into uint8, anything is a bool, inf is a float
    expect(torch.full([1], -1, { dtype: 'uint8' }).tolist()).toEqual([255]);
    expect(torch.full([2], NaN, { dtype: 'bool' }).tolist()).toEqual([true, true]);
    expect(torch.full([1], Infinity, { dtype: 'float16' }).tolist()).toEqual([Infinity]);
    expect(torch.full([1], 0.5, { dtype: 'int32' }).tolist()).toEqual([0]);
    // an integer-valued number past int64 is a float, as tensor() infers it; into int64 it overflows
    expect(torch.full([1], 1e20).dtype).toBe('float32');
    refusedWith(() => torch.full([1], 1e20, { dtype: 'int64' }), 'full: value cannot be converted to type int64_t without overflow');
  });

  it('tensor checks data headed for an integer dtype (python_scalars.h store_scalar)', () => {
    // torch.tensor([300], dtype=torch.uint8) -> value cannot be converted to type uint8 without overflow
    refusedWith(() => torch.tensor([300], { dtype: 'uint8' }), 'tensor(): value cannot be converted to type uint8 without overflow');
    refusedWith(() => torch.tensor([1e20], { dtype: 'int32' }), 'tensor(): value cannot be converted to type int32 without overflow');
    refusedWith(() => torch.tensor([2 ** 40], { dtype: 'int32' }), 'tensor(): value cannot be converted to type int32 without overflow');
    refusedWith(() => torch.tensor([NaN], { dtype: 'int64' }), 'tensor(): value cannot be converted to type int64 without overflow');
    refusedWith(() => torch.tensor([[1, 2], [3, Infinity]], { dtype: 'int32' }), 'tensor(): value cannot be converted to type int32 without overflow');
    refusedWith(() => torch.tensor([[1n], [300n]], { dtype: 'int8' }), 'tensor(): value cannot be converted to type int8 without overflow');
    // accepted: a negative integer wraps into uint8, floats truncate, float dtypes cast (1e39 -> inf), bool is truthiness
    expect(torch.tensor([-1], { dtype: 'uint8' }).tolist()).toEqual([255]);
    expect(torch.tensor([1.7, -2.5], { dtype: 'int32' }).tolist()).toEqual([1, -2]);
    expect(torch.tensor([1e39], { dtype: 'float32' }).tolist()).toEqual([Infinity]);
    expect(torch.tensor([2, NaN, 0], { dtype: 'bool' }).tolist()).toEqual([true, true, false]);
    expect(torch.tensor([[1n, 2n], [3n, 2n ** 62n]]).tolist({ bigint: true })).toEqual([[1n, 2n], [3n, 2n ** 62n]]);
    // a typed array is converted as a cast (as numpy data is), without a check
    expect(torch.tensor(new Float64Array([300]), { dtype: 'uint8' }).tolist()).toEqual([44]);
  });

  it('fill_, maskedFill and alpha check their scalar; add_ of a float to an int tensor is a cast error', () => {
    const i8 = torch.zeros(2, { dtype: 'int8' });
    const i64 = torch.zeros(2, { dtype: 'int64' });
    const mask = torch.tensor([true, false]);
    const i32 = torch.zeros(2, { dtype: 'int32' });
    const ones32 = torch.ones(2, { dtype: 'int32' });
    const b = torch.zeros(2, { dtype: 'bool' });
    refusedWith(() => i8.fill_(300), 'fill_: value cannot be converted to type int8_t without overflow');
    refusedWith(() => i64.fill_(NaN), 'fill_: value cannot be converted to type int64_t without overflow');
    refusedWith(() => i8.maskedFill(mask, 300), 'masked_fill_: value cannot be converted to type int8_t without overflow');
    refusedWith(() => i32.add_(1e20), "add_: result type Float can't be cast to the desired output type Int", torch.DTypeError);
    refusedWith(() => i32.add_(ones32, { alpha: 2 ** 40 }), 'add_: value cannot be converted to type int without overflow');
    refusedWith(() => b.add_(2), "add_: result type Long can't be cast to the desired output type Bool", torch.DTypeError);
    // a scalar operand is not checked: it wraps, as PyTorch's does
    expect(i32.add_(2 ** 40).tolist()).toEqual([0, 0]);
    expect(b.fill_(300).tolist()).toEqual([true, true]);
    for (const t of [i64, mask, ones32, b]) t.dispose();
    expect(i8.tolist()).toEqual([0, 0]); // the refused fills changed nothing
    i8.dispose();
    i32.dispose();
  });
});

describe('malformed nested data', () => {
  it('a 10,000-deep or self-containing array is a TorchError, not a stack overflow', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    refusedWith(() => torch.tensor(deep as never), /^tensor\(\): too many dimensions: data nested deeper than 128 levels/);
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    refusedWith(() => torch.tensor(cyclic as never), /too many dimensions/);
    const inner: unknown[] = [1, 2];
    inner[1] = inner;
    refusedWith(() => torch.tensor(inner as never), 'tensor(): expected a number at dim 1 (got a sequence)');
    // 128 levels is PyTorch's limit, and fine
    let ok: unknown = 1;
    for (let i = 0; i < 128; i++) ok = [ok];
    const t = torch.tensor(ok as never);
    expect(t.dim()).toBe(128);
    t.dispose();
  });

  it('a small array shared at every level is refused before it is walked', () => {
    // 2^41 and 2^61 elements described by 41 / 61 arrays: refused at once, not walked for hours
    // (a JS array that large used to crash V8 outright).
    let big: unknown = [1, 1];
    for (let i = 0; i < 40; i++) big = [big, big];
    refusedWith(() => torch.tensor(big as never), /^tensor: out of memory/);
    let huge: unknown = [1, 1];
    for (let i = 0; i < 60; i++) huge = [huge, huge];
    refusedWith(() => torch.tensor(huge as never), /^numel: integer multiplication overflow/);
  });

  it('ragged data says which dim and which lengths (PyTorch ValueError wording)', () => {
    // torch.tensor([[1, 2], [1, 2, 3]]) -> ValueError: expected sequence of length 2 at dim 1 (got 3)
    refusedWith(() => torch.tensor([[1, 2], [1, 2, 3]]), 'tensor(): expected sequence of length 2 at dim 1 (got 3)', torch.ShapeError);
    refusedWith(() => torch.tensor([[1, 2], 3] as never), 'tensor(): expected sequence of length 2 at dim 1 (got a number)', torch.ShapeError);
    refusedWith(() => torch.tensor([1, [2, 3]] as never), 'tensor(): expected a number at dim 1 (got a sequence)', torch.ShapeError);
    refusedWith(() => torch.tensor([1, null] as never), 'tensor(): could not infer dtype of null');
    refusedWith(() => torch.tensor([1, 'a'] as never), 'tensor(): could not infer dtype of string');
  });
});
