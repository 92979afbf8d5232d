/**
 * A training step of a small CNN (the MNIST job's layers: conv2d -> relu -> max_pool2d ->
 * conv2d -> relu -> max_pool2d -> flatten -> linear) on WebGPU against CPU: the loss and every
 * parameter's gradient agree within float32 tolerance, and so do the parameters after two SGD
 * steps. This runs the spatial backward kernels together as training does (direct
 * convolution gradients, max pooling's index scatter, bias sums), which the per-op suites
 * check one at a time.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

const F = torch.nn.functional;

function values(n: number, seed: number, scale: number): Float32Array {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 4294967296 - 0.5) * 2 * scale;
  });
}

const SHAPES: Record<string, number[]> = {
  w1: [6, 1, 3, 3],
  b1: [6],
  w2: [8, 6, 3, 3],
  b2: [8],
  w3: [5, 8 * 3 * 4],
  b3: [5],
};

async function host(t: Tensor): Promise<Float32Array> {
  const c = await t.toAsync('cpu');
  return Float32Array.from(c.contiguous().dataSync() as ArrayLike<number>);
}

/** Loss and gradients of `steps` SGD steps on `device`, from the same initial values. */
async function run(device: 'cpu' | 'webgpu', steps: number): Promise<{ losses: number[]; grads: Record<string, Float32Array>; params: Record<string, Float32Array> }> {
  const p: Record<string, Tensor> = {};
  let seed = 1;
  for (const [name, shape] of Object.entries(SHAPES)) {
    const fan = shape.slice(1).reduce((a, b) => a * b, 1) || 1;
    p[name] = torch.tensor(values(shape.reduce((a, b) => a * b, 1), seed++, 1 / Math.sqrt(fan))).reshape(shape).to(device).requiresGrad_(true);
  }
  const x = torch.tensor(values(4 * 1 * 13 * 14, 99, 1)).reshape([4, 1, 13, 14]).to(device);
  const target = torch.tensor(values(4 * 5, 98, 1)).reshape([4, 5]).to(device);
  const losses: number[] = [];
  const grads: Record<string, Float32Array> = {};
  for (let step = 0; step < steps; step++) {
    let h = F.conv2d(x, p.w1, p.b1, { padding: 1 });
    h = F.maxPool2d(F.relu(h), 2);
    h = F.conv2d(h, p.w2, p.b2, { padding: 'same' });
    h = F.maxPool2d(F.relu(h), 2, { ceilMode: true });
    const logits = F.linear(torch.flatten(h, 1), p.w3, p.b3);
    const loss = torch.mul(logits, target).sum();
    loss.backward();
    losses.push(Number(await loss.itemAsync()));
    for (const [name, t] of Object.entries(p)) {
      if (step === 0) grads[name] = await host(t.grad!);
      torch.noGrad(() => t.sub_(torch.mul(t.grad!, 0.05)));
      t.grad!.zero_();
    }
  }
  const params: Record<string, Float32Array> = {};
  for (const [name, t] of Object.entries(p)) params[name] = await host(t);
  return { losses, grads, params };
}

function expectClose(name: string, a: Float32Array, b: Float32Array): void {
  expect(b.length, name).toBe(a.length);
  let scale = 1e-6;
  for (const v of a) scale = Math.max(scale, Math.abs(v));
  for (let i = 0; i < a.length; i++) {
    expect(Math.abs(a[i] - b[i]), `${name}[${i}]: cpu ${a[i]}, webgpu ${b[i]}`).toBeLessThanOrEqual(1e-4 * Math.abs(a[i]) + 1e-5 * scale);
  }
}

const ready = await torch.webgpu.init();
describe.skipIf(!ready)('a CNN training step on webgpu equals CPU (float32)', () => {
  it('loss, every gradient, and the parameters after two SGD steps', async () => {
    const cpu = await run('cpu', 2);
    const gpu = await run('webgpu', 2);
    for (let i = 0; i < 2; i++) expect(Math.abs(cpu.losses[i] - gpu.losses[i])).toBeLessThanOrEqual(1e-4 * Math.abs(cpu.losses[i]) + 1e-5);
    for (const name of Object.keys(SHAPES)) {
      expectClose(`grad ${name}`, cpu.grads[name], gpu.grads[name]);
      expectClose(`param ${name}`, cpu.params[name], gpu.params[name]);
    }
  });
});
if (!ready) console.warn('[cnn-webgpu] SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');
