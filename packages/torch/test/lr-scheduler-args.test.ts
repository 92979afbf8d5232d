import { afterEach, describe, it, expect, vi } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/optim.json';
import { thrown } from './helpers';

// The schedulers bind PyTorch 1.13's `__init__` signatures (Note [Scheduler constructors bind
// their arguments]): every form of a call gives PyTorch's rates, and the TypeErrors and what
// `verbose=True` prints are PyTorch's own (scripts/goldens/optim.py records them).

const { optim } = torch;
const S = optim.lrScheduler;
const rates = golden.schedulers as Record<string, { lrs: number[]; momenta?: number[] }>;
const errors = golden.schedulerErrors as Record<string, { tooMany: string; unknownKeyword: string }>;
const printed = golden.schedulerVerbose as Record<string, string[]>;

type Stepper = { step(m?: number): void };
type Opt = torch.optim.Optimizer;

/** A constructor called with arguments its type refuses. */
const untyped = (C: unknown) => C as new (...args: unknown[]) => unknown;

const sgd = (lr = 0.1) => new optim.SGD([torch.zeros(1, { requiresGrad: true })], { lr, momentum: 0.9 });
const adam = () => new optim.Adam([torch.zeros(1, { requiresGrad: true })], { lr: 0.001 });

/** The rates (and momenta or beta1s) a scheduler gives over `n` steps, as the golden records them. */
function run(opt: Opt, make: (o: Opt) => Stepper, n: number, metrics?: number[]): { lrs: number[]; momenta: number[] } {
  const mom = () => (opt.paramGroups[0].betas ? (opt.paramGroups[0].betas as number[])[0] : (opt.paramGroups[0].momentum as number));
  const s = make(opt);
  const lrs = [opt.paramGroups[0].lr];
  const momenta = [mom()];
  for (let i = 0; i < n; i++) {
    opt.step();
    s.step(metrics?.[i]);
    lrs.push(opt.paramGroups[0].lr);
    momenta.push(mom());
  }
  return { lrs, momenta };
}

function expectRates(got: number[], want: number[]): void {
  expect(got.length).toBe(want.length);
  got.forEach((x, i) => expect(Math.abs(x - want[i])).toBeLessThanOrEqual(1e-15 + 1e-13 * Math.abs(want[i])));
}

interface Case {
  /** The golden's key (optim.py's `scheds`). */
  key: string;
  n: number;
  opt?: () => Opt;
  metrics?: number[];
  momentum?: boolean;
  /** The same scheduler written in each of the forms a caller may use. */
  forms: Record<string, (o: Opt) => Stepper>;
  /** A call with a wrong type, and PyTorch's wording for it. */
  wrongType: [(o: Opt) => unknown, string];
  /** One positional too many and an unknown keyword: the calls optim.py makes. */
  tooMany: (o: Opt) => unknown;
  unknownKeyword: (o: Opt) => unknown;
}

const cases: Record<string, Case> = {
  StepLR: {
    key: 'StepLR(3,0.5)',
    n: 10,
    forms: {
      positional: (o) => new S.StepLR(o, 3, 0.5),
      'all positional': (o) => new S.StepLR(o, 3, 0.5, -1, false),
      'gamma by keyword': (o) => new S.StepLR(o, 3, { gamma: 0.5 }),
      'all by keyword': (o) => new S.StepLR(o, { stepSize: 3, gamma: 0.5, lastEpoch: -1, verbose: false }),
      'None for the defaults': (o) => new S.StepLR(o, 3, 0.5, null, null),
    },
    wrongType: [(o) => new S.StepLR(o, 3, { gamma: '0.5' as never }), "StepLR.__init__(): argument 'gamma' must be float, not string"],
    tooMany: (o) => new (untyped(S.StepLR))(o, 3, 0.5, -1, false, 1),
    unknownKeyword: (o) => new S.StepLR(o, 3, { gama: 0.5 } as never),
  },
  MultiStepLR: {
    key: 'MultiStepLR([2,5,5],0.1)',
    n: 8,
    forms: {
      positional: (o) => new S.MultiStepLR(o, [2, 5, 5], 0.1),
      default: (o) => new S.MultiStepLR(o, [2, 5, 5]),
      'all by keyword': (o) => new S.MultiStepLR(o, { milestones: [5, 2, 5], gamma: 0.1 }),
    },
    wrongType: [(o) => new S.MultiStepLR(o, [2, '5' as never]), "MultiStepLR.__init__(): argument 'milestones' must be tuple of ints, but found element of type string at pos 2"],
    tooMany: (o) => new (untyped(S.MultiStepLR))(o, [2], 0.1, -1, false, 1),
    unknownKeyword: (o) => new S.MultiStepLR(o, [2], { milestone: [3] } as never),
  },
  ExponentialLR: {
    key: 'ExponentialLR(0.9)',
    n: 8,
    forms: {
      positional: (o) => new S.ExponentialLR(o, 0.9),
      'by keyword': (o) => new S.ExponentialLR(o, { gamma: 0.9 }),
      'positional then options': (o) => new S.ExponentialLR(o, 0.9, -1, { verbose: false }),
    },
    wrongType: [(o) => new S.ExponentialLR(o, 0.9, 0.5), "ExponentialLR.__init__(): argument 'lastEpoch' (position 3) must be int, not number"],
    tooMany: (o) => new (untyped(S.ExponentialLR))(o, 0.9, -1, false, 1),
    unknownKeyword: (o) => new S.ExponentialLR(o, 0.9, { gama: 0.5 } as never),
  },
  CosineAnnealingLR: {
    key: 'CosineAnnealingLR(5,0.01)',
    n: 16,
    forms: {
      positional: (o) => new S.CosineAnnealingLR(o, 5, 0.01),
      'etaMin by keyword': (o) => new S.CosineAnnealingLR(o, 5, { etaMin: 0.01 }),
      'all by keyword': (o) => new S.CosineAnnealingLR(o, { TMax: 5, etaMin: 0.01 }),
    },
    wrongType: [(o) => new S.CosineAnnealingLR(o, null as never), "CosineAnnealingLR.__init__(): argument 'TMax' (position 2) must be int, not null"],
    tooMany: (o) => new (untyped(S.CosineAnnealingLR))(o, 5, 0.0, -1, false, 1),
    unknownKeyword: (o) => new S.CosineAnnealingLR(o, 5, { etamin: 0.01 } as never),
  },
  LinearLR: {
    key: 'LinearLR(0.25,4)',
    n: 7,
    forms: {
      positional: (o) => new S.LinearLR(o, 0.25, 1.0, 4),
      'None for endFactor': (o) => new S.LinearLR(o, 0.25, null, 4),
      'positional then options': (o) => new S.LinearLR(o, 0.25, { totalIters: 4 }),
      'all by keyword': (o) => new S.LinearLR(o, { startFactor: 0.25, totalIters: 4 }),
    },
    wrongType: [(o) => new S.LinearLR(o, { totalIters: 4.5 }), "LinearLR.__init__(): argument 'totalIters' must be int, not number"],
    tooMany: (o) => new (untyped(S.LinearLR))(o, 0.5, 1.0, 5, -1, false, 1),
    unknownKeyword: (o) => new S.LinearLR(o, { startFactr: 0.5 } as never),
  },
  OneCycleLR: {
    key: 'OneCycleLR(1.0,10)',
    n: 9,
    momentum: true,
    forms: {
      positional: (o) => new S.OneCycleLR(o, 1.0, 10),
      'totalSteps by keyword': (o) => new S.OneCycleLR(o, 1.0, { totalSteps: 10 }),
      'all by keyword': (o) => new S.OneCycleLR(o, { maxLr: 1.0, totalSteps: 10 }),
      'epochs and stepsPerEpoch': (o) => new S.OneCycleLR(o, 1.0, null, 2, 5),
      'a list of one maxLr': (o) => new S.OneCycleLR(o, [1.0], { epochs: 5, stepsPerEpoch: 2, maxMomentum: [0.95] }),
    },
    wrongType: [(o) => new S.OneCycleLR(o, 1.0, { totalSteps: 10, threePhase: 'yes' as never }), "OneCycleLR.__init__(): argument 'threePhase' must be bool, not string"],
    tooMany: (o) => new (untyped(S.OneCycleLR))(o, 1.0, 10, null, null, 0.3, 'cos', true, 0.85, 0.95, 25.0, 1e4, false, -1, false, 1),
    unknownKeyword: (o) => new S.OneCycleLR(o, 1.0, { total_step: 10 } as never),
  },
  'OneCycleLR (Adam)': {
    key: 'OneCycleLR(Adam,0.01,12,linear,threePhase)',
    n: 11,
    opt: adam,
    momentum: true,
    forms: {
      positional: (o) => new S.OneCycleLR(o, 0.01, 12, null, null, 0.3, 'linear', true, 0.85, 0.95, 25.0, 1e4, true),
      'by keyword': (o) => new S.OneCycleLR(o, 0.01, { totalSteps: 12, annealStrategy: 'linear', threePhase: true }),
    },
    wrongType: [(o) => new S.OneCycleLR(o, '0.01' as never, 12), "OneCycleLR.__init__(): argument 'maxLr' must be float or tuple of floats, not string"],
    tooMany: (o) => new (untyped(S.OneCycleLR))(o, 1.0, 10, null, null, 0.3, 'cos', true, 0.85, 0.95, 25.0, 1e4, false, -1, false, 1),
    unknownKeyword: (o) => new S.OneCycleLR(o, 1.0, { total_step: 10 } as never),
  },
  ReduceLROnPlateau: {
    key: 'ReduceLROnPlateau(patience=2,factor=0.5,cooldown=1)',
    n: golden.plateauMetrics.length,
    metrics: golden.plateauMetrics,
    forms: {
      positional: (o) => new S.ReduceLROnPlateau(o, 'min', 0.5, 2, 1e-4, 'rel', 1) as Stepper,
      'by keyword': (o) => new S.ReduceLROnPlateau(o, { patience: 2, factor: 0.5, cooldown: 1 }) as Stepper,
      'positional then options': (o) => new S.ReduceLROnPlateau(o, 'min', 0.5, { cooldown: 1, patience: 2 }) as Stepper,
    },
    wrongType: [(o) => new S.ReduceLROnPlateau(o, { minLr: 'x' as never }), "ReduceLROnPlateau.__init__(): argument 'minLr' must be float or tuple of floats, not string"],
    tooMany: (o) => new (untyped(S.ReduceLROnPlateau))(o, 'min', 0.1, 10, 1e-4, 'rel', 0, 0, 1e-8, false, 1),
    unknownKeyword: (o) => new S.ReduceLROnPlateau(o, { patiense: 2 } as never),
  },
};

describe('lr schedulers bind PyTorch 1.13 signatures', () => {
  for (const [name, c] of Object.entries(cases)) {
    const errorsKey = name.split(' ')[0];
    describe(name, () => {
      for (const [form, make] of Object.entries(c.forms)) {
        it(`${form} gives PyTorch's rates`, () => {
          const got = run((c.opt ?? sgd)(), make, c.n, c.metrics);
          expectRates(got.lrs, rates[c.key].lrs);
          if (c.momentum) expectRates(got.momenta, rates[c.key].momenta!);
        });
      }
      it('one positional too many is PyTorch TypeError', () => {
        const e = thrown(() => c.tooMany(sgd()));
        expect(e).toBeInstanceOf(torch.TorchTypeError);
        expect(e.message).toBe(errors[errorsKey].tooMany);
      });
      it('an unknown keyword is PyTorch TypeError', () => {
        const e = thrown(() => c.unknownKeyword(sgd()));
        expect(e).toBeInstanceOf(torch.TorchTypeError);
        expect(e.message).toBe(errors[errorsKey].unknownKeyword);
      });
      it('a wrong type is a TypeError naming the argument', () => {
        const e = thrown(() => c.wrongType[0]((c.opt ?? sgd)()));
        expect(e).toBeInstanceOf(torch.TorchTypeError);
        expect(e.message).toBe(c.wrongType[1]);
      });
    });
  }

  it('an argument given by position and by keyword is a TypeError', () => {
    expect(thrown(() => new S.StepLR(sgd(), 3, { stepSize: 4 } as never)).message).toBe("StepLR.__init__(): argument 'stepSize' given by name ('stepSize') and position (2)");
  });

  it("a keyword in PyTorch's snake_case is unknown: keywords are camelCase", () => {
    expect(thrown(() => new S.CosineAnnealingLR(sgd(), 5, { eta_min: 0.01 } as never)).message).toBe("CosineAnnealingLR.__init__() got an unexpected keyword argument 'eta_min'");
  });

  it('a missing required argument is a TypeError', () => {
    const e = thrown(() => new (untyped(S.ExponentialLR))(sgd()));
    expect(e).toBeInstanceOf(torch.TorchTypeError);
    expect(e.message).toBe('ExponentialLR.__init__() missing 1 required positional argument: "gamma"');
  });

  it('the first argument must be an Optimizer, as in PyTorch', () => {
    expect(thrown(() => new S.StepLR({ paramGroups: [] } as never, 3)).message).toBe('Object is not an Optimizer');
    expect(thrown(() => new S.ReduceLROnPlateau(null as never)).message).toBe('null is not an Optimizer');
    expect(thrown(() => new S.OneCycleLR([] as never, 1.0, 10))).toBeInstanceOf(torch.TorchTypeError);
  });

  it("the issue's calls: gamma in an options object, a misspelled key, LinearLR's positional form", () => {
    const o = sgd();
    const s = new S.StepLR(o, 10, { gamma: 0.5 });
    expect(s.gamma).toBe(0.5);
    expect(s.stepSize).toBe(10);
    expect(thrown(() => new S.LinearLR(sgd(), { startFactr: 0.5 } as never)).message).toBe("LinearLR.__init__() got an unexpected keyword argument 'startFactr'");
    const l = new S.LinearLR(sgd(), 0.5);
    expect([l.startFactor, l.endFactor, l.totalIters]).toEqual([0.5, 1.0, 5]);
  });

  it('a float or one float per group for maxLr, baseMomentum, maxMomentum, minLr', () => {
    const ps = [torch.zeros(1, { requiresGrad: true }), torch.zeros(1, { requiresGrad: true })];
    const two = () => new optim.SGD([{ params: [ps[0]] }, { params: [ps[1]] }], { lr: 0.1, momentum: 0.9 });
    const a = two();
    new S.OneCycleLR(a, [1.0, 2.0], { totalSteps: 10, maxMomentum: [0.9, 0.8] });
    expect(a.paramGroups.map((g) => g.initialLr)).toEqual([1.0 / 25, 2.0 / 25]);
    expect(a.paramGroups.map((g) => g.maxLr)).toEqual([1.0, 2.0]);
    expect(a.paramGroups.map((g) => g.momentum)).toEqual([0.9, 0.8]);
    const b = two();
    new S.OneCycleLR(b, 1.0, { totalSteps: 10 });
    expect(b.paramGroups.map((g) => g.maxLr)).toEqual([1.0, 1.0]);
    const e = thrown(() => new S.OneCycleLR(two(), [1.0], 10));
    expect(e).toBeInstanceOf(torch.TorchError);
    expect(e.message).toBe('expected 2 values for max_lr, got 1');
    expect(new S.ReduceLROnPlateau(two(), { minLr: [0.01, 0.02] }).minLrs).toEqual([0.01, 0.02]);
    expect(new S.ReduceLROnPlateau(two()).minLrs).toEqual([0, 0]);
  });

  it('PyTorch value checks still raise after binding', () => {
    expect(thrown(() => new S.LinearLR(sgd(), 1.5)).message).toBe('Starting multiplicative factor expected to be greater than 0 and less or equal to 1.');
    expect(thrown(() => new S.OneCycleLR(sgd(), 1.0)).message).toBe('You must define either total_steps OR (epochs AND steps_per_epoch)');
    expect(thrown(() => new S.OneCycleLR(sgd(), 1.0, 0)).message).toBe('Expected positive integer total_steps, but got 0');
    expect(thrown(() => new S.OneCycleLR(sgd(), 1.0, { totalSteps: 4, annealStrategy: 'cosine' as never })).message).toBe(
      "anneal_strategy must by one of 'cos' or 'linear', instead got cosine",
    );
    expect(thrown(() => new S.ReduceLROnPlateau(sgd(), 'up' as never)).message).toBe('mode up is unknown!');
    expect(thrown(() => new S.ReduceLROnPlateau(sgd(), { factor: 1 })).message).toBe('Factor should be < 1.0.');
  });

  it("step(): PyTorch's deprecated epoch is NotImplementedError, more arguments a TypeError", () => {
    const s = new S.StepLR(sgd(), 3);
    expect(thrown(() => (s.step as (...a: unknown[]) => void)(5))).toBeInstanceOf(torch.NotImplementedError);
    expect(thrown(() => (s.step as (...a: unknown[]) => void)(5, 6)).message).toBe('LRScheduler.step() takes from 1 to 2 positional arguments but 3 were given');
    s.step();
    expect(s.lastEpoch).toBe(1);
  });

  it('ReduceLROnPlateau.step takes a number or a one-element Tensor, and an epoch', () => {
    const o = sgd();
    const s = new S.ReduceLROnPlateau(o, { patience: 0, factor: 0.5 });
    s.step(torch.tensor(1.0));
    s.step(2.0, 7);
    expect(s.lastEpoch).toBe(7);
    expect(o.paramGroups[0].lr).toBe(0.05);
    expect(thrown(() => s.step('1' as never)).message).toBe("ReduceLROnPlateau.step(): argument 'metrics' must be float or a one-element Tensor, not string");
    expect(thrown(() => s.step(1, { epochs: 2 } as never)).message).toBe("ReduceLROnPlateau.step() got an unexpected keyword argument 'epochs'");
  });
});

describe('verbose=True prints what PyTorch prints', () => {
  afterEach(() => vi.restoreAllMocks());

  function lines(make: (o: Opt) => Stepper, n: number, lr = 0.1, metrics?: number[]): string[] {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    run(sgd(lr), make, n, metrics);
    return log.mock.calls.map((c) => String(c[0]));
  }

  it('StepLR', () => expect(lines((o) => new S.StepLR(o, 2, 0.5, { verbose: true }), 4)).toEqual(printed.StepLR));
  it("ExponentialLR, rounding exact ties half to even as Python's {:.4e}", () =>
    expect(lines((o) => new S.ExponentialLR(o, 0.5, -1, true), 3, 1.03125)).toEqual(printed['ExponentialLR(1.03125)']));
  it('OneCycleLR', () => expect(lines((o) => new S.OneCycleLR(o, 1.0, { totalSteps: 5, verbose: true }), 4)).toEqual(printed.OneCycleLR));
  it('ReduceLROnPlateau', () =>
    expect(lines((o) => new S.ReduceLROnPlateau(o, { patience: 0, factor: 0.5, verbose: true }) as Stepper, 4, 0.1, [1.0, 2.0, 3.0, 0.5])).toEqual(
      printed.ReduceLROnPlateau,
    ));
  it('verbose=false prints nothing', () => expect(lines((o) => new S.StepLR(o, 2, 0.5), 4)).toEqual([]));
});

// Compile-time checks (tsc over test/): the constructor types come from the same text the
// binder binds, so what the binder refuses does not compile either.
export function typeChecks(o: Opt): void {
  new S.StepLR(o, 3, 0.5, -1, false);
  new S.StepLR(o, { stepSize: 3 });
  // @ts-expect-error: misspelled keyword
  new S.StepLR(o, 3, { gama: 0.5 });
  // @ts-expect-error: gamma is a float
  new S.StepLR(o, 3, '0.5');
  // @ts-expect-error: one positional too many
  new S.StepLR(o, 3, 0.5, -1, false, 1);
  // @ts-expect-error: stepSize is required
  new S.StepLR(o);
  // @ts-expect-error: stepSize is required, in the options object too
  new S.StepLR(o, { gamma: 0.5 });
  new S.LinearLR(o, 0.5);
  // @ts-expect-error: misspelled keyword
  new S.LinearLR(o, { startFactr: 0.5 });
  new S.OneCycleLR(o, [0.1, 0.2], { totalSteps: 10, annealStrategy: 'linear', baseMomentum: [0.8, 0.85] });
  // @ts-expect-error: anneal_strategy is 'cos' or 'linear'
  new S.OneCycleLR(o, 0.1, { totalSteps: 10, annealStrategy: 'cosine' });
  new S.ReduceLROnPlateau(o, 'max', { thresholdMode: 'abs', minLr: [0, 0.1] });
  // @ts-expect-error: mode is 'min' or 'max'
  new S.ReduceLROnPlateau(o, 'up');
  const opts: torch.optim.lrScheduler.OneCycleLROptions = { epochs: 2, stepsPerEpoch: 5 };
  const lin: torch.optim.lrScheduler.LinearLROptions = { totalIters: 4 };
  const plateau: torch.optim.lrScheduler.ReduceLROnPlateauOptions = { patience: 2 };
  void [opts, lin, plateau];
}
