"""Real models as the test (issue 18): three small architectures written as a PyTorch user
writes them, their initial weights, inputs and PyTorch 1.13's results saved by torch.save
in test/fixtures/models/*.pt (flat dicts of tensors). torch-ts loads the same weights into
the same architectures (test/fixtures/models/*.ts) and must give the same numbers
(test/models-*.test.ts, on CPU in float32 and float64 and on WebGPU in float32).

Each file holds `init.<name>` (the float32 state_dict after manual_seed), the inputs, and per
dtype (`f32.`, `f64.`: the same run after model.double()) the results:
- lstm-lm.pt: PyTorch's word_language_model recipe (examples/word_language_model): Embedding
  -> 2-layer LSTM -> Linear decoder with tied weights; truncated BPTT over a token stream in
  batchified columns, the hidden state carried and detached between chunks,
  clip_grad_norm_(0.25), plain SGD `p.add_(p.grad, alpha=-lr)`; loss per step, the final
  weights, then an eval-mode loss over the whole stream.
- gpt.pt: a nanoGPT-style decoder (token + position embeddings, pre-norm blocks of causal
  self-attention written out with matmul / masked_fill / softmax and a GELU(tanh) MLP, tied
  lm_head); forward logits and loss, one AdamW step with nanoGPT's two parameter groups
  (weight decay on matrices only), the updated weights and the logits after the step on a
  shorter sequence. (AdamW's eps is 1e-6: the key projection's bias has an exactly zero
  gradient, see test/models-gpt.test.ts.)
- resnet.pt: a ResNet-style CNN (stem conv-BN-ReLU, a BasicBlock with identity shortcut and
  one with a strided 1x1 conv-BN shortcut, adaptive average pooling, Linear); three SGD steps
  (momentum 0.9, Nesterov, weight decay 5e-4) in train mode with loss per step, the updated
  weights and BatchNorm running statistics (and num_batches_tracked), then eval-mode logits
  on other images."""
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

FIX = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'fixtures', 'models')
os.makedirs(FIX, exist_ok=True)


def save(name, d):
    path = os.path.join(FIX, name + '.pt')
    torch.save({k: v.detach().clone().contiguous() for k, v in d.items()}, path)
    print('wrote', os.path.relpath(path), os.path.getsize(path), 'bytes')


def prefixed(prefix, sd):
    return {prefix + k: v for k, v in sd.items()}


# ---------------- LSTM language model ----------------
class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers)
        self.decoder = nn.Linear(nhid, ntoken)
        self.decoder.weight = self.encoder.weight  # tied (needs nhid == ninp)
        self.nlayers, self.nhid = nlayers, nhid
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)

    def forward(self, input, hidden):
        output, hidden = self.rnn(self.encoder(input), hidden)
        return self.decoder(output), hidden

    def init_hidden(self, bsz, dtype):
        return (torch.zeros(self.nlayers, bsz, self.nhid, dtype=dtype), torch.zeros(self.nlayers, bsz, self.nhid, dtype=dtype))


NTOKEN, BSZ, BPTT, LR, CLIP = 23, 3, 5, 2.0, 0.25
torch.manual_seed(1000)
lm = RNNModel(NTOKEN, 12, 12, 2)
stream = torch.randint(0, NTOKEN, (46,))
lm_out = {**prefixed('init.', lm.state_dict()), 'stream': stream}


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data.narrow(0, 0, nbatch * bsz).view(bsz, -1).t().contiguous()


for tag, dtype in (('f32.', torch.float32), ('f64.', torch.float64)):
    m = RNNModel(NTOKEN, 12, 12, 2)
    m.load_state_dict({k[5:]: v for k, v in lm_out.items() if k.startswith('init.')})
    m = m.to(dtype)
    data = batchify(stream, BSZ)  # [15, 3]
    m.train()
    hidden = m.init_hidden(BSZ, dtype)
    losses = []
    for i in range(0, data.size(0) - 1, BPTT):
        seq_len = min(BPTT, data.size(0) - 1 - i)
        inp, target = data[i:i + seq_len], data[i + 1:i + 1 + seq_len].reshape(-1)
        m.zero_grad()
        hidden = tuple(h.detach() for h in hidden)
        output, hidden = m(inp, hidden)
        loss = F.cross_entropy(output.view(-1, NTOKEN), target)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(m.parameters(), CLIP)
        with torch.no_grad():
            for p in m.parameters():
                p.add_(p.grad, alpha=-LR)
        losses.append(loss.item())
    m.eval()
    with torch.no_grad():
        out, _ = m(data[:-1], m.init_hidden(BSZ, dtype))
        eval_loss = F.cross_entropy(out.view(-1, NTOKEN), data[1:].reshape(-1))
    lm_out[tag + 'losses'] = torch.tensor(losses, dtype=torch.float64)
    lm_out[tag + 'evalLoss'] = eval_loss.to(torch.float64)
    lm_out.update(prefixed(tag + 'final.', m.state_dict()))
save('lstm-lm', lm_out)


# ---------------- GPT ----------------
class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head = n_head
        self.register_buffer('bias', torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size), persistent=False)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)
        self.gelu = nn.GELU(approximate='tanh')
        self.c_proj = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class Block(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head, block_size)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = MLP(n_embd)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, vocab, block_size, n_layer, n_head, n_embd):
        super().__init__()
        self.wte = nn.Embedding(vocab, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.h = nn.ModuleList([Block(n_embd, n_head, block_size) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab, bias=False)
        self.wte.weight = self.lm_head.weight  # tied, as GPT-2

    def forward(self, idx):
        T = idx.size(1)
        pos = torch.arange(0, T, dtype=torch.long)
        x = self.wte(idx) + self.wpe(pos)
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


VOCAB, BLOCK = 17, 8
torch.manual_seed(1001)
gpt = GPT(VOCAB, BLOCK, 2, 2, 16)
idx = torch.randint(0, VOCAB, (2, BLOCK))
targets = torch.randint(0, VOCAB, (2, BLOCK))
idx2 = torch.randint(0, VOCAB, (3, 5))
gpt_out = {**prefixed('init.', gpt.state_dict()), 'idx': idx, 'targets': targets, 'idx2': idx2}
for tag, dtype in (('f32.', torch.float32), ('f64.', torch.float64)):
    m = GPT(VOCAB, BLOCK, 2, 2, 16)
    m.load_state_dict({k[5:]: v for k, v in gpt_out.items() if k.startswith('init.')})
    m = m.to(dtype)
    params = [p for p in m.parameters()]
    decay = [p for p in params if p.dim() >= 2]
    no_decay = [p for p in params if p.dim() < 2]
    # eps 1e-6, not 1e-8: see "the key bias" in test/models-gpt.test.ts
    opt = torch.optim.AdamW([{'params': decay, 'weight_decay': 0.1}, {'params': no_decay, 'weight_decay': 0.0}], lr=3e-3, betas=(0.9, 0.95), eps=1e-6)
    logits = m(idx)
    loss = F.cross_entropy(logits.view(-1, VOCAB), targets.view(-1))
    opt.zero_grad()
    loss.backward()
    gpt_out[tag + 'logits'] = logits
    gpt_out[tag + 'loss'] = loss.to(torch.float64)
    gpt_out.update(prefixed(tag + 'grad.', {n: p.grad for n, p in m.named_parameters()}))
    opt.step()
    gpt_out.update(prefixed(tag + 'step1.', m.state_dict()))
    with torch.no_grad():
        gpt_out[tag + 'logits2'] = m(idx2)
save('gpt', gpt_out)


# ---------------- ResNet-style CNN ----------------
class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class ResNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.layer1 = BasicBlock(8, 8, 1)
        self.layer2 = BasicBlock(8, 16, 2)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.layer2(self.layer1(out))
        return self.fc(torch.flatten(self.pool(out), 1))


torch.manual_seed(1002)
net = ResNet()
images = torch.randn(8, 3, 10, 10)
labels = torch.randint(0, 10, (8,))
eval_images = torch.randn(4, 3, 10, 10)
res_out = {**prefixed('init.', net.state_dict()), 'images': images, 'labels': labels, 'evalImages': eval_images}
for tag, dtype in (('f32.', torch.float32), ('f64.', torch.float64)):
    m = ResNet()
    m.load_state_dict({k[5:]: v for k, v in res_out.items() if k.startswith('init.')})
    m = m.to(dtype)
    opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
    m.train()
    losses = []
    for step in range(3):
        opt.zero_grad()
        loss = F.cross_entropy(m(images.to(dtype)), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    res_out[tag + 'losses'] = torch.tensor(losses, dtype=torch.float64)
    res_out.update(prefixed(tag + 'final.', m.state_dict()))
    m.eval()
    with torch.no_grad():
        res_out[tag + 'evalLogits'] = m(eval_images.to(dtype))
save('resnet', res_out)
