/**
 * Real models as the test (issue 18): a ResNet-style CNN (stem conv-BN-ReLU, a BasicBlock
 * with an identity shortcut and one with a strided 1x1 conv-BN shortcut, adaptive average
 * pooling, Linear) from PyTorch 1.13's initial weights (scripts/goldens/models.py ->
 * fixtures/models/resnet.pt), on the CPU in float32 and float64: three SGD steps (momentum,
 * Nesterov, weight decay) in train mode with the loss of each, the weights and every
 * BatchNorm's running mean, running variance and num_batches_tracked after them, then
 * eval-mode logits (BatchNorm from its running statistics) on other images.
 */
import { describe, expect, it } from 'vitest';
import { loadFixture, section } from './fixtures/models/models';
import { expectCloseTo, expectStateClose, runResnet } from './fixtures/models/runs';

const fx = loadFixture('resnet');

describe('ResNet-style CNN with BatchNorm equals PyTorch (CPU)', () => {
  // float32: PyTorch's own tolerances for float32; float64: both sides in float64, so only
  // the order of summation differs.
  for (const [dtype, tol] of [
    ['float32', { rtol: 1.3e-6, atol: 1e-5 }],
    ['float64', { rtol: 1e-10, atol: 1e-12 }],
  ] as const) {
    it(dtype, async () => {
      const tag = dtype === 'float32' ? 'f32.' : 'f64.';
      const r = await runResnet(fx, { device: 'cpu', dtype });
      const final = section(fx, `${tag}final.`);
      expect([...final.keys()].filter((k) => k.endsWith('running_var')).length).toBe(6);
      await expectCloseTo(r.losses, fx.get(`${tag}losses`)!, 'loss per step', tol);
      await expectStateClose(r.final, final, 'after three SGD steps', tol);
      await expectCloseTo(r.evalLogits, fx.get(`${tag}evalLogits`)!, 'eval logits', tol);
    });
  }
});
