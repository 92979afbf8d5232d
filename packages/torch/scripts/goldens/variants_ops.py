"""Goldens for the forms that close issue 15's gaps (test/variants-ops.test.ts): Tensor.addmm_ and
Tensor.baddbmm_ with their gradients, aten's torch.embedding, torch.batch_norm and
torch.binary_cross_entropy_with_logits (int reduction), torch.dropout_.

Run with /usr/bin/python3 (PyTorch 1.13): writes test/goldens/variants_ops.json.
"""
import torch

from _common import values, write

torch.set_default_dtype(torch.float32)


def randn(g, *shape, dtype=torch.float64):
    return torch.randn(*shape, generator=g, dtype=dtype)


def leaves(ts):
    return [t.clone().requires_grad_(True) for t in ts]


# ---- addmm_ / baddbmm_: self = beta * self + alpha * (a @ b), in place on a non-leaf ----
add_product = {}
for name, shapes in [('addmm_', [[2, 3], [2, 4], [4, 3]]), ('baddbmm_', [[2, 2, 3], [2, 2, 4], [2, 4, 3]])]:
    for kw in [{}, {'beta': 0.5, 'alpha': 1.5}, {'beta': 0}]:
        g = torch.Generator().manual_seed(len(add_product))
        inputs = [randn(g, *s) for s in shapes]
        upstream = randn(g, *shapes[0])
        s, a, b = leaves(inputs)
        x = s * 1
        r = getattr(x, name)(a, b, **kw)
        assert r is x
        (x * upstream).sum().backward()
        add_product['%s %s' % (name, kw)] = {
            'op': name, 'kwargs': kw, 'inputs': [values(t) for t in inputs], 'upstream': values(upstream),
            'result': values(x), 'gradFn': type(x.grad_fn).__name__, 'grads': [values(t.grad) for t in (s, a, b)],
        }

# ---- torch.embedding(weight, indices, padding_idx, scale_grad_by_freq) ----
embedding = {}
g = torch.Generator().manual_seed(100)
weight = randn(g, 5, 3)
indices = torch.tensor([[0, 2], [2, 4], [2, 1]])
upstream = randn(g, 3, 2, 3)
for args in [[], [2], [-1], [-2], [7], [1, True], [-1, True]]:
    w = weight.clone().requires_grad_(True)
    out = torch.embedding(w, indices, *args)
    (out * upstream).sum().backward()
    embedding[str(args)] = {'args': args, 'result': values(out), 'gradFn': type(out.grad_fn).__name__, 'grad': values(w.grad)}
embedding_in = {'weight': values(weight), 'indices': indices.reshape(-1).tolist(), 'indicesShape': list(indices.shape), 'upstream': values(upstream)}

# ---- torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled) ----
batch_norm = {}
g = torch.Generator().manual_seed(200)
bn_in = {'input': randn(g, 2, 3, 4), 'weight': randn(g, 3), 'bias': randn(g, 3), 'running_mean': randn(g, 3), 'running_var': randn(g, 3).abs() + 0.5, 'upstream': randn(g, 2, 3, 4)}
for training in [True, False]:
    for affine in [True, False]:
        x, w, b = leaves([bn_in['input'], bn_in['weight'], bn_in['bias']])
        rm, rv = bn_in['running_mean'].clone(), bn_in['running_var'].clone()
        out = torch.batch_norm(x, w if affine else None, b if affine else None, rm, rv, training, 0.2, 1e-3, True)
        (out * bn_in['upstream']).sum().backward()
        batch_norm['training=%s affine=%s' % (training, affine)] = {
            'training': training, 'affine': affine, 'result': values(out), 'runningMean': values(rm), 'runningVar': values(rv),
            'grads': [values(x.grad), values(w.grad) if affine else None, values(b.grad) if affine else None],
        }
# one value per channel: aten does not refuse it (F.batch_norm's check is Python's)
x1 = torch.tensor([[1.0, 2.0, 3.0]], dtype=torch.float64)
batch_norm['one value per channel'] = {'input': values(x1), 'result': values(torch.batch_norm(x1, None, None, None, None, True, 0.1, 1e-5, False))}

# ---- torch.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction) ----
bce = {}
g = torch.Generator().manual_seed(300)
bce_in = {'input': randn(g, 2, 3), 'target': torch.rand(2, 3, generator=g, dtype=torch.float64), 'weight': randn(g, 3).abs(), 'posWeight': randn(g, 3).abs()}
for reduction in [0, 1, 2, 3, -1]:
    for weighted in [False, True]:
        x = bce_in['input'].clone().requires_grad_(True)
        w = bce_in['weight'] if weighted else None
        pw = bce_in['posWeight'] if weighted else None
        out = torch.binary_cross_entropy_with_logits(x, bce_in['target'], w, pw, reduction)
        out.sum().backward()
        bce['reduction=%d weighted=%s' % (reduction, weighted)] = {'reduction': reduction, 'weighted': weighted, 'result': values(out), 'grad': values(x.grad)}

# ---- torch.dropout_(input, p, train) ----
dropout = {}
for p, train in [(0.5, True), (0.25, True), (0.5, False), (0.0, True), (1.0, True)]:
    torch.manual_seed(7)
    x = torch.arange(1.0, 13.0).reshape(3, 4)
    r = torch.dropout_(x, p, train)
    assert r is x
    dropout['p=%s train=%s' % (p, train)] = {'p': p, 'train': train, 'result': values(x)}

write('variants_ops', {
    'addProduct': add_product,
    'embeddingInputs': embedding_in, 'embedding': embedding,
    'batchNormInputs': {k: values(v) for k, v in bn_in.items()}, 'batchNorm': batch_norm,
    'bceInputs': {k: values(v) for k, v in bce_in.items()}, 'bce': bce,
    'dropout': dropout,
})
