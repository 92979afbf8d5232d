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
    return {"cases": cases}
