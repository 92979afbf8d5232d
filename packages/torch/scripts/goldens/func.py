"""Goldens for torch.func (functorch in PyTorch 1.13): jacrev, jacfwd, jvp, hessian, grad with argnums and
has_aux, vjp, functional_call, and per-sample gradients of a small CNN with vmap(grad)."""
import torch
import torch.nn.functional as F
from functorch import vmap, grad, jacrev, jacfwd, jvp, hessian, vjp, grad_and_value
from torch.nn.utils.stateless import functional_call

from _common import values, write

torch.set_default_dtype(torch.float64)


def det(shape, k=1.0):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=torch.float64) * 0.37 * k + 0.1).sin().reshape(shape)


x = det([3])
y = det([3], 2.0)
A = det([2, 3], 3.0)

cases = {}
f1 = lambda x: (x.sin() * x).sum()
cases['grad_sin'] = {'x': values(x), 'grad': values(grad(f1)(x))}
f2 = lambda x, y: (x * y.exp()).sum()
gx, gy = grad(f2, argnums=(0, 1))(x, y)
cases['grad_argnums'] = {'x': values(x), 'y': values(y), 'gx': values(gx), 'gy': values(gy)}
g, aux = grad(lambda x: ((x ** 3).sum(), x.cos()), has_aux=True)(x)
cases['grad_aux'] = {'x': values(x), 'grad': values(g), 'aux': values(aux)}
gv, v = grad_and_value(lambda x: (x.tanh() ** 2).sum())(x)
cases['grad_and_value'] = {'x': values(x), 'grad': values(gv), 'value': values(v)}
f3 = lambda x: torch.mv(A, x).tanh()
cases['jacrev_mv_tanh'] = {'A': values(A), 'x': values(x), 'jac': values(jacrev(f3)(x))}
f4 = lambda x, y: (x[:, None] * y[None, :]).sin()
j0, j1 = jacrev(f4, argnums=(0, 1))(x, y)
cases['jacrev_outer'] = {'x': values(x), 'y': values(y), 'j0': values(j0), 'j1': values(j1)}
f5 = lambda x: (x.sin() * x.roll(1)).sum() + (x ** 4).sum()
cases['hessian'] = {'x': values(x), 'hess': values(hessian(f5)(x))}
f6 = lambda x, y: (x.exp() * y.sin()).sum()
cases['hessian_xy'] = {'x': values(x), 'y': values(y), 'hess': values(hessian(f6, argnums=1)(x, y))}
out, fn = vjp(lambda x: A @ x.sin(), x)
ct = det([2], 5.0)
cases['vjp'] = {'A': values(A), 'x': values(x), 'ct': values(ct), 'out': values(out), 'grad': values(fn(ct)[0])}

# forward mode: jvp (with has_aux and two primals) and jacfwd (argnums, a tuple of outputs)
tx = det([3], 11.0)
ty = det([3], 13.0)
o, jo = jvp(lambda x: torch.mv(A, x).tanh(), (x,), (tx,))
cases['jvp_mv_tanh'] = {'A': values(A), 'x': values(x), 'tx': values(tx), 'out': values(o), 'jvp': values(jo)}
o, jo, aux = jvp(lambda x, y: ((x * y.exp()).sin(), x.cos()), (x, y), (tx, ty), has_aux=True)
cases['jvp_two_aux'] = {'x': values(x), 'y': values(y), 'tx': values(tx), 'ty': values(ty), 'out': values(o), 'jvp': values(jo), 'aux': values(aux)}
cases['jacfwd_mv_tanh'] = {'A': values(A), 'x': values(x), 'jac': values(jacfwd(f3)(x))}
j0, j1 = jacfwd(f4, argnums=(0, 1))(x, y)
cases['jacfwd_outer'] = {'x': values(x), 'y': values(y), 'j0': values(j0), 'j1': values(j1)}
ja, jb = jacfwd(lambda x: (x.sin().sum(), x[:, None] * x[None, :]))(x)
cases['jacfwd_two_outputs'] = {'x': values(x), 'ja': values(ja), 'jb': values(jb)}

# functional_call on a Linear + BatchNorm-free net
lin = torch.nn.Linear(3, 2)
W = det([2, 3], 7.0)
b = det([2], 9.0)
cases['functional_call'] = {'W': values(W), 'b': values(b), 'x': values(A), 'out': values(functional_call(lin, {'weight': W, 'bias': b}, (A,)))}

# per-sample gradients of a small CNN: conv(1->2, 3x3) relu, flatten, linear(2*4*4 -> 3), cross entropy
cw = det([2, 1, 3, 3], 1.3)
cb = det([2], 1.7)
lw = det([3, 32], 0.7)
lb = det([3], 0.9)
xs = det([4, 1, 6, 6], 0.55)
ys = torch.tensor([0, 2, 1, 2])


def loss(p, x, y):
    h = F.relu(F.conv2d(x[None], p['cw'], p['cb']))
    logits = F.linear(h.flatten(1), p['lw'], p['lb'])
    return F.cross_entropy(logits, y[None])


p = {'cw': cw, 'cb': cb, 'lw': lw, 'lb': lb}
ps = vmap(grad(loss), in_dims=(None, 0, 0))(p, xs, ys)
cases['per_sample_cnn'] = {
    'params': {k: values(v) for k, v in p.items()},
    'x': values(xs),
    'y': ys.tolist(),
    'grads': {k: values(v) for k, v in ps.items()},
}

write('func', {'cases': cases})
