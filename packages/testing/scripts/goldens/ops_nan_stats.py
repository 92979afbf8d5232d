"""Goldens for the NaN-ignoring statistics (goldens/ops_nan_stats.json).

nansum nanmean (dim lists, keepdim, dtype), logcumsumexp, nanmedian (all elements and along a
dim), quantile nanquantile (a float or a 1-D tensor q, every interpolation), on every dtype
(errors where PyTorch refuses the dtype). The case format is described in _ops_common.py.
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, FLOATS, S, T, Recorder, edges, fill, gen_for, is_float  # noqa: E402
from ops_stats import MEDIAN_SAMPLES as MEDIAN_CASES, NAN_POOL, TIES_POOL  # noqa: E402

for _k in ("interpolation",):
    _ops_common.PY_KWARGS.setdefault(_k, _k)

NAN = math.nan
INF = math.inf
# a row of NaN only (rows of 4), finite values elsewhere
NAN_ROW_POOL = {f: [1.5, NAN, -2.0, 3.0, NAN, NAN, NAN, NAN, 2.0, 0.5, NAN, -1.0] for f in FLOATS}
LARGE_POOL = {f: [1000.0, 1000.5, -1000.0, 999.0, 88.5, 89.0, 90.0, -88.0, 1.0, 2.0, 3.0, 4.0] for f in FLOATS}
NEG_INF_POOL = {f: [-INF, -INF, -INF, -INF, 1.0, -INF, 2.0, -INF, INF, 1.0, -INF, 3.0] for f in FLOATS}


def q_input(d, q):
    """quantile's q: a JS number, or a tensor of the input's dtype (float32 for the others); a 0-dim one as ("0dim", v)."""
    qd = d if d in ("float32", "float64", "float16", "bfloat16") else "float32"
    if isinstance(q, tuple):
        return T(qd, [], [q[1]])
    if isinstance(q, list):
        return T(qd, [len(q)], q)
    return S(q)


def cases(rec, op, fn, samples, dtypes=ALL, upcast=False, float_acc=()):
    """`samples`: (id, shape, kwargs, pool) with pool None (random), "edges", a list or a per-dtype dict;
    a "q" kwarg becomes the second input."""
    for d in dtypes:
        for sample, shape, kwargs, pool in samples:
            p = edges(d) if pool == "edges" else pool
            if isinstance(p, dict):
                if d not in p:
                    continue
                p = p[d]
            g = gen_for(op, sample, d)
            vals = fill(d, shape, g, p, scale=2.0) if is_float(d) else fill(d, shape, g, p)
            kw = dict(kwargs)
            extra = [q_input(d, kw.pop("q"))] if "q" in kw else []
            rec.case(op, sample, d, [T(d, shape, vals), *extra], fn, kw, upcast=upcast, float_acc=float_acc)


def nan_reduce(name):
    f = getattr(torch, name)
    return lambda a, k: f(a[0], **k)


def logcumsumexp(a, k):
    return torch.logcumsumexp(a[0], **k)


def nanmedian(a, k):
    if "dim" in k:
        return tuple(torch.nanmedian(a[0], **k))
    return torch.nanmedian(a[0])


def quantile(name):
    f = getattr(torch, name)

    def run(a, k):
        return f(a[0], a[1], **k)

    return run


SUM_SAMPLES = [
    ("all", [3, 4], {}, "edges"),
    ("all-nan", [3, 4], {}, NAN_POOL),
    ("dim0", [3, 4], {"dim": 0}, NAN_POOL),
    ("dim1", [3, 4], {"dim": 1}, NAN_ROW_POOL),
    ("dim-neg", [2, 3, 4], {"dim": -1}, None),
    ("keepdim", [2, 3, 4], {"dim": 1, "keepdim": True}, None),
    ("dims", [2, 3, 4], {"dim": [0, 2]}, None),
    ("dims-keepdim", [2, 3, 4], {"dim": [-1, 0], "keepdim": True}, None),
    ("dtype-float64", [3, 4], {"dim": 1, "dtype": "float64"}, NAN_POOL),
    ("0dim", [], {}, None),
    ("empty-all", [0, 3], {}, None),
    ("empty-reduced-dim", [0, 3], {"dim": 0}, None),
    ("empty-kept-dim", [0, 3], {"dim": 1}, None),
]

LCSE_SAMPLES = [
    ("dim0", [3, 4], {"dim": 0}, None),
    ("dim1", [3, 4], {"dim": 1}, "edges"),
    ("dim-neg", [2, 3, 4], {"dim": -1}, None),
    ("long", [2, 70], {"dim": 1}, None),
    ("large", [3, 4], {"dim": 1}, LARGE_POOL),
    ("infinities", [3, 4], {"dim": 1}, NEG_INF_POOL),
    ("nan", [3, 4], {"dim": 1}, NAN_POOL),
    ("0dim", [], {"dim": 0}, None),
    ("empty", [0, 3], {"dim": 0}, None),
]

# nanmedian's cases are median's (ops_stats), with a tensor of NaN only after the one with some
_AFTER = [name for name, *_ in MEDIAN_CASES].index("all-nan") + 1
MEDIAN_SAMPLES = [*MEDIAN_CASES[:_AFTER], ("only-nan", [2, 2], {}, {f: [NAN] * 4 for f in FLOATS}), *MEDIAN_CASES[_AFTER:]]

QUANTILE_SAMPLES = [
    ("all", [3, 4], {"q": 0.25}, None),
    ("all-keepdim", [3, 4], {"q": 0.75, "keepdim": True}, None),
    ("dim1", [3, 4], {"q": 0.5, "dim": 1}, None),
    ("dim0-keepdim", [4, 3], {"q": 0.3, "dim": 0, "keepdim": True}, None),
    ("q-tensor", [3, 5], {"q": [0.0, 0.1, 0.5, 0.9, 1.0], "dim": 1}, None),
    ("q-tensor-all", [2, 3], {"q": [0.2, 0.8]}, None),
    ("q-tensor-keepdim", [2, 3, 4], {"q": [0.6, 0.4], "dim": -1, "keepdim": True}, None),
    ("q-0dim-tensor", [3, 4], {"q": ("0dim", 0.3), "dim": 0}, None),
    ("q-one", [3, 4], {"q": [0.3], "dim": 0}, None),
    ("nan", [3, 4], {"q": [0.3, 0.5], "dim": 1}, NAN_POOL),
    ("nan-row", [3, 4], {"q": 0.4, "dim": 1}, NAN_ROW_POOL),
    ("ties", [3, 4], {"q": [0.25, 0.5], "dim": 1}, {f: [float(v) for v in TIES_POOL] for f in FLOATS}),
    ("lower", [3, 5], {"q": [0.1, 0.35, 0.9], "dim": 1, "interpolation": "lower"}, NAN_ROW_POOL),
    ("higher", [3, 5], {"q": [0.1, 0.35, 0.9], "dim": 1, "interpolation": "higher"}, None),
    ("midpoint", [3, 5], {"q": [0.1, 0.35, 0.9], "dim": 1, "interpolation": "midpoint"}, NAN_ROW_POOL),
    ("nearest", [3, 5], {"q": [0.1, 0.125, 0.375, 0.9], "dim": 1, "interpolation": "nearest"}, None),
    ("0dim", [], {"q": 0.5}, None),
    ("0dim-dim", [], {"q": [0.5, 0.25], "dim": 0, "keepdim": True}, None),
    ("empty", [0, 3], {"q": 0.5, "dim": 1}, None),
    ("q-out-of-range", [3, 4], {"q": 1.5, "dim": 1}, None),
    ("q-tensor-out-of-range", [3, 4], {"q": [0.5, -0.25], "dim": 1}, None),
    ("bad-interpolation", [3, 4], {"q": 0.5, "dim": 1, "interpolation": "cubic"}, None),
]


def make():
    rec = Recorder()
    # nansum and sum share PyTorch's cascade_sum: 2.x accumulates Half/BFloat16 in float32
    cases(rec, "nansum", nan_reduce("nansum"), SUM_SAMPLES, float_acc=("float16", "bfloat16"))
    cases(rec, "nanmean", nan_reduce("nanmean"), SUM_SAMPLES, float_acc=("float16", "bfloat16"))
    cases(rec, "logcumsumexp", logcumsumexp, LCSE_SAMPLES, upcast=True)
    cases(rec, "nanmedian", nanmedian, MEDIAN_SAMPLES, upcast=True)
    cases(rec, "quantile", quantile("quantile"), QUANTILE_SAMPLES)
    cases(rec, "nanquantile", quantile("nanquantile"), QUANTILE_SAMPLES)
    return {"family": "nan_stats", **rec.result()}
