"""Goldens for torch.pdist / F.pdist, F.bilinear, F.gumbel_softmax (draws for a seed, hard and
soft), F.max_unpool1d / 2d / 3d and nn.MaxUnpool1d-3d, torch.chain_matmul: values, gradients,
reprs and errors, PyTorch 1.13.
Run: /usr/bin/python3 packages/torch/scripts/goldens/nn_composites_more.py"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

from _common import error_of, ramp_grad_case, values, write

warnings.simplefilter('ignore')
dt = torch.float64


torch.manual_seed(0)
X = torch.randn(5, 3, dtype=dt)
X[3] = X[1]  # a zero distance
pd = {str(p): ramp_grad_case(lambda x, p=p: torch.pdist(x, p), X) for p in [2.0, 1.0, 3.0, 0.5]}
Xu = torch.randn(4, 3, dtype=dt)  # no ties for inf / 0
pd['inf'] = ramp_grad_case(lambda x: torch.pdist(x, float('inf')), Xu)
pd['0'] = ramp_grad_case(lambda x: torch.pdist(x, 0.0), Xu)

A = torch.randn(2, 3, 4, dtype=dt)
B = torch.randn(2, 3, 5, dtype=dt)
W = torch.randn(6, 4, 5, dtype=dt)
b = torch.randn(6, dtype=dt)
bil = {'bias': ramp_grad_case(lambda x1, x2, w, bb: F.bilinear(x1, x2, w, bb), A, B, W, b), 'nobias': ramp_grad_case(lambda x1, x2, w: F.bilinear(x1, x2, w), A[0], B[0], W)}

L = torch.randn(3, 5, dtype=dt)
gum = {}
for key, kw in {'soft': {}, 'tau 0.5 dim 0': {'tau': 0.5, 'dim': 0}, 'hard': {'hard': True}}.items():
    torch.manual_seed(5)
    x = L.clone().requires_grad_()
    y = F.gumbel_softmax(x, **kw)
    (y * torch.linspace(-1, 1.5, y.numel(), dtype=dt).view(y.shape)).sum().backward()
    gum[key] = {'kw': kw, 'out': values(y), 'grad': values(x.grad)}

unpool = {}
x2 = torch.randn(2, 3, 5, 6, dtype=dt)
p2, i2 = F.max_pool2d(x2, 2, 2, return_indices=True)
unpool['2d'] = {'input': values(p2), 'indices': values(i2), **ramp_grad_case(lambda t: F.max_unpool2d(t, i2, 2), p2)}
unpool['2d output_size'] = ramp_grad_case(lambda t: F.max_unpool2d(t, i2, 2, output_size=[5, 6]), p2)
x1 = torch.randn(2, 3, 9, dtype=dt)
p1, i1 = F.max_pool1d(x1, 3, 2, 1, return_indices=True)
unpool['1d'] = {'input': values(p1), 'indices': values(i1), **ramp_grad_case(lambda t: nn.MaxUnpool1d(3, 2, 1)(t, i1), p1)}
x3 = torch.randn(1, 2, 4, 4, 5, dtype=dt)
p3, i3 = F.max_pool3d(x3, 2, return_indices=True)
unpool['3d'] = {'input': values(p3), 'indices': values(i3), **ramp_grad_case(lambda t: nn.MaxUnpool3d(2)(t, i3, output_size=[4, 4, 5]), p3)}

M = [torch.randn(2, 3, dtype=dt), torch.randn(3, 4, dtype=dt), torch.randn(4, 2, dtype=dt)]
chain = ramp_grad_case(lambda a, bb, c: torch.chain_matmul(a, bb, c), *M)

reprs = [repr(nn.MaxUnpool2d(2)), repr(nn.MaxUnpool1d(3, 2, 1)), repr(nn.MaxUnpool3d((2, 2, 2)))]
errors = {
    'pdist 3d': error_of(lambda: torch.pdist(torch.ones(2, 3, 4))),
    'pdist p': error_of(lambda: torch.pdist(torch.ones(3, 4), p=-1)),
    'bilinear in2': error_of(lambda: F.bilinear(torch.ones(2, 3), torch.ones(2, 4), torch.ones(5, 3, 3))),
    'bilinear batch': error_of(lambda: F.bilinear(torch.ones(2, 3), torch.ones(3, 4), torch.ones(5, 3, 4))),
    'bilinear bias': error_of(lambda: F.bilinear(torch.ones(2, 3), torch.ones(2, 4), torch.ones(5, 3, 4), torch.ones(4))),
    'unpool index': error_of(lambda: F.max_unpool2d(torch.ones(1, 1, 2, 2), torch.tensor([[[[0, 1], [2, 20]]]]), 2)),
    'unpool size': error_of(lambda: F.max_unpool2d(torch.ones(1, 1, 2, 2), torch.tensor([[[[0, 1], [2, 3]]]]), 2, output_size=[7, 7])),
    'chain none': error_of(lambda: torch.chain_matmul()),
    'chain 3d': error_of(lambda: torch.chain_matmul(torch.ones(2, 3, 4))),
}
write('nn_composites_more', {'x': values(X), 'xu': values(Xu), 'pdist': pd, 'a': values(A), 'b': values(B), 'w': values(W), 'bias': values(b), 'bilinear': bil,
                             'logits': values(L), 'gumbel': gum, 'unpool': unpool, 'chain_in': [values(m) for m in M], 'chain': chain, 'reprs': reprs, 'errors': errors})
