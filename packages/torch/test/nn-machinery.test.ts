import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_machinery.json';
import { thrown } from './helpers';

const { nn } = torch;
type G = { shape: number[]; dtype: string; values: number[] };
const T = (g: G): torch.Tensor => torch.tensor(g.values, { dtype: g.dtype as torch.DType }).reshape(g.shape);
const vals = (t: torch.Tensor | null): number[] => (t === null ? [] : (t.detach().flatten().tolist() as number[]));
function close(t: torch.Tensor | null, g: G, label: string, tol = 1e-5): void {
  expect(t, label).not.toBeNull();
  expect([...t!.shape], label).toEqual(g.shape);
  const a = vals(t);
  a.forEach((v, i) => expect(Math.abs(v - g.values[i]), `${label}[${i}]: ${v} vs ${g.values[i]}`).toBeLessThanOrEqual(tol * (1 + Math.abs(g.values[i]))));
}
function setLinear(m: torch.nn.Linear, w: G, b: G): void {
  torch.noGrad(() => {
    m.weight.copy_(T(w));
    m.bias!.copy_(T(b));
  });
}

describe('registerFullBackwardHook / registerFullBackwardPreHook', () => {
  const bh = golden.backwardHooks;
  it('fires once per backward with PyTorch gradInput / gradOutput, and may replace gradInput', () => {
    const lin = new nn.Linear(3, 2);
    setLinear(lin, bh.weight, bh.bias);
    const x = T(bh.x).requiresGrad_();
    const w = T(bh.w);
    const seen: [(torch.Tensor | null)[], (torch.Tensor | null)[]][] = [];
    const h = lin.registerFullBackwardHook((m, gi, go) => {
      expect(m).toBe(lin);
      seen.push([gi, go]);
    });
    const y = lin(x);
    expect(y.gradFn?.name()).toBe('BackwardHookFunctionBackward');
    y.mul(w).sum().backward();
    expect(seen.length).toBe(bh.calls);
    close(seen[0][0][0], bh.gradInput, 'gradInput');
    close(seen[0][1][0], bh.gradOutput, 'gradOutput');
    close(x.grad, bh.xgrad, 'x.grad');
    h.remove();
    x.grad = null;
    lin.registerFullBackwardHook((_m, gi) => [gi[0]!.mul(3)]);
    lin(x).mul(w).sum().backward();
    close(x.grad, bh.xgradTripled, 'x.grad tripled');
    // a removed hook no longer runs
    expect(seen.length).toBe(1);
  });

  it('tuple outputs, a non-tensor argument, an input that takes no gradient', () => {
    class Two extends nn.Module {
      override forward(a: torch.Tensor, b: torch.Tensor, k: number): torch.Tensor[] {
        return [a.mul(b).mul(k), a.add(b)];
      }
    }
    const two = new Two();
    const rec: [(torch.Tensor | null)[], (torch.Tensor | null)[]][] = [];
    two.registerFullBackwardHook((_m, gi, go) => void rec.push([gi, go]));
    const a = torch.tensor([1, 2, 3], { dtype: 'float32', requiresGrad: true });
    const b = torch.tensor([4, 5, 6], { dtype: 'float32' });
    const [p, q] = two(a, b, 2) as torch.Tensor[];
    p.sum().add(q.mul(q).sum()).backward();
    expect(rec.length).toBe(1);
    const [gi, go] = rec[0];
    expect(gi.length).toBe(3);
    close(gi[0], bh.two.gi[0] as G, 'gi[0]');
    close(gi[1], bh.two.gi[1] as G, 'gi[1] (no grad: zeros)');
    expect(gi[2]).toBeNull();
    go.forEach((g, i) => close(g, bh.two.go[i], `go[${i}]`));
    close(a.grad, bh.two.agrad, 'a.grad');
  });

  it('runs when no input requires grad (gradInput all null) and errors as PyTorch', () => {
    const lin2 = new nn.Linear(3, 2);
    const rec: [(torch.Tensor | null)[], (torch.Tensor | null)[]][] = [];
    lin2.registerFullBackwardHook((_m, gi, go) => void rec.push([gi, go]));
    lin2(torch.ones([1, 3])).sum().backward();
    expect(rec[0][0].map((g) => g === null)).toEqual(bh.noInputGrad.gi);
    close(rec[0][1][0], bh.noInputGrad.go, 'go');

    const lin3 = new nn.Linear(3, 2);
    lin3.registerFullBackwardHook(() => [torch.ones([1, 3])]);
    const e1 = thrown(() => lin3(torch.ones([1, 3])).sum().backward());
    expect(e1).toBeInstanceOf(torch.TorchError);
    expect(e1.message).toContain(bh.errNoInputReturn[1]);

    const lin4 = new nn.Linear(3, 2);
    lin4.registerFullBackwardHook((_m, gi) => [gi[0], gi[0]]);
    const e2 = thrown(() => lin4(torch.ones([1, 3], { requiresGrad: true })).sum().backward());
    expect(e2).toBeInstanceOf(torch.TorchError);
    expect(e2.message).toContain(bh.errCount[1]);

    const lin5 = new nn.Linear(3, 2);
    lin5.registerFullBackwardHook(() => undefined);
    const e3 = thrown(() => lin5(torch.ones([1, 3])).add_(1));
    expect(e3).toBeInstanceOf(torch.AutogradError);
    expect(e3.message).toBe(`add_: ${bh.errInplace[1]}`);
    // under no-grad nothing is wrapped, and in-place is fine
    torch.noGrad(() => lin5(torch.ones([1, 3])).add_(1));
    // a module without backward hooks returns its own output, free to modify
    const plain = new nn.Linear(3, 2);
    expect(plain(torch.ones([1, 3])).add_(1).shape).toEqual([1, 2]);
  });

  it('pre-hooks (PyTorch 2.x) see and replace gradOutput before the module backward', () => {
    const lin = new nn.Linear(3, 2);
    setLinear(lin, bh.weight, bh.bias);
    const x = T(bh.x).requiresGrad_();
    const w = T(bh.w);
    const order: string[] = [];
    let go0: torch.Tensor | null = null;
    lin.registerFullBackwardPreHook((_m, go) => {
      order.push('pre');
      go0 = go[0];
      return [go[0]!.mul(2)];
    });
    let hookGo: torch.Tensor | null = null;
    lin.registerFullBackwardHook((_m, _gi, go) => {
      order.push('full');
      hookGo = go[0];
    });
    lin(x).mul(w).sum().backward();
    expect(order).toEqual(['pre', 'full']);
    close(go0, bh.gradOutput, 'pre-hook gradOutput');
    // the full hook and the module's own gradients see the doubled gradOutput
    expect(vals(hookGo)).toEqual(vals(T(bh.gradOutput).mul(2)));
    close(x.grad, { ...bh.xgrad, values: bh.xgrad.values.map((v) => 2 * v) }, 'x.grad');
    const ref = T(bh.w).mul(2).t().mm(T(bh.x));
    close(lin.weight.grad, { shape: [2, 3], dtype: 'float32', values: vals(ref) }, 'weight.grad');
    const bad = new nn.Linear(3, 2);
    bad.registerFullBackwardPreHook((_m, go) => [go[0], go[0]]);
    const e = thrown(() => bad(torch.ones([1, 3])).sum().backward());
    expect(e.message).toContain('Backward pre hook returned an invalid number of grad_output, got 2, but expected 1');
  });
});

describe('state-dict hooks', () => {
  it('stateDict pre/post hooks run per module in PyTorch order; the private hook may replace the map', () => {
    const net = new nn.Sequential(new nn.Linear(2, 2), new nn.Linear(2, 1));
    const log: string[] = [];
    net.registerStateDictPreHook((_m, prefix, keepVars) => void log.push(`pre root '${prefix}' ${keepVars}`));
    net.get(1).registerStateDictPreHook((_m, prefix) => void log.push(`pre child '${prefix}'`));
    net.get(1).registerStateDictPostHook((_m, sd, prefix) => {
      log.push(`post child '${prefix}' ${[...sd.keys()].join(',')}`);
      sd.delete('net.1.bias');
    });
    const h = net.registerStateDictPostHook((_m, sd) => void log.push(`post root ${sd.size}`));
    const sd = net.stateDict({ prefix: 'net.' });
    expect([...sd.keys()]).toEqual(['net.0.weight', 'net.0.bias', 'net.1.weight']);
    h.remove();
    expect(log).toEqual([
      "pre root 'net.' false",
      "pre child 'net.1.'",
      "post child 'net.1.' net.0.weight,net.0.bias,net.1.weight,net.1.bias",
      'post root 3',
    ]);
    const other = new nn.Linear(2, 2);
    other.registerStateDictPostHook(() => new Map() as never);
    expect(thrown(() => other.stateDict()).message).toContain('state_dict post-hook must return None');
    const priv = new nn.Linear(2, 2);
    priv._registerStateDictHook(() => new Map([['only', torch.zeros(1)]]));
    expect([...priv.stateDict().keys()]).toEqual(['only']);
  });

  it('load pre-hooks may rename keys, post-hooks may forgive missing ones', () => {
    const m = new nn.Linear(2, 2);
    const src = new Map([
      ['W', torch.ones([2, 2])],
      ['bias', torch.full([2], 3)],
    ]);
    const calls: unknown[] = [];
    m.registerLoadStateDictPreHook((mod, sd, prefix, _meta, strict, missing, unexpected) => {
      calls.push([mod === m, prefix, strict, missing.length, unexpected.length]);
      const w = sd.get(`${prefix}W`);
      if (w) {
        sd.delete(`${prefix}W`);
        sd.set(`${prefix}weight`, w);
      }
    });
    const r = m.loadStateDict(src);
    expect(calls).toEqual([[true, '', true, 0, 0]]);
    expect(r).toEqual({ missingKeys: [], unexpectedKeys: [] });
    expect(vals(m.weight)).toEqual([1, 1, 1, 1]);
    expect(src.has('W')).toBe(true); // the caller's map is not changed

    const n = new nn.Sequential(new nn.Linear(2, 2));
    const seen: string[][] = [];
    n.get(0).registerLoadStateDictPostHook((_mod, keys) => {
      seen.push([...keys.missingKeys]);
      keys.missingKeys.splice(keys.missingKeys.indexOf('0.bias'), 1);
    });
    const before = vals((n.get(0) as torch.nn.Linear).bias as torch.Tensor);
    const r2 = n.loadStateDict({ '0.weight': torch.zeros([2, 2]) });
    expect(seen).toEqual([['0.bias']]);
    expect(r2.missingKeys).toEqual([]);
    expect(vals((n.get(0) as torch.nn.Linear).weight as torch.Tensor)).toEqual([0, 0, 0, 0]);
    expect(vals((n.get(0) as torch.nn.Linear).bias as torch.Tensor)).toEqual(before);
    // without the forgiving hook: strict raises, and nothing was copied
    const k = new nn.Sequential(new nn.Linear(2, 2));
    const w0 = vals((k.get(0) as torch.nn.Linear).weight);
    const e = thrown(() => k.loadStateDict({ '0.weight': torch.zeros([2, 2]), extra: torch.zeros(1) }));
    expect(e.message).toBe('Error(s) in loading state_dict for Sequential:\n\tMissing key(s) in state_dict: "0.bias". \n\tUnexpected key(s) in state_dict: "extra". ');
    expect(vals((k.get(0) as torch.nn.Linear).weight)).toEqual(w0);
    const bad = new nn.Linear(1, 1);
    bad.registerLoadStateDictPostHook((() => 1) as never);
    expect(thrown(() => bad.loadStateDict(bad.stateDict())).message).toContain('are not expected to return new values');
  });
});

describe('nn.utils.parametrize', () => {
  const pz = golden.parametrize;
  class Symmetric extends nn.Module {
    override forward(X: torch.Tensor): torch.Tensor {
      return X.triu().add(X.triu(1).transpose(-1, -2));
    }
    rightInverse(A: torch.Tensor): torch.Tensor {
      return A.triu();
    }
  }
  it('registers, computes, trains, assigns, prints, keys and removes as PyTorch', () => {
    const m = new nn.Linear(3, 3);
    setLinear(m, pz.w0, pz.b0);
    nn.utils.parametrize.registerParametrization(m, 'weight', new Symmetric());
    expect(nn.utils.parametrize.isParametrized(m)).toBe(true);
    expect(nn.utils.parametrize.isParametrized(m, 'weight')).toBe(true);
    expect(nn.utils.parametrize.isParametrized(m, 'bias')).toBe(false);
    m(T(pz.x)).pow(2).sum().backward();
    close(m.weight, pz.weight, 'weight');
    expect([...m.stateDict().keys()]).toEqual(pz.keys);
    expect(String(m)).toBe(pz.repr);
    const list = (m as any).parametrizations.weight;
    close(list.original, pz.original, 'original');
    close(list.original.grad, pz.originalGrad, 'original.grad');
    expect([...m.parameters()].length).toBe(2);
    m.weight = torch.arange(9, { dtype: 'float32' }).reshape(3, 3);
    close(list.original, pz.afterAssignOriginal, 'original after assignment');
    // cached(): one computation per tensor while it runs
    let runs = 0;
    const counting = new nn.Linear(2, 2);
    class Count extends nn.Module {
      override forward(X: torch.Tensor): torch.Tensor {
        runs++;
        return X;
      }
    }
    nn.utils.parametrize.registerParametrization(counting, 'weight', new Count());
    runs = 0;
    nn.utils.parametrize.cached(() => {
      expect(counting.weight).toBe(counting.weight);
    });
    expect(runs).toBe(1);
    void counting.weight;
    void counting.weight;
    expect(runs).toBe(3);
    nn.utils.parametrize.removeParametrizations(m, 'weight');
    expect([...m.stateDict().keys()]).toEqual(pz.removedKeys);
    close(m.weight, pz.removedWeight, 'removed weight');
    expect(m.weight).toBeInstanceOf(nn.Parameter);
    expect(String(m)).toBe('Linear(in_features=3, out_features=3, bias=True)');
    expect(nn.utils.parametrize.isParametrized(m)).toBe(false);
    const e = thrown(() => nn.utils.parametrize.removeParametrizations(new nn.Linear(3, 3), 'weight'));
    expect(e).toBeInstanceOf(torch.ValueError);
    expect(e.message).toBe(`removeParametrizations: ${pz.errNotParametrized[1]}`);
    class Shrink extends nn.Module {
      override forward(X: torch.Tensor): torch.Tensor {
        return X.narrow(0, 0, 2);
      }
    }
    const e2 = thrown(() => nn.utils.parametrize.registerParametrization(new nn.Linear(3, 3), 'weight', new Shrink()));
    expect(e2.message).toBe(`registerParametrization: ${pz.errShape[1]}`);
    // a state dict round trip through the parametrized keys
    const a = nn.utils.parametrize.registerParametrization(new nn.Linear(3, 3), 'weight', new Symmetric());
    const b = nn.utils.parametrize.registerParametrization(new nn.Linear(3, 3), 'weight', new Symmetric());
    b.loadStateDict(a.stateDict());
    expect(vals((b as any).weight)).toEqual(vals((a as any).weight));
  });
});

describe('weight norm and spectral norm', () => {
  const wn = golden.weightNorm;
  it('hook-based weightNorm / removeWeightNorm as PyTorch', () => {
    const m = new nn.Linear(4, 3);
    setLinear(m, wn.weight, wn.bias);
    nn.utils.weightNorm(m);
    const y = m(T(wn.x));
    y.pow(2).sum().backward();
    expect([...m.stateDict().keys()]).toEqual(wn.keys);
    const p = m as any;
    close(p.weight_g, wn.g, 'g');
    close(p.weight_v, wn.v, 'v');
    close(y, wn.y, 'y');
    close(p.weight_g.grad, wn.gGrad, 'g.grad', 1e-4);
    close(p.weight_v.grad, wn.vGrad, 'v.grad', 1e-4);
    const m0 = new nn.Linear(4, 3);
    setLinear(m0, wn.weight, wn.bias);
    nn.utils.weightNorm(m0, 'weight', null);
    close((m0 as any).weight_g, wn.gDimNone, 'g dim=None');
    expect(thrown(() => nn.utils.weightNorm(m)).message).toBe(`weightNorm: ${wn.errTwice[1]}`);
    nn.utils.removeWeightNorm(m);
    expect([...m.stateDict().keys()]).toEqual(wn.removedKeys);
    const e = thrown(() => nn.utils.removeWeightNorm(m));
    expect(e).toBeInstanceOf(torch.ValueError);
    expect(e.message).toBe(`removeWeightNorm: ${wn.errRemove[1]}`);
    const c = new nn.Conv2d(2, 3, 2);
    torch.noGrad(() => c.weight.copy_(T(wn.convW)));
    nn.utils.weightNorm(c, 'weight', 1);
    close((c as any).weight_g, wn.convG, 'conv g dim=1');
  });

  it('parametrizations.weightNorm (2.x) equals the hook form', () => {
    const m = new nn.Linear(4, 3);
    setLinear(m, wn.weight, wn.bias);
    nn.utils.parametrizations.weightNorm(m);
    expect([...m.stateDict().keys()]).toEqual(['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']);
    const y = m(T(wn.x));
    close(y, wn.y, 'y');
    y.pow(2).sum().backward();
    const list = (m as any).parametrizations.weight;
    close(list.original0, wn.g, 'original0 = g');
    close(list.original0.grad, wn.gGrad, 'g.grad', 1e-4);
    close(list.original1.grad, wn.vGrad, 'v.grad', 1e-4);
  });

  const sn = golden.spectralNorm;
  it('hook-based spectralNorm draws u, v as PyTorch and iterates in training only', () => {
    torch.manualSeed(3);
    const m = new nn.Linear(5, 4);
    close(m.weight, sn.weight, 'seeded weight', 0);
    nn.utils.spectralNorm(m);
    const p = m as any;
    close(p.weight_u, sn.u0, 'u0');
    close(p.weight_v, sn.v0, 'v0');
    const y = m(T(sn.x));
    y.sum().backward();
    expect([...m.stateDict().keys()]).toEqual(sn.keys);
    close(y, sn.y, 'y');
    close(p.weight_u, sn.u1, 'u1');
    close(p.weight_v, sn.v1, 'v1');
    close(p.weight, sn.w1, 'w1');
    close(p.weight_orig.grad, sn.origGrad, 'orig.grad', 1e-4);
    m.eval();
    close(m(T(sn.x)), sn.yEval, 'eval y');
    close(p.weight_u, sn.u1, 'u unchanged in eval');
    expect(thrown(() => nn.utils.spectralNorm(m)).message).toBe(`spectralNorm: ${sn.errTwice[1]}`);
    nn.utils.removeSpectralNorm(m);
    expect([...m.stateDict().keys()]).toEqual(sn.removedKeys);
    close(m.weight, sn.removedWeight, 'removed weight');
    expect(thrown(() => nn.utils.removeSpectralNorm(m))).toBeInstanceOf(torch.ValueError);
    torch.manualSeed(5);
    const ct = new nn.ConvTranspose2d(3, 2, 2);
    close(ct.weight, sn.convT.weight, 'convT weight', 0);
    nn.utils.spectralNorm(ct);
    close((ct as any).weight_u, sn.convT.u0, 'convT u (dim 1)');
    close((ct as any).weight_v, sn.convT.v0, 'convT v');
  });

  it('parametrizations.spectralNorm: 15 iterations at registration, keys as PyTorch', () => {
    const sp = golden.spectralNormParametrization;
    torch.manualSeed(4);
    const m = new nn.Linear(5, 4);
    close(m.weight, sp.weight, 'seeded weight', 0);
    nn.utils.parametrizations.spectralNorm(m);
    const snp = (m as any).parametrizations.weight.get(0);
    close(snp._u, sp.u0, 'u after 15 iterations', 1e-4);
    close(snp._v, sp.v0, 'v after 15 iterations', 1e-4);
    expect([...m.stateDict().keys()]).toEqual(sp.keys);
    close(m.weight, sp.w1, 'weight (training)', 1e-4);
    close(snp._u, sp.u1, 'u after a training read', 1e-4);
    m.eval();
    close(m.weight, sp.wEval, 'weight (eval)', 1e-4);
  });
});

describe('parametrizations.orthogonal', () => {
  it('every map, with and without trivialization, as PyTorch for a seed', () => {
    const og = golden.orthogonal as Record<string, any>;
    const runs: [string, [number, number], Record<string, unknown>][] = [
      ['square', [4, 4], {}],
      ['cayley', [4, 4], { orthogonalMap: 'cayley' }],
      ['tall', [3, 5], {}],
      ['wide', [5, 3], {}],
      ['householderNoTriv', [3, 5], { orthogonalMap: 'householder', useTrivialization: false }],
    ];
    for (const [name, [i, o], opts] of runs) {
      const c = og[name];
      torch.manualSeed(10);
      const m = new nn.Linear(i, o);
      close(m.weight, c.w0, `${name} w0`, 0);
      nn.utils.parametrizations.orthogonal(m, 'weight', opts);
      m(torch.ones([2, i])).pow(2).sum().backward();
      close(m.weight, c.weight, `${name} weight`, 1e-4);
      expect([...m.stateDict().keys()], name).toEqual(c.keys);
      close((m as any).parametrizations.weight.original.grad, c.originalGrad, `${name} original.grad`, 1e-4);
    }
    const e = thrown(() => nn.utils.parametrizations.orthogonal(new nn.Linear(3, 3), 'bias'));
    expect(e).toBeInstanceOf(torch.ValueError);
    expect(e.message).toBe(`orthogonal: ${og.errDim[1]}`);
  });
});

describe('nn.init.truncNormal_ / orthogonal_ / sparse_', () => {
  const ini = golden.init;
  it('draw as PyTorch for a seed', () => {
    torch.manualSeed(6);
    close(nn.init.truncNormal_(torch.empty([5, 7])), ini.truncNormal, 'truncNormal_', 1e-6);
    torch.manualSeed(6);
    close(nn.init.truncNormal_(torch.empty([40]), { mean: 1, std: 0.5, a: 0, b: 1.5 }), ini.truncNormalArgs, 'truncNormal_ args', 1e-6);
    torch.manualSeed(7);
    close(nn.init.orthogonal_(torch.empty([3, 5])), ini.orthogonal, 'orthogonal_', 1e-5);
    torch.manualSeed(7);
    close(nn.init.orthogonal_(torch.empty([6, 2, 2]), { gain: 2 }), ini.orthogonalTall, 'orthogonal_ tall', 1e-5);
    torch.manualSeed(8);
    close(nn.init.sparse_(torch.empty([6, 4]), 0.5), ini.sparse, 'sparse_', 1e-6);
    torch.manualSeed(8);
    close(nn.init.sparse_(torch.empty([5, 3]), { sparsity: 0.3, std: 0.1 }), ini.sparseStd, 'sparse_ std', 1e-6);
    const e1 = thrown(() => nn.init.orthogonal_(torch.empty([3])));
    expect(e1).toBeInstanceOf(torch.ValueError);
    expect(e1.message).toBe(`orthogonal_: ${ini.errOrthogonal[1]}`);
    const e2 = thrown(() => nn.init.sparse_(torch.empty([3, 3, 3]), 0.1));
    expect(e2).toBeInstanceOf(torch.ValueError);
    expect(e2.message).toBe(`sparse_: ${ini.errSparse[1]}`);
  });
});

describe('clipGradNorm_ for every order', () => {
  it('total norms and clipped grads equal PyTorch', () => {
    const cg = golden.clipGradNorm as Record<string, any>;
    for (const [name, normType] of [['2', 2], ['1', 1], ['inf', Infinity], ['3', 3], ['0.5', 0.5]] as const) {
      const c = cg[name];
      const ps = c.grads.map((g: G) => {
        const p = torch.zeros(g.shape, { requiresGrad: true });
        p.grad = T(g);
        return p;
      });
      const total = nn.utils.clipGradNorm_(ps, 0.7, { normType, foreach: true });
      expect(Math.abs((total.item() as number) - c.total), name).toBeLessThanOrEqual(1e-5 * c.total);
      ps.forEach((p: torch.Tensor, i: number) => close(p.grad, c.clipped[i], `${name} grad ${i}`));
    }
    const p = torch.zeros([2], { requiresGrad: true });
    p.grad = torch.tensor([NaN, 1]);
    expect(thrown(() => nn.utils.clipGradNorm_([p], 1, { errorIfNonfinite: true }))).toBeInstanceOf(torch.TorchError);
  });
});

describe('meta-device modules', () => {
  it('factory kwargs, withDevice, toEmpty, printing, and compute errors', () => {
    const l = new nn.Linear(4, 3, { device: 'meta' });
    expect(l.weight.device.type).toBe('meta');
    expect(l.weight.shape).toEqual([3, 4]);
    expect(String(l.weight)).toBe("Parameter containing:\ntensor(..., device='meta', size=(3, 4), requires_grad=True)");
    const seq = torch.withDevice('meta', () => new nn.Sequential(new nn.Linear(2, 5, { dtype: 'float64' }), new nn.BatchNorm1d(5), new nn.Conv2d(1, 2, 3)));
    expect(torch.getDefaultDevice().type).toBe('cpu');
    for (const [name, t] of [...seq.namedParameters(), ...seq.namedBuffers()]) expect(t.device.type, name).toBe('meta');
    expect((seq.get(0) as torch.nn.Linear).weight.dtype).toBe('float64');
    const layers = torch.withDevice('meta', () => [
      new nn.Bilinear(2, 3, 4),
      new nn.ConvTranspose2d(2, 3, 3),
      new nn.LayerNorm(4),
      new nn.GroupNorm(2, 4),
      new nn.Embedding(10, 3),
      new nn.MultiheadAttention(4, 2),
      new nn.TransformerEncoderLayer(4, 2, 8),
      new nn.LSTM(3, 4, 2),
      new nn.GRUCell(3, 4),
    ]);
    for (const m of [...layers, new nn.LSTM(3, 4, { device: 'meta' }), new nn.Embedding(10, 3, { device: 'meta' })]) {
      for (const [name, t] of [...m.namedParameters(), ...m.namedBuffers()]) expect(t.device.type, `${m._getName()}.${name}`).toBe('meta');
    }
    expect(String(seq)).toContain('Linear(in_features=2, out_features=5, bias=True)');
    // meta compute propagates shapes; mixing with CPU data raises PyTorch's device error
    const y = l(torch.empty([2, 4], { device: 'meta' }));
    expect(y.device.type).toBe('meta');
    expect(y.shape).toEqual([2, 3]);
    const e = thrown(() => l(torch.ones([2, 4])));
    expect(e).toBeInstanceOf(torch.DeviceError);
    expect(e.message).toContain('expected all tensors to be on the same device');
    expect(thrown(() => l.weight.tolist())).toBeInstanceOf(torch.DeviceError);
    // toEmpty materialises, then init fills
    l.toEmpty({ device: 'cpu' });
    expect(l.weight.device.type).toBe('cpu');
    expect(l.weight).toBeInstanceOf(nn.Parameter);
    expect(l.weight.requiresGrad).toBe(true);
    torch.manualSeed(0);
    nn.init.ones_(l.weight);
    expect(vals(l(torch.ones([1, 4])).sub(l.bias!)) ).toEqual([4, 4, 4]);
    expect(thrown(() => torch.withDevice('nope' as never, () => 1))).toBeInstanceOf(torch.DeviceError);
    expect(thrown(() => torch.withDevice('meta', () => {
      throw new Error('inner');
    })).message).toBe('inner');
    expect(torch.getDefaultDevice().type).toBe('cpu');
    // factories from data and random ones follow the default; meta init draws take nothing from the generator
    const made = torch.withDevice('meta', () => [torch.tensor([1, 2]), torch.rand([2]), torch.zeros([1], { device: 'cpu' })]);
    expect(made.map((t) => t.device.type)).toEqual(['meta', 'meta', 'cpu']);
    torch.manualSeed(3);
    const a = torch.rand([5]).tolist();
    torch.manualSeed(3);
    torch.withDevice('meta', () => new nn.Linear(8, 8));
    expect(torch.rand([5]).tolist()).toEqual(a);
  });
});

describe('getParameter / getBuffer', () => {
  it("find a parameter or buffer by its dotted path, with PyTorch's errors", () => {
    const g = golden.getParameter;
    const m = new nn.Sequential(new nn.Linear(2, 2), new nn.BatchNorm1d(2));
    expect(m.getParameter('0.weight')).toBe((m.get(0) as torch.nn.Linear).weight);
    expect([m.getParameter('0.weight').shape, m.getBuffer('1.running_mean').shape]).toEqual(g.found);
    expect(m.getBuffer('1.running_mean')).toBe((m.get(1) as torch.nn.BatchNorm1d).running_mean);
    for (const [key, message] of Object.entries(g.errors)) {
      const [f, target] = key.split(' ');
      const err = thrown(() => (f === 'get_parameter' ? m.getParameter(target) : m.getBuffer(target)));
      expect(err, key).toBeInstanceOf(torch.TorchError);
      expect(err.message, key).toBe(`${f === 'get_parameter' ? 'getParameter' : 'getBuffer'}: ${message}`);
    }
  });
});
