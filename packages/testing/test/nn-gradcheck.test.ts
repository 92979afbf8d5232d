/**
 * gradcheck / gradgradcheck of the NN ops where the table-driven samples cannot reach
 * (Note [OpInfo gradcheck]): class targets other than 0, constant class weights (PyTorch
 * has no derivative for nll_loss's weight), batch norm with constant running stats, and
 * embedding with real indices and a padding row.
 */
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { describe, expect, it } from 'vitest';

const { gradcheck, gradgradcheck } = torch.autograd;
// gradgradcheck of a loss is many backward passes: generous limits on a shared machine
const F = torch.nn.functional;
const f64 = { dtype: 'float64' as const };

function leaf(shape: number[], seed: number, scale = 1): Tensor {
  const g = new torch.Generator().manualSeed(seed);
  return torch.mul(torch.randn(shape, { ...f64, generator: g }), scale).detach().requiresGrad_(true);
}

const both = async (fn: (...t: Tensor[]) => Tensor, inputs: Tensor[]) => {
  expect(await gradcheck(fn, inputs)).toBe(true);
  expect(await gradgradcheck(fn, inputs)).toBe(true);
};

describe('NN gradcheck with real targets', () => {
  const target = torch.tensor([2, 0, 3, -100, 1]);
  const weight = torch.tensor([0.5, 1, 2, 1.5], f64);

  it('nllLoss: mean / sum / none, weights, ignore_index', async () => {
    for (const reduction of ['mean', 'sum', 'none'] as const) {
      await both((x) => F.nllLoss(x, target, { weight, reduction }), [leaf([5, 4], 1)]);
    }
  });

  it('nllLoss over K dims (NllLoss2DBackward0)', async () => {
    const t = torch.tensor([[0, 2, 1], [1, 1, 0]]);
    await both((x) => F.nllLoss(x, t, { weight: torch.tensor([1, 2, 3], f64) }), [leaf([2, 3, 3], 2)]);
  });

  it('crossEntropy: weights, ignore_index, label smoothing, reductions', async () => {
    for (const reduction of ['mean', 'sum', 'none'] as const) {
      await both((x) => F.crossEntropy(x, target, { weight, reduction, labelSmoothing: 0.15 }), [leaf([5, 4], 3)]);
    }
    await both((x) => F.crossEntropy(x, target), [leaf([5, 4], 4)]);
  });

  it('crossEntropy with class probabilities differentiates input and target', async () => {
    await both((x, p) => F.crossEntropy(x, p, { labelSmoothing: 0.1 }), [leaf([3, 4], 5), leaf([3, 4], 6, 0.3)]);
  });
});

describe('NN gradcheck: batch norm with constant running stats', () => {
  it('training: input, weight and bias (NativeBatchNormBackward0), double backward', async () => {
    await both(
      (x, w, b) => F.batchNorm(x, torch.zeros([3], f64), torch.ones([3], f64), { weight: w, bias: b, training: true }),
      [leaf([4, 3, 2], 7), leaf([3], 8), leaf([3], 9)],
    );
    await both((x) => F.batchNorm(x, null, null, { training: true }), [leaf([5, 2], 10)]);
  });

  it('eval: normalised by the running stats', async () => {
    const rm = torch.tensor([0.5, -1, 2], f64);
    const rv = torch.tensor([1.5, 0.5, 2], f64);
    await both((x, w, b) => F.batchNorm(x, rm, rv, { weight: w, bias: b }), [leaf([4, 3], 11), leaf([3], 12), leaf([3], 13)]);
  });
});

describe('NN gradcheck: embedding and linear', () => {
  // (a looked-up padding row gets no gradient although the output depends on it, as in
  // PyTorch, so the numerical and analytical Jacobians differ there by design: see
  // packages/torch/test/nn-functional.test.ts for the padding row)
  it('embedding with repeated real indices', async () => {
    const idx = torch.tensor([[0, 3, 3], [2, 0, 3]]);
    await both((w) => F.embedding(idx, w, { paddingIdx: 1 }), [leaf([4, 3], 14)]);
  });

  it('linear with and without bias, 1-D and batched input', async () => {
    await both((x, w, b) => F.linear(x, w, b), [leaf([2, 3, 4], 15), leaf([5, 4], 16), leaf([5], 17)]);
    await both((x, w) => F.linear(x, w), [leaf([4], 18), leaf([5, 4], 19)]);
  });

  it('layerNorm and groupNorm with affine parameters', async () => {
    await both((x, w, b) => F.layerNorm(x, [2, 3], { weight: w, bias: b }), [leaf([2, 2, 3], 20), leaf([2, 3], 21), leaf([2, 3], 22)]);
    await both((x, w, b) => F.groupNorm(x, 2, { weight: w, bias: b }), [leaf([2, 4, 3], 23), leaf([4], 24), leaf([4], 25)]);
  });
});
