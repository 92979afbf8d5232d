"""Goldens for the binary math ops of the OpInfo table (goldens/ops_binary.json).

fmod atan2 hypot fmax fmin, on every dtype, with the samples and operand values of the
binary ops of ops_pointwise.py; clamp (both bounds, `clamp.min` / `clamp.max` for one) and
clampMin / clampMax with Scalar and Tensor bounds; lerp with Scalar and Tensor weights; addcmul and addcdiv; isnan, isinf, isfinite. The case format is described in _ops_common.py.
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from _ops_common import ALL, BINARY_SHAPES, FLOATS, INTS, S, T, Recorder, edges, fill, gen_for, is_float  # noqa: E402
from ops_pointwise import PROMOTE, operand  # noqa: E402

# name -> (function, in-place or None, value policy, takes a Scalar other, 2.x Half kernel)
BINARY = {
    "fmod": (lambda a, k: torch.fmod(a[0], a[1]), lambda a, k: a[0].fmod_(a[1]), "div", True, False),
    "atan2": (lambda a, k: torch.atan2(a[0], a[1]), lambda a, k: a[0].atan2_(a[1]), "arith", False, True),
    "hypot": (lambda a, k: torch.hypot(a[0], a[1]), lambda a, k: a[0].hypot_(a[1]), "arith", False, True),
    "fmax": (lambda a, k: torch.fmax(a[0], a[1]), None, "arith", False, False),
    "fmin": (lambda a, k: torch.fmin(a[0], a[1]), None, "arith", False, False),
}


def binary_cases(rec, op):
    fn, inplace, policy, scalars, upcast = BINARY[op]

    def case(sample, dtype, a, b, variant=""):
        rec.case(op, sample, dtype, [a, b], fn, {}, variant, inplace, upcast=upcast)

    def pair(sample, da, sa, db, sb, variant=""):
        g = gen_for(op, sample, da, db, variant)
        case(sample, da, T(da, sa, operand(policy, "a", da, sa, g)), T(db, sb, operand(policy, "b", db, sb, g)), variant)

    for d in ALL:
        for sample, sa, sb in BINARY_SHAPES:
            pair(sample, d, sa, d, sb)
        if scalars:
            g = gen_for(op, "scalar", d)
            a = T(d, [2, 3], operand(policy, "a", d, [2, 3], g))
            case("scalar-int", d, a, S(3))
            case("scalar-float", d, a, S(2.5))
            if d != "uint8":
                case("scalar-negative-int", d, a, S(-2))
    for da, db, zero_dim in PROMOTE:
        pair("promote", da, [2, 3], db, [] if zero_dim else [3], variant=f"{da}+{db}{'[]' if zero_dim else ''}")
    if op == "fmod":
        for d in ALL:
            if d == "bool":
                a, b = T(d, [4], [True, False, True, False]), T(d, [4], [True, True, False, False])
            elif d == "uint8":
                a, b = T(d, [6], [7, 7, 5, 0, 255, 9]), T(d, [6], [2, 3, 3, 3, 16, 9])
            elif is_float(d):
                a = T(d, [14], [7, -7, 7, -7, 5, -5, 0, -0.0, 7.5, -7.5, 1, -1, 0, 2.5])
                b = T(d, [14], [2, 2, -2, -2, 3, -3, 3, 3, 2, 2, 0, 0, 0, math.inf])
            else:
                a = T(d, [10], [7, -7, 7, -7, 5, -5, 0, 3, -3, 9])
                b = T(d, [10], [2, 2, -2, -2, 3, -3, 3, -3, 3, -9])
            case("signs", d, a, b)
        for d in INTS:
            case("divide-by-zero", d, T(d, [3], [1, 2, 3]), T(d, [3], [1, 0, 2]))
    if op in ("fmax", "fmin"):
        nan, inf = math.nan, math.inf
        for d in FLOATS:
            case("nan", d, T(d, [8], [nan, nan, 1, inf, -inf, 0, 2, inf]), T(d, [8], [nan, 1, nan, inf, inf, 3, -0.5, nan]))
    if op == "atan2":
        inf = math.inf
        for d in FLOATS:
            case("quadrants", d, T(d, [10], [0.0, -0.0, 0.0, -0.0, 1, -1, 1, -1, inf, -inf]),
                 T(d, [10], [0.0, 0.0, -0.0, -0.0, -1, -1, 1, 1, inf, -inf]))


# name -> (function, in-place), the bounds after the input; 1.13 lacks the Half kernels of
# the Scalar-bound clamps that 2.x has (upcast).
CLAMP = {
    "clamp": (lambda a, k: torch.clamp(a[0], a[1], a[2]), lambda a, k: a[0].clamp_(a[1], a[2])),
    "clamp.min": (lambda a, k: torch.clamp(a[0], a[1]), lambda a, k: a[0].clamp_(a[1])),
    "clamp.max": (lambda a, k: torch.clamp(a[0], None, a[1]), lambda a, k: a[0].clamp_(None, a[1])),
    "clampMin": (lambda a, k: torch.clamp_min(a[0], a[1]), lambda a, k: a[0].clamp_min_(a[1])),
    "clampMax": (lambda a, k: torch.clamp_max(a[0], a[1]), lambda a, k: a[0].clamp_max_(a[1])),
}


def clamp_cases(rec, op):
    fn, inplace = CLAMP[op]
    both = op in ("clamp", "clip")
    nan = math.nan

    def case(sample, dtype, inputs, variant=""):
        rec.case(op, sample, dtype, inputs, fn, {}, variant, inplace, upcast=True)

    def bounds(lo, hi):
        return [lo, hi] if both else [hi if op in ("clamp.max", "clampMax") else lo]

    for d in ALL:
        g = gen_for(op, d)
        x = T(d, [3, 4], fill(d, [3, 4], g, edges(d)))
        lo, hi = (S(-2), S(3)) if d != "bool" else (S(False), S(True))
        case("scalar", d, [x, *bounds(lo, hi)])
        case("scalar-float", d, [x, *bounds(S(-0.5), S(2.5))])
        if both:
            case("min-gt-max", d, [x, S(3), S(-2)] if d != "bool" else [x, S(True), S(False)])
        lo_t = T(d, [4], fill(d, [4], g))
        hi_t = T(d, [3, 1], fill(d, [3, 1], g))
        case("tensor", d, [T(d, [2, 3, 4], fill(d, [2, 3, 4], g, edges(d))), *bounds(lo_t, hi_t)])
        case("tensor-0dim", d, [x, *bounds(T(d, [], fill(d, [], g)), T(d, [], fill(d, [], g)))])
        case("empty", d, [T(d, [0, 4], []), *bounds(lo_t, T(d, [4], fill(d, [4], g)))])
    for d in FLOATS:
        x = T(d, [6], [nan, -1.0, 0.5, 3.0, -0.0, math.inf])
        case("scalar-nan", d, [x, *bounds(S(nan), S(nan))])
        case("tensor-nan", d, [x, *bounds(T(d, [6], [0.0, nan, 0.0, nan, 0.0, 0.0]), T(d, [6], [1.0, 1.0, nan, 1.0, 1.0, nan]))])
    for da, db, zero_dim in PROMOTE:
        g = gen_for(op, "promote", da, db)
        sb = [] if zero_dim else [3]
        b1, b2 = T(db, sb, fill(db, sb, g)), T(db, sb, fill(db, sb, g))
        case("promote", da, [T(da, [2, 3], fill(da, [2, 3], g)), *bounds(b1, b2)], variant=f"{da}+{db}{'[]' if zero_dim else ''}")


def lerp_cases(rec):
    def fn(a, k):
        return torch.lerp(a[0], a[1], a[2])

    def inplace(a, k):
        return a[0].lerp_(a[1], a[2])

    def case(sample, dtype, inputs, variant=""):
        rec.case("lerp", sample, dtype, inputs, fn, {}, variant, inplace, upcast=True)

    for d in ALL:
        g = gen_for("lerp", d)
        x, y = T(d, [3, 4], fill(d, [3, 4], g, edges(d))), T(d, [3, 4], fill(d, [3, 4], g))
        case("scalar-weight", d, [x, y, S(0.3)])
        case("scalar-weight-high", d, [x, y, S(0.75)])
        case("scalar-weight-negative", d, [x, y, S(-1.5)])
        case("tensor-weight", d, [T(d, [2, 1, 4], fill(d, [2, 1, 4], g)), T(d, [3, 1], fill(d, [3, 1], g)),
                                  T(d, [4], [0.0, 0.25, 0.5, 1.0] if is_float(d) else [0, 1, 0, 1])])
        case("0dim", d, [T(d, [], fill(d, [], g)), T(d, [], fill(d, [], g)), S(0.5)])
        case("empty", d, [T(d, [0, 3], []), T(d, [3], fill(d, [3], g)), S(0.5)])
    for d in FLOATS:
        w = [0.0, 0.25, 0.4999, 0.5, 0.75, 1.0, -1.0, 2.0, math.nan, math.inf]
        x = T(d, [10], [1.0, -3.5, 100.0, 2.0, -0.0, 7.25, 1.0, 1.0, 1.0, 1.0])
        y = T(d, [10], [3.0, 8.0, -100.0, math.inf, 0.0, 7.25, 3.0, 3.0, 3.0, 3.0])
        case("weights", d, [x, y, T(d, [10], w)])
    case("dtype-mismatch", "float32", [T("float32", [2], [1.0, 2.0]), T("float64", [2], [3.0, 4.0]), S(0.5)])
    case("weight-dtype-mismatch", "float32", [T("float32", [2], [1.0, 2.0]), T("float32", [2], [3.0, 4.0]), T("float64", [2], [0.5, 0.25])])


def addc_cases(rec, op):
    f = getattr(torch, op)

    def fn(a, k):
        return f(a[0], a[1], a[2], **k)

    def inplace(a, k):
        return getattr(a[0], op + "_")(a[1], a[2], **k)

    def case(sample, dtype, inputs, kwargs=None, variant=""):
        # 1.13's in-place form with mixed dtypes dies of an INTERNAL ASSERT (needs_dynamic_casting)
        rec.case(op, sample, dtype, inputs, fn, kwargs or {}, variant, None if sample == "promote" else inplace, upcast=True)

    for d in ALL:
        g = gen_for(op, d)
        x = T(d, [3, 4], fill(d, [3, 4], g, edges(d)))
        t1 = T(d, [3, 4], fill(d, [3, 4], g))
        t2 = T(d, [4], fill(d, [4], g, [2, 3, 5, 7] if not is_float(d) and d != "bool" else None))
        case("same-shape", d, [x, t1, T(d, [3, 4], fill(d, [3, 4], g))])
        case("broadcast", d, [x, t1, t2])
        case("value-int", d, [x, t1, t2], {"value": 3})
        case("value-float", d, [x, t1, t2], {"value": 0.5})
        case("0dim", d, [T(d, [], fill(d, [], g)), T(d, [], fill(d, [], g)), T(d, [], fill(d, [], g))])
        case("empty", d, [T(d, [0, 4], []), t2, t2])
    for da, db, zero_dim in PROMOTE:
        g = gen_for(op, "promote", da, db)
        sb = [] if zero_dim else [3]
        case("promote", da, [T(da, [2, 3], fill(da, [2, 3], g)), T(db, sb, fill(db, sb, g)), T(da, [3], fill(da, [3], g))],
             variant=f"{da}+{db}{'[]' if zero_dim else ''}")


def classify_cases(rec, op):
    f = getattr(torch, op)
    for d in ALL:
        g = gen_for(op, d)
        e = edges(d)
        rec.case(op, "edge", d, [T(d, [len(e)], e)], lambda a, k: f(a[0]))
        rec.case(op, "0dim", d, [T(d, [], fill(d, [], g))], lambda a, k: f(a[0]))
        rec.case(op, "empty", d, [T(d, [0, 2], [])], lambda a, k: f(a[0]))


def make():
    rec = Recorder()
    for op in ("isnan", "isinf", "isfinite"):
        classify_cases(rec, op)
    addc_cases(rec, "addcmul")
    addc_cases(rec, "addcdiv")
    lerp_cases(rec)
    for op in BINARY:
        binary_cases(rec, op)
    for op in CLAMP:
        clamp_cases(rec, op)
    return {"family": "binary", **rec.result()}
