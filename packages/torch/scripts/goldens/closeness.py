"""Goldens for torch.allclose, torch.equal and torch.isclose (test/goldens/closeness.json).

Each case: the function, its two operands ({dtype, shape, values}: non-finite values as
"nan"/"inf"/"-inf", int64 values as decimal strings so that 2^53 + 1 survives JSON, a complex
element as [real, imag]), the keyword arguments (camelCased as torch-ts spells them) and either
the result (a bool, or isclose's bool tensor: `shape` and the flat list) or PyTorch's error message.
Inf, NaN, equal_nan, broadcasting, integral (beyond 2^53), bool, float16, complex and empty
operands, shape and dtype mismatches.
"""

import torch
from _common import fin, write

NAN, INF = float('nan'), float('inf')
PY = {'rtol': 'rtol', 'atol': 'atol', 'equalNan': 'equal_nan'}


def enc(t):
    v = torch.view_as_real(t) if t.is_complex() else t
    vals = v.reshape(-1).tolist()
    if t.is_complex():
        vals = [[vals[i], vals[i + 1]] for i in range(0, len(vals), 2)]
    if t.dtype == torch.int64:
        vals = [str(x) for x in vals]
    return {'dtype': str(t.dtype).replace('torch.', ''), 'shape': list(t.shape), 'values': fin(vals)}


def fin_kw(kw):
    return {k: fin(v) if isinstance(v, float) else v for k, v in kw.items()}


def T(values, dtype, shape=None):
    t = torch.tensor(values, dtype=getattr(torch, dtype))
    return t.reshape(shape) if shape is not None else t


cases = []


def case(fn, a, b, **kw):
    c = {'fn': fn, 'a': enc(a), 'b': enc(b), 'kwargs': fin_kw(kw)}
    try:
        r = getattr(torch, fn)(a, b, **{PY[k]: v for k, v in kw.items()})
        if isinstance(r, torch.Tensor):
            c['shape'] = list(r.shape)
        c['expected'] = r.reshape(-1).tolist() if isinstance(r, torch.Tensor) else r
    except RuntimeError as e:
        c['error'] = str(e).split('\n')[0]
    cases.append(c)


f32 = lambda v, shape=None: T(v, 'float32', shape)  # noqa: E731
cplx = lambda pairs, d='complex64': torch.view_as_complex(torch.tensor(pairs, dtype=torch.float32 if d == 'complex64' else torch.float64))  # noqa: E731

for fn in ('allclose', 'isclose'):
    case(fn, f32([1, 2, 3]), f32([1 + 1e-6, 2, 3 - 2e-5]))
    case(fn, f32([1, 2, 3]), f32([1.001, 2, 3]))
    case(fn, f32([1, 2, 3]), f32([1.001, 2, 3]), rtol=1e-3)
    case(fn, f32([1, 2, 3]), f32([1.001, 2, 3]), atol=0.01)
    case(fn, f32([INF, -INF]), f32([INF, -INF]))
    case(fn, f32([INF, 1]), f32([-INF, 1]))
    case(fn, f32([INF, 1]), f32([3e38, 1]), atol=INF)
    case(fn, f32([NAN, 1]), f32([NAN, 1]))
    case(fn, f32([NAN, 1]), f32([NAN, 1]), equalNan=True)
    case(fn, f32([NAN, 1]), f32([1, 1]), equalNan=True)
    case(fn, f32([0.0, -0.0]), f32([-0.0, 1e-9]))
    case(fn, f32([[1, 2, 3], [1, 2, 3.5]]), f32([1, 2, 3]), rtol=0.2)
    case(fn, f32([[1, 2, 3], [1, 2, 3.5]]), f32([1, 2, 3]))
    case(fn, T([1, 2, 3], 'int64'), T([1, 2, 4], 'int64'))
    case(fn, T([1, 2, 3], 'int64'), T([1, 2, 4], 'int64'), atol=1)
    case(fn, T([2 ** 53 + 1, -5], 'int64'), T([2 ** 53, -5], 'int64'))
    case(fn, T([2 ** 53 + 1, -5], 'int64'), T([2 ** 53, -5], 'int64'), rtol=0, atol=0)
    case(fn, T([2 ** 62 + 1], 'int64'), T([2 ** 62], 'int64'), rtol=0, atol=0)
    case(fn, T([-128, 0], 'int8'), T([127, -128], 'int8'), rtol=0, atol=10)
    case(fn, T([100, 7], 'int32'), T([50, 7], 'int32'), rtol=0.999, atol=0)
    case(fn, T([True, False], 'bool'), T([True, True], 'bool'))
    case(fn, T([True, False], 'bool'), T([True, True], 'bool'), atol=1)
    case(fn, T([1, 1000], 'float16'), T([1.001, 1000.5], 'float16'))
    case(fn, T([1, 1000], 'float16'), T([1.001, 1000.5], 'float16'), rtol=1e-3)
    case(fn, cplx([[1, 2], [1, 1e-7]]), cplx([[1, 2.00001], [1, 0]]))
    case(fn, cplx([[3, 4]]), cplx([[3, 4.5]]), atol=0.5)
    case(fn, cplx([[3, 4]]), cplx([[3, 4.6]]), atol=0.5)
    case(fn, cplx([[INF, 0]]), cplx([[INF, 0]]))
    case(fn, cplx([[INF, 1]]), cplx([[INF, 0]]))
    case(fn, cplx([[NAN, 1]], 'complex128'), cplx([[1, NAN]], 'complex128'), equalNan=True)
    case(fn, cplx([[NAN, 1]], 'complex128'), cplx([[1, NAN]], 'complex128'))
    case(fn, T([], 'float32'), T([], 'float32'))
    case(fn, T([], 'float32', [0, 3]), f32([1, 2, 3]))
    case(fn, T([], 'float32'), f32([1, 2, 3]))
    case(fn, f32([1, 2]), f32([1, 2, 3]))
    case(fn, f32([1, 2]), T([1, 2], 'float64'))
    case(fn, T([1, 2], 'int32'), T([1, 2], 'int64'))
    case(fn, f32([1, 2]), f32([1, 2]), rtol=-1)
    case(fn, f32([1, 2]), f32([1, 2]), atol=-0.5)

for a, b in [
    (f32([1, 2]), f32([1, 2])),
    (f32([1, 2]), f32([1, 3])),
    (f32([NAN, 2]), f32([NAN, 2])),
    (f32([0.0]), f32([-0.0])),
    (f32([INF]), f32([INF])),
    (f32([1, 2]), f32([[1, 2]])),
    (f32([1, 2]), f32([1, 2, 2])),
    (f32([1]), f32(1.0)),
    (f32([[1, 2], [3, 4]]).t(), f32([[1, 3], [2, 4]])),
    (T([], 'float32'), T([], 'float32')),
    (T([], 'float32'), T([], 'float32', [0, 2])),
    (f32([1, 2]), T([1, 2], 'int64')),
    (f32([1, 2]), T([1, 2], 'float64')),
    (T([0.1], 'float32'), T([0.1], 'float64')),
    (T([True, False], 'bool'), T([1, 0], 'int64')),
    (T([2 ** 53 + 1], 'int64'), T([2 ** 53], 'int64')),
    (cplx([[1, 2]]), cplx([[1, 2]])),
    (cplx([[1, 2]]), cplx([[1, -2]])),
]:
    case('equal', a, b)

write('closeness', {'cases': cases})
