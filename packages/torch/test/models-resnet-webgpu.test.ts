/**
 * The ResNet-style CNN with BatchNorm of models-resnet.test.ts on WebGPU, float32: the same PyTorch 1.13 weights, inputs and
 * results (fixtures/models/resnet.pt), the model moved to 'webgpu' after loading them.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { loadFixture, section } from './fixtures/models/models';
import { expectCloseTo, expectStateClose, runResnet } from './fixtures/models/runs';

const fx = loadFixture('resnet');
const TOL = { rtol: 1.3e-6, atol: 1e-5 };

const ready = await torch.webgpu.init();
if (ready) {
  describe('ResNet-style CNN with BatchNorm equals PyTorch on webgpu (float32)', () => {
    it('float32', async () => {
      const r = await runResnet(fx, { device: 'webgpu', dtype: 'float32' });
      expect(r.evalLogits.device.type).toBe('webgpu');
      await expectCloseTo(r.losses, fx.get('f32.losses')!, 'loss per step', TOL);
      await expectStateClose(r.final, section(fx, 'f32.final.'), 'after three SGD steps', TOL);
      await expectCloseTo(r.evalLogits, fx.get('f32.evalLogits')!, 'eval logits', TOL);
    });
  });
}
