"""torch.save / torch.load of sparse COO tensors (PyTorch 1.13): writes test/fixtures/sparse_pytorch.pt
(PyTorch's file of the object sparse-save.test.ts builds as `source()`) and records what loading it
gives; then loads test/fixtures/written/sparse.pt, torch-ts's file of the same object (regenerate
it with `UPDATE_PT_FIXTURES=1 npx vitest run test/sparse-save.test.ts`, then rerun this script),
with torch.load(weights_only=True), and records its sha256 and what PyTorch read."""
import collections
import hashlib
import os

import torch
from _common import OUT_DIR, write

FIXTURES = os.path.join(OUT_DIR, '..', 'fixtures')


def source():
    s = torch.sparse_coo_tensor(torch.tensor([[2, 0, 2, 1], [0, 1, 0, 1]]), torch.tensor([1.5, -2., 3., 4.]), (3, 2))
    h = torch.sparse_coo_tensor(torch.tensor([[1, 0, 1]]), torch.tensor([[1., -2.], [0.5, 3.], [-4., 2.5]], dtype=torch.float64), (3, 2)).coalesce()
    c = torch.sparse_coo_tensor(torch.tensor([[0, 2]]), torch.tensor([1 + 2j, -3 + 0.5j], dtype=torch.complex64), (4,))
    e = torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.long), torch.zeros(0), (2, 3))
    d = torch.tensor([1, 2, 3])
    return collections.OrderedDict([('s', s), ('h', h), ('c', c), ('e', e), ('d', d)])


def flat(x):
    return (torch.view_as_real(x) if x.is_complex() else x).reshape(-1).tolist()


def describe(t):
    dtype = str(t.dtype).replace('torch.', '')
    if t.layout == torch.strided:
        return {'layout': 'strided', 'shape': list(t.shape), 'dtype': dtype, 'values': flat(t)}
    return {'layout': 'sparse_coo', 'shape': list(t.shape), 'dtype': dtype, 'indices': t._indices().tolist(),
            'values': flat(t._values()), 'coalesced': t.is_coalesced()}


out = {}
mine = os.path.join(FIXTURES, 'sparse_pytorch.pt')
torch.save(source(), mine)
out['pytorch_loaded'] = {k: describe(v) for k, v in torch.load(mine, weights_only=True).items()}
written = os.path.join(FIXTURES, 'written', 'sparse.pt')
with open(written, 'rb') as f:
    data = f.read()
try:
    loaded = torch.load(written, weights_only=True)
    weights_only = 'ok'
except Exception as ex:  # recorded: the test demands 'ok'
    loaded = torch.load(written)
    weights_only = str(ex).split('\n')[0]
out['written'] = {'sha256': hashlib.sha256(data).hexdigest(), 'weights_only': weights_only,
                  'loaded': {k: describe(v) for k, v in loaded.items()}}
write('sparse_save', out)
