"""Goldens for the deterministic torch.nn.init initialisers (eye_, dirac_) and their errors."""
import torch
import torch.nn as nn
from _common import values, write

torch.set_default_dtype(torch.float32)
cases = {}


def case(name, shape, fn, dtype=torch.float32):
    t = torch.full(shape, 7.0, dtype=dtype)  # prior contents must be overwritten
    fn(t)
    cases[name] = values(t)


case('eye_ 3x5', [3, 5], nn.init.eye_)
case('eye_ 4x2 f64', [4, 2], nn.init.eye_, torch.float64)
case('dirac_ 3d', [4, 3, 3], nn.init.dirac_)
case('dirac_ 4d', [2, 3, 3, 4], nn.init.dirac_)
case('dirac_ 5d', [3, 2, 3, 2, 3], nn.init.dirac_)
case('dirac_ 4d groups=2', [6, 2, 3, 3], lambda t: nn.init.dirac_(t, 2))
case('dirac_ 3d groups=3 f64', [6, 4, 5], lambda t: nn.init.dirac_(t, groups=3), torch.float64)

errors = {}
for name, fn in [('eye_ 1d', lambda: nn.init.eye_(torch.empty(3))),
                 ('eye_ 3d', lambda: nn.init.eye_(torch.empty(2, 2, 2))),
                 ('dirac_ 2d', lambda: nn.init.dirac_(torch.empty(2, 2))),
                 ('dirac_ 6d', lambda: nn.init.dirac_(torch.empty(1, 1, 1, 1, 1, 1))),
                 ('dirac_ groups', lambda: nn.init.dirac_(torch.empty(5, 2, 3), 2))]:
    try:
        fn()
    except Exception as e:  # record PyTorch's exception class and message
        errors[name] = [type(e).__name__, str(e)]

write('nn_init', {'cases': cases, 'errors': errors})
