"""Goldens for packages/core/src/iterator: the strides PyTorch gives a NEW output of a
pointwise op (TensorIterator's fast setup, stride-based dim reordering and allocation), and
its broadcasting results and error messages.

Each layout case names its inputs by a Python expression (kept in the JSON as `expr`) so a
failing case can be replayed in PyTorch. Inputs are described by sizes and strides in
elements; storage offsets play no part in the layout.
"""
import torch

E = torch.empty
CL = torch.channels_last
CL3 = torch.channels_last_3d


def _geom(t):
    return {"sizes": list(t.shape), "strides": list(t.stride())}


# Binary pointwise cases: (expr_a, expr_b). `a + b` and `torch.mul(b, a)` are recorded.
BINARY = [
    ("E(2, 3)", "E(2, 3)"),
    ("E(3, 2).t()", "E(3, 2).t()"),
    ("E(3, 2).t()", "E(2, 3)"),
    ("E(2, 3)", "E(3, 2).t()"),
    ("E(3, 3).t()", "E(3, 3)"),
    ("E(3, 1)", "E(1, 4)"),
    ("E(2, 1, 4)", "E(3, 1)"),
    ("E(4)", "E(3, 1)"),
    ("E(3)", "E(3, 4).t()"),
    ("E(4, 1)", "E(4, 3).t().t()"),
    ("E(3, 1).expand(3, 4)", "E(3, 4)"),
    ("E(3, 1).expand(3, 4)", "E(4, 3).t()"),
    ("E(1, 4).expand(3, 4)", "E(3, 1).expand(3, 4)"),
    ("E(4, 3).t()", "E(1, 4)"),
    ("E(4, 3).t()", "E(3, 1)"),
    ("E(2, 3, 4).permute(2, 0, 1)", "E(2, 3, 4).permute(2, 0, 1)"),
    ("E(2, 3, 4).permute(2, 0, 1)", "E(3, 4, 2).permute(1, 2, 0)"),
    ("E(2, 3, 4).permute(2, 0, 1)", "E(4, 2, 3)"),
    ("E(4, 2, 3)", "E(2, 3, 4).permute(2, 0, 1)"),
    ("E(2, 3, 4).permute(1, 2, 0)", "E(2, 3, 4).permute(1, 2, 0)"),
    ("E(2, 3, 4).transpose(0, 1)", "E(3, 1, 4)"),
    ("E(3, 1, 4).transpose(0, 2)", "E(4, 1, 3)"),
    ("E(4, 6)[:, ::2]", "E(4, 3)"),
    ("E(4, 6)[:, ::2].t()", "E(3, 4)"),
    ("E(6, 4)[::2].t()", "E(4, 6)[:, ::2]"),
    ("E(4, 4)[::2, ::2]", "E(4, 4)[::2, ::2]"),
    ("E(5, 7)[1:4, 2:6]", "E(3, 4)"),
    ("E(2, 3, 4, 5).to(memory_format=CL)", "E(2, 3, 4, 5).to(memory_format=CL)"),
    ("E(2, 3, 4, 5).to(memory_format=CL)", "E(2, 3, 4, 5)"),
    ("E(2, 3, 4, 5)", "E(2, 3, 4, 5).to(memory_format=CL)"),
    ("E(2, 3, 4, 5).to(memory_format=CL)", "E(3, 1, 1)"),
    ("E(1, 3, 1, 1)", "E(2, 3, 4, 5).to(memory_format=CL)"),
    ("E(2, 3, 4, 5).to(memory_format=CL)", "E(5)"),
    ("E(2, 3, 1, 1).to(memory_format=CL)", "E(2, 3, 1, 1)"),
    ("E(2, 3, 1, 5).to(memory_format=CL)", "E(30).as_strided((2, 3, 1, 5), (15, 1, 7, 3))"),
    ("E(30).as_strided((2, 3, 1, 5), (15, 1, 7, 3))", "E(30).as_strided((2, 3, 1, 5), (15, 1, 7, 3))"),
    ("E(2, 3, 4, 5, 6).to(memory_format=CL3)", "E(2, 3, 4, 5, 6).to(memory_format=CL3)"),
    ("E(2, 3, 4, 5, 6).to(memory_format=CL3)", "E(3, 1, 1, 1)"),
    ("E(2, 1, 3)", "E(2, 1, 3)"),
    ("E(6).as_strided((2, 1, 3), (3, 100, 1))", "E(2, 1, 3)"),
    ("E(6).as_strided((2, 1, 3), (1, 7, 2))", "E(6).as_strided((2, 1, 3), (1, 7, 2))"),
    ("E(6).as_strided((2, 1, 3), (1, 7, 2))", "E(2, 1, 3)"),
    ("E(3, 1, 2).permute(1, 2, 0)", "E(1, 2, 3)"),
    ("E(1, 3, 1, 2).permute(3, 1, 2, 0)", "E(2, 3, 1, 1)"),
    ("E(2, 0, 3)", "E(2, 0, 3)"),
    ("E(2, 0, 3).permute(2, 0, 1)", "E(1, 1, 1)"),
    ("E(2, 0, 3).permute(2, 0, 1)", "E(3, 2, 0)"),
    ("E(0, 3).t()", "E(3, 1)"),
    ("E(3, 0)", "E(1)"),
    ("E(())", "E(())"),
    ("E(())", "E(3, 2).t()"),
    ("E(3, 2).t()", "E(())"),
    ("E(1)", "E(3, 2).t()"),
    ("E(4, 4).as_strided((3, 4), (1, 1))", "E(3, 4)"),
    ("E(4, 4).as_strided((3, 4), (1, 1))", "E(4, 4).as_strided((3, 4), (1, 1))"),
    ("E(13).as_strided((3, 3), (3, 3))", "E(3, 3).t()"),
    ("E(2, 3, 4).permute(2, 0, 1)", "E(2, 1).expand(2, 3)"),
    ("E(5, 1, 4).expand(5, 3, 4).transpose(0, 2)", "E(4, 3, 5)"),
]

# Ternary cases through torch.addcmul(a, b, c): three inputs, compared in order.
TERNARY = [
    ("E(3, 4).t()", "E(4, 3)", "E(4, 1)"),
    ("E(4, 1)", "E(3, 4).t()", "E(4, 3)"),
    ("E(1, 3)", "E(4, 1)", "E(3, 4).t()"),
    ("E(2, 3, 4).permute(2, 0, 1)", "E(4, 2, 3)", "E(4, 2, 3)"),
    ("E(2, 3, 4, 5).to(memory_format=CL)", "E(2, 3, 4, 5).to(memory_format=CL)", "E(2, 3, 4, 5).to(memory_format=CL)"),
]

UNARY = [
    "E(2, 3)",
    "E(3, 2).t()",
    "E(2, 3, 4).permute(2, 0, 1)",
    "E(2, 3, 4).permute(1, 2, 0)",
    "E(2, 3, 4)[:, :, ::2].permute(2, 0, 1)",
    "E(4, 6)[:, ::2]",
    "E(4, 6)[:, ::2].t()",
    "E(5, 7)[1:4, 2:6]",
    "E(8)[::3]",
    "E(3, 1).expand(3, 4)",
    "E(1, 4).expand(3, 4)",
    "E(4, 1).expand(4, 3).t()",
    "E(2, 3, 4, 5).to(memory_format=CL)",
    "E(2, 3, 4, 5).to(memory_format=CL)[:, :, ::2]",
    "E(2, 3, 4, 5, 6).to(memory_format=CL3)",
    "E(2, 1, 3)",
    "E(30).as_strided((2, 3, 1, 5), (15, 1, 7, 3))",
    "E(6).as_strided((2, 1, 3), (3, 100, 1))",
    "E(6).as_strided((2, 1, 3), (1, 7, 2))",
    "E(1, 3, 1, 2).permute(3, 1, 2, 0)",
    "E(2, 0, 3)",
    "E(2, 0, 3).permute(2, 0, 1)",
    "E(2, 3, 0, 5).to(memory_format=CL)",
    "E(6, 0, 3)[::2].permute(2, 0, 1)",
    "E(())",
    "E(1)",
    "E(4, 4).as_strided((3, 4), (1, 1))",
    "E(13).as_strided((3, 3), (3, 3))",
    "E(3, 4, 5).transpose(0, 2)[1:, :, ::2]",
]

# Broadcast successes: torch.broadcast_shapes gives the shape.
BROADCAST_OK = [
    [[2, 3], [2, 3]],
    [[3, 1], [1, 4]],
    [[2, 1, 4], [3, 1]],
    [[4], [3, 1]],
    [[], [2, 3]],
    [[1], []],
    [[0], [1]],
    [[2, 1], [0]],
    [[1, 0, 1], [3, 1, 5]],
    [[5, 1, 3], [4, 1], [1, 1, 1, 1]],
    [[7]],
    [],
]

# Broadcast failures: the message of infer_size (what `a + b` and broadcast_tensors raise).
BROADCAST_ERR = [
    [[2, 3], [4]],
    [[3], [4]],
    [[2, 3], [3, 3]],
    [[2, 0], [3]],
    [[0], [2]],
    [[5, 3, 2], [4, 2]],
    [[2, 3], [1, 3], [5]],
    [[2, 3], [4], [5]],
    [[4, 1, 2], [1, 3, 1], [2, 2, 2]],
]


def _binary(expr_a, expr_b):
    a, b = eval(expr_a), eval(expr_b)
    out = a + b
    out2 = torch.mul(b, a)
    swapped = b + a
    assert list(out2.stride()) == list(swapped.stride())
    return {
        "expr": f"{expr_a} + {expr_b}",
        "shape": list(out.shape),
        "inputs": [_geom(a), _geom(b)],
        "out": list(out.stride()),
        "out_swapped": list(swapped.stride()),
    }


def _ternary(exprs):
    ts = [eval(e) for e in exprs]
    out = torch.addcmul(*ts)
    return {
        "expr": "torch.addcmul(" + ", ".join(exprs) + ")",
        "shape": list(out.shape),
        "inputs": [_geom(t) for t in ts],
        "out": list(out.stride()),
    }


def _unary(expr):
    a = eval(expr)
    outs = [a.exp(), a.neg(), torch.abs(a)]
    strides = [list(o.stride()) for o in outs]
    assert all(s == strides[0] for s in strides), (expr, strides)
    return {"expr": f"{expr}.exp()", "shape": list(a.shape), "inputs": [_geom(a)], "out": strides[0]}


def _broadcast_err(shapes):
    try:
        torch.broadcast_tensors(*[E(s) for s in shapes])
    except RuntimeError as e:
        return {"shapes": shapes, "message": str(e).split("\n")[0]}
    raise AssertionError(f"{shapes} broadcast")


def make():
    layout = [_binary(a, b) for a, b in BINARY]
    layout += [_ternary(t) for t in TERNARY]
    layout += [_unary(u) for u in UNARY]
    ok = []
    for shapes in BROADCAST_OK:
        shape = list(torch.broadcast_shapes(*shapes))
        if shapes:
            assert list(torch.broadcast_tensors(*[E(s) for s in shapes])[0].shape) == shape
        ok.append({"shapes": shapes, "shape": shape})
    return {
        "layout": layout,
        "broadcast_ok": ok,
        "broadcast_err": [_broadcast_err(s) for s in BROADCAST_ERR],
    }
