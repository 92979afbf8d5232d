"""Goldens for the statistics reductions and scans (goldens/ops_stats.json).

var std varMean stdMean (correction / unbiased), logsumexp, norm (torch.linalg.vector_norm,
which PyTorch 2.x's torch.norm calls for number orders and 'fro'), all any (dim lists as in
2.x), countNonzero, median (global and along a dim), mode, cumsum cumprod (dtype, in-place)
and cummax cummin, on every dtype (errors where PyTorch's CPU kernel refuses the dtype).
The case format is described in _ops_common.py.
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, FLOATS, INTS, T, Recorder, edges, fill, gen_for, is_float  # noqa: E402
from _dtypes import DTYPES  # noqa: E402

# kwargs these ops add, spelled the same in torch-ts and Python (`p` is mapped below)
for _k in ("correction", "unbiased", "p"):
    _ops_common.PY_KWARGS.setdefault(_k, _k)

NAN = math.nan
INF = math.inf
NAN_POOL = {f: [1.0, NAN, -2.0, 3.0, INF, 0.5, -INF, 2.0, NAN, -1.0, 0.0, 4.0] for f in FLOATS}
TIES_POOL = [3, 1, 3, 0, 1, 3, 1, 3, 2, 2, 0, 0]
ZEROS_POOL = {d: ([0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0] if d != "bool" else [False, False, True] + [False] * 9) for d in ALL}
# values that overflow exp() unless the max is subtracted first
LARGE_POOL = {f: [1000.0, 1000.5, -1000.0, 999.0, 88.5, 89.0, 90.0, -88.0, 1.0, 2.0, 3.0, 4.0] for f in FLOATS}
NEG_INF_POOL = {f: [-INF, -INF, -INF, -INF, 1.0, -INF, 2.0, -INF, INF, 1.0, -INF, 3.0] for f in FLOATS}


def values(d, shape, g, pool=None, small=False):
    if small:
        # a few distinct values, so that modes and ties are common
        if d == "bool":
            return fill(d, shape, g, pool)
        return fill(d, shape, g, pool, lo=0, hi=3) if not is_float(d) else [float(int(abs(v)) % 4) for v in fill(d, shape, g, pool, scale=3.0)]
    if is_float(d):
        return fill(d, shape, g, pool, scale=2.0)
    return fill(d, shape, g, pool)


def cases(rec, op, fn, samples, dtypes=ALL, upcast=False, inplace=None, small=False, float_acc=()):
    """`samples`: (id, shape, kwargs, pool) with pool None (random), "edges", a list or a per-dtype dict."""
    for d in dtypes:
        for sample, shape, kwargs, pool in samples:
            p = edges(d) if pool == "edges" else pool
            if isinstance(p, dict):
                if d not in p:
                    continue
                p = p[d]
            vals = values(d, shape, gen_for(op, sample, d), p, small)
            kw = {k: (d if v == "same" else v) for k, v in kwargs.items()}
            rec.case(op, sample, d, [T(d, shape, vals)], fn, kw, upcast=upcast, inplace=inplace, float_acc=float_acc)


# ---- calls ----
def var_like(name):
    f = getattr(torch, name)

    def run(a, k):
        k = dict(k)
        dim = k.pop("dim", None)
        if "unbiased" in k:
            return f(a[0], dim, unbiased=k["unbiased"], keepdim=k.get("keepdim", False)) if dim is not None else f(a[0], unbiased=k["unbiased"])
        return f(a[0], dim, **k)

    return run


def logsumexp(a, k):
    return torch.logsumexp(a[0], **k)


def _ord(p):
    if p is None or p == "fro":
        return 2
    if p in ("inf", "-inf"):
        return float(p)
    return p


def norm(a, k):
    k = dict(k)
    return torch.linalg.vector_norm(a[0], _ord(k.pop("p", None)), **k)


def logical(name):
    f = getattr(torch, name)

    def run(a, k):
        dim = k.get("dim")
        keepdim = k.get("keepdim", False)
        x = a[0]
        if dim is None:
            r = f(x)
            return r.reshape([1] * x.dim()) if keepdim else r
        if isinstance(dim, int):
            return f(x, dim, keepdim)
        # PyTorch 2.x reduces a list of dims (1.13 takes one): the same, one dim at a time
        for d in sorted((d % max(x.dim(), 1) for d in dim), reverse=True):
            x = f(x, d, True)
        if not keepdim:
            for d in sorted((d % max(a[0].dim(), 1) for d in dim), reverse=True):
                x = x.squeeze(d)
        return x

    return run


def count_nonzero(a, k):
    return torch.count_nonzero(a[0], **k)


def median(a, k):
    if "dim" in k:
        return tuple(torch.median(a[0], **k))
    return torch.median(a[0])


def mode(a, k):
    return tuple(torch.mode(a[0], **k))


HALVES = (torch.float16, torch.bfloat16)


def _upcast_dtype(a, k):
    """On the float32 copies of an upcast case, `dtype=float16` means the float32 scan cast back."""
    if k.get("dtype") in HALVES and a[0].dtype == torch.float32:
        return {**k, "dtype": torch.float32}, k["dtype"]
    return k, None


def scan(name):
    def run(a, k):
        k, back = _upcast_dtype(a, k)
        r = getattr(torch, name)(a[0], **k)
        return r if back is None else r.to(back)

    return run


def scan_(name):
    return lambda a, k: getattr(a[0], name + "_")(**_upcast_dtype(a, k)[0])


def cum_extremum(name):
    return lambda a, k: tuple(getattr(torch, name)(a[0], **k))


# ---- samples ----
VAR_SAMPLES = [
    ("all", [3, 4], {}, "edges"),
    ("all-random", [4, 5], {}, None),
    ("dim0", [3, 4], {"dim": 0}, None),
    ("dim1", [3, 4], {"dim": 1}, "edges"),
    ("dim-neg", [2, 3, 4], {"dim": -1}, None),
    ("keepdim", [2, 3, 4], {"dim": 1, "keepdim": True}, None),
    ("dims", [2, 3, 4], {"dim": [0, 2]}, None),
    ("dims-keepdim", [2, 3, 4], {"dim": [-1, 0], "keepdim": True}, None),
    ("correction0", [3, 4], {"dim": 1, "correction": 0}, None),
    ("correction2", [3, 4], {"dim": 0, "correction": 2}, None),
    ("correction-big", [2, 3], {"dim": 0, "correction": 3}, None),
    ("unbiased-false", [3, 4], {"dim": 1, "unbiased": False}, None),
    ("unbiased-all", [3, 4], {"unbiased": False}, None),
    ("single", [1, 3], {"dim": 0}, None),
    ("0dim", [], {}, None),
    ("empty-reduced-dim", [0, 3], {"dim": 0}, None),
    ("empty-kept-dim", [0, 3], {"dim": 1}, None),
    ("nan", [3, 4], {"dim": 1}, NAN_POOL),
]
VAR_MEAN_SAMPLES = [s for s in VAR_SAMPLES if s[0] in ("all", "dim0", "keepdim", "dims", "correction0", "unbiased-false", "0dim", "empty-reduced-dim", "nan")]

LSE_SAMPLES = [
    ("dim1", [3, 4], {"dim": 1}, "edges"),
    ("dim0", [3, 4], {"dim": 0}, None),
    ("dim-neg", [2, 3, 4], {"dim": -1}, None),
    ("keepdim", [2, 3, 4], {"dim": 1, "keepdim": True}, None),
    ("dims", [2, 3, 4], {"dim": [0, 2]}, None),
    ("dims-all", [2, 3], {"dim": [0, 1]}, None),
    ("large", [3, 4], {"dim": 1}, LARGE_POOL),
    ("infinities", [3, 4], {"dim": 1}, NEG_INF_POOL),
    ("nan", [3, 4], {"dim": 1}, NAN_POOL),
    ("0dim-dim", [], {"dim": 0}, None),
    ("empty-reduced-dim", [0, 3], {"dim": 0}, None),
    ("empty-kept-dim", [0, 3], {"dim": 1}, None),
]

NORM_SAMPLES = [
    ("p2-all", [3, 4], {}, "edges"),
    ("p2-all-random", [4, 5], {}, None),
    ("p2-dim", [3, 4], {"dim": 1}, None),
    ("p1", [3, 4], {"p": 1, "dim": 0}, None),
    ("p0", [3, 4], {"p": 0, "dim": 1}, ZEROS_POOL),
    ("pinf", [3, 4], {"p": "inf", "dim": 1}, None),
    ("pinf-edges", [3, 4], {"p": "inf", "dim": 1}, "edges"),
    ("p-inf", [3, 4], {"p": "-inf", "dim": 0}, None),
    ("p3", [2, 3, 4], {"p": 3, "dim": [0, 2]}, None),
    ("p0.5", [3, 4], {"p": 0.5, "dim": 1}, None),
    ("p-1.5", [3, 4], {"p": -1.5, "dim": 1}, None),
    ("p1.5", [3, 4], {"p": 1.5}, None),
    ("fro", [2, 3, 4], {"p": "fro", "dim": [1, 2]}, None),
    ("keepdim", [2, 3, 4], {"dim": 1, "keepdim": True}, None),
    ("dtype-float64", [3, 4], {"dim": 1, "dtype": "float64"}, None),
    ("nan", [3, 4], {"dim": 1}, NAN_POOL),
    ("0dim", [], {}, None),
    ("empty-reduced-dim", [0, 3], {"dim": 0}, None),
    ("empty-kept-dim", [0, 3], {"dim": 1}, None),
    ("empty-inf", [0, 3], {"p": "inf", "dim": 0}, None),
]

LOGICAL_SAMPLES = [
    ("all", [3, 4], {}, "edges"),
    ("all-keepdim", [3, 4], {"keepdim": True}, "edges"),
    ("dim0", [3, 4], {"dim": 0}, None),
    ("dim1", [3, 4], {"dim": 1}, "edges"),
    ("keepdim", [2, 3, 4], {"dim": 1, "keepdim": True}, None),
    ("dims", [2, 3, 4], {"dim": [0, 2]}, ZEROS_POOL),
    ("zeros", [3, 4], {"dim": 1}, ZEROS_POOL),
    ("nan", [3, 4], {"dim": 1}, NAN_POOL),
    ("0dim", [], {}, None),
    ("empty-all", [0, 3], {}, None),
    ("empty-reduced-dim", [0, 3], {"dim": 0}, None),
    ("empty-kept-dim", [0, 3], {"dim": 1}, None),
]

COUNT_SAMPLES = [
    ("all", [3, 4], {}, "edges"),
    ("dim0", [3, 4], {"dim": 0}, ZEROS_POOL),
    ("dims", [2, 3, 4], {"dim": [0, 2]}, ZEROS_POOL),
    ("nan", [3, 4], {"dim": 1}, NAN_POOL),
    ("0dim", [], {}, None),
    ("empty-all", [0, 3], {}, None),
]

MEDIAN_SAMPLES = [
    ("all", [3, 4], {}, None),
    ("all-even", [2, 3], {}, None),
    ("all-nan", [3, 4], {}, NAN_POOL),
    ("dim1", [3, 4], {"dim": 1}, None),
    ("dim0", [4, 3], {"dim": 0}, None),
    ("keepdim", [2, 3, 4], {"dim": 1, "keepdim": True}, None),
    ("nan", [3, 4], {"dim": 1}, NAN_POOL),
    ("ties", [3, 4], {"dim": 1}, TIES_POOL),
    ("0dim", [], {}, None),
    ("0dim-dim", [], {"dim": 0}, None),
    ("empty-all", [0, 3], {}, None),
    ("empty-kept-dim", [0, 3], {"dim": 1}, None),
    ("empty-reduced-dim", [0, 3], {"dim": 0}, None),
]

MODE_SAMPLES = [
    ("default-dim", [3, 6], {}, None),
    ("dim0", [6, 3], {"dim": 0}, None),
    ("keepdim", [2, 5, 3], {"dim": 1, "keepdim": True}, None),
    ("ties", [3, 4], {"dim": 1}, TIES_POOL),
    ("0dim", [], {}, None),
    ("empty-kept-dim", [0, 3], {"dim": 1}, None),
    ("empty-reduced-dim", [0, 3], {"dim": 0}, None),
]

SCAN_SAMPLES = [
    ("dim0", [3, 4], {"dim": 0}, None),
    ("dim1", [3, 4], {"dim": 1}, "edges"),
    ("dim-neg", [2, 3, 4], {"dim": -1}, None),
    ("long", [2, 40], {"dim": 1}, None),
    ("0dim", [], {"dim": 0}, None),
    ("empty", [0, 3], {"dim": 0}, None),
    ("dtype-float64", [3, 4], {"dim": 1, "dtype": "float64"}, None),
    ("dtype-same", [3, 4], {"dim": 1, "dtype": "same"}, "edges"),
    ("nan", [3, 4], {"dim": 1}, NAN_POOL),
]

CUMPROD_SAMPLES = [s for s in SCAN_SAMPLES if s[0] != "long"] + [
    ("zeros", [3, 4], {"dim": 1}, ZEROS_POOL),
]

CUM_EXTREMUM_SAMPLES = [
    ("dim0", [3, 4], {"dim": 0}, None),
    ("dim1", [3, 4], {"dim": 1}, "edges"),
    ("dim-neg", [2, 3, 4], {"dim": -1}, None),
    ("nan", [3, 4], {"dim": 1}, NAN_POOL),
    ("ties", [3, 4], {"dim": 1}, TIES_POOL),
    ("0dim", [], {"dim": 0}, None),
    ("empty", [0, 3], {"dim": 0}, None),
]


def make():
    rec = Recorder()
    for op, name in [("var", "var"), ("std", "std")]:
        cases(rec, op, var_like(name), VAR_SAMPLES, upcast=True)
    for op, name in [("varMean", "var_mean"), ("stdMean", "std_mean")]:
        cases(rec, op, lambda a, k, f=var_like(name): tuple(f(a, k)), VAR_MEAN_SAMPLES, upcast=True)
    cases(rec, "logsumexp", logsumexp, LSE_SAMPLES, upcast=True)
    # 1.13 rounds the 16-bit |x|^p terms; 2.x accumulates them in float32
    cases(rec, "norm", norm, NORM_SAMPLES, upcast=True, float_acc=("float16", "bfloat16"))
    cases(rec, "all", logical("all"), LOGICAL_SAMPLES)
    cases(rec, "any", logical("any"), LOGICAL_SAMPLES)
    cases(rec, "countNonzero", count_nonzero, COUNT_SAMPLES)
    cases(rec, "median", median, MEDIAN_SAMPLES, upcast=True)
    cases(rec, "mode", mode, MODE_SAMPLES, upcast=True, small=True)
    cases(rec, "cumsum", scan("cumsum"), SCAN_SAMPLES, upcast=True, inplace=scan_("cumsum"))
    cases(rec, "cumprod", scan("cumprod"), CUMPROD_SAMPLES, upcast=True, inplace=scan_("cumprod"))
    for op in ["cummax", "cummin"]:
        cases(rec, op, cum_extremum(op), CUM_EXTREMUM_SAMPLES, upcast=True)
    return {"family": "stats", **rec.result()}
