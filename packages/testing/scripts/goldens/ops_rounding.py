"""Goldens for round, with and without decimals (goldens/ops_rounding.json).

Half, which 1.13's CPU kernels lack and 2.x has, is computed on float32 copies
("reference": "upcast"). The case format is described in _ops_common.py.
"""
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, FLOATS, T, Recorder, edges, fill, gen_for  # noqa: E402

_ops_common.PY_KWARGS.update({"decimals": "decimals"})

# ties at every scale, both signs, and values whose scaled product rounds in float32
TIES = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, 1.25, 1.35, -1.35, 2.675, 123.456, -987.65, 1e-3, 1e7 + 0.5,
        4503599627370497.0, 1e30, -0.0]


def fn(a, k):
    return torch.round(a[0], **k)


def inplace(a, k):
    return a[0].round_(**k)


def make():
    rec = Recorder()
    kw = {"inplace": inplace, "upcast": True}
    for d in ALL:
        g = gen_for("round", d)
        e = edges(d)
        rec.case("round", "edge", d, [T(d, [len(e)], e)], fn, **kw)
        rec.case("round", "random", d, [T(d, [3, 4], fill(d, [3, 4], g))], fn, **kw)
        rec.case("round", "0dim", d, [T(d, [], fill(d, [], g, [e[4]]))], fn, **kw)
        rec.case("round", "empty", d, [T(d, [0, 2], [])], fn, **kw)
        vals = TIES if d in FLOATS else e
        for decimals in (0, 1, 2, -1, -2):
            rec.case("round", f"decimals{decimals}", d, [T(d, [len(vals)], vals)], fn, kwargs={"decimals": decimals}, **kw)
    for d in FLOATS:
        rec.case("round", "ties", d, [T(d, [len(TIES)], TIES)], fn, **kw)
    return {"family": "rounding", **rec.result()}
