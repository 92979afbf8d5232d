"""Goldens for the pointwise ops of the OpInfo table (goldens/ops_pointwise.json).

Binary ops (add sub mul div div.trunc div.floor trueDivide floorDivide pow pow.Scalar remainder maximum
minimum eq ne lt le gt ge), unary ops (neg abs relu floor ceil exp log sqrt sin cos tanh
sigmoid rsqrt reciprocal square sign trunc frac exp2 expm1 log2 log10 log1p tan asin acos atan
sinh cosh erf erfc erfinv) and where, on every dtype. The case format is described in _ops_common.py.
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from _ops_common import (  # noqa: E402
    BINARY_SHAPES,
    ALL,
    FLOATS,
    INTS,
    S,
    T,
    Recorder,
    edges,
    fill,
    gen_for,
    is_float,
    shuffled,
)

# name -> (function, in-place or None, value policy, extra kwargs of every case)
BINARY = {
    "add": (lambda a, k: torch.add(a[0], a[1], **k), lambda a, k: a[0].add_(a[1], **k), "arith", {}),
    "sub": (lambda a, k: torch.sub(a[0], a[1], **k), lambda a, k: a[0].sub_(a[1], **k), "arith", {}),
    "mul": (lambda a, k: torch.mul(a[0], a[1]), lambda a, k: a[0].mul_(a[1]), "arith", {}),
    "div": (lambda a, k: torch.div(a[0], a[1], **k), lambda a, k: a[0].div_(a[1], **k), "div", {}),
    "div.trunc": (lambda a, k: torch.div(a[0], a[1], **k), lambda a, k: a[0].div_(a[1], **k), "div", {"roundingMode": "trunc"}),
    "div.floor": (lambda a, k: torch.div(a[0], a[1], **k), lambda a, k: a[0].div_(a[1], **k), "div", {"roundingMode": "floor"}),
    "trueDivide": (lambda a, k: torch.true_divide(a[0], a[1]), lambda a, k: a[0].true_divide_(a[1]), "div", {}),
    "floorDivide": (lambda a, k: torch.floor_divide(a[0], a[1]), lambda a, k: a[0].floor_divide_(a[1]), "div", {}),
    "pow": (lambda a, k: torch.pow(a[0], a[1]), lambda a, k: a[0].pow_(a[1]), "pow", {}),
    "remainder": (lambda a, k: torch.remainder(a[0], a[1]), lambda a, k: a[0].remainder_(a[1]), "div", {}),
    "maximum": (lambda a, k: torch.maximum(a[0], a[1]), None, "arith", {}),
    "minimum": (lambda a, k: torch.minimum(a[0], a[1]), None, "arith", {}),
}
for _cmp in ["eq", "ne", "lt", "le", "gt", "ge"]:
    BINARY[_cmp] = (
        (lambda n: lambda a, k: getattr(torch, n)(a[0], a[1]))(_cmp),
        (lambda n: lambda a, k: getattr(a[0], n + "_")(a[1]))(_cmp),
        "compare",
        {},
    )

UNARY = ["neg", "abs", "relu", "floor", "ceil", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid",
         "rsqrt", "reciprocal", "square", "sign", "trunc", "frac",
         "exp2", "expm1", "log2", "log10", "log1p",
         "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
         "erf", "erfc", "erfinv"]
# 1.13's CPU lacks their Half kernels; 2.x has them (see "reference": "upcast").
UPCAST = {"relu", "floor", "ceil", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid",
          "rsqrt", "trunc", "expm1", "log2", "log10", "log1p", "tan", "asin", "acos", "atan", "sinh", "cosh",
          "asinh", "acosh", "atanh", "erf", "erfc", "erfinv"}

# Floating inputs in the part of the domain where an op is interesting (sample "domain"):
# the random sample's N(0, 9) values mostly miss (-1, 1) and the tails of erf.
_UNIT = [-0.999999, -0.99, -0.9, -0.7, -0.69, -0.3, -1e-8, 0.0, 1e-8, 0.25, 0.5, 0.7, 0.71, 0.95, 0.9999, 0.999999999]
_SMALL = [-0.9, -0.5, -1e-5, -1e-10, 1e-12, 1e-6, 0.01, 0.5, 3.25, 20.5, -30.5, 88.5, -1e-300, 0.125]
_ERF = [-5.5, -3.2, -2.9, -1.3, -1.0, -0.9, -0.3, -1e-9, 1e-9, 0.2, 0.84, 0.85, 1.24, 1.26, 2.8, 2.9, 4.0, 5.9, 6.1, 10.5,
        26.5, 27.5, 30.5, -0.84375, 1.25, 0.5]
DOMAIN = {
    "asin": _UNIT, "acos": _UNIT, "erfinv": _UNIT,
    "log1p": _SMALL, "expm1": _SMALL,
    "erf": _ERF, "erfc": _ERF,
    "tan": [-1.5707963, 1.5707964, 1.57, -3.14159, 0.785398, 1e-7, -20.0, 100.25, 1e6],
    "asinh": [-1e20, -3.5, -0.75, -1e-8, 0.0, 1e-8, 0.125, 1.0, 10.5, 1e10, 3e38],
    "acosh": [0.5, 1.0, 1.0000001, 1.001, 1.5, 2.0, 10.5, 1e4, 1e20, 3e38],
    "atanh": _UNIT + [-1.0, 1.0, 1.5],
}

# Mixed-dtype operand pairs: (dtype a, dtype b, b is 0-dim). The case is filed under a's dtype.
PROMOTE = [
    ("int8", "uint8", False),
    ("uint8", "int8", True),
    ("int32", "float64", True),
    ("int64", "float32", False),
    ("bool", "int16", False),
    ("bool", "float32", True),
    ("float16", "bfloat16", False),
    ("float16", "float32", True),
    ("bfloat16", "int64", False),
    ("bfloat16", "float16", True),
    ("float32", "float64", False),
    ("float32", "float16", True),
    ("float64", "int32", True),
    ("int16", "int8", False),
    ("int8", "float16", False),
    ("uint8", "bool", True),
    ("int32", "int64", False),
    ("int64", "int16", True),
]

DIVISORS_INT = [1, 2, -2, 3, -3, 5, -7, 9, 100, -100]


def divisor_pool(name):
    if is_float(name):
        return None  # edges: division by ±0 and by ±inf are cases of their own
    if name == "bool":
        return [True]
    return [v for v in DIVISORS_INT if name != "uint8" or v > 0]


def operand(policy, role, name, shape, g):
    """Values for operand `role` ("a" or "b") of a binary op under `policy`."""
    if policy == "pow":
        if role == "a":
            pool = edges(name) if is_float(name) else [0, 1, -1, 2, -2, 3, -3, 7, 10]
            if name == "uint8":
                pool = [v for v in pool if v >= 0]
            lo, hi = (-3, 3) if name in ("int8", "int16", "int32", "int64") else (0, 3)
            return fill(name, shape, g, shuffled(pool, g), lo=lo, hi=hi)
        if is_float(name):
            pool = [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0, 0.25, math.nan, math.inf, -math.inf]
            return fill(name, shape, g, shuffled(pool, g), scale=1.5)
        return fill(name, shape, g, [0, 1, 2, 3, 4] if name != "bool" else None, lo=0, hi=4)
    if policy == "div" and role == "b":
        pool = divisor_pool(name)
        if pool is None:
            return fill(name, shape, g, shuffled(edges(name), g))
        return [pool[i % len(pool)] for i in torch.randperm(max(len(pool), math.prod(shape)), generator=g).tolist()][: math.prod(shape)]
    pool = edges(name)
    if role == "b":
        pool = shuffled(pool, g)
    return fill(name, shape, g, pool)


def binary_cases(rec, op):
    fn, inplace, policy, base_kw = BINARY[op]

    def case(sample, dtype, a, b, kwargs=None, variant=""):
        rec.case(op, sample, dtype, [a, b], fn, {**base_kw, **(kwargs or {})}, variant, inplace)

    def pair(sample, da, sa, db, sb, kwargs=None, variant=""):
        g = gen_for(op, sample, da, db, variant)
        a = T(da, sa, operand(policy, "a", da, sa, g))
        b = T(db, sb, operand(policy, "b", db, sb, g))
        case(sample, da, a, b, kwargs, variant)

    takes_scalars = op not in ("maximum", "minimum")
    for d in ALL:
        for sample, sa, sb in BINARY_SHAPES:
            pair(sample, d, sa, d, sb)
        if takes_scalars:
            g = gen_for(op, "scalar", d)
            a = T(d, [2, 3], operand(policy, "a", d, [2, 3], g))
            case("scalar-int", d, a, S(2 if policy == "pow" else 3))
            case("scalar-float", d, a, S(0.5 if policy == "pow" else 2.5))
            if d != "uint8":
                case("scalar-negative-int", d, a, S(-1 if policy == "pow" else -2))
    for da, db, zero_dim in PROMOTE:
        pair("promote", da, [2, 3], db, [] if zero_dim else [3], variant=f"{da}+{db}{'[]' if zero_dim else ''}")

    if op in ("add", "sub"):
        for d in ALL:
            pair("alpha-int", d, [3, 4], d, [3, 4], {"alpha": 2})
            pair("alpha-float", d, [3, 4], d, [3, 4], {"alpha": 0.5})
    if op in ("add", "sub", "mul"):
        for d in INTS:
            e = edges(d)
            lo, hi = min(e), max(e)
            a = T(d, [6], [hi, lo, hi - 1, lo + 1, hi, 100 if d != "uint8" else 200])
            b = T(d, [6], [1, 1, 2, 2, hi, 100 if d != "uint8" else 200] if d != "uint8" else [1, 1, 2, 2, 255, 200])
            if d == "int64":
                # results beyond 2^53 (stored as decimal strings) and products that wrap
                a = T(d, [6], [hi, lo, hi - 1, hi + 1, 3 * 2**40 + 7, 12345678901])
                b = T(d, [6], [hi, lo, 2, hi + 3, -(2**30) - 1, 98765432109])
            case("overflow", d, a, b)
    if policy == "div":
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
    if op == "pow":
        # PyTorch computes these scalar exponents as sqrt, rsqrt, square, cube and reciprocal,
        # which differ from C's pow at -inf and -0 (pow(-inf, 0.5) is nan, not inf).
        for d in ALL:
            e = edges(d)
            for exponent, name in [(0.5, "sqrt"), (-0.5, "rsqrt"), (2, "square"), (3, "cube"), (-1, "reciprocal"), (-2, "reciprocal-square")]:
                case("scalar-special", d, T(d, [len(e)], e), S(exponent), variant=name)
        for d in ["int8", "int16", "int32", "int64"]:
            case("negative-exponent", d, T(d, [6], [1, -1, -1, 2, -2, 3]), T(d, [6], [-1, -2, -3, -1, -2, -3]))
        for d in INTS:
            base = [2, 3, 7, 5] if d == "uint8" else [2, -3, 7, -5]
            exps = [62, 41, 30, 27] if d == "int64" else [7, 5, 9, 20]
            case("overflow", d, T(d, [4], base), T(d, [4], exps))
    if policy == "compare" or op in ("maximum", "minimum"):
        nan, inf = math.nan, math.inf
        for d in FLOATS:
            case("nan", d, T(d, [8], [nan, nan, 1, inf, -inf, 0, -0.0, inf]),
                 T(d, [8], [nan, 1, nan, inf, inf, -0.0, 0, nan]))
        if policy == "compare":
            for d in ALL:
                g = gen_for(op, "ties", d)
                vals = operand(policy, "a", d, [12], g)
                other = [v if i % 3 else vals[(i + 5) % 12] for i, v in enumerate(vals)]
                case("ties", d, T(d, [12], vals), T(d, [12], other))
            for d in FLOATS:
                case("scalar-nan", d, T(d, [3], [1, math.nan, 0]), S(math.nan))


def unary_cases(rec, op):
    fn = getattr(torch, op)

    def inplace(a, k):
        return getattr(a[0], op + "_")()

    upcast = op in UPCAST
    for d in ALL:
        g = gen_for(op, d)
        e = edges(d)
        rec.case(op, "edge", d, [T(d, [len(e)], e)], lambda a, k: fn(a[0]), inplace=inplace, upcast=upcast)
        rec.case(op, "random", d, [T(d, [3, 4], fill(d, [3, 4], g))], lambda a, k: fn(a[0]), inplace=inplace, upcast=upcast)
        rec.case(op, "0dim", d, [T(d, [], fill(d, [], g, [e[4]]))], lambda a, k: fn(a[0]), inplace=inplace, upcast=upcast)
        rec.case(op, "empty", d, [T(d, [0, 2], [])], lambda a, k: fn(a[0]), inplace=inplace, upcast=upcast)
    for d in FLOATS if op in DOMAIN else []:
        vals = DOMAIN[op]
        rec.case(op, "domain", d, [T(d, [len(vals)], vals)], lambda a, k: fn(a[0]), inplace=inplace, upcast=upcast)


def where_cases(rec):
    def fn(a, k):
        return torch.where(a[0], a[1], a[2])

    def case(sample, dtype, cshape, x, y, variant=""):
        g = gen_for("where-cond", sample, dtype, variant)
        cond = T("bool", cshape, fill("bool", cshape, g))
        rec.case("where", sample, dtype, [cond, x, y], fn, variant=variant)

    for d in ALL:
        g = gen_for("where", d)
        case("same-shape", d, [3, 4], T(d, [3, 4], fill(d, [3, 4], g, edges(d))), T(d, [3, 4], fill(d, [3, 4], g)))
        case("broadcast", d, [3, 1], T(d, [1, 4], fill(d, [1, 4], g)), T(d, [], fill(d, [], g)))
        case("scalar-int", d, [2, 3], T(d, [2, 3], fill(d, [2, 3], g)), S(2))
        case("scalar-float", d, [2, 3], T(d, [2, 3], fill(d, [2, 3], g)), S(2.5))
        case("empty", d, [0, 3], T(d, [0, 3], []), T(d, [3], fill(d, [3], g)))
    for da, db, zero_dim in PROMOTE:
        g = gen_for("where-promote", da, db)
        sb = [] if zero_dim else [3]
        case("promote", da, [2, 3], T(da, [2, 3], fill(da, [2, 3], g)), T(db, sb, fill(db, sb, g)),
             variant=f"{da}+{db}{'[]' if zero_dim else ''}")


def pow_scalar_cases(rec):
    """pow.Scalar: a number base to a tensor exponent, torch.pow(2, x) (no in-place form)."""
    def fn(a, k):
        return torch.pow(a[0], a[1])

    for d in ALL:
        for sample, base in [("scalar-base-int", 2), ("scalar-base-float", 0.5), ("scalar-base-zero", 0), ("scalar-base-negative", -2)]:
            g = gen_for("pow.Scalar", sample, d)
            rec.case("pow.Scalar", sample, d, [S(base), T(d, [2, 3], operand("pow", "b", d, [2, 3], g))], fn)
        rec.case("pow.Scalar", "empty", d, [S(2), T(d, [0, 3], [])], fn)


def number_self_cases(rec):
    """A number self where PyTorch's parser allows one (torch.sub(1, p)): add sub mul div, as
    `<op>.numberSelf` (only the function and out= forms take it)."""
    for op in ["add", "sub", "mul", "div"]:
        fn, _, policy, _ = BINARY[op]
        name = op + ".numberSelf"
        for d in ALL:
            g = gen_for(name, d)
            b = T(d, [2, 3], operand(policy, "b", d, [2, 3], g))
            rec.case(name, "scalar-int", d, [S(3), b], fn)
            rec.case(name, "scalar-float", d, [S(2.5), b], fn)
            if op in ("add", "sub"):
                rec.case(name, "alpha", d, [S(3), b], fn, {"alpha": 2})


def make():
    rec = Recorder()
    for op in BINARY:
        binary_cases(rec, op)
    pow_scalar_cases(rec)
    number_self_cases(rec)
    for op in UNARY:
        unary_cases(rec, op)
    where_cases(rec)
    return {"family": "pointwise", **rec.result()}
