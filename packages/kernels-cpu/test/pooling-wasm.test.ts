import type { Pool2dGeometry } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls } from '../src/index';
import { empty, read, releaseCreated, tensor } from './helpers';

// Max pooling (Note [Max pooling in WebAssembly]; the JS loops where SIMD is off) against a
// plain reference of PyTorch's window rules, NaN and -inf included.

afterEach(releaseCreated);

function geometry(H: number, W: number, k: number, s: number, p: number, d: number): Pool2dGeometry {
  const out = (n: number) => Math.floor((n + 2 * p - d * (k - 1) - 1) / s) + 1;
  return { height: H, width: W, kernelH: k, kernelW: k, strideH: s, strideW: s, padH: p, padW: p, dilationH: d, dilationW: d, outH: out(H), outW: out(W) };
}

function reference(x: number[], P: number, g: Pool2dGeometry): { values: number[]; indices: number[] } {
  const values: number[] = [];
  const indices: number[] = [];
  for (let p = 0; p < P; p++) {
    for (let oh = 0; oh < g.outH; oh++) {
      for (let ow = 0; ow < g.outW; ow++) {
        let best = -Infinity;
        let at = -1;
        for (let i = 0; i < g.kernelH; i++) {
          for (let j = 0; j < g.kernelW; j++) {
            const h = oh * g.strideH - g.padH + i * g.dilationH;
            const w = ow * g.strideW - g.padW + j * g.dilationW;
            if (h < 0 || w < 0 || h >= g.height || w >= g.width) continue;
            if (at < 0) at = h * g.width + w;
            const v = x[p * g.height * g.width + h * g.width + w];
            if (v > best || Number.isNaN(v)) {
              best = v;
              at = h * g.width + w;
            }
          }
        }
        values.push(best);
        indices.push(at);
      }
    }
  }
  return { values, indices };
}

describe('max_pool2d kernels', () => {
  for (const dtype of ['float32', 'float64'] as const) {
    it(`${dtype}: forward values and indices, backward scatter, over window shapes`, () => {
      let seed = 5;
      const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 4 - 2;
      for (const [P, H, W, k, s, p, d] of [[3, 8, 8, 2, 2, 0, 1], [2, 7, 9, 3, 2, 1, 1], [4, 10, 6, 3, 1, 1, 2], [1, 5, 5, 5, 1, 2, 1]]) {
        const g = geometry(H, W, k, s, p, d);
        const x = Array.from({ length: P * H * W }, rand);
        x[3] = NaN;
        x[P * H * W - 2] = -Infinity;
        const self = tensor(dtype, [P, H, W], x);
        const xv = read(self) as number[];
        const out = empty(dtype, [P, g.outH, g.outW]);
        const idx = empty('int64', [P, g.outH, g.outW]);
        cpuImpls.maxPool2d(out, idx, self, g);
        const ref = reference(xv, P, g);
        expect(read(out)).toEqual(ref.values);
        expect((read(idx) as bigint[]).map(Number)).toEqual(ref.indices);
        const go = tensor(dtype, [P, g.outH, g.outW], Array.from({ length: P * g.outH * g.outW }, rand));
        const gov = read(go) as number[];
        const gi = tensor(dtype, [P, H, W], new Array<number>(P * H * W).fill(9)); // dirty: must be zeroed
        cpuImpls.maxPool2dBackward(gi, go, idx, g);
        const want = new Array<number>(P * H * W).fill(0);
        const n = g.outH * g.outW;
        for (let q = 0; q < P * n; q++) {
          const at = Math.floor(q / n) * H * W + ref.indices[q];
          want[at] = dtype === 'float32' ? Math.fround(want[at] + gov[q]) : want[at] + gov[q];
        }
        expect(read(gi)).toEqual(want);
      }
    });
  }
});
