"""Goldens for linalg.pinv's own derivative (goldens/linalg_pinv_grad.json), PyTorch 1.13:
pinv_backward (FunctionsManual) for hermitian=True and False, real and complex.

Each case: `id`, `dtype`, `shape`, `hermitian`, `a` (flat; complex as (real, imag) pairs),
`w` (weights of the loss, same layout), `pinv` (the forward) and `grad` (the gradient of
loss = sum(real(pinv(A) * w)) with respect to A, complex as pairs). Inputs: symmetric /
Hermitian, non-symmetric with hermitian=True (only the lower triangle is read by the
forward; the gradient is pinv_backward's, over the whole matrix), tall, wide, batched,
rank-deficient and empty, and rtol cutting a nonzero singular value (`rtol`; null: the default), where
pinv_backward is not the truncated forward's derivative.
"""
import torch

COMPACT = True


def flat(t):
    t = t.detach().resolve_conj()
    return torch.view_as_real(t).reshape(-1).tolist() if t.is_complex() else t.reshape(-1).tolist()


def case(cid, a, hermitian, seed, rtol=None):
    g = torch.Generator().manual_seed(seed)
    a = a.clone().requires_grad_(True)
    w = torch.randn(a.shape[:-2] + (a.shape[-1], a.shape[-2]), generator=g, dtype=torch.float64)
    if a.is_complex():
        w = torch.complex(w, torch.randn(w.shape, generator=g, dtype=torch.float64))
    p = torch.linalg.pinv(a, hermitian=hermitian) if rtol is None else torch.linalg.pinv(a, rtol=rtol, hermitian=hermitian)
    loss = (p * w).real.sum() if a.is_complex() else (p * w).sum()
    (ga,) = torch.autograd.grad(loss, a, allow_unused=True)
    if ga is None:
        ga = torch.zeros_like(a)
    return {"id": cid, "dtype": str(a.dtype)[6:], "shape": list(a.shape), "hermitian": hermitian, "rtol": rtol, "a": flat(a), "w": flat(w), "pinv": flat(p), "grad": flat(ga)}


def make():
    g = torch.Generator().manual_seed(2024)
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)
    c = lambda *s: torch.complex(r(*s), r(*s))
    sym = r(3, 3)
    sym = sym + sym.mT
    bsym = r(2, 3, 3)
    bsym = bsym + bsym.mT
    u = r(4, 2)
    lowrank = u @ u.mT  # symmetric, rank 2 of 4
    her = c(3, 3)
    her = her + her.mH
    bher = c(2, 3, 3)
    bher = bher + bher.mH
    cu = c(3, 1)
    clow = cu @ cu.mH  # Hermitian, rank 1 of 3
    nonsym = r(3, 3)
    cases = [
        case("symmetric 3x3", sym, True, 1),
        case("symmetric 3x3", sym, False, 2),
        case("batched symmetric 2x3x3", bsym, True, 3),
        case("rank-deficient symmetric 4x4", lowrank, True, 4),
        case("rank-deficient symmetric 4x4", lowrank, False, 5),
        case("non-symmetric 3x3", nonsym, True, 6),
        case("tall 4x3", r(4, 3), False, 7),
        case("wide 2x5", r(2, 5), False, 8),
        case("batched wide 2x2x3", r(2, 2, 3), False, 9),
        case("empty 0x0", torch.zeros(0, 0, dtype=torch.float64), True, 10),
        case("empty batch 0x3x3", torch.zeros(0, 3, 3, dtype=torch.float64), False, 11),
        case("hermitian 3x3", her, True, 12),
        case("batched hermitian 2x3x3", bher, True, 13),
        case("rank-deficient hermitian 3x3", clow, True, 14),
        case("rtol cutting a nonzero singular value 4x4", torch.diag(torch.tensor([3.0, 2.0, 1.0, 0.1], dtype=torch.float64)) + 0.05 * r(4, 4), False, 15, 0.2),
        case("rtol cutting a nonzero eigenvalue 3x3", torch.diag(torch.tensor([3.0, -2.0, 0.1], dtype=torch.float64)) + 0.05 * (sym / 3), True, 16, 0.2),
    ]
    return {"cases": cases}
