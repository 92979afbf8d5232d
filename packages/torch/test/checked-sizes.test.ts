import { TorchError } from '@torch-ts/core';
import { describe, expect, it } from 'vitest';
import * as torch from '../src/index';

// Issue 14: sizes whose product overflows are refused as PyTorch refuses an int64 overflow,
// and a request the engine cannot hold is a TorchError, never a raw RangeError.
describe('checked sizes', () => {
  it('refuses views and factories whose numel overflows, leaking nothing', () => {
    const before = torch.memory.stats('cpu');
    const one = torch.ones([1]);
    expect(() => one.expand([2 ** 31, 2 ** 31, 2 ** 31])).toThrow(/numel: integer multiplication overflow \(sizes \[2147483648, 2147483648, 2147483648\]\)/);
    expect(() => one.asStrided([2 ** 31, 2 ** 31, 2 ** 31], [0, 0, 0])).toThrow(TorchError);
    expect(() => torch.zeros([2 ** 40, 2 ** 40])).toThrow(/numel: integer multiplication overflow/);
    one.dispose();
    const after = torch.memory.stats('cpu');
    expect(after.liveTensors).toBe(before.liveTensors);
    expect(after.liveBytes).toBe(before.liveBytes);
  });

  it('a random factory too large for the host is an out-of-memory TorchError', () => {
    expect(() => torch.randn([1e6, 1e6])).toThrow(TorchError);
    expect(() => torch.rand([1e6, 1e6])).toThrow(/out of memory/);
    // just below the limit of an exact numel the view is fine (stride 0: no memory)
    const v = torch.ones([1]).expand([2 ** 26, 2 ** 26]);
    expect(v.numel()).toBe(2 ** 52);
    v.dispose();
  });
});
