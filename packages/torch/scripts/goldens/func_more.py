"""Goldens for the rest of torch.func (functorch in PyTorch 1.13): vmap of transposed convolutions
(input, weight and bias batched), as_strided and in-place writes through batched views, functorch's
errors for out= forms and dynamic shapes; forward-mode AD under no_grad; reverse-over-forward
(grad of a function that calls jvp, autograd.grad of an unpacked tangent)."""
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
from functorch import vmap, grad, jvp

from _common import values, write

torch.set_default_dtype(torch.float64)


def det(shape, k=1.0):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=torch.float64) * 0.37 * k + 0.1).sin().reshape(shape)


def message(fn):
    try:
        fn()
    except RuntimeError as e:
        return str(e)
    raise AssertionError('no error')


cases = {}
B = 3
# transposed convolutions under vmap: [in_ch, out_ch/groups, *k] weights
conv = {}
for dims, fn in ((1, F.conv_transpose1d), (2, F.conv_transpose2d), (3, F.conv_transpose3d)):
    sp = [[5], [4, 3], [3, 2, 2]][dims - 1]
    k = [[3], [2, 2], [2, 2, 1]][dims - 1]
    x = det([B, 2, 4] + sp, 1.0 + dims)
    w = det([B, 4, 3] + k, 2.0 + dims)
    b = det([B, 6], 3.0 + dims)
    kw = dict(stride=2, padding=1, output_padding=1, groups=2, dilation=1)
    conv['d%d' % dims] = {
        'x': values(x), 'w': values(w), 'b': values(b), 'stride': 2, 'padding': 1, 'output_padding': 1, 'groups': 2,
        'input': values(vmap(lambda xi: fn(xi, w[0], b[0], **kw))(x)),
        'weight': values(vmap(lambda wi: fn(x[0], wi, None, **kw))(w)),
        'all': values(vmap(lambda xi, wi, bi: fn(xi, wi, bi, **kw))(x, w, b)),
        # a sample without its own batch dim: [C, *spatial]
        'unbatched_sample': values(vmap(lambda xi, wi: fn(xi[0], wi, b[0], **kw))(x, w)),
    }
cases['conv_transpose'] = conv

# as_strided and writes through batched views
x = torch.arange(24.).reshape(3, 8)
y = x.clone()


def scale_view(a):
    v = a.as_strided((2,), (2,))
    v.mul_(10)
    return a


out = vmap(scale_view)(y)
z = x.clone()


def add_view(a):
    a[1:3].add_(a[5:7])
    return a[:4]


vout = vmap(add_view)(z)
cases['views'] = {
    'x': values(x),
    'strided': values(vmap(lambda a: a.as_strided((2, 2), (1, 2)))(x)),
    'strided_offset': values(vmap(lambda a: a.as_strided((2, 2), (1, 2), 1))(x)),
    'strided_of_slice': values(vmap(lambda a: a[1:].as_strided((2, 2), (1, 2)))(x)),
    'strided_dim1': values(vmap(lambda a: a.as_strided((2, 2), (1, 2)), in_dims=1)(x.t().contiguous())),
    'strided_write_out': values(out), 'strided_write_input': values(y),
    'view_add_out': values(vout), 'view_add_input': values(z),
}
cases['errors'] = {
    'out': message(lambda: vmap(lambda a: torch.add(a, 1, out=torch.empty(8)))(x)),
    'out_batched': message(lambda: vmap(lambda a: torch.sin(a, out=a))(x.clone())),
    'nonzero': message(lambda: vmap(lambda a: torch.nonzero(a))(x)),
    'unique': message(lambda: vmap(lambda a: torch.unique(a))(x)),
    'masked_select': message(lambda: vmap(lambda a, m: torch.masked_select(a, m))(x, x > 3)),
}

# forward AD under no_grad
p = det([4], 1.5)
v = det([4], 2.5)
q = det([4], 3.5).requires_grad_()
with fwAD.dual_level():
    d = fwAD.make_dual(p, v)
    with torch.no_grad():
        r1 = d.sin() * d
        dq = fwAD.make_dual(q, v)
        r2 = (dq * dq).tanh().sum()
        rg = r2.requires_grad
    t1 = fwAD.unpack_dual(r1).tangent
    t2 = fwAD.unpack_dual(r2).tangent
    with torch.enable_grad():
        dq2 = fwAD.make_dual(q, v)
        r3 = (dq2 * dq2).tanh().sum()
    t3 = fwAD.unpack_dual(r3).tangent
cases['no_grad'] = {'p': values(p), 'v': values(v), 'q': values(q), 'sin_mul': values(t1), 'tanh_sum': values(t2),
                    'tanh_sum_requires_grad': rg, 'enable_grad_value': values(r3), 'enable_grad_tangent': values(t3)}

# no_grad entered before the dual level: tangents still propagate, nothing records
with torch.no_grad():
    with fwAD.dual_level():
        d = fwAD.make_dual(p, v)
        r1 = d.sin() * d
        dq = fwAD.make_dual(q, v)
        r2 = (dq * dq).tanh().sum()
        rg = r2.requires_grad
        t1 = fwAD.unpack_dual(r1).tangent
        t2 = fwAD.unpack_dual(r2).tangent
        with torch.enable_grad():
            dq2 = fwAD.make_dual(q, v)
            r3 = (dq2 * dq2).tanh().sum()
            rg3 = r3.requires_grad
        t3 = fwAD.unpack_dual(r3).tangent
    ge = torch.is_grad_enabled()
    r4 = q * 2
cases['no_grad_outer'] = {'sin_mul': values(t1), 'tanh_sum': values(t2), 'tanh_sum_requires_grad': rg,
                          'enable_grad_requires_grad': rg3, 'enable_grad_tangent': values(t3),
                          'grad_enabled_after': ge, 'after_requires_grad': r4.requires_grad}

# reverse over forward
A = det([3, 4], 4.0)
x = det([4], 5.0)
v = det([4], 6.0)
fs = {
    'sin_mul': lambda q: q.sin() * q,
    'mv_tanh': lambda q: torch.mv(A, q).tanh(),
    'softmax': lambda q: torch.softmax(q * q, 0),
    'views': lambda q: q[1:] * q[:-1] + q.reshape(2, 2).t().reshape(4)[:3],
    'norm_exp': lambda q: q.exp() / q.norm(),
}
rof = {}
for name, f in fs.items():
    rof[name] = {
        'wrt_primal': values(grad(lambda q: jvp(f, (q,), (v,))[1].sum())(x)),
        'wrt_tangent': values(grad(lambda t: (jvp(f, (x,), (t,))[1] ** 2).sum())(v)),
    }
closure = grad(lambda q: jvp(lambda r: r.sin() * q, (x,), (v,))[1].sum())(x)
xr = x.clone().requires_grad_()
with fwAD.dual_level():
    tt = fwAD.unpack_dual(fwAD.make_dual(xr, v).sin() * xr.exp()).tangent.sum()
gt = torch.autograd.grad(tt, xr)[0]
cases['reverse_over_forward'] = {'A': values(A), 'x': values(x), 'v': values(v), 'fns': rof, 'closure': values(closure), 'unpacked_tangent': values(gt)}
write('func_more', {'cases': cases})
