/**
 * `data()`, `tolistAsync()` and `itemAsync()` on WebGPU tensors through core's reader: the
 * one-copy path of contiguous tensors (`readValues`: elements sliced out of the mapped
 * staging range, at byte offsets that are not 4-aligned for 1- and 2-byte dtypes) and the
 * device-side gather of strided views (Note [Reading a strided WebGPU tensor]) must give the
 * same values, in a new array the caller owns.
 */
import { describe, expect, it } from 'vitest';
import { TorchError, f64ToF16Bits, narrow, type DType } from '@torch-ts/core';
import { memoryStats } from '../src';
import { gpuTensor, webgpuReady } from './helpers';

const seq = (n: number, f: (i: number) => number): number[] => Array.from({ length: n }, (_, i) => f(i));

const cases: { dtype: DType; values: number[]; Array: new (n: number) => ArrayLike<number> }[] = [
  { dtype: 'float32', values: seq(11, (i) => i * 1.5 - 4), Array: Float32Array },
  { dtype: 'int32', values: seq(11, (i) => (i - 5) * 100_000), Array: Int32Array },
  { dtype: 'uint8', values: seq(11, (i) => (i * 37) % 256), Array: Uint8Array },
  { dtype: 'bool', values: seq(11, (i) => (i % 3 === 0 ? 1 : 0)), Array: Uint8Array },
  { dtype: 'float16', values: seq(11, (i) => i * 0.25 - 1), Array: Float32Array },
  { dtype: 'int64', values: seq(11, (i) => (i - 5) * 3_000_000_000), Array: Float64Array },
];

describe.skipIf(!webgpuReady)('WebGPU data reads', () => {
  for (const { dtype, values, Array: ArrayType } of cases) {
    it(`${dtype}: whole tensors, contiguous views at every offset, strided views`, async () => {
      const t = gpuTensor(dtype === 'float16' ? values.map(f64ToF16Bits) : values, dtype); // the helper writes storage words
      const all = await t.data();
      expect(all).toBeInstanceOf(ArrayType);
      expect(Array.from(all as ArrayLike<number>)).toEqual(values);
      for (let start = 0; start < 4; start++) {
        const v = narrow(t, 0, start, 7); // contiguous, storage offset `start` elements
        expect(v.isContiguous()).toBe(true);
        expect(Array.from((await v.data()) as ArrayLike<number>)).toEqual(values.slice(start, start + 7));
      }
      const strided = t.narrow(0, 1, 10).view(5, 2).t(); // [2, 5], not contiguous
      expect(strided.isContiguous()).toBe(false);
      const expected = [0, 1].map((j) => seq(5, (i) => values[1 + i * 2 + j]));
      expect(await strided.tolistAsync()).toEqual(dtype === 'bool' ? expected.map((r) => r.map((x) => x !== 0)) : expected);
      expect(Array.from((await strided.data()) as ArrayLike<number>)).toEqual(expected.flat());
    });
  }

  it('gathers transposed, column and broadcast views on the device, and frees the gather', async () => {
    const [r, c] = [37, 53];
    const values = seq(r * c, (i) => (i * 7919) % 1000);
    const t = gpuTensor(values, 'float32', [r, c]);
    const before = memoryStats().allocatedBytes;
    const tt = t.t();
    expect(Array.from((await tt.data()) as Float32Array)).toEqual(seq(r * c, (k) => values[(k % r) * c + Math.floor(k / r)]));
    const col = t.narrow(1, 5, 1); // one column: 37 elements spread over the whole storage
    expect(Array.from((await col.data()) as Float32Array)).toEqual(seq(r, (i) => values[i * c + 5]));
    const row = t.narrow(0, 3, 1).expand(4, c); // stride 0 in dim 0
    expect(Array.from((await row.data()) as Float32Array)).toEqual([0, 1, 2, 3].flatMap(() => values.slice(3 * c, 4 * c)));
    expect(memoryStats().allocatedBytes).toBe(before);
  });

  it('hands out a new array on every read, not a view of shared memory', async () => {
    const t = gpuTensor([1, 2, 3, 4, 5], 'float32');
    const a = (await t.data()) as Float32Array;
    a[0] = 99;
    const b = (await t.data()) as Float32Array;
    expect(Array.from(b)).toEqual([1, 2, 3, 4, 5]);
    expect(b.buffer).not.toBe(a.buffer);
    expect(b.byteOffset).toBe(0);
    expect(b.buffer.byteLength).toBe(5 * 4); // exactly the elements, not the staging buffer's size
  });

  it('reads int64 as numbers or BigInts, and empty tensors', async () => {
    const t = gpuTensor([2 ** 40, -(2 ** 40), 7], 'int64');
    expect(Array.from((await t.data()) as Float64Array)).toEqual([2 ** 40, -(2 ** 40), 7]);
    expect(Array.from((await t.data({ bigint: true })) as BigInt64Array)).toEqual([2n ** 40n, -(2n ** 40n), 7n]);
    expect(await narrow(t, 0, 2, 1).itemAsync()).toBe(7);
    const empty = narrow(t, 0, 1, 0);
    const e = await empty.data();
    expect(e).toBeInstanceOf(Float64Array);
    expect(e.length).toBe(0);
  });

  it('itemAsync of a tensor with several elements is a TorchError before any read', async () => {
    const t = gpuTensor([1, 2], 'float32');
    await expect(t.itemAsync()).rejects.toThrow(TorchError);
    await expect(t.itemAsync()).rejects.toThrow('item: a Tensor with 2 elements cannot be converted to Scalar');
  });
});
