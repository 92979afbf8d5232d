"""Goldens for torch.gcd / torch.lcm (int8 with INT_MIN and wrapping, int32 and int64 extremes,
consecutive Fibonacci numbers, zeros, broadcasting, promotion) and their errors, PyTorch 1.13.
Run: /usr/bin/python3 packages/torch/scripts/goldens/gcd_lcm.py"""
import torch

from _common import error_of, write


def enc(t):
    return {'shape': list(t.shape), 'dtype': str(t.dtype).replace('torch.', ''), 'values': [str(v) for v in t.reshape(-1).tolist()]}


cases = {}
for key, (a, b) in {
    'int8': (torch.tensor([12, -18, 0, 0, 7, -128, -128, 100, 5], dtype=torch.int8), torch.tensor([18, 12, 0, -9, 0, 6, -128, -25, 127], dtype=torch.int8)),
    'uint8': (torch.tensor([200, 0, 255, 144], dtype=torch.uint8), torch.tensor([150, 7, 85, 233], dtype=torch.uint8)),
    'int32': (torch.tensor([2**31 - 1, -2**31, 48, -2**31, 1836311903], dtype=torch.int32), torch.tensor([2**31 - 2, 6, -180, 0, 1134903170], dtype=torch.int32)),
    'int64': (torch.tensor([2**62, 3 * 2**40, -(2**63), 7540113804746346429, -15], dtype=torch.int64), torch.tensor([2**40 * 5, 2**41, 2**10, 4660046610375530309, 10], dtype=torch.int64)),
    'broadcast int16 with uint8': (torch.tensor([[4], [9], [-12]], dtype=torch.int16), torch.tensor([6, 0, 15], dtype=torch.uint8)),
}.items():
    cases[key] = {'a': enc(a), 'b': enc(b), 'gcd': enc(torch.gcd(a, b)), 'lcm': enc(torch.lcm(a, b))}
errors = {'float': error_of(lambda: torch.gcd(torch.tensor([1.0]), torch.tensor([2.0]))), 'bool': error_of(lambda: torch.lcm(torch.tensor([True]), torch.tensor([True])))}
write('gcd_lcm', {'cases': cases, 'errors': errors})
