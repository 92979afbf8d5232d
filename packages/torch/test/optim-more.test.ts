import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/optim_more.json';
import { thrown } from './helpers';

const { optim } = torch;
const S = optim.lrScheduler;

interface G {
  shape: number[];
  dtype: string;
  values: number[];
}
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const t64 = (g: G) => torch.tensor(g.values, { dtype: 'float64' }).reshape(g.shape);
const camel = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()), v]));
type Ctor = new (p: unknown, o?: unknown) => torch.optim.Optimizer;
const ctor = (name: string) => (optim as unknown as Record<string, Ctor>)[name];

function setGrads(ps: torch.Tensor[], gs: torch.Tensor[]): void {
  let loss: torch.Tensor | null = null;
  ps.forEach((p, i) => {
    const term = p.mul(gs[i]).sum();
    loss = loss === null ? term : loss.add(term);
  });
  loss!.backward();
}

function closeTo(x: number, y: number, rtol: number, atol: number): boolean {
  return Math.abs(x - y) <= atol + rtol * Math.abs(y) || (Number.isNaN(x) && Number.isNaN(y));
}

/** A state dict (ours with tensors, or PyTorch's JSON) as JSON: tensors as nested lists. */
function toJson(v: unknown): Json {
  if (v instanceof torch.Tensor) return v.tolist() as Json;
  if (Array.isArray(v)) return v.map(toJson);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]));
  return v as Json;
}

/** Equal structure (same keys, lengths, types) and numbers within rtol. */
function expectSameJson(ours: Json, theirs: Json, rtol: number, path = '$'): void {
  if (typeof theirs === 'number') {
    if (typeof ours !== 'number' || !closeTo(ours, theirs, rtol, 1e-300)) expect.fail(`${path}: ${JSON.stringify(ours)} vs PyTorch ${theirs}`);
  } else if (Array.isArray(theirs)) {
    if (!Array.isArray(ours) || ours.length !== theirs.length) expect.fail(`${path}: ${JSON.stringify(ours)} vs PyTorch ${JSON.stringify(theirs)}`);
    theirs.forEach((x, i) => expectSameJson((ours as Json[])[i], x, rtol, `${path}[${i}]`));
  } else if (theirs !== null && typeof theirs === 'object') {
    if (ours === null || typeof ours !== 'object' || Array.isArray(ours)) expect.fail(`${path}: ${JSON.stringify(ours)} vs an object`);
    expect(Object.keys(ours).sort(), path).toEqual(Object.keys(theirs).sort());
    for (const k of Object.keys(theirs)) expectSameJson(ours[k], theirs[k], rtol, `${path}.${k}`);
  } else {
    expect(ours, path).toEqual(theirs);
  }
}

function expectValues(t: torch.Tensor, g: G, rtol: number, atol: number, label: string): void {
  expect(t.shape).toEqual(g.shape);
  const v = Array.from(t.dataSync() as Float64Array | Float32Array);
  v.forEach((x, i) => {
    if (!closeTo(x, g.values[i], rtol, atol)) expect.fail(`${label} element ${i}: ${x} vs PyTorch ${g.values[i]}`);
  });
}

/** PyTorch's state dict JSON as a dict to load: lists become tensors shaped as the parameter they belong to. */
function fromJson(sd: { state: Record<string, Record<string, Json>>; param_groups: Record<string, Json>[] }, ps: torch.Tensor[]): torch.optim.OptimizerStateDictInput {
  const state: Record<number, torch.optim.ParamState> = {};
  for (const [k, s] of Object.entries(sd.state)) {
    const p = ps[Number(k)];
    state[Number(k)] = Object.fromEntries(
      Object.entries(s).map(([key, v]) => [key, Array.isArray(v) ? torch.tensor(v as number[], { dtype: 'float64' }).reshape(p.shape) : (v as number)]),
    );
  }
  return { state, param_groups: sd.param_groups as (Record<string, unknown> & { params: number[] })[] };
}

describe('issue 18 optimizers equal PyTorch 1.13 after N steps', () => {
  const start = golden.start as G[];
  const grads = golden.grads as G[][];
  for (const c of golden.cases) {
    const label = `${c.optimizer} ${JSON.stringify(c.options)}`;
    it(label, () => {
      const stepWith = (opt: torch.optim.Optimizer, ps: torch.Tensor[], k: number, dtype: torch.DType) => {
        opt.zeroGrad();
        setGrads(ps, grads[k].map((g) => t64(g).to(dtype)));
        opt.step();
      };
      // float64: every step, and the state dict at the split equal to PyTorch's JSON
      const ps = start.map((s) => t64(s).requiresGrad_(true));
      const opt = new (ctor(c.optimizer))(ps, camel(c.options));
      for (let k = 0; k < grads.length; k++) {
        stepWith(opt, ps, k, 'float64');
        if (k + 1 === golden.split) expectSameJson(toJson(opt.stateDict()), c.split.stateDict as unknown as Json, 1e-12);
      }
      ps.forEach((p, i) => expectValues(p, c.float64[i] as G, 1e-12, 1e-14, `${label} float64`));
      // float32 (rounding-level differences from PyTorch's kernels)
      const p32 = start.map((s) => t64(s).to('float32').requiresGrad_(true));
      const opt32 = new (ctor(c.optimizer))(p32, camel(c.options));
      for (let k = 0; k < grads.length; k++) stepWith(opt32, p32, k, 'float32');
      p32.forEach((p, i) => expectValues(p, c.float32[i] as G, 2e-6, 1e-7, `${label} float32`));
      // PyTorch's state dict at the split loads here (into an optimizer with other options) and continues identically
      const q = (c.split.params as G[]).map((g) => t64(g).requiresGrad_(true));
      const resumed = new (ctor(c.optimizer))(q, { lr: 0.5 });
      resumed.loadStateDict(fromJson(c.split.stateDict as never, q));
      for (let k = golden.split; k < grads.length; k++) stepWith(resumed, q, k, 'float64');
      q.forEach((p, i) => expectValues(p, c.float64[i] as G, 1e-12, 1e-14, `${label} resumed`));
    });
  }

  it('errors as PyTorch: bad lr, betas, eps, rho, momentum_decay, LBFGS groups', () => {
    const w = () => [torch.zeros(2, { requiresGrad: true })];
    const e = golden.errors as Record<string, string>;
    const cases: [string, () => unknown][] = [
      ['Adamax lr', () => new optim.Adamax(w(), { lr: -0.5 })],
      ['Adamax eps', () => new optim.Adamax(w(), { eps: -0.5 })],
      ['Adamax betas0', () => new optim.Adamax(w(), { betas: [1.5, 0.9] })],
      ['Adamax betas1', () => new optim.Adamax(w(), { betas: [0.5, 1.5] })],
      ['Adamax weight_decay', () => new optim.Adamax(w(), { weightDecay: -0.5 })],
      ['Adadelta lr', () => new optim.Adadelta(w(), { lr: -0.5 })],
      ['Adadelta rho', () => new optim.Adadelta(w(), { rho: 1.5 })],
      ['Adadelta eps', () => new optim.Adadelta(w(), { eps: -0.5 })],
      ['Adadelta weight_decay', () => new optim.Adadelta(w(), { weightDecay: -0.5 })],
      ['NAdam lr', () => new optim.NAdam(w(), { lr: -0.5 })],
      ['NAdam betas0', () => new optim.NAdam(w(), { betas: [1.5, 0.9] })],
      ['NAdam momentum_decay', () => new optim.NAdam(w(), { momentumDecay: -0.5 })],
      ['RAdam eps', () => new optim.RAdam(w(), { eps: -0.5 })],
      ['RAdam betas1', () => new optim.RAdam(w(), { betas: [0.5, 1.5] })],
      ['RAdam weight_decay', () => new optim.RAdam(w(), { weightDecay: -0.5 })],
      ['LBFGS groups', () => new optim.LBFGS([{ params: w() }, { params: w() }])],
      ['ConstantLR factor', () => new S.ConstantLR(new optim.SGD(w(), 0.1), { factor: 1.5 })],
      ['CyclicLR momentum', () => new S.CyclicLR(new optim.Adam(w()), 0.01, 0.1)],
      ['CyclicLR mode', () => new S.CyclicLR(new optim.SGD(w(), { lr: 0.1, momentum: 0.9 }), 0.01, 0.1, { mode: 'square' as never })],
      ['LambdaLR count', () => new S.LambdaLR(new optim.SGD(w(), 0.1), [() => 1, () => 1])],
      ['Rprop lr', () => new optim.Rprop(w(), { lr: -0.5 })],
      ['Rprop etas', () => new optim.Rprop(w(), { etas: [0.5, 0.9] })],
      ['ASGD lr', () => new optim.ASGD(w(), { lr: -0.5 })],
      ['ASGD weight_decay', () => new optim.ASGD(w(), { weightDecay: -0.5 })],
      ['CosineAnnealingWarmRestarts T_0', () => new S.CosineAnnealingWarmRestarts(new optim.SGD(w(), 0.1), 0)],
      ['CosineAnnealingWarmRestarts T_0 float', () => new S.CosineAnnealingWarmRestarts(new optim.SGD(w(), 0.1), 2.5)],
      ['CosineAnnealingWarmRestarts T_mult', () => new S.CosineAnnealingWarmRestarts(new optim.SGD(w(), 0.1), 3, 0)],
      ['CosineAnnealingWarmRestarts epoch', () => new S.CosineAnnealingWarmRestarts(new optim.SGD(w(), 0.1), 3).step(-1)],
    ];
    for (const [k, f] of cases) {
      const err = thrown(f);
      expect(err, k).toBeInstanceOf(torch.TorchError);
      expect(err.message, k).toBe(e[k]);
    }
    // 1.13 has no `maximize` for NAdam/RAdam and no `decoupled_weight_decay`: unknown keywords
    expect(thrown(() => new optim.NAdam(w(), { maximize: true } as never))).toBeInstanceOf(torch.TorchTypeError);
    expect(thrown(() => new optim.RAdam(w(), { decoupledWeightDecay: true } as never))).toBeInstanceOf(torch.TorchTypeError);
    expect(thrown(() => new optim.LBFGS(w()).step()).message).toMatch(/^LBFGS.step\(\)/);
  });
});

describe('LBFGS on Rosenbrock equals PyTorch 1.13', () => {
  for (const c of golden.lbfgs) {
    it(JSON.stringify(c.options), () => {
      const x = torch.tensor([-1.5, 2.0], { dtype: 'float64', requiresGrad: true });
      const opt = new optim.LBFGS([x], camel(c.options));
      let calls = 0;
      const closure = () => {
        opt.zeroGrad();
        const a = x.select(0, 0);
        const b = x.select(0, 1);
        const loss = a.neg().add(1).pow(2).add(b.sub(a.pow(2)).pow(2).mul(100));
        loss.backward();
        calls++;
        return loss;
      };
      for (const s of c.steps) {
        const loss = opt.step(closure) as torch.Tensor;
        expect(closeTo(Number(loss.item()), s.loss, 1e-12, 1e-300), `loss ${String(loss.item())} vs ${s.loss}`).toBe(true);
        const xs = x.tolist() as number[];
        xs.forEach((v, i) => expect(closeTo(v, s.x[i], 1e-13, 1e-300), `x ${v} vs ${s.x[i]}`).toBe(true));
        expect(calls).toBe(s.closureCalls);
      }
      // the whole state (history, al, ro, H_diag, t, prev_flat_grad, counters) is PyTorch's
      expectSameJson(toJson(opt.stateDict()), c.stateDict as Json, 1e-12);
    });
  }
});

describe('issue 18 schedulers equal PyTorch 1.13', () => {
  const g = golden.schedulers as Record<string, { lrs: number[]; lastLr: number[]; momenta?: number[] }>;
  type Sched = { step(): void; getLastLr(): number[] };
  const makers: Record<string, (o: torch.optim.Optimizer) => Sched> = {
    'LambdaLR(0.95**e)': (o) => new S.LambdaLR(o, (e) => 0.95 ** e),
    'MultiplicativeLR(0.9)': (o) => new S.MultiplicativeLR(o, () => 0.9),
    'ConstantLR(0.5,4)': (o) => new S.ConstantLR(o, { factor: 0.5, totalIters: 4 }),
    'PolynomialLR(8,2.0)': (o) => new S.PolynomialLR(o, { totalIters: 8, power: 2.0 }),
    'CyclicLR(triangular)': (o) => new S.CyclicLR(o, 0.01, 0.1, { stepSizeUp: 4, stepSizeDown: 6 }),
    'CyclicLR(triangular2)': (o) => new S.CyclicLR(o, 0.01, 0.1, { stepSizeUp: 3, mode: 'triangular2', baseMomentum: 0.7, maxMomentum: 0.95 }),
    'CyclicLR(exp_range)': (o) => new S.CyclicLR(o, 0.01, 0.1, { stepSizeUp: 5, mode: 'exp_range', gamma: 0.9 }),
    'CyclicLR(Adam,no momentum)': (o) => new S.CyclicLR(o, 0.001, 0.01, { stepSizeUp: 4, cycleMomentum: false }),
    'SequentialLR(Constant,Exponential,[5])': (o) => new S.SequentialLR(o, [new S.ConstantLR(o, { factor: 0.1, totalIters: 2 }), new S.ExponentialLR(o, 0.9)], [5]),
    'SequentialLR(Linear,Step,Cosine,[4,12])': (o) =>
      new S.SequentialLR(o, [new S.LinearLR(o, 0.2, { totalIters: 4 }), new S.StepLR(o, 3, 0.5), new S.CosineAnnealingLR(o, 10, 0.001)], [4, 12]),
    'ChainedScheduler(Constant,Exponential)': (o) => new S.ChainedScheduler([new S.ConstantLR(o, { factor: 0.1, totalIters: 4 }), new S.ExponentialLR(o, 0.9)]),
    'CosineAnnealingWarmRestarts(4)': (o) => new S.CosineAnnealingWarmRestarts(o, 4),
    'CosineAnnealingWarmRestarts(3,2,0.001)': (o) => new S.CosineAnnealingWarmRestarts(o, { T0: 3, TMult: 2, etaMin: 0.001 }),
  };
  const close = (a: number[], b: number[]) => {
    expect(a.length).toBe(b.length);
    a.forEach((x, i) => expect(closeTo(x, b[i], 1e-13, 1e-15), `${i}: ${x} vs ${b[i]}`).toBe(true));
  };
  it('lr (and momentum) sequences over 30 steps', () => {
    expect(Object.keys(makers).sort()).toEqual(Object.keys(g).sort());
    for (const [key, make] of Object.entries(makers)) {
      const p = torch.zeros(1, { requiresGrad: true });
      const opt = key.includes('Adam') ? new optim.Adam([p], { lr: 0.1 }) : new optim.SGD([p], { lr: 0.1, momentum: 0.9 });
      const s = make(opt);
      const lrs = [opt.paramGroups[0].lr];
      const moms = [opt.paramGroups[0].momentum as number];
      for (let i = 0; i < g[key].lrs.length - 1; i++) {
        opt.step();
        s.step();
        lrs.push(opt.paramGroups[0].lr);
        moms.push(opt.paramGroups[0].momentum as number);
      }
      close(lrs, g[key].lrs);
      close(s.getLastLr(), g[key].lastLr);
      if (g[key].momenta) close(moms, g[key].momenta);
    }
  });

  it('CosineAnnealingWarmRestarts: step(epoch + i / iters) per batch and the interleaved step() / step(26), as PyTorch', () => {
    const wr = golden.warmRestarts as Record<string, { epochs: (number | null)[]; after: number[][] }>;
    for (const [key, c] of Object.entries(wr)) {
      const opt = new optim.SGD([torch.zeros(1, { requiresGrad: true })], { lr: 0.1, momentum: 0.9 });
      const s = new S.CosineAnnealingWarmRestarts(opt, 3, key === 'T_mult=1' ? 1 : 2, 0.001);
      c.epochs.forEach((e, i) => {
        s.step(e);
        const [lr, lastEpoch, TCur, Ti] = c.after[i];
        expect(closeTo(opt.paramGroups[0].lr, lr, 1e-13, 1e-15), `${key} step ${i} (epoch ${e}): lr ${opt.paramGroups[0].lr} vs ${lr}`).toBe(true);
        expect([s.lastEpoch, s.Ti], `${key} step ${i}`).toEqual([lastEpoch, Ti]);
        expect(closeTo(s.TCur, TCur, 1e-13, 1e-15), `${key} step ${i}: T_cur ${s.TCur} vs ${TCur}`).toBe(true);
      });
    }
  });

  it('scheduler state dicts are PyTorch’s and load back', () => {
    const sd = golden.schedulerStateDicts as unknown as Record<string, { stateDict: Json; optimizer: Json }>;
    const steps: Record<string, [number, (o: torch.optim.Optimizer) => { step(): void; stateDict(): Record<string, unknown>; loadStateDict(s: Record<string, unknown>): void }]> = {
      'StepLR(3,0.5)': [7, (o) => new S.StepLR(o, 3, 0.5)],
      'MultiStepLR([2,5,5],0.1)': [6, (o) => new S.MultiStepLR(o, [2, 5, 5], 0.1)],
      'CosineAnnealingLR(5,0.01)': [4, (o) => new S.CosineAnnealingLR(o, 5, 0.01)],
      'LambdaLR(0.95**e)': [5, (o) => new S.LambdaLR(o, (e) => 0.95 ** e)],
      'PolynomialLR(8,2.0)': [5, (o) => new S.PolynomialLR(o, 8, 2.0)],
      'ChainedScheduler(Constant,Exponential)': [5, (o) => new S.ChainedScheduler([new S.ConstantLR(o, { factor: 0.1, totalIters: 4 }), new S.ExponentialLR(o, 0.9)])],
      'SequentialLR(Constant,Exponential,[5])': [7, (o) => new S.SequentialLR(o, [new S.ConstantLR(o, { factor: 0.1, totalIters: 2 }), new S.ExponentialLR(o, 0.9)], [5])],
      'CosineAnnealingWarmRestarts(3,2,0.001)': [5, (o) => new S.CosineAnnealingWarmRestarts(o, 3, 2, 0.001)],
    };
    for (const mode of ['min', 'max'] as const) {
      const key = `ReduceLROnPlateau(${mode})`;
      const make = () =>
        new S.ReduceLROnPlateau(new optim.SGD([torch.zeros(1, { requiresGrad: true })], { lr: 0.1, momentum: 0.9 }), { mode, patience: 1, factor: 0.5, cooldown: 1, minLr: 0.01 });
      const s = make();
      const metrics = (sd[key] as unknown as { metrics: number[] }).metrics;
      for (const m of metrics) s.step(m);
      const inf = (v: unknown) => (v === Infinity ? 'inf' : v === -Infinity ? '-inf' : v);
      const ours = Object.fromEntries(Object.entries(s.stateDict()).map(([k, v]) => [k, inf(v)]));
      expectSameJson(toJson(ours), sd[key].stateDict, 1e-13, key);
      const s2 = make();
      s2.optimizer.loadStateDict(s.optimizer.stateDict());
      s2.loadStateDict(sd[key].stateDict as Record<string, unknown>);
      for (const m of [0.7, 0.8, 0.9, 1.0, 0.1]) {
        s.step(m);
        s2.step(m);
        expect(s2.getLastLr(), key).toEqual(s.getLastLr());
        expect(s2.inCooldown).toBe(s.inCooldown);
      }
    }
    for (const [key, [n, make]] of Object.entries(steps)) {
      const opt = new optim.SGD([torch.zeros(1, { requiresGrad: true })], { lr: 0.1, momentum: 0.9 });
      const s = make(opt);
      for (let i = 0; i < n; i++) {
        opt.step();
        s.step();
      }
      expectSameJson(toJson(s.stateDict()), sd[key].stateDict, 1e-13, key);
      expectSameJson(toJson(opt.stateDict()), sd[key].optimizer, 1e-13, `${key} optimizer`);
      // PyTorch's dicts load into a fresh pair, which then steps on as the original
      const opt2 = new optim.SGD([torch.zeros(1, { requiresGrad: true })], { lr: 0.1, momentum: 0.9 });
      const s2 = make(opt2);
      opt2.loadStateDict(sd[key].optimizer as never);
      s2.loadStateDict(JSON.parse(JSON.stringify(sd[key].stateDict)) as Record<string, unknown>);
      for (let i = 0; i < 5; i++) {
        s.step();
        s2.step();
        expect(opt2.paramGroups[0].lr, key).toBe(opt.paramGroups[0].lr);
      }
    }
  });
});
