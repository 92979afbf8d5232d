/**
 * Recurrent layers on WebGPU (issue 18): the layers are composites of ordinary ops (Note
 * [Recurrent cells are composites]), so they run on WebGPU with no kernel of their own. The
 * same PyTorch goldens as nn-rnn.test.ts (those without dropout: WebGPU's generator is not
 * PyTorch's CPU one), an LSTM on an unsorted PackedSequence, and the 2-layer LSTM language model's five Adam steps, in float32 on
 * device 'webgpu'. Tolerances: see `TOL` below.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { GoldenTensor as G } from './layer-goldens';
import golden from './goldens/nn_rnn.json';

const { nn } = torch;


const onDevice = (g: G) => torch.tensor(g.values, { dtype: 'float32' }).reshape(g.shape).to('webgpu');

/**
 * The CPU tests' float32 tolerances (PyTorch's own: rtol 1.3e-6, atol 1e-5). WGSL allows
 * `exp`, `tanh` and division a few ulp of error and fused multiply-adds, so the recurrence is
 * not bit-exact here; on SwiftShader the outputs, states, every gradient and the language
 * model's five losses and final weights all stay within these bounds, so the WebGPU runs
 * are held to the same bar as the CPU's.
 */
const TOL = { rtol: 1.3e-6, atol: 1e-5 };

async function expectClose(t: torch.Tensor, g: G, what: string, rtol = TOL.rtol, atol = TOL.atol): Promise<void> {
  expect(t.device.type, what).toBe('webgpu');
  expect(t.shape, what).toEqual(g.shape);
  const v = Array.from((await t.data()) as Float32Array, Number);
  v.forEach((x, i) => {
    if (!(Math.abs(x - g.values[i]) <= atol + rtol * Math.abs(g.values[i]))) expect.fail(`${what}[${i}]: ${x} vs PyTorch ${g.values[i]}`);
  });
}

interface Case {
  x: G;
  h0?: G;
  c0?: G;
  y: G;
  r: G;
  hn: G;
  rh: G;
  cn?: G;
  rc?: G;
  state: Record<string, G>;
  grads: Record<string, G>;
  xGrad: G;
  h0Grad?: G;
  c0Grad?: G;
}

const R = golden.rnns as Record<string, Case>;
const cases: Record<string, [number, () => torch.nn.RNNBase]> = {
  'RNN(4,3,2,relu,bias=False) h0': [701, () => new nn.RNN(4, 3, 2, { nonlinearity: 'relu', bias: false })],
  'RNN(4,3,bidirectional,batch_first) h0': [702, () => new nn.RNN(4, 3, { batchFirst: true, bidirectional: true })],
  'LSTM(4,5,2,bidirectional) h0': [711, () => new nn.LSTM(4, 5, 2, { bidirectional: true })],
  'LSTM(4,5,2,proj_size=2,batch_first) h0': [712, () => new nn.LSTM(4, 5, 2, { batchFirst: true, projSize: 2 })],
  'LSTM(4,3) unbatched h0': [714, () => new nn.LSTM(4, 3)],
  'GRU(4,3,2,bidirectional,batch_first) h0': [721, () => new nn.GRU(4, 3, 2, { batchFirst: true, bidirectional: true })],
};

const ready = await torch.webgpu.init();
if (ready) {
  describe('RNN, LSTM and GRU on webgpu equal PyTorch (float32)', () => {
    for (const [name, [seed, make]] of Object.entries(cases)) {
      it(name, async () => {
        const c = R[name];
        torch.manualSeed(seed);
        const m = make().to('webgpu');
        const x = onDevice(c.x).requiresGrad_(true);
        const h0 = c.h0 ? onDevice(c.h0).requiresGrad_(true) : null;
        const c0 = c.c0 ? onDevice(c.c0).requiresGrad_(true) : null;
        let y: torch.Tensor;
        let hn: torch.Tensor;
        let cn: torch.Tensor | null = null;
        if (m instanceof nn.LSTM) [y, [hn, cn]] = m(x, h0 && c0 ? [h0, c0] : null);
        else [y, hn] = (m as torch.nn.RNN)(x, h0);
        let loss = y.mul(onDevice(c.r)).sum().add(hn.mul(onDevice(c.rh)).sum());
        if (cn !== null) loss = loss.add(cn.mul(onDevice(c.rc!)).sum());
        loss.backward();
        await expectClose(y, c.y, 'output');
        await expectClose(hn, c.hn, 'h_n');
        if (cn !== null) await expectClose(cn, c.cn!, 'c_n');
        for (const [k, p] of m.namedParameters()) await expectClose(p.grad!, c.grads[k], `grad ${k}`);
        await expectClose(x.grad!, c.xGrad, 'input grad');
        if (h0) await expectClose(h0.grad!, c.h0Grad!, 'h0 grad');
        if (c0) await expectClose(c0.grad!, c.c0Grad!, 'c0 grad');
      });
    }
  });

  describe('an LSTM on an unsorted PackedSequence on webgpu equals PyTorch', () => {
    it('LSTM(3,4,2,bidirectional,proj_size=2) unsorted h0', async () => {
      const c = (golden.packed as unknown as Record<string, Case & { lengths: number[]; outData: G; padded: G; padLengths: number[] }>)[
        'LSTM(3,4,2,bidirectional,proj_size=2) unsorted h0'
      ];
      torch.manualSeed(741);
      const m = new nn.LSTM(3, 4, 2, { bidirectional: true, projSize: 2 }).to('webgpu');
      const x = onDevice(c.x).requiresGrad_(true);
      const h0 = onDevice(c.h0!).requiresGrad_(true);
      const c0 = onDevice(c.c0!).requiresGrad_(true);
      const packed = nn.utils.rnn.packPaddedSequence(x, c.lengths, { enforceSorted: false });
      const [out, [hn, cn]] = m.forward(packed, [h0, c0]);
      const [padded, lens] = nn.utils.rnn.padPackedSequence(out, { paddingValue: -1.0, totalLength: Math.max(...c.lengths) + 1 });
      padded.mul(onDevice(c.r)).sum().add(hn.mul(onDevice(c.rh)).sum()).add(cn.mul(onDevice(c.rc!)).sum()).backward();
      await expectClose(out.data, c.outData, 'output data');
      await expectClose(padded, c.padded, 'padded output');
      expect(lens.tolist()).toEqual(c.padLengths);
      await expectClose(hn, c.hn, 'h_n');
      await expectClose(cn, c.cn!, 'c_n');
      for (const [k, p] of m.namedParameters()) await expectClose(p.grad!, c.grads[k], `grad ${k}`);
      await expectClose(x.grad!, c.xGrad, 'input grad');
      await expectClose(h0.grad!, c.h0Grad!, 'h0 grad');
      await expectClose(c0.grad!, c.c0Grad!, 'c0 grad');
    });
  });

  describe('a 2-layer LSTM language model trained five Adam steps on webgpu equals PyTorch', () => {
    class LM extends nn.Module {
      declare embed: torch.nn.Embedding;
      declare lstm: torch.nn.LSTM;
      declare head: torch.nn.Linear;
      constructor(vocab: number, emb: number, hidden: number) {
        super();
        this.embed = new nn.Embedding(vocab, emb);
        this.lstm = new nn.LSTM(emb, hidden, { numLayers: 2 });
        this.head = new nn.Linear(hidden, vocab);
      }
      override forward(tokens: torch.Tensor): torch.Tensor {
        const [out] = this.lstm(this.embed(tokens));
        return this.head(out);
      }
    }
    it('losses per step and final state', async () => {
      const g = golden.lm as { tokens: number[][]; losses: number[]; state: Record<string, G> };
      torch.manualSeed(800);
      const lm = new LM(11, 6, 8).to('webgpu'); // initialised on the CPU with PyTorch's draws, then moved
      const tokens = torch.tensor(g.tokens).to('webgpu');
      const inp = tokens.narrow(0, 0, 8);
      const tgt = tokens.narrow(0, 1, 8);
      const opt = new torch.optim.Adam(lm.parameters(), { lr: 0.02 });
      const losses: torch.Tensor[] = [];
      for (let i = 0; i < 5; i++) {
        opt.zeroGrad();
        const loss = torch.nn.functional.crossEntropy(lm(inp).reshape(-1, 11), tgt.reshape(-1));
        loss.backward();
        opt.step();
        losses.push(loss.detach());
      }
      for (let i = 0; i < 5; i++) expect(Math.abs(Number(await losses[i].itemAsync()) - g.losses[i]), `loss ${i}`).toBeLessThanOrEqual(TOL.atol);
      for (const [k, t] of lm.stateDict()) await expectClose(t, g.state[k], k);
    });
  });
}
