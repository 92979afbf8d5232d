"""Goldens for the reductions of the OpInfo table (goldens/ops_reduction.json).

sum prod mean amax amin max min argmax argmin on every dtype: over all elements, one dim,
a negative dim, a list of dims, keepdim, empty inputs (reduced and kept dims), 0-dim
inputs, NaN, ties and the `dtype=` option. `max`/`min` with a dim return (values,
indices). The case format is described in _ops_common.py.
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from _ops_common import ALL, FLOATS, INTS, T, Recorder, edges, fill, gen_for, is_float  # noqa: E402


def _call(name):
    def run(a, k):
        return getattr(torch, name)(a[0], **k)

    return run


# prod is computed on float32 copies for Half/BFloat16 (2.x has the kernels 1.13 lacks);
# sum and mean accumulate Half/BFloat16 in float32 across all reduced dims in 2.x, where
# 1.13 rounds to 16 bits between dims.
UPCAST = {"prod"}
FLOAT_ACC = {"sum": ("float16", "bfloat16"), "mean": ("float16", "bfloat16")}


def values(op, d, shape, g, pool=None):
    """Random values sized for the op: prod gets small magnitudes so it stays finite."""
    if op == "prod":
        if is_float(d):
            return fill(d, shape, g, pool, scale=1.2)
        return fill(d, shape, g, pool, lo=-3 if d not in ("uint8", "bool") else 0, hi=3)
    if is_float(d):
        # integral-valued halves keep float sums nearly order-independent
        return fill(d, shape, g, pool, scale=4.0)
    return fill(d, shape, g, pool)


def reduction_cases(rec, op, samples):
    """`samples`: (id, shape, kwargs, pool) with pool None (random), "edges" or a list."""
    fn = _call(op)
    for d in ALL:
        for sample, shape, kwargs, pool in samples:
            g = gen_for(op, sample, d)
            p = edges(d) if pool == "edges" else pool
            if isinstance(p, dict):
                if d not in p:
                    continue
                p = p[d]
            vals = values(op, d, shape, g, p)
            # "dtype": "same" asks for the input's own dtype (sum(int8, dtype=int8) wraps)
            kw = {k: (d if v == "same" else v) for k, v in kwargs.items()}
            rec.case(op, sample, d, [T(d, shape, vals)], fn, kw, upcast=op in UPCAST, float_acc=FLOAT_ACC.get(op, ()))


NAN = math.nan
INF = math.inf
NAN_POOL = {f: [1.0, NAN, -2.0, 3.0, INF, 0.5, -INF, 2.0, NAN, -1.0, 0.0, 4.0] for f in FLOATS}
# ties along both dims of a [3, 4] tensor; NaN-free so the first index is PyTorch's answer
TIES_POOL = [3, 1, 3, 0, 1, 3, 1, 3, 2, 2, 0, 0]


def common(op):
    ranked = op in ("amax", "amin", "max", "min", "argmax", "argmin")
    return [
        ("all", [3, 4], {}, "edges"),
        ("all-random", [4, 5], {}, None),
        ("dim0", [3, 4], {"dim": 0}, None),
        ("dim1", [3, 4], {"dim": 1}, "edges"),
        ("dim-neg", [2, 3, 4], {"dim": -1}, None),
        ("keepdim", [2, 3, 4], {"dim": 1, "keepdim": True}, None),
        ("0dim", [], {}, None),
        ("0dim-dim", [], {"dim": 0}, None),
        ("empty-kept-dim", [0, 3], {"dim": 1}, None),
        ("empty-reduced-dim", [0, 3], {"dim": 0}, None),
        ("empty-all", [0, 3], {}, None),
        ("nan", [3, 4], {"dim": 1}, NAN_POOL),
    ] + ([
        ("ties", [3, 4], {"dim": 1}, TIES_POOL),
        ("ties-dim0", [3, 4], {"dim": 0}, TIES_POOL),
    ] if ranked else [])


def with_dim_lists(op):
    return [
        ("dims", [2, 3, 4], {"dim": [0, 2]}, None),
        ("dims-keepdim", [2, 3, 4], {"dim": [-1, 0], "keepdim": True}, None),
        ("dims-all", [2, 3], {"dim": [0, 1]}, None),
    ]


def make():
    rec = Recorder()
    reduction_cases(rec, "sum", common("sum") + with_dim_lists("sum") + [
        ("dtype-float64", [3, 4], {"dtype": "float64"}, None),
        ("dtype-same", [3, 4], {"dim": 1, "dtype": "same"}, "edges"),
    ])
    reduction_cases(rec, "mean", common("mean") + with_dim_lists("mean") + [
        ("dtype-float64", [3, 4], {"dim": 0, "dtype": "float64"}, None),
    ])
    reduction_cases(rec, "prod", common("prod") + [
        ("dtype-float64", [3, 4], {"dim": 1, "dtype": "float64"}, None),
        ("overflow", [2, 8], {"dim": 1, "dtype": "same"}, {d: edges(d)[:16] for d in INTS}),
    ])
    for op in ["amax", "amin"]:
        reduction_cases(rec, op, common(op) + with_dim_lists(op))
    for op in ["max", "min"]:
        reduction_cases(rec, op, common(op))
    for op in ["argmax", "argmin"]:
        reduction_cases(rec, op, common(op) + [("all-keepdim", [3, 4], {"keepdim": True}, None)])
    return {"family": "reduction", **rec.result()}
