"""Goldens for the rest of sparse COO math (PyTorch 1.13): norm of a sparse tensor (over its
coalesced values), mul/div by a number, a 0-d tensor and a dense tensor (flags, dtypes, the
in-place forms: mul_ gives new members, div_ writes the values in place),
nn.utils.clip_grad_norm_/clip_grad_value_ with sparse gradients, values of int64, float16,
bfloat16, complex64 and complex128 (repr, coalesce, to_dense, add), the indices dtypes
sparse_coo_tensor converts, and PyTorch's error messages."""
import math
import torch
from _common import error_of, values, write

out = {}
I = [[2, 0, 2, 1], [0, 1, 0, 1]]
V = [1.5, -2., 3., 4.]


def sp(vals, dtype=torch.float32, size=(3, 2), idx=I):
    return torch.sparse_coo_tensor(torch.tensor(idx), torch.tensor(vals, dtype=dtype), size)


err = error_of


def plain(v):
    """Values JSON can hold: complex as (real, imag) pairs, 16-bit floats as the float32s they are."""
    if v.dtype.is_complex:
        return values(torch.view_as_real(v))
    return values(v.float() if v.dtype in (torch.float16, torch.bfloat16) else v)


def members(t):
    return {'indices': t._indices().tolist(), 'values': plain(t._values()), 'coalesced': t.is_coalesced(), 'dtype': str(t.dtype).replace('torch.', '')}


# ---- norm ----
s = sp(V)
h = torch.sparse_coo_tensor(torch.tensor([[1, 0, 1]]), torch.tensor([[1., -2.], [0.5, 3.], [-4., 2.5]], dtype=torch.float64), (3, 2))
norms = {}
for name, p in [('2', 2), ('1', 1), ('1.5', 1.5), ('0', 0), ('inf', math.inf), ('-inf', -math.inf)]:
    norms[name] = [s.norm(p).item(), h.norm(p).item()]
out['norm'] = {
    'p': norms, 'default': s.norm().item(), 'fro': s.norm('fro').item(), 'dims_all': s.norm(2, dim=(0, 1)).item(),
    'dtype_of': [str(s.norm().dtype), str(h.norm().dtype)],
    'empty': sp([], size=(3, 2), idx=[[], []]).norm().item(),
}
out['norm_errors'] = {
    'dim': err(lambda: s.norm(2, dim=0)), 'keepdim': err(lambda: s.norm(2, dim=(0, 1), keepdim=True)),
    'int': err(lambda: sp([1, 2, 3, 4], torch.int64).norm()),
}

# ---- mul / div ----
c = s.coalesce()
md = {
    'mul_number': members(s * 2.5), 'mul_number_c': members(c * 2.5), 'mul_0d': members(c * torch.tensor(2.)),
    'mul_dense': members(s * torch.tensor([[1., 2.], [3., 4.], [5., 6.]])), 'mul_dense_row': members(c * torch.tensor([2., 3.])),
    'rmul_dense': members(torch.tensor([[1., 2.], [3., 4.], [5., 6.]]) * c),
    'mul_int_by_float': members(sp([1, 2, 3, 4], torch.int64) * 2.5), 'mul_int_by_int': members(sp([1, 2, 3, 4], torch.int64) * 3),
    'mul_int_by_0d_float': members(sp([1, 2, 3, 4], torch.int32) * torch.tensor(2.)),
    'div_number': members(s / 4), 'div_0d': members(c.div(torch.tensor(4.))), 'div_int': members(sp([1, 2, 3, 4], torch.int64).div(2)),
    'div_floor': members(s.div(2, rounding_mode='floor')), 'div_trunc': members(sp([-3., 2., -1., 5.]).div(2, rounding_mode='trunc')),
    # (inf and nan as strings: JSON has no numbers for them)
    'div_zero': [str(v) for v in sp([1., -1., 0., 2.], torch.float64).div(0)._values().tolist()],
}
# in place: mul_ gives new members marked uncoalesced (an alias made before keeps the old ones); div_ divides the values in place
x = c.clone(); y = x.detach(); y.mul_(2.)
md['mul_'] = {'self': members(y), 'alias': members(x)}
x = c.clone(); y = x.detach(); y.mul_(torch.tensor(0.5))
md['mul_0d_'] = {'self': members(y), 'alias': members(x)}
x = c.clone(); y = x.detach(); y.div_(torch.tensor(4.))
md['div_'] = {'self': members(y), 'alias': members(x)}
x = c.clone(); y = x.detach(); y.div_(4)
md['div_number_'] = {'self': members(y), 'alias': members(x)}
out['mul_div'] = md
out['mul_div_errors'] = {
    'div_dense': err(lambda: s.div(torch.tensor([2., 3.]))),
    'div_int_': err(lambda: sp([1, 2, 3, 4], torch.int64).div_(2)),
    'mul_int_': err(lambda: sp([1, 2, 3, 4], torch.int64).mul_(2.5)),
}

# ---- clip_grad_norm_ / clip_grad_value_ ----
def clip(norm_type, max_norm):
    w = torch.nn.Parameter(torch.ones(3, 2)); w.grad = sp(V)
    d = torch.nn.Parameter(torch.ones(2)); d.grad = torch.tensor([1., -2.])
    total = torch.nn.utils.clip_grad_norm_([w, d], max_norm, norm_type)
    return {'total': total.item(), 'sparse_grad': members(w.grad), 'dense_grad': values(d.grad)}

out['clip'] = {'norm2': clip(2., 1.0), 'norm1': clip(1., 2.0), 'big': clip(2., 100.)}
w = torch.nn.Parameter(torch.ones(3, 2)); w.grad = sp(V)
out['clip_errors'] = {
    'inf': err(lambda: torch.nn.utils.clip_grad_norm_([w], 1.0, math.inf)),
    'value': err(lambda: torch.nn.utils.clip_grad_value_([w], 1.0)),
}

# ---- dtypes ----
dt = {}
CV = [complex(1.5, 1), -2, complex(3, -0.5), complex(0, 4)]
for name, dtype, vals in [('int64', torch.int64, [1, -2, 3, 4]), ('float16', torch.float16, V), ('bfloat16', torch.bfloat16, V),
                          ('complex64', torch.complex64, CV), ('complex128', torch.complex128, CV), ('bool', torch.bool, [True, False, True, True])]:
    t = sp(vals, dtype)
    e = {'repr': repr(t), 'repr_coalesced': repr(t.coalesce()), 'coalesced': members(t.coalesce())}
    dense = t.to_dense()
    e['dense'] = plain(dense)
    if dtype in (torch.int64, torch.complex64, torch.complex128):
        e['sum'] = members(t + sp(vals, dtype, idx=[[1, 2, 0, 2], [1, 0, 0, 1]]))
        e['scaled'] = members(t * 2)
    dt[name] = e
out['dtypes'] = dt
# half sums round after each add
hs = torch.sparse_coo_tensor(torch.tensor([[0, 0, 0, 1]]), torch.tensor([0.1, 0.2, 0.3, 0.7], dtype=torch.float16), (2,))
bs = torch.sparse_coo_tensor(torch.tensor([[0, 0, 0, 1]]), torch.tensor([0.1, 0.2, 0.3, 0.7], dtype=torch.bfloat16), (2,))
out['half_sums'] = {'float16': hs.coalesce()._values().float().tolist(), 'bfloat16': bs.coalesce()._values().float().tolist(),
                    'float16_dense': hs.to_dense().float().tolist()}
out['dtype_errors'] = {
    'half_add': err(lambda: sp(V, torch.float16) + sp(V, torch.float16)),
    'bool_add': err(lambda: sp([True, False, True, True], torch.bool) + sp([True, False, True, True], torch.bool)),
}
# indices: sparse_coo_tensor converts them to int64
out['indices_dtypes'] = {
    'int32': members(torch.sparse_coo_tensor(torch.tensor(I, dtype=torch.int32), torch.tensor(V), (3, 2))),
    'float': members(torch.sparse_coo_tensor(torch.tensor([[2.7, 0.2, 2., 1.9], [0., 1., 0., 1.]]), torch.tensor(V), (3, 2))),
    'uint8': members(torch.sparse_coo_tensor(torch.tensor(I, dtype=torch.uint8), torch.tensor(V))),
}
write('sparse_math', out)
