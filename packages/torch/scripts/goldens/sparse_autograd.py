"""Autograd through sparse COO construction and to_dense (PyTorch 1.13): values -> sparse_coo_tensor
-> to_dense -> a weighted sum, the gradient of the values (each entry gets the gradient at its
index, duplicates each the whole of it) and the Node names; the same through `* 2.5`."""
import torch
from _common import error_of, values, write

torch.manual_seed(0)
i = torch.tensor([[2, 0, 2, 1, 0], [0, 1, 0, 1, 2]])
v = torch.randn(5, 2, dtype=torch.float64, requires_grad=True)
W = torch.randn(3, 3, 2, dtype=torch.float64)
s = torch.sparse_coo_tensor(i, v, (3, 3, 2))
d = s.to_dense()
(d * W).sum().backward()
out = {
    'indices': i.tolist(), 'values': values(v), 'weight': values(W),
    'grad': values(v.grad),
    'names': [type(s.grad_fn).__name__, type(d.grad_fn).__name__],
    'requires_grad': s.requires_grad,
}
# mul by a number in between: MulBackward0 scales the sparse gradient
v2 = v.detach().clone().requires_grad_(True)
m = torch.sparse_coo_tensor(i, v2, (3, 3, 2)) * 2.5
(m.to_dense() * W).sum().backward()
out['scaled'] = {'grad': values(v2.grad), 'name': type(m.grad_fn).__name__}
# coalesce then values(): CoalesceBackward0 passes the sparse gradient, ValuesBackward0 makes it
cv = torch.tensor([1.5, -2., 3., 4.], dtype=torch.float64, requires_grad=True)
cw = torch.tensor([10., 20., 30.], dtype=torch.float64)
cc = torch.sparse_coo_tensor(torch.tensor([[2, 0, 2, 1], [0, 1, 0, 1]]), cv, (3, 2)).coalesce()
cvals = cc.values()
(cvals * cw).sum().backward()
out['coalesce_values'] = {'values': values(cv), 'weight': values(cw), 'names': [type(cc.grad_fn).__name__, type(cvals.grad_fn).__name__],
                          'result': values(cvals), 'grad': values(cv.grad)}

# a sparse leaf (requires_grad=True): to_dense's gradient is sparse, grad.sparse_mask(self.coalesce()),
# stored as a new sparse tensor over its members (uncoalesced), then summed into by a second backward
lw = torch.tensor([[1., 2], [3, 4], [5, 6]], dtype=torch.float64)
leaf = torch.sparse_coo_tensor(torch.tensor([[2, 0, 2, 1], [0, 1, 0, 1]]), torch.tensor([1.5, -2., 3., 4.], dtype=torch.float64), (3, 2), requires_grad=True)
(leaf.to_dense() * lw).sum().backward()
g1 = leaf.grad
out['leaf'] = {'weight': values(lw), 'repr': repr(leaf),
               'grad1': {'indices': g1._indices().tolist(), 'values': values(g1._values()), 'coalesced': g1.is_coalesced()}}
(leaf.to_dense() * lw).sum().backward()
g2 = leaf.grad
out['leaf']['grad2'] = {'indices': g2._indices().tolist(), 'values': values(g2._values()), 'coalesced': g2.is_coalesced()}

# torch.mm(sparse, dense): dense; the dense input's gradient is sparse^T @ grad; torch.mm
# refuses a sparse self that requires grad (torch.sparse.mm is the one that differentiates it)
mi = torch.tensor([[0, 2, 1, 0, 2], [1, 3, 0, 1, 0]])
mv = torch.randn(5, dtype=torch.float64)
md = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
mw = torch.randn(3, 2, dtype=torch.float64)
ms = torch.sparse_coo_tensor(mi, mv, (3, 4))
r = torch.mm(ms, md)
(r * mw).sum().backward()
out['mm'] = {'indices': mi.tolist(), 'values': values(mv), 'dense': values(md), 'weight': values(mw), 'result': values(r),
             'name': type(r.grad_fn).__name__, 'grad_dense': values(md.grad)}
try:
    torch.mm(torch.sparse_coo_tensor(mi, mv.clone().requires_grad_(True), (3, 4)), md)
    raise AssertionError('no error')
except RuntimeError as ex:
    out['mm']['error_sparse_grad'] = str(ex).split('\n')[0]

# torch.addmm(dense, sparse, dense, beta, alpha): beta * input + alpha * (sparse @ dense)
ab = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
ad = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
ar = torch.addmm(ab, ms, ad, beta=0.5, alpha=2.0)
(ar * mw).sum().backward()
out['addmm'] = {'input': values(ab), 'dense': values(ad), 'result': values(ar), 'name': type(ar.grad_fn).__name__,
                'grad_input': values(ab.grad), 'grad_dense': values(ad.grad)}
# torch.sparse.mm / torch.sparse.addmm (_sparse_addmm, SparseAddmmBackward0): the sparse factor's
# gradient is sparse, alpha * (grad @ dense^T) at its coalesced entries; a broadcast `mat` gets
# its gradient summed back; a dense mat1 is the dense product
sm = torch.sparse_coo_tensor(mi, mv.clone(), (3, 4)).requires_grad_(True)
sd = md.detach().clone().requires_grad_(True)
sr = torch.sparse.mm(sm, sd)
(sr * mw).sum().backward()
out['sparse_mm'] = {'result': values(sr), 'name': type(sr.grad_fn).__name__, 'grad_dense': values(sd.grad),
                    'grad_sparse': {'indices': sm.grad._indices().tolist(), 'values': values(sm.grad._values()), 'coalesced': sm.grad.is_coalesced()}}
sm2 = torch.sparse_coo_tensor(mi, mv.clone(), (3, 4)).requires_grad_(True)
sb = torch.randn(2, dtype=torch.float64, requires_grad=True)
sd2 = md.detach().clone().requires_grad_(True)
sr2 = torch.sparse.addmm(sb, sm2, sd2, beta=0.5, alpha=2.0)
(sr2 * mw).sum().backward()
out['sparse_addmm'] = {'mat': values(sb), 'result': values(sr2), 'name': type(sr2.grad_fn).__name__, 'grad_mat': values(sb.grad),
                       'grad_dense': values(sd2.grad), 'grad_sparse': {'indices': sm2.grad._indices().tolist(), 'values': values(sm2.grad._values())}}
dd = torch.randn(3, 4, dtype=torch.float64)
out['sparse_mm_dense'] = {'mat1': values(dd), 'result': values(torch.sparse.mm(dd, md.detach()))}
err = error_of
plain = torch.sparse_coo_tensor(mi, mv, (3, 4))
out['sparse_mm_errors'] = {
    'inner': err(lambda: torch.sparse.mm(plain, torch.ones(3, 2, dtype=torch.float64))),
    'dtype': err(lambda: torch.sparse.mm(plain, torch.ones(4, 2))),
    'dense_3d': err(lambda: torch.sparse.mm(plain, torch.ones(4, 2, 2, dtype=torch.float64))),
    'mm_inner': err(lambda: torch.mm(plain, torch.ones(3, 2, dtype=torch.float64))),
}
# torch.sparse.sum: over every dim a 0-d dense (SumBackward0); over some sparse dims a coalesced
# sparse (SparseSumBackward0), over all sparse dims a dense of the dense dims; gradients sparse
def members(t):
    return {'indices': t._indices().tolist(), 'values': values(t._values()), 'coalesced': t.is_coalesced(), 'size': list(t.shape)}
hi = torch.tensor([[0, 1, 1, 0, 2], [2, 0, 2, 2, 1], [0, 1, 0, 0, 1]])
hv = torch.randn(5, 3, dtype=torch.float64)
hw = {}
sums = {}
for key, dims in [('all', None), ('d1', [1]), ('d20', [2, 0]), ('d3', [3]), ('dneg', [-1, 1]), ('sparse_all', [0, 1, 2]), ('every', [0, 1, 2, 3]), ('none', [])]:
    x = torch.sparse_coo_tensor(hi, hv.clone(), (3, 4, 2, 3)).requires_grad_(True)
    r = torch.sparse.sum(x) if dims is None else torch.sparse.sum(x, dims)
    entry = {'dims': dims, 'name': type(r.grad_fn).__name__ if r.grad_fn is not None else None, 'sparse': r.is_sparse}
    if r.is_sparse:
        entry['result'] = members(r)
        wt = torch.randn(r.shape, dtype=torch.float64)
        entry['weight'] = values(wt)
        (r.to_dense() * wt).sum().backward()
    else:
        entry['result'] = values(r)
        wt = torch.randn(r.shape, dtype=torch.float64)
        entry['weight'] = values(wt)
        (r * wt).sum().backward()
    entry['grad'] = members(x.grad)
    sums[key] = entry
xs = torch.sparse_coo_tensor(hi, hv, (3, 4, 2, 3))
sums['dtype'] = values(torch.sparse.sum(xs, [1], dtype=torch.float32).to_dense())
sums['errors'] = {'repeat': err(lambda: torch.sparse.sum(xs, [1, 1])), 'range': err(lambda: torch.sparse.sum(xs, 4))}
out['sparse_sum'] = {'indices': hi.tolist(), 'values': values(hv), 'cases': sums}
write('sparse_autograd', out)
