"""Goldens for torch.linalg.eig / eigvals (goldens/linalg_eig.json), PyTorch 1.13's CPU
(LAPACK's geev), float32 and float64.

Each case: `id`, `dtype`, `shape`, `a` (flat, row-major), `L` (the eigenvalues as flat
(real, imag) pairs, in geev's order) and `V` (the eigenvectors, [..., n, n] as flat pairs,
geev's normalisation). Inputs: random matrices (real and complex eigenvalues), batched,
triangular (upper and lower: the balancing's permutations order their eigenvalues),
diagonal, a rotation (purely imaginary pair), a companion matrix, a defective Jordan
block, repeated eigenvalues, 1 x 1 and empty. `grads`: the gradient of a gauge-invariant
loss (sum of w * L.real + u * L.imag + sum |V| * c) for some float64 inputs, from
autograd.
`complex_cases` / `complex_grads`: the same for complex64 / complex128 inputs (LAPACK's
zgeev; `a` then flat (real, imag) pairs too), the gradients complex (as pairs), PyTorch's
conjugate Wirtinger convention.
"""
import torch

COMPACT = True


def pairs(z):
    return torch.view_as_real(z.resolve_conj()).reshape(-1).tolist()


def case(cid, a):
    L, V = torch.linalg.eig(a)
    flat = pairs(a) if a.is_complex() else a.reshape(-1).tolist()
    return {"id": cid, "dtype": str(a.dtype)[6:], "shape": list(a.shape), "a": flat, "L": pairs(L), "V": pairs(V)}


def inputs():
    g = torch.Generator().manual_seed(1234)
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)
    out = [
        ("random 4x4", r(4, 4)),
        ("random 6x6", r(6, 6)),
        ("random 10x10", r(10, 10)),
        ("batch 2x3 of 3x3", r(2, 3, 3, 3)),
        ("upper triangular", torch.triu(r(4, 4))),
        ("lower triangular", torch.tril(r(4, 4))),
        ("diagonal", torch.diag(torch.tensor([3.0, -1.0, 2.0, 0.5], dtype=torch.float64))),
        ("rotation", torch.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=torch.float64)),
        ("2x2 complex pair", torch.tensor([[1.0, 2.0], [-3.0, 1.0]], dtype=torch.float64)),
        ("companion", torch.tensor([[0.0, 0.0, 0.0, -24.0], [1.0, 0.0, 0.0, 50.0], [0.0, 1.0, 0.0, -35.0], [0.0, 0.0, 1.0, 10.0]], dtype=torch.float64)),
        ("jordan block", torch.tensor([[2.0, 1.0, 0.0], [0.0, 2.0, 1.0], [0.0, 0.0, 2.0]], dtype=torch.float64)),
        ("repeated", torch.tensor([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [1.0, 1.0, 3.0]], dtype=torch.float64)),
        ("1x1", torch.tensor([[-2.5]], dtype=torch.float64)),
        ("empty 0x0", torch.zeros(0, 0, dtype=torch.float64)),
        ("empty batch", torch.zeros(0, 3, 3, dtype=torch.float64)),
        ("scaled rows", torch.tensor([[1.0, 1e4, 0.0], [1e-4, 1.0, 1e4], [0.0, 1e-4, 1.0]], dtype=torch.float64)),
    ]
    return out


def grad_case(cid, a, seed):
    a = a.clone().requires_grad_(True)
    g = torch.Generator().manual_seed(seed)
    n = a.shape[-1]
    wr = torch.randn(a.shape[:-1], generator=g, dtype=torch.float64)
    wi = torch.randn(a.shape[:-1], generator=g, dtype=torch.float64)
    c = torch.randn(a.shape, generator=g, dtype=torch.float64)
    L, V = torch.linalg.eig(a)
    loss = (L.real * wr).sum() + (L.imag * wi).sum() + (V.abs() * c).sum()
    (ga,) = torch.autograd.grad(loss, a)
    return {"id": cid, "shape": list(a.shape), "a": a.detach().reshape(-1).tolist(), "wr": wr.reshape(-1).tolist(), "wi": wi.reshape(-1).tolist(), "c": c.reshape(-1).tolist(), "grad": ga.reshape(-1).tolist()}


def complex_inputs():
    g = torch.Generator().manual_seed(4321)
    r = lambda *s: torch.complex(torch.randn(*s, generator=g, dtype=torch.float64), torch.randn(*s, generator=g, dtype=torch.float64))
    h = r(4, 4)
    c128 = lambda x: torch.tensor(x, dtype=torch.complex128)
    return [
        ("random 4x4", r(4, 4)),
        ("random 7x7", r(7, 7)),
        ("batch 2x3 of 3x3", r(2, 3, 3, 3)),
        ("upper triangular", torch.triu(r(4, 4))),
        ("lower triangular", torch.tril(r(4, 4))),
        ("diagonal", torch.diag(c128([3 + 1j, -1 + 0j, 2j, 0.5 - 0.5j]))),
        ("hermitian", h + h.mH),
        ("real values", torch.randn(5, 5, generator=g, dtype=torch.float64).to(torch.complex128)),
        ("jordan block", c128([[1j, 1, 0], [0, 1j, 1], [0, 0, 1j]])),
        ("repeated", c128([[2, 0, 0], [0, 2, 0], [1j, 1, 3]])),
        ("scaled rows", c128([[1, 1e4j, 0], [1e-4, 1, 1e4], [0, 1e-4j, 1]])),
        ("1x1", c128([[-2.5 + 1j]])),
        ("empty 0x0", torch.zeros(0, 0, dtype=torch.complex128)),
        ("empty batch", torch.zeros(0, 3, 3, dtype=torch.complex128)),
    ]


def complex_grad_case(cid, a, seed):
    a = a.clone().requires_grad_(True)
    g = torch.Generator().manual_seed(seed)
    wr = torch.randn(a.shape[:-1], generator=g, dtype=torch.float64)
    wi = torch.randn(a.shape[:-1], generator=g, dtype=torch.float64)
    c = torch.randn(a.shape, generator=g, dtype=torch.float64)
    L, V = torch.linalg.eig(a)
    loss = (L.real * wr).sum() + (L.imag * wi).sum() + (V.abs() * c).sum()
    (ga,) = torch.autograd.grad(loss, a)
    return {"id": cid, "shape": list(a.shape), "a": pairs(a.detach()), "wr": wr.reshape(-1).tolist(), "wi": wi.reshape(-1).tolist(), "c": c.reshape(-1).tolist(), "grad": pairs(ga)}


def make():
    cases = []
    for cid, a in inputs():
        for d in (torch.float32, torch.float64):
            cases.append(case(cid, a.to(d)))
    g = torch.Generator().manual_seed(99)
    grads = [
        grad_case("random 4x4", torch.randn(4, 4, generator=g, dtype=torch.float64), 1),
        grad_case("random 5x5", torch.randn(5, 5, generator=g, dtype=torch.float64), 2),
        grad_case("batch 2 of 3x3", torch.randn(2, 3, 3, generator=g, dtype=torch.float64), 3),
    ]
    complex_cases = []
    for cid, a in complex_inputs():
        for d in (torch.complex64, torch.complex128):
            complex_cases.append(case(cid, a.to(d)))
    g = torch.Generator().manual_seed(77)
    cr = lambda *s: torch.complex(torch.randn(*s, generator=g, dtype=torch.float64), torch.randn(*s, generator=g, dtype=torch.float64))
    complex_grads = [
        complex_grad_case("random 4x4", cr(4, 4), 1),
        complex_grad_case("batch 2 of 3x3", cr(2, 3, 3), 2),
    ]
    return {"cases": cases, "grads": grads, "complex_cases": complex_cases, "complex_grads": complex_grads}
