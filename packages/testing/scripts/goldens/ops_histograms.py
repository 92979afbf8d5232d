"""Goldens for bincount, histc and histogram (goldens/ops_histograms.json).

Every dtype (the ones PyTorch refuses record its error). Besides random data, the equal-bin
cases put elements exactly on the bin edges PyTorch computes (linspace in the input's dtype)
and one ulp to either side, where histc's interpolation and histogram's search can differ and
a wrong formula moves a count. bincount's inputs are [input] or [input, weights]; histogram's
are [input], [input, weight] with `bins` a count in kwargs, or [input, bins] / [input, bins,
weight] with a Tensor of edges. NaN elements have no case: 1.13 counts them in a bin (its
kernel casts NaN to an integer, undefined behaviour), 2.x skips them as torch-ts does; the
testing package's histograms.test.ts checks that. The case format is described in _ops_common.py.
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, T, Recorder, gen_for, random_values  # noqa: E402
from _dtypes import DTYPES  # noqa: E402

_ops_common.PY_KWARGS.update({"minlength": "minlength", "bins": "bins", "min": "min", "max": "max", "range": "range", "density": "density"})

INTS = ["int8", "uint8", "int16", "int32", "int64"]


def bincount_call(a, k):
    return torch.bincount(a[0], a[1] if len(a) > 1 else None, **k)


def histogram_call(a, k):
    k = dict(k)
    if "bins" in k:
        return tuple(torch.histogram(a[0], k.pop("bins"), weight=a[1] if len(a) > 1 else None, **k))
    return tuple(torch.histogram(a[0], a[1], weight=a[2] if len(a) > 2 else None, **k))


def counts(d, n, g, hi=6):
    return T(d, [n], torch.randint(0, hi, (n,), generator=g).tolist())


def on_edges(d, lo, hi, bins):
    """The edges PyTorch's linspace gives in dtype d, and their neighbours one ulp away."""
    e = torch.linspace(lo, hi, bins + 1, dtype=DTYPES[d])
    if d in ("float32", "float64"):
        e = torch.cat([e, e.nextafter(torch.tensor(math.inf, dtype=e.dtype)), e.nextafter(torch.tensor(-math.inf, dtype=e.dtype))])
    return e.double().tolist()


def bincount_cases(rec):
    for d in ALL:
        g = gen_for("bincount", d)
        x = counts(d, 12, g) if d in INTS else T(d, [4], random_values(d, 4, g))
        rec.case("bincount", "basic", d, [x], bincount_call)
        if d not in INTS:
            continue
        rec.case("bincount", "minlength", d, [x], bincount_call, {"minlength": 9})
        rec.case("bincount", "minlength-short", d, [x], bincount_call, {"minlength": 2})
        rec.case("bincount", "one-value", d, [T(d, [3], [4, 4, 4])], bincount_call)
        for wd in ("float32", "float64", "int32", "bool"):
            w = T(wd, [12], random_values(wd, 12, gen_for("bincount-w", d, wd)))
            rec.case("bincount", "weights", d, [x, w], bincount_call, {"minlength": 3}, variant=wd)
        rec.case("bincount", "empty", d, [T(d, [0], [])], bincount_call)
        rec.case("bincount", "empty-minlength", d, [T(d, [0], [])], bincount_call, {"minlength": 4})
        rec.case("bincount", "empty-weights", d, [T(d, [0], []), T("float32", [0], [])], bincount_call)
        rec.case("bincount", "2d", d, [T(d, [2, 2], [0, 1, 1, 2])], bincount_call)
        rec.case("bincount", "0d", d, [T(d, [], [3])], bincount_call)
        rec.case("bincount", "weights-length", d, [x, T("float32", [3], [1.5, 2.5, 0.5])], bincount_call)
        rec.case("bincount", "weights-2d", d, [x, T("float32", [12, 1], [0.5] * 12)], bincount_call)
        rec.case("bincount", "minlength-negative", d, [x], bincount_call, {"minlength": -1})
        if d != "uint8":
            rec.case("bincount", "negative", d, [T(d, [3], [1, -1, 2])], bincount_call)


def histc_cases(rec):
    call = lambda a, k: torch.histc(a[0], **k)  # noqa: E731
    for d in ALL:
        g = gen_for("histc", d)
        x = T(d, [20], random_values(d, 20, g)) if d != "bool" else T(d, [4], [True, False, True, True])
        rec.case("histc", "default", d, [x], call)
        if d not in ("float32", "float64", "bfloat16", "float16"):
            rec.case("histc", "bins-zero", d, [x], call, {"bins": 0})
            continue
        rec.case("histc", "bins", d, [x], call, {"bins": 7})
        rec.case("histc", "range", d, [x], call, {"bins": 5, "min": -1.5, "max": 2.25})
        for lo, hi, bins in ((0.1, 0.8, 7), (-2.5, 3.75, 13), (0.05, 0.93, 15), (-1.0, 1.0, 40)):
            v = on_edges(d, lo, hi, bins)
            rec.case("histc", "edges", d, [T(d, [len(v)], v)], call, {"bins": bins, "min": lo, "max": hi}, variant=f"{bins}")
            rec.case("histc", "edges-data-range", d, [T(d, [len(v)], v)], call, {"bins": bins}, variant=f"{bins}")
        rec.case("histc", "one-value", d, [T(d, [3], [2.5, 2.5, 2.5])], call, {"bins": 4})
        rec.case("histc", "min-equals-max", d, [x], call, {"bins": 6, "min": 1.5, "max": 1.5})
        rec.case("histc", "2d", d, [T(d, [4, 5], random_values(d, 20, gen_for("histc-2d", d)))], call, {"bins": 6})
        rec.case("histc", "0d", d, [T(d, [], [1.5])], call, {"bins": 3})
        rec.case("histc", "empty", d, [T(d, [0], [])], call, {"bins": 3})
        rec.case("histc", "empty-range", d, [T(d, [0], [])], call, {"bins": 3, "min": 1.5, "max": 2.5})
        rec.case("histc", "bins-zero", d, [x], call, {"bins": 0})
        rec.case("histc", "min-above-max", d, [x], call, {"bins": 3, "min": 2.5, "max": 1.5})
        rec.case("histc", "inf-range", d, [x], call, {"bins": 3, "min": 0.5, "max": math.inf})
        rec.case("histc", "inf-data", d, [T(d, [3], [1.5, math.inf, 0.5])], call, {"bins": 3})


def histogram_cases(rec):
    for d in ALL:
        g = gen_for("histogram", d)
        x = T(d, [20], random_values(d, 20, g)) if d != "bool" else T(d, [4], [True, False, True, True])
        rec.case("histogram", "count", d, [x], histogram_call, {"bins": 6})
        if d not in ("float32", "float64"):
            continue
        w = T(d, [20], [abs(v) for v in random_values(d, 20, gen_for("histogram-w", d))])
        rec.case("histogram", "default-bins", d, [x], histogram_call, {"bins": 100})
        rec.case("histogram", "range", d, [x], histogram_call, {"bins": 5, "range": [-1.5, 2.25]})
        rec.case("histogram", "weight", d, [x, w], histogram_call, {"bins": 4})
        rec.case("histogram", "density", d, [x], histogram_call, {"bins": 4, "density": True})
        rec.case("histogram", "weight-density", d, [x, w], histogram_call, {"bins": 4, "range": [-2.0, 2.0], "density": True})
        for lo, hi, bins in ((0.1, 0.8, 7), (-2.5, 3.75, 13), (0.05, 0.93, 15), (-1.0, 1.0, 40)):
            v = on_edges(d, lo, hi, bins)
            rec.case("histogram", "edges", d, [T(d, [len(v)], v)], histogram_call, {"bins": bins, "range": [lo, hi]}, variant=f"{bins}")
            rec.case("histogram", "edges-data-range", d, [T(d, [len(v)], v)], histogram_call, {"bins": bins}, variant=f"{bins}")
        rec.case("histogram", "one-value", d, [T(d, [3], [2.5, 2.5, 2.5])], histogram_call, {"bins": 2})
        rec.case("histogram", "2d", d, [T(d, [4, 5], random_values(d, 20, gen_for("histogram-2d", d)))], histogram_call, {"bins": 6})
        rec.case("histogram", "empty", d, [T(d, [0], [])], histogram_call, {"bins": 3})
        rec.case("histogram", "empty-density", d, [T(d, [0], [])], histogram_call, {"bins": 3, "density": True})
        edges = T(d, [4], [-1.5, 0.0, 0.5, 2.5])
        rec.case("histogram", "bins-tensor", d, [x, edges], histogram_call)
        rec.case("histogram", "bins-tensor-weight", d, [x, edges, w], histogram_call)
        rec.case("histogram", "bins-tensor-density", d, [x, edges], histogram_call, {"density": True})
        rec.case("histogram", "bins-tensor-on-edges", d, [T(d, [6], [-1.5, 0.0, 0.5, 2.5, 3.0, -2.0]), edges], histogram_call)
        rec.case("histogram", "bins-decreasing", d, [x, T(d, [2], [1.0, 0.0])], histogram_call)
        # errors
        rec.case("histogram", "bins-zero", d, [x], histogram_call, {"bins": 0})
        rec.case("histogram", "range-order", d, [x], histogram_call, {"bins": 3, "range": [2.0, 1.0]})
        rec.case("histogram", "range-length", d, [x], histogram_call, {"bins": 3, "range": [0.0, 1.0, 2.0]})
        rec.case("histogram", "inf-data", d, [T(d, [3], [1.5, math.inf, 0.5])], histogram_call, {"bins": 3})
        rec.case("histogram", "weight-shape", d, [x, T(d, [2], [1.0, 2.0])], histogram_call, {"bins": 3})
        other = "float64" if d == "float32" else "float32"
        rec.case("histogram", "weight-dtype", d, [x, T(other, [20], [1.0] * 20)], histogram_call, {"bins": 3})
        rec.case("histogram", "bins-dtype", d, [x, T(other, [3], [0.0, 1.0, 2.0])], histogram_call)
        rec.case("histogram", "bins-2d", d, [x, T(d, [2, 2], [0.0, 1.0, 2.0, 3.0])], histogram_call)
        rec.case("histogram", "bins-one-edge", d, [x, T(d, [1], [1.0])], histogram_call)


def make():
    rec = Recorder()
    bincount_cases(rec)
    histc_cases(rec)
    histogram_cases(rec)
    return {"family": "histograms", **rec.result()}
