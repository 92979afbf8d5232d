"""Goldens for sparse COO tensors (torch.sparse_coo_tensor, coalesce, to_dense, sparse + sparse,
repr), the sparse gradient of nn.Embedding(sparse=True) (accumulated over two backward calls),
and training with it: optim.SparseAdam, SGD (with and without momentum) and Adagrad, weights and
state after each step, from fixed start weights and lookups; and PyTorch's error messages."""
import torch
from _common import error_of, values, write

torch.manual_seed(0)
out = {}

# ---- the layout ----
i = torch.tensor([[2, 0, 2, 1], [0, 1, 0, 1]])
v = torch.tensor([1.5, 2., 3., 4.])
s = torch.sparse_coo_tensor(i, v, (3, 2))
c = s.coalesce()
a = torch.sparse_coo_tensor(torch.tensor([[2, 0]]), torch.tensor([[1., 1], [2, 2]]), (3, 2))
b = torch.sparse_coo_tensor(torch.tensor([[1, 2, 0]]), torch.tensor([[1., 1], [2, 2], [3, 3]]), (3, 2))
e = torch.sparse_coo_tensor(torch.zeros(1, 0, dtype=torch.long), torch.zeros(0, 2), (3, 2))
d64 = torch.sparse_coo_tensor(torch.tensor([[2, 0]]), torch.tensor([[1., 1], [2, 2]], dtype=torch.float64), (3, 2))
ab = a + b
out['layout'] = {
    'indices': i.tolist(), 'values': v.tolist(),
    'repr': repr(s), 'repr_coalesced': repr(c), 'repr_empty': repr(e), 'repr_float64': repr(d64), 'repr_sum': repr(ab),
    'repr_scaled': repr(a * 2.5),
    'coalesced_indices': c._indices().tolist(), 'coalesced_values': c._values().tolist(),
    'dense': s.to_dense().tolist(), 'is_coalesced': [s.is_coalesced(), c.is_coalesced(), ab.is_coalesced()],
    'sum_indices': ab._indices().tolist(), 'sum_values': ab._values().tolist(),
    'dense_plus_sparse': (torch.ones(3, 2) + s).tolist(),
}

# ---- errors ----
err = error_of

errors = {
    'exp': err(lambda: s.exp()), 'view': err(lambda: s.view(6)), 'sum': err(lambda: s.sum(0)),
    'indices_dense': err(lambda: torch.ones(2).indices()),
    'indices_uncoalesced': err(lambda: s.indices()),
    'sparse_plus_dense': err(lambda: s + torch.ones(3, 2)),
}
def opt_error(cls, **kw):
    w = torch.nn.Parameter(torch.ones(4, 2))
    w.grad = torch.sparse_coo_tensor(torch.tensor([[1, 3]]), torch.ones(2, 2), (4, 2))
    return err(lambda: cls([w], **kw).step())
for name in ['Adam', 'AdamW', 'Adamax', 'Adadelta', 'NAdam', 'RAdam', 'RMSprop', 'Rprop', 'ASGD']:
    errors[name] = opt_error(getattr(torch.optim, name), lr=0.1)
errors['Adagrad_weight_decay'] = opt_error(torch.optim.Adagrad, lr=0.1, weight_decay=0.1)
errors['SGD_weight_decay'] = opt_error(torch.optim.SGD, lr=0.1, weight_decay=0.1)
w = torch.nn.Parameter(torch.ones(4, 2)); w.grad = torch.ones(4, 2)
errors['SparseAdam_dense'] = err(lambda: torch.optim.SparseAdam([w]).step())
errors['SparseAdam_sparse_param'] = err(lambda: torch.optim.SparseAdam([torch.ones(2), s]))
out['errors'] = errors

# ---- embedding gradients ----
W0 = torch.randn(6, 3, dtype=torch.float64)
lookups = [[[0, 1, 4], [4, 2, 0]], [[5, 1, 1], [3, 0, 4]]]
emb = torch.nn.Embedding(6, 3, padding_idx=1, sparse=True, _weight=W0.clone().float())
x = torch.tensor(lookups[0])
emb(x).pow(2).sum().backward()
g1 = emb.weight.grad
grad1 = {'repr': repr(g1), 'indices': g1._indices().tolist(), 'values': values(g1._values())}
emb(torch.tensor(lookups[1])).sum().backward()
g2 = emb.weight.grad
gc = g2.coalesce()
out['embedding'] = {
    'weight': values(W0), 'lookups': lookups, 'grad1': grad1,
    'grad2': {'indices': g2._indices().tolist(), 'values': values(g2._values()), 'is_coalesced': g2.is_coalesced()},
    'coalesced': {'indices': gc._indices().tolist(), 'values': values(gc._values())},
}

# ---- training ----
steps = [[[0, 2, 2], [5, 7, 0]], [[1, 2, 3], [3, 3, 6]], [[7, 7, 7], [0, 4, 1]], [[2, 5, 0], [6, 1, 3]]]
W1 = torch.randn(8, 4, dtype=torch.float64)
target = torch.randn(2, 3, 4, dtype=torch.float64)

def state_of(opt, p):
    st = opt.state[p]
    r = {}
    for k, val in st.items():
        if torch.is_tensor(val):
            r[k] = {'sparse': True, 'indices': val.coalesce()._indices().tolist(), 'values': values(val.coalesce()._values())} if val.is_sparse else values(val)
        else:
            r[k] = val
    return r

def train(dtype, make, padding_idx=None):
    torch.manual_seed(0)
    m = torch.nn.Embedding(8, 4, padding_idx=padding_idx, sparse=True, _weight=W1.clone().to(dtype))
    opt = make(m.parameters())
    rec = []
    for ids in steps:
        opt.zero_grad()
        y = m(torch.tensor(ids))
        loss = ((y - target.to(dtype)) ** 2).sum()
        loss.backward()
        opt.step()
        rec.append({'weight': values(m.weight), 'state': state_of(opt, m.weight)})
    sd = opt.state_dict()
    return {'steps': rec, 'param_groups': [{k: (list(v) if isinstance(v, tuple) else v) for k, v in g.items()} for g in sd['param_groups']],
            'state_keys': sorted(sd['state'][0].keys())}

out['train'] = {
    'weight': values(W1), 'steps': steps, 'target': values(target),
    'sparse_adam_f64': train(torch.float64, lambda ps: torch.optim.SparseAdam(ps, lr=0.05)),
    'sparse_adam_f32': train(torch.float32, lambda ps: torch.optim.SparseAdam(ps, lr=0.05, betas=(0.8, 0.9), eps=1e-6)),
    'sparse_adam_max_pad': train(torch.float64, lambda ps: torch.optim.SparseAdam(ps, lr=0.02, maximize=True), padding_idx=2),
    'sgd': train(torch.float64, lambda ps: torch.optim.SGD(ps, lr=0.05)),
    'sgd_momentum': train(torch.float64, lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9, nesterov=True)),
    'sgd_f32': train(torch.float32, lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.5, dampening=0.1)),
    'adagrad': train(torch.float64, lambda ps: torch.optim.Adagrad(ps, lr=0.1, lr_decay=0.01)),
}
# ---- sparse_mask (dense values at a coalesced mask's entries; hybrid: a dense dim) ----
x3 = torch.arange(12, dtype=torch.float64).reshape(3, 2, 2) / 4
m3 = torch.sparse_coo_tensor(torch.tensor([[2, 0, 1], [1, 0, 1]]), torch.ones(3, 2), (3, 2, 2)).coalesce()
r3 = x3.sparse_mask(m3)
out['sparse_mask'] = {'indices': r3._indices().tolist(), 'values': r3._values().tolist(), 'coalesced': r3.is_coalesced(), 'dtype': str(r3.dtype)}
errors['sparse_mask_uncoalesced'] = err(lambda: torch.ones(3, 2).sparse_mask(s))
errors['sparse_mask_sizes'] = err(lambda: torch.ones(2, 2).sparse_mask(c))
write('sparse', out)
