"""Gradient goldens for the autograd tests (grads.json), from real PyTorch (1.13, CPU, float64).

Each case names its inputs (shape and value domain, or fixed values) and an expression; the
script draws the inputs, runs the expression, calls backward (with a random grad_output when
the result is not a scalar) and records every input's .grad. test/derivatives-goldens.test.ts
runs the same expression, by name, in torch-ts on the recorded inputs and compares.

    /usr/bin/python3 packages/autograd/test/goldens/make-goldens.py
"""
import json
import pathlib

import torch

torch.manual_seed(0)
g = torch.Generator().manual_seed(1234)


def draw(shape, domain):
    """Random float64 values of `shape`: 'any' in [-2, 2], 'pos' in [0.5, 2.5], 'nonzero'
    in ±[0.5, 2.5] (kinks and poles stay out of reach of gradcheck's steps)."""
    u = torch.rand(shape, generator=g, dtype=torch.float64)
    if domain == "any":
        return u * 4 - 2
    mag = u * 2 + 0.5
    if domain == "pos":
        return mag
    if domain == "nonzero":
        sign = torch.where(torch.rand(shape, generator=g, dtype=torch.float64) < 0.5, -1.0, 1.0)
        return mag * sign
    raise ValueError(domain)


def I(shape, domain="any"):
    return ("draw", shape, domain)


def V(values):
    return ("fixed", values)


# name -> (inputs, expression). Expressions use only what torch-ts has, spelled the same way
# in the test (which keeps its own copy of each, keyed by name).
CASES = {
    "seed-example": ({"t0": I([2, 2]), "t1": I([2, 2])}, lambda t0, t1: torch.mean(torch.sin(torch.mm(t0, t1) + t1 + t0))),
    "add-alpha-broadcast": ({"a": I([2, 3]), "b": I([3])}, lambda a, b: torch.add(a, b, alpha=2.5)),
    "sub-alpha-broadcast": ({"a": I([2, 1, 3]), "b": I([4, 1])}, lambda a, b: torch.sub(a, b, alpha=0.5)),
    "mul-broadcast": ({"a": I([3, 1]), "b": I([1, 4])}, lambda a, b: a * b),
    "mul-scalar": ({"a": I([2, 3])}, lambda a: a * 3.5),
    "mul-self": ({"a": I([4])}, lambda a: a * a + torch.sin(a) * a),
    "div": ({"a": I([2, 3]), "b": I([2, 3], "nonzero")}, lambda a, b: a / b),
    "div-scalar": ({"a": I([2, 3])}, lambda a: a / 4),
    "div-broadcast-0dim": ({"a": I([3]), "b": I([], "nonzero")}, lambda a, b: a / b),
    "pow-scalar-int": ({"a": I([5])}, lambda a: a ** 3),
    "pow-scalar-frac": ({"a": I([5], "pos")}, lambda a: a ** 2.5),
    "pow-scalar-negative": ({"a": I([5], "nonzero")}, lambda a: a ** -2),
    "pow-tensor": ({"a": I([2, 3], "pos"), "b": I([2, 3])}, lambda a, b: torch.pow(a, b)),
    "pow-tensor-zero-base": ({"a": V([0.0, 1.5, 2.0, 0.0]), "b": V([2.0, 0.0, 1.5, 0.0])}, lambda a, b: torch.pow(a, b)),
    "exp": ({"a": I([2, 3])}, lambda a: torch.exp(a)),
    "log": ({"a": I([2, 3], "pos")}, lambda a: torch.log(a)),
    "sqrt": ({"a": I([2, 3], "pos")}, lambda a: torch.sqrt(a)),
    "sin-cos": ({"a": I([6])}, lambda a: torch.sin(a) * torch.cos(a)),
    "tanh": ({"a": I([2, 3])}, lambda a: torch.tanh(a)),
    "sigmoid": ({"a": I([2, 3])}, lambda a: torch.sigmoid(a)),
    "relu": ({"a": I([2, 3], "nonzero")}, lambda a: torch.relu(a)),
    "neg-abs": ({"a": I([6], "nonzero")}, lambda a: torch.abs(-a) * a),
    "floor-ceil": ({"a": I([6])}, lambda a: torch.floor(a) * a + torch.ceil(a)),
    "maximum-ties": ({"a": V([1.0, 2.0, 3.0, 4.0]), "b": V([1.0, 0.0, 3.0, 5.0])}, lambda a, b: torch.maximum(a, b)),
    "minimum-ties": ({"a": V([1.0, 2.0, 3.0, 4.0]), "b": V([1.0, 0.0, 3.0, 5.0])}, lambda a, b: torch.minimum(a, b)),
    "remainder": ({"a": I([2, 3]), "b": I([2, 3], "nonzero")}, lambda a, b: torch.remainder(a, b)),
    "where": ({"a": I([2, 3]), "b": I([3])}, lambda a, b: torch.where(a > 0, a, b)),
    "sum-all": ({"a": I([2, 3])}, lambda a: a.sum()),
    "sum-dim": ({"a": I([2, 3, 4])}, lambda a: a.sum(1)),
    "sum-dims-keepdim": ({"a": I([2, 3, 4])}, lambda a: a.sum([0, 2], keepdim=True)),
    "sum-neg-dim": ({"a": I([2, 3, 4])}, lambda a: a.sum(-1)),
    "mean-dim": ({"a": I([3, 4])}, lambda a: a.mean(0)),
    "prod-all": ({"a": I([2, 3], "nonzero")}, lambda a: a.prod()),
    "prod-dim": ({"a": I([2, 3], "nonzero")}, lambda a: a.prod(1)),
    "prod-one-zero": ({"a": V([[1.5, 0.0, 3.0], [2.0, 4.0, 0.5]])}, lambda a: a.prod(1)),
    "prod-two-zeros": ({"a": V([[0.0, 0.0, 3.0], [2.0, 4.0, 0.5]])}, lambda a: a.prod(1)),
    "prod-all-one-zero": ({"a": V([[1.5, 0.0, 3.0], [2.0, 4.0, 0.5]])}, lambda a: a.prod()),
    "amax-ties": ({"a": V([[1.0, 3.0, 3.0], [2.0, 2.0, 1.0]])}, lambda a: torch.amax(a, 1)),
    "amin-all": ({"a": I([2, 3])}, lambda a: torch.amin(a)),
    "max-dim": ({"a": I([3, 4])}, lambda a: torch.max(a, 1)[0]),
    "min-dim-keepdim": ({"a": I([3, 4])}, lambda a: torch.min(a, 0, keepdim=True)[0]),
    "mm": ({"a": I([2, 3]), "b": I([3, 4])}, lambda a, b: torch.mm(a, b)),
    "bmm": ({"a": I([2, 2, 3]), "b": I([2, 3, 2])}, lambda a, b: torch.bmm(a, b)),
    "mv": ({"a": I([3, 2]), "v": I([2])}, lambda a, v: torch.mv(a, v)),
    "dot": ({"a": I([4]), "b": I([4])}, lambda a, b: torch.dot(a, b)),
    "matmul-batch-broadcast": ({"a": I([2, 1, 2, 3]), "b": I([3, 3, 2])}, lambda a, b: torch.matmul(a, b)),
    "view": ({"a": I([2, 3])}, lambda a: a.view(6) * torch.arange(6, dtype=torch.float64)),
    "transpose-mm": ({"a": I([3, 2]), "b": I([3, 4])}, lambda a, b: torch.tanh(torch.mm(a.transpose(0, 1), b)).sum(0)),
    "permute": ({"a": I([2, 3, 4])}, lambda a: a.permute(2, 0, 1)),
    "select": ({"a": I([2, 3, 4])}, lambda a: a.select(1, -1)),
    "slice-step": ({"a": I([3, 5])}, lambda a: a[:, 1::2]),
    "squeeze-unsqueeze": ({"a": I([3, 1, 2])}, lambda a: a.squeeze(1).unsqueeze(-1)),
    "expand": ({"a": I([3, 1])}, lambda a: a.expand(2, 3, 4)),
    "unfold-overlapping": ({"a": I([7])}, lambda a: a.unfold(0, 3, 2)),
    "diagonal-offset": ({"a": I([3, 4])}, lambda a: a.diagonal(1)),
    "as-strided": ({"a": I([3, 3])}, lambda a: a.as_strided([2, 2], [1, 2], 1)),
    "index-basic": ({"a": I([3, 4])}, lambda a: a[1:, ::2]),
    "to-float32": ({"a": I([2, 3])}, lambda a: (a.float() * 3).double()),
    "clone": ({"a": I([2, 3])}, lambda a: a.clone() * a),
    "copy-inplace": ({"a": I([3]), "b": I([3]), "c": I([3])}, lambda a, b, c: (b * 1).copy_(a) * c),
    "fill-inplace": ({"a": I([3])}, lambda a: (a * 2).fill_(3) * a),
    "sin-mul-inplace": ({"a": I([3]), "b": I([3])}, lambda a, b: torch.sin(a).mul_(b)),
    "sigmoid-inplace": ({"a": I([2, 3])}, lambda a: (a * 2).sigmoid_()),
    "relu-inplace": ({"a": I([2, 3], "nonzero")}, lambda a: (a + 0).relu_()),
    # pow.Scalar (a number base): grad * result * log(base); at base 0 the limit 0 where the
    # exponent is >= 0 (result * log(0) would be 0 * -inf)
    "pow-scalar-base": ({"b": V([-1.0, 0.0, 1.5, 2.0])}, lambda b: torch.pow(2.0, b).sum()),
    "pow-scalar-base-zero": ({"b": V([2.0, 0.5, 0.0, 1.0])}, lambda b: torch.pow(0.0, b).sum()),
}


def make_input(spec):
    if spec[0] == "draw":
        return draw(spec[1], spec[2])
    return torch.tensor(spec[1], dtype=torch.float64)


def values(t):
    return t.detach().reshape(-1).tolist()


def main():
    out = {"torch_version": torch.__version__, "cases": {}}
    for name, (specs, fn) in CASES.items():
        inputs = {k: make_input(s).requires_grad_(True) for k, s in specs.items()}
        y = fn(*inputs.values())
        case = {
            "inputs": {k: {"shape": list(t.shape), "values": values(t)} for k, t in inputs.items()},
            "grad_fn": type(y.grad_fn).__name__,
        }
        if y.dim() == 0:
            y.backward()
        else:
            go = draw(list(y.shape), "any")
            case["grad_output"] = {"shape": list(go.shape), "values": values(go)}
            y.backward(go)
        case["grads"] = {k: (None if t.grad is None else values(t.grad)) for k, t in inputs.items()}
        out["cases"][name] = case
    path = pathlib.Path(__file__).resolve().parent / "grads.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {len(out['cases'])} cases to {path}")


if __name__ == "__main__":
    main()
