"""Goldens for the logical and bitwise ops of the OpInfo table (goldens/ops_logical.json).

logicalNot, logicalAnd, logicalOr, logicalXor, bitwiseNot, bitwiseAnd, bitwiseOr, bitwiseXor
(with Scalar operands) on every dtype; isclose with its tolerances and equal_nan; nanToNum with its
replacement values; clip (clamp's alias) with clamp's samples: edge values (zeros, -0, NaN,
infinities), broadcasting, 0-dim and empty operands, and mixed dtypes. The case format is
described in _ops_common.py.
"""
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from _ops_common import ALL, DTYPES, S, T, Recorder, edges, fill, gen_for, is_float, shuffled  # noqa: E402
from ops_pointwise import PROMOTE  # noqa: E402
import ops_binary  # noqa: E402

# name -> (function, in-place)
LOGICAL_BINARY = {
    "logicalAnd": (lambda a, k: torch.logical_and(a[0], a[1]), lambda a, k: a[0].logical_and_(a[1])),
    "logicalOr": (lambda a, k: torch.logical_or(a[0], a[1]), lambda a, k: a[0].logical_or_(a[1])),
    "logicalXor": (lambda a, k: torch.logical_xor(a[0], a[1]), lambda a, k: a[0].logical_xor_(a[1])),
}


def with_zeros(d, shape, g):
    zero = False if d == "bool" else 0
    return fill(d, shape, g, [zero, zero] + edges(d)[:3])


def unary_cases(rec, op, fn, inplace):
    for d in ALL:
        g = gen_for(op, d)
        e = edges(d)
        rec.case(op, "edge", d, [T(d, [len(e)], e)], fn, {}, "", inplace)
        rec.case(op, "0dim", d, [T(d, [], with_zeros(d, [], g))], fn, {}, "", inplace)
        rec.case(op, "empty", d, [T(d, [0, 2], [])], fn, {}, "", inplace)


def not_cases(rec):
    unary_cases(rec, "logicalNot", lambda a, k: torch.logical_not(a[0]), lambda a, k: a[0].logical_not_())


def binary_cases(rec, op):
    fn, inplace = LOGICAL_BINARY[op]
    for d in ALL:
        g = gen_for(op, d)
        e = edges(d)
        rec.case(op, "edge", d, [T(d, [len(e)], e), T(d, [len(e)], shuffled(e, g))], fn, {}, "", inplace)
        rec.case(op, "broadcast", d, [T(d, [2, 1, 4], with_zeros(d, [2, 1, 4], g)), T(d, [3, 1], with_zeros(d, [3, 1], g))], fn, {}, "", inplace)
        rec.case(op, "0dim-tensor", d, [T(d, [], with_zeros(d, [], g)), T(d, [3], with_zeros(d, [3], g))], fn, {}, "", inplace)
        rec.case(op, "empty", d, [T(d, [0, 3], []), T(d, [3], with_zeros(d, [3], g))], fn, {}, "", inplace)
    for da, db, zero_dim in PROMOTE:
        g = gen_for(op, "promote", da, db)
        sb = [] if zero_dim else [3]
        rec.case(op, "promote", da, [T(da, [2, 3], with_zeros(da, [2, 3], g)), T(db, sb, with_zeros(db, sb, g))], fn, {},
                 f"{da}+{db}{'[]' if zero_dim else ''}", inplace)


BITWISE_BINARY = {
    "bitwiseAnd": (lambda a, k: torch.bitwise_and(a[0], a[1]), lambda a, k: a[0].bitwise_and_(a[1])),
    "bitwiseOr": (lambda a, k: torch.bitwise_or(a[0], a[1]), lambda a, k: a[0].bitwise_or_(a[1])),
    "bitwiseXor": (lambda a, k: torch.bitwise_xor(a[0], a[1]), lambda a, k: a[0].bitwise_xor_(a[1])),
}


def bitwise_not_cases(rec):
    unary_cases(rec, "bitwiseNot", lambda a, k: torch.bitwise_not(a[0]), lambda a, k: a[0].bitwise_not_())


def bitwise_cases(rec, op):
    fn, inplace = BITWISE_BINARY[op]
    for d in ALL:
        g = gen_for(op, d)
        e = edges(d)
        rec.case(op, "edge", d, [T(d, [len(e)], e), T(d, [len(e)], shuffled(e, g))], fn, {}, "", inplace)
        rec.case(op, "broadcast", d, [T(d, [2, 1, 4], with_zeros(d, [2, 1, 4], g)), T(d, [3, 1], with_zeros(d, [3, 1], g))], fn, {}, "", inplace)
        rec.case(op, "0dim-tensor", d, [T(d, [], with_zeros(d, [], g)), T(d, [3], with_zeros(d, [3], g))], fn, {}, "", inplace)
        rec.case(op, "empty", d, [T(d, [0, 3], []), T(d, [3], with_zeros(d, [3], g))], fn, {}, "", inplace)
        a = T(d, [len(e)], e)
        rec.case(op, "scalar-int", d, [a, S(3)], fn, {}, "", inplace)
        rec.case(op, "scalar-negative-int", d, [a, S(-2)], fn, {}, "", inplace)
    for da, db, zero_dim in PROMOTE:
        g = gen_for(op, "promote", da, db)
        sb = [] if zero_dim else [3]
        # an in-place integral `self` with a floating result: a cast error before the kernel's dtype error
        ip = None if is_float(da) != is_float(db) else inplace
        rec.case(op, "promote", da, [T(da, [2, 3], with_zeros(da, [2, 3], g)), T(db, sb, with_zeros(db, sb, g))], fn, {},
                 f"{da}+{db}{'[]' if zero_dim else ''}", ip)


def nan_to_num_cases(rec):
    op = "nanToNum"

    def fn(a, k):
        return torch.nan_to_num(a[0], **k)

    def inplace(a, k):
        return a[0].nan_to_num_(**k)

    for d in ALL:
        g = gen_for(op, d)
        e = edges(d)
        x = T(d, [len(e)], e)
        rec.case(op, "edge", d, [x], fn, {}, "", inplace)
        rec.case(op, "values", d, [x], fn, {"nan": 1.5, "posinf": 2.0, "neginf": -3.0}, "", inplace)
        rec.case(op, "posinf-only", d, [x], fn, {"posinf": 7.0}, "", inplace)
        rec.case(op, "huge-replacement", d, [x], fn, {"nan": 1e300, "neginf": -1e300}, "", inplace)
        rec.case(op, "0dim", d, [T(d, [], with_zeros(d, [], g))], fn, {}, "", inplace)
        rec.case(op, "empty", d, [T(d, [0, 2], [])], fn, {}, "", inplace)


def clip_cases(rec):
    # clamp's cases (ops_binary.clamp_cases) under the alias
    ops_binary.CLAMP["clip"] = (lambda a, k: torch.clip(a[0], a[1], a[2]), lambda a, k: a[0].clip_(a[1], a[2]))
    ops_binary.clamp_cases(rec, "clip")


def isclose_cases(rec):
    """isclose (a composite: eq, then |a - b| <= atol + |rtol * b|, in the default float dtype for
    integral and bool inputs): edge values (NaN, infinities, -0, integral extremes) against a
    shuffle of themselves, values near each other within and beyond the tolerances, exact
    comparison (rtol = atol = 0), equal_nan, broadcasting, 0-dim and empty operands."""
    op = "isclose"

    def fn(a, k):
        return torch.isclose(a[0], a[1], **k)

    for d in ALL:
        g = gen_for(op, d)
        e = edges(d)
        a, b = T(d, [len(e)], e), T(d, [len(e)], shuffled(e, g))
        rec.case(op, "edge", d, [a, b], fn)
        rec.case(op, "edge-self", d, [a, a], fn)
        rec.case(op, "equal-nan", d, [a, b], fn, {"equalNan": True})
        rec.case(op, "equal-nan-self", d, [a, a], fn, {"equalNan": True})
        rec.case(op, "exact", d, [a, b], fn, {"rtol": 0.0, "atol": 0.0})
        x = fill(d, [12], g)
        if d == "bool":
            y = fill(d, [12], g)
        elif is_float(d):
            # steps of about the tolerances, each side of them
            steps = [0.0, 1e-9, -1e-7, 1e-5, -3e-5, 1e-3, -0.05, 0.1, 0.2, -0.5, 1.0, 2.0]
            y = torch.tensor(x, dtype=torch.float64).add(torch.tensor(steps, dtype=torch.float64)).to(DTYPES[d]).double().tolist()
        else:
            info = torch.iinfo(DTYPES[d])
            y = [min(info.max, max(info.min, v + s)) for v, s in zip(x, [0, 1, -1, 2, -3, 5, 0, 1, -2, 10, -10, 4])]
        xs, ys = T(d, [12], x), T(d, [12], y)
        rec.case(op, "near", d, [xs, ys], fn)
        rec.case(op, "near-tol", d, [xs, ys], fn, {"rtol": 0.01, "atol": 1.0})
        rec.case(op, "near-atol", d, [xs, ys], fn, {"rtol": 0.0, "atol": 2.0})
        rec.case(op, "near-rtol", d, [xs, ys], fn, {"rtol": 0.5, "atol": 0.0})
        rec.case(op, "broadcast", d, [T(d, [2, 1, 4], with_zeros(d, [2, 1, 4], g)), T(d, [3, 1], with_zeros(d, [3, 1], g))], fn, {"atol": 1.0})
        rec.case(op, "0dim", d, [T(d, [], with_zeros(d, [], g)), T(d, [3], with_zeros(d, [3], g))], fn)
        rec.case(op, "empty", d, [T(d, [0, 3], []), T(d, [3], with_zeros(d, [3], g))], fn)
        rec.case(op, "broadcast-error", d, [T(d, [2], with_zeros(d, [2], g)), T(d, [3], with_zeros(d, [3], g))], fn)


def make():
    rec = Recorder()
    not_cases(rec)
    for op in LOGICAL_BINARY:
        binary_cases(rec, op)
    bitwise_not_cases(rec)
    for op in BITWISE_BINARY:
        bitwise_cases(rec, op)
    nan_to_num_cases(rec)
    clip_cases(rec)
    isclose_cases(rec)
    return {"family": "logical", **rec.result()}
