"""Goldens for F.dropout1d / 2d / 3d and nn.Dropout1d / 2d / 3d (values for a seed, reprs,
errors) and F.normalize (values and gradients, zero rows, p = 1 and inf), PyTorch 1.13.
Run: /usr/bin/python3 packages/torch/scripts/goldens/nn_feature_dropout.py"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

from _common import error_of, values, write

warnings.simplefilter('ignore')
dt = torch.float64
drops = {}
for key, f in {
    'dropout1d': lambda: F.dropout1d(torch.ones(3, 4, 2, dtype=dt), 0.3),
    'dropout1d unbatched': lambda: F.dropout1d(torch.ones(5, 3, dtype=dt), 0.5),
    'dropout2d': lambda: F.dropout2d(torch.ones(2, 5, 2, 2, dtype=dt), 0.4),
    'dropout2d 3d': lambda: F.dropout2d(torch.ones(3, 4, 2, dtype=dt), 0.5),
    'dropout3d': lambda: F.dropout3d(torch.ones(2, 3, 1, 2, 1, dtype=dt), 0.5),
    'dropout3d unbatched': lambda: F.dropout3d(torch.ones(4, 1, 2, 1, dtype=dt), 0.25),
    'p1': lambda: F.dropout2d(torch.ones(2, 2, 1, 1, dtype=dt), 1.0),
    'eval': lambda: F.dropout2d(torch.ones(2, 2, 1, 1, dtype=dt), 0.5, training=False),
}.items():
    torch.manual_seed(4)
    drops[key] = values(f())
reprs = [repr(nn.Dropout1d()), repr(nn.Dropout2d(0.2)), repr(nn.Dropout3d(inplace=True))]
torch.manual_seed(0)
X = torch.randn(3, 4, 2, dtype=dt)
X[1, :, 0] = 0
norms = {}
for key, kw in {'default': {}, 'p1 dim0': {'p': 1.0, 'dim': 0}, 'pinf dim2': {'p': float('inf'), 'dim': 2}, 'eps': {'eps': 0.5}}.items():
    x = X.clone().requires_grad_()
    y = F.normalize(x, **kw)
    (y * torch.arange(y.numel(), dtype=dt).view(y.shape) / 10).sum().backward()
    norms[key] = {'kw': {k: ('inf' if v == float('inf') else v) for k, v in kw.items()}, 'out': values(y), 'grad': values(x.grad)}
errors = {'dropout1d 4d': error_of(lambda: F.dropout1d(torch.ones(2, 3, 4, 5))), 'p': error_of(lambda: F.dropout2d(torch.ones(2, 3, 4, 5), 1.5))}
write('nn_feature_dropout', {'dropouts': drops, 'reprs': reprs, 'x': values(X), 'normalize': norms, 'errors': errors})
