"""Goldens for torch.unique_consecutive (flattened and along a dim, NaN runs, 0-d and empty
inputs, inverse and counts), PyTorch 1.13.
Run: /usr/bin/python3 packages/torch/scripts/goldens/unique_consecutive.py"""
import torch

from _common import fin, write


def enc(t):
    return {'shape': list(t.shape), 'dtype': str(t.dtype).replace('torch.', ''), 'values': fin(t.reshape(-1).tolist())}


cases = {}
for key, (x, dim) in {
    'float with NaN runs': (torch.tensor([1.0, 1, 2, 2, 3, 1, 1, float('nan'), float('nan'), 2]), None),
    '2-d flattened': (torch.tensor([[1, 1], [2, 2], [2, 3]]), None),
    'dim 0': (torch.tensor([[1, 1, 2], [1, 1, 2], [3, 3, 3], [1, 1, 2]]), 0),
    'dim 1': (torch.tensor([[1, 1, 2], [1, 1, 2], [3, 3, 3], [1, 1, 2]]), 1),
    'dim -1 of 3-d': (torch.tensor([[[1, 1, 2, 2]], [[1, 1, 3, 2]]]), -1),
    '0-d': (torch.tensor(5), None),
    'empty': (torch.tensor([], dtype=torch.int64), None),
    'bool': (torch.tensor([True, True, False, True]), None),
}.items():
    v, inv, cnt = torch.unique_consecutive(x, return_inverse=True, return_counts=True, dim=dim)
    cases[key] = {'x': enc(x), 'dim': dim, 'values': enc(v), 'inverse': enc(inv), 'counts': enc(cnt)}
write('unique_consecutive', {'cases': cases})
