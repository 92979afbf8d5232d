/**
 * Note [Device-side errors], Note [Poisoned storages]: a kernel reports a data-dependent
 * error on the device; the read of a tensor the failing launch wrote, or of anything
 * computed from it, raises it as the TorchError CPU raises, at every read; reads of other
 * tensors do not; synchronize() raises an error that no read raised, once.
 */
import { describe, expect, it } from 'vitest';
import { IndexError, Tensor, TensorImpl, TorchError, gather, indexSelect, liveCounts, nonzeroAsync } from '@torch-ts/core';
import { memoryStats, synchronize } from '../src';
import { commandQueue } from '../src/runtime/queue';
import { deviceErrorBinding, deviceErrorCode, deviceErrorCounters, deviceErrorWgsl } from '../src/runtime/device-errors';
import { gpuTensor, readValues, webgpuReady, WEBGPU } from './helpers';

/** A kernel that reports error `code` with payload (7, 8, 9, 10) when its uniform word says so. */
function reportKernel(code: number, when: boolean): void {
  const q = commandQueue('test');
  const src = `${deviceErrorWgsl(0)}
struct Params { w: vec4<u32> };
@group(0) @binding(1) var<uniform> P: Params;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (P.w.x == 1u && gid.x == 5u) { report_error(P.w.y, 7u, 8u, 9u, 10u); }
}`;
  q.dispatch(src, [deviceErrorBinding(q)], new Uint32Array([when ? 1 : 0, code, 0, 0]), [1, 1, 1]);
}

/** The message of the error `p` rejects with (fails the test if it resolves). */
async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the read to raise');
}

const INDEX_7 = 'index_select: index 7 is out of bounds for dimension 0 with size 3';

describe.skipIf(!webgpuReady)('device-side errors', () => {
  it('surface at synchronize() with the payload, once', async () => {
    const code = deviceErrorCode('test:payload', (p) => new TorchError(`test: payload ${Array.from(p).join(',')}`));
    reportKernel(code, true);
    await expect(synchronize()).rejects.toThrow('test: payload 7,8,9,10');
    // raised once: the next sync is clean, and a kernel that does not report leaves it clean
    await synchronize();
    reportKernel(code, false);
    await synchronize();
  });

  it('synchronize() raises the first of several launches', async () => {
    const a = deviceErrorCode('test:first', () => new TorchError('test: first'));
    const b = deviceErrorCode('test:second', () => new TorchError('test: second'));
    reportKernel(a, true);
    reportKernel(b, true);
    await expect(synchronize()).rejects.toThrow('test: first');
    await synchronize();
  });

  it("issue 14's scenario: the index error is y's, every time, and z reads fine", async () => {
    const x = gpuTensor([1, 2, 3], 'float32');
    const idx = gpuTensor([0, 7], 'int64');
    const y = x.indexSelect(0, idx); // no throw: the index is checked on the device
    const z = x.add(1);
    expect(await readValues(z)).toEqual([2, 3, 4]);
    expect(Array.from((await z.data()) as Float32Array)).toEqual([2, 3, 4]);
    for (let i = 0; i < 3; i++) {
      const e = await rejection(y.data());
      expect(e).toBeInstanceOf(IndexError);
      expect(e.message).toBe(INDEX_7);
    }
    await expect(readValues(y)).rejects.toThrow(INDEX_7); // toHost too
    expect(await readValues(z)).toEqual([2, 3, 4]);
    expect(await readValues(x)).toEqual([1, 2, 3]);
    // a read raised it: synchronize() does not raise it again
    await synchronize();
    for (const t of [x, idx, y, z]) t.dispose();
  });

  it('two failing results each raise their own error', async () => {
    const x = gpuTensor([1, 2, 3, 4, 5, 6], 'float32', [2, 3]);
    const y1 = indexSelect(x.flatten(), 0, gpuTensor([9], 'int64'));
    const y2 = gather(x, 1, gpuTensor([0, 3], 'int64', [1, 2]));
    const ok = x.mul(2);
    // read in the opposite order of the launches: each keeps its own error
    await expect(readValues(y2)).rejects.toThrow('gather: index 3 is out of bounds for dimension 1 with size 3');
    await expect(readValues(y1)).rejects.toThrow('index_select: index 9 is out of bounds for dimension 0 with size 6');
    await expect(readValues(y2)).rejects.toThrow('gather: index 3 is out of bounds for dimension 1 with size 3');
    expect(await readValues(ok)).toEqual([2, 4, 6, 8, 10, 12]);
  });

  it('raise the IndexError CPU raises, with the op, value, dim and size', async () => {
    const x = gpuTensor([1, 2, 3, 4, 5, 6], 'float32', [2, 3]);
    // an int64 index beyond int32 range is out of range (its high word is not a sign extension)
    const z = indexSelect(x.flatten(), 0, gpuTensor([2 ** 33, -(2 ** 33)], 'int64'));
    await expect(readValues(z)).rejects.toThrow('index_select: index 8589934592 is out of bounds for dimension 0 with size 6');
    // a negative index in gather is out of range (no wrap), with its value
    const n = gather(x, 1, gpuTensor([-1, 0], 'int64', [1, 2]));
    await expect(readValues(n)).rejects.toThrow('gather: index -1 is out of bounds for dimension 1 with size 3');
  });

  it('tensors computed from a poisoned one raise its error, views too; others do not', async () => {
    const x = gpuTensor([1, 2, 3], 'float32');
    const y = indexSelect(x, 0, gpuTensor([0, 7], 'int64'));
    const chain = y.mul(2).add(x.narrow(0, 0, 2)).sum(); // a reduction of a pointwise of it
    const view = y.narrow(0, 1, 1);
    const empty = y.narrow(0, 0, 0); // no elements, same storage
    const cat = y.reshape([2, 1]).expand(2, 3).contiguous();
    const mixed = x.add(gpuTensor([1, 1, 1], 'float32')); // not from y
    for (const t of [chain, view, empty, cat]) await expect(readValues(t)).rejects.toThrow(INDEX_7);
    await expect(nonzeroAsync(y)).rejects.toThrow(INDEX_7); // a count read of it
    await expect(y.toAsync('cpu')).rejects.toThrow(INDEX_7);
    expect(await readValues(mixed)).toEqual([2, 3, 4]);
  });

  it('across batches: the error stays with its tensor', async () => {
    const x = gpuTensor([1, 2, 3], 'float32');
    const y = indexSelect(x, 0, gpuTensor([7], 'int64'));
    let w = gpuTensor([4, 5, 6], 'float32');
    for (let i = 0; i < 300; i++) w = w.add(1); // past a batch boundary (MAX_BATCH dispatches)
    let v = y;
    for (let i = 0; i < 300; i++) v = v.add(1);
    expect(await readValues(w)).toEqual([304, 305, 306]);
    await expect(readValues(v)).rejects.toThrow(INDEX_7);
  });

  it('in-place ops keep the poison of their target and give it to what they write', async () => {
    const x = gpuTensor([1, 2, 3], 'float32');
    const y = indexSelect(x, 0, gpuTensor([7, 0, 1], 'int64'));
    y.add_(1);
    y.zero_(); // new values do not undo the error that made the old ones
    await expect(readValues(y)).rejects.toThrow(INDEX_7);
    const target = gpuTensor([10, 20, 30], 'float32');
    target.add_(y); // written from a poisoned tensor
    await expect(readValues(target)).rejects.toThrow(INDEX_7);
    const out = gpuTensor([0, 0, 0], 'float32');
    out.copy_(y.mul(3));
    await expect(readValues(out)).rejects.toThrow(INDEX_7);
    // in-place into a clean tensor from clean ones stays clean
    const clean = gpuTensor([1, 1, 1], 'float32');
    clean.mul_(x);
    expect(await readValues(clean)).toEqual([1, 2, 3]);
  });

  it('a failing launch inside a longer op poisons its result (masked_scatter_: too few source elements)', async () => {
    const self = gpuTensor([0, 0, 0, 0], 'float32');
    const mask = gpuTensor([1, 1, 1, 0], 'bool');
    const source = gpuTensor([5, 6], 'float32');
    self.maskedScatter_(mask, source);
    const e = await rejection(readValues(self));
    expect(e).toBeInstanceOf(TorchError);
    expect(e.message).toMatch(/masked_scatter/);
    expect(await readValues(source)).toEqual([5, 6]);
  });

  it('an empty read of a clean tensor raises nothing after a failed launch', async () => {
    const x = gpuTensor([1, 2, 3], 'float32');
    const y = indexSelect(x, 0, gpuTensor([7], 'int64'));
    const empty = new Tensor(TensorImpl.empty('t', [0], 'float32', WEBGPU));
    expect(await readValues(empty)).toEqual([]);
    await expect(readValues(y)).rejects.toThrow(INDEX_7);
  });

  it('leaves nothing behind: memory, tensors and launches are all settled and freed', async () => {
    await synchronize().catch(() => {});
    const stats0 = memoryStats().allocatedBytes;
    const live0 = liveCounts('webgpu').tensors;
    const x = gpuTensor([1, 2, 3], 'float32');
    const bad = gpuTensor([7], 'int64');
    for (let i = 0; i < 50; i++) {
      const y = indexSelect(x, 0, bad);
      const z = y.add(i);
      await expect(readValues(z)).rejects.toThrow(INDEX_7);
      y.dispose();
      z.dispose();
    }
    x.dispose();
    bad.dispose();
    await synchronize(); // every read raised its error: nothing left to raise
    const c = deviceErrorCounters();
    expect(c.settled).toBe(c.launches);
    // (at most: the safety net may reclaim earlier tests' garbage meanwhile)
    expect(liveCounts('webgpu').tensors).toBeLessThanOrEqual(live0);
    expect(memoryStats().allocatedBytes).toBeLessThanOrEqual(stats0);
  });
});
