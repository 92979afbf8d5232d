/**
 * Autograd on WebGPU, op by op (issue 5: "autograd works on it unchanged"): every
 * gradcheck sample of the OpInfo table (Note [OpInfo gradcheck]) runs forward and backward
 * in float32 on CPU and on WebGPU with the same inputs and the same output weights, and the
 * gradients must agree within float32 tolerance. This reaches every backward kernel a
 * derivative formula calls (`_softmax_backward_data`, `max_pool2d_with_indices_backward`,
 * scatter for gather's backward, ...), which the forward OpInfo suite does not.
 * Ops WebGPU computes in no dtype (notOnWebgpu) have no forward there and are left to its strict probe; a
 * sample that cannot match is listed in GRAD_XFAILS_WEBGPU with its reason, strictly (it
 * fails the run once it passes).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { loadOpGoldens } from '../src/goldens';
import { OP_TABLE } from '../src/op-info';
import { gradcheckSamples, seeded, type GradcheckSample } from '../src/op-info/gradcheck';
import { GRAD_XFAILS_WEBGPU, notOnWebgpu } from '../src/webgpu-xfails';

type Device = 'cpu' | 'webgpu';

async function hostValues(t: Tensor): Promise<Float32Array> {
  const c = await t.toAsync('cpu');
  try {
    return Float32Array.from(c.contiguous().dataSync() as ArrayLike<number>);
  } finally {
    if (c !== t) c.dispose();
  }
}

/** The float32 gradients of `sum_k <out_k, w_k>` with respect to each float input, on `device`. */
async function gradients(s: GradcheckSample, device: Device): Promise<(Float32Array | null)[]> {
  const { inputs, fn, fnAsync } = s.make();
  const moved = inputs.map((t) =>
    t.requiresGrad ? t.detach().to('float32').to(device).requiresGrad_(true) : t.to(device),
  );
  // (start 7: not the stream the sample's inputs came from)
  const random = seeded(`${s.op.name}/${s.caseId}`, 7);
  // (an op whose result size depends on the data runs its async form where reads are async only)
  const result = device === 'webgpu' && fnAsync ? await fnAsync(...moved) : fn(...moved);
  const outs = (Array.isArray(result) ? result : [result]) as Tensor[];
  let loss: Tensor | null = null;
  for (const out of outs) {
    if (!out.requiresGrad) continue;
    const w = torch.tensor(Float32Array.from({ length: out.numel() }, () => random() * 2 - 1)).reshape(out.shape).to(device);
    const term = torch.mul(out, w).sum();
    loss = loss === null ? term : torch.add(loss, term);
  }
  if (loss === null) return moved.map(() => null);
  loss.backward();
  const grads: (Float32Array | null)[] = [];
  for (const t of moved) grads.push(t.requiresGrad && t.grad ? await hostValues(t.grad) : null);
  return grads;
}

function compare(cpu: (Float32Array | null)[], gpu: (Float32Array | null)[]): string | null {
  for (let i = 0; i < cpu.length; i++) {
    const a = cpu[i];
    const b = gpu[i];
    if ((a === null) !== (b === null)) return `input ${i}: gradient ${a === null ? 'absent on cpu' : 'absent on webgpu'}`;
    if (!a || !b) continue;
    if (a.length !== b.length) return `input ${i}: ${a.length} vs ${b.length} elements`;
    let scale = 1;
    for (const v of a) if (Number.isFinite(v)) scale = Math.max(scale, Math.abs(v));
    for (let j = 0; j < a.length; j++) {
      const x = a[j];
      const y = b[j];
      if (Number.isNaN(x) && Number.isNaN(y)) continue;
      if (x === y) continue;
      if (!(Math.abs(x - y) <= 1e-3 * Math.abs(x) + 2e-5 * scale)) return `input ${i}[${j}]: cpu ${x}, webgpu ${y}`;
    }
  }
  return null;
}

/** Registers the suite in the calling test file (test/webgpu-table.test.ts). */
export async function gradsWebgpuSuite(): Promise<void> {
  const ready = await torch.webgpu.init();
  if (ready) {
    // Random ops draw their own values on WebGPU (Philox, not the CPU's mt19937: Note in
    // core's random-impls.ts), so their gradients cannot equal CPU's; dropout's is checked
    // below against the mask it drew.
    const absent = notOnWebgpu(OP_TABLE);
    const all = gradcheckSamples(OP_TABLE, loadOpGoldens()).filter(
      (s) => s.form === 'function' && s.layout === 'contiguous' && !(s.op.name in absent) && !s.op.randomCheck,
    );
    const ids = new Set(all.map((s) => `${s.op.name}/${s.caseId}`));
    // (TORCH_TS_WEBGPU_OPS=a,b runs those ops' samples only, as the forward suite does)
    const only = process.env.TORCH_TS_WEBGPU_OPS?.split(',');
    const samples = only ? all.filter((s) => only.includes(s.op.name)) : all;

    describe('gradients on webgpu equal CPU (float32)', () => {
      it('lists only xfails of samples that exist', () => {
        expect(Object.keys(GRAD_XFAILS_WEBGPU).filter((k) => !ids.has(k) && !OP_TABLE.some((op) => op.name === k))).toEqual([]);
      });

      for (const s of samples) {
        const id = `${s.op.name}/${s.caseId}`;
        const xfail = GRAD_XFAILS_WEBGPU[id] ?? GRAD_XFAILS_WEBGPU[s.op.name];
        it(`${id}${xfail ? ` (xfail: ${xfail})` : ''}`, async () => {
          let problem: string | null;
          try {
            const cpu = await gradients(s, 'cpu');
            const gpu = await gradients(s, 'webgpu');
            problem = compare(cpu, gpu);
          } catch (e) {
            problem = `threw: ${(e as Error).message}`;
          }
          if (xfail) expect(problem, `${id} now matches on webgpu: remove its GRAD_XFAILS_WEBGPU entry`).not.toBeNull();
          else expect(problem).toBeNull();
        });
      }
    });

    describe('dropout on webgpu: the gradient is the mask it drew, scaled', () => {
      it('d sum(w * dropout(x)) / dx = w * (y != 0) / (1 - p)', async () => {
        const p = 0.3;
        const x = torch.rand([64, 33], { device: 'webgpu' }).add(0.5).requiresGrad_(true);
        const w = torch.randn([64, 33]).to('webgpu');
        const y = torch.nn.functional.dropout(x, { p });
        torch.mul(y, w).sum().backward();
        const [got, ys, ws] = await Promise.all([hostValues(x.grad!), hostValues(y), hostValues(w)]);
        let kept = 0;
        ys.forEach((v, i) => {
          const want = v !== 0 ? ws[i] / (1 - p) : 0;
          if (v !== 0) kept++;
          if (Math.abs(got[i] - want) > 1e-6 * Math.abs(want)) expect.fail(`element ${i}: ${got[i]} vs ${want}`);
        });
        expect(kept / ys.length).toBeGreaterThan(0.6); // ~70 % kept: the mask is not all ones or zeros
        expect(kept / ys.length).toBeLessThan(0.8);
      });
    });
  } else {
    console.warn('[grads-webgpu] SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');
    // Only a machine without any adapter gets here (TORCH_TS_REQUIRE_WEBGPU=1, as CI sets it,
    // makes init() throw instead): check that this, and not a failed initialisation, is why.
    it('has no WebGPU adapter here, the one reason this suite may not run', () => {
      expect(torch.webgpu.unavailableReason()).toBe('no WebGPU adapter was found');
    });
  }
}
