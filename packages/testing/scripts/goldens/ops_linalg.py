"""Goldens for mm, bmm, mv, dot and matmul of the OpInfo table (goldens/ops_linalg.json).

Every dtype; matmul in each of its forms (1-D.1-D, 2-D.1-D, 1-D.2-D, batched with batch
broadcasting and 1-D operands), empty inner and batch dims, and mixed dtypes (an error).
Half is computed on float32 copies where 1.13 lacks the kernel (2.x has it); BFloat16 too
where 1.13 accumulates in BFloat16 (its mv/dot and small bmm paths) and 2.x in float32. Integer
inputs span their dtype's whole range, so products wrap around as PyTorch's do. The case
format is described in _ops_common.py.
"""
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from _ops_common import ALL, T, Recorder, fill, gen_for, is_float  # noqa: E402

SHAPES = {
    "mm": [
        ("square", [3, 3], [3, 3]),
        ("rect", [2, 5], [5, 4]),
        ("outer", [4, 1], [1, 3]),
        ("inner", [1, 6], [6, 1]),
        ("k0", [2, 0], [0, 3]),
        ("n0", [0, 3], [3, 2]),
    ],
    "bmm": [
        ("basic", [2, 3, 4], [2, 4, 2]),
        ("single", [1, 2, 2], [1, 2, 2]),
        ("k0", [2, 3, 0], [2, 0, 2]),
        ("batch0", [0, 2, 3], [0, 3, 4]),
    ],
    "mv": [
        ("basic", [3, 4], [4]),
        ("tall", [6, 2], [2]),
        ("k0", [3, 0], [0]),
        ("n0", [0, 3], [3]),
    ],
    "dot": [
        ("basic", [5], [5]),
        ("one", [1], [1]),
        ("long", [33], [33]),
        ("empty", [0], [0]),
    ],
    "matmul": [
        ("1d-1d", [5], [5]),
        ("2d-1d", [3, 4], [4]),
        ("1d-2d", [4], [4, 3]),
        ("2d-2d", [2, 3], [3, 4]),
        ("3d-3d", [2, 2, 3], [2, 3, 2]),
        ("3d-2d", [2, 3, 4], [4, 2]),
        ("2d-3d", [3, 4], [2, 4, 2]),
        ("1d-3d", [3], [2, 3, 4]),
        ("3d-1d", [2, 4, 3], [3]),
        ("batch-broadcast", [2, 1, 2, 3], [3, 3, 2]),
        ("batch-broadcast-1", [1, 3, 4], [2, 4, 2]),
        ("k0", [2, 0], [0, 3]),
        ("1d-1d-empty", [0], [0]),
    ],
}

FNS = {
    "mm": lambda a, k: torch.mm(a[0], a[1]),
    "bmm": lambda a, k: torch.bmm(a[0], a[1]),
    "mv": lambda a, k: torch.mv(a[0], a[1]),
    "dot": lambda a, k: torch.dot(a[0], a[1]),
    "matmul": lambda a, k: torch.matmul(a[0], a[1]),
}


def operand(d, shape, g):
    if is_float(d):
        return fill(d, shape, g, scale=2.0)
    if d == "bool":
        return fill(d, shape, g)
    info = torch.iinfo(getattr(torch, d))
    # int8/uint8 products and sums wrap; wider ints stay small so int64 stays below 2^53
    lo, hi = (info.min, info.max) if d in ("int8", "uint8") else (-50, 50)
    return fill(d, shape, g, lo=lo, hi=hi)


def make():
    rec = Recorder()
    for op, shapes in SHAPES.items():
        for d in ALL:
            for sample, sa, sb in shapes:
                g = gen_for(op, sample, d)
                a, b = T(d, sa, operand(d, sa, g)), T(d, sb, operand(d, sb, g))
                rec.case(op, sample, d, [a, b], FNS[op], upcast=True, float_acc=("bfloat16",))
        for da, db in [("float32", "float64"), ("int32", "float32"), ("float16", "float32")]:
            sa, sb = shapes[0][1], shapes[0][2]
            g = gen_for(op, "mixed", da, db)
            rec.case(op, "mixed-dtypes", da, [T(da, sa, operand(da, sa, g)), T(db, sb, operand(db, sb, g))],
                     FNS[op], variant=f"{da}+{db}")
    return {"family": "linalg", **rec.result()}
