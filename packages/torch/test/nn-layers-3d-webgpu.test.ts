/**
 * Issue 18's layers on WebGPU: they are composites of ops WebGPU already runs (Note [3-d
 * convolution over depth], Note [Pooling as window tables], Note [Separable interpolation],
 * Note [embedding_bag as a segment reduction]), so a few of nn-layers-3d.test.ts's PyTorch
 * goldens, in float32 on device 'webgpu': output, input and weight gradients at the CPU
 * tests' tolerances.
 */
import { describe, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_layers_3d.json';
import { expectCloseToGoldenOnWebgpu as expectClose, type GoldenTensor as G } from './layer-goldens';

const { nn } = torch;

interface Case {
  x: G;
  args: G[];
  y: G;
  r: G;
  grads: Record<string, G>;
  xGrad: G;
}
interface Bag {
  input: G;
  offsets: G | null;
  psw: G | null;
  y: G;
  r: G;
  grads: Record<string, G>;
  pswGrad: G | null;
}

const onDevice = (g: G) => torch.tensor(g.values, { dtype: g.dtype === 'int64' ? 'int64' : 'float32' }).reshape(g.shape).to('webgpu');

const L = { ...golden.layers, ...golden.upsample, ...golden.losses } as Record<string, Case>;
const cases: Record<string, [number, () => torch.nn.Module]> = {
  'Conv3d(2,4,3,stride=2,padding=1,groups=2)': [600, () => new nn.Conv3d(2, 4, 3, { stride: 2, padding: 1, groups: 2 })],
  'ConvTranspose3d(2,4,3,stride=2,padding=1,output_padding=1,groups=2)': [
    610,
    () => new nn.ConvTranspose3d(2, 4, 3, { stride: 2, padding: 1, outputPadding: 1, groups: 2 }),
  ],
  'MaxPool3d(3,2,1,dilation=(1,2,1),ceil_mode=True)': [621, () => new nn.MaxPool3d(3, 2, 1, { dilation: [1, 2, 1], ceilMode: true })],
  'AvgPool3d(3,2,1,ceil_mode=True,count_include_pad=False)': [624, () => new nn.AvgPool3d(3, 2, 1, { ceilMode: true, countIncludePad: false })],
  'AdaptiveMaxPool2d(4,return_indices=True)': [633, () => new nn.AdaptiveMaxPool2d(4, { returnIndices: true })],
  'Upsample(scale_factor=(1.5,2.3),mode=bicubic)': [652, () => new nn.Upsample({ scaleFactor: [1.5, 2.3], mode: 'bicubic' })],
  'Upsample(size=(3,2,5),mode=trilinear,align_corners=True)': [656, () => new nn.Upsample({ size: [3, 2, 5], mode: 'trilinear', alignCorners: true })],
  'MultiMarginLoss(weight,reduction=none)': [672, () => new nn.MultiMarginLoss({ weight: torch.tensor([0.5, 2.0, 1.0, 0.25]), reduction: 'none' })],
  'MultiLabelMarginLoss()': [674, () => new nn.MultiLabelMarginLoss()],
};
const bagCases: Record<string, [number, () => torch.nn.EmbeddingBag]> = {
  'EmbeddingBag(10,3,mode=sum) per_sample_weights': [641, () => new nn.EmbeddingBag(10, 3, { mode: 'sum' })],
  'EmbeddingBag(10,3,mode=max) offsets': [642, () => new nn.EmbeddingBag(10, 3, { mode: 'max' })],
};

const ready = await torch.webgpu.init();
if (!ready) console.warn('[nn-layers-3d-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');
if (ready) {
  describe("issue 18's layers on webgpu equal PyTorch (float32)", () => {
    it('each layer', async () => {
      for (const [name, [seed, make]] of Object.entries(cases)) {
        const c = L[name];
        torch.manualSeed(seed);
        const m = make().to('webgpu');
        const x = onDevice(c.x).requiresGrad_(true);
        const out = m.call(x, ...c.args.map(onDevice)) as torch.Tensor | torch.Tensor[];
        const y = Array.isArray(out) ? out[0] : out;
        y.mul(onDevice(c.r)).sum().backward();
        await expectClose(y, c.y, `${name} output`);
        for (const [k, p] of m.namedParameters()) await expectClose(p.grad!, c.grads[k], `${name} grad ${k}`);
        await expectClose(x.grad!, c.xGrad, `${name} input grad`);
      }
    });

    it('EmbeddingBag', async () => {
      const B = golden.bags as Record<string, Bag>;
      for (const [name, [seed, make]] of Object.entries(bagCases)) {
        const c = B[name];
        torch.manualSeed(seed);
        const m = make().to('webgpu');
        const psw = c.psw ? onDevice(c.psw).requiresGrad_(true) : null;
        const y = m.call(onDevice(c.input), c.offsets ? onDevice(c.offsets) : null, psw) as torch.Tensor;
        y.mul(onDevice(c.r)).sum().backward();
        await expectClose(y, c.y, `${name} output`);
        await expectClose(m.weight.grad!, c.grads.weight, `${name} weight grad`);
        if (psw) await expectClose(psw.grad!, c.pswGrad!, `${name} per_sample_weights grad`);
      }
    });
  });
}
