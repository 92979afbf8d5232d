"""Goldens for the activations of the OpInfo table (goldens/ops_activations.json).

leakyRelu elu selu relu6 hardtanh gelu silu mish softplus hardsigmoid hardswish logit, on
every dtype (PyTorch's errors for the integral ones). Half (and mish's BFloat16), which
1.13's CPU kernels lack and 2.x has, are computed on float32 copies ("reference": "upcast").
The case format is described in _ops_common.py.
"""
import pathlib
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, FLOATS, T, Recorder, edges, fill, gen_for  # noqa: E402

# torch-ts option names -> PyTorch keyword names
_ops_common.PY_KWARGS.update({
    "negativeSlope": "negative_slope",
    "approximate": "approximate",
    "beta": "beta",
    "threshold": "threshold",
    "minVal": "min_val",
    "maxVal": "max_val",
    "eps": "eps",
})

# name -> (function, in-place or None)
OPS = {
    "leakyRelu": (lambda a, k: F.leaky_relu(a[0], **k), lambda a, k: F.leaky_relu_(a[0], **k)),
    "elu": (lambda a, k: F.elu(a[0], **k), lambda a, k: F.elu_(a[0], **k)),
    "selu": (lambda a, k: F.selu(a[0]), lambda a, k: torch.selu_(a[0])),
    "relu6": (lambda a, k: F.relu6(a[0]), lambda a, k: F.relu6(a[0], inplace=True)),
    "hardtanh": (lambda a, k: F.hardtanh(a[0], **k), lambda a, k: F.hardtanh_(a[0], **k)),
    "gelu": (lambda a, k: F.gelu(a[0], **k), None),
    "silu": (lambda a, k: F.silu(a[0]), lambda a, k: F.silu(a[0], inplace=True)),
    "mish": (lambda a, k: F.mish(a[0]), lambda a, k: F.mish(a[0], inplace=True)),
    "softplus": (lambda a, k: F.softplus(a[0], **k), None),
    "hardsigmoid": (lambda a, k: F.hardsigmoid(a[0]), lambda a, k: F.hardsigmoid(a[0], inplace=True)),
    "hardswish": (lambda a, k: F.hardswish(a[0]), lambda a, k: F.hardswish(a[0], inplace=True)),
    "logit": (lambda a, k: torch.logit(a[0], **k), lambda a, k: a[0].logit_(**k)),
}

# Floating inputs where each op is interesting (sample "domain"): overflow of exp, the
# thresholds, the kinks, the ends of (0, 1).
_SMOOTH = [-100.0, -88.5, -30.0, -20.5, -10.0, -5.0, -1.5, -0.5, -1e-8, 1e-8, 0.5, 1.5, 5.0, 10.0, 19.5, 20.5, 30.0, 100.0]
_KINKS = [-7.0, -6.0, -3.5, -3.0, -2.9999, -1.5, -1.0, -0.999, 0.999, 1.0, 1.5, 2.9999, 3.0, 3.5, 5.999, 6.0, 6.5, 0.25]
_UNIT = [0.0, 1e-8, 0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999, 0.99999, 1.0, -0.5, 1.5, 0.3]
DOMAIN = {
    "leakyRelu": _SMOOTH, "elu": _SMOOTH, "selu": _SMOOTH, "gelu": _SMOOTH, "silu": _SMOOTH, "mish": _SMOOTH,
    "softplus": _SMOOTH, "relu6": _KINKS, "hardtanh": _KINKS, "hardsigmoid": _KINKS, "hardswish": _KINKS,
    "logit": _UNIT,
}
# Non-default options (sample "options"), on the domain values and on every dtype.
OPTIONS = {
    "leakyRelu": {"negativeSlope": 0.2},
    "elu": {"alpha": 0.5},
    "hardtanh": {"minVal": 1, "maxVal": 5},
    "gelu": {"approximate": "tanh"},
    "softplus": {"beta": 2, "threshold": 5},
    "logit": {"eps": 0.1},
}


def cases(rec, op):
    fn, inplace = OPS[op]
    kw = {"inplace": inplace, "upcast": True}
    for d in ALL:
        g = gen_for(op, d)
        e = edges(d)
        rec.case(op, "edge", d, [T(d, [len(e)], e)], fn, **kw)
        rec.case(op, "random", d, [T(d, [3, 4], fill(d, [3, 4], g))], fn, **kw)
        rec.case(op, "0dim", d, [T(d, [], fill(d, [], g, [e[4]]))], fn, **kw)
        rec.case(op, "empty", d, [T(d, [0, 2], [])], fn, **kw)
        if op in OPTIONS:
            vals = DOMAIN[op] if d in FLOATS else e
            rec.case(op, "options", d, [T(d, [len(vals)], vals)], fn, kwargs=OPTIONS[op], **kw)
    for d in FLOATS:
        vals = DOMAIN[op]
        rec.case(op, "domain", d, [T(d, [len(vals)], vals)], fn, **kw)
        if op == "gelu":
            rec.case(op, "tanh-edge", d, [T(d, [len(edges(d))], edges(d))], fn, kwargs={"approximate": "tanh"}, **kw)


def make():
    rec = Recorder()
    for op in OPS:
        cases(rec, op)
    return {"family": "activations", **rec.result()}
