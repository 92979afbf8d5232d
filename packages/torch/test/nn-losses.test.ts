/**
 * The composite losses and distances of torch.nn.functional and their modules: PyTorch 1.13's
 * forward values and gradients for every reduction and option (goldens/nn_losses.json, from
 * scripts/goldens/nn_losses.py), gradcheck in float64, PyTorch's errors, reprs, no leaks.
 */
import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import golden from './goldens/nn_losses.json';
import { thrown } from './helpers';

const { nn } = torch;
const F = nn.functional;

interface G {
  shape: number[];
  dtype: string;
  values: number[];
}
interface Case {
  fn: string;
  args: (G | number[])[];
  grads: boolean[];
  kwargs: Record<string, unknown>;
  out: G;
  gradValues: (G | null)[];
}

const isG = (a: unknown): a is G => typeof a === 'object' && a !== null && !Array.isArray(a) && 'values' in a;
const fromG = (g: G) => torch.tensor(g.values, { dtype: g.dtype as torch.DType }).reshape(g.shape);
const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** float64: 1e-10 relative; float32: PyTorch's own float32 test tolerances. */
function expectClose(t: Tensor, g: G, what: string): void {
  expect(t.shape, what).toEqual(g.shape);
  expect(t.dtype, what).toBe(g.dtype);
  const [rtol, atol] = g.dtype === 'float64' ? [1e-10, 1e-12] : [1.3e-6, 1e-5];
  const v = Array.from(t.dataSync() as Float64Array, Number);
  v.forEach((x, i) => {
    if (!(Math.abs(x - g.values[i]) <= atol + rtol * Math.abs(g.values[i]))) expect.fail(`${what}[${i}]: ${x} vs PyTorch ${g.values[i]}`);
  });
}

/** The functional of a golden, called as torch-ts spells it (tensor arguments, then an options object). */
function call(fn: string, args: unknown[], kwargs: Record<string, unknown>): Tensor {
  const opts = Object.fromEntries(Object.entries(kwargs).map(([k, v]) => [camel(k), v === 'Infinity' ? Infinity : v]));
  const f = (F as unknown as Record<string, (...a: unknown[]) => Tensor>)[camel(fn)];
  if (typeof f !== 'function') throw new Error(`no F.${camel(fn)}`);
  return f(...args, opts);
}

const cases = golden.cases as unknown as Case[];

describe('functional losses and distances: PyTorch 1.13 values and gradients', () => {
  const byFn = new Map<string, Case[]>();
  for (const c of cases) byFn.set(c.fn, [...(byFn.get(c.fn) ?? []), c]);
  for (const [fn, cs] of byFn) {
    it(`F.${camel(fn)}: ${cs.length} cases (every reduction and option, float64 and float32)`, () => {
      for (const [k, c] of cs.entries()) {
        const what = `${fn} #${k} ${c.out.dtype} ${JSON.stringify(c.kwargs)}`;
        torch.tidy(() => {
          const args = c.args.map((a, i) => (isG(a) ? fromG(a).requiresGrad_(c.grads[i]) : a));
          const out = call(fn, args, c.kwargs);
          expectClose(out, c.out, `${what} output`);
          const leaves = args.filter((_, i) => c.grads[i]) as Tensor[];
          if (leaves.length === 0) return;
          const gs = torch.autograd.grad([out.sum()], leaves, { allowUnused: true });
          gs.forEach((g, i) => {
            const want = c.gradValues[i];
            if (want === null) expect(g, `${what} grad ${i}`).toBeNull();
            else expectClose(g!, want, `${what} grad ${i}`);
          });
        });
      }
    });
  }
});

describe('modules', () => {
  it('print as PyTorch prints them', () => {
    const R = golden.reprs as Record<string, string>;
    const made: Record<string, torch.nn.Module> = {
      KLDivLoss: new nn.KLDivLoss(),
      HuberLoss: new nn.HuberLoss({ delta: 0.5 }),
      MarginRankingLoss: new nn.MarginRankingLoss(),
      TripletMarginLoss: new nn.TripletMarginLoss(),
      TripletMarginWithDistanceLoss: new nn.TripletMarginWithDistanceLoss(),
      CosineEmbeddingLoss: new nn.CosineEmbeddingLoss(),
      MultiLabelSoftMarginLoss: new nn.MultiLabelSoftMarginLoss(),
      PoissonNLLLoss: new nn.PoissonNLLLoss(),
      GaussianNLLLoss: new nn.GaussianNLLLoss(),
      CTCLoss: new nn.CTCLoss(),
      HingeEmbeddingLoss: new nn.HingeEmbeddingLoss(),
      SoftMarginLoss: new nn.SoftMarginLoss(),
      CosineSimilarity: new nn.CosineSimilarity(),
      'CosineSimilarity(dim=0, eps=0.1)': new nn.CosineSimilarity(0, 0.1),
      PairwiseDistance: new nn.PairwiseDistance(),
      'PairwiseDistance(p=1.0, eps=0.1, keepdim=True)': new nn.PairwiseDistance({ p: 1, eps: 0.1, keepdim: true }),
    };
    expect(Object.keys(made).sort()).toEqual(Object.keys(R).sort());
    for (const [k, m] of Object.entries(made)) expect(m.toString(), k).toBe(R[k]);
  });

  it('forward the functionals with their options (golden cases through the modules)', () => {
    const pick = (fn: string, pred: (c: Case) => boolean) => cases.find((c) => c.fn === fn && c.out.dtype === 'float64' && pred(c))!;
    const args = (c: Case) => c.args.map((a) => (isG(a) ? fromG(a) : a)) as Tensor[];
    const check = (c: Case, m: torch.nn.Module) =>
      torch.tidy(() => expectClose(m.call(...args(c)) as Tensor, c.out, `${m.constructor.name}`));
    check(pick('kl_div', (c) => c.kwargs.reduction === 'sum' && c.kwargs.log_target === true), new nn.KLDivLoss({ reduction: 'sum', logTarget: true }));
    check(pick('kl_div', (c) => c.kwargs.reduction === 'batchmean'), new nn.KLDivLoss({ reduction: 'batchmean' }));
    check(pick('huber_loss', (c) => c.kwargs.delta === 0.5 && c.kwargs.reduction === 'none'), new nn.HuberLoss('none', 0.5));
    check(pick('margin_ranking_loss', (c) => c.kwargs.margin === 0.5 && c.kwargs.reduction === 'mean'), new nn.MarginRankingLoss(0.5));
    check(pick('hinge_embedding_loss', (c) => c.kwargs.margin === 0.3 && c.kwargs.reduction === 'sum'), new nn.HingeEmbeddingLoss({ margin: 0.3, reduction: 'sum' }));
    check(pick('soft_margin_loss', (c) => c.kwargs.reduction === 'none'), new nn.SoftMarginLoss({ reduction: 'none' }));
    check(pick('multilabel_soft_margin_loss', (c) => c.kwargs.reduction === 'mean'), new nn.MultiLabelSoftMarginLoss());
    check(pick('poisson_nll_loss', (c) => c.kwargs.log_input === false && c.kwargs.full === true && c.kwargs.reduction === 'sum'), new nn.PoissonNLLLoss(false, true, null, 1e-8, null, 'sum'));
    check(pick('gaussian_nll_loss', (c) => c.kwargs.full === true && c.kwargs.reduction === 'mean'), new nn.GaussianNLLLoss({ full: true }));
    check(pick('cosine_embedding_loss', (c) => c.kwargs.margin === 0.4 && c.kwargs.reduction === 'none'), new nn.CosineEmbeddingLoss({ margin: 0.4, reduction: 'none' }));
    check(pick('triplet_margin_loss', (c) => c.kwargs.swap === true && c.kwargs.reduction === 'mean'), new nn.TripletMarginLoss({ margin: 1.5, p: 1, swap: true }));
    check(pick('triplet_margin_with_distance_loss', (c) => c.kwargs.reduction === 'sum'), new nn.TripletMarginWithDistanceLoss({ swap: true, margin: 0.7, reduction: 'sum' }));
    check(pick('ctc_loss', (c) => c.kwargs.reduction === 'mean' && c.kwargs.zero_infinity === true && c.kwargs.blank === 4), new nn.CTCLoss({ blank: 4, zeroInfinity: true }));
    check(pick('cosine_similarity', (c) => c.kwargs.dim === 0), new nn.CosineSimilarity(0));
    check(pick('pairwise_distance', (c) => c.kwargs.p === 1 && c.kwargs.keepdim === true), new nn.PairwiseDistance(1, 1e-6, true));
    // a plain distance function
    const c = pick('triplet_margin_with_distance_loss', (c) => c.kwargs.reduction === 'none');
    const l1 = (a: Tensor, b: Tensor) => F.pairwiseDistance(a, b, { p: 1 });
    torch.tidy(() => {
      const [a, p, n] = args(c);
      const want = F.tripletMarginLoss(a, p, n, { p: 1, swap: true, margin: 0.7, reduction: 'none' });
      const got = new nn.TripletMarginWithDistanceLoss({ distanceFunction: l1, swap: true, margin: 0.7, reduction: 'none' }).call(a, p, n) as Tensor;
      expect(got.tolist()).toEqual(want.tolist());
    });
  });

  it('refuse a bad reduction and the legacy flags', () => {
    expect(thrown(() => new nn.HuberLoss('avg' as 'mean')).message).toBe('avg is not a valid value for reduction');
    expect(thrown(() => new nn.KLDivLoss({ reduction: 'batch' as 'mean' })).message).toBe('batch is not a valid value for reduction');
    expect(thrown(() => new nn.SoftMarginLoss(true as unknown as null)).name).toBe('NotImplementedError');
    expect(thrown(() => new nn.TripletMarginWithDistanceLoss({ margin: 0 })).message).toContain('expected margin to be greater than 0, got 0 instead');
  });
});

describe('gradcheck in float64', () => {
  const { gradcheck } = torch.autograd;
  const r = (...s: number[]) => torch.randn(s, { dtype: 'float64', requiresGrad: true });
  it('every loss and distance, gradients of all its floating inputs', async () => {
    torch.manualSeed(3);
    // (targets made once: gradcheck calls each function many times)
    const signs = torch.tensor([1, -1, -1, 1, -1, 1], { dtype: 'float64' });
    const sign = (n: number) => signs.narrow(0, 0, n);
    const pos = () => torch.rand([3, 4], { dtype: 'float64' }).add(0.2).requiresGrad_();
    const lsm = () => torch.randn([3, 4], { dtype: 'float64' }).logSoftmax(1).detach().requiresGrad_();
    const checks: [string, (...xs: Tensor[]) => Tensor, Tensor[]][] = [
      ['kl_div', (x, t) => F.klDiv(x, t, { reduction: 'batchmean' }), [lsm(), pos()]],
      ['kl_div log_target', (x, t) => F.klDiv(x, t, { logTarget: true, reduction: 'sum' }), [lsm(), lsm()]],
      ['huber_loss', (x, t) => F.huberLoss(x, t, { delta: 0.7 }), [r(3, 4), r(3, 4)]],
      ['margin_ranking_loss', (a, b) => F.marginRankingLoss(a, b, sign(5), { margin: 0.2 }), [r(5), r(5)]],
      ['hinge_embedding_loss', (x) => F.hingeEmbeddingLoss(x, sign(6), { reduction: 'sum' }), [r(6)]],
      ['soft_margin_loss', (x) => F.softMarginLoss(x, sign(6)), [r(6)]],
      ['multilabel_soft_margin_loss', (x, t, w) => F.multilabelSoftMarginLoss(x, t, { weight: w }), [r(3, 4), pos(), r(4)]],
      ['poisson_nll_loss', (x) => F.poissonNllLoss(x, torch.tensor([[0, 1, 2, 3], [4, 5, 0, 2], [1, 1, 7, 3]], { dtype: 'float64' }), { full: true }), [r(3, 4)]],
      ['poisson_nll_loss !log_input', (x, t) => F.poissonNllLoss(x, t, { logInput: false, reduction: 'sum' }), [pos(), pos()]],
      ['gaussian_nll_loss', (x, t, v) => F.gaussianNllLoss(x, t, v, { full: true }), [r(3, 4), r(3, 4), pos()]],
      ['cosine_embedding_loss', (a, b) => F.cosineEmbeddingLoss(a, b, sign(3), { margin: -0.3 }), [r(3, 4), r(3, 4)]],
      ['triplet_margin_loss', (a, p, n) => F.tripletMarginLoss(a, p, n, { swap: true, p: 3, margin: 3 }), [r(3, 4), r(3, 4), r(3, 4)]],
      ['triplet_margin_with_distance_loss', (a, p, n) => F.tripletMarginWithDistanceLoss(a, p, n, { margin: 3 }), [r(3, 4), r(3, 4), r(3, 4)]],
      ['cosine_similarity', (a, b) => F.cosineSimilarity(a, b, { dim: 0 }), [r(3, 4), r(3, 1)]],
      ['pairwise_distance', (a, b) => F.pairwiseDistance(a, b, { p: 1.5 }), [r(3, 4), r(3, 4)]],
      // CTC through log_softmax, as PyTorch checks it (Note [CTC as a composite] in core)
      [
        'ctc_loss',
        (x) => F.ctcLoss(x.logSoftmax(2), torch.tensor([[1, 2, 2], [2, 1, 0]]), [4, 3], [3, 2], { reduction: 'mean' }),
        [r(4, 2, 3)],
      ],
      ['ctc_loss concatenated', (x) => F.ctcLoss(x.logSoftmax(1), torch.tensor([2, 1]), torch.tensor(4), torch.tensor(2), { blank: 3, reduction: 'sum' }), [r(4, 4)]],
    ];
    for (const [name, fn, xs] of checks) expect(await gradcheck(fn, xs), name).toBe(true);
  });
});

describe('errors: PyTorch\'s, starting with the op name', () => {
  it('shapes, values and options', () => {
    const z = (...s: number[]) => torch.zeros(s);
    const cases: [() => unknown, string, string][] = [
      [() => F.huberLoss(z(3), z(3), { delta: 0 }), 'TorchError', 'huber_loss: huber_loss does not support non-positive values for delta.'],
      [() => F.huberLoss(z(3), z(2)), 'ShapeError', 'huber_loss'],
      [() => F.klDiv(z(3), z(3), { reduction: 'avg' as 'mean' }), 'TorchError', 'avg'],
      [() => F.marginRankingLoss(z(3), z(3), z(3, 1)), 'ShapeError', 'margin_ranking_loss: All input tensors should have same dimension but got sizes: input1: [3], input2: [3], target: [3, 1]'],
      [() => F.cosineEmbeddingLoss(z(3, 2), z(3, 2), z(3, 1)), 'ShapeError', 'cosine_embedding_loss: 0D or 1D target tensor expected, multi-target not supported'],
      [() => F.cosineEmbeddingLoss(z(3), z(3), z(3)), 'ShapeError', 'cosine_embedding_loss: 1D target tensor expects 2D input tensors, but found inputs with sizes [3] and [3].'],
      [() => F.tripletMarginLoss(z(3, 2), z(3, 2), z(2)), 'ShapeError', 'triplet_margin_loss: All inputs should have same dimension but got 2D, 2D and 1D inputs.'],
      [() => F.gaussianNllLoss(z(3, 4), z(3, 4), z(4)), 'ValueError', 'gaussian_nll_loss: var is of incorrect size'],
      [() => F.gaussianNllLoss(z(3), z(3), torch.tensor([1, -1, 1])), 'ValueError', 'gaussian_nll_loss: var has negative entry/entries'],
      [() => F.cosineSimilarity(torch.tensor([1, 2]), torch.tensor([1, 2])), 'TorchError', 'cosine_similarity: expected common dtype to be floating point, yet common dtype is Long'],
      [() => F.cosineSimilarity(z(3, 4), z(2, 4)), 'ShapeError', 'cosine_similarity'],
      [() => F.multilabelSoftMarginLoss(torch.tensor(1), torch.tensor(1)), 'ShapeError', 'multilabel_soft_margin_loss'],
      [() => F.softMarginLoss(z(3), z(3), { sizeAverage: true } as never), 'NotImplementedError', 'soft_margin_loss'],
    ];
    const lp = torch.zeros([5, 2, 4]);
    const t = torch.tensor([[1, 2], [3, 0]]);
    cases.push(
      [() => F.ctcLoss(lp, t, [6, 4], [2, 1]), 'ShapeError', 'ctc_loss: Expected input_lengths to have value at most 5, but got value 6 (while checking arguments for ctc_loss_cpu)'],
      [() => F.ctcLoss(lp, t, [5], [2, 1]), 'ShapeError', 'ctc_loss: input_lengths must be of size batch_size'],
      [() => F.ctcLoss(lp, t, [5, 4], [3, 1]), 'ShapeError', "ctc_loss: Expected tensor to have size at least 3 at dimension 1, but got size 2 for argument #2 'targets' (while checking arguments for ctc_loss_cpu)"],
      [() => F.ctcLoss(lp, t, [5, 4], [2, 1], { blank: 4 }), 'TorchError', 'ctc_loss: blank must be in label range'],
      [() => F.ctcLoss(lp, torch.tensor([1, 2, 3]), [5, 4], [2, 2]), 'ShapeError', "ctc_loss: Expected tensor to have size 4 at dimension 0, but got size 3 for argument #2 'targets' (while checking arguments for ctc_loss_cpu)"],
      [() => F.ctcLoss(lp, t, [5, 4], [2, 1], { reduction: 'x' as 'mean' }), 'TorchError', 'ctc_loss'],
      [() => F.ctcLoss(lp.long(), t, [5, 4], [2, 1]), 'DTypeError', 'ctc_loss'],
    );
    for (const [fn, name, msg] of cases) {
      let e: Error | undefined;
      try {
        fn();
      } catch (err) {
        e = err as Error;
      }
      if (!e) expect.fail(`no error: ${msg}`);
      expect(e, msg).toBeInstanceOf(torch.TorchError);
      expect(e.name, msg).toBe(name);
      expect(e.message, name).toContain(msg);
      expect(e.message.split(':')[0].length, msg).toBeGreaterThan(0);
    }
  });
});

describe('memory', () => {
  it('the losses, forward and backward, leave no tensor behind', () => {
    const live = () => torch.memory.stats('cpu').liveTensors;
    const run = () => torch.tidy(() => {
      const x = torch.randn([4, 3], { requiresGrad: true });
      const y = torch.randn([4, 3]);
      const s = torch.tensor([1, -1, 1, -1], { dtype: 'float32' });
      const lp = torch.randn([5, 4, 3], { requiresGrad: true });
      const losses = [
        F.klDiv(x, y.softmax(1), { reduction: 'batchmean' }),
        F.huberLoss(x, y),
        F.marginRankingLoss(x.select(1, 0), y.select(1, 0), s),
        F.hingeEmbeddingLoss(x.select(1, 0), s),
        F.softMarginLoss(x.select(1, 0), s),
        F.multilabelSoftMarginLoss(x, y.sigmoid()),
        F.poissonNllLoss(x, y.abs(), { full: true }),
        F.gaussianNllLoss(x, y, y.abs()),
        F.cosineEmbeddingLoss(x, y, s),
        F.tripletMarginLoss(x, y, y.flip(0), { swap: true }),
        F.tripletMarginWithDistanceLoss(x, y, y.flip(0)),
        F.cosineSimilarity(x, y).sum(),
        F.pairwiseDistance(x, y).sum(),
        F.ctcLoss(lp.logSoftmax(2), torch.tensor([[1, 2], [1, 1], [2, 0], [1, 0]]), torch.tensor([5, 5, 4, 3]), torch.tensor([2, 2, 1, 1])),
      ];
      const total = torch.stack(losses).sum();
      total.backward();
      // (the values are real: a loss of NaN or no gradient would fail here)
      expect(Number.isFinite(total.item())).toBe(true);
      expect(x.grad!.abs().sum().item()).toBeGreaterThan(0);
      expect(lp.grad!.abs().sum().item()).toBeGreaterThan(0);
    });
    run(); // warm caches
    const before = live();
    run();
    expect(live()).toBe(before);
  });
});
