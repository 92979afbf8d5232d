/**
 * ConvTranspose1d, the 1-d pools and the shuffles on WebGPU: they are composites of ops WebGPU
 * already runs (Note [1-d pooling through the 2-d ops], Note [Pixel and channel shuffles are
 * reshapes]), so a few of nn-layers-shuffle-1d.test.ts's PyTorch goldens, in float32 on
 * device 'webgpu': output, input and weight gradients at the CPU tests' tolerances.
 */
import { describe, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_layers_shuffle_1d.json';
import { expectCloseToGoldenOnWebgpu as expectClose, type GoldenTensor as G } from './layer-goldens';

const { nn } = torch;

interface Case {
  x: G;
  y: G;
  r: G;
  grads: Record<string, G>;
  xGrad: G;
}

const onDevice = (g: G) => torch.tensor(g.values, { dtype: 'float32' }).reshape(g.shape).to('webgpu');

const L = golden.layers as Record<string, Case>;
const cases: Record<string, [number, () => torch.nn.Module]> = {
  'ConvTranspose1d(3,2,3,stride=2,padding=1,dilation=2)': [501, () => new nn.ConvTranspose1d(3, 2, 3, { stride: 2, padding: 1, dilation: 2 })],
  'MaxPool1d(3,2,1,2,ceil_mode=True)': [503, () => new nn.MaxPool1d(3, 2, 1, 2, { ceilMode: true })],
  'AvgPool1d(3,2,1,ceil_mode=True,count_include_pad=False)': [506, () => new nn.AvgPool1d(3, 2, 1, { ceilMode: true, countIncludePad: false })],
  'AdaptiveAvgPool1d(3)': [509, () => new nn.AdaptiveAvgPool1d(3)],
  'PixelShuffle(2)': [511, () => new nn.PixelShuffle(2)],
  'PixelUnshuffle(2)': [514, () => new nn.PixelUnshuffle(2)],
  'ChannelShuffle(3)': [517, () => new nn.ChannelShuffle(3)],
};

const ready = await torch.webgpu.init();
if (!ready) console.warn('[nn-layers-shuffle-1d-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');
if (ready) {
  describe('ConvTranspose1d, 1-d pools and shuffles on webgpu equal PyTorch (float32)', () => {
    it('each layer', async () => {
      for (const [name, [seed, make]] of Object.entries(cases)) {
        const c = L[name];
        torch.manualSeed(seed);
        const m = make().to('webgpu');
        const x = onDevice(c.x).requiresGrad_(true);
        const y = m.call(x) as torch.Tensor;
        y.mul(onDevice(c.r)).sum().backward();
        await expectClose(y, c.y, `${name} output`);
        for (const [k, p] of m.namedParameters()) await expectClose(p.grad!, c.grads[k], `${name} grad ${k}`);
        await expectClose(x.grad!, c.xGrad, `${name} input grad`);
      }
    });
  });
}
