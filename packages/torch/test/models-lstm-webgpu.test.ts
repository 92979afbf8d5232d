/**
 * The LSTM language model of models-lstm.test.ts on WebGPU, float32: the same PyTorch 1.13 weights, inputs and
 * results (fixtures/models/lstm-lm.pt), the model moved to 'webgpu' after loading them.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { loadFixture, section } from './fixtures/models/models';
import { expectCloseTo, expectStateClose, runLstmLm } from './fixtures/models/runs';

const fx = loadFixture('lstm-lm');
const TOL = { rtol: 1.3e-6, atol: 1e-5 };

const ready = await torch.webgpu.init();
if (ready) {
  describe('LSTM language model equals PyTorch on webgpu (float32)', () => {
    it('float32', async () => {
      const r = await runLstmLm(fx, { device: 'webgpu', dtype: 'float32' });
      expect(r.tied).toBe(true);
      expect(r.losses.device.type).toBe('webgpu');
      await expectCloseTo(r.losses, fx.get('f32.losses')!, 'loss per step', TOL);
      await expectStateClose(r.final, section(fx, 'f32.final.'), 'final', TOL);
      await expectCloseTo(r.evalLoss, fx.get('f32.evalLoss')!, 'eval loss', TOL);
    });
  });
}
