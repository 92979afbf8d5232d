/**
 * Real models as the test (issue 18): PyTorch's word_language_model recipe (a 2-layer LSTM
 * with tied embedding and decoder weights, truncated BPTT with the hidden state carried and
 * detached, clip_grad_norm_, manual SGD) from PyTorch 1.13's initial weights
 * (scripts/goldens/models.py -> fixtures/models/lstm-lm.pt), on the CPU in float32 and
 * float64: the loss of every step, the weights after training and an eval-mode loss.
 */
import { describe, expect, it } from 'vitest';
import { loadFixture, section } from './fixtures/models/models';
import { expectCloseTo, expectStateClose, runLstmLm } from './fixtures/models/runs';

const fx = loadFixture('lstm-lm');

describe('LSTM language model equals PyTorch (CPU)', () => {
  for (const [dtype, tol] of [
    ['float32', { rtol: 1.3e-6, atol: 1e-5 }],
    ['float64', { rtol: 1e-10, atol: 1e-12 }],
  ] as const) {
    it(dtype, async () => {
      const tag = dtype === 'float32' ? 'f32.' : 'f64.';
      const r = await runLstmLm(fx, { device: 'cpu', dtype });
      expect(r.tied).toBe(true);
      await expectCloseTo(r.losses, fx.get(`${tag}losses`)!, 'loss per step', tol);
      await expectStateClose(r.final, section(fx, `${tag}final.`), 'final', tol);
      await expectCloseTo(r.evalLoss, fx.get(`${tag}evalLoss`)!, 'eval loss', tol);
    });
  }
});
