"""Reference values for F.scaled_dot_product_attention (PyTorch 2's; 1.13 has none): its math
backend's formula (_scaled_dot_product_attention_math, with 2.5's safe softmax) written out
with PyTorch 1.13 ops in float64 -- sqrt(scale) on query and key, a boolean mask as 0 / -inf,
a float mask added, is_causal as tril(ones(L, S)), fully masked rows weighing nothing, GQA
heads repeated -- values and the gradients of query, key, value (and a float mask).
Run: /usr/bin/python3 packages/torch/scripts/goldens/nn_sdpa.py"""
import math

import torch

from _common import values, write

torch.manual_seed(0)
dt = torch.float64


def sdpa(q, k, v, mask=None, causal=False, scale=None, gqa=False):
    if gqa and q.size(-3) != k.size(-3):
        r = q.size(-3) // k.size(-3)
        k = k.repeat_interleave(r, -3)
        v = v.repeat_interleave(r, -3)
    s = scale if scale is not None else 1 / math.sqrt(q.size(-1))
    half = math.sqrt(abs(s))
    q = q * (-half if s < 0 else half)
    scores = q @ (k.transpose(-2, -1) * half)
    if causal:
        mask = torch.ones(q.size(-2), k.size(-2), dtype=torch.bool).tril()
    if mask is not None:
        scores = scores + (torch.where(mask, 0.0, float('-inf')).to(dt) if mask.dtype == torch.bool else mask)
    if mask is None:
        return torch.softmax(scores, -1) @ v
    # 2.5's _safe_softmax: zero weights (and zero gradients, its derivative being softmax's with
    # that result) for a row whose every score is -inf
    dead = torch.isneginf(scores).all(-1, keepdim=True)
    w = torch.softmax(torch.where(dead, torch.zeros((), dtype=dt), scores), -1)
    return torch.where(dead, torch.zeros((), dtype=dt), w) @ v


B, H, L, S, E, Ev = 2, 4, 5, 6, 8, 3
Q = torch.randn(B, H, L, E, dtype=dt)
K = torch.randn(B, H, S, E, dtype=dt)
V = torch.randn(B, H, S, Ev, dtype=dt)
K2 = torch.randn(B, 2, S, E, dtype=dt)
V2 = torch.randn(B, 2, S, Ev, dtype=dt)
BOOL = torch.rand(L, S) > 0.4
BOOL[1] = False  # a query that sees no key
FLOAT = torch.randn(B, 1, L, S, dtype=dt)
GO = torch.randn(B, H, L, Ev, dtype=dt)
cases = {}
for name, kw, kv in [
    ('plain', {}, (K, V)),
    ('bool mask', {'mask': BOOL}, (K, V)),
    ('float mask', {'mask': FLOAT}, (K, V)),
    ('causal', {'causal': True}, (K, V)),
    ('scale', {'scale': 0.3}, (K, V)),
    ('negative scale', {'scale': -0.5}, (K, V)),
    ('gqa', {'gqa': True, 'causal': True}, (K2, V2)),
]:
    q = Q.clone().requires_grad_()
    k = kv[0].clone().requires_grad_()
    v = kv[1].clone().requires_grad_()
    m = kw.get('mask')
    if m is not None and m.dtype != torch.bool:
        m = m.clone().requires_grad_()
        kw = {**kw, 'mask': m}
    y = sdpa(q, k, v, **kw)
    y.backward(GO)
    c = {'out': values(y), 'grad_q': values(q.grad), 'grad_k': values(k.grad), 'grad_v': values(v.grad)}
    if m is not None and m.dtype != torch.bool:
        c['grad_mask'] = values(m.grad)
    cases[name] = c
write('nn_sdpa', {'q': values(Q), 'k': values(K), 'v': values(V), 'k2': values(K2), 'v2': values(V2), 'bool_mask': BOOL.tolist(),
                  'float_mask': values(FLOAT), 'grad_output': values(GO), 'cases': cases})
