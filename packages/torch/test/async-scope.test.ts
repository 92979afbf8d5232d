/**
 * `torch.tidyAsync` (core Note [Async scopes]) through the facade, which registers Node's
 * AsyncLocalStorage: interleaved concurrent scopes on CPU and WebGPU (reads pending while
 * another scope disposes), errors and rejections, and a 1,000-step async training loop on
 * WebGPU whose memory counters stay flat. WebGPU cases are skipped without an adapter unless
 * TORCH_TS_REQUIRE_WEBGPU=1 makes that an error (`webgpu.init` throws).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';

const F = torch.nn.functional;
const webgpu = await torch.webgpu.init();
if (!webgpu) console.warn('[async-scope] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');
const devices: ('cpu' | 'webgpu')[] = webgpu ? ['cpu', 'webgpu'] : ['cpu'];

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

async function settle(device: 'cpu' | 'webgpu'): Promise<void> {
  if (device === 'webgpu') await torch.webgpu.synchronize();
}

function live(device: 'cpu' | 'webgpu') {
  const s = torch.memory.stats(device);
  return { tensors: s.liveTensors, bytes: s.liveBytes, storages: s.liveStorages };
}

/** The values of `x` computed on the CPU in float64, as a plain reference. */
function ref(xs: number[], f: (v: number) => number): number[] {
  return xs.map(f);
}

it('the facade registers AsyncLocalStorage under Node', () => {
  expect(torch.asyncScopeTracking()).toBe('async-context');
});

for (const device of devices) {
  describe(`tidyAsync on ${device}`, () => {
    it('interleaved scopes: each disposes only its own tensors, reads pending in one while another disposes', async () => {
      await settle(device);
      const before = live(device);
      const data = Array.from({ length: 64 }, (_, i) => (i - 32) / 16); // exp(2x) <= e^4: float32 keeps sin of it to 1e-5
      const madeA: torch.Tensor[] = [];
      const madeB: torch.Tensor[] = [];
      let bSettled = false;
      const a = torch.tidyAsync(async () => {
        const x = torch.tensor(data, { device });
        const y = x.mul(2).exp(); // temporaries: disposed when A settles
        madeA.push(x, y);
        await tick(); // B runs, makes tensors and settles while A is suspended
        const pending = y.sin().data(); // a read in flight...
        await tick();
        expect(bSettled).toBe(true); // ...while B's scope has disposed everything of its own
        expect(madeA.every((t) => !t.isDisposed)).toBe(true);
        const got = Array.from((await pending) as Float32Array);
        return { got, keep: y.add(1) };
      });
      const b = torch.tidyAsync(async () => {
        const z = torch.ones([1024], { device }).mul(3);
        madeB.push(z);
        const r = z.sum(); // B's own read pending while B disposes its other tensors at settle
        const p = r.data();
        await tick();
        madeB.push(z.neg());
        bSettled = true;
        return p; // the body settles when its read does
      });
      const [ra, rb] = await Promise.all([a, b]);
      expect(Array.from(rb as Float32Array)).toEqual([3072]);
      expect(madeB.every((t) => t.isDisposed)).toBe(true);
      expect(madeA.every((t) => t.isDisposed)).toBe(true);
      const want = ref(data, (v) => Math.sin(Math.exp(2 * v)));
      ra.got.forEach((v, i) => expect(v).toBeCloseTo(want[i], 4));
      const kept = Array.from((await ra.keep.data()) as Float32Array);
      kept.forEach((v, i) => expect(v).toBeCloseTo(Math.exp(2 * data[i]) + 1, 4));
      ra.keep.dispose();
      await settle(device);
      expect(live(device)).toEqual(before);
    });

    it('a body disposes a tensor whose read it started and did not await: the read still gives the values', async () => {
      await settle(device);
      const before = live(device);
      let read: Promise<unknown> | null = null;
      await torch.tidyAsync(async () => {
        await tick();
        const x = torch.arange(0, 8, { device }).to('float32').square();
        read = x.data();
        return null; // x is disposed now, with its read in flight
      });
      expect(Array.from((await read!) as Float32Array)).toEqual([0, 1, 4, 9, 16, 25, 36, 49]);
      await settle(device);
      expect(live(device)).toEqual(before);
    });

    it('a failing op after an await rejects with the same error and releases the body\'s tensors', async () => {
      await settle(device);
      const before = live(device);
      let caught: unknown = null;
      const made: torch.Tensor[] = [];
      const p = torch.tidyAsync(async () => {
        made.push(torch.ones([2, 3], { device }));
        await tick();
        made.push(torch.ones([4], { device }));
        return made[0].add(made[1]); // a ShapeError, thrown inside the body
      });
      try {
        await p;
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(torch.ShapeError);
      expect((caught as Error).message).toMatch(/^add: /);
      expect(made.every((t) => t.isDisposed)).toBe(true);
      await settle(device);
      expect(live(device)).toEqual(before);
    });

    it('many concurrent bodies over the same inputs, each keeping one result', async () => {
      await settle(device);
      const before = live(device);
      const x = torch.linspace(-1, 1, 32, { device });
      const outs = await Promise.all(
        Array.from({ length: 12 }, (_, k) =>
          torch.tidyAsync(async () => {
            let h = x.mul(k);
            for (let s = 0; s < 3; s++) {
              await tick();
              h = h.add(1);
            }
            const total = await h.sum().itemAsync(); // every body reads while others dispose
            return { total, t: h.mul(1) };
          }),
        ),
      );
      outs.forEach(({ total }) => expect(total).toBeCloseTo(32 * 3, 3)); // sum(linspace(-1, 1, 32)) = 0
      for (const o of outs) o.t.dispose();
      x.dispose();
      await settle(device);
      expect(live(device)).toEqual(before);
    });
  });
}

describe.skipIf(!webgpu)('a 1,000-step async training loop on WebGPU', () => {
  it('memory.stats stays flat with tidyAsync around each step, while another async loop interleaves', async () => {
    torch.manualSeed(0);
    const model = new torch.nn.Sequential(new torch.nn.Linear(8, 16), new torch.nn.ReLU(), new torch.nn.Linear(16, 4));
    const onCpu = [...model.parameters()];
    model.to('webgpu');
    for (const p of onCpu) p.dispose();
    const opt = new torch.optim.SGD(model.parameters(), { lr: 0.1 });
    const [x, y] = torch.tidy(() => {
      const g = new torch.Generator().manualSeed(1);
      const xs = torch.randn([32, 8], { generator: g });
      const ys = xs.index('...', 0).gt(0).to('int64').mul(2).add(xs.index('...', 1).gt(0).to('int64'));
      return [xs.to('webgpu'), ys.to('webgpu')] as const;
    });
    const STEPS = 1000;
    const losses: number[] = [];
    const snapshots = new Map<number, ReturnType<typeof torch.memory.stats>>();
    let training = true;
    // a second async body that runs between the training steps' awaits: its own tensors
    // and reads, checked against a plain reference. Snapshots are taken while it waits at
    // its idle point (between two of its scopes), so its own live tensors are not counted.
    const gate: { pause: Promise<void> | null; idle: (() => void) | null } = { pause: null, idle: null };
    const side = (async () => {
      let rounds = 0;
      while (training) {
        if (gate.pause) {
          gate.idle?.();
          await gate.pause;
        }
        const ok = await torch.tidyAsync(async () => {
          const v = torch.arange(0, 16, { device: 'webgpu' }).to('float32');
          await tick();
          const s = await v.square().sum().itemAsync();
          return s === 1240;
        });
        expect(ok).toBe(true);
        rounds++;
      }
      return rounds;
    })();
    for (let i = 1; i <= STEPS; i++) {
      const loss = await torch.tidyAsync(async () => {
        const l = F.crossEntropy(model(x), y);
        opt.zeroGrad();
        l.backward();
        await tick(); // the side loop runs here, in the middle of the step
        opt.step();
        return l.itemAsync(); // every step crosses an await on a device read
      });
      losses.push(Number(loss));
      if (i === 100 || i % 300 === 0 || i === STEPS) {
        let resume!: () => void;
        const reachedIdle = new Promise<void>((r) => (gate.idle = r));
        gate.pause = new Promise<void>((r) => (resume = r));
        await reachedIdle;
        await torch.webgpu.synchronize();
        snapshots.set(i, torch.memory.stats('webgpu'));
        gate.pause = null;
        gate.idle = null;
        resume();
      }
    }
    training = false;
    const rounds = await side;
    await torch.webgpu.synchronize();
    console.log(`[async-scope] 1,000 async steps; loss ${losses[0].toFixed(4)} -> ${losses[STEPS - 1].toFixed(4)}; ${rounds} interleaved side rounds`);
    expect(rounds).toBeGreaterThan(100);
    expect(losses[STEPS - 1]).toBeLessThan(losses[0] * 0.5);
    const at100 = snapshots.get(100)!;
    for (const [i, s] of snapshots) {
      if (i === 100) continue;
      expect({ i, bytes: s.liveBytes, tensors: s.liveTensors, storages: s.liveStorages, reserved: s.reservedBytes }).toEqual({
        i,
        bytes: at100.liveBytes,
        tensors: at100.liveTensors,
        storages: at100.liveStorages,
        reserved: at100.reservedBytes,
      });
    }
    x.dispose();
    y.dispose();
  }, 900_000);
});
