"""What real PyTorch reads from the .pt files torch-ts writes (torch.save / serializePt).

The files are test/fixtures/written/*.pt, written by torch-ts from the objects in
test/fixtures/pt-written.ts (regenerate them with
`UPDATE_PT_FIXTURES=1 npx vitest run test/serialization-write.test.ts` in packages/torch,
then run this script). serialization-write.test.ts checks that torch-ts still writes exactly
these bytes (the sha256 recorded here) and that its own loader reads what PyTorch read.

Each file is loaded with `torch.load(f, weights_only=True)`. PyTorch 1.13's weights_only
unpickler lacks the BINFLOAT opcode (added in 2.0), so it refuses any pickle holding a
Python float, PyTorch's own files included (`torch.save({'lr': 0.1})`). For such a file
the refusal is recorded, and the file is then loaded by PyTorch's full unpickler
restricted to the same allow-list of globals (`_get_allowed_globals()`), which shows it
needs nothing weights_only would refuse. Recorded per object: containers with their
Python types and key order, ints (as strings), floats, strings, and per tensor its class,
dtype, shape, stride, storage offset, requires_grad, values and which storage it views
(storages numbered by first appearance, told apart by data_ptr); an object met again
(the same Python object) is recorded as a reference to its first path. Last, the loaded
object is saved again with PyTorch's own torch.save: `pytorchResave` says whether PyTorch
writes exactly the bytes torch-ts wrote (where objects are not shared in ways only
identity tells apart, it should)."""
import collections
import hashlib
import io
import math
import os
import pickle

import torch
from torch._weights_only_unpickler import _get_allowed_globals
from _common import OUT_DIR, write

WRITTEN = os.path.join(OUT_DIR, '..', 'fixtures', 'written')
NAMES = ['state_dict', 'checkpoint', 'many']


class RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        allowed = _get_allowed_globals()
        key = f'{module}.{name}'
        if key not in allowed:
            raise pickle.UnpicklingError(f'global {key} is not on the weights_only allow-list')
        return allowed[key]


class restricted_pickle:  # a pickle_module for torch.load
    Unpickler = RestrictedUnpickler
    load = pickle.load
    __name__ = 'restricted_pickle'


def number(x):
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    return x


def tensor_values(t):
    t = t.detach().reshape(-1)
    if t.is_complex():
        return [[v.real, v.imag] for v in t.tolist()]
    if t.dtype == torch.int64:
        return [str(v) for v in t.tolist()]
    if t.dtype in (torch.float16, torch.bfloat16, torch.bool):
        t = t.double()
    return [number(v) for v in t.tolist()]


def describe(x, path, seen, storages):
    if isinstance(x, (torch.Tensor, list, dict)):
        if id(x) in seen:
            return {'ref': seen[id(x)]}
        seen[id(x)] = path
    if isinstance(x, torch.Tensor):
        ptr = x.storage().data_ptr()
        storages.setdefault(ptr, len(storages))
        return {'tensor': {'class': type(x).__name__, 'dtype': str(x.dtype).replace('torch.', ''), 'shape': list(x.shape),
                           'stride': list(x.stride()), 'storageOffset': x.storage_offset(), 'requiresGrad': x.requires_grad,
                           'storage': storages[ptr], 'values': tensor_values(x)}}
    if isinstance(x, dict):
        kind = 'OrderedDict' if isinstance(x, collections.OrderedDict) else 'dict'
        return {kind: [[describe(k, path + '[k]', seen, storages), describe(v, f'{path}[{k!r}]', seen, storages)] for k, v in x.items()]}
    if isinstance(x, list):
        return {'list': [describe(v, f'{path}[{i}]', seen, storages) for i, v in enumerate(x)]}
    if x is None:
        return {'none': None}
    if isinstance(x, bool):
        return {'bool': x}
    if isinstance(x, int):
        return {'int': str(x)}
    if isinstance(x, float):
        return {'float': '-0' if x == 0 and math.copysign(1, x) < 0 else number(x)}
    if isinstance(x, str):
        return {'str': x}
    raise TypeError(f'unexpected {type(x)} at {path}')


out = {}
for name in NAMES:
    path = os.path.join(WRITTEN, name + '.pt')
    with open(path, 'rb') as f:
        data = f.read()
    try:
        obj = torch.load(path, weights_only=True)
        weights_only = 'ok'
    except pickle.UnpicklingError as e:
        msg = str(e)
        if 'Unsupported operand 71' not in msg or not torch.__version__.startswith('1.'):
            raise
        weights_only = 'refused by the 1.13 weights_only unpickler: BINFLOAT (a Python float)'
        obj = torch.load(path, pickle_module=restricted_pickle)
    buf = io.BytesIO()
    torch.save(obj, buf)
    again = buf.getvalue()
    diff = next((i for i in range(min(len(again), len(data))) if again[i] != data[i]), min(len(again), len(data)))
    out[name] = {'sha256': hashlib.sha256(data).hexdigest(), 'size': len(data), 'weightsOnly': weights_only,
                 'pytorchResave': 'identical' if again == data else f'differs from byte {diff}',
                 'object': describe(obj, 'obj', {}, {})}

write('serialization_write', out)
