"""Goldens for nn.MultiheadAttention and nn.TransformerEncoderLayer: default initialisation
after manual_seed, outputs, attention weights and parameter gradients (loss
sum(output * r)), with masks, batch_first, cross-attention and unbatched input; reprs.
Training mode with dropout 0, so PyTorch takes its ordinary (not fast-path) route."""
import torch
import torch.nn as nn
from _common import values, write

def run_mha(seed, make, shapes, kw=None, cross=False, unbatched=False):
    torch.manual_seed(seed)
    m = make()
    q = torch.randn(*shapes[0], requires_grad=True)
    if cross:
        k = torch.randn(*shapes[1], requires_grad=True)
        v = torch.randn(*shapes[1], requires_grad=True)
    else:
        k = v = q
    kw = kw or {}
    out, w = m(q, k, v, **kw)
    r = torch.randn(out.shape)
    (out * r).sum().backward()
    res = {'q': values(q), 'y': values(out), 'r': values(r), 'state': {n: values(t) for n, t in m.state_dict().items()},
           'grads': {n: values(p.grad) for n, p in m.named_parameters()}, 'qGrad': values(q.grad)}
    if cross:
        res['k'] = values(k)
        res['v'] = values(v)
    res['w'] = None if w is None else values(w)
    return res

mha = {}
mha['self'] = run_mha(500, lambda: nn.MultiheadAttention(8, 2), [(3, 2, 8)])
mha['self,averageAttnWeights=False'] = run_mha(501, lambda: nn.MultiheadAttention(8, 2), [(3, 2, 8)], {'average_attn_weights': False})
torch.manual_seed(0)
kpm = torch.tensor([[False, False, True, True], [False, False, False, True]])
am = torch.randn(4, 4)
mha['batchFirst,masks'] = run_mha(502, lambda: nn.MultiheadAttention(8, 4, batch_first=True), [(2, 4, 8)],
                                  {'key_padding_mask': kpm, 'attn_mask': am})
mha['batchFirst,masks']['kpm'] = kpm.tolist()
mha['batchFirst,masks']['am'] = values(am)
causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)
mha['causalBool,noWeights'] = run_mha(503, lambda: nn.MultiheadAttention(6, 3), [(3, 2, 6)], {'attn_mask': causal, 'need_weights': False})
mha['causalBool,noWeights']['am'] = causal.tolist()
mha['cross'] = run_mha(504, lambda: nn.MultiheadAttention(4, 2), [(2, 3, 4), (5, 3, 4)], cross=True)
mha['unbatched,noBias'] = run_mha(505, lambda: nn.MultiheadAttention(4, 1, bias=False), [(3, 4)])

def run_enc(seed, make, shape, kpm=None):
    torch.manual_seed(seed)
    m = make()
    x = torch.randn(*shape, requires_grad=True)
    y = m(x, src_key_padding_mask=kpm) if kpm is not None else m(x)
    r = torch.randn(y.shape)
    (y * r).sum().backward()
    return {'x': values(x), 'y': values(y), 'r': values(r), 'state': {n: values(t) for n, t in m.state_dict().items()},
            'grads': {n: values(p.grad) for n, p in m.named_parameters()}, 'xGrad': values(x.grad)}

enc = {}
enc['post-norm relu'] = run_enc(600, lambda: nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0), (3, 2, 8))
pad = torch.tensor([[False, False, True], [False, False, False]])
enc['pre-norm gelu batchFirst kpm'] = run_enc(
    601, lambda: nn.TransformerEncoderLayer(8, 4, dim_feedforward=12, dropout=0.0, activation='gelu', batch_first=True, norm_first=True),
    (2, 3, 8), kpm=pad)
enc['pre-norm gelu batchFirst kpm']['kpm'] = pad.tolist()

reprs = {'MultiheadAttention(8,2)': repr(nn.MultiheadAttention(8, 2)),
         'TransformerEncoderLayer(8,2,16)': repr(nn.TransformerEncoderLayer(8, 2, dim_feedforward=16))}
write('nn_attention', {'mha': mha, 'encoder': enc, 'reprs': reprs})
