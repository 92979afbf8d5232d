/**
 * The main job on WebGPU (issue 6: "the same model quality on WebGPU"): the CNN trained on
 * the real digits takes the same steps on WebGPU as on the CPU, from the same weights and
 * batches, and classifies the held-out digits the same. The full WebGPU run is in the
 * README; here a shortened one: software Vulkan (SwiftShader) in CI runs the CNN at a few
 * steps per second. Skipped without an adapter unless TORCH_TS_REQUIRE_WEBGPU=1.
 */
import * as torch from '@torch-ts/torch';
import { describe, expect, it } from 'vitest';
import { loadMnist } from '../src/data';
import { makeModel } from '../src/model';
import { evaluate, toDevice } from '../src/train';

const STEPS = 16;
const BATCH = 32;
const F = torch.nn.functional;

const ready = await torch.webgpu.init();
if (!ready) console.warn('[mnist webgpu] SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');

describe.skipIf(!ready)('apps/mnist on webgpu', () => {
  it(`takes the CPU's ${STEPS} Adam steps and classifies held-out digits as the CPU does`, async () => {
    const data = loadMnist({ seed: 0, testSize: 2000 });
    torch.manualSeed(0);
    const start = makeModel().stateDict();
    const losses: Record<string, number[]> = { cpu: [], webgpu: [] };
    const accuracy: Record<string, number> = {};
    for (const device of ['cpu', 'webgpu'] as const) {
      const model = makeModel();
      model.loadStateDict(start);
      model.to(device);
      const opt = new torch.optim.Adam(model.parameters(), { lr: 2e-3 });
      for (let step = 0; step < STEPS; step++) {
        const loss = torch.tidy(() => {
          const x = toDevice(data.train.images.narrow(0, step * BATCH, BATCH), device);
          const y = toDevice(data.train.labels.narrow(0, step * BATCH, BATCH), device);
          const l = F.crossEntropy(model.forward(x), y);
          opt.zeroGrad();
          l.backward();
          opt.step();
          return l.detach();
        });
        losses[device].push(Number(await loss.itemAsync()));
        loss.dispose();
      }
      const { correct, total } = await evaluate(model, { ...data.test, images: data.test.images.narrow(0, 0, 500), labels: data.test.labels.narrow(0, 0, 500) }, device);
      accuracy[device] = correct / total;
    }
    // float32 on both, summed in different orders: the trajectories agree to a few 1e-4
    losses.webgpu.forEach((l, i) => expect(Math.abs(l - losses.cpu[i]), `step ${i}: ${l} vs ${losses.cpu[i]}`).toBeLessThan(2e-3 * losses.cpu[i] + 1e-4));
    expect(losses.cpu[STEPS - 1]).toBeLessThan(losses.cpu[0] * 0.7); // it did learn
    // at most 1 of 500 held-out digits may flip between the two (the trained model's full
    // held-out accuracy on WebGPU is checked by main.test.ts with --predict --device webgpu)
    expect(Math.abs(accuracy.webgpu - accuracy.cpu)).toBeLessThanOrEqual(0.002);
  });
});
