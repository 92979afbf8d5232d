"""Goldens for nn.TransformerDecoderLayer, nn.TransformerDecoder, nn.TransformerEncoder and
nn.Transformer (PyTorch 1.13): default initialisation after manual_seed (the stacks' clones
are copies of the layer given, and Transformer's xavier_uniform_ re-draw), outputs and
parameter gradients of sum(output * r), the inputs' gradients, with causal float masks, bool
masks, key padding masks, batch_first, norm_first, gelu and unbatched input; eval mode with
dropout 0 and parameters that require grad, so PyTorch takes its ordinary (not fast-path)
route. Also generate_square_subsequent_mask and reprs."""
import torch
import torch.nn as nn
from _common import values, write


def result(m, inputs, y):
    r = torch.randn(y.shape)
    (y * r).sum().backward()
    out = {'y': values(y), 'r': values(r), 'state': {n: values(t) for n, t in m.state_dict().items()},
           'grads': {n: values(p.grad) for n, p in m.named_parameters()}}
    for k, t in inputs.items():
        out[k] = values(t)
        out[k + 'Grad'] = values(t.grad)
    return out


def causal(n):
    return nn.Transformer.generate_square_subsequent_mask(n)


def bool_values(t):
    return t.tolist()


cases = {}

# decoder layers
torch.manual_seed(800)
m = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0).eval()
tgt = torch.randn(3, 2, 8, requires_grad=True)
mem = torch.randn(4, 2, 8, requires_grad=True)
cases['layer post-norm relu causal'] = result(m, {'tgt': tgt, 'memory': mem}, m(tgt, mem, tgt_mask=causal(3)))

torch.manual_seed(801)
m = nn.TransformerDecoderLayer(8, 4, dim_feedforward=12, dropout=0.0, activation='gelu', batch_first=True, norm_first=True).eval()
tgt = torch.randn(2, 3, 8, requires_grad=True)
mem = torch.randn(2, 5, 8, requires_grad=True)
tkpm = torch.tensor([[False, False, True], [False, False, False]])
mkpm = torch.tensor([[False, False, False, True, True], [False, False, False, False, True]])
mmask = torch.zeros(3, 5, dtype=torch.bool)
mmask[0, 2] = True
cases['layer pre-norm gelu batchFirst masks'] = result(
    m, {'tgt': tgt, 'memory': mem},
    m(tgt, mem, tgt_mask=torch.triu(torch.ones(3, 3, dtype=torch.bool), 1), memory_mask=mmask,
      tgt_key_padding_mask=tkpm, memory_key_padding_mask=mkpm))
cases['layer pre-norm gelu batchFirst masks'].update(
    {'tgtKpm': bool_values(tkpm), 'memoryKpm': bool_values(mkpm), 'memoryMask': bool_values(mmask)})

torch.manual_seed(802)
m = nn.TransformerDecoderLayer(4, 1, dim_feedforward=6, dropout=0.0, activation=nn.GELU(approximate='tanh')).eval()
tgt = torch.randn(3, 4, requires_grad=True)
mem = torch.randn(2, 4, requires_grad=True)
cases['layer unbatched GELU(tanh) module'] = result(m, {'tgt': tgt, 'memory': mem}, m(tgt, mem))

# stacks
torch.manual_seed(810)
m = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0), 2, norm=nn.LayerNorm(8)).eval()
tgt = torch.randn(4, 2, 8, requires_grad=True)
mem = torch.randn(3, 2, 8, requires_grad=True)
cases['decoder 2 layers norm causal'] = result(m, {'tgt': tgt, 'memory': mem}, m(tgt, mem, tgt_mask=causal(4)))

torch.manual_seed(811)
m = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True), 3).eval()
src = torch.randn(2, 4, 8, requires_grad=True)
kpm = torch.tensor([[False, False, False, True], [False, False, False, False]])
cases['encoder 3 layers batchFirst kpm'] = result(m, {'src': src}, m(src, src_key_padding_mask=kpm))
cases['encoder 3 layers batchFirst kpm']['srcKpm'] = bool_values(kpm)

# full transformers
torch.manual_seed(820)
m = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=16, dropout=0.0).eval()
src = torch.randn(5, 2, 8, requires_grad=True)
tgt = torch.randn(3, 2, 8, requires_grad=True)
cases['transformer post-norm causal'] = result(m, {'src': src, 'tgt': tgt}, m(src, tgt, tgt_mask=causal(3)))

torch.manual_seed(821)
m = nn.Transformer(d_model=8, nhead=4, num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=12, dropout=0.0,
                   activation='gelu', batch_first=True, norm_first=True).eval()
src = torch.randn(2, 4, 8, requires_grad=True)
tgt = torch.randn(2, 3, 8, requires_grad=True)
skpm = torch.tensor([[False, False, False, True], [False, False, False, False]])
tkpm = torch.tensor([[False, False, True], [False, False, False]])
cases['transformer pre-norm gelu batchFirst kpm'] = result(
    m, {'src': src, 'tgt': tgt},
    m(src, tgt, tgt_mask=causal(3), src_key_padding_mask=skpm, tgt_key_padding_mask=tkpm, memory_key_padding_mask=skpm))
cases['transformer pre-norm gelu batchFirst kpm'].update({'srcKpm': bool_values(skpm), 'tgtKpm': bool_values(tkpm)})

mask4 = causal(4)
reprs = {
    'TransformerDecoderLayer(8,2,16)': repr(nn.TransformerDecoderLayer(8, 2, dim_feedforward=16)),
    'TransformerDecoder(layer(4,2,8),2,norm)': repr(nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, dim_feedforward=8), 2, norm=nn.LayerNorm(4))),
    'Transformer(4,2,1,1,8)': repr(nn.Transformer(4, 2, 1, 1, 8)),
}
write('nn_transformer', {'cases': cases, 'squareSubsequentMask4': {'isNegInf': bool_values(torch.isneginf(mask4)), 'finite': mask4.nan_to_num(0.0, 0.0, 0.0).tolist()}, 'reprs': reprs})
