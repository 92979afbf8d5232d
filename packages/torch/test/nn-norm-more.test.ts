/**
 * Instance norm, BatchNorm3d, local response norm, power-average pooling, alpha dropout, the
 * padding layers, UpsamplingNearest2d / Bilinear2d and ParameterList / ParameterDict against
 * PyTorch 1.13 (scripts/goldens/nn_norm_more.py): values and gradients in float64, running
 * statistics, values for a seed, reprs, state-dict keys, errors.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_norm_more.json';
import { thrown } from './helpers';
import { checkRampGrads, expectFloat64, float64Tensor, type Float64Golden, type RampGradCase } from './float64-goldens';

const { nn } = torch;
const F = nn.functional;
type G = Float64Golden;
const t = float64Tensor;
const X3 = () => t(golden.x3);
const X4 = () => t(golden.x4);
const X5 = () => t(golden.x5);

describe('instance norm', () => {
  it('F.instanceNorm: values, gradients and running statistics as 1.13', () => {
    const g = golden.instance as Record<string, RampGradCase>;
    const [W, B, RM, RV] = [t(golden.w3), t(golden.b3), t(golden.rm), t(golden.rv)];
    checkRampGrads('plain 3d', g['plain 3d'], (x) => F.instanceNorm(x), X3());
    checkRampGrads('affine 4d', g['affine 4d'], (x, w, b) => F.instanceNorm(x, { weight: w, bias: b, eps: 1e-3 }), X4(), W, B);
    checkRampGrads('5d', g['5d'], (x) => F.instanceNorm(x), X5());
    checkRampGrads('eval stats', g['eval stats'], (x, w, b) => F.instanceNorm(x, RM.clone(), RV.clone(), w, b, false), X3(), W, B);
    const [rm, rv] = [RM.clone(), RV.clone()];
    F.instanceNorm(X4(), rm, rv, { momentum: 0.3 });
    expectFloat64(rm, golden.running.mean, 'running mean');
    expectFloat64(rv, golden.running.var, 'running var');
    // torch.instance_norm: aten's argument order
    const [rm2, rv2] = [RM.clone(), RV.clone()];
    torch.instanceNorm(X4(), null, null, rm2, rv2, true, 0.3, 1e-5, false);
    expectFloat64(rm2, golden.running.mean, 'torch.instanceNorm running mean');
    expectFloat64(torch.instanceNorm(X4(), W, B, null, null, true, 0.1, 1e-3, false), g['affine 4d'].out, 'torch.instanceNorm');
  });

  it('InstanceNorm1d / 2d / 3d: train and eval, unbatched input, state dicts, reprs', () => {
    const m = new nn.InstanceNorm1d(3, { affine: true, trackRunningStats: true, dtype: 'float64' });
    torch.noGrad(() => {
      m.weight!.copy_(t(golden.w3));
      m.bias!.copy_(t(golden.b3));
    });
    const g = golden.modules;
    expectFloat64(m.call(X3()) as torch.Tensor, g.InstanceNorm1d.train, 'train');
    m.eval();
    expectFloat64(m.call(X3()) as torch.Tensor, g.InstanceNorm1d.eval, 'eval');
    expectFloat64(m.running_mean!, g.InstanceNorm1d.running_mean, 'running_mean');
    expectFloat64(m.running_var!, g.InstanceNorm1d.running_var, 'running_var');
    expect([...m.stateDict().keys()]).toEqual(g.InstanceNorm1d.keys);
    expect(Number(m.num_batches_tracked!.item())).toBe(g.InstanceNorm1d.tracked);
    const m2 = new nn.InstanceNorm2d(3);
    expectFloat64(m2.call(X4().select(0, 0)) as torch.Tensor, g['InstanceNorm2d unbatched'].out, 'unbatched');
    expect([...m2.stateDict().keys()]).toEqual(g['InstanceNorm2d unbatched'].keys);
    const m3 = new nn.InstanceNorm3d(3, { momentum: 0.2, trackRunningStats: true, dtype: 'float64' });
    expectFloat64(m3.call(X5()) as torch.Tensor, g.InstanceNorm3d.out, '3d');
    expectFloat64(m3.running_mean!, g.InstanceNorm3d.running_mean, '3d running_mean');
    expectFloat64(m3.running_var!, g.InstanceNorm3d.running_var, '3d running_var');
  });

  it('BatchNorm3d: train and eval as 1.13', () => {
    const bn = new nn.BatchNorm3d(3, { dtype: 'float64' });
    torch.noGrad(() => {
      bn.weight!.copy_(t(golden.w3));
      bn.bias!.copy_(t(golden.b3));
    });
    const g = golden.batchnorm3d;
    expectFloat64(bn.call(X5()) as torch.Tensor, g.train, 'train');
    bn.eval();
    expectFloat64(bn.call(X5()) as torch.Tensor, g.eval, 'eval');
    expectFloat64(bn.running_mean!, g.running_mean, 'running_mean');
    expectFloat64(bn.running_var!, g.running_var, 'running_var');
    expect(Number(bn.num_batches_tracked!.item())).toBe(g.tracked);
  });
});

describe('local response norm and power-average pooling', () => {
  it('F.localResponseNorm (3-d, 4-d, 5-d) and nn.LocalResponseNorm', () => {
    const g = golden.lrn as Record<string, RampGradCase>;
    checkRampGrads('3d size 2', g['3d size 2'], (x) => F.localResponseNorm(x, 2), X3());
    checkRampGrads('4d size 3', g['4d size 3'], (x) => new nn.LocalResponseNorm(3, 0.5, 0.6, 2.0).call(x) as torch.Tensor, X4());
    checkRampGrads('5d size 4', g['5d size 4'], (x) => F.localResponseNorm(x, 4, { alpha: 1e-2 }), X5());
  });

  it('F.lpPool1d / 2d and nn.LPPool1d / 2d, a zero window with a zero gradient', () => {
    const g = golden.lp as Record<string, RampGradCase>;
    const pos = (x: torch.Tensor) => x.abs().add(0.1);
    checkRampGrads('1d p2', g['1d p2'], (x) => F.lpPool1d(x, 2, 2), X3());
    checkRampGrads('1d p1.5 stride ceil', g['1d p1.5 stride ceil'], (x) => new nn.LPPool1d(1.5, 3, 2, true).call(x) as torch.Tensor, pos(X3()));
    checkRampGrads('2d p2', g['2d p2'], (x) => new nn.LPPool2d(2, 2).call(x) as torch.Tensor, X4());
    checkRampGrads('2d p3 rect stride', g['2d p3 rect stride'], (x) => F.lpPool2d(x, 3, [2, 3], { stride: [1, 2] }), pos(X4()));
    checkRampGrads('2d p1 ceil', g['2d p1 ceil'], (x) => F.lpPool2d(x, 1, 3, { ceilMode: true }), pos(X4()));
    const z = torch.tensor([[[[0, 0, 1, 1], [0, 0, 1, 1]]]], { dtype: 'float64' });
    checkRampGrads('zero window', g['zero window'], (x) => F.lpPool2d(x, 2, 2), z);
  });
});

describe('alpha dropout', () => {
  it("the values of 1.13's noise for a seed, p = 1, eval, modules, gradient", () => {
    const makers: Record<string, () => torch.Tensor> = {
      alpha: () => F.alphaDropout(X4(), 0.3, true),
      'alpha p1': () => F.alphaDropout(X3(), 1.0, true),
      'alpha eval': () => F.alphaDropout(X3(), 0.5),
      'feature alpha': () => F.featureAlphaDropout(X4(), 0.4, true),
      'feature alpha 5d': () => F.featureAlphaDropout(X5(), 0.5, true),
      'module alpha': () => new nn.AlphaDropout(0.2).call(X3()) as torch.Tensor,
      'module feature alpha': () => new nn.FeatureAlphaDropout(0.5).call(X4()) as torch.Tensor,
    };
    expect(Object.keys(makers).sort()).toEqual(Object.keys(golden.alpha).sort());
    for (const [key, make] of Object.entries(makers)) {
      torch.manualSeed(7);
      expectFloat64(make(), (golden.alpha as Record<string, G>)[key], key);
    }
    torch.manualSeed(7);
    const inplace = X4();
    expect(torch.alphaDropout_(inplace, 0.3, true)).toBe(inplace);
    expectFloat64(inplace, golden.alpha.alpha, 'torch.alphaDropout_');
    const xa = X3().requiresGrad_();
    torch.manualSeed(7);
    F.alphaDropout(xa, 0.3, true).sum().backward();
    expectFloat64(xa.grad!, golden.alpha_grad, 'grad');
  });
});

describe('padding layers and upsampling layers', () => {
  it('values, gradients and reprs as 1.13', () => {
    const makers: Record<string, [() => torch.nn.Module, () => torch.Tensor]> = {
      ReflectionPad1d: [() => new nn.ReflectionPad1d([1, 2]), X3],
      ReflectionPad2d: [() => new nn.ReflectionPad2d(1), X4],
      ReflectionPad3d: [() => new nn.ReflectionPad3d([1, 0, 1, 1, 0, 1]), X5],
      ReplicationPad1d: [() => new nn.ReplicationPad1d(2), X3],
      ReplicationPad2d: [() => new nn.ReplicationPad2d([1, 2, 0, 1]), X4],
      ReplicationPad3d: [() => new nn.ReplicationPad3d(1), X5],
      ConstantPad1d: [() => new nn.ConstantPad1d(2, 3.5), X3],
      ConstantPad2d: [() => new nn.ConstantPad2d([1, 0, 2, 1], -1.5), X4],
      ConstantPad3d: [() => new nn.ConstantPad3d(1, 0), X5],
      ZeroPad2d: [() => new nn.ZeroPad2d([1, 2, 3, 0]), X4],
    };
    const g = golden.pads as Record<string, RampGradCase & { repr: string }>;
    expect(Object.keys(makers).sort()).toEqual(Object.keys(g).sort());
    for (const [key, [mk, x]] of Object.entries(makers)) {
      const m = mk();
      expect(String(m)).toBe(g[key].repr);
      checkRampGrads(key, g[key], (v) => m.call(v) as torch.Tensor, x());
    }
    const up = golden.upsampling;
    const near = new nn.UpsamplingNearest2d({ scaleFactor: 2 });
    expect(String(near)).toBe(up.nearest.repr);
    expectFloat64(near.call(X4()) as torch.Tensor, up.nearest.out, 'nearest');
    const bil = new nn.UpsamplingBilinear2d({ size: [5, 7] });
    expect(String(bil)).toBe(up.bilinear.repr);
    expectFloat64(bil.call(X4()) as torch.Tensor, up.bilinear.out, 'bilinear');
    expect(String(new nn.ZeroPad1d(2))).toBe('ZeroPad1d((2, 2))');
    // CircularPad (PyTorch 2's modules): F.pad's circular mode, values as 1.13's F.pad gives them
    const c2 = new nn.CircularPad2d([1, 2, 1, 0]);
    expect(String(c2)).toBe('CircularPad2d((1, 2, 1, 0))');
    expect((c2.call(torch.arange(12).float().view([1, 1, 3, 4])) as torch.Tensor).tolist()).toEqual([
      [
        [
          [11, 8, 9, 10, 11, 8, 9],
          [3, 0, 1, 2, 3, 0, 1],
          [7, 4, 5, 6, 7, 4, 5],
          [11, 8, 9, 10, 11, 8, 9],
        ],
      ],
    ]);
    expect((new nn.CircularPad1d([2, 1]).call(torch.arange(6).float().view([1, 2, 3])) as torch.Tensor).tolist()).toEqual([
      [
        [1, 2, 0, 1, 2, 0],
        [4, 5, 3, 4, 5, 3],
      ],
    ]);
    expect((new nn.CircularPad3d(1).call(torch.ones([1, 1, 2, 3, 4])) as torch.Tensor).shape).toEqual([1, 1, 4, 5, 6]);
    expect(thrown(() => new nn.ReflectionPad2d([1, 2, 3])).message).toContain('ReflectionPad2d: padding must be an int or a tuple of 4 ints');
  });
});

describe('ParameterList and ParameterDict', () => {
  it('reprs, state-dict keys, plain tensors wrapped as Parameters', () => {
    const c = golden.containers;
    const pl = new nn.ParameterList([new nn.Parameter(torch.ones([2, 3])), torch.zeros([4], { dtype: 'float64' })]);
    const pd = new nn.ParameterDict({ a: new nn.Parameter(torch.ones([2])), b: torch.zeros([1, 2], { dtype: 'float64' }) });
    expect(String(pl)).toBe(c['list repr']);
    expect(String(pd)).toBe(c['dict repr']);
    class Holder extends nn.Module {
      plist = pl;
      pdict = pd;
      override forward(): never {
        throw new Error('no forward');
      }
    }
    const h = new Holder();
    expect(String(h)).toBe(c['holder repr']);
    expect([...h.stateDict().keys()]).toEqual(c['holder keys']);
    expect([...pl].map((p) => (p instanceof nn.Parameter ? 'Parameter' : 'Tensor'))).toEqual(c['list types']);
    expect(String(new nn.ParameterList([new nn.Parameter(torch.ones([3]))]))).toBe(c.single);
    expect([...h.parameters()].length).toBe(4);
    expect(pl.length).toBe(2);
    expect(pl.get(-1).shape).toEqual([4]);
    expect(pd.get('b')!.dtype).toBe('float64');
    expect(pd.pop('a').shape).toEqual([2]);
    expect([...pd.keys()]).toEqual(['b']);
    expect(thrown(() => pl.get(2)).message).toContain('index 2 is out of range');
  });
});

describe('errors as 1.13', () => {
  it('names the op and the offending sizes', () => {
    const e = golden.errors;
    expect(thrown(() => F.instanceNorm(torch.ones([2, 3, 1]))).message).toContain('Expected more than 1 spatial element when training, got input size [2, 3, 1]');
    expect(thrown(() => F.instanceNorm(torch.ones([2, 3, 4]), null, null, null, null, false)).message).toContain(e['instance no stats']);
    expect(thrown(() => new nn.InstanceNorm1d(3).call(torch.ones([2, 3, 4, 5]))).message).toContain(e['InstanceNorm1d dims']);
    expect(thrown(() => new nn.InstanceNorm2d(3).call(torch.ones([2, 3]))).message).toContain(e['InstanceNorm2d dims']);
    expect(thrown(() => new nn.BatchNorm3d(3).call(torch.ones([2, 3, 4, 5]))).message).toContain(e['BatchNorm3d dims']);
    expect(thrown(() => F.localResponseNorm(torch.ones([2, 3]), 2)).message).toContain('Expected 3D or higher dimensionality input (got 2 dimensions)');
    expect(thrown(() => F.alphaDropout(torch.ones([2]), 1.5, true)).message).toContain(e['alpha p']);
    expect(thrown(() => F.featureAlphaDropout(torch.ones([3]), 0.5, true)).message).toContain(e['feature alpha 1d']);
  });
});
