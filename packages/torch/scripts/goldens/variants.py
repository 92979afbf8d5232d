"""PyTorch 1.13's public names of `torch`, `torch.Tensor` and `torch.nn.functional`, for the variants test.

Run with /usr/bin/python3 (PyTorch 1.13): writes test/goldens/variants.json.
"""
import torch

from _common import write

write('variants', {
    'torch': sorted(n for n in dir(torch) if not n.startswith('_') and callable(getattr(torch, n))),
    'tensor': sorted(n for n in dir(torch.Tensor) if not n.startswith('_') and callable(getattr(torch.Tensor, n))),
    'functional': sorted(
        n for n in dir(torch.nn.functional)
        if not n.startswith('_') and callable(getattr(torch.nn.functional, n)) and not isinstance(getattr(torch.nn.functional, n), type)
    ),
})
