"""Goldens for torch.frexp (float32 with zeros, infinities, NaN, subnormals and values near
the range's ends; float64 extremes; float16; the mantissa's gradient) and its error, PyTorch 1.13.
Run: /usr/bin/python3 packages/torch/scripts/goldens/frexp.py"""
import torch

from _common import error_of, fin, write


def enc(t):
    return {'shape': list(t.shape), 'dtype': str(t.dtype).replace('torch.', ''), 'values': fin(t.reshape(-1).tolist())}


cases = {}
for key, x in {
    'float32': torch.tensor([0.0, -0.0, 1.0, 8.0, 0.3, -5.5, float('inf'), float('-inf'), float('nan'), 1e-40, 3e38, 2.0**-149, 1.0 - 2.0**-24, -2.0**100]),
    'float64': torch.tensor([1e-310, 2.0**1023, 0.75, -2.0**-1074, 1.0 + 2.0**-52, 1.7976931348623157e308], dtype=torch.float64),
    'float16': torch.tensor([0.1, 60000.0, 6e-8, -3.0], dtype=torch.float16),
}.items():
    m, e = torch.frexp(x)
    cases[key] = {'x': enc(x), 'mantissa': enc(m), 'exponent': enc(e)}
xg = torch.tensor([1.5, 3.0, -0.1, 0.0], dtype=torch.float64, requires_grad=True)
torch.frexp(xg)[0].sum().backward()
write('frexp', {'cases': cases, 'grad_x': enc(xg.detach()), 'grad': enc(xg.grad), 'error': error_of(lambda: torch.frexp(torch.tensor([1, 2])))})
