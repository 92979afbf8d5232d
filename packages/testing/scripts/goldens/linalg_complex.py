"""Goldens for torch.linalg on complex inputs (goldens/linalg_complex.json), PyTorch 1.13:
linalg.solve (left and right, matrix and vector right-hand sides, batched with
broadcasting) and linalg.inv of complex64 / complex128 matrices, and the gradient of a real
loss through each (float64 parts). Values are flat (real, imag) pairs.
"""
import torch

COMPACT = True


def pairs(z):
    return torch.view_as_real(z.resolve_conj()).reshape(-1).tolist()


def crand(g, *shape):
    return torch.complex(torch.randn(shape, generator=g, dtype=torch.float64), torch.randn(shape, generator=g, dtype=torch.float64))


def make():
    g = torch.Generator().manual_seed(7)
    cases = []
    problems = [
        ("solve 3x3", "solve", crand(g, 3, 3), crand(g, 3, 2), True),
        ("solve vector", "solve", crand(g, 4, 4), crand(g, 4), True),
        ("solve left=False", "solve", crand(g, 3, 3), crand(g, 2, 3), False),
        ("solve batched, B broadcast", "solve", crand(g, 2, 3, 3), crand(g, 3, 1), True),
        ("inv 4x4", "inv", crand(g, 4, 4), None, True),
        ("inv batched", "inv", crand(g, 2, 3, 3), None, True),
    ]
    for cid, op, A, B, left in problems:
        for d in (torch.complex64, torch.complex128):
            a = A.to(d)
            b = B.to(d) if B is not None else None
            out = torch.linalg.solve(a, b, left=left) if op == "solve" else torch.linalg.inv(a)
            case = {"id": cid, "op": op, "dtype": str(d)[6:], "left": left, "A": {"shape": list(a.shape), "values": pairs(a)}, "expected": {"shape": list(out.shape), "values": pairs(out)}}
            if b is not None:
                case["B"] = {"shape": list(b.shape), "values": pairs(b)}
            if d == torch.complex128:
                a2 = a.clone().requires_grad_(True)
                b2 = b.clone().requires_grad_(True) if b is not None else None
                out2 = torch.linalg.solve(a2, b2, left=left) if op == "solve" else torch.linalg.inv(a2)
                w = crand(torch.Generator().manual_seed(len(cases)), *out2.shape)
                loss = (out2 * w).real.sum() + out2.abs().sum()
                grads = torch.autograd.grad(loss, [a2] + ([b2] if b2 is not None else []))
                case["weights"] = pairs(w)
                case["grads"] = [pairs(x) for x in grads]
            cases.append(case)
    # norms, matrix_power and multi_dot of complex matrices (float64 parts), with the gradient of their real sum
    g2 = torch.Generator().manual_seed(11)
    A = crand(g2, 2, 3, 3)
    others = []
    for cid, fn in [
        ("vector_norm", lambda a: torch.linalg.vector_norm(a)),
        ("vector_norm ord=1 dim=-1", lambda a: torch.linalg.vector_norm(a, 1, dim=-1)),
        ("vector_norm ord=inf dim=(0, 2)", lambda a: torch.linalg.vector_norm(a, float("inf"), dim=(0, 2))),
        ("matrix_norm fro", lambda a: torch.linalg.matrix_norm(a)),
        ("matrix_norm 1", lambda a: torch.linalg.matrix_norm(a, 1)),
        ("matrix_norm -inf", lambda a: torch.linalg.matrix_norm(a, -float("inf"))),
        ("matrix_power 3", lambda a: torch.view_as_real(torch.linalg.matrix_power(a, 3))),
        ("matrix_power -2", lambda a: torch.view_as_real(torch.linalg.matrix_power(a, -2))),
        ("multi_dot", lambda a: torch.view_as_real(torch.linalg.multi_dot([a[0], a[1], a[0]]))),
        ("vecdot dim=-2", lambda a: torch.view_as_real(torch.linalg.vecdot(a, a[1], dim=-2))),
    ]:
        for d in (torch.complex64, torch.complex128):
            a = A.to(d).clone().requires_grad_(d == torch.complex128)
            out = fn(a)
            o = {"id": cid, "dtype": str(d)[6:], "A": {"shape": list(a.shape), "values": pairs(a.detach())}, "expected": {"shape": list(out.shape), "values": out.detach().reshape(-1).tolist()}}
            if d == torch.complex128:
                (ga,) = torch.autograd.grad(out.sum(), a)
                o["grad"] = pairs(ga)
            others.append(o)
    return {"cases": cases, "others": others}


# ---- the factorizations of complex matrices (Note [Complex linalg primitives]) ----

def hpd(g, *shape):
    x = crand(g, *shape)
    n = shape[-1]
    return x @ x.mH + n * torch.eye(n, dtype=torch.complex128)


def real_loss(outs, g, weights):
    """A real loss of complex (or real) outputs with fixed weights (appended to `weights`): sum Re(out * w) + |out|."""
    total = 0
    for o in outs:
        w = crand(g, *o.shape) if o.is_complex() else torch.randn(tuple(o.shape), generator=g, dtype=torch.float64)
        weights.append(flat(w))
        total = total + (o * w.to(o.dtype)).real.sum() + o.abs().sum()
    return total


def flat(t):
    return pairs(t) if t.is_complex() else t.reshape(-1).tolist()


def factor_cases():
    g = torch.Generator().manual_seed(17)
    H3 = hpd(g, 3, 3)
    H23 = hpd(g, 2, 3, 3)
    H4 = hpd(g, 4, 4)
    G3 = crand(g, 3, 3)
    G23 = crand(g, 2, 3, 3)
    G34 = crand(g, 3, 4)
    G43 = crand(g, 4, 3)
    B32 = crand(g, 3, 2)
    T3 = torch.triu(crand(g, 3, 3)) + 3 * torch.eye(3, dtype=torch.complex128)
    # (fn id, inputs, the function: inputs -> outputs; grad: whether its outputs are gauge-invariant)
    problems = [
        ("cholesky", [H3], lambda a: [torch.linalg.cholesky(a)], True),
        ("cholesky batched", [H23], lambda a: [torch.linalg.cholesky(a)], True),
        ("cholesky upper", [H4], lambda a: [torch.linalg.cholesky(a, upper=True)], True),
        ("lu square", [G3], lambda a: list(torch.linalg.lu(a)), True),
        ("lu wide", [G34], lambda a: list(torch.linalg.lu(a)), True),
        ("lu tall", [G43], lambda a: list(torch.linalg.lu(a)), True),
        ("lu_factor batched", [G23], lambda a: list(torch.linalg.lu_factor(a)), False),
        ("lu_solve", [G3, B32], lambda a, b: [torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b)], True),
        ("lu_solve adjoint", [G3, B32], lambda a, b: [torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b, adjoint=True)], True),
        ("lu_solve left=False", [G3, B32], lambda a, b: [torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b.mT, left=False)], True),
        ("lu_solve left=False adjoint", [G3, B32], lambda a, b: [torch.linalg.lu_solve(*torch.linalg.lu_factor(a), b.mT, left=False, adjoint=True)], True),
        ("solve_triangular upper", [T3, B32], lambda a, b: [torch.linalg.solve_triangular(a, b, upper=True)], True),
        ("solve_triangular lower left=False unitriangular", [T3, B32], lambda a, b: [torch.linalg.solve_triangular(a.mH, b.mT, upper=False, left=False, unitriangular=True)], True),
        ("det", [G3], lambda a: [torch.linalg.det(a)], True),
        ("det batched", [G23], lambda a: [torch.linalg.det(a)], True),
        ("slogdet", [G23], lambda a: list(torch.linalg.slogdet(a)), True),
        ("logdet", [G3], lambda a: [torch.logdet(a)], True),
        ("eigvalsh", [H23], lambda a: [torch.linalg.eigvalsh(a)], True),
        ("eigvalsh U", [H4], lambda a: [torch.linalg.eigvalsh(a, UPLO="U")], True),
        # the eigenvectors through a gauge-invariant function: V diag(exp(w / 10)) V^H
        ("eigh invariant", [H23], lambda a: [(lambda w, V: (V * torch.exp(w / 10).unsqueeze(-2)) @ V.mH)(*torch.linalg.eigh(a))], True),
        ("eigh", [H4], lambda a: [torch.linalg.eigh(a)[0]], False),
    ]
    cases = []
    for cid, inputs, fn, grad in problems:
        for d in (torch.complex64, torch.complex128):
            xs = [x.to(d) for x in inputs]
            outs = fn(*xs)
            case = {
                "id": cid,
                "dtype": str(d)[6:],
                "inputs": [{"shape": list(x.shape), "values": pairs(x)} for x in xs],
                "cond": torch.linalg.cond(inputs[0]).max().item(),
                "expected": [{"shape": list(o.shape), "dtype": str(o.dtype)[6:], "values": flat(o)} for o in outs],
            }
            if grad and d == torch.complex128:
                leaves = [x.clone().requires_grad_(True) for x in xs]
                weights = []
                loss = real_loss([o for o in fn(*leaves) if o.is_floating_point() or o.is_complex()], torch.Generator().manual_seed(len(cases)), weights)
                case["weights"] = weights
                case["grads"] = [pairs(t) for t in torch.autograd.grad(loss, leaves)]
            cases.append(case)
    return cases


_make_solve = make


def make():
    out = _make_solve()
    out["factor"] = factor_cases()
    # cholesky_ex of a batch with a matrix that is not positive-definite (its leading minor of order 2)
    A = torch.tensor([[[4, 1j, 0], [-1j, 2, 0], [0, 0, 1]], [[1, 2, 0], [2, 1, 0], [0, 0, 1]]], dtype=torch.complex128)
    L, info = torch.linalg.cholesky_ex(A)
    out["cholesky_ex"] = {"A": {"shape": list(A.shape), "values": pairs(A)}, "info": info.tolist()}
    try:
        torch.linalg.cholesky(A)
    except Exception as e:  # noqa: BLE001
        out["cholesky_ex"]["message"] = str(e)
    return out
