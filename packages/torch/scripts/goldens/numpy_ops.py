"""Goldens for torch's NumPy-style functions that torch-ts composes from its ops: meshgrid,
tensor_split / hsplit / vsplit / dsplit, atleast_Nd, column_stack / row_stack / dstack, rot90,
take_along_dim, diag / diag_embed / diagflat, logaddexp / logaddexp2, deg2rad / rad2deg,
argwhere, inner, vdot, msort, aminmax, addmv / addr / addbmm, logspace, torch.normal (values
for a seed). Each case: the outputs, and the gradients of the float inputs for the loss
sum(out * w) with w = arange(out.numel()) / 10. PyTorch 1.13, float64.
Run: /usr/bin/python3 packages/torch/scripts/goldens/numpy_ops.py"""
import torch

from _common import error_of, fin, values as values_raw, write


def values(t):
    v = values_raw(t)
    return {**v, 'values': fin(v['values'])}

torch.manual_seed(0)
dt = torch.float64
X = torch.randn(3, 4, dtype=dt)
V = torch.randn(4, dtype=dt)
W = torch.randn(3, dtype=dt)
Z = torch.randn(2, 3, 4, dtype=dt)
M = torch.randn(2, 3, 2, dtype=dt)
INF = torch.tensor([float('inf'), -float('inf'), float('inf'), 1.0, -3.0], dtype=dt)
INF2 = torch.tensor([float('inf'), -float('inf'), -float('inf'), 1.0, 800.0], dtype=dt)
S = torch.tensor([-1.5, 0.0, -0.0, 2.0, float('inf'), -float('inf'), float('nan'), 3.0], dtype=dt)
T = torch.tensor([[3., 1, 2, 1], [0, 5, 5, 1], [2, 2, -1, 4]], dtype=dt)
FW = torch.tensor([1, 2, 1, 3])
AW = torch.tensor([0.5, 1.0, 2.0, 0.25], dtype=dt)
inputs = {'X': X, 'V': V, 'W': W, 'Z': Z, 'M': M, 'INF': INF, 'INF2': INF2, 'S': S, 'T': T, 'AW': AW}
IDX = torch.tensor([[0, 3], [1, 1], [2, 0]])

CASES = {
    'meshgrid ij': (['V', 'W'], lambda v, w: torch.meshgrid(v, w, indexing='ij')),
    'meshgrid xy': (['V', 'W'], lambda v, w: torch.meshgrid(v, w, indexing='xy')),
    'meshgrid 3': (['V', 'W', 'V'], lambda a, b, c: torch.meshgrid(a, b, c, indexing='ij')),
    'tensor_split sections': (['X'], lambda x: torch.tensor_split(x, 3, 1)),
    'tensor_split indices': (['X'], lambda x: torch.tensor_split(x, [1, 5, -2], 1)),
    'hsplit': (['X'], lambda x: torch.hsplit(x, 2)),
    'vsplit indices': (['X'], lambda x: torch.vsplit(x, [1])),
    'dsplit': (['Z'], lambda z: torch.dsplit(z, 2)),
    'atleast_3d': (['V'], lambda v: torch.atleast_3d(v)),
    'column_stack': (['V', 'X'], lambda v, x: torch.column_stack([v[:3], x])),
    'dstack': (['X', 'V'], lambda x, v: torch.dstack([x, v.expand(3, 4)])),
    'rot90 k1': (['Z'], lambda z: torch.rot90(z, 1, [1, 2])),
    'rot90 k-1': (['Z'], lambda z: torch.rot90(z, -1, [2, 0])),
    'rot90 k2': (['X'], lambda x: torch.rot90(x, 2)),
    'take_along_dim': (['X'], lambda x: torch.take_along_dim(x, IDX, 1)),
    'take_along_dim bcast': (['Z'], lambda z: torch.take_along_dim(z, torch.tensor([[[1], [0], [2]]]), 2)),
    'take_along_dim none': (['X'], lambda x: torch.take_along_dim(x, torch.tensor([0, 11, 5]))),
    'diag vec k1': (['V'], lambda v: torch.diag(v, 1)),
    'diag vec k-2': (['W'], lambda w: torch.diag(w, -2)),
    'diag mat k1': (['X'], lambda x: torch.diag(x, 1)),
    'diag_embed': (['X'], lambda x: torch.diag_embed(x, 1, 0, 2)),
    'diag_embed default': (['X'], lambda x: torch.diag_embed(x)),
    'diagflat': (['X'], lambda x: torch.diagflat(x, -1)),
    'logaddexp': (['X', 'V'], lambda x, v: torch.logaddexp(x, v)),
    'logaddexp2': (['X', 'V'], lambda x, v: torch.logaddexp2(x * 30, v)),
    'logaddexp inf': (['INF', 'INF2'], lambda a, b: torch.logaddexp(a, b)),
    'deg2rad': (['X'], lambda x: torch.deg2rad(x)),
    'rad2deg': (['X'], lambda x: torch.rad2deg(x)),
    'inner': (['X', 'Z'], lambda x, z: torch.inner(x, z)),
    'vdot': (['V'], lambda v: torch.vdot(v, v.flip(0))),
    'msort': (['X'], lambda x: torch.msort(x)),
    'addmv': (['W', 'X', 'V'], lambda w, x, v: torch.addmv(w, x, v, beta=0.5, alpha=2)),
    'addmv beta0': (['W', 'X', 'V'], lambda w, x, v: torch.addmv(w * float('nan'), x, v, beta=0)),
    'addr': (['X', 'W', 'V'], lambda x, w, v: torch.addr(x, w, v, beta=2, alpha=-1)),
    'addbmm': (['X', 'M', 'Z'], lambda x, m, z: torch.addbmm(x, m, z[:, :2, :], beta=0.5)),
    'isneginf': (['S'], lambda x: torch.isneginf(x)),
    'isposinf': (['S'], lambda x: torch.isposinf(x)),
    'signbit': (['S'], lambda x: torch.signbit(x)),
    'isreal': (['X'], lambda x: torch.isreal(x)),
    'copysign': (['X', 'V'], lambda x, v: torch.copysign(x, v)),
    'copysign zero': (['S'], lambda s: torch.copysign(torch.tensor(2.0, dtype=dt), s)),
    'heaviside': (['S', 'V'], lambda s, v: torch.heaviside(s.detach(), v[:1].detach())),
    'float_power': (['X'], lambda x: torch.float_power(x.abs(), 1.5)),
    'ldexp': (['X'], lambda x: torch.ldexp(x, torch.tensor([1, -2, 3, 0]))),
    'kthvalue': (['T'], lambda t: torch.kthvalue(t, 2, 1)),
    'kthvalue dim0 keepdim': (['X'], lambda x: torch.kthvalue(x, 3, 0, keepdim=True)),
    'cov': (['X'], lambda x: torch.cov(x)),
    'cov correction0 vector': (['V'], lambda v: torch.cov(v, correction=0)),
    'cov weights': (['X'], lambda x: torch.cov(x, fweights=FW, aweights=AW)),
    'corrcoef': (['X'], lambda x: torch.corrcoef(x)),
    'trapezoid': (['X'], lambda x: torch.trapezoid(x)),
    'trapezoid dx dim0': (['X'], lambda x: torch.trapezoid(x, dx=0.5, dim=0)),
    'trapezoid x': (['X', 'V'], lambda x, v: torch.trapezoid(x, v.cumsum(0))),
    'trapz': (['X'], lambda x: torch.trapz(x, dim=0)),
    'cumulative_trapezoid': (['X'], lambda x: torch.cumulative_trapezoid(x, dx=2.0)),
    'cumulative_trapezoid x': (['Z', 'V'], lambda z, v: torch.cumulative_trapezoid(z, v.exp().cumsum(0), dim=2)),
    # (1.13's vander has no working backward: an in-place cumprod on a view it saved)
    'vander': (['V'], lambda v: torch.vander(v.detach())),
    'vander increasing N': (['W'], lambda w: torch.vander(w.detach(), 5, True)),
    'renorm': (['X'], lambda x: torch.renorm(x, 2, 0, 1.2)),
    'renorm p1 dim1': (['Z'], lambda z: torch.renorm(z, 1, 1, 2.0)),
    'index_copy': (['X', 'M'], lambda x, m: torch.index_copy(x, 1, torch.tensor([3, 0]), m[0])),
    'put': (['X', 'V'], lambda x, v: x.put(torch.tensor([0, 11, 5]), v[:3])),
    'put accumulate': (['X', 'V'], lambda x, v: x.put(torch.tensor([1, 1, 7]), v[:3], accumulate=True)),
}

cases = {}
for name, (names, f) in CASES.items():
    args = [inputs[n].clone().requires_grad_() for n in names]
    outs = f(*args)
    outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
    loss = sum((o * (torch.arange(o.numel(), dtype=dt).view(o.shape) / 10)).sum() for o in outs if o.requires_grad)
    if torch.is_tensor(loss):
        try:
            loss.backward()
        except RuntimeError as e:
            raise RuntimeError(name + ': ' + str(e)) from e
    cases[name] = {'inputs': names, 'outs': [values(o) for o in outs],
                   'grads': [values(a.grad) if a.grad is not None else None for a in args]}

out = {'inputs': {k: values(v) for k, v in inputs.items()}, 'cases': cases}
out['argwhere'] = torch.argwhere(X > 0).tolist()
am = torch.aminmax(X, dim=1, keepdim=True)
out['aminmax'] = {'min': values(am.min), 'max': values(am.max), 'all': [torch.aminmax(X).min.item(), torch.aminmax(X).max.item()]}
out['logspace'] = {'f32': values(torch.logspace(-1, 2, 7)), 'base2': values(torch.logspace(0, 3, 4, base=2, dtype=dt)),
                   'int': values(torch.logspace(0, 2, 3, dtype=torch.int64)), 'one': values(torch.logspace(2, 5, 1, dtype=dt))}
normal = {}
for key, f in {
    'tensor mean, float std': lambda: torch.normal(torch.arange(20, dtype=dt), 2.0),
    'float mean, tensor std': lambda: torch.normal(1.5, torch.arange(1, 21, dtype=dt) / 10),
    'tensor, tensor bcast': lambda: torch.normal(torch.zeros(4, 1, dtype=dt), torch.ones(5, dtype=dt)),
    'size': lambda: torch.normal(2.0, 3.0, (3, 7)),
    'size f64': lambda: torch.normal(-1.0, 0.5, (20,), dtype=dt),
}.items():
    torch.manual_seed(3)
    normal[key] = values(f())
out['normal'] = normal
out['errors'] = {
    'meshgrid 2d': error_of(lambda: torch.meshgrid(X, V, indexing='ij')),
    'hsplit': error_of(lambda: torch.hsplit(X, 3)),
    'vsplit 1d': error_of(lambda: torch.vsplit(V, 2)),
    'rot90 dims': error_of(lambda: torch.rot90(X, 1, [0])),
    'rot90 same': error_of(lambda: torch.rot90(X, 1, [1, 1])),
    'take_along_dim rank': error_of(lambda: torch.take_along_dim(X, torch.tensor([0]), 1)),
    'diag 3d': error_of(lambda: torch.diag(Z)),
    'vdot 2d': error_of(lambda: torch.vdot(X, V)),
    'normal std': error_of(lambda: torch.normal(torch.zeros(2), -1.0)),
}
out['vander_int'] = values(torch.vander(torch.tensor([1, 2, 3])))
# kthvalue's index among ties (and NaNs) is its quickselect's: every k of tie-heavy rows
g = torch.Generator().manual_seed(5)
ties = torch.randint(0, 4, (40, 9), generator=g).double()
ties[torch.rand(40, 9, generator=g) < 0.1] = float('nan')
out['kthvalue_ties'] = {'rows': [[('nan' if v != v else v) for v in r] for r in ties.tolist()],
                        'indices': [[torch.kthvalue(r, k).indices.item() for k in range(1, 10)] for r in ties]}
out['isin'] = {'basic': torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4])).tolist(),
               'invert scalar': torch.isin(torch.tensor([1, 2, 3]), 2, invert=True).tolist(),
               'float 2d': torch.isin(T, torch.tensor([1., 5.], dtype=dt)).tolist()}
out['errors'].update({
    'kthvalue k': error_of(lambda: torch.kthvalue(X, 5, 1)),
    'cov 3d': error_of(lambda: torch.cov(Z)),
    'vander 2d': error_of(lambda: torch.vander(X)),
})
write('numpy_ops', out)
