/**
 * torch.utils.checkpoint (Note [Non-reentrant checkpointing]) and
 * torch.autograd.graph.savedTensorsHooks (autograd Note [Saved tensors hooks]), on CPU and,
 * where an adapter exists, WebGPU. The oracle for gradients is the same model run without
 * checkpointing (same ops in the same order, so the values must be bit-identical), and
 * gradcheck in float64 for the checkpointed function itself.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { nn } from '@torch-ts/torch';
import { thrown } from './helpers';

const { checkpoint, checkpointSequential } = torch.utils.checkpoint;

const webgpu = await torch.webgpu.init();
const devices: ('cpu' | 'webgpu')[] = webgpu ? ['cpu', 'webgpu'] : ['cpu'];
if (!webgpu) console.warn('[checkpoint] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

type Dev = 'cpu' | 'webgpu';

/** A deep MLP with dropout: `depth` blocks of Linear, ReLU, Dropout(0.25). */
function mlp(width: number, depth: number, device: Dev, dtype: 'float32' | 'float64'): nn.Sequential {
  torch.manualSeed(0);
  const layers: nn.Module[] = [];
  for (let i = 0; i < depth; i++) layers.push(new nn.Linear(width, width, { dtype }), new nn.ReLU(), new nn.Dropout(0.25));
  const m = new nn.Sequential(...layers);
  return device === 'cpu' ? m : m.to(device);
}

async function values(t: torch.Tensor): Promise<number[]> {
  return Array.from((await t.data()) as Float32Array | Float64Array);
}

/** Runs one forward and backward, returning every parameter's gradient and the generator's state after. */
async function grads(model: nn.Sequential, x: torch.Tensor, run: (x: torch.Tensor) => torch.Tensor): Promise<{ g: number[][]; loss: number }> {
  model.zeroGrad();
  torch.manualSeed(1234);
  const loss = torch.tidy(() => run(x).square().mean());
  loss.backward();
  const g = [];
  for (const p of model.parameters()) g.push(await values(p.grad!));
  const l = await loss.itemAsync();
  loss.dispose();
  return { g, loss: l as number };
}

const stateAfter = () => torch.rand([4]).tolistAsync();

for (const device of devices) {
  describe(`checkpoint on ${device}`, () => {
    const dtype = device === 'cpu' ? 'float64' : 'float32';
    const input = () => torch.randn([16, 32], { dtype }).to(device);

    it('deep MLP with dropout: checkpoint and checkpointSequential give the same gradients as no checkpointing', async () => {
      const model = mlp(32, 6, device, dtype);
      const x = input();
      const plain = await grads(model, x, (x) => model(x));
      const afterPlain = await stateAfter();
      const blocks = [...model.children()] as ((x: torch.Tensor) => torch.Tensor)[];
      const perBlock = await grads(model, x, (x) => {
        let h = x;
        for (let i = 0; i < blocks.length; i += 3) {
          h = checkpoint((t: torch.Tensor) => blocks[i + 2](blocks[i + 1](blocks[i](t))), h, { useReentrant: false });
        }
        return h;
      });
      const afterPerBlock = await stateAfter();
      const seq = await grads(model, x, (x) => checkpointSequential(model, 3, x, { useReentrant: false }));
      expect(perBlock.loss).toBe(plain.loss);
      expect(seq.loss).toBe(plain.loss);
      expect(perBlock.g).toEqual(plain.g);
      expect(seq.g).toEqual(plain.g);
      // dropout really dropped something, and the recomputation drew nothing from the caller's stream
      expect(plain.g.some((g) => g.some((v) => v === 0))).toBe(true);
      expect(afterPerBlock).toEqual(afterPlain);
      x.dispose();
    });

    it('without preserveRngState the recomputed dropout masks differ (so the state is what makes them equal)', async () => {
      const model = mlp(32, 3, device, dtype);
      const x = input();
      const plain = await grads(model, x, (x) => model(x));
      const loose = await grads(model, x, (x) => checkpoint((t: torch.Tensor) => model(t), x, { useReentrant: false, preserveRngState: false }));
      expect(loose.loss).toBe(plain.loss); // the forward is the same draw
      expect(loose.g).not.toEqual(plain.g); // the recomputation drew other masks
      x.dispose();
    });

    it('backward twice without retainGraph is PyTorch\'s error; with retainGraph it recomputes and accumulates', async () => {
      const w = torch.randn([8, 8], { dtype, device, requiresGrad: true });
      const x = torch.randn([4, 8], { dtype, device });
      const f = (t: torch.Tensor) => t.matmul(w).tanh().matmul(w).sigmoid();
      const y = checkpoint(f, x, { useReentrant: false }).sum();
      y.backward();
      const e = thrown(() => y.backward());
      expect(e).toBeInstanceOf(torch.AutogradError);
      expect(e.message).toMatch(/Trying to backward through the graph a second time/);

      w.grad = null;
      const ref = f(x).sum();
      ref.backward(undefined, { retainGraph: true });
      ref.backward();
      const want = await values(w.grad!); // two backwards of the plain function
      w.grad = null;
      const y2 = checkpoint(f, x, { useReentrant: false }).sum();
      y2.backward(undefined, { retainGraph: true });
      y2.backward();
      const got = await values(w.grad!);
      expect(got).toEqual(want);
    });

    it('releases everything: arguments, holders and recomputed tensors (live tensors back to the start)', async () => {
      const model = mlp(16, 4, device, dtype);
      const before = torch.memory.stats(device);
      const x = torch.randn([8, 16], { dtype, device });
      torch.manualSeed(3);
      const loss = torch.tidy(() => checkpointSequential(model, 2, x).sum());
      x.dispose(); // the checkpoint keeps its own handle for the recomputation
      loss.backward();
      loss.dispose();
      model.zeroGrad();
      if (device === 'webgpu') await torch.webgpu.synchronize();
      const after = torch.memory.stats(device);
      expect(after.liveTensors).toBe(before.liveTensors);
      expect(after.liveBytes).toBe(before.liveBytes);
    });
  });
}

describe('checkpoint: memory, gradcheck and errors', () => {
  for (const device of devices) {
    it(`peak memory of a deep MLP drops on ${device}, gradients unchanged`, async () => {
      const width = 128;
      const depth = 16;
      torch.manualSeed(0);
      const layers: nn.Module[] = [];
      for (let i = 0; i < depth; i++) layers.push(new nn.Linear(width, width), new nn.ReLU());
      const model = new nn.Sequential(...layers);
      if (device !== 'cpu') model.to(device);
      const x = torch.randn([256, width]).to(device);
      const run = async (f: (x: torch.Tensor) => torch.Tensor) => {
        model.zeroGrad();
        if (device === 'webgpu') await torch.webgpu.synchronize();
        const base = torch.memory.stats(device).liveBytes;
        torch.memory.resetPeakStats(device);
        const loss = torch.tidy(() => f(x).square().mean());
        const afterForward = torch.memory.stats(device).liveBytes - base;
        loss.backward();
        const peak = torch.memory.stats(device).peakBytes - base;
        loss.dispose();
        const g = [];
        for (const p of model.parameters()) g.push(await values(p.grad!));
        return { peak, afterForward, g };
      };
      const plain = await run((x) => model(x));
      const ckpt = await run((x) => checkpointSequential(model, 4, x));
      expect(ckpt.g).toEqual(plain.g);
      const activation = 256 * width * 4;
      // without checkpointing every ReLU result is kept (the ReLU's and the next Linear's saved
      // tensor, one per layer); with 4 segments only the 3 boundaries and the last segment's 4
      expect(plain.afterForward).toBeGreaterThanOrEqual(depth * activation);
      expect(ckpt.afterForward).toBeLessThan(8 * activation + activation / 2);
      expect(ckpt.peak).toBeLessThan(plain.peak * 0.75);
      console.log(`[checkpoint] ${device}: deep MLP peak bytes ${plain.peak} without, ${ckpt.peak} with checkpointSequential(4); after forward ${plain.afterForward} vs ${ckpt.afterForward}`);
      x.dispose();
    });
  }

  it('gradcheck (float64) through checkpoint, inputs and a closed-over weight', async () => {
    const w = torch.randn([3, 3], { dtype: 'float64', requiresGrad: true });
    const x = torch.randn([2, 3], { dtype: 'float64', requiresGrad: true });
    const f = (a: torch.Tensor, b: torch.Tensor) => checkpoint((p: torch.Tensor, q: torch.Tensor) => p.matmul(q).sin().mul(p.sum()), a, b, { useReentrant: false });
    expect(await torch.autograd.gradcheck(f, [x, w])).toBe(true);
  });

  it('works with autograd.grad and non-tensor arguments; a function returning its argument', () => {
    const x = torch.tensor([1, 2, 3], { dtype: 'float64', requiresGrad: true });
    const y = checkpoint((t: torch.Tensor, k: number) => t.pow(k).sum(), x, 3, { useReentrant: false });
    const [g] = torch.autograd.grad([y], [x]);
    expect(g!.tolist()).toEqual([3, 12, 27]);
    const same = checkpoint((t: torch.Tensor) => t, x);
    expect(same).toBe(x);
    expect(x.isDisposed).toBe(false);
  });

  it('errors: useReentrant true, a recomputation that saves differently, a bad segments count', () => {
    const x = torch.randn([3], { dtype: 'float64', requiresGrad: true });
    expect(thrown(() => checkpoint((t: torch.Tensor) => t.exp(), x, { useReentrant: true }))).toBeInstanceOf(torch.NotImplementedError);
    let calls = 0;
    const y = checkpoint((t: torch.Tensor) => (calls++ === 0 ? t.exp().exp() : t.exp()).sum(), x, { useReentrant: false });
    const e = thrown(() => y.backward());
    expect(e).toBeInstanceOf(torch.TorchError);
    expect(e.message).toMatch(/^torch\.utils\.checkpoint: A different number of tensors was saved during the original forward and recomputation\.\nNumber of tensors saved during forward: 2\nNumber of tensors saved during recomputation: 1/);
    let n = 0;
    const z = checkpoint((t: torch.Tensor) => (n++ === 0 ? t.exp() : t.view(3, 1).exp()).sum(), x, { useReentrant: false });
    expect(thrown(() => z.backward()).message).toMatch(/^torch\.utils\.checkpoint: Recomputed values for the following tensors have different metadata than during the forward pass\.\ntensor at position 0:\nsaved metadata: \{shape: \[3\]/);
    // determinismCheck: 'none' skips the comparison (the holders that match still get their tensors)
    let k = 0;
    const w = checkpoint((t: torch.Tensor) => (k++ === 0 ? t.exp().exp() : t.exp().exp().exp()).sum(), x, { useReentrant: false, determinismCheck: 'none' });
    x.grad = null;
    w.backward();
    const want = x.detach().exp().add(x.detach()).exp().tolist() as number[]; // d/dx exp(exp(x)) = exp(exp(x) + x)
    (x.grad!.tolist() as number[]).forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThanOrEqual(1e-13 * Math.abs(want[i])));
    expect(thrown(() => checkpoint((t: torch.Tensor) => t, x, { determinismCheck: 'all' as never })).message).toBe(
      `checkpoint: determinismCheck should be 'default' or 'none', but got "all"`,
    );
    expect(thrown(() => checkpoint((t: torch.Tensor) => t, x, { debug: true }))).toBeInstanceOf(torch.NotImplementedError);
    const fns = [(t: torch.Tensor) => t.exp()];
    expect(thrown(() => checkpointSequential(fns, 2, x)).message).toMatch(/^checkpointSequential: segments \(2\) is larger than the number of functions \(1\)/);
    expect(thrown(() => checkpointSequential(fns, 0, x)).message).toMatch(/^checkpointSequential: segments must be a positive integer/);
  });
});

describe('torch.autograd.graph.savedTensorsHooks', () => {
  it('every saved tensor goes through pack and unpack; gradients are unchanged', () => {
    const x = torch.tensor([0.5, -1, 2], { dtype: 'float64', requiresGrad: true });
    const packed: number[][] = [];
    let unpacks = 0;
    const y = torch.autograd.graph.savedTensorsHooks(
      (t) => {
        packed.push(t.tolist() as number[]);
        return t;
      },
      (t) => {
        unpacks++;
        return t as torch.Tensor;
      },
      () => x.mul(x).sin().sum(),
    );
    expect(packed.length).toBeGreaterThanOrEqual(2); // mul saves its inputs, sin its input
    y.backward();
    expect(unpacks).toBe(packed.length);
    const want = x.detach().mul(2).mul(x.detach().square().cos()).tolist();
    (x.grad!.tolist() as number[]).forEach((v, i) => expect(v).toBeCloseTo((want as number[])[i], 14));
  });

  it('the `using` guard form, the version check under hooks, and a bad unpack result', () => {
    const x = torch.tensor([1, 2], { dtype: 'float64', requiresGrad: true });
    let a: torch.Tensor;
    {
      using _ = torch.autograd.graph.savedTensorsHooks((t) => t.clone(), (t) => t as torch.Tensor);
      a = x.mul(1).mul(x.mul(1));
    }
    const h = x.mul(1);
    const b = torch.autograd.graph.savedTensorsHooks((t) => t, (t) => t as torch.Tensor, () => h.sin()); // sin saves its input
    b.sum().backward(undefined, { retainGraph: true });
    h.add_(1);
    expect(thrown(() => b.sum().backward()).message).toMatch(/modified by an inplace operation/);
    const c = torch.autograd.graph.savedTensorsHooks((t) => t, () => 42 as unknown as torch.Tensor, () => x.exp());
    expect(thrown(() => c.sum().backward()).message).toMatch(/^ExpBackward0: Output of saved tensor unpack_hook expected to be a Tensor but got result of type number/);
    a.sum().backward();
    expect(x.grad).not.toBeNull();
    expect(thrown(() => torch.autograd.graph.savedTensorsHooks(null as never, (t) => t as torch.Tensor)).message).toBe(
      'savedTensorsHooks: pack and unpack must be functions',
    );
  });
});
