/**
 * The composite losses on WebGPU (float32): a few representative losses, forward and input
 * gradients, against the same computation on the CPU (the oracle: nn-losses.test.ts checks
 * the CPU against PyTorch's goldens for every option). The composites need no WGSL of their
 * own, so this checks that every op they are made of runs on the device.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

const F = torch.nn.functional;

type Loss = (...xs: Tensor[]) => Tensor;

/** The loss and the gradients of its first `nGrad` inputs, on `device`, as host arrays. */
async function run(fn: Loss, inputs: Tensor[], nGrad: number, device: 'cpu' | 'webgpu'): Promise<number[][]> {
  const xs = inputs.map((x, i) => {
    const d = x.to(device);
    return i < nGrad ? d.detach().requiresGrad_() : d;
  });
  const out = fn(...xs);
  const gs = torch.autograd.grad([out.sum()], xs.slice(0, nGrad));
  const res: number[][] = [];
  for (const t of [out, ...gs.map((g) => g!)]) {
    if (device === 'webgpu') expect(String(t.device)).toBe('webgpu:0');
    res.push(Array.from((await t.data()) as Float32Array, Number));
  }
  return res;
}

const ready = await torch.webgpu.init();
if (ready) {
  describe('losses on webgpu equal the CPU (float32)', () => {
    torch.manualSeed(7);
    const r = (...s: number[]) => torch.randn(s);
    const sign = torch.tensor([1, -1, -1, 1]);
    const cases: [string, Loss, Tensor[], number][] = [
      ['huber_loss', (x, t) => F.huberLoss(x, t, { delta: 0.5, reduction: 'none' }), [r(4, 3), r(4, 3)], 2],
      ['kl_div batchmean', (x, t) => F.klDiv(x.logSoftmax(1), t.softmax(1), { reduction: 'batchmean' }), [r(4, 3), r(4, 3)], 2],
      ['cosine_embedding_loss', (a, b, t) => F.cosineEmbeddingLoss(a, b, t, { margin: 0.2 }), [r(4, 5), r(4, 5), sign], 2],
      ['triplet_margin_loss swap', (a, p, n) => F.tripletMarginLoss(a, p, n, { swap: true, reduction: 'sum' }), [r(4, 5), r(4, 5), r(4, 5)], 3],
      ['gaussian_nll_loss', (x, t, v) => F.gaussianNllLoss(x, t, v.abs(), { full: true }), [r(4, 3), r(4, 3), r(4, 3)], 3],
      [
        'ctc_loss',
        (lp) => F.ctcLoss(lp.logSoftmax(2), torch.tensor([[1, 2, 2], [3, 0, 0]]).to(lp.device), [6, 4], [3, 1], { reduction: 'none' }),
        [r(6, 2, 4)],
        1,
      ],
    ];
    it(`${cases.length} losses: values and input gradients`, async () => {
      for (const [name, fn, inputs, nGrad] of cases) {
        const want = await run(fn, inputs, nGrad, 'cpu');
        const got = await run(fn, inputs, nGrad, 'webgpu');
        got.forEach((vs, k) =>
          vs.forEach((x, j) => {
            const w = want[k][j];
            if (!(Math.abs(x - w) <= 1e-5 + 1e-5 * Math.abs(w))) expect.fail(`${name} ${k === 0 ? 'output' : `grad ${k - 1}`}[${j}]: ${x} vs CPU ${w}`);
          }),
        );
      }
    });
  });
} else {
  console.warn('[nn-losses-webgpu] SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');
  it('has no WebGPU adapter here, the one reason this suite may not run', () => {
    expect(torch.webgpu.unavailableReason()).toBe('no WebGPU adapter was found');
  });
}
