"""Goldens for the special functions of the OpInfo table (goldens/ops_special.json).

lgamma digamma i0 sinc (torch.* with methods and in-place forms), polygamma and mvlgamma
(with their integer argument), torch.special's own entr ndtri log_ndtr erfcx i0e i1 i1e ndtr
(keyed by the op table's names, specialEntr...), its Bessel functions (specialBesselJ0...), and the binary xlogy, special.xlog1py and
special.zeta and igamma / igammac (torch.special.gammainc / gammaincc) with the samples of ops_binary.py, their number-self overloads (`xlogy.Scalar`...)
and the pairs where each is defined specially, on every dtype. Half (and the BFloat16 that
1.13's CPU lacks for some) are computed on float32 copies ("reference": "upcast"). The case
format is described in _ops_common.py.
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, BINARY_SHAPES, FLOATS, S, T, Recorder, edges, fill, gen_for  # noqa: E402
from ops_pointwise import PROMOTE, operand  # noqa: E402

_ops_common.PY_KWARGS.update({"n": "n", "p": "p"})

SP = torch.special
# name -> (function, in-place or None)
OPS = {
    "lgamma": (lambda a, k: torch.lgamma(a[0]), lambda a, k: a[0].lgamma_()),
    "digamma": (lambda a, k: torch.digamma(a[0]), lambda a, k: a[0].digamma_()),
    "i0": (lambda a, k: torch.i0(a[0]), lambda a, k: a[0].i0_()),
    "sinc": (lambda a, k: torch.sinc(a[0]), lambda a, k: a[0].sinc_()),
    "polygamma": (lambda a, k: torch.polygamma(k["n"], a[0]), lambda a, k: a[0].polygamma_(k["n"])),
    "mvlgamma": (lambda a, k: torch.mvlgamma(a[0], k["p"]), lambda a, k: a[0].mvlgamma_(k["p"])),
    "specialEntr": (lambda a, k: SP.entr(a[0]), None),
    "specialNdtri": (lambda a, k: SP.ndtri(a[0]), None),
    "specialLogNdtr": (lambda a, k: SP.log_ndtr(a[0]), None),
    "specialErfcx": (lambda a, k: SP.erfcx(a[0]), None),
    "specialI0e": (lambda a, k: SP.i0e(a[0]), None),
    "specialI1": (lambda a, k: SP.i1(a[0]), None),
    "specialI1e": (lambda a, k: SP.i1e(a[0]), None),
    "specialNdtr": (lambda a, k: SP.ndtr(a[0]), None),
    # the Bessel functions (no derivative in PyTorch)
    "specialBesselJ0": ((lambda f: lambda a, k: f(a[0]))(SP.bessel_j0), None),
    "specialBesselJ1": ((lambda f: lambda a, k: f(a[0]))(SP.bessel_j1), None),
    "specialBesselY0": ((lambda f: lambda a, k: f(a[0]))(SP.bessel_y0), None),
    "specialBesselY1": ((lambda f: lambda a, k: f(a[0]))(SP.bessel_y1), None),
    "specialModifiedBesselI0": ((lambda f: lambda a, k: f(a[0]))(SP.modified_bessel_i0), None),
    "specialModifiedBesselI1": ((lambda f: lambda a, k: f(a[0]))(SP.modified_bessel_i1), None),
    "specialModifiedBesselK0": ((lambda f: lambda a, k: f(a[0]))(SP.modified_bessel_k0), None),
    "specialModifiedBesselK1": ((lambda f: lambda a, k: f(a[0]))(SP.modified_bessel_k1), None),
    "specialScaledModifiedBesselK0": ((lambda f: lambda a, k: f(a[0]))(SP.scaled_modified_bessel_k0), None),
    "specialScaledModifiedBesselK1": ((lambda f: lambda a, k: f(a[0]))(SP.scaled_modified_bessel_k1), None),
    "specialSphericalBesselJ0": ((lambda f: lambda a, k: f(a[0]))(SP.spherical_bessel_j0), None),
}
# the integer argument of every case (polygamma's n, mvlgamma's p), and the others tried
BASE = {"polygamma": {"n": 1}, "mvlgamma": {"p": 1}}
OPTIONS = {"polygamma": [{"n": 0}, {"n": 2}, {"n": 3}], "mvlgamma": [{"p": 3}]}

# Floating inputs where each op is interesting (sample "domain"): the poles, the zeros, the
# switch points of the algorithms, the tails.
_GAMMA = [-3.5, -2.5, -1.5, -0.5, -1e-8, 1e-8, 0.1, 0.5, 0.999, 1.0, 1.4616, 2.0, 2.001, 3.5, 6.9, 7.1, 9.9, 10.1, 25.5, 171.5, 1e10]
_BESSEL = [-50.0, -21.0, -19.0, -5.0, -1.0, -1e-6, 1e-6, 0.25, 1.0, 1.99, 2.01, 3.75, 8.0, 11.9, 12.1, 14.9, 15.1, 19.9, 20.1, 24.9,
           25.1, 30.0, 80.0, 90.0, 700.0, 1e5]
_PROB = [0.0, 1e-30, 1e-10, 1e-4, 0.01, 0.1, 0.2499, 0.25, 0.3, 0.5, 0.7, 0.75, 0.7501, 0.9, 0.99, 0.9999, 1.0, -0.1, 1.1]
_TAIL = [-40.0, -30.0, -26.0, -10.0, -5.0, -3.0, -1.01, -1.0, -0.99, -0.5, 0.0, 0.5, 1.0, 2.9, 3.1, 5.0, 9.9, 10.1, 26.0, 30.0, 1e5]
DOMAIN = {
    "lgamma": _GAMMA, "digamma": _GAMMA, "polygamma": _GAMMA, "mvlgamma": [1.01, 1.5, 2.0, 2.5, 3.0, 5.5, 10.0, 100.0],
    "i0": _BESSEL, "specialI0e": _BESSEL, "specialI1": _BESSEL, "specialI1e": _BESSEL,
    "sinc": [-2.5, -1.0, -0.5, -1e-4, 1e-4, 0.25, 0.5, 1.0, 1.5, 10.0, 1000.25],
    "specialEntr": [0.0, 1e-30, 1e-3, 0.1, 0.3678794, 0.5, 1.0, 2.0, 100.0, -1e-3],
    "specialNdtri": _PROB, "specialLogNdtr": _TAIL, "specialErfcx": _TAIL, "specialNdtr": _TAIL,
    "specialBesselJ0": _BESSEL,
    "specialBesselJ1": _BESSEL,
    "specialBesselY0": _BESSEL,
    "specialBesselY1": _BESSEL,
    "specialModifiedBesselI0": _BESSEL,
    "specialModifiedBesselI1": _BESSEL,
    "specialModifiedBesselK0": _BESSEL,
    "specialModifiedBesselK1": _BESSEL,
    "specialScaledModifiedBesselK0": _BESSEL,
    "specialScaledModifiedBesselK1": _BESSEL,
    "specialSphericalBesselJ0": _BESSEL,
}


def cases(rec, op):
    fn, inplace = OPS[op]
    kw = {"inplace": inplace, "upcast": True}
    base = BASE.get(op, {})
    for d in ALL:
        g = gen_for(op, d)
        e = edges(d)
        rec.case(op, "edge", d, [T(d, [len(e)], e)], fn, kwargs=base, **kw)
        rec.case(op, "random", d, [T(d, [3, 4], fill(d, [3, 4], g))], fn, kwargs=base, **kw)
        rec.case(op, "0dim", d, [T(d, [], fill(d, [], g, [e[4]]))], fn, kwargs=base, **kw)
        rec.case(op, "empty", d, [T(d, [0, 2], [])], fn, kwargs=base, **kw)
    for d in FLOATS:
        vals = DOMAIN[op]
        rec.case(op, "domain", d, [T(d, [len(vals)], vals)], fn, kwargs=base, **kw)
        for i, o in enumerate(OPTIONS.get(op, [])):
            rec.case(op, "options", d, [T(d, [len(vals)], vals)], fn, kwargs=o, variant=str(i), **kw)


# name -> (function, in-place or None)
BINARY = {
    "xlogy": (lambda a, k: torch.xlogy(a[0], a[1]), lambda a, k: a[0].xlogy_(a[1])),
    "specialXlog1py": (lambda a, k: SP.xlog1py(a[0], a[1]), None),
    "specialZeta": (lambda a, k: SP.zeta(a[0], a[1]), None),
    "igamma": (lambda a, k: torch.igamma(a[0], a[1]), lambda a, k: a[0].igamma_(a[1])),
    "igammac": (lambda a, k: torch.igammac(a[0], a[1]), lambda a, k: a[0].igammac_(a[1])),
}
# ops without PyTorch's Scalar overloads
NO_SCALARS = {"igamma", "igammac"}
nan, inf = math.nan, math.inf
# (self, other) pairs where each op is defined specially: xlogy(0, 0) = 0, xlogy(0, nan) = nan,
# zeta's domain (x = 1, x < 1, q a non-positive integer, non-integer x with q <= 0)
PAIRS = {
    "xlogy": ([0.0, 0.0, 0.0, 0.0, -0.0, 1.0, 2.5, -3.0, 1e-3, nan, 2.0, 0.5],
              [0.0, nan, inf, -1.0, 2.0, 0.0, -1.0, inf, 1e-300, 1.0, 0.5, 3.0]),
    "specialXlog1py": ([0.0, 0.0, 0.0, 0.0, 1.0, 2.5, -3.0, 1e-3, nan, 2.0, 0.5, 3.0],
                       [0.0, nan, inf, -1.0, -1.0, -2.0, inf, 1e-10, 1.0, 0.5, 3.0, -0.5]),
    "specialZeta": ([1.0, 0.5, 2.0, 2.0, 2.0, 3.0, 3.0, 2.5, 1.5, 4.0, 10.0, 1.1, 50.0, 2.0, 3.0, 2.0],
                    [1.0, 1.0, 0.0, -1.0, -1.5, -1.5, -2.5, -1.5, 0.5, 2.0, 10.0, 3.3, 1.0, 1e-3, 100.0, inf]),
    # the edges, the series and the continued fraction around x = a + 1, and large a
    "igamma": ([0.0, 0.0, -1.0, 1.0, 1.0, inf, inf, 2.0, 0.5, 0.5, 2.5, 10.0, 10.0, 100.0, 100.0, 1e4, 1e5, 2e6, 1e-5, 50.0, 0.1, 5.0],
               [0.0, 1.0, 1.0, -1.0, 0.0, 1.0, inf, inf, 0.1, 2.0, 3.5, 9.0, 12.0, 90.0, 130.0, 1.01e4, 1.003e5, 2.001e6, 3.0, 1e-3, 30.0, 0.5]),
}
PAIRS["igammac"] = PAIRS["igamma"]


def binary_cases(rec, op):
    fn, inplace = BINARY[op]
    kw = {"inplace": inplace, "upcast": True}

    def pair(sample, da, sa, db, sb, variant=""):
        g = gen_for(op, sample, da, db, variant)
        rec.case(op, sample, da, [T(da, sa, operand("arith", "a", da, sa, g)), T(db, sb, operand("arith", "b", db, sb, g))], fn, variant=variant, **kw)

    for d in ALL:
        for sample, sa, sb in BINARY_SHAPES:
            pair(sample, d, sa, d, sb)
        if op in NO_SCALARS:
            continue
        g = gen_for(op, "scalar", d)
        a = T(d, [2, 3], operand("arith", "a", d, [2, 3], g))
        rec.case(op, "scalar-int", d, [a, S(3)], fn, **kw)
        rec.case(op, "scalar-float", d, [a, S(2.5)], fn, **kw)
        if d != "uint8":
            rec.case(op, "scalar-negative-int", d, [a, S(-2)], fn, **kw)
    for da, db, zero_dim in PROMOTE:
        pair("promote", da, [2, 3], db, [] if zero_dim else [3], variant=f"{da}+{db}{'[]' if zero_dim else ''}")
    xs, ys = PAIRS[op]
    for d in FLOATS:
        rec.case(op, "values", d, [T(d, [len(xs)], xs), T(d, [len(ys)], ys)], fn, **kw)
    if op in NO_SCALARS:
        return
    # the number-self overload (xlogy.Scalar_Self): function and out= forms only
    name = op + ".Scalar"
    for d in ALL:
        g = gen_for(name, d)
        b = T(d, [2, 3], operand("arith", "b", d, [2, 3], g))
        rec.case(name, "scalar-int", d, [S(3), b], fn, upcast=True)
        rec.case(name, "scalar-float", d, [S(2.5), b], fn, upcast=True)
        rec.case(name, "scalar-zero", d, [S(0), b], fn, upcast=True)


def make():
    rec = Recorder()
    for op in OPS:
        cases(rec, op)
    for op in BINARY:
        binary_cases(rec, op)
    return {"family": "special", **rec.result()}
