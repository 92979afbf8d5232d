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
    return torch.complex(torch.randn(*shape, generator=g, dtype=torch.float64), torch.randn(*shape, generator=g, dtype=torch.float64))


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
