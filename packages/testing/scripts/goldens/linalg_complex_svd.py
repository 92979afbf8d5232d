"""Goldens for the complex SVD family (goldens/linalg_complex_svd.json), PyTorch 1.13:
linalg.svd (reduced and full), svdvals, torch.svd, of complex64 and complex128 matrices (tall,
wide, square batched, rank-deficient, real-valued, empty), with the smallest relative gap of the
singular values (vectors are compared up to a unit phase per pair, within a bound over that
gap); the composites over it (pinv default / atol / rtol, matrix_rank, cond of every p,
matrix_norm 'nuc' / 2 / -2, linalg.norm with those ords); the gradient of a real loss of
gauge-invariant functions (svdvals, U diag(S) Vh, |U|, |Vh|, pinv, the nuclear norm, cond) in
complex128; and svd_backward's gauge error. Values are flat (real, imag) pairs for complex
results, plain lists for real ones.
"""
import torch

COMPACT = True


def pairs(z):
    return torch.view_as_real(z.resolve_conj()).reshape(-1).tolist()


def crand(g, *shape):
    return torch.complex(torch.randn(shape, generator=g, dtype=torch.float64), torch.randn(shape, generator=g, dtype=torch.float64))


def enc(t):
    if t.is_complex():
        return {"shape": list(t.shape), "dtype": str(t.dtype)[6:], "values": pairs(t)}
    return {"shape": list(t.shape), "dtype": str(t.dtype)[6:], "values": t.reshape(-1).tolist()}


def gap_of(A):
    """min_i (s_i - s_{i+1}) / s_1 over the batch (1 when k < 2 or A is empty)."""
    if A.numel() == 0 or min(A.shape[-2:]) < 2:
        return 1.0
    S = torch.linalg.svdvals(A.to(torch.complex128))
    return ((S[..., :-1] - S[..., 1:]).min() / S[..., 0].max()).item()


def cond_kept(A):
    """max s_1 / s_r over the batch, s_r the smallest singular value above pinv's default
    threshold (1 when A is empty): the forward error bound's condition number of pinv / cond."""
    if A.numel() == 0:
        return 1.0
    S = torch.linalg.svdvals(A.to(torch.complex128))
    tol = S[..., :1] * 1e-7
    kept = torch.where(S > tol, S, torch.full_like(S, float("inf")))
    return (S[..., 0] / kept.min(-1).values).max().item()


def make():
    g = torch.Generator().manual_seed(41)
    X = crand(g, 4, 2)
    Y = crand(g, 2, 4)
    inputs = {
        "tall 4x3": crand(g, 4, 3),
        "wide 3x5": crand(g, 3, 5),
        "square batched 2x3x3": crand(g, 2, 3, 3),
        "rank 2 4x4": X @ Y,
        "real-valued 3x3": torch.randn(3, 3, generator=g, dtype=torch.float64).to(torch.complex128),
        "column 3x1": crand(g, 3, 1),
        "empty 0x3": crand(g, 0, 3),
        "empty 3x0": crand(g, 3, 0),
        "empty batch 0x2x2": crand(g, 0, 2, 2),
    }
    cases = []
    composites = []
    for cid, A in inputs.items():
        for d in (torch.complex64, torch.complex128):
            a = A.to(d)
            U, S, Vh = torch.linalg.svd(a, full_matrices=False)
            Uf, Sf, Vhf = torch.linalg.svd(a, full_matrices=True)
            case = {
                "id": cid,
                "dtype": str(d)[6:],
                "gap": gap_of(A),
                "cond": cond_kept(A),
                "rank_deficient": cid.startswith("rank"),
                "A": enc(a),
                "reduced": [enc(U), enc(S), enc(Vh)],
                "full": [enc(Uf), enc(Sf), enc(Vhf)],
                "svdvals": enc(torch.linalg.svdvals(a)),
                "torch_svd_shapes": [list(t.shape) for t in torch.svd(a, some=False)],
                "torch_svd_no_uv": [enc(t) for t in torch.svd(a, compute_uv=False)],
            }
            cases.append(case)
            if a.numel() == 0 and cid != "empty batch 0x2x2":
                fns = {"pinv": lambda x: torch.linalg.pinv(x), "matrix_rank": lambda x: torch.linalg.matrix_rank(x)}
            else:
                fns = {
                    "pinv": lambda x: torch.linalg.pinv(x),
                    "pinv atol": lambda x: torch.linalg.pinv(x, atol=1.0),
                    "pinv rtol": lambda x: torch.linalg.pinv(x, rtol=0.3),
                    "matrix_rank": lambda x: torch.linalg.matrix_rank(x),
                    "matrix_rank atol": lambda x: torch.linalg.matrix_rank(x, atol=1.5),
                    "matrix_rank rtol": lambda x: torch.linalg.matrix_rank(x, rtol=0.3),
                    "cond": lambda x: torch.linalg.cond(x),
                    "cond -2": lambda x: torch.linalg.cond(x, -2),
                    "matrix_norm nuc": lambda x: torch.linalg.matrix_norm(x, "nuc"),
                    "matrix_norm 2": lambda x: torch.linalg.matrix_norm(x, 2),
                    "matrix_norm -2": lambda x: torch.linalg.matrix_norm(x, -2),
                    "matrix_norm nuc keepdim": lambda x: torch.linalg.matrix_norm(x, "nuc", keepdim=True),
                }
                if not cid.startswith("rank"):
                    # (rcond 1e-15 keeps a rank-deficient matrix's rounding-noise singular values)
                    fns["pinverse"] = lambda x: torch.pinverse(x)
                if a.dim() == 2:
                    fns["norm 2"] = lambda x: torch.linalg.norm(x, 2)
                    fns["norm nuc"] = lambda x: torch.linalg.norm(x, "nuc")
                    fns["norm -2"] = lambda x: torch.linalg.norm(x, -2)
                if a.shape[-1] == a.shape[-2]:
                    for p in ("nuc", "fro", 1, -1, float("inf"), float("-inf")):
                        fns[f"cond {p}"] = (lambda p: lambda x: torch.linalg.cond(x, p))(p)
            for name, fn in fns.items():
                composites.append({"id": cid, "fn": name, "dtype": str(d)[6:], "out": enc(fn(a))})
    # the gradients of a real loss of gauge-invariant functions (complex128)
    def usv(a):
        U, S, Vh = torch.linalg.svd(a, full_matrices=False)
        return [(U * S.unsqueeze(-2).to(U.dtype)) @ Vh]

    def abs_uv(a):
        U, S, Vh = torch.linalg.svd(a, full_matrices=False)
        return [U.abs(), Vh.abs(), S]

    def abs_uv_full(a):
        U, S, Vh = torch.linalg.svd(a, full_matrices=True)
        k = S.shape[-1]
        return [U[..., :k].abs(), Vh[..., :k, :].abs()]

    g2 = torch.Generator().manual_seed(43)
    problems = [
        ("svdvals tall", crand(g2, 4, 3), lambda a: [torch.linalg.svdvals(a)]),
        ("svdvals wide batched", crand(g2, 2, 2, 3), lambda a: [torch.linalg.svdvals(a)]),
        ("U S Vh tall", crand(g2, 4, 3), usv),
        ("U S Vh wide", crand(g2, 2, 4), usv),
        ("|U| |Vh| S square batched", crand(g2, 2, 3, 3), abs_uv),
        ("|U| |Vh| S tall", crand(g2, 4, 2), abs_uv),
        ("|U| |Vh| S wide", crand(g2, 2, 3), abs_uv),
        ("|U| |Vh| full square", crand(g2, 3, 3), abs_uv_full),
        ("pinv tall", crand(g2, 4, 3), lambda a: [torch.linalg.pinv(a)]),
        ("pinv wide batched", crand(g2, 2, 2, 3), lambda a: [torch.linalg.pinv(a)]),
        ("matrix_norm nuc", crand(g2, 3, 4), lambda a: [torch.linalg.matrix_norm(a, "nuc")]),
        ("cond", crand(g2, 3, 3), lambda a: [torch.linalg.cond(a)]),
        # rank-deficient (rank 2 of 3: one zero singular value, cut by pinv's tolerance)
        ("pinv rank 2", crand(g2, 3, 2) @ crand(g2, 2, 3), lambda a: [torch.linalg.pinv(a)]),
        ("svdvals rank 2 tall", crand(g2, 4, 2) @ crand(g2, 2, 3), lambda a: [torch.linalg.svdvals(a)[..., :2]]),
    ]
    grads = []
    for cid, x, fn in problems:
        leaf = x.clone().requires_grad_(True)
        weights = []
        total = 0
        wg = torch.Generator().manual_seed(len(grads))
        for o in fn(leaf):
            w = crand(wg, *o.shape) if o.is_complex() else torch.randn(o.shape, generator=wg, dtype=torch.float64)
            weights.append(pairs(w) if o.is_complex() else w.reshape(-1).tolist())
            total = total + (o * w).real.sum() if o.is_complex() else total + (o * w).sum()
        (gr,) = torch.autograd.grad(total, [leaf])
        grads.append({"id": cid, "A": enc(x), "weights": weights, "grad": pairs(gr)})
    # svd_backward's gauge error: a loss that depends on the phase of u_i
    errors = {}
    a = crand(g, 3, 3).requires_grad_(True)
    try:
        torch.linalg.svd(a)[0].real.sum().backward()
    except Exception as e:  # noqa: BLE001
        errors["gauge U"] = str(e)
    try:
        torch.linalg.svd(a)[2].imag.sum().backward()
    except Exception as e:  # noqa: BLE001
        errors["gauge Vh"] = str(e)
    try:
        torch.linalg.svd(torch.ones(3, dtype=torch.complex64))
    except Exception as e:  # noqa: BLE001
        errors["svd 1-d"] = str(e)
    try:
        torch.linalg.pinv(torch.ones(3, dtype=torch.complex64))
    except Exception as e:  # noqa: BLE001
        errors["pinv 1-d"] = str(e)
    try:
        torch.linalg.cond(crand(g, 2, 3), "nuc")
    except Exception as e:  # noqa: BLE001
        errors["cond nuc non-square"] = str(e)
    # matrix_norm's dtype= checks (a real dtype would drop a complex input's imaginary parts)
    A = crand(g, 3, 3).to(torch.complex64)
    R = torch.randn(3, 3, generator=g)
    for eid, fn in [
        ("matrix_norm nuc real dtype", lambda: torch.linalg.matrix_norm(A, "nuc", dtype=torch.float64)),
        ("matrix_norm 2 real dtype", lambda: torch.linalg.matrix_norm(A, 2, dtype=torch.float64)),
        ("matrix_norm fro real dtype", lambda: torch.linalg.matrix_norm(A, "fro", dtype=torch.float64)),
        ("norm nuc real dtype", lambda: torch.linalg.norm(A, "nuc", dtype=torch.float64)),
        ("matrix_norm real input complex dtype", lambda: torch.linalg.matrix_norm(R, "nuc", dtype=torch.complex128)),
        ("matrix_norm int dtype", lambda: torch.linalg.matrix_norm(A, "nuc", dtype=torch.int64)),
    ]:
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            errors[eid] = str(e)
    errors["matrix_norm nuc complex dtype"] = str(torch.linalg.matrix_norm(A, "nuc", dtype=torch.complex128).dtype)[6:]
    return {"cases": cases, "composites": composites, "grads": grads, "errors": errors}
