"""Shared helpers for the @torch-ts/torch golden scripts (run with /usr/bin/python3, PyTorch 1.13)."""
import json
import math
import os
import sys

import torch

OUT_DIR = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'goldens')


def values(t):
    """A tensor as {shape, dtype, values}: float32 values are the exact doubles of the float32s."""
    t = t.detach()
    return {'shape': list(t.shape), 'dtype': str(t.dtype).replace('torch.', ''), 'values': t.reshape(-1).tolist()}


def fin(v):
    """Non-finite floats (nested in lists too) as the strings 'nan', 'inf', '-inf' (JSON has none)."""
    if isinstance(v, list):
        return [fin(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return 'nan' if math.isnan(v) else ('inf' if v > 0 else '-inf')
    return v


def error_of(f):
    """The first line of the message of what f() raises (it must raise)."""
    try:
        f()
    except Exception as ex:
        return str(ex).split('\n')[0]
    raise AssertionError('no error')


def write(name, data):
    path = os.path.join(OUT_DIR, name + '.json')
    with open(path, 'w') as f:
        json.dump({'generator': 'packages/torch/scripts/goldens/%s.py' % name, 'torch': torch.__version__, **data}, f, allow_nan=False)
        f.write('\n')
    print('wrote', os.path.relpath(path), file=sys.stderr)


def ramp_grad_case(make, *inputs):
    """Output of make(*inputs) and the gradients of sum(out * ramp) for each input, the ramp being
    linspace(-1, 1.5) in float64 over the output (the TS tests' checkRampGrads mirrors it)."""
    leaves = [t.clone().requires_grad_() for t in inputs]
    y = make(*leaves)
    w = torch.linspace(-1, 1.5, y.numel(), dtype=torch.float64).view(y.shape)
    (y * w).sum().backward()
    return {'out': values(y), 'grads': [values(t.grad) for t in leaves]}
