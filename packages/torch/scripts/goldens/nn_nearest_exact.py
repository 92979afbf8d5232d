"""Goldens for F.interpolate(mode='nearest-exact') on 3-d, 4-d and 5-d inputs (sizes and scale
factors up, down and non-integer; values, input gradients, channels-last layouts) and
nn.Upsample's repr with it, PyTorch 1.13.
Run: /usr/bin/python3 packages/torch/scripts/goldens/nn_nearest_exact.py"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

from _common import values, write

warnings.simplefilter('ignore')
dt = torch.float64
torch.manual_seed(0)
cases = {}
for key, shape, kw in [
    ('1d up size', (2, 3, 5), {'size': 13}),
    ('1d down scale', (1, 2, 11), {'scale_factor': 0.45}),
    ('2d scale 1.7', (2, 3, 4, 5), {'scale_factor': 1.7}),
    ('2d size down', (1, 2, 9, 7), {'size': (4, 3)}),
    ('2d rect scales', (1, 2, 5, 6), {'scale_factor': (2.5, 0.6)}),
    ('2d x2', (1, 1, 3, 3), {'scale_factor': 2}),
    ('3d size', (1, 2, 3, 4, 5), {'size': (5, 3, 8)}),
    ('3d scale', (1, 1, 4, 3, 5), {'scale_factor': 1.5}),
]:
    x = torch.randn(*shape, dtype=dt, requires_grad=True)
    y = F.interpolate(x, mode='nearest-exact', **kw)
    w = torch.linspace(-1, 1.5, y.numel(), dtype=dt).view(y.shape)
    (y * w).sum().backward()
    cases[key] = {'kw': {k: list(v) if isinstance(v, tuple) else v for k, v in kw.items()}, 'x': values(x), 'out': values(y), 'grad': values(x.grad)}
xcl = torch.randn(2, 3, 4, 5, dtype=dt).contiguous(memory_format=torch.channels_last).requires_grad_()
ycl = F.interpolate(xcl, scale_factor=1.5, mode='nearest-exact')
ycl.backward(torch.ones_like(ycl))
layouts = {'out stride': list(ycl.stride()), 'grad stride': list(xcl.grad.stride())}
write('nn_nearest_exact', {'cases': cases, 'layouts': layouts, 'repr': repr(nn.Upsample(scale_factor=2, mode='nearest-exact'))})
