"""functorch 1.13's errors for in-place ops under vmap (core Note [In-place into an unbatched self]):
self unbatched and another argument batched (by op: "inplace arithmetic ... in a vmap", the fallback's
"aten::op ... at level L", add_'s broadcast error with physical shapes), nested vmaps, and a batched
self with a broadcast-incompatible other. Also records which index_add_ combinations functorch
runs (all of them with a batched self, through its fallback)."""
import warnings

import torch
from functorch import vmap

from _common import write

N = 3
# (functorch warns once per op it loops; the index_add_ section below records those warnings)
warnings.filterwarnings('ignore', message='There is a performance drop')


def det(shape, k=1.0):
    n = 1
    for s in shape:
        n *= s
    return ((torch.arange(n, dtype=torch.float64) * 0.37 * k + 0.1).sin().abs() + 0.5).reshape(shape)


def message(fn):
    try:
        fn()
    except RuntimeError as e:
        return str(e)
    raise AssertionError('no error')


y = det([4], 1.0)
xs = det([N, 4], 2.0)
idx = torch.tensor([1])
rows = torch.tensor([[0], [1], [2]])
src = det([N, 1], 3.0)
binary = ['add_', 'sub_', 'mul_', 'div_', 'pow_', 'remainder_', 'clamp_min_', 'clamp_max_', 'fmod_', 'atan2_', 'hypot_',
          'xlogy_', 'igamma_', 'igammac_', 'eq_', 'ne_', 'lt_', 'le_', 'gt_', 'ge_']
# self unbatched (a fresh y), the vmapped argument batched
unbatched_self = {op: (lambda x, op=op: getattr(y.clone(), op)(x), xs) for op in binary}
unbatched_self.update({
    'add_ alpha': (lambda x: y.clone().add_(x, alpha=2), xs),
    'sub_ alpha': (lambda x: y.clone().sub_(x, alpha=2), xs),
    'div_ floor': (lambda x: y.clone().div_(x, rounding_mode='floor'), xs),
    'logical_and_': (lambda x: (y > 0.9).logical_and_(x > 0.9), xs),
    'logical_or_': (lambda x: (y > 0.9).logical_or_(x > 0.9), xs),
    'logical_xor_': (lambda x: (y > 0.9).logical_xor_(x > 0.9), xs),
    'bitwise_and_': (lambda x: (y * 10).long().bitwise_and_((x * 10).long()), xs),
    'bitwise_or_': (lambda x: (y * 10).long().bitwise_or_((x * 10).long()), xs),
    'bitwise_xor_': (lambda x: (y * 10).long().bitwise_xor_((x * 10).long()), xs),
    'lerp_ end': (lambda x: y.clone().lerp_(x, 0.5), xs),
    'lerp_ weight': (lambda x: y.clone().lerp_(y, x), xs),
    'addcmul_': (lambda x: y.clone().addcmul_(x, y), xs),
    'addcdiv_': (lambda x: y.clone().addcdiv_(y, x), xs),
    'clamp_ min': (lambda x: y.clone().clamp_(x), xs),
    'clamp_ max': (lambda x: y.clone().clamp_(None, x), xs),
    'copy_': (lambda x: y.clone().copy_(x), xs),
    'copy_ 0-dim': (lambda x: y.clone().copy_(x), det([N], 4.0)),
    'masked_fill_ mask': (lambda m: y.clone().masked_fill_(m, 1.0), xs > 0.9),
    'masked_fill_ value': (lambda v: y.clone().masked_fill_(y > 0.9, v), det([N], 5.0)),
    'masked_scatter_': (lambda s: y.clone().masked_scatter_(y > 0.9, s), xs),
    'index_put_ values': (lambda v: y.clone().index_put_((torch.tensor([1, 3]),), v), det([N, 2], 6.0)),
    'index_put_ index': (lambda i: y.clone().index_put_((i,), torch.ones(1, dtype=torch.float64)), rows),
    'index_fill_ index': (lambda i: y.clone().index_fill_(0, i, 1.0), rows),
    'index_fill_ value': (lambda v: y.clone().index_fill_(0, idx, v), det([N], 7.0)),
    'index_add_ index': (lambda i: y.clone().index_add_(0, i, torch.ones(1, dtype=torch.float64)), rows),
    'index_add_ source': (lambda s: y.clone().index_add_(0, idx, s), src),
    'index_add_ both': (lambda i, s: y.clone().index_add_(0, i, s), rows, src),
    'scatter_ src': (lambda s: y.clone().scatter_(0, idx, s), src),
    'scatter_ index': (lambda i: y.clone().scatter_(0, i, torch.ones(1, dtype=torch.float64)), rows),
    'scatter_ value': (lambda i: y.clone().scatter_(0, i, 2.0), rows),
    'scatter_add_': (lambda s: y.clone().scatter_add_(0, idx, s), src),
    'scatter_reduce_': (lambda s: y.clone().scatter_reduce_(0, idx, s, 'sum'), src),
    # add_'s broadcast error reads the physical shapes
    'add_ self [2, 4], other [4]': (lambda x: torch.ones(2, 4, dtype=torch.float64).add_(x), xs),
    'add_ self [4], other [2, 4]': (lambda x: torch.ones(4, dtype=torch.float64).add_(x), det([N, 2, 4], 8.0)),
    'add_ self [], other []': (lambda x: torch.tensor(1.0, dtype=torch.float64).add_(x), det([N], 9.0)),
    'add_ int self, float other': (lambda x: torch.ones(4, dtype=torch.long).add_(x), xs),
})
cases = {}
for name, (fn, *args) in unbatched_self.items():
    cases[name] = message(lambda: vmap(fn)(*args))
x2 = det([2, N, 4], 10.0)
y2 = det([2, 4], 11.0)
cases['nested sub_'] = message(lambda: vmap(vmap(lambda x: y.clone().sub_(x)))(x2))
cases['nested pow_'] = message(lambda: vmap(vmap(lambda x: y.clone().pow_(x)))(x2))
cases['nested pow_, self batched outside only'] = message(lambda: vmap(lambda s: vmap(lambda x: s.clone().pow_(x))(xs))(y2))
cases['nested add_'] = message(lambda: vmap(vmap(lambda x: y.clone().add_(x)))(x2))
cases['nested add_, self batched outside only'] = message(lambda: vmap(lambda s: vmap(lambda x: s.clone().add_(x))(xs))(y2))
# a batched self and an other whose shape does not broadcast (the kernel's message, physical dims)
bad = {
    'add_ [4] with [5]': (lambda a, b: a.add_(b), det([N, 4], 12.0), det([N, 5], 13.0), (0, 0)),
    'add_ [4] with [2, 4]': (lambda a, b: a.add_(b), det([N, 4], 12.0), det([N, 2, 4], 13.0), (0, 0)),
    'mul_ [4] with [5]': (lambda a, b: a.mul_(b), det([N, 4], 12.0), det([N, 5], 13.0), (0, 0)),
    'copy_ [4] with [5]': (lambda a, b: a.copy_(b), det([N, 4], 12.0), det([N, 5], 13.0), (0, 0)),
    'add_ [4] (batch dim 1) with [5]': (lambda a, b: a.add_(b), det([4, N], 12.0), det([N, 5], 13.0), (1, 0)),
}
for name, (fn, a, b, dims) in bad.items():
    cases[name] = message(lambda: vmap(fn, in_dims=dims)(a, b))

# index_add_ with a batched self: functorch 1.13 runs every combination through its fallback
index_add = {}
for ib in (0, None):
    for sb in (0, None):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            x = det([N, 5, 4], 14.0)
            i = torch.tensor([[0, 4, 4], [1, 1, 2], [3, 0, 2]])
            s = det([N, 3, 4], 15.0)
            vmap(lambda a, b, c: a.index_add_(0, b, c, alpha=2), in_dims=(0, ib, sb))(x, i if ib == 0 else i[0], s if sb == 0 else s[0])
        index_add['index %s source %s' % (ib, sb)] = any('performance drop' in str(m.message) for m in w)

write('vmap_inplace', {'cases': cases, 'index_add_fallback': index_add})
