/**
 * nn.Transformer on WebGPU (float32): the full encoder-decoder cases of nn-transformer.test.ts
 * (PyTorch 1.13 goldens, scripts/goldens/nn_transformer.py), built on the CPU after manualSeed
 * (PyTorch's initial weights) and moved to 'webgpu': outputs, every parameter's gradient and
 * the inputs' gradients, with PyTorch's float32 tolerances (rtol 1.3e-6, atol 1e-5).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { GoldenTensor as G } from './layer-goldens';
import golden from './goldens/nn_transformer.json';
import { expectCloseTo } from './fixtures/models/runs';

const { nn } = torch;

type Case = { y: G; r: G; grads: Record<string, G> } & Record<string, G | boolean[][] | Record<string, G>>;
const C = golden.cases as unknown as Record<string, Case>;
const TOL = { rtol: 1.3e-6, atol: 1e-5 };
const cpu = (g: G) => torch.tensor(g.values, { dtype: 'float32' }).reshape(g.shape);
const dev = (g: G) => cpu(g).to('webgpu');
const mask = (c: Case, k: string) => torch.tensor(c[k] as boolean[][]).to('webgpu');

const ready = await torch.webgpu.init();
if (ready) {
  describe('nn.Transformer on webgpu equals PyTorch (float32)', () => {
    const cases: Record<string, [number, () => torch.nn.Transformer, (c: Case) => torch.nn.TransformerForwardOptions]> = {
      'transformer post-norm causal': [
        820,
        () => new nn.Transformer({ dModel: 8, nhead: 2, numEncoderLayers: 2, numDecoderLayers: 2, dimFeedforward: 16, dropout: 0.0 }),
        () => ({ tgtMask: nn.Transformer.generateSquareSubsequentMask(3, { device: 'webgpu' }) }),
      ],
      'transformer pre-norm gelu batchFirst kpm': [
        821,
        () => new nn.Transformer(8, 4, 1, 2, 12, 0.0, 'gelu', null, null, 1e-5, true, true),
        (c) => ({
          tgtMask: nn.Transformer.generateSquareSubsequentMask(3, { device: 'webgpu' }),
          srcKeyPaddingMask: mask(c, 'srcKpm'),
          tgtKeyPaddingMask: mask(c, 'tgtKpm'),
          memoryKeyPaddingMask: mask(c, 'srcKpm'),
        }),
      ],
    };
    for (const [name, [seed, make, opts]] of Object.entries(cases)) {
      it(name, async () => {
        const c = C[name];
        torch.manualSeed(seed);
        const m = make().eval().to('webgpu');
        const src = dev(c.src as G).requiresGrad_(true);
        const tgt = dev(c.tgt as G).requiresGrad_(true);
        const y = m(src, tgt, opts(c));
        expect(y.device.type).toBe('webgpu');
        await expectCloseTo(y, cpu(c.y), 'output', TOL);
        y.mul(dev(c.r)).sum().backward();
        expect([...m.namedParameters()].map(([k]) => k)).toEqual(Object.keys(c.grads));
        for (const [k, p] of m.namedParameters()) await expectCloseTo(p.grad!, cpu(c.grads[k]), `grad ${k}`, TOL);
        await expectCloseTo(src.grad!, cpu(c.srcGrad as G), 'src grad', TOL);
        await expectCloseTo(tgt.grad!, cpu(c.tgtGrad as G), 'tgt grad', TOL);
      });
    }
  });
}
