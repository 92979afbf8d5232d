/**
 * torch.distributions against PyTorch 1.13 (goldens/distributions.json, written by
 * scripts/goldens/distributions.py): shapes, repr, moments, entropy, logProb, cdf, icdf and
 * their gradients, seeded sample/rsample draws (PyTorch's own values: the CPU generator is
 * PyTorch's), KL divergences with gradients, and the validation errors.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '../src';
import type { Tensor } from '../src';

const D = torch.distributions;

interface Values {
  shape: number[];
  dtype: 'float32' | 'float64' | 'int64' | 'bool';
  values: (number | string | boolean)[];
}
type Maybe = { value: Values } | { error: string; message: string };
interface Point {
  value: Values;
  logProb: Values;
  grads: Record<string, Values | null>;
  cdf: Maybe;
}
interface Case {
  name: string;
  dist: string;
  dtype: 'float32' | 'float64';
  params: Record<string, Values>;
  kwparams: Record<string, Values>;
  batchShape: number[];
  eventShape: number[];
  repr: string;
  mean: Maybe;
  mode: Maybe;
  variance: Maybe;
  stddev: Maybe;
  entropy: Maybe;
  points: Point[];
  icdf: { value: Values; icdf: Maybe }[];
  samples: { seed: number; shape: number[]; sample: Values; rsample: Values | null; rsampleGrads: Record<string, Values | null> | null };
  expand: { batchShape: number[]; mean: Maybe };
}
interface Golden {
  cases: Case[];
  kl: { name: string; args: Values[]; kl: Values; grads: (Values | null)[] }[];
  errors: Record<string, { type: string; message: string }>;
  gammaGrads: { alpha: number; x: number; exact: number; pytorch: number }[];
  draws: { fn: '_standard_gamma' | 'poisson' | '_sample_dirichlet' | 'binomial'; dtype: 'float32' | 'float64' | 'float16' | 'bfloat16'; input: Values; prob?: Values; expand: number[] | null; values?: Values; error?: string }[];
}

const G: Golden = JSON.parse(readFileSync(new URL('./goldens/distributions.json', import.meta.url), 'utf8'));

const num = (v: number | string | boolean): number => (typeof v === 'number' ? v : v === 'nan' ? Number.NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : Number(v));

function make(v: Values, requiresGrad = false): Tensor {
  const t = torch.tensor(v.values.map(num), { dtype: v.dtype }).reshape(v.shape);
  return requiresGrad ? t.requiresGrad_() : t;
}

/** Values equal within the dtype's tolerance (NaN equal to NaN, infinities exactly). */
function expectClose(got: Tensor, want: Values, what: string, rtol?: number): void {
  expect(got.shape, `${what}: shape`).toEqual(want.shape);
  const g = (got.flatten().tolist() as (number | boolean)[]).map(Number);
  const w = want.values.map(num);
  const tol = rtol !== undefined ? { rtol, atol: 1e-12 } : got.dtype === 'float32' ? { rtol: 2e-6, atol: 1e-6 } : { rtol: 1e-12, atol: 1e-12 };
  g.forEach((x, i) => {
    const y = w[i];
    if (Number.isNaN(y) || !Number.isFinite(y)) expect(x, `${what}[${i}]`).toBe(y);
    else expect(Math.abs(x - y), `${what}[${i}]: got ${x}, expected ${y}`).toBeLessThanOrEqual(tol.atol + tol.rtol * Math.abs(y));
  });
}

type Dist = InstanceType<typeof D.Distribution>;

/**
 * Gradients of samples that torch-ts computes otherwise than PyTorch (Note [Reparameterised
 * Gamma-family samples]): Gamma's and Chi2's by the exact implicit derivative, where PyTorch's
 * approximation is within 2e-3 (relative); Dirichlet's and Beta's pathwise through the Gamma
 * draws, an estimator with the same expectation but other values (test below).
 */
const RSAMPLE_GRAD_TOLERANCE: Readonly<Record<string, number | 'pathwise'>> = { Gamma: 3e-3, Chi2: 3e-3, Dirichlet: 'pathwise', Beta: 'pathwise' };

function build(c: Case): { d: Dist; leaves: Record<string, Tensor> } {
  const leaves: Record<string, Tensor> = {};
  for (const [k, v] of [...Object.entries(c.params), ...Object.entries(c.kwparams)]) leaves[k] = make(v, true);
  const p = Object.values(leaves);
  switch (c.dist) {
    case 'Normal':
      return { d: new D.Normal(p[0], p[1]), leaves };
    case 'Uniform':
      return { d: new D.Uniform(p[0], p[1]), leaves };
    case 'Exponential':
      return { d: new D.Exponential(p[0]), leaves };
    case 'Laplace':
      return { d: new D.Laplace(p[0], p[1]), leaves };
    case 'LogNormal':
      return { d: new D.LogNormal(p[0], p[1]), leaves };
    case 'Bernoulli':
      return { d: new D.Bernoulli(leaves), leaves };
    case 'Categorical':
      return { d: new D.Categorical(leaves), leaves };
    case 'OneHotCategorical':
      return { d: new D.OneHotCategorical(leaves), leaves };
    case 'Gamma':
      return { d: new D.Gamma(p[0], p[1]), leaves };
    case 'Chi2':
      return { d: new D.Chi2(p[0]), leaves };
    case 'Beta':
      return { d: new D.Beta(p[0], p[1]), leaves };
    case 'Dirichlet':
      return { d: new D.Dirichlet(p[0]), leaves };
    case 'Poisson':
      return { d: new D.Poisson(p[0]), leaves };
    case 'MultivariateNormal': {
      const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      const [name, m] = Object.entries(leaves).find(([k]) => k !== 'loc')!;
      return { d: new D.MultivariateNormal(leaves.loc, { [camel(name)]: m }), leaves };
    }
    case 'Binomial': {
      const { total_count: totalCount, ...rest } = leaves;
      return { d: new D.Binomial({ totalCount: totalCount.detach(), ...rest }), leaves: rest };
    }
    default:
      throw new Error(`no such distribution in the test: ${c.dist}`);
  }
}

function check(got: () => Tensor, want: Maybe, what: string): void {
  if ('value' in want) expectClose(got(), want.value, what);
  else expect(got, what).toThrow(torch.NotImplementedError);
}

function expectGrads(out: Tensor, leaves: Record<string, Tensor>, want: Record<string, Values | null>, what: string, rtol?: number): void {
  const names = Object.keys(leaves);
  const grads = torch.autograd.grad(out, names.map((n) => leaves[n]), { allowUnused: true, retainGraph: true });
  names.forEach((n, i) => {
    const w = want[n];
    const g = grads[i];
    if (w === null || w === undefined) expect(g === null || (g.abs().max().item() as number) === 0, `${what}: d/d${n} is none`).toBe(true);
    else expectClose(g ?? torch.zeros(w.shape, { dtype: leaves[n].dtype }), w, `${what}: d/d${n}`, rtol);
  });
}

describe('torch.distributions against PyTorch', () => {
  for (const c of G.cases) {
    describe(`${c.name} (${c.dtype})`, () => {
      it('shapes, repr, moments and entropy', () => {
        const { d } = build(c);
        expect(d.batchShape).toEqual(c.batchShape);
        expect(d.eventShape).toEqual(c.eventShape);
        expect(String(d)).toBe(c.repr);
        check(() => d.mean, c.mean, 'mean');
        check(() => d.mode, c.mode, 'mode');
        check(() => d.variance, c.variance, 'variance');
        check(() => d.stddev, c.stddev, 'stddev');
        check(() => d.entropy(), c.entropy, 'entropy');
        const e = d.expand([2, ...d.batchShape]);
        expect(e.batchShape).toEqual(c.expand.batchShape);
        check(() => e.mean, c.expand.mean, 'expand(...).mean');
      });

      it('logProb, cdf and icdf, and the gradients of logProb', () => {
        const { d, leaves } = build(c);
        for (const [k, p] of c.points.entries()) {
          const v = make(p.value);
          const lp = d.logProb(v);
          expectClose(lp, p.logProb, `logProb #${k}`);
          expectGrads(lp.sum(), leaves, p.grads, `logProb #${k}`);
          check(() => d.cdf(v), p.cdf, `cdf #${k}`);
        }
        for (const q of c.icdf) check(() => d.icdf(make(q.value)), q.icdf, 'icdf');
      });

      it("samples as PyTorch's for the same seed, and the gradient of rsample", () => {
        const { d, leaves } = build(c);
        torch.manualSeed(c.samples.seed);
        const s = d.sample(c.samples.shape);
        expect(s.requiresGrad).toBe(false);
        expectClose(s, c.samples.sample, 'sample');
        if (c.samples.rsample === null) {
          expect(d.hasRsample).toBe(false);
          expect(() => d.rsample([1])).toThrow(torch.NotImplementedError);
          return;
        }
        const r = d.rsample(c.samples.shape);
        expectClose(r, c.samples.rsample, 'rsample');
        const tol = RSAMPLE_GRAD_TOLERANCE[c.dist];
        if (tol === undefined) expectGrads(r.sum(), leaves, c.samples.rsampleGrads ?? {}, 'rsample');
        else if (typeof tol === 'number') expectGrads(r.sum(), leaves, c.samples.rsampleGrads ?? {}, 'rsample', tol);
      });
    });
  }
});

describe('klDivergence against PyTorch', () => {
  const makeKl: Record<string, (a: Tensor[]) => [Dist, Dist]> = {
    normal: ([l1, s1, l2, s2]) => [new D.Normal(l1, s1), new D.Normal(l2, s2)],
    laplace: ([l1, s1, l2, s2]) => [new D.Laplace(l1, s1), new D.Laplace(l2, s2)],
    uniform: ([a, b, c, d]) => [new D.Uniform(a, b), new D.Uniform(c, d)],
    exponential: ([r1, r2]) => [new D.Exponential(r1), new D.Exponential(r2)],
    bernoulli: ([p1, p2]) => [new D.Bernoulli(p1), new D.Bernoulli(p2)],
    'bernoulli-q-edge': ([p1, p2]) => [new D.Bernoulli(p1), new D.Bernoulli(p2)],
    categorical: ([p1, p2]) => [new D.Categorical(p1), new D.Categorical(p2)],
    'categorical-q-zero': ([p1, p2]) => [new D.Categorical(p1), new D.Categorical(p2)],
    onehot: ([p1, p2]) => [new D.OneHotCategorical(p1), new D.OneHotCategorical(p2)],
    'independent-normal': ([l1, s1, l2, s2]) => [new D.Independent(new D.Normal(l1, s1), 1), new D.Independent(new D.Normal(l2, s2), 1)],
    lognormal: ([l1, s1, l2, s2]) => [new D.LogNormal(l1, s1), new D.LogNormal(l2, s2)],
    gamma: ([a1, r1, a2, r2]) => [new D.Gamma(a1, r1), new D.Gamma(a2, r2)],
    binomial: ([n1, p1, n2, p2]) => [new D.Binomial(n1, p1), new D.Binomial(n2, p2)],
    mvn: ([l1, c1, l2, c2]) => [new D.MultivariateNormal(l1, { covarianceMatrix: c1 }), new D.MultivariateNormal(l2, { covarianceMatrix: c2 })],
    beta: ([a1, b1, a2, b2]) => [new D.Beta(a1, b1), new D.Beta(a2, b2)],
    dirichlet: ([c1, c2]) => [new D.Dirichlet(c1), new D.Dirichlet(c2)],
    poisson: ([r1, r2]) => [new D.Poisson(r1), new D.Poisson(r2)],
  };
  for (const k of G.kl) {
    it(k.name, () => {
      const args = k.args.map((a) => make(a, true));
      const [p, q] = makeKl[k.name](args);
      const kl = torch.distributions.klDivergence(p, q);
      expectClose(kl, k.kl, 'kl');
      const finite = kl.isfinite();
      if (!(finite.any().item() as boolean)) return;
      const grads = torch.autograd.grad(kl.maskedSelect(finite).sum(), args, { allowUnused: true });
      k.grads.forEach((w, i) => {
        if (w !== null) expectClose(grads[i] ?? torch.zeros(w.shape, { dtype: 'float64' }), w, `d kl / d arg ${i}`);
      });
    });
  }
});

describe('validation as PyTorch', () => {
  const t = (x: number[] | number[][] | number) => torch.tensor(x, { dtype: 'float64' });
  const calls: Record<string, () => unknown> = {
    'normal-scale': () => new D.Normal(t([0, 1]), t([1, -1])),
    'normal-scale-scalar': () => new D.Normal(0, -1),
    'bernoulli-probs': () => new D.Bernoulli({ probs: t([0.5, 1.5]) }),
    'bernoulli-neither': () => new D.Bernoulli({}),
    'bernoulli-both': () => new D.Bernoulli({ probs: t([0.5]), logits: t([0]) }),
    'categorical-probs': () => new D.Categorical({ probs: t([-0.5, 1.5]) }),
    'uniform-order': () => new D.Uniform(t([0, 2]), t([1, 1])),
    'exponential-rate': () => new D.Exponential(t([0])),
    'log-prob-support': () => new D.Exponential(t([1])).logProb(t([-1])),
    'log-prob-shape': () => new D.Normal(t([0, 1]), t([1, 1])).logProb(t([0, 1, 2])),
    'log-prob-event-shape': () => new D.OneHotCategorical(t([[0.5, 0.5]])).logProb(t([1, 0, 0])),
    'log-prob-not-tensor': () => new D.Normal(t([0]), t([1])).logProb(0.5 as unknown as Tensor),
    'independent-ndims': () => new D.Independent(new D.Normal(t([0]), t([1])), 2),
    'kl-not-implemented': () => torch.distributions.klDivergence(new D.Laplace(t([0]), t([1])), new D.Categorical(t([0.5, 0.5]))),
    'bernoulli-rsample': () => new D.Bernoulli(t([0.5])).rsample(),
    'mvn-not-pd': () => new D.MultivariateNormal(t([0, 0]), { covarianceMatrix: t([[1, 2], [2, 1]]) }),
    'mvn-none': () => new D.MultivariateNormal(t([0, 0])),
    'mvn-scale-tril': () => new D.MultivariateNormal(t([0, 0]), { scaleTril: t([[1, 0.5], [0, 1]]) }),
  };
  for (const [name, want] of Object.entries(G.errors)) {
    it(name, () => {
      const saved = torch.getDefaultDtype();
      // (the goldens were made with float64 as the default dtype, which tensor reprs omit)
      torch.setDefaultDtype('float64');
      try {
        const cls = want.type === 'ValueError' ? torch.ValueError : torch.NotImplementedError;
        expect(calls[name]).toThrow(cls);
        if (want.message) expect(calls[name]).toThrow(want.message);
      } finally {
        torch.setDefaultDtype(saved);
      }
    });
  }
});

describe('the Gamma family follows PyTorch 2.x at the edge of the support', () => {
  it('logProb at value 0 with concentration 1 is finite (2.x: xlogy), where 1.13 gives nan (log(0) * 0)', () => {
    const g = new D.Gamma(torch.tensor([1, 2], { dtype: 'float64' }), 1);
    expect(g.logProb(torch.tensor([0, 0], { dtype: 'float64' })).tolist()).toEqual([0, -Infinity]);
    const c = torch.tensor([1, 2], { dtype: 'float64', requiresGrad: true });
    const d = new D.Dirichlet(c);
    const lp = d.logProb(torch.tensor([0.3, 0.7], { dtype: 'float64' }));
    const [grad] = torch.autograd.grad(lp, [c]);
    // d/dc_i = xlogy's derivative (0 where c_i - 1 is 0) + digamma(sum) - digamma(c_i)
    const dg = (x: number) => torch.digamma(torch.tensor(x, { dtype: 'float64' })).item() as number;
    expect(grad?.tolist()).toEqual([dg(3) - dg(1), Math.log(0.7) + dg(3) - dg(2)]);
  });
});

describe('the gradients of Gamma-family samples', () => {
  it('_standardGammaGrad is the exact implicit derivative (2e-10), within 2.5e-3 of PyTorch approximation', () => {
    const alpha = torch.tensor(G.gammaGrads.map((g) => g.alpha), { dtype: 'float64' });
    const x = torch.tensor(G.gammaGrads.map((g) => g.x), { dtype: 'float64' });
    const got = torch._standardGammaGrad(alpha, x).tolist() as number[];
    G.gammaGrads.forEach((g, i) => {
      expect(Math.abs(got[i] - g.exact), `alpha ${g.alpha}, x ${g.x}: ${got[i]} vs ${g.exact}`).toBeLessThanOrEqual(2e-10 * Math.abs(g.exact));
      // (PyTorch's saddle-point branch gives 0 where x is far below a large alpha, e^-6000 unlikely)
      if (g.pytorch !== 0) expect(Math.abs(got[i] - g.pytorch), `alpha ${g.alpha}, x ${g.x} vs PyTorch`).toBeLessThanOrEqual(2.5e-3 * Math.abs(g.pytorch));
    });
  });

  it('are unbiased: the mean gradient of the samples is the gradient of the mean (Gamma, Dirichlet, Beta)', () => {
    torch.manualSeed(3);
    const n = 20000;
    const conc = torch.tensor([0.7, 2.5], { dtype: 'float64', requiresGrad: true });
    const rate = torch.tensor([1.5, 0.5], { dtype: 'float64', requiresGrad: true });
    const gs = new D.Gamma(conc, rate).rsample([n]);
    const [dc, dr] = torch.autograd.grad(gs.mean(0).sum(), [conc, rate]);
    // E[x] = c / r: d/dc = 1 / r, d/dr = -c / r^2; within 3% (the seeded mean of 20000 samples)
    const near = (got: number[], want: number[], what: string) => got.forEach((v, i) => expect(Math.abs(v - want[i]), `${what}[${i}]: ${v} vs ${want[i]}`).toBeLessThan(0.03 * Math.abs(want[i])));
    near(dc!.tolist() as number[], [1 / 1.5, 1 / 0.5], 'd E[x] / d concentration');
    near(dr!.tolist() as number[], [-0.7 / 1.5 ** 2, -2.5 / 0.25], 'd E[x] / d rate');
    const a = torch.tensor([0.5, 1.5, 3], { dtype: 'float64', requiresGrad: true });
    const xs = new D.Dirichlet(a).rsample([n]);
    const [da] = torch.autograd.grad(xs.select(-1, 0).mean(), [a]);
    // E[x0] = a0 / A: d/da0 = (A - a0) / A^2, d/daj = -a0 / A^2
    const A = 5;
    const want = [(A - 0.5) / A ** 2, -0.5 / A ** 2, -0.5 / A ** 2];
    near(da!.tolist() as number[], want, 'd E[x0] / d a');
    const c1 = torch.tensor([2], { dtype: 'float64', requiresGrad: true });
    const bs = new D.Beta(c1, 3).rsample([n]);
    const [db] = torch.autograd.grad(bs.mean(), [c1]);
    // E = c1 / (c1 + c0): d/dc1 = c0 / (c1 + c0)^2
    near([db!.item() as number], [3 / 25], 'd E[x] / d concentration1');
  });
});

describe('_standardGamma and poisson draw as PyTorch for a seed', () => {
  for (const r of G.draws) {
    it(`${r.fn} ${r.dtype} ${JSON.stringify(r.input.shape)}${r.expand ? ` expanded to ${JSON.stringify(r.expand)}` : ''}`, () => {
      let x = make({ ...r.input, dtype: r.dtype as Values['dtype'] });
      if (r.expand) x = x.expand(r.expand);
      const g = new torch.Generator().manualSeed(11);
      const call = () => {
        if (r.fn === 'poisson') return torch.poisson(x, g);
        if (r.fn === '_sample_dirichlet') return torch._sampleDirichlet(x, g);
        if (r.fn === 'binomial') return torch.binomial(x, make({ ...r.prob!, dtype: r.dtype as Values['dtype'] }).expand(x.shape), { generator: g });
        return torch._standardGamma(x, { generator: g });
      };
      if (r.error) {
        expect(call).toThrow(r.error);
        return;
      }
      const got = call();
      expect(got.dtype).toBe(r.dtype);
      expectClose(got.to('float64'), r.values!, r.fn);
    });
  }

  it('refuse other devices and negative rates; the result has no gradient', () => {
    expect(() => torch.poisson(torch.tensor([1, -1], { dtype: 'float32' }))).toThrow(/poisson: invalid Poisson rate, expected rate to be non-negative/);
    expect(torch._standardGamma(torch.tensor([1.5], { requiresGrad: true })).requiresGrad).toBe(false);
    expect(() => torch._standardGamma(torch.tensor([1, 2], { dtype: 'int64' }))).toThrow(/"gamma_cpu" not implemented for 'Long'/);
  });
});

describe('distributions: arguments, finfo, memory', () => {
  it('bind PyTorch signatures: a misspelled keyword or a bad type is refused', () => {
    expect(() => new D.Normal(0, 1, { validateArg: true } as never)).toThrow(torch.TorchTypeError);
    expect(() => new D.Normal(0, 1, { validateArgs: false }).sample({ sampleShape: [2] })).not.toThrow();
    expect(new D.Normal({ loc: 0, scale: 2 } as never).scale.item()).toBe(2);
    expect(() => new D.Normal('a' as never, 1)).toThrow(/Input arguments must all be instances of numbers.Number, torch.Tensor/);
    expect(() => new D.Normal(0, 1).sample(2 as never)).not.toThrow();
    expect(() => new D.Normal(0, 1).sample(['x'] as never)).toThrow(torch.TorchTypeError);
  });

  it('validateArgs false skips the checks, and setDefaultValidateArgs sets the default', () => {
    expect(() => new D.Normal(0, -1, { validateArgs: false })).not.toThrow();
    D.Distribution.setDefaultValidateArgs(false);
    try {
      expect(() => new D.Normal(0, -1)).not.toThrow();
    } finally {
      D.Distribution.setDefaultValidateArgs(true);
    }
    expect(() => new D.Normal(0, -1)).toThrow(torch.ValueError);
  });

  it('finfo and iinfo give PyTorch limits', () => {
    expect(torch.finfo('float32')).toMatchObject({ bits: 32, eps: 1.1920928955078125e-7, max: 3.4028234663852886e38, min: -3.4028234663852886e38, tiny: 1.1754943508222875e-38, resolution: 1e-6 });
    expect(torch.finfo('double')).toMatchObject({ bits: 64, eps: 2.220446049250313e-16, tiny: 2.2250738585072014e-308 });
    expect(torch.finfo('float16')).toMatchObject({ eps: 0.0009765625, max: 65504, tiny: 6.103515625e-5 });
    expect(torch.finfo('bfloat16')).toMatchObject({ eps: 0.0078125, max: 3.3895313892515355e38 });
    expect(torch.finfo().dtype).toBe(torch.getDefaultDtype());
    expect(torch.iinfo('int8')).toMatchObject({ bits: 8, min: -128, max: 127 });
    expect(torch.iinfo('int64').max).toBe(2n ** 63n - 1n);
    expect(() => torch.finfo('int32')).toThrow(/torch\.finfo\(\) requires a floating point input type/);
    expect(() => torch.iinfo('bool')).toThrow(/torch\.bool is not supported by torch\.iinfo/);
  });

  it('a loop of draws and log-probabilities inside tidy leaves the live tensor count flat', () => {
    const loc = torch.zeros([8], { requiresGrad: true });
    const scale = torch.ones([8]);
    const round = () =>
      torch.tidy(() => {
        const d = new D.Normal(loc, scale);
        const x = d.rsample([4]);
        const c = new D.Categorical({ logits: x });
        d.logProb(x).sum().add(c.entropy().sum()).add(new D.Bernoulli({ logits: x }).logProb(x.gt(0).to('float32')).sum()).backward();
        torch.distributions.klDivergence(d, new D.Normal(1, 2));
      });
    round();
    loc.grad?.zero_();
    const before = torch.memory.stats('cpu').liveTensors;
    for (let i = 0; i < 50; i++) round();
    expect(torch.memory.stats('cpu').liveTensors).toBe(before);
  });
});

const gpuReady = await torch.webgpu.init();

describe.skipIf(!gpuReady)('distributions on WebGPU', () => {
  it('logProb, entropy, cdf and KL equal the CPU; samples have the shapes and gradients; nothing is read back synchronously', async () => {
    const onBoth = <T>(f: (device: 'cpu' | 'webgpu') => T) => [f('cpu'), f('webgpu')];
    const mk = (device: 'cpu' | 'webgpu') => {
      const loc = torch.tensor([0.5, -1, 2], { device, requiresGrad: true });
      const scale = torch.tensor([1, 0.5, 2.5], { device });
      const x = torch.tensor([[0.3, -1.2, 4], [1, 0, -2]], { device });
      const n = new D.Normal(loc, scale);
      const c = new D.Categorical({ logits: torch.tensor([[0.5, -1, 2], [0, 0, 1]], { device }) });
      const b = new D.Bernoulli({ probs: torch.tensor([0.2, 0.7, 0.5], { device }) });
      const lp = n.logProb(x);
      lp.sum().backward();
      return {
        lp,
        grad: loc.grad!,
        cdf: n.cdf(x),
        ent: n.entropy(),
        c: c.logProb(torch.tensor([2, 0], { device })),
        ce: c.entropy(),
        b: b.logProb(torch.tensor([1, 0, 1], { device, dtype: 'float32' })),
        kl: torch.distributions.klDivergence(n, new D.Normal(torch.zeros([3], { device }), 2)),
        mvn: new D.MultivariateNormal(loc.detach(), { covarianceMatrix: torch.tensor([[2, 0.3, -0.4], [0.3, 1, 0.2], [-0.4, 0.2, 1.5]], { device }) }).logProb(x),
        s: n.rsample([5]),
        cs: c.sample([7]),
      };
    };
    const [cpu, gpu] = onBoth(mk);
    for (const k of ['lp', 'grad', 'cdf', 'ent', 'c', 'ce', 'b', 'kl', 'mvn'] as const) {
      const g = (await gpu[k].tolistAsync()) as unknown;
      const want = cpu[k].tolist() as unknown;
      expect(JSON.stringify(g, (_, v) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 : v)), k).toBe(JSON.stringify(want, (_, v) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 : v)));
    }
    expect(gpu.s.shape).toEqual([5, 3]);
    expect(gpu.s.device.type).toBe('webgpu');
    expect(gpu.cs.shape).toEqual([7, 2]);
    const cats = (await gpu.cs.tolistAsync()) as number[][];
    expect(cats.flat().every((v) => v >= 0 && v <= 2)).toBe(true);
  });

  it('poisson and binomial draw on the device: integers in the support, moments within 5 standard errors; a negative rate raises at the read', async () => {
    const n = 4000;
    const rates = [0.3, 4, 9.5, 10, 35, 1e4];
    const gen = () => new torch.Generator().manualSeed(11);
    const pois = torch.poisson(torch.tensor(rates, { device: 'webgpu' }).expand([n, rates.length]), { generator: gen() });
    expect([pois.shape, pois.device.type]).toEqual([[n, rates.length], 'webgpu']);
    const rows = (await pois.tolistAsync()) as number[][];
    expect(rows.flat().every((v) => v >= 0 && Number.isInteger(v))).toBe(true);
    rates.forEach((r, j) => {
      const col = rows.map((row) => row[j]!);
      const mean = col.reduce((p, v) => p + v, 0) / n;
      const variance = col.reduce((p, v) => p + (v - mean) ** 2, 0) / (n - 1);
      // Poisson(r): mean r, variance r (the variance's standard error sqrt((2 r^2 + r) / n))
      expect(Math.abs(mean - r)).toBeLessThan(5 * Math.sqrt(r / n));
      expect(Math.abs(variance - r)).toBeLessThan(5 * Math.sqrt((2 * r * r + r) / n));
    });
    expect(await torch.poisson(torch.tensor(rates, { device: 'webgpu' }).expand([n, rates.length]), { generator: gen() }).tolistAsync()).toEqual(rows);
    const bad = torch.poisson(torch.tensor([1, -1], { device: 'webgpu', dtype: 'float32' }));
    await expect(bad.tolistAsync()).rejects.toThrow(/^poisson: invalid Poisson rate, expected rate to be non-negative$/);

    const counts = [0, 5, 30, 200, 7, 1000];
    const probs = [0.5, 0.3, 0.6, 0.02, 1, 0.9];
    const bin = torch.binomial(torch.tensor(counts, { device: 'webgpu', dtype: 'float32' }).expand([n, 6]), torch.tensor(probs, { device: 'webgpu' }), { generator: gen() });
    expect(bin.shape).toEqual([n, 6]);
    const b = (await bin.tolistAsync()) as number[][];
    expect(b.every((row) => row.every((v, j) => Number.isInteger(v) && v >= 0 && v <= counts[j]!))).toBe(true);
    counts.forEach((c, j) => {
      const p = probs[j]!;
      const mean = b.reduce((acc, row) => acc + row[j]!, 0) / n;
      expect(Math.abs(mean - c * p)).toBeLessThan(5 * Math.sqrt((c * p * (1 - p)) / n) + 1e-9);
    });
  });

  it('_standardGammaGrad equals the CPU kernel (float32: 1e-4 relative, the series and fraction sums rounding in float32)', async () => {
    const alphas: number[] = [];
    for (const a of [0.01, 0.1, 0.5, 0.9, 1, 1.5, 2, 3, 8, 20, 100, 1000]) for (let j = 0; j < 16; j++) alphas.push(a);
    const al = torch.tensor(alphas);
    const x = torch._standardGamma(al, { generator: new torch.Generator().manualSeed(3) });
    const cpu = torch._standardGammaGrad(al, x).tolist() as number[];
    const gpu = (await torch._standardGammaGrad(al.to('webgpu'), x.to('webgpu')).tolistAsync()) as number[];
    const worst = Math.max(...cpu.map((c, i) => Math.abs(gpu[i]! - c) / Math.abs(c)));
    expect(worst).toBeLessThan(1e-4);
    const edge = (await torch._standardGammaGrad(torch.tensor([2, 2, -1], { device: 'webgpu', dtype: 'float32' }), torch.tensor([0, Number.NaN, 1], { device: 'webgpu' })).tolistAsync()) as number[];
    expect(edge).toEqual([0, Number.NaN, Number.NaN]);
  });

  it('_standardGamma and _sampleDirichlet draw on the device: shapes, support, moments within 5 standard errors, a seed repeats', async () => {
    const n = 4000;
    const alphas = [0.2, 1, 4.5, 60];
    const alpha = torch.tensor(alphas, { device: 'webgpu' }).expand([n, 4]);
    const draw = (seed: number) => torch._standardGamma(alpha, { generator: new torch.Generator().manualSeed(seed) });
    const g = draw(5);
    expect([g.shape, g.device.type, g.dtype]).toEqual([[n, 4], 'webgpu', 'float32']);
    const rows = (await g.tolistAsync()) as number[][];
    expect(rows.flat().every((v) => v > 0 && Number.isFinite(v))).toBe(true);
    alphas.forEach((a, j) => {
      const col = rows.map((r) => r[j]!);
      const mean = col.reduce((p, v) => p + v, 0) / n;
      const variance = col.reduce((p, v) => p + (v - mean) ** 2, 0) / (n - 1);
      // Gamma(a, 1): mean a, variance a (the variance's standard error sqrt((m4 - a^2) / n), m4 = 3a^2 + 6a)
      expect(Math.abs(mean - a)).toBeLessThan(5 * Math.sqrt(a / n));
      expect(Math.abs(variance - a)).toBeLessThan(5 * Math.sqrt((2 * a * a + 6 * a) / n));
    });
    expect(await draw(5).tolistAsync()).toEqual(rows);
    expect(await draw(6).tolistAsync()).not.toEqual(rows);
    expect((await torch._standardGamma(torch.tensor([0, -1, Number.NaN], { device: 'webgpu', dtype: 'float32' })).tolistAsync()) as number[]).toEqual([0, Number.NaN, Number.NaN]);

    const conc = [0.5, 2, 7.5];
    const d = (await torch._sampleDirichlet(torch.tensor(conc, { device: 'webgpu' }).expand([n, 3])).tolistAsync()) as number[][];
    expect(d.every((r) => Math.abs(r[0]! + r[1]! + r[2]! - 1) < 1e-5 && r.every((v) => v > 0 && v < 1))).toBe(true);
    conc.forEach((c, j) => {
      const mean = d.reduce((p, r) => p + r[j]!, 0) / n;
      // Dirichlet: mean c / c0, variance c (c0 - c) / (c0^2 (c0 + 1))
      const c0 = 10;
      expect(Math.abs(mean - c / c0)).toBeLessThan(5 * Math.sqrt((c * (c0 - c)) / (c0 * c0 * (c0 + 1)) / n));
    });
  });

  it('Gamma, Chi2, Beta and Dirichlet rsample and sample on the device, with gradients; Poisson and Binomial sample there', async () => {
    const conc = torch.tensor([0.7, 3], { device: 'webgpu', requiresGrad: true });
    const rate = torch.tensor([2, 0.5], { device: 'webgpu' });
    const counts = new D.Poisson(rate).sample([200]);
    const trials = new D.Binomial({ totalCount: 20, probs: torch.tensor([0.25, 0.75], { device: 'webgpu' }) }).sample([200]);
    expect([counts.shape, counts.device.type, trials.shape, trials.device.type]).toEqual([[200, 2], 'webgpu', [200, 2], 'webgpu']);
    expect(((await trials.tolistAsync()) as number[][]).every((r) => r.every((v) => v >= 0 && v <= 20))).toBe(true);
    const samples = [
      new D.Gamma(conc, rate).rsample([500]),
      new D.Chi2(conc).rsample([500]),
      new D.Beta(conc, torch.tensor([1.5, 1.5], { device: 'webgpu' })).rsample([500]),
      new D.Dirichlet(conc).rsample([500]),
    ];
    for (const s of samples) expect([s.device.type, s.requiresGrad]).toEqual(['webgpu', true]);
    expect(samples.map((s) => s.shape)).toEqual([[500, 2], [500, 2], [500, 2], [500, 2]]);
    torch.stack(samples.map((s) => s.mean())).sum().backward();
    const grad = (await conc.grad!.tolistAsync()) as number[];
    expect(grad.every((v) => Number.isFinite(v) && v !== 0)).toBe(true);
    const gs = new D.Gamma(conc, rate).sample([3]);
    expect([gs.shape, gs.requiresGrad]).toEqual([[3, 2], false]);
    // d E[x] / d concentration of Gamma(c, rate) is 1 / rate: the pathwise gradient's mean
    const c = torch.tensor([2.5], { device: 'webgpu', requiresGrad: true });
    new D.Gamma(c, torch.tensor([0.5], { device: 'webgpu' })).rsample([4000]).mean().backward();
    expect(Math.abs(((await c.grad!.tolistAsync()) as number[])[0]! - 2)).toBeLessThan(0.15);
  });
});
