"""Goldens for torch.gradient (uniform and per-dim spacing, coordinate tensors, edge_order 1 and 2,
dim lists, integer input, input gradients) and its errors, PyTorch 1.13.
Run: /usr/bin/python3 packages/torch/scripts/goldens/torch_gradient.py"""
import warnings

import torch

from _common import error_of, values, write

warnings.simplefilter('ignore')
dt = torch.float64
torch.manual_seed(0)
X = torch.randn(4, 5, 3, dtype=dt)
C0 = torch.tensor([0.0, 0.5, 1.7, 2.0], dtype=dt)
C2 = torch.tensor([-1.0, 0.25, 3.0], dtype=dt)
cases = {}
for key, kw in {
    'default': {},
    'edge 2': {'edge_order': 2},
    'scalar dim 1': {'spacing': 2.0, 'dim': 1},
    'list spacing': {'spacing': [0.5, 2.0, 3.0]},
    'dims [2, 0]': {'dim': [2, 0], 'spacing': [1.5, 0.25]},
    'coords': {'spacing': [C0, C2], 'dim': [0, 2]},
    'coords edge 2': {'spacing': [C0, C2], 'dim': [0, 2], 'edge_order': 2},
    'negative dim': {'dim': -1, 'edge_order': 2},
}.items():
    x = X.clone().requires_grad_()
    outs = torch.gradient(x, **kw)
    loss = sum((o * torch.linspace(-1, 1, o.numel(), dtype=dt).view(o.shape) * (k + 1)).sum() for k, o in enumerate(outs))
    loss.backward()
    enc = {k: ([values(t) for t in v] if isinstance(v, list) and v and isinstance(v[0], torch.Tensor) else v) for k, v in kw.items()}
    cases[key] = {'kw': enc, 'outs': [values(o) for o in outs], 'grad': values(x.grad)}
ints = [values(o) for o in torch.gradient(torch.tensor([1, 2, 4, 8, 16]), edge_order=2)]
errors = {
    'small': error_of(lambda: torch.gradient(torch.ones(2), edge_order=2)),
    'order': error_of(lambda: torch.gradient(torch.ones(3), edge_order=3)),
    'spacing length': error_of(lambda: torch.gradient(torch.ones(3, 4), spacing=[1.0, 2.0, 3.0])),
    'repeated dim': error_of(lambda: torch.gradient(torch.ones(3, 4), dim=[0, 0])),
}
write('torch_gradient', {'x': values(X), 'cases': cases, 'ints': ints, 'errors': errors})
