/**
 * bincount, histc and histogram beyond their OpInfo goldens (core Note [bincount, histc and
 * histogram are composites]): NaN elements are skipped as PyTorch 2.x skips them (1.13's kernel
 * counts a NaN in some bin, which its goldens cannot show), and no result has a gradient.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '../src';

const NAN = Number.NaN;

describe('bin counts', () => {
  it('skip NaN elements, as PyTorch 2.x: the counts of the other elements', () => {
    for (const dtype of ['float32', 'float64'] as const) {
      const x = torch.tensor([0.5, NAN, 1.5, -0.5, 2, NAN], { dtype });
      const clean = torch.tensor([0.5, 1.5, -0.5, 2], { dtype });
      expect(torch.histc(x, 4, -1, 2).tolist()).toEqual(torch.histc(clean, 4, -1, 2).tolist());
      expect(torch.histc(clean, 4, -1, 2).tolist()).toEqual([1, 0, 1, 2]);
      expect(torch.histogram(x, 4, { range: [-1, 2] }).hist.tolist()).toEqual([1, 0, 1, 2]);
      const edges = torch.tensor([-1, 0, 1, 3], { dtype });
      expect(torch.histogram(x, edges).hist.tolist()).toEqual([1, 1, 2]);
      const w = torch.tensor([1, 10, 2, 3, 4, 20], { dtype });
      expect(torch.histogram(x, 4, { range: [-1, 2], weight: w }).hist.tolist()).toEqual([3, 0, 1, 6]);
    }
  });

  it('refuse a range taken from data with NaN as not finite (histc, histogram)', () => {
    const x = torch.tensor([0.5, NAN, 1.5]);
    expect(() => torch.histc(x, 3)).toThrow(/torch\.histc: range of \[nan, nan\] is not finite/);
    expect(() => torch.histogram(x, 3)).toThrow(/torch\.histogramdd: dimension 0's range \[nan, nan\] is not finite/);
  });

  it('have no gradient, whatever requires one', () => {
    const x = torch.tensor([0.5, 1.5, 2.5], { requiresGrad: true });
    const w = torch.tensor([1, 2, 3], { dtype: 'float32', requiresGrad: true });
    expect(torch.histc(x, 3).requiresGrad).toBe(false);
    const h = torch.histogram(x, 3, { weight: w });
    expect([h.hist.requiresGrad, h.binEdges.requiresGrad]).toEqual([false, false]);
    expect(torch.histogram(x, torch.tensor([0, 1, 3], { dtype: 'float32', requiresGrad: true })).hist.requiresGrad).toBe(false);
    expect(torch.bincount(torch.tensor([0, 2, 2]), w).requiresGrad).toBe(false);
  });

  it('name their results as PyTorch (hist, bin_edges) and index them', () => {
    const h = torch.histogram(torch.tensor([1, 2, 1, 4, 2.5]), 3);
    const [hist, edges] = h;
    expect(hist).toBe(h.hist);
    expect(edges).toBe(h.binEdges);
    expect(Object.keys(h)).toEqual(['0', '1']);
    expect(edges.tolist()).toEqual([1, 2, 3, 4]);
  });
});
