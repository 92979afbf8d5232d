"""PyTorch 1.13's in-place view ops (t_, transpose_, swapaxes_, swapdims_, squeeze_, unsqueeze_,
as_strided_), for test/inplace-views.test.ts.

Run with /usr/bin/python3 (PyTorch 1.13): writes test/goldens/inplace_views.json.
Each case starts from x = arange(n) * 0.5 - 1 of a shape, takes the views `views` of it
(('rows', s, e): x[s:e]; ('transpose', a, b); ('t',); ('select', d, i)), then runs `ops` on it:
  result: the geometry and values afterwards, and how much the version counter moved;
  grad:   a = x requiring grad; y = views(a.clone()); ops on y; (y * w).sum().backward() with
          w = arange(y.numel()).reshape(y.shape) * 0.25 + 1: a.grad, y's grad_fn and the one below.
"""
import torch

from _common import write


def start(shape):
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=torch.float32) * 0.5 - 1).reshape(shape).clone()


def take_views(x, views):
    for v in views:
        if v[0] == 'rows':
            x = x[v[1]:v[2]]
        elif v[0] == 'transpose':
            x = x.transpose(v[1], v[2])
        elif v[0] == 't':
            x = x.t()
        elif v[0] == 'select':
            x = x.select(v[1], v[2])
        else:
            raise ValueError(v)
    return x


def run_ops(y, ops):
    for op in ops:
        r = getattr(y, op[0])(*op[1:])
        assert r is y
    return y


def geometry(t):
    return {'shape': list(t.shape), 'stride': list(t.stride()), 'offset': t.storage_offset(), 'contiguous': t.is_contiguous(),
            'values': t.detach().reshape(-1).tolist()}


def name(fn):
    return None if fn is None else type(fn).__name__


CASES = [
    # id, shape, views, ops
    ('t_ of a matrix', [2, 3], [], [('t_',)]),
    ('t_ of a vector', [3], [], [('t_',)]),
    ('t_ of a 0-D tensor', [], [], [('t_',)]),
    ('transpose_(0, 2)', [2, 3, 4], [], [('transpose_', 0, 2)]),
    ('transpose_(-1, 1)', [2, 3, 4], [], [('transpose_', -1, 1)]),
    ('transpose_(1, 1)', [2, 3], [], [('transpose_', 1, 1)]),
    ('swapaxes_(0, 1)', [2, 3], [], [('swapaxes_', 0, 1)]),
    ('swapdims_(1, 2)', [2, 3, 4], [], [('swapdims_', 1, 2)]),
    ('squeeze_()', [1, 2, 1, 3], [], [('squeeze_',)]),
    ('squeeze_(2)', [1, 2, 1, 3], [], [('squeeze_', 2)]),
    ('squeeze_(1) of a size-2 dim', [1, 2, 1, 3], [], [('squeeze_', 1)]),
    ('squeeze_(-2)', [1, 2, 1, 3], [], [('squeeze_', -2)]),
    ('squeeze_() of a 0-D tensor', [], [], [('squeeze_',)]),
    ('squeeze_(0) of a 0-D tensor', [], [], [('squeeze_', 0)]),
    ('unsqueeze_(1)', [2, 3], [], [('unsqueeze_', 1)]),
    ('unsqueeze_(-1)', [2, 3], [], [('unsqueeze_', -1)]),
    ('unsqueeze_(0) of a 0-D tensor', [], [], [('unsqueeze_', 0)]),
    ('as_strided_([3, 2], [1, 3])', [2, 3], [], [('as_strided_', [3, 2], [1, 3])]),
    ('as_strided_([2, 2], [1, 2], 1)', [2, 3], [], [('as_strided_', [2, 2], [1, 2], 1)]),
    ('as_strided_ overlapping ([3, 2], [1, 1])', [6], [], [('as_strided_', [3, 2], [1, 1])]),
    ('t_ then unsqueeze_(0) then squeeze_()', [2, 3], [], [('t_',), ('unsqueeze_', 0), ('squeeze_',)]),
    ('transpose_ then as_strided_', [2, 3], [], [('transpose_', 0, 1), ('as_strided_', [2, 3], [3, 1])]),
    # on views
    ('t_ of rows 1:3', [4, 3], [('rows', 1, 3)], [('t_',)]),
    ('transpose_ of a transposed view', [2, 3, 4], [('transpose', 0, 2)], [('transpose_', 0, 1)]),
    ('unsqueeze_(1) of a transposed view', [3, 4], [('transpose', 0, 1)], [('unsqueeze_', 1)]),
    ('squeeze_() of a select', [2, 1, 3], [('select', 0, 1)], [('squeeze_',)]),
    ('as_strided_ of a select (offset kept)', [2, 3], [('select', 0, 1)], [('as_strided_', [2], [1])]),
    ('squeeze_(0) of rows 2:3', [4, 3], [('rows', 2, 3)], [('squeeze_', 0)]),
]

cases = []
for cid, shape, views, ops in CASES:
    x = start(shape)
    y = take_views(x, views)
    v0 = y._version
    run_ops(y, ops)
    result = {**geometry(y), 'versionBump': y._version - v0}

    a = start(shape).requires_grad_()
    y = take_views(a.clone(), views)
    run_ops(y, ops)
    w = torch.arange(y.numel(), dtype=torch.float32).reshape(y.shape) * 0.25 + 1
    fn = y.grad_fn
    below = name(fn.next_functions[0][0]) if fn is not None and fn.next_functions else None
    (y * w).sum().backward()
    grad = {'values': a.grad.reshape(-1).tolist(), 'gradFn': name(fn), 'below': below, 'isLeaf': y.is_leaf}
    cases.append({'id': cid, 'shape': shape, 'views': views, 'ops': ops, 'result': result, 'grad': grad})


def error_of(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001 (the golden records whatever PyTorch raises)
        return {'type': type(e).__name__, 'message': str(e).split('\n')[0]}
    raise AssertionError('no error')


ERRORS = [
    ('transpose_(0, 2) of a matrix', [2, 3], [('transpose_', 0, 2)]),
    ('swapaxes_(-3, 0) of a matrix', [2, 3], [('swapaxes_', -3, 0)]),
    ('t_ of a 3-D tensor', [2, 3, 4], [('t_',)]),
    ('squeeze_(2) of a matrix', [2, 3], [('squeeze_', 2)]),
    ('squeeze_(1) of a 0-D tensor', [], [('squeeze_', 1)]),
    ('unsqueeze_(3) of a matrix', [2, 3], [('unsqueeze_', 3)]),
    ('as_strided_ past the storage', [2, 3], [('as_strided_', [3, 3], [3, 1])]),
    ('as_strided_ with a negative stride', [2, 3], [('as_strided_', [3, 3], [-1, 1])]),
    ('as_strided_ with fewer strides than sizes', [2, 3], [('as_strided_', [3, 3], [1])]),
]
errors = []
for cid, shape, ops in ERRORS:
    x = start(shape)
    errors.append({'id': cid, 'shape': shape, 'ops': ops, 'error': error_of(lambda: run_ops(x, ops)), 'shapeAfter': list(x.shape),
                   'version': x._version})

# autograd's refusals
a = start([2, 3]).requires_grad_()
leaf = error_of(lambda: a.t_())
view_of_leaf = error_of(lambda: a[0:2].transpose_(0, 1))
y = a.clone()
z = y * y
y.t_()
saved = error_of(lambda: z.sum().backward())

# a leaf may change its geometry under no_grad; its grad then has the new shape
a = start([2, 3]).requires_grad_()
with torch.no_grad():
    a.t_()
w = torch.arange(6, dtype=torch.float32).reshape(3, 2)
(a * w).sum().backward()
no_grad_leaf = {'shape': list(a.shape), 'isLeaf': a.is_leaf, 'requiresGrad': a.requires_grad, 'grad': geometry(a.grad)}

# t_ of a base with a live view: the view's values and gradient are as before
a = start([2, 3]).requires_grad_()
b = a.clone()
v = b[0]
b.t_()
(v * torch.tensor([1., 2., 3.])).sum().backward()
base_with_view = {'baseShape': list(b.shape), 'baseGradFn': name(b.grad_fn), 'viewBaseIsBase': v._base is b, 'grad': a.grad.reshape(-1).tolist()}

# detach shares the data, not the geometry
a = start([2, 3]).requires_grad_()
c = a.detach()
c.t_()
detached = {'detachedShape': list(c.shape), 'originalShape': list(a.shape), 'originalVersion': a._version}

write('inplace_views', {'cases': cases, 'errors': errors, 'leaf': leaf, 'viewOfLeaf': view_of_leaf, 'savedTensor': saved,
                        'noGradLeaf': no_grad_leaf, 'baseWithView': base_with_view, 'detached': detached})
