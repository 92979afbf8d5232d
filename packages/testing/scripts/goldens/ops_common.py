"""Goldens for kron, cross, cdist, trace, diff, block_diag, cartesian_prod, combinations,
tril_indices and triu_indices (goldens/ops_common.json).

Every dtype: batched, broadcast, 0-dim and empty inputs, and PyTorch's errors (shapes, dtypes,
arguments). cdist over its p values and both of its paths (the direct one, and the matmul
form that p=2 takes for more than 25 rows or with compute_mode='use_mm_for_euclid_dist'),
float32 and float64 only for the matmul form. diff's inputs are [input], [input, prepend] or
[input, prepend, append]. tril_indices and triu_indices take no tensor: their cases are in
"indices" ({op, args, kwargs, expected | error}); "cdist_grads" holds cdist's float64
gradients of sum() where a distance is exactly 0 (gradcheck's random points never meet
one), on both paths. Both are read by test/common-ops.test.ts. Integer
inputs stay small so products stay exact. The case format is described in _ops_common.py.
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, FLOATS, T, Recorder, encode_error, encode_result, gen_for, small_operand, small_operands  # noqa: E402
from _dtypes import DTYPES  # noqa: E402

_ops_common.PY_KWARGS.update({"p": "p", "computeMode": "compute_mode", "n": "n", "r": "r", "withReplacement": "with_replacement"})


TRACE = [("square", [3, 3]), ("wide", [2, 4]), ("tall", [4, 2]), ("empty", [2, 0]), ("1d", [3]), ("3d", [2, 2, 2])]

KRON = [
    ("2d", [[2, 2], [2, 3]]),
    ("1d", [[3], [2]]),
    ("mixed-rank", [[2], [2, 3]]),
    ("3d", [[2, 1, 2], [1, 2, 2]]),
    ("0d", [[], [2, 3]]),
    ("0d-both", [[], []]),
    ("empty", [[0, 2], [2, 3]]),
]

CROSS = [
    ("dim1", [[2, 3], [2, 3]], {"dim": 1}),
    ("dim0", [[3, 2], [3, 2]], {"dim": 0}),
    ("neg-dim", [[2, 2, 3], [2, 2, 3]], {"dim": -1}),
    ("default-dim", [[2, 3], [2, 3]], {}),
    ("default-first-3", [[3, 3], [3, 3]], {}),
    ("default-of-input", [[3, 1], [3, 3]], {}),
    ("broadcast", [[1, 3], [4, 3]], {"dim": 1}),
    ("empty-batch", [[0, 3], [0, 3]], {"dim": 1}),
    ("no-dim-of-3", [[2, 4], [2, 4]], {}),
    ("bad-length", [[2, 3], [2, 4]], {"dim": 1}),
    ("bad-rank", [[3], [4, 3]], {"dim": -1}),
    ("dim-out-of-range", [[2, 3], [2, 3]], {"dim": 2}),
]

CDIST = [
    ("basic", [[3, 4], [2, 4]], {}),
    ("batched", [[2, 3, 4], [2, 5, 4]], {}),
    ("broadcast-batch", [[2, 1, 3, 2], [3, 4, 2]], {}),
    ("p1", [[3, 4], [2, 4]], {"p": 1}),
    ("p0", [[3, 4], [2, 4]], {"p": 0}),
    ("p-half", [[3, 4], [2, 4]], {"p": 0.5}),
    ("p-1.5", [[3, 4], [2, 4]], {"p": 1.5}),
    ("p3", [[3, 4], [2, 4]], {"p": 3}),
    ("p-inf", [[3, 4], [2, 4]], {"p": math.inf}),
    ("no-mm", [[3, 4], [2, 4]], {"computeMode": "donot_use_mm_for_euclid_dist"}),
    ("empty-rows", [[0, 3], [4, 3]], {}),
    ("zero-cols", [[2, 0], [4, 0]], {}),
    ("empty-batch", [[0, 2, 3], [1, 4, 3]], {}),
    ("1d", [[3], [3, 3]], {}),
    ("bad-cols", [[2, 3], [2, 4]], {}),
    ("bad-batch", [[2, 2, 3], [3, 4, 3]], {}),
    ("negative-p", [[2, 3], [2, 3]], {"p": -1}),
]

# the matmul form (float32 and float64)
CDIST_MM = [
    ("mm-rows", [[30, 3], [4, 3]], {}),
    ("mm-forced", [[3, 4], [5, 4]], {"computeMode": "use_mm_for_euclid_dist"}),
    ("mm-batched", [[2, 3, 4], [2, 5, 4]], {"computeMode": "use_mm_for_euclid_dist"}),
    ("mm-rows-no-mm", [[30, 3], [4, 3]], {"computeMode": "donot_use_mm_for_euclid_dist"}),
]

DIFF = [
    ("1d", [[5]], {}),
    ("2d-last", [[3, 4]], {}),
    ("dim0", [[3, 4]], {"dim": 0}),
    ("n2", [[6]], {"n": 2}),
    ("n3-dim0", [[5, 2]], {"n": 3, "dim": 0}),
    ("n0", [[4]], {"n": 0}),
    ("n-too-big", [[3]], {"n": 5}),
    ("empty", [[0]], {}),
    ("prepend", [[2, 3], [2, 2]], {"dim": 1}),
    ("prepend-append", [[3, 2], [1, 2], [2, 2]], {"dim": 0, "n": 2}),
    ("0d", [[]], {}),
    ("bad-prepend-rank", [[2, 3], [3]], {}),
    ("bad-prepend-shape", [[2, 3], [3, 3]], {"dim": 1}),
    ("dim-out-of-range", [[2, 3]], {"dim": 2}),
]

BLOCK_DIAG = [
    ("2d", [[2, 2], [1, 3]]),
    ("mixed", [[2, 2], [], [3]]),
    ("one", [[2, 3]]),
    ("three", [[1, 1], [2, 1], [1, 2]]),
    ("empty", [[0], [2, 0], [0, 3]]),
    ("3d", [[2], [2, 2, 2]]),
]

CARTESIAN = [
    ("two", [[2], [3]]),
    ("three", [[2], [2], [3]]),
    ("one", [[3]]),
    ("empty", [[0], [2]]),
    ("2d", [[2], [2, 2]]),
]

COMBINATIONS = [
    ("r2", [4], {}),
    ("r3", [5], {"r": 3}),
    ("r1", [3], {"r": 1}),
    ("r0", [3], {"r": 0}),
    ("replacement", [3], {"r": 2, "withReplacement": True}),
    ("r-too-big", [3], {"r": 4}),
    ("r-too-big-replacement", [2], {"r": 3, "withReplacement": True}),
    ("empty", [0], {}),
    ("2d", [2, 2], {}),
    ("negative-r", [3], {"r": -1}),
]


def cdist_call(a, k):
    return torch.cdist(a[0], a[1], **k)


def diff_call(a, k):
    extra = {}
    if len(a) > 1:
        extra["prepend"] = a[1]
    if len(a) > 2:
        extra["append"] = a[2]
    return torch.diff(a[0], **k, **extra)


INDICES = [
    (3, 3, 0), (3, 4, 0), (4, 3, 0), (3, 4, 1), (3, 4, -1), (4, 4, 2), (3, 4, 10), (3, 4, -10), (0, 3, 0), (3, 0, 0), (1, 1, 0),
]


def indices_cases():
    out = []
    for op in ("tril_indices", "triu_indices"):
        fn = getattr(torch, op)
        for row, col, offset in INDICES:
            out.append({"op": op, "args": [row, col, offset], "kwargs": {}, "expected": encode_result(fn(row, col, offset))})
        for d in ("int32", "int64", "float32", "bool", "int16"):
            case = {"op": op, "args": [3, 4, 0], "kwargs": {"dtype": d}}
            try:
                case["expected"] = encode_result(fn(3, 4, 0, dtype=DTYPES[d]))
            except RuntimeError as e:
                case["error"] = encode_error(e)
            out.append(case)
        for row, col in ((-1, 3), (3, -1)):
            case = {"op": op, "args": [row, col, 0], "kwargs": {}}
            try:
                fn(row, col, 0)
            except RuntimeError as e:
                case["error"] = encode_error(e)
            out.append(case)
    return out


def make():
    rec = Recorder()
    for d in ALL:
        for sample, shape in TRACE:
            rec.case("trace", sample, d, small_operands("trace", sample, d, [shape]), lambda a, k: torch.trace(a[0]))
        for sample, shapes in KRON:
            rec.case("kron", sample, d, small_operands("kron", sample, d, shapes), lambda a, k: torch.kron(*a))
        for sample, shapes, kw in CROSS:
            rec.case("cross", sample, d, small_operands("cross", sample, d, shapes), lambda a, k: torch.cross(*a, **k), kw)
        for sample, shapes, kw in CDIST + (CDIST_MM if d in ("float32", "float64") else []):
            rec.case("cdist", sample, d, small_operands("cdist", sample, d, shapes), cdist_call, kw)
        for sample, shapes, kw in DIFF:
            rec.case("diff", sample, d, small_operands("diff", sample, d, shapes), diff_call, kw)
        for sample, shapes in BLOCK_DIAG:
            rec.case("blockDiag", sample, d, small_operands("block_diag", sample, d, shapes), lambda a, k: torch.block_diag(*a))
        for sample, shapes in CARTESIAN:
            rec.case("cartesianProd", sample, d, small_operands("cartesian_prod", sample, d, shapes), lambda a, k: torch.cartesian_prod(*a))
        for sample, shape, kw in COMBINATIONS:
            rec.case("combinations", sample, d, small_operands("combinations", sample, d, [shape]), lambda a, k: torch.combinations(a[0], **k), kw)
    # mixed dtypes: kron and diff's prepend promote; cross, cdist and cartesian_prod refuse; block_diag promotes
    for da, db in [("int32", "float32"), ("bool", "int8"), ("float16", "float64"), ("uint8", "int8")]:
        g = gen_for("mixed", da, db)
        v = f"{da}+{db}"
        rec.case("kron", "promote", da, [T(da, [2], small_operand(da, [2], g)), T(db, [2, 2], small_operand(db, [2, 2], g))], lambda a, k: torch.kron(*a), variant=v)
        rec.case("cross", "mixed-dtypes", da, [T(da, [2, 3], small_operand(da, [2, 3], g)), T(db, [2, 3], small_operand(db, [2, 3], g))],
                 lambda a, k: torch.cross(*a, **k), {"dim": 1}, variant=v)
        rec.case("diff", "prepend-promote", da, [T(da, [2, 3], small_operand(da, [2, 3], g)), T(db, [2, 1], small_operand(db, [2, 1], g))], diff_call, {"dim": 1}, variant=v)
        rec.case("blockDiag", "promote", da, [T(da, [2], small_operand(da, [2], g)), T(db, [2, 2], small_operand(db, [2, 2], g))], lambda a, k: torch.block_diag(*a), variant=v)
        rec.case("cartesianProd", "mixed-dtypes", da, [T(da, [2], small_operand(da, [2], g)), T(db, [2], small_operand(db, [2], g))], lambda a, k: torch.cartesian_prod(*a), variant=v)
    for da, db in [("float32", "float64"), ("float64", "float32")]:
        g = gen_for("cdist-mixed", da, db)
        rec.case("cdist", "mixed-dtypes", da, [T(da, [2, 3], small_operand(da, [2, 3], g)), T(db, [2, 3], small_operand(db, [2, 3], g))], cdist_call, variant=f"{da}+{db}")
    # a zero distance (a point of x1 in x2): 0 on the direct path, sqrt(1e-30) on the matmul one
    for d in ("float32", "float64"):
        x = T(d, [2, 3], small_operand(d, [2, 3], gen_for("cdist", "same", d)))
        rec.case("cdist", "zero-distance", d, [x, x], cdist_call)
        rec.case("cdist", "zero-distance-mm", d, [x, x], cdist_call, {"computeMode": "use_mm_for_euclid_dist"})
    return {"family": "common", **rec.result(), "indices": indices_cases(), "cdist_grads": cdist_grads()}


def cdist_grads():
    out = []
    x = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    y = [[1.0, 2.0, 3.0], [0.0, 1.0, -1.0]]
    for mode in ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist"):
        for p in (2.0, 1.0, 3.0):
            a = torch.tensor(x, dtype=torch.float64, requires_grad=True)
            b = torch.tensor(y, dtype=torch.float64, requires_grad=True)
            d = torch.cdist(a, b, p=p, compute_mode=mode)
            ga, gb = torch.autograd.grad(d.sum(), [a, b])
            out.append({"x1": x, "x2": y, "p": p, "computeMode": mode, "dist": d.tolist(), "grads": [ga.tolist(), gb.tolist()]})
    return out
