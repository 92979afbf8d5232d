import { describe, it, expect, vi } from 'vitest';

/**
 * `pnpm demo` runs packages/torch/scripts/demo.ts. Importing it runs its top level; the
 * expected strings are what PyTorch prints for the same statements.
 */
describe('scripts/demo.ts', () => {
  it('prints its tour without throwing', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    });
    try {
      await import('../scripts/demo');
    } finally {
      spy.mockRestore();
    }
    const out = lines.join('\n');
    expect(lines.length).toBeGreaterThanOrEqual(8);
    // x = torch.arange(12, dtype=torch.float32).view(3, 4)
    expect(out).toContain('x = tensor([[ 0.,  1.,  2.,  3.],\n        [ 4.,  5.,  6.,  7.],\n        [ 8.,  9., 10., 11.]])');
    expect(out).toContain('x.t() is a view with strides [1,4] and offset 0');
    // x[:, 1::2]
    expect(out).toContain('x.index(":", "1::2") = tensor([[ 1.,  3.],\n        [ 5.,  7.],\n        [ 9., 11.]])');
    // x @ torch.full([4, 2], 0.5)
    expect(out).toContain('x @ w = tensor([[ 3.,  3.],\n        [11., 11.],\n        [19., 19.]])');
    // x.exp().sum(1, keepdim=True)
    expect(out).toContain('tensor([[3.1193e+01],\n        [1.7031e+03],\n        [9.2985e+04]])');
    // x.max(1)
    expect(out).toContain('max over dim 1: tensor([ 3.,  7., 11.]) tensor([3, 3, 3])');
    // torch.tensor([1, 2, 3]).add(0.5)
    expect(out).toContain('int + float scalar promotes: tensor([1.5000, 2.5000, 3.5000])');
    expect(out).toMatch(/memory: \{.*"device":"cpu".*"liveTensors":\d+/);
  });
});
