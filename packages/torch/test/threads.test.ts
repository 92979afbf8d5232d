import { describe, expect, it } from 'vitest';
import * as torch from '../src/index';

describe('torch.setNumThreads / getNumThreads / backends.cpu', () => {
  it('reports the CPU kernels\' build and a positive thread count; refuses a bad count with a TorchError', () => {
    expect(['WASM_RELAXED_SIMD', 'WASM_SIMD', 'DEFAULT']).toContain(torch.backends.cpu.getCpuCapability());
    expect(torch.getNumThreads()).toBeGreaterThanOrEqual(1);
    expect(() => torch.setNumThreads(0)).toThrow(/setNumThreads: expected a positive integer number of threads, got 0/);
  });

  it('a linear layer\'s forward and backward give the same numbers on 1 and 2 threads', () => {
    const run = (threads: number) => {
      torch.setNumThreads(threads);
      torch.manualSeed(3);
      const x = torch.randn([96, 300]);
      const w = torch.randn([200, 300], { requiresGrad: true });
      const y = torch.nn.functional.linear(x, w).tanh().sum();
      y.backward();
      return { y: y.item(), g: w.grad!.tolist() };
    };
    const one = run(1);
    const two = run(2);
    expect(two).toEqual(one);
    torch.setNumThreads(torch.getNumThreads());
  });
});
