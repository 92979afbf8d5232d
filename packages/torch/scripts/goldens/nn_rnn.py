"""Goldens for nn.RNN, nn.LSTM, nn.GRU and their cells (issue 18): PyTorch's initialisation
after manual_seed (the state dict), outputs, final states, and the gradients of the input, the
initial states and every parameter for loss = sum(out * r) + sum(h_n * rh) [+ sum(c_n * rc)],
over the options (num_layers, nonlinearity, bias, batch_first, dropout in train and eval mode,
bidirectional, proj_size), batched and unbatched inputs, with and without initial states;
reprs; and a 2-layer LSTM language model trained a few Adam steps (loss per step, final state).
Dropout draws from the generator during forward: the cases with dropout re-seed with
`fseed` just before forward, as the test does."""
import torch
import torch.nn as nn
from _common import values, write

torch.set_default_dtype(torch.float32)


def run_rnn(seed, make, x_shape, h0=False, fseed=None, train=True):
    torch.manual_seed(seed)
    m = make()
    m.train(train)
    lstm = isinstance(m, nn.LSTM)
    x = torch.randn(*x_shape, requires_grad=True)
    batched = len(x_shape) == 3
    dirs = 2 if m.bidirectional else 1
    batch = (x_shape[0] if m.batch_first else x_shape[1]) if batched else None
    out_h = m.proj_size if getattr(m, 'proj_size', 0) > 0 else m.hidden_size
    hshape = [m.num_layers * dirs] + ([batch] if batched else [])
    res = {'x': values(x)}
    hx = None
    if h0:
        h = torch.randn(*hshape, out_h, requires_grad=True)
        res['h0'] = values(h)
        if lstm:
            c = torch.randn(*hshape, m.hidden_size, requires_grad=True)
            res['c0'] = values(c)
            hx = (h, c)
        else:
            hx = h
    if fseed is not None:
        torch.manual_seed(fseed)
    out, hn = m(x, hx)
    res['y'] = values(out)
    r = torch.randn(out.shape)
    res['r'] = values(r)
    loss = (out * r).sum()
    if lstm:
        hn, cn = hn
        res['cn'] = values(cn)
        rc = torch.randn(cn.shape)
        res['rc'] = values(rc)
        loss = loss + (cn * rc).sum()
    res['hn'] = values(hn)
    rh = torch.randn(hn.shape)
    res['rh'] = values(rh)
    loss = loss + (hn * rh).sum()
    loss.backward()
    res['state'] = {n: values(t) for n, t in m.state_dict().items()}
    res['grads'] = {n: values(p.grad) for n, p in m.named_parameters()}
    res['xGrad'] = values(x.grad)
    if h0:
        if lstm:
            res['h0Grad'] = values(hx[0].grad)
            res['c0Grad'] = values(hx[1].grad)
        else:
            res['h0Grad'] = values(hx.grad)
    return res


# name -> (seed, constructor, input shape, h0 given, forward seed (dropout), train)
# (the test file keeps the same table, written in TypeScript)
rnn_cases = {
    'RNN(4,3)': (700, lambda: nn.RNN(4, 3), (5, 2, 4), False, None, True),
    'RNN(4,3,2,relu,bias=False) h0': (701, lambda: nn.RNN(4, 3, 2, nonlinearity='relu', bias=False), (5, 2, 4), True, None, True),
    'RNN(4,3,bidirectional,batch_first) h0': (702, lambda: nn.RNN(4, 3, batch_first=True, bidirectional=True), (2, 5, 4), True, None, True),
    'RNN(4,3) unbatched h0': (703, lambda: nn.RNN(4, 3), (5, 4), True, None, True),
    'RNN(4,3,3,dropout=0.5) train': (704, lambda: nn.RNN(4, 3, 3, dropout=0.5), (4, 3, 4), False, 7040, True),
    'LSTM(4,3)': (710, lambda: nn.LSTM(4, 3), (5, 2, 4), False, None, True),
    'LSTM(4,5,2,bidirectional) h0': (711, lambda: nn.LSTM(4, 5, 2, bidirectional=True), (4, 3, 4), True, None, True),
    'LSTM(4,5,2,proj_size=2,batch_first) h0': (712, lambda: nn.LSTM(4, 5, 2, batch_first=True, proj_size=2), (3, 4, 4), True, None, True),
    'LSTM(4,5,proj_size=3,bidirectional,bias=False) unbatched': (713, lambda: nn.LSTM(4, 5, bias=False, bidirectional=True, proj_size=3), (4, 4), False, None, True),
    'LSTM(4,3) unbatched h0': (714, lambda: nn.LSTM(4, 3), (5, 4), True, None, True),
    'LSTM(4,5,3,dropout=0.4,bidirectional) train': (715, lambda: nn.LSTM(4, 5, 3, dropout=0.4, bidirectional=True), (4, 2, 4), False, 7150, True),
    'LSTM(4,5,2,dropout=0.4) eval': (716, lambda: nn.LSTM(4, 5, 2, dropout=0.4), (4, 2, 4), True, None, False),
    'GRU(4,3)': (720, lambda: nn.GRU(4, 3), (5, 2, 4), False, None, True),
    'GRU(4,3,2,bidirectional,batch_first) h0': (721, lambda: nn.GRU(4, 3, 2, batch_first=True, bidirectional=True), (2, 5, 4), True, None, True),
    'GRU(4,3,bias=False) unbatched h0': (722, lambda: nn.GRU(4, 3, bias=False), (5, 4), True, None, True),
    'GRU(4,3,2,dropout=0.3,batch_first) train': (723, lambda: nn.GRU(4, 3, 2, dropout=0.3, batch_first=True), (3, 4, 4), True, 7230, True),
}
rnns = {name: run_rnn(*args) for name, args in rnn_cases.items()}


def run_cell(seed, make, x_shape, h0=False):
    torch.manual_seed(seed)
    m = make()
    lstm = isinstance(m, nn.LSTMCell)
    x = torch.randn(*x_shape, requires_grad=True)
    hshape = list(x_shape[:-1]) + [m.hidden_size]
    res = {'x': values(x)}
    hx = None
    if h0:
        if lstm:
            hx = (torch.randn(*hshape, requires_grad=True), torch.randn(*hshape, requires_grad=True))
            res['h0'] = values(hx[0])
            res['c0'] = values(hx[1])
        else:
            hx = torch.randn(*hshape, requires_grad=True)
            res['h0'] = values(hx)
    out = m(x, hx)
    if lstm:
        h, c = out
        rh, rc = torch.randn(h.shape), torch.randn(c.shape)
        res.update(hn=values(h), cn=values(c), rh=values(rh), rc=values(rc))
        loss = (h * rh).sum() + (c * rc).sum()
    else:
        rh = torch.randn(out.shape)
        res.update(hn=values(out), rh=values(rh))
        loss = (out * rh).sum()
    loss.backward()
    res['state'] = {n: values(t) for n, t in m.state_dict().items()}
    res['grads'] = {n: values(p.grad) for n, p in m.named_parameters()}
    res['xGrad'] = values(x.grad)
    if h0:
        if lstm:
            res['h0Grad'] = values(hx[0].grad)
            res['c0Grad'] = values(hx[1].grad)
        else:
            res['h0Grad'] = values(hx.grad)
    return res


cell_cases = {
    'RNNCell(4,3)': (730, lambda: nn.RNNCell(4, 3), (2, 4), False),
    'RNNCell(4,3,relu,bias=False) h0': (731, lambda: nn.RNNCell(4, 3, bias=False, nonlinearity='relu'), (2, 4), True),
    'RNNCell(4,3) unbatched h0': (732, lambda: nn.RNNCell(4, 3), (4,), True),
    'LSTMCell(4,3)': (733, lambda: nn.LSTMCell(4, 3), (2, 4), False),
    'LSTMCell(4,3) h0': (734, lambda: nn.LSTMCell(4, 3), (2, 4), True),
    'LSTMCell(4,3,bias=False) unbatched h0': (735, lambda: nn.LSTMCell(4, 3, bias=False), (4,), True),
    'GRUCell(4,3)': (736, lambda: nn.GRUCell(4, 3), (2, 4), False),
    'GRUCell(4,3) h0': (737, lambda: nn.GRUCell(4, 3), (2, 4), True),
    'GRUCell(4,3,bias=False) unbatched': (738, lambda: nn.GRUCell(4, 3, bias=False), (4,), False),
}
cells = {name: run_cell(*args) for name, args in cell_cases.items()}



# ---- nn.utils.rnn: packing, padding, and the layers on a PackedSequence ----
from torch.nn.utils import rnn as R


def run_packed(seed, make, lengths, enforce_sorted, h0=False, batch_first=False):
    torch.manual_seed(seed)
    m = make()
    lstm = isinstance(m, nn.LSTM)
    T, B = max(lengths), len(lengths)
    x = torch.randn(*((B, T) if batch_first else (T, B)), m.input_size, requires_grad=True)
    packed = R.pack_padded_sequence(x, lengths, batch_first=batch_first, enforce_sorted=enforce_sorted)
    dirs = 2 if m.bidirectional else 1
    out_h = m.proj_size if getattr(m, 'proj_size', 0) > 0 else m.hidden_size
    res = {'x': values(x), 'lengths': lengths, 'packedData': values(packed.data), 'batchSizes': packed.batch_sizes.tolist(),
           'sortedIndices': None if packed.sorted_indices is None else packed.sorted_indices.tolist()}
    hx = None
    if h0:
        h = torch.randn(m.num_layers * dirs, B, out_h, requires_grad=True)
        res['h0'] = values(h)
        if lstm:
            c = torch.randn(m.num_layers * dirs, B, m.hidden_size, requires_grad=True)
            res['c0'] = values(c)
            hx = (h, c)
        else:
            hx = h
    out, hn = m(packed, hx)
    res['outData'] = values(out.data)
    padded, lens = R.pad_packed_sequence(out, batch_first=batch_first, padding_value=-1.0, total_length=T + 1)
    res['padded'] = values(padded)
    res['padLengths'] = lens.tolist()
    r = torch.randn(padded.shape)
    res['r'] = values(r)
    loss = (padded * r).sum()
    if lstm:
        hn, cn = hn
        res['cn'] = values(cn)
        rc = torch.randn(cn.shape)
        res['rc'] = values(rc)
        loss = loss + (cn * rc).sum()
    res['hn'] = values(hn)
    rh = torch.randn(hn.shape)
    res['rh'] = values(rh)
    loss = loss + (hn * rh).sum()
    loss.backward()
    res['grads'] = {n: values(p.grad) for n, p in m.named_parameters()}
    res['xGrad'] = values(x.grad)
    if h0:
        res['h0Grad'] = values(hx[0].grad if lstm else hx.grad)
        if lstm:
            res['c0Grad'] = values(hx[1].grad)
    return res


packed_cases = {
    'LSTM(3,4) sorted': (740, lambda: nn.LSTM(3, 4), [5, 3, 3, 1], True, False, False),
    'LSTM(3,4,2,bidirectional,proj_size=2) unsorted h0': (741, lambda: nn.LSTM(3, 4, 2, bidirectional=True, proj_size=2), [2, 5, 1, 3], False, True, False),
    'GRU(3,4,bidirectional,batch_first) unsorted h0': (742, lambda: nn.GRU(3, 4, bidirectional=True, batch_first=True), [3, 1, 4], False, True, True),
    'RNN(3,4,2,relu) sorted': (743, lambda: nn.RNN(3, 4, 2, nonlinearity='relu'), [4, 4, 2], True, False, False),
}
packed_rnns = {name: run_packed(*args) for name, args in packed_cases.items()}

torch.manual_seed(750)
seqs = [torch.randn(2, 3), torch.randn(4, 3), torch.randn(1, 3)]
pad_seq = {'seqs': [values(t) for t in seqs],
           'padded': values(R.pad_sequence(seqs)),
           'paddedBatchFirst': values(R.pad_sequence(seqs, batch_first=True, padding_value=7.0))}
ps = R.pack_sequence(seqs, enforce_sorted=False)
pad_seq['packData'] = values(ps.data)
pad_seq['packBatchSizes'] = ps.batch_sizes.tolist()
pad_seq['packSorted'] = ps.sorted_indices.tolist()
pad_seq['packUnsorted'] = ps.unsorted_indices.tolist()

reprs = {
    'RNN(4,3)': repr(nn.RNN(4, 3)),
    'RNN(4,3,2,relu,bias=False,batch_first,dropout=0.5,bidirectional)': repr(
        nn.RNN(4, 3, 2, nonlinearity='relu', bias=False, batch_first=True, dropout=0.5, bidirectional=True)),
    'LSTM(4,3,2,proj_size=2,bias=False,batch_first,dropout=0.5,bidirectional)': repr(
        nn.LSTM(4, 3, 2, bias=False, batch_first=True, dropout=0.5, bidirectional=True, proj_size=2)),
    'GRU(4,3,dropout=1)': repr(nn.GRU(4, 3, dropout=1)),
    'RNNCell(4,3,bias=False,relu)': repr(nn.RNNCell(4, 3, bias=False, nonlinearity='relu')),
    'LSTMCell(4,3)': repr(nn.LSTMCell(4, 3)),
    'GRUCell(4,3,bias=False)': repr(nn.GRUCell(4, 3, bias=False)),
}


# ---- a 2-layer LSTM language model: embedding -> LSTM -> linear -> cross entropy, Adam ----
class LM(nn.Module):
    def __init__(self, vocab, emb, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, num_layers=2)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, tokens):
        out, _ = self.lstm(self.embed(tokens))
        return self.head(out)


torch.manual_seed(800)
lm = LM(11, 6, 8)
tokens = torch.randint(0, 11, (9, 3))
inp, tgt = tokens[:-1], tokens[1:]
opt = torch.optim.Adam(lm.parameters(), lr=0.02)
losses = []
for _ in range(5):
    opt.zero_grad()
    logits = lm(inp)
    loss = nn.functional.cross_entropy(logits.reshape(-1, 11), tgt.reshape(-1))
    loss.backward()
    opt.step()
    losses.append(loss.item())
lm_golden = {'tokens': tokens.tolist(), 'losses': losses, 'state': {n: values(t) for n, t in lm.state_dict().items()}}

write('nn_rnn', {'rnns': rnns, 'cells': cells, 'packed': packed_rnns, 'padSequence': pad_seq, 'reprs': reprs, 'lm': lm_golden})
