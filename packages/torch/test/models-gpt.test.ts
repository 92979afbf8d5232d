/**
 * Real models as the test (issue 18): a nanoGPT-style decoder (token and position
 * embeddings, pre-norm blocks of causal self-attention written with matmul / maskedFill /
 * softmax and a GELU(tanh) MLP, lm_head tied to the token embedding) from PyTorch 1.13's
 * initial weights (scripts/goldens/models.py -> fixtures/models/gpt.pt), on the CPU in
 * float32 and float64: forward logits and loss, every gradient, one AdamW step with two
 * parameter groups (weight decay on matrices only), and the logits after the step.
 *
 * Note [The key bias has no gradient]
 * Adding the key projection's bias b_k adds q·b_k to every score of a query's row, which
 * softmax ignores, so the gradient of c_attn.bias[C:2C] is exactly zero, and in float32 it
 * is rounding noise (about 1e-9, in PyTorch as here). Adam's first step moves a parameter by
 * lr·g/(|g| + eps): with the default eps 1e-8 that turns the noise into moves of up to
 * lr/10 = 3e-4 in either direction, so two float32 implementations (or PyTorch on two
 * CPUs) need not agree on those weights after the step. With eps 1e-6 the noise moves them
 * by at most lr·1e-9/1e-6 = 3e-6, below float32's tolerance. The test checks that those
 * gradients are indeed noise in PyTorch's float32 run.
 */
import { describe, expect, it } from 'vitest';
import { loadFixture, section } from './fixtures/models/models';
import { expectCloseTo, expectStateClose, runGpt } from './fixtures/models/runs';

const fx = loadFixture('gpt');

describe('GPT-style decoder equals PyTorch (CPU)', () => {
  // float32: PyTorch's own tolerances for float32; float64: both sides in float64, so only
  // the order of summation differs.
  for (const [dtype, tol] of [
    ['float32', { rtol: 1.3e-6, atol: 1e-5 }],
    ['float64', { rtol: 1e-10, atol: 1e-12 }],
  ] as const) {
    it(dtype, async () => {
      const tag = dtype === 'float32' ? 'f32.' : 'f64.';
      const r = await runGpt(fx, { device: 'cpu', dtype });
      expect(r.tied).toBe(true);
      const C = 16;
      const keyBiasGrad = Array.from(fx.get(`${tag}grad.h.0.attn.c_attn.bias`)!.narrow(0, C, C).abs().dataSync() as Float32Array);
      expect(Math.max(...keyBiasGrad)).toBeLessThan(dtype === 'float32' ? 1e-7 : 1e-15);
      await expectCloseTo(r.logits, fx.get(`${tag}logits`)!, 'logits', tol);
      await expectCloseTo(r.loss, fx.get(`${tag}loss`)!, 'loss', tol);
      await expectStateClose(r.grads, section(fx, `${tag}grad.`), 'grad', tol);
      await expectStateClose(r.step1, section(fx, `${tag}step1.`), 'after one AdamW step', tol);
      await expectCloseTo(r.logits2, fx.get(`${tag}logits2`)!, 'logits after the step', tol);
    });
  }
});
