"""Goldens for the complex Householder QR family (goldens/linalg_complex_qr.json), PyTorch 1.13:
geqrf, linalg.householder_product and linalg.qr (reduced / complete / r) of complex64 and
complex128 matrices (tall, wide, square, batched, empty, with an exactly zero column), and the
gradient of a real loss through qr (reduced; m >= n and m < n) and householder_product in
complex128. Values are flat (real, imag) pairs (LAPACK's conventions: R's diagonal real, tau
complex), so they compare element for element. Also ("hermitian") pinv and matrix_rank with
hermitian=True of complex Hermitian matrices (full rank and rank-deficient), which compute
through the complex eigh, and linalg.cond's 'fro' / 1 / inf of complex matrices.
"""
import torch

COMPACT = True


def pairs(z):
    return torch.view_as_real(z.resolve_conj()).reshape(-1).tolist()


def crand(g, *shape):
    return torch.complex(torch.randn(shape, generator=g, dtype=torch.float64), torch.randn(shape, generator=g, dtype=torch.float64))


def real_loss(outs, g, weights):
    """sum Re(out * w) + |out| with fixed complex weights (appended to `weights`)."""
    total = 0
    for o in outs:
        w = crand(g, *o.shape)
        weights.append(pairs(w))
        total = total + (o * w.to(o.dtype)).real.sum() + o.abs().sum()
    return total


def enc(t):
    return {"shape": list(t.shape), "values": pairs(t)}


def make():
    g = torch.Generator().manual_seed(23)
    zero_col = crand(g, 4, 3)
    zero_col[:, 1] = 0
    inputs = {
        "tall 4x3": crand(g, 4, 3),
        "wide 3x5": crand(g, 3, 5),
        "square batched 2x3x3": crand(g, 2, 3, 3),
        "zero column 4x3": zero_col,
        "real-valued 3x3": torch.randn(3, 3, generator=g, dtype=torch.float64).to(torch.complex128),
        "empty 0x3": crand(g, 0, 3),
        "empty batch 0x2x2": crand(g, 0, 2, 2),
    }
    cases = []
    for cid, A in inputs.items():
        for d in (torch.complex64, torch.complex128):
            a = A.to(d)
            geq = torch.geqrf(a)
            # (the forward error bound's condition number, 1 for the exactly rank-deficient and empty:
            # complex64 differs from float32 LAPACK's by rounding times it)
            cond = torch.linalg.cond(A).max().item() if A.numel() > 0 and cid != "zero column 4x3" else 1.0
            case = {"id": cid, "dtype": str(d)[6:], "cond": cond, "A": enc(a), "geqrf": [enc(geq[0]), enc(geq[1])]}
            for mode in ("reduced", "complete", "r"):
                Q, R = torch.linalg.qr(a, mode=mode)
                case[mode] = [enc(Q), enc(R)]
            case["householder"] = enc(torch.linalg.householder_product(geq[0], geq[1])) if a.shape[-2] >= a.shape[-1] else None
            cases.append(case)
    # the gradients of a real loss (complex128)
    grads = []
    g2 = torch.Generator().manual_seed(29)
    problems = [
        ("qr reduced tall", [crand(g2, 4, 3)], lambda a: list(torch.linalg.qr(a))),
        ("qr reduced wide", [crand(g2, 3, 5)], lambda a: list(torch.linalg.qr(a))),
        ("qr reduced batched", [crand(g2, 2, 3, 3)], lambda a: list(torch.linalg.qr(a))),
        ("qr complete square", [crand(g2, 3, 3)], lambda a: list(torch.linalg.qr(a, mode="complete"))),
        ("householder_product", [crand(g2, 4, 3), crand(g2, 2)], lambda a, t: [torch.linalg.householder_product(a, t)]),
        ("householder_product batched", [crand(g2, 2, 3, 3), crand(g2, 2, 3)], lambda a, t: [torch.linalg.householder_product(a, t)]),
    ]
    for cid, xs, fn in problems:
        leaves = [x.clone().requires_grad_(True) for x in xs]
        weights = []
        loss = real_loss(fn(*leaves), torch.Generator().manual_seed(len(grads)), weights)
        grads.append({"id": cid, "inputs": [enc(x) for x in xs], "weights": weights, "grads": [pairs(t) for t in torch.autograd.grad(loss, leaves)]})
    # the errors PyTorch raises
    errors = {}
    try:
        torch.linalg.qr(crand(g, 3, 3).requires_grad_(True), mode="r")[1].abs().sum().backward()
    except Exception as e:  # noqa: BLE001
        errors["qr r backward"] = str(e)
    a = crand(g, 4, 3).requires_grad_(True)
    try:
        torch.linalg.qr(a, mode="complete")[0].abs().sum().backward()
    except Exception as e:  # noqa: BLE001
        errors["qr complete tall backward"] = str(e)
    try:
        torch.linalg.householder_product(crand(g, 3, 3), torch.randn(2, dtype=torch.float64))
    except Exception as e:  # noqa: BLE001
        errors["householder_product dtype"] = str(e)
    # pinv / matrix_rank (hermitian=True) and cond of complex matrices
    g3 = torch.Generator().manual_seed(37)
    X = crand(g3, 2, 3, 3)
    H = X @ X.mH + 3 * torch.eye(3, dtype=torch.complex128)
    Y = crand(g3, 2, 4)
    D = Y.mH @ Y  # 4 x 4 Hermitian of rank 2
    G = crand(g3, 3, 3)
    hermitian = []
    for cid, A, fn in [
        ("pinv hermitian", H, lambda a: torch.linalg.pinv(a, hermitian=True)),
        ("pinv hermitian rank 2", D, lambda a: torch.linalg.pinv(a, hermitian=True)),
        ("matrix_rank hermitian", H, lambda a: torch.linalg.matrix_rank(a, hermitian=True)),
        ("matrix_rank hermitian rank 2", D, lambda a: torch.linalg.matrix_rank(a, hermitian=True)),
        ("matrix_rank hermitian atol", H, lambda a: torch.linalg.matrix_rank(a, atol=8.0, rtol=0.0, hermitian=True)),
        ("cond fro", G, lambda a: torch.linalg.cond(a, "fro")),
        ("cond inf", G, lambda a: torch.linalg.cond(a, float("inf"))),
        ("cond 1 empty", crand(g3, 0, 0), lambda a: torch.linalg.cond(a, 1)),
    ]:
        for d in (torch.complex64, torch.complex128):
            a = A.to(d)
            out = fn(a)
            case = {"id": cid, "dtype": str(d)[6:], "A": enc(a), "out": {"shape": list(out.shape), "dtype": str(out.dtype)[6:], "values": pairs(out) if out.is_complex() else out.reshape(-1).tolist()}}
            hermitian.append(case)
    return {"cases": cases, "grads": grads, "errors": errors, "hermitian": hermitian}
