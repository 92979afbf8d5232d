/**
 * Optimizer parity on WebGPU (issue 6): the same PyTorch goldens as optim.test.ts (start
 * parameters, six steps of fixed gradients), run with float32 parameters on device
 * 'webgpu'. The tolerance is optim.test.ts's float32 one (a few ulp; the largest
 * difference seen is 4.4e-7 relative): WGSL lets `sqrt` and division be off by a couple of
 * ulp and lets the compiler fuse a multiply-add, so even SGD is not bit-exact here as it is
 * on the CPU.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/optim.json';

interface G {
  shape: number[];
  dtype: string;
  values: number[];
}

const onDevice = (g: G) => torch.tensor(g.values, { dtype: 'float32' }).reshape(g.shape).to('webgpu');

function camel(opts: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(opts)) out[k.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())] = v;
  return out;
}

async function run(name: string, opts: Record<string, unknown>): Promise<torch.Tensor[]> {
  const ps = golden.start.map((s) => onDevice(s).requiresGrad_(true));
  const Ctor = (torch.optim as unknown as Record<string, new (p: unknown, o: unknown) => torch.optim.Optimizer>)[name];
  const opt = new Ctor(ps, camel(opts));
  for (const stepGrads of golden.grads) {
    opt.zeroGrad();
    let loss: torch.Tensor | null = null;
    ps.forEach((p, i) => {
      const term = p.mul(onDevice(stepGrads[i])).sum();
      loss = loss === null ? term : loss.add(term);
    });
    loss!.backward();
    opt.step();
  }
  await torch.webgpu.synchronize();
  return ps;
}

const ready = await torch.webgpu.init();
if (ready) {
  describe('optimizers on webgpu equal PyTorch after N steps (float32)', () => {
    for (const c of golden.cases) {
      it(`${c.optimizer} ${JSON.stringify(c.options)}`, async () => {
        const ps = await run(c.optimizer, c.options);
        for (let i = 0; i < ps.length; i++) {
          const p = ps[i];
          expect(String(p.device)).toBe('webgpu:0');
          const got = Array.from((await p.data()) as Float32Array);
          const want = c.float32[i].values;
          got.forEach((x, j) => {
            if (!(Math.abs(x - want[j]) <= 2e-6 * Math.abs(want[j]) + 1e-7)) expect.fail(`param ${i}[${j}]: ${x} vs PyTorch ${want[j]}`);
          });
        }
      });
    }
  });
} else {
  console.warn('[optim-webgpu] SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');
  // Only a machine without any adapter gets here (TORCH_TS_REQUIRE_WEBGPU=1, as CI sets it,
  // makes init() throw instead): check that this, and not a failed initialisation, is why.
  it('has no WebGPU adapter here, the one reason this suite may not run', () => {
    expect(torch.webgpu.unavailableReason()).toBe('no WebGPU adapter was found');
  });
}
