import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ShapeError,
  TensorIterator,
  broadcastShapes,
  broadcastStrides,
  computeOutputLayout,
  forEachRow,
} from '@torch-ts/core';

interface Geometry {
  sizes: number[];
  strides: number[];
}
interface LayoutCase {
  expr: string;
  shape: number[];
  inputs: Geometry[];
  out: number[];
  /** Binary cases only: the output of `b + a`. */
  out_swapped?: number[];
}
interface Goldens {
  torch_version: string;
  layout: LayoutCase[];
  broadcast_ok: { shapes: number[][]; shape: number[] }[];
  broadcast_err: { shapes: number[][]; message: string }[];
}

const goldens = JSON.parse(
  readFileSync(new URL('../goldens/iterator.json', import.meta.url), 'utf8'),
) as Goldens;

describe(`iterator goldens (torch ${goldens.torch_version})`, () => {
  it('has the cases it promises', () => {
    expect(goldens.layout.length).toBeGreaterThanOrEqual(40);
    expect(goldens.broadcast_err.length).toBeGreaterThan(0);
  });

  describe('computeOutputLayout', () => {
    it.each(goldens.layout.map((c) => [c.expr, c] as const))('%s', (_expr, c) => {
      expect(computeOutputLayout(c.shape, c.inputs)).toEqual(c.out);
      if (c.out_swapped) {
        expect(computeOutputLayout(c.shape, [...c.inputs].reverse())).toEqual(c.out_swapped);
      }
      // The output PyTorch allocates is dense: iterating it writes each element once.
      const full = c.inputs.map((g) => broadcastStrides(g.sizes, g.strides, c.shape));
      const iter = new TensorIterator(c.shape, [c.out, ...full], { numOutputs: 1 });
      const seen = new Set<number>();
      forEachRow(iter, [0, ...full.map(() => 0)], (n, base, inner) => {
        for (let i = 0; i < n; i++) seen.add(base[0] + i * inner[0]);
      });
      expect(seen.size).toBe(iter.numel);
    });
  });

  describe('broadcastShapes', () => {
    it.each(goldens.broadcast_ok.map((c) => [JSON.stringify(c.shapes), c] as const))('%s', (_name, c) => {
      expect(broadcastShapes('broadcast_shapes', ...c.shapes)).toEqual(c.shape);
    });

    it.each(goldens.broadcast_err.map((c) => [JSON.stringify(c.shapes), c] as const))('%s fails', (_name, c) => {
      let error: unknown;
      try {
        broadcastShapes('broadcast_tensors', ...c.shapes);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ShapeError);
      expect((error as Error).message.startsWith(`broadcast_tensors: ${c.message} (shapes `)).toBe(true);
    });
  });
});
