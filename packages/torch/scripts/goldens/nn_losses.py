"""Goldens for the composite losses and distances of torch.nn.functional (nn-losses.test.ts).

Each case: a functional, its tensor arguments (values, dtype, whether they get a gradient), its
keyword options, and PyTorch 1.13's output and gradients (of the sum of the output, so that
`none` reductions are checked too), in float64 and float32. Module reprs too.
"""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

from _common import values, write

torch.manual_seed(0)
REDUCTIONS = ['none', 'mean', 'sum']
cases = []


def case(fn, args, grads, **kw):
    for dtype in (torch.float64, torch.float32):
        ts = []
        for a, g in zip(args, grads):
            if isinstance(a, torch.Tensor):
                t = a.to(dtype) if a.is_floating_point() else a.clone()
                t = t.detach().requires_grad_(g)
                ts.append(t)
            else:
                ts.append(a)
        out = getattr(F, fn)(*ts, **kw)
        leaves = [t for t, g in zip(ts, grads) if g]
        gs = torch.autograd.grad(out.sum(), leaves, allow_unused=True) if leaves else []
        cases.append({
            'fn': fn,
            'args': [values(t) if isinstance(t, torch.Tensor) else t for t in ts],
            'grads': list(grads),
            # (JSON has no infinity: the test reads 'Infinity' back as a number)
            'kwargs': {k: ('Infinity' if v == float('inf') else v) for k, v in kw.items()},
            'out': values(out),
            'gradValues': [values(g) if g is not None else None for g in gs],
        })


def r(*shape):
    return torch.randn(*shape, dtype=torch.float64)


def sign(*shape):
    return torch.randint(0, 2, shape).to(torch.float64) * 2 - 1


for red in REDUCTIONS:
    # kl_div: input log-probabilities, positive targets (probabilities or their logs)
    x = r(3, 4).log_softmax(1)
    p = r(3, 4).softmax(1)
    for lt in (False, True):
        case('kl_div', [x, p.log() if lt else p], [True, True], reduction=red, log_target=lt)
    case('huber_loss', [r(3, 4) * 2, r(3, 4)], [True, True], reduction=red)
    case('huber_loss', [r(5) * 2, r(5)], [True, True], reduction=red, delta=0.5)
    case('huber_loss', [r(2, 3) * 2, r(3)], [True, True], reduction=red, delta=2.0)
    for m in (0.0, 0.5):
        case('margin_ranking_loss', [r(6), r(6), sign(6)], [True, True, False], reduction=red, margin=m)
    case('hinge_embedding_loss', [r(3, 4), sign(3, 4)], [True, False], reduction=red)
    case('hinge_embedding_loss', [r(5), sign(5)], [True, False], reduction=red, margin=0.3)
    case('soft_margin_loss', [r(3, 4), sign(3, 4)], [True, False], reduction=red)
    case('multilabel_soft_margin_loss', [r(3, 4), torch.randint(0, 2, (3, 4)).double()], [True, False], reduction=red)
    case('multilabel_soft_margin_loss', [r(3, 4), torch.rand(3, 4, dtype=torch.float64)], [True, True], reduction=red, weight=None)
    case('multilabel_soft_margin_loss', [r(4), torch.randint(0, 2, (4,)).double()], [True, False], reduction=red)
    for li, full in itertools.product((True, False), (False, True)):
        inp = r(3, 4) if li else torch.rand(3, 4, dtype=torch.float64) + 0.1
        tgt = torch.randint(0, 5, (3, 4)).double()
        case('poisson_nll_loss', [inp, tgt], [True, False], reduction=red, log_input=li, full=full)
    case('poisson_nll_loss', [torch.rand(5, dtype=torch.float64), torch.rand(5, dtype=torch.float64) * 3], [True, True], reduction=red, log_input=False, eps=0.01)
    for full in (False, True):
        case('gaussian_nll_loss', [r(3, 4), r(3, 4), torch.rand(3, 4, dtype=torch.float64) + 0.1], [True, True, True], reduction=red, full=full)
    case('gaussian_nll_loss', [r(3, 4), r(3, 4), torch.rand(3, dtype=torch.float64) + 0.1], [True, True, True], reduction=red)
    case('gaussian_nll_loss', [r(3, 4), r(3, 4), torch.rand(3, 1, dtype=torch.float64) + 0.1], [True, True, True], reduction=red)
    case('gaussian_nll_loss', [r(3, 4), r(3, 4), torch.tensor([[1e-8, 0.5, 1, 2]] * 3, dtype=torch.float64)], [True, True, True], reduction=red, eps=1e-3)
    for m in (0.0, 0.4):
        case('cosine_embedding_loss', [r(4, 5), r(4, 5), sign(4)], [True, True, False], reduction=red, margin=m)
    case('cosine_embedding_loss', [r(5), r(5), torch.tensor(-1.0, dtype=torch.float64)], [True, True, False], reduction=red, margin=-0.5)
    for p_, swap in ((2.0, False), (1.0, True), (3.0, False)):
        case('triplet_margin_loss', [r(4, 5), r(4, 5), r(4, 5)], [True, True, True], reduction=red, p=p_, swap=swap, margin=1.5)
    case('triplet_margin_loss', [r(5), r(5), r(5)], [True, True, True], reduction=red, eps=1e-3)
    case('triplet_margin_with_distance_loss', [r(4, 5), r(4, 5), r(4, 5)], [True, True, True], reduction=red, swap=True, margin=0.7)

case('kl_div', [r(3, 4).log_softmax(1), r(3, 4).softmax(1)], [True, True], reduction='batchmean')
case('kl_div', [r(3, 4).log_softmax(1), r(3, 4).log_softmax(1)], [True, True], reduction='batchmean', log_target=True)

for dim, eps in ((1, 1e-8), (0, 1e-8), (-1, 0.5)):
    case('cosine_similarity', [r(3, 4), r(3, 4)], [True, True], dim=dim, eps=eps)
case('cosine_similarity', [r(2, 3, 4), r(3, 1)], [True, True], dim=1)
case('cosine_similarity', [torch.tensor([[1e-5, 0.0], [1.0, 2.0]]), torch.tensor([[2.0, 1.0], [3.0, 1.0]])], [True, True])
for p_, keepdim in ((2.0, False), (1.0, True), (3.5, False), (float('inf'), False)):
    case('pairwise_distance', [r(3, 4), r(3, 4)], [True, True], p=p_, keepdim=keepdim)
case('pairwise_distance', [r(2, 3, 4), r(4)], [True, True], eps=0.1)

# ctc_loss: gradients w.r.t. raw log_probs are PyTorch's (Note [CTC as a composite])
T, N, C = 6, 3, 5
for red, zi in itertools.product(REDUCTIONS, (False, True)):
    lp = r(T, N, C).log_softmax(2)
    padded = torch.tensor([[1, 2, 2], [3, 0, 0], [4, 1, 0]])
    case('ctc_loss', [lp, padded, torch.tensor([6, 4, 5]), torch.tensor([3, 1, 2])], [True, False, False, False], reduction=red, zero_infinity=zi)
    concat = torch.tensor([1, 2, 2, 3, 4, 1], dtype=torch.int32)
    case('ctc_loss', [lp, concat, [6, 4, 5], [3, 1, 2]], [True, False, False, False], reduction=red, zero_infinity=zi, blank=0)
    # an impossible alignment (3 labels 'a a a' need 5 steps, input length 3): inf, zeroed with zero_infinity
    if zi:
        case('ctc_loss', [lp, torch.tensor([[2, 2, 2], [1, 3, 0], [0, 0, 0]]), [3, 6, 2], [3, 2, 0]], [True, False, False, False], reduction=red, zero_infinity=True, blank=4)
    case('ctc_loss', [lp[:, 0], torch.tensor([1, 3]), torch.tensor(5), torch.tensor(2)], [True, False, False, False], reduction=red, zero_infinity=zi)

reprs = {
    'KLDivLoss': repr(nn.KLDivLoss()),
    'HuberLoss': repr(nn.HuberLoss(delta=0.5)),
    'MarginRankingLoss': repr(nn.MarginRankingLoss()),
    'TripletMarginLoss': repr(nn.TripletMarginLoss()),
    'TripletMarginWithDistanceLoss': repr(nn.TripletMarginWithDistanceLoss()),
    'CosineEmbeddingLoss': repr(nn.CosineEmbeddingLoss()),
    'MultiLabelSoftMarginLoss': repr(nn.MultiLabelSoftMarginLoss()),
    'PoissonNLLLoss': repr(nn.PoissonNLLLoss()),
    'GaussianNLLLoss': repr(nn.GaussianNLLLoss()),
    'CTCLoss': repr(nn.CTCLoss()),
    'HingeEmbeddingLoss': repr(nn.HingeEmbeddingLoss()),
    'SoftMarginLoss': repr(nn.SoftMarginLoss()),
    'CosineSimilarity': repr(nn.CosineSimilarity()),
    'CosineSimilarity(dim=0, eps=0.1)': repr(nn.CosineSimilarity(dim=0, eps=0.1)),
    'PairwiseDistance': repr(nn.PairwiseDistance()),
    'PairwiseDistance(p=1.0, eps=0.1, keepdim=True)': repr(nn.PairwiseDistance(p=1.0, eps=0.1, keepdim=True)),
}

write('nn_losses', {'cases': cases, 'reprs': reprs})
