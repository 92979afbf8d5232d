"""Goldens for outer, addmm, baddbmm, einsum and tensordot (goldens/ops_linalg_extra.json).

Every dtype; addmm/baddbmm with a broadcast self, beta/alpha (beta=0 ignoring a NaN self),
empty inner dims and the errors, and their in-place forms (self must have the result's
shape); einsum over the forms of its equations (products,
traces, diagonals, transposes, outer products, batches, ellipses, implicit outputs, three
operands) and its errors; tensordot with a count and with lists of dims. Half (and
BFloat16 where 1.13 rounds between partial sums) are computed on float32 copies as 2.x
does. Integer inputs stay small so products and sums stay exact. The case format is
described in _ops_common.py.
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, T, Recorder, gen_for, is_float, small_operand, small_operands  # noqa: E402

_ops_common.PY_KWARGS.update({"beta": "beta", "equation": "equation", "dims": "dims"})


ADDMM = [
    ("basic", [[2, 4], [2, 3], [3, 4]], {}),
    ("broadcast", [[4], [2, 3], [3, 4]], {}),
    ("scalar-self", [[], [2, 3], [3, 4]], {}),
    ("beta-alpha", [[2, 4], [2, 3], [3, 4]], "scales"),
    ("beta0", [[2, 4], [2, 3], [3, 4]], {"beta": 0}),
    ("k0", [[2, 4], [2, 0], [0, 4]], {}),
    ("mismatch", [[2, 4], [2, 3], [2, 4]], {}),
]

BADDBMM = [
    ("basic", [[2, 2, 4], [2, 2, 3], [2, 3, 4]], {}),
    ("broadcast", [[1, 4], [2, 2, 3], [2, 3, 4]], {}),
    ("beta-alpha", [[2, 2, 4], [2, 2, 3], [2, 3, 4]], "scales"),
    ("beta0", [[2, 2, 4], [2, 2, 3], [2, 3, 4]], {"beta": 0}),
    ("batch0", [[0, 2, 4], [0, 2, 3], [0, 3, 4]], {}),
    ("mismatch", [[2, 2, 4], [2, 2, 3], [3, 3, 4]], {}),
]

EINSUM = [
    ("mm", "ij,jk->ik", [[2, 3], [3, 4]]),
    ("trace", "ii", [[3, 3]]),
    ("diag", "ii->i", [[3, 3]]),
    ("transpose", "ij->ji", [[2, 3]]),
    ("sum-all", "ij->", [[2, 3]]),
    ("outer", "i,j", [[2], [3]]),
    ("dot", "i,i->", [[4], [4]]),
    ("batch", "bij,bjk->bik", [[2, 2, 3], [2, 3, 2]]),
    ("ellipsis", "...ij,...jk", [[2, 2, 3], [3, 2]]),
    ("ellipsis-sum", "...i->...", [[2, 3, 4]]),
    ("implicit", "ba,ca", [[2, 3], [4, 3]]),
    ("three", "ij,jk,kl->il", [[2, 3], [3, 2], [2, 2]]),
    ("broadcast", "ij,ij->i", [[2, 3], [1, 3]]),
    ("hadamard", "ij,ij->ij", [[2, 3], [2, 3]]),
    ("empty", "ij,jk->ik", [[2, 0], [0, 3]]),
    ("bad-count", "ij,jk->ik", [[2, 3]]),
    ("bad-ndim", "ij->i", [[2, 3, 4]]),
    ("bad-output", "ij->ik", [[2, 3]]),
    ("bad-size", "ij,jk->ik", [[2, 3], [4, 2]]),
]

TENSORDOT = [
    ("count", {"dims": 1}, [[2, 3], [3, 4]]),
    ("count2", {"dims": 2}, [[2, 3, 4], [3, 4, 2]]),
    ("count0", {"dims": 0}, [[2], [3]]),
    ("lists", {"dims": [[1, 0], [0, 1]]}, [[3, 2, 2], [2, 3]]),
    ("mismatch", {"dims": [[0], [0]]}, [[2, 3], [3, 2]]),
]


def ADDMM_(a, k):
    return a[0].addmm_(*a[1:], **k)


def BADDBMM_(a, k):
    return a[0].baddbmm_(*a[1:], **k)


def make():
    rec = Recorder()
    for d in ALL:
        scales = {"beta": 0.5, "alpha": 1.5} if is_float(d) else ({"beta": 2, "alpha": 3} if d != "bool" else {"beta": True, "alpha": True})
        for sample, shapes, kw in ADDMM:
            inputs = small_operands("addmm", sample, d, shapes)
            if sample == "beta0" and is_float(d):
                inputs[0] = T(d, shapes[0], [math.nan] * math.prod(shapes[0]))
            rec.case("addmm", sample, d, inputs, lambda a, k: torch.addmm(*a, **k), scales if kw == "scales" else kw, "", ADDMM_,
                     upcast=True, float_acc=("bfloat16",))
        for sample, shapes, kw in BADDBMM:
            inputs = small_operands("baddbmm", sample, d, shapes)
            if sample == "beta0" and is_float(d):
                inputs[0] = T(d, shapes[0], [math.nan] * math.prod(shapes[0]))
            rec.case("baddbmm", sample, d, inputs, lambda a, k: torch.baddbmm(*a, **k), scales if kw == "scales" else kw, "", BADDBMM_,
                     upcast=True, float_acc=("bfloat16",))
        rec.case("outer", "basic", d, small_operands("outer", "basic", d, [[3], [4]]), lambda a, k: torch.outer(*a))
        rec.case("outer", "empty", d, small_operands("outer", "empty", d, [[0], [4]]), lambda a, k: torch.outer(*a))
        rec.case("outer", "2d", d, small_operands("outer", "2d", d, [[2, 2], [4]]), lambda a, k: torch.outer(*a))
        for sample, eq, shapes in EINSUM:
            rec.case("einsum", sample, d, small_operands("einsum", sample, d, shapes), lambda a, k: torch.einsum(k["equation"], *a), {"equation": eq},
                     upcast=True, float_acc=("bfloat16",))
        for sample, kw, shapes in TENSORDOT:
            rec.case("tensordot", sample, d, small_operands("tensordot", sample, d, shapes), lambda a, k: torch.tensordot(a[0], a[1], **k), kw,
                     upcast=True, float_acc=("bfloat16",))
    for da, db in [("int32", "float32"), ("bool", "int8"), ("float16", "float64")]:
        g = gen_for("outer", "promote", da, db)
        rec.case("outer", "promote", da, [T(da, [2], small_operand(da, [2], g)), T(db, [3], small_operand(db, [3], g))], lambda a, k: torch.outer(*a), variant=f"{da}+{db}")
        g = gen_for("addmm", "mixed", da, db)
        rec.case("addmm", "mixed-dtypes", da, [T(da, [2, 2], small_operand(da, [2, 2], g)), T(da, [2, 2], small_operand(da, [2, 2], g)), T(db, [2, 2], small_operand(db, [2, 2], g))],
                 lambda a, k: torch.addmm(*a), variant=f"{da}+{db}", inplace=ADDMM_)
    return {"family": "linalg_extra", **rec.result()}
