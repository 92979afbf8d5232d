/**
 * Note [Device-side errors]: a kernel reports a data-dependent error on the device; it
 * surfaces at the next sync point (a read, synchronize()) as the TorchError CPU raises,
 * once, and the record is cleared for the next one.
 */
import { describe, expect, it } from 'vitest';
import { IndexError, Tensor, TensorImpl, TorchError, gather, indexSelect } from '@torch-ts/core';
import { synchronize } from '../src';
import { commandQueue } from '../src/runtime/queue';
import { deviceErrorBinding, deviceErrorCode, deviceErrorWgsl } from '../src/runtime/device-errors';
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

describe.skipIf(!webgpuReady)('device-side errors', { timeout: 60_000 }, () => {
  it('surface at synchronize() with the payload, once', async () => {
    const code = deviceErrorCode('test:payload', (p) => new TorchError(`test: payload ${Array.from(p).join(',')}`));
    reportKernel(code, true);
    await expect(synchronize()).rejects.toThrow('test: payload 7,8,9,10');
    // cleared: the next sync is clean, and a kernel that does not report leaves it clean
    await synchronize();
    reportKernel(code, false);
    await synchronize();
  });

  it('keep the first error of several', async () => {
    const a = deviceErrorCode('test:first', () => new TorchError('test: first'));
    const b = deviceErrorCode('test:second', () => new TorchError('test: second'));
    reportKernel(a, true);
    reportKernel(b, true);
    await expect(synchronize()).rejects.toThrow('test: first');
    await synchronize();
  });

  it('surface at the next read, even of another tensor, and across batches', async () => {
    const x = gpuTensor([1, 2, 3], 'float32');
    const bad = gpuTensor([0, 5], 'int64');
    const y = indexSelect(x, 0, bad); // no throw: the index is checked on the device
    // more work after it, past a batch boundary (MAX_BATCH dispatches)
    const z = gpuTensor([4, 5, 6], 'float32');
    let w = z;
    for (let i = 0; i < 300; i++) w = w.add(1);
    await expect(readValues(w)).rejects.toThrow(IndexError);
    expect(await readValues(w)).toEqual([304, 305, 306]);
    y.dispose();
  });

  it('raise the IndexError CPU raises, with the op, value, dim and size', async () => {
    const x = gpuTensor([1, 2, 3, 4, 5, 6], 'float32', [2, 3]);
    const idx = gpuTensor([0, 3, 1, 2], 'int64', [2, 2]); // one bad index: which of several is reported is unspecified
    const y = gather(x, 1, idx);
    await expect(readValues(y)).rejects.toThrow('gather: index 3 is out of bounds for dimension 1 with size 3');
    // an int64 index beyond int32 range is out of range (its high word is not a sign extension)
    const z = indexSelect(x.flatten(), 0, gpuTensor([2 ** 33, -(2 ** 33)], 'int64'));
    await expect(readValues(z)).rejects.toThrow('index_select: index 8589934592 is out of bounds for dimension 0 with size 6');
    // a negative index in gather is out of range (no wrap), with its value
    const n = gather(x, 1, gpuTensor([-1, 0], 'int64', [1, 2]));
    await expect(readValues(n)).rejects.toThrow('gather: index -1 is out of bounds for dimension 1 with size 3');
  });

  it('an empty read is a sync point too', async () => {
    const x = gpuTensor([1, 2, 3], 'float32');
    const y = indexSelect(x, 0, gpuTensor([7], 'int64'));
    const empty = new Tensor(TensorImpl.empty('t', [0], 'float32', WEBGPU));
    await expect(readValues(empty)).rejects.toThrow('index_select: index 7 is out of bounds for dimension 0 with size 3');
    y.dispose();
  });
});
