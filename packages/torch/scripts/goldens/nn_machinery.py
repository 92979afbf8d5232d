"""Goldens for nn module machinery: full backward hooks, parametrize, weight/spectral norm (both
forms), init.trunc_normal_/orthogonal_/sparse_, clip_grad_norm_ orders."""
import math
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
from _common import values, write

torch.set_default_dtype(torch.float32)
out = {}


def err(fn):
    try:
        fn()
    except Exception as e:
        return [type(e).__name__, str(e)]
    raise AssertionError('no error')


# ---- full backward hooks ----
torch.manual_seed(0)
lin = nn.Linear(3, 2)
x = torch.randn(4, 3, requires_grad=True)
w = torch.randn(4, 2)
seen = []
h = lin.register_full_backward_hook(lambda m, gi, go: seen.append((gi, go)))
y = lin(x)
(y * w).sum().backward()
bh = {'weight': values(lin.weight), 'bias': values(lin.bias), 'x': values(x), 'w': values(w), 'calls': len(seen),
      'gradInput': values(seen[0][0][0]), 'gradOutput': values(seen[0][1][0]), 'xgrad': values(x.grad)}
h.remove()
x.grad = None
lin.register_full_backward_hook(lambda m, gi, go: (gi[0] * 3,))
(lin(x) * w).sum().backward()
bh['xgradTripled'] = values(x.grad)


class Two(nn.Module):
    def forward(self, a, b, k):
        return a * b * k, a + b


two = Two()
rec = []
two.register_full_backward_hook(lambda m, gi, go: rec.append((gi, go)))
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = torch.tensor([4., 5., 6.])
p, q = two(a, b, 2.0)
(p.sum() + (q * q).sum()).backward()
gi, go = rec[0]
bh['two'] = {'gi': [None if g is None else values(g) for g in gi], 'go': [values(g) for g in go], 'agrad': values(a.grad)}

# no input requires grad: the hook still runs, with gradInput all None
lin2 = nn.Linear(3, 2)
rec2 = []
lin2.register_full_backward_hook(lambda m, gi, go: rec2.append((gi, go)))
lin2(torch.ones(1, 3)).sum().backward()
bh['noInputGrad'] = {'gi': [g is None for g in rec2[0][0]], 'go': values(rec2[0][1][0])}
lin3 = nn.Linear(3, 2)
lin3.register_full_backward_hook(lambda m, gi, go: (torch.ones(1, 3),))
bh['errNoInputReturn'] = err(lambda: lin3(torch.ones(1, 3)).sum().backward())
lin4 = nn.Linear(3, 2)
lin4.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
bh['errCount'] = err(lambda: lin4(torch.ones(1, 3, requires_grad=True)).sum().backward())
lin5 = nn.Linear(3, 2)
lin5.register_full_backward_hook(lambda m, gi, go: None)
bh['errInplace'] = err(lambda: lin5(torch.ones(1, 3)).add_(1))
out['backwardHooks'] = bh


# ---- parametrize ----
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


torch.manual_seed(1)
m = nn.Linear(3, 3)
w0 = m.weight.detach().clone()
P.register_parametrization(m, 'weight', Symmetric())
xs = torch.randn(2, 3)
m(xs).pow(2).sum().backward()
pz = {'w0': values(w0), 'b0': values(m.bias), 'x': values(xs), 'weight': values(m.weight),
      'keys': list(m.state_dict().keys()), 'repr': repr(m), 'original': values(m.parametrizations.weight.original),
      'originalGrad': values(m.parametrizations.weight.original.grad)}
A = torch.arange(9.).reshape(3, 3)
m.weight = A
pz['afterAssignOriginal'] = values(m.parametrizations.weight.original)
P.remove_parametrizations(m, 'weight')
pz['removedKeys'] = list(m.state_dict().keys())
pz['removedWeight'] = values(m.weight)
m2 = nn.Linear(3, 3)
pz['errNotParametrized'] = err(lambda: P.remove_parametrizations(m2, 'weight'))


class Shrink(nn.Module):
    def forward(self, X):
        return X[:2]


pz['errShape'] = err(lambda: P.register_parametrization(nn.Linear(3, 3), 'weight', Shrink()))
out['parametrize'] = pz

# ---- weight norm (hook form) ----
torch.manual_seed(2)
m = nn.Linear(4, 3)
wn = {'weight': values(m.weight), 'bias': values(m.bias)}
nn.utils.weight_norm(m)
xw = torch.randn(5, 4)
yw = m(xw)
yw.pow(2).sum().backward()
wn.update({'keys': list(m.state_dict().keys()), 'g': values(m.weight_g), 'v': values(m.weight_v), 'x': values(xw), 'y': values(yw),
           'gGrad': values(m.weight_g.grad), 'vGrad': values(m.weight_v.grad)})
m0 = nn.Linear(4, 3)
with torch.no_grad():
    m0.weight.copy_(torch.tensor(wn['weight']['values']).reshape(3, 4))
nn.utils.weight_norm(m0, dim=None)
wn['gDimNone'] = values(m0.weight_g)
wn['errTwice'] = err(lambda: nn.utils.weight_norm(m))
nn.utils.remove_weight_norm(m)
wn['removedKeys'] = list(m.state_dict().keys())
wn['errRemove'] = err(lambda: nn.utils.remove_weight_norm(m))
c = nn.Conv2d(2, 3, 2)
nn.utils.weight_norm(c, dim=1)
wn['convG'] = values(c.weight_g)
wn['convW'] = values(c.weight_v)
out['weightNorm'] = wn

# ---- spectral norm (hook form and parametrization) ----
torch.manual_seed(3)
m = nn.Linear(5, 4)
sn = {'weight': values(m.weight), 'bias': values(m.bias)}
nn.utils.spectral_norm(m)
sn['u0'] = values(m.weight_u)
sn['v0'] = values(m.weight_v)
xsn = torch.randn(2, 5)
ysn = m(xsn)
ysn.sum().backward()
sn.update({'keys': list(m.state_dict().keys()), 'x': values(xsn), 'y': values(ysn), 'u1': values(m.weight_u), 'v1': values(m.weight_v),
           'w1': values(m.weight), 'origGrad': values(m.weight_orig.grad)})
m.eval()
sn['yEval'] = values(m(xsn))
sn['errTwice'] = err(lambda: nn.utils.spectral_norm(m))
nn.utils.remove_spectral_norm(m)
sn['removedKeys'] = list(m.state_dict().keys())
sn['removedWeight'] = values(m.weight)
torch.manual_seed(4)
m = nn.Linear(5, 4)
sp = {'weight': values(m.weight)}
torch.nn.utils.parametrizations.spectral_norm(m)
sp['u0'] = values(m.parametrizations.weight[0]._u)
sp['v0'] = values(m.parametrizations.weight[0]._v)
sp['keys'] = list(m.state_dict().keys())
sp['w1'] = values(m.weight)
sp['u1'] = values(m.parametrizations.weight[0]._u)
m.eval()
sp['wEval'] = values(m.weight)
torch.manual_seed(5)
ct = nn.ConvTranspose2d(3, 2, 2)
wct = values(ct.weight)
nn.utils.spectral_norm(ct)
sn['convT'] = {'weight': wct, 'u0': values(ct.weight_u), 'v0': values(ct.weight_v)}
out['spectralNorm'] = sn
out['spectralNormParametrization'] = sp

# ---- orthogonal parametrization ----
orth = {}
for name, shape, kw in [('square', (4, 4), {}), ('cayley', (4, 4), {'orthogonal_map': 'cayley'}), ('tall', (3, 5), {}), ('wide', (5, 3), {}),
                        ('householderNoTriv', (3, 5), {'orthogonal_map': 'householder', 'use_trivialization': False})]:
    torch.manual_seed(10)
    m = nn.Linear(*shape)
    w0 = values(m.weight)
    torch.nn.utils.parametrizations.orthogonal(m, **kw)
    xo = torch.ones(2, shape[0])
    m(xo).pow(2).sum().backward()
    orth[name] = {'w0': w0, 'weight': values(m.weight), 'keys': list(m.state_dict().keys()),
                  'originalGrad': values(m.parametrizations.weight.original.grad)}
orth['errDim'] = err(lambda: torch.nn.utils.parametrizations.orthogonal(nn.Linear(3, 3), 'bias'))
out['orthogonal'] = orth

# ---- init ----
ini = {}
torch.manual_seed(6)
ini['truncNormal'] = values(nn.init.trunc_normal_(torch.empty(5, 7)))
torch.manual_seed(6)
ini['truncNormalArgs'] = values(nn.init.trunc_normal_(torch.empty(40), mean=1.0, std=0.5, a=0.0, b=1.5))
torch.manual_seed(7)
ini['orthogonal'] = values(nn.init.orthogonal_(torch.empty(3, 5)))
torch.manual_seed(7)
ini['orthogonalTall'] = values(nn.init.orthogonal_(torch.empty(6, 2, 2), gain=2.0))
torch.manual_seed(8)
ini['sparse'] = values(nn.init.sparse_(torch.empty(6, 4), 0.5))
torch.manual_seed(8)
ini['sparseStd'] = values(nn.init.sparse_(torch.empty(5, 3), sparsity=0.3, std=0.1))
ini['errOrthogonal'] = err(lambda: nn.init.orthogonal_(torch.empty(3)))
ini['errSparse'] = err(lambda: nn.init.sparse_(torch.empty(3, 3, 3), 0.1))
out['init'] = ini

# ---- clip_grad_norm_ ----
cg = {}
for name, nt in [('2', 2.0), ('1', 1.0), ('inf', math.inf), ('3', 3.0), ('0.5', 0.5)]:
    torch.manual_seed(9)
    ps = [torch.randn(3, 2, requires_grad=True), torch.randn(4, requires_grad=True)]
    for p in ps:
        p.grad = torch.randn_like(p)
    grads = [values(p.grad) for p in ps]
    total = torch.nn.utils.clip_grad_norm_(ps, 0.7, norm_type=nt)
    cg[name] = {'grads': grads, 'total': total.item(), 'clipped': [values(p.grad) for p in ps]}
pnan = torch.zeros(2, requires_grad=True)
pnan.grad = torch.tensor([float('nan'), 1.])
cg['errNonfinite'] = err(lambda: torch.nn.utils.clip_grad_norm_([pnan], 1.0, error_if_nonfinite=True))
out['clipGradNorm'] = cg

# (The spectralNorm, spectralNormParametrization, orthogonal and init values are float32
# results whose last bits depend on the CPU's BLAS / LAPACK kernels: a rerun on another CPU
# (an AMD EPYC, 2026-11-28) moved them by up to 4e-6 relative; the committed ones are from the
# machine they were first written on, and a rerun elsewhere may need to keep them.)

# get_parameter / get_buffer: what they find, and their errors
gm = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
gp = {'found': [list(gm.get_parameter('0.weight').shape), list(gm.get_buffer('1.running_mean').shape)], 'errors': {}}
for f in ['get_parameter', 'get_buffer']:
    for t in ['0.bias2', '2.weight', '0.training', '0.weight', '1.running_mean']:
        try:
            getattr(gm, f)(t)
        except AttributeError as e:
            gp['errors'][f + ' ' + t] = str(e)
out['getParameter'] = gp

write('nn_machinery', out)
