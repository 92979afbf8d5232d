"""PyTorch 1.13's torch.autograd.forward_ad and torch.autograd.functional, for
test/autograd-forward.test.ts.

Run with /usr/bin/python3 (PyTorch 1.13): writes test/goldens/forward_ad.json.
Inputs are deterministic: ramp(shape, a, b) = linspace(a, b, numel).reshape(shape), float64.
The functions f1..f5 are written the same way in the test.
"""
import torch
import torch.autograd.forward_ad as fwAD
import torch.autograd.functional as AF

from _common import values, write

D = torch.float64


def ramp(shape, a, b):
    n = 1
    for s in shape:
        n *= s
    return torch.linspace(a, b, n, dtype=D).reshape(shape)


def f1(x):
    return (x.sin() * x).sum()


def f2(x, y):
    return x.matmul(y).tanh()


def f3(x):
    return torch.softmax(x, -1) * x.exp()


def f4(x):
    return x.log_softmax(0).pow(2).sum() + x.prod()


def f5(x, y):
    return (x * y.cos()).sum() + (x.unsqueeze(1) * y).pow(2).sum()


x3 = ramp([3], -0.7, 1.1)
v3 = ramp([3], 0.3, -0.5)
x23 = ramp([2, 3], -1.0, 0.8)
y32 = ramp([3, 2], 0.5, -0.4)
x2 = ramp([2], 0.2, -0.9)
y2 = ramp([2, 2], 0.4, 1.3)

out = {}
out['jacobian_f2'] = [values(t) for t in AF.jacobian(f2, (x23, y32))]
out['jacobian_f3'] = values(AF.jacobian(f3, x3))
out['hessian_f1'] = values(AF.hessian(f1, x3))
out['hessian_f4'] = values(AF.hessian(f4, x3))
out['hessian_f5'] = [[values(t) for t in row] for row in AF.hessian(f5, (x2, y2))]
o, r = AF.vjp(f3, x3, v3)
out['vjp_f3'] = {'out': values(o), 'vjp': values(r)}
o, r = AF.jvp(f3, x3, v3)
out['jvp_f3'] = {'out': values(o), 'jvp': values(r)}
o, r = AF.hvp(f1, x3, v3)
out['hvp_f1'] = {'out': values(o), 'hvp': values(r)}
o, r = AF.vhp(f4, x3, v3)
out['vhp_f4'] = {'out': values(o), 'vhp': values(r)}
o, r = AF.hvp(f5, (x2, y2), (ramp([2], 1.0, -1.0), ramp([2, 2], 0.1, 0.4)))
out['hvp_f5'] = {'out': values(o), 'hvp': [values(t) for t in r]}

# forward_ad: tangents of outputs of dual inputs
with fwAD.dual_level():
    t23 = ramp([2, 3], 0.2, 0.9)
    t32 = ramp([3, 2], -0.3, 0.3)
    y = f2(fwAD.make_dual(x23, t23), fwAD.make_dual(y32, t32))
    out['dual_f2'] = values(fwAD.unpack_dual(y).tangent)
    y = f3(fwAD.make_dual(x3, v3))
    out['dual_f3'] = values(fwAD.unpack_dual(y).tangent)

    # in-place on a view of a clone of a dual tensor: the clone's tangent changes too
    d = fwAD.make_dual(x3.clone(), v3.clone())
    c = d.clone()
    w = c[1:3]
    w.mul_(torch.tensor([2.0, -1.0], dtype=D))
    out['inplace_view'] = {'c': values(fwAD.unpack_dual(c).tangent), 'w': values(fwAD.unpack_dual(w).tangent)}

    # an in-place op on a view of a base without a tangent gives the base one
    base = torch.zeros(4, dtype=D)
    view = base[1:3]
    view.copy_(fwAD.make_dual(torch.ones(2, dtype=D), torch.tensor([5.0, 6.0], dtype=D)))
    out['inplace_into_plain'] = values(fwAD.unpack_dual(base).tangent)

    # a view made before an in-place change of its base sees the base's new tangent
    d = fwAD.make_dual(x23.clone(), t23.clone())
    dt = d.t()
    d.mul_(3)
    d.index_add_(0, torch.tensor([1]), fwAD.make_dual(ramp([1, 3], 1.0, 2.0), ramp([1, 3], -1.0, 1.0)))
    out['view_sees_inplace'] = {'d': values(fwAD.unpack_dual(d).tangent), 'dt': values(fwAD.unpack_dual(dt).tangent)}

    # a tangent laid out otherwise than its primal is copied into the primal's layout
    tt = ramp([3, 2], 0.0, 1.0).t()
    dd = fwAD.make_dual(x23, tt)
    ut = fwAD.unpack_dual(dd).tangent
    out['layout'] = {'stride': list(ut.stride()), 'values': values(ut), 'same_storage': ut.data_ptr() == tt.data_ptr()}
    t2 = t23.clone()
    ut2 = fwAD.unpack_dual(fwAD.make_dual(x23, t2)).tangent
    out['layout_same'] = {'stride': list(ut2.stride()), 'same_storage': ut2.data_ptr() == t2.data_ptr()}

write('forward_ad', out)
