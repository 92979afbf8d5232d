/**
 * The GPT-style decoder of models-gpt.test.ts on WebGPU, float32: the same PyTorch 1.13 weights, inputs and
 * results (fixtures/models/gpt.pt), the model moved to 'webgpu' after loading them.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { loadFixture, section } from './fixtures/models/models';
import { expectCloseTo, expectStateClose, runGpt } from './fixtures/models/runs';

const fx = loadFixture('gpt');
const TOL = { rtol: 1.3e-6, atol: 1e-5 };

const ready = await torch.webgpu.init();
if (ready) {
  describe('GPT-style decoder equals PyTorch on webgpu (float32)', () => {
    it('float32', async () => {
      const r = await runGpt(fx, { device: 'webgpu', dtype: 'float32' });
      expect(r.tied).toBe(true);
      expect(r.logits.device.type).toBe('webgpu');
      await expectCloseTo(r.logits, fx.get('f32.logits')!, 'logits', TOL);
      await expectCloseTo(r.loss, fx.get('f32.loss')!, 'loss', TOL);
      await expectStateClose(r.grads, section(fx, 'f32.grad.'), 'grad', TOL);
      await expectStateClose(r.step1, section(fx, 'f32.step1.'), 'after one AdamW step', TOL);
      await expectCloseTo(r.logits2, fx.get('f32.logits2')!, 'logits after the step', TOL);
    });
  });
}
