/**
 * torch.pdist, F.bilinear, F.gumbelSoftmax, F.maxUnpool1d / 2d / 3d with nn.MaxUnpool1d-3d and
 * torch.chainMatmul against PyTorch 1.13 (scripts/goldens/nn_composites_more.py): float64 values
 * and gradients (pdist with a zero distance and p = 2, 1, 3, 0.5, inf, 0), gumbel-softmax's
 * draws for a seed (soft and hard), reprs, errors.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_composites_more.json';
import { thrown } from './helpers';
import { checkRampGrads, expectFloat64, float64Tensor, type Float64Golden, type RampGradCase } from './float64-goldens';

const { nn } = torch;
const F = nn.functional;
type G = Float64Golden;
const t = float64Tensor;

describe('more nn composites against 1.13', () => {
  it('pdist: values and gradients for p = 2, 1, 3, 0.5 (a zero distance among them), inf and 0', () => {
    const pd = golden.pdist as Record<string, RampGradCase>;
    for (const p of ['2.0', '1.0', '3.0', '0.5']) checkRampGrads(`pdist p=${p}`, pd[p], (x) => torch.pdist(x, Number(p)), t(golden.x));
    checkRampGrads('pdist inf', pd.inf, (x) => F.pdist(x, Infinity), t(golden.xu));
    checkRampGrads('pdist 0', pd['0'], (x) => torch.pdist(x, 0), t(golden.xu));
    expect(torch.pdist(torch.ones([1, 4])).shape).toEqual([0]);
  });

  it('bilinear (batched, bias) and nn.Bilinear through it', () => {
    const [A, B, W, b] = [t(golden.a), t(golden.b), t(golden.w), t(golden.bias)];
    checkRampGrads('bilinear', golden.bilinear.bias as RampGradCase, (x1, x2, w, bb) => F.bilinear(x1, x2, w, bb), A, B, W, b);
    checkRampGrads('bilinear no bias', golden.bilinear.nobias as RampGradCase, (x1, x2, w) => F.bilinear(x1, x2, w), A.select(0, 0), B.select(0, 0), W);
    const m = new nn.Bilinear(4, 5, 6, { dtype: 'float64' });
    torch.noGrad(() => {
      m.weight.copy_(W);
      m.bias!.copy_(b);
    });
    expectFloat64(m.call(A, B) as torch.Tensor, (golden.bilinear.bias as RampGradCase).out, 'nn.Bilinear');
  });

  it("gumbel-softmax: 1.13's draws for a seed, soft and hard (the soft gradient passed through)", () => {
    for (const [key, c] of Object.entries(golden.gumbel as Record<string, { kw: { tau?: number; dim?: number; hard?: boolean }; out: G; grad: G }>)) {
      torch.manualSeed(5);
      const x = t(golden.logits).requiresGrad_();
      const y = F.gumbelSoftmax(x, c.kw);
      expectFloat64(y, c.out, `${key} out`);
      y.mul(torch.linspace(-1, 1.5, y.numel(), { dtype: 'float64' }).view(y.shape)).sum().backward();
      expectFloat64(x.grad!, c.grad, `${key} grad`);
    }
  });

  it('max_unpool1d / 2d / 3d and the modules: values, gradients, output_size, reprs', () => {
    const u = golden.unpool as unknown as Record<string, RampGradCase & { input: G; indices: G }>;
    const idx = (g: G) => torch.tensor(g.values, { dtype: 'int64' }).reshape(g.shape);
    const i2 = idx(u['2d'].indices);
    checkRampGrads('unpool 2d', u['2d'], (x) => F.maxUnpool2d(x, i2, 2), t(u['2d'].input));
    checkRampGrads('unpool 2d output_size', u['2d output_size'], (x) => F.maxUnpool2d(x, i2, 2, { outputSize: [5, 6] }), t(u['2d'].input));
    checkRampGrads('unpool 1d', u['1d'], (x) => new nn.MaxUnpool1d(3, 2, 1).call(x, idx(u['1d'].indices)) as torch.Tensor, t(u['1d'].input));
    checkRampGrads('unpool 3d', u['3d'], (x) => new nn.MaxUnpool3d(2).call(x, idx(u['3d'].indices), [4, 4, 5]) as torch.Tensor, t(u['3d'].input));
    expect([String(new nn.MaxUnpool2d(2)), String(new nn.MaxUnpool1d(3, 2, 1)), String(new nn.MaxUnpool3d([2, 2, 2]))]).toEqual(golden.reprs);
  });

  it('chainMatmul: the product and its gradients', () => {
    const [a, b, c] = golden.chain_in.map((g) => t(g));
    checkRampGrads('chain_matmul', golden.chain as RampGradCase, (x, y, z) => torch.chainMatmul(x, y, z), a, b, c);
    const one = torch.ones([2, 3]);
    const copy = torch.chainMatmul(one);
    expect(copy).not.toBe(one);
    expect(copy.tolist()).toEqual(one.tolist());
  });

  it('errors as 1.13', () => {
    const e = golden.errors;
    expect(thrown(() => torch.pdist(torch.ones([2, 3, 4]))).message).toContain(e['pdist 3d']);
    expect(thrown(() => torch.pdist(torch.ones([3, 4]), -1)).message).toContain(e['pdist p']);
    expect(thrown(() => F.bilinear(torch.ones([2, 3]), torch.ones([2, 4]), torch.ones([5, 3, 3]))).message).toContain(e['bilinear in2']);
    expect(thrown(() => F.bilinear(torch.ones([2, 3]), torch.ones([3, 4]), torch.ones([5, 3, 4]))).message).toContain(e['bilinear batch']);
    expect(thrown(() => F.bilinear(torch.ones([2, 3]), torch.ones([2, 4]), torch.ones([5, 3, 4]), torch.ones([4]))).message).toContain(e['bilinear bias']);
    const bad = torch.tensor([[[[0, 1], [2, 20]]]], { dtype: 'int64' });
    expect(thrown(() => F.maxUnpool2d(torch.ones([1, 1, 2, 2]), bad, 2)).message).toContain(e['unpool index']);
    const ok = torch.tensor([[[[0, 1], [2, 3]]]], { dtype: 'int64' });
    expect(thrown(() => F.maxUnpool2d(torch.ones([1, 1, 2, 2]), ok, 2, { outputSize: [7, 7] })).message).toContain(e['unpool size']);
    expect(thrown(() => torch.chainMatmul()).message).toContain(e['chain none']);
    expect(thrown(() => torch.chainMatmul(torch.ones([2, 3, 4]))).message).toContain(e['chain 3d']);
  });
});
