"""Goldens for issue 15's argument binding (test/arguments-*.test.ts): each op called in
PyTorch with its arguments by keyword, on small arange-based inputs the tests rebuild, and
the reprs of layers built with every constructor argument given positionally. The tests
call each op positionally, by keyword, mixed and as a method, and expect this result."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import write


def res(t):
    """A tensor (its shape, dtype, values and, for views, strides and offset), or a list of them."""
    if isinstance(t, (list, tuple)):
        return [res(e) for e in t]
    return {'shape': list(t.shape), 'dtype': str(t.dtype).replace('torch.', ''), 'values': t.reshape(-1).tolist(),
            'stride': list(t.stride()), 'offset': t.storage_offset()}


x = torch.arange(24.).view(2, 3, 4)
y = torch.arange(12.).view(3, 4)
s = torch.arange(6.).view(2, 1, 3, 1)
col = torch.arange(3.).view(3, 1)
idx = torch.tensor([[0, 1, 1, 0], [2, 2, 0, 1], [1, 0, 2, 2]])
mask = (y.long() % 3) == 0
v = torch.arange(4.)
w = torch.arange(4.) + 1
a = torch.arange(6.).view(2, 3)
b = torch.arange(12.).view(3, 4)
ba = torch.arange(12.).view(2, 2, 3)
bb = torch.arange(12.).view(2, 3, 2)
c = torch.ones(2, 4)
u = torch.tensor([[2, 1, 2], [0, 1, 0], [2, 1, 2]])
seq = torch.tensor([1., 3., 5., 7.])
vals = torch.tensor([[3., 6.], [1., 7.]])
img = torch.arange(32.).view(1, 2, 4, 4)

ops = {
    # views and shape ops
    'view': x.view(size=(6, 4)),
    'view-1': x.view(3, -1, 2),
    'reshape': torch.reshape(x, shape=(4, -1)),
    'permute': torch.permute(x, dims=(2, 0, 1)),
    'transpose': torch.transpose(x, dim0=0, dim1=2),
    'swapaxes': torch.swapaxes(x, axis0=0, axis1=2),
    'swapdims': torch.swapdims(x, dim0=2, dim1=1),
    'squeeze': torch.squeeze(s),
    'squeeze1': torch.squeeze(s, dim=1),
    'unsqueeze': torch.unsqueeze(x, dim=1),
    'flatten': torch.flatten(x, start_dim=1),
    'flatten01': torch.flatten(x, start_dim=0, end_dim=1),
    'unflatten': torch.unflatten(x, dim=2, sizes=(2, 2)),
    'expand': col.expand(size=(3, 4)),
    'expand_as': col.expand_as(other=y),
    'narrow': torch.narrow(x, dim=2, start=1, length=2),
    'select': torch.select(x, dim=1, index=-1),
    'split': torch.split(x, split_size_or_sections=[1, 3], dim=2),
    'split2': torch.split(x, 2, 2),
    'chunk': torch.chunk(x, chunks=2, dim=2),
    'unbind': torch.unbind(x, dim=1),
    'movedim': torch.movedim(x, source=0, destination=2),
    'moveaxis': torch.moveaxis(x, source=(0, 1), destination=(2, 0)),
    'diagonal': torch.diagonal(x, offset=1, dim1=1, dim2=2),
    'unfold': x.unfold(dimension=2, size=2, step=1),
    't': torch.t(y),
    'as_strided': torch.as_strided(x, size=(2, 2), stride=(1, 2), storage_offset=1),
    'repeat': y.repeat(2, 1),
    'tile': torch.tile(y, dims=(2,)),
    'flip': torch.flip(x, dims=(0, 2)),
    'fliplr': torch.fliplr(y),
    'flipud': torch.flipud(y),
    'triu': torch.triu(y, diagonal=1),
    'tril': torch.tril(y, diagonal=-1),
    'repeat_interleave': torch.repeat_interleave(y, repeats=2, dim=0),
    # indexing
    'gather': torch.gather(y, dim=1, index=idx),
    'scatter': torch.scatter(torch.zeros(3, 4), dim=1, index=idx, src=y),
    'scatter_value': torch.scatter(torch.zeros(3, 4), dim=1, index=idx, value=2.5),
    'scatter_reduce_add': torch.scatter(torch.ones(3, 4), dim=1, index=idx, src=y, reduce='add'),
    'scatter_add': torch.scatter_add(torch.zeros(3, 4), dim=1, index=idx, src=y),
    'scatter_reduce': torch.scatter_reduce(torch.ones(3, 4), dim=1, index=idx, src=y, reduce='amax', include_self=False),
    'index_select': torch.index_select(y, dim=1, index=torch.tensor([2, 0])),
    'index_add': torch.index_add(y, dim=0, index=torch.tensor([2, 0]), source=torch.ones(2, 4), alpha=2),
    'index_fill': torch.index_fill(y, dim=1, index=torch.tensor([1, 3]), value=-1),
    'take': torch.take(y, index=torch.tensor([[0, 5], [11, 3]])),
    'masked_fill': torch.masked_fill(y, mask=mask, value=0.5),
    'masked_select': torch.masked_select(y, mask=mask),
    'masked_scatter': torch.masked_scatter(y, mask=mask, source=-torch.arange(12.).view(3, 4)),
    'nonzero': torch.nonzero(mask),
    'nonzero_tuple': torch.nonzero(mask, as_tuple=True),
    # scans and order statistics
    'cumsum': torch.cumsum(y, dim=1, dtype=torch.float64),
    'cumprod': torch.cumprod(y + 1, dim=0),
    'cummax': list(torch.cummax(u, dim=1)),
    'cummin': list(torch.cummin(u, dim=0)),
    'median': list(torch.median(u.float(), dim=1, keepdim=True)),
    'median_all': torch.median(u.float()),
    'mode': list(torch.mode(u, dim=0)),
    'unique': list(torch.unique(u, sorted=True, return_inverse=True, return_counts=True)),
    'unique_dim': list(torch.unique(u, return_counts=True, dim=0)),
    'searchsorted': torch.searchsorted(seq, vals, right=True),
    'bucketize': torch.bucketize(vals, boundaries=seq, out_int32=True),
    # matrix products
    'mm': torch.mm(a, mat2=b),
    'bmm': torch.bmm(ba, mat2=bb),
    'mv': torch.mv(b, vec=v),
    'dot': torch.dot(v, tensor=w),
    'matmul': torch.matmul(ba, other=bb),
    'addmm': torch.addmm(c, a, b, beta=0.5, alpha=2),
    'baddbmm': torch.baddbmm(torch.ones(2, 2, 2), ba, bb, beta=2, alpha=0.5),
    'outer': torch.outer(v, vec2=w),
    # F
    'one_hot': F.one_hot(torch.tensor([0, 3, 1]), num_classes=5),
    'adaptive_avg_pool2d': F.adaptive_avg_pool2d(img, output_size=(None, 2)),
}

# Layers built with every argument positional (as `new nn.X(...)` in the test); their reprs.
modules = {
    'Linear': nn.Linear(4, 2, False),
    'Bilinear': nn.Bilinear(2, 3, 4, False),
    'Flatten': nn.Flatten(0, 1),
    'Unflatten': nn.Unflatten(1, (2, 2)),
    'Conv1d': nn.Conv1d(2, 4, 3, 2, 1, 2, 2, False),
    'Conv2d': nn.Conv2d(4, 8, (3, 5), 2, 1, 2, 2, False),
    'ConvTranspose2d': nn.ConvTranspose2d(2, 4, 3, 2, 1, 1, 2, False, 1),
    'BatchNorm1d': nn.BatchNorm1d(3, 0.001, 0.2, False, False),
    'BatchNorm2d': nn.BatchNorm2d(3, 1e-05, None),
    'LayerNorm': nn.LayerNorm(4, 0.001, False),
    'GroupNorm': nn.GroupNorm(2, 4, 0.01, False),
    'Embedding': nn.Embedding(10, 3, 0, 2.0, 3.0, True),
    'Dropout': nn.Dropout(0.2, True),
    'MaxPool2d': nn.MaxPool2d(3, 2, 1, 1, False, True),
    'AvgPool2d': nn.AvgPool2d(3, 2, 1, True),
    'AdaptiveAvgPool2d': nn.AdaptiveAvgPool2d((None, 2)),
    'LeakyReLU': nn.LeakyReLU(0.2, True),
    'ELU': nn.ELU(0.5),
    'ReLU': nn.ReLU(True),
    'GELU': nn.GELU('tanh'),
    'SiLU': nn.SiLU(True),
    'Softmax': nn.Softmax(1),
    'LogSoftmax': nn.LogSoftmax(0),
}

write('arguments', {'ops': {k: res(t) for k, t in ops.items()}, 'modules': {k: repr(m) for k, m in modules.items()}})
