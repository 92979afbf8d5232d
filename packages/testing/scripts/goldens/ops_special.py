"""Goldens for the special functions of the OpInfo table (goldens/ops_special.json).

lgamma digamma i0 sinc (torch.* with methods and in-place forms), polygamma and mvlgamma
(with their integer argument), and torch.special's own entr ndtri log_ndtr erfcx i0e i1 i1e
(keyed by the op table's names, specialEntr...), on every dtype. Half (and the BFloat16 that
1.13's CPU lacks for some) are computed on float32 copies ("reference": "upcast"). The case
format is described in _ops_common.py.
"""
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, FLOATS, T, Recorder, edges, fill, gen_for  # noqa: E402

_ops_common.PY_KWARGS.update({"n": "n", "p": "p"})

S = torch.special
# name -> (function, in-place or None)
OPS = {
    "lgamma": (lambda a, k: torch.lgamma(a[0]), lambda a, k: a[0].lgamma_()),
    "digamma": (lambda a, k: torch.digamma(a[0]), lambda a, k: a[0].digamma_()),
    "i0": (lambda a, k: torch.i0(a[0]), lambda a, k: a[0].i0_()),
    "sinc": (lambda a, k: torch.sinc(a[0]), lambda a, k: a[0].sinc_()),
    "polygamma": (lambda a, k: torch.polygamma(k["n"], a[0]), lambda a, k: a[0].polygamma_(k["n"])),
    "mvlgamma": (lambda a, k: torch.mvlgamma(a[0], k["p"]), lambda a, k: a[0].mvlgamma_(k["p"])),
    "specialEntr": (lambda a, k: S.entr(a[0]), None),
    "specialNdtri": (lambda a, k: S.ndtri(a[0]), None),
    "specialLogNdtr": (lambda a, k: S.log_ndtr(a[0]), None),
    "specialErfcx": (lambda a, k: S.erfcx(a[0]), None),
    "specialI0e": (lambda a, k: S.i0e(a[0]), None),
    "specialI1": (lambda a, k: S.i1(a[0]), None),
    "specialI1e": (lambda a, k: S.i1e(a[0]), None),
    "specialNdtr": (lambda a, k: S.ndtr(a[0]), None),
}
# the integer argument of every case (polygamma's n, mvlgamma's p), and the others tried
BASE = {"polygamma": {"n": 1}, "mvlgamma": {"p": 1}}
OPTIONS = {"polygamma": [{"n": 0}, {"n": 2}, {"n": 3}], "mvlgamma": [{"p": 3}]}

# Floating inputs where each op is interesting (sample "domain"): the poles, the zeros, the
# switch points of the algorithms, the tails.
_GAMMA = [-3.5, -2.5, -1.5, -0.5, -1e-8, 1e-8, 0.1, 0.5, 0.999, 1.0, 1.4616, 2.0, 2.001, 3.5, 6.9, 7.1, 9.9, 10.1, 25.5, 171.5, 1e10]
_BESSEL = [-50.0, -21.0, -19.0, -5.0, -1.0, -1e-6, 1e-6, 0.25, 1.0, 3.75, 8.0, 14.9, 15.1, 19.9, 20.1, 30.0, 80.0, 90.0, 700.0, 1e5]
_PROB = [0.0, 1e-30, 1e-10, 1e-4, 0.01, 0.1, 0.2499, 0.25, 0.3, 0.5, 0.7, 0.75, 0.7501, 0.9, 0.99, 0.9999, 1.0, -0.1, 1.1]
_TAIL = [-40.0, -30.0, -26.0, -10.0, -5.0, -3.0, -1.01, -1.0, -0.99, -0.5, 0.0, 0.5, 1.0, 2.9, 3.1, 5.0, 9.9, 10.1, 26.0, 30.0, 1e5]
DOMAIN = {
    "lgamma": _GAMMA, "digamma": _GAMMA, "polygamma": _GAMMA, "mvlgamma": [1.01, 1.5, 2.0, 2.5, 3.0, 5.5, 10.0, 100.0],
    "i0": _BESSEL, "specialI0e": _BESSEL, "specialI1": _BESSEL, "specialI1e": _BESSEL,
    "sinc": [-2.5, -1.0, -0.5, -1e-4, 1e-4, 0.25, 0.5, 1.0, 1.5, 10.0, 1000.25],
    "specialEntr": [0.0, 1e-30, 1e-3, 0.1, 0.3678794, 0.5, 1.0, 2.0, 100.0, -1e-3],
    "specialNdtri": _PROB, "specialLogNdtr": _TAIL, "specialErfcx": _TAIL, "specialNdtr": _TAIL,
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


def make():
    rec = Recorder()
    for op in OPS:
        cases(rec, op)
    return {"family": "special", **rec.result()}
