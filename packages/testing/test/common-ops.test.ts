/**
 * What of the common ops the OpInfo table cannot say (its entries: src/op-info/linalg-misc.ts),
 * against PyTorch's goldens (goldens/ops_common.json):
 *  - tril_indices and triu_indices, factories without a tensor input ("indices"), on the CPU
 *    and on WebGPU where an adapter is found (the positions are made on the host, uploaded);
 *  - cdist's gradient where a distance is exactly 0, on both paths ("cdist_grads");
 *  - the variadic forms `blockDiag(a, b)` and `cartesianProd(a, b)` (Python's `*tensors`),
 *    equal to the list forms the table calls.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { decodeValues, type GoldenError, type GoldenTensor } from '../src/goldens';
import { errorClassFor } from '../src/op-forms';

interface IndicesCase {
  op: 'tril_indices' | 'triu_indices';
  args: [number, number, number];
  kwargs: { dtype?: torch.DType };
  expected?: GoldenTensor;
  error?: GoldenError;
}

interface CdistGrad {
  x1: number[][];
  x2: number[][];
  p: number;
  computeMode: 'use_mm_for_euclid_dist_if_necessary' | 'use_mm_for_euclid_dist';
  dist: number[][];
  grads: [number[][], number[][]];
}

const goldens = JSON.parse(readFileSync(new URL('../goldens/ops_common.json', import.meta.url), 'utf8')) as { indices: IndicesCase[]; cdist_grads: CdistGrad[] };
const FNS = { tril_indices: torch.trilIndices, triu_indices: torch.triuIndices };
const devices: torch.DeviceLike[] = ['cpu', ...((await torch.webgpu.init()) ? (['webgpu'] as const) : [])];

for (const device of devices) {
  describe(`tril_indices / triu_indices on ${device}`, () => {
    for (const c of goldens.indices) {
      it(`${c.op}(${c.args.join(', ')}${c.kwargs.dtype ? `, dtype=${c.kwargs.dtype}` : ''})`, async () => {
        const call = () => FNS[c.op](...c.args, { ...c.kwargs, device });
        if (c.error) {
          expect(call).toThrow(errorClassFor(c.error));
          expect(call).toThrow(new RegExp(`^${c.op}: `));
          return;
        }
        const t = call();
        try {
          const want = c.expected!;
          expect(t.dtype).toBe(want.dtype);
          expect(t.shape).toEqual(want.shape);
          expect(t.device.type).toBe(device);
          const got = await t.data();
          const wanted = decodeValues(want);
          expect(Array.from(got as ArrayLike<number | bigint>, (v) => BigInt(v))).toEqual(Array.from(wanted as ArrayLike<number | bigint>, (v) => BigInt(v)));
        } finally {
          t.dispose();
        }
      });
    }
  });
}

const close = (got: number[][], want: number[][]) => {
  got.flat().forEach((v, i) => expect(v).toBeCloseTo(want.flat()[i], 12));
};

describe('cdist: the gradient at a distance of 0 (float64), as PyTorch', () => {
  for (const c of goldens.cdist_grads) {
    it(`p=${c.p}, ${c.computeMode}`, () => {
      torch.tidy(() => {
        const a = torch.tensor(c.x1, { dtype: 'float64', requiresGrad: true });
        const b = torch.tensor(c.x2, { dtype: 'float64', requiresGrad: true });
        const d = torch.cdist(a, b, { p: c.p, computeMode: c.computeMode });
        close(d.tolist() as number[][], c.dist);
        d.sum().backward();
        close(a.grad!.tolist() as number[][], c.grads[0]);
        close(b.grad!.tolist() as number[][], c.grads[1]);
      });
    });
  }
});

describe('blockDiag and cartesianProd take their tensors variadically, as Python does', () => {
  it('blockDiag(a, b, c) is blockDiag([a, b, c]); blockDiag() is a [1, 0] matrix', () => {
    torch.tidy(() => {
      const parts = [torch.tensor([[1, 2]]), torch.tensor(3), torch.tensor([4, 5])];
      expect(torch.blockDiag(...parts).tolist()).toEqual(torch.blockDiag(parts).tolist());
      expect(torch.blockDiag(parts[0]).tolist()).toEqual([[1, 2]]);
      const none = torch.blockDiag();
      expect([none.shape, none.dtype]).toEqual([[1, 0], 'float32']);
    });
  });
  it('cartesianProd(a, b) is cartesianProd([a, b]); a single vector is returned as it is', () => {
    torch.tidy(() => {
      const a = torch.tensor([1, 2]);
      const b = torch.tensor([3, 4, 5]);
      expect(torch.cartesianProd(a, b).tolist()).toEqual(torch.cartesianProd([a, b]).tolist());
      expect(torch.cartesianProd(a, b).tolist()).toEqual([[1, 3], [1, 4], [1, 5], [2, 3], [2, 4], [2, 5]]);
      expect(torch.cartesianProd(a).tolist()).toEqual([1, 2]);
    });
  });
});
