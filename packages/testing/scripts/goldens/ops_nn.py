"""Goldens for the NN functional ops of the OpInfo table (goldens/ops_nn.json).

softmax logSoftmax linear crossEntropy nllLoss mseLoss l1Loss smoothL1Loss
binaryCrossEntropy binaryCrossEntropyWithLogits batchNorm layerNorm groupNorm embedding
oneHot dropout bernoulli multinomial, on every dtype (PyTorch's errors where its CPU
kernels refuse one). Half (and BFloat16 where 1.13 lacks it), which 2.x has, is computed on
float32 copies ("reference": "upcast"). batchNorm's result is (output, running_mean,
running_var) after the call, so the in-place running-stat update is checked too. The random
ops seed the default generator with the case's `seed` kwarg first: their values are
PyTorch's exactly. The case format is described in _ops_common.py.
"""
import pathlib
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _dtypes import DTYPES  # noqa: E402
from _ops_common import ALL, FLOATS, T, Recorder, edges, fill, gen_for, is_float  # noqa: E402

_ops_common.PY_KWARGS.update({
    "reduction": "reduction",
    "ignoreIndex": "ignore_index",
    "labelSmoothing": "label_smoothing",
    "beta": "beta",
    "eps": "eps",
    "momentum": "momentum",
    "training": "training",
    "paddingIdx": "padding_idx",
    "numClasses": "num_classes",
    "p": "p",
    "seed": "seed",
    "numSamples": "num_samples",
    "replacement": "replacement",
    "normalizedShape": "normalized_shape",
    "numGroups": "num_groups",
    "scaleGradByFreq": "scale_grad_by_freq",
})

INTS_AND_BOOL = ["int8", "uint8", "int16", "int32", "int64", "bool"]


def rnd(d, shape, g, scale=2.0):
    return fill(d, shape, g, scale=scale)


def probs(d, shape, g, lo=0.02, hi=0.98):
    n = 1
    for s in shape:
        n *= s
    return (torch.rand(n, generator=g, dtype=torch.float64) * (hi - lo) + lo).tolist()


def targets(shape, c, g, ignore=None):
    n = 1
    for s in shape:
        n *= s
    vals = torch.randint(0, c, (n,), generator=g).tolist()
    if ignore is not None and n > 1:
        vals[1] = ignore
    return vals


def values_for(d, shape, g, kind="randn"):
    """Floating values for floats, small values (or bools) for the others."""
    if is_float(d):
        return probs(d, shape, g) if kind == "prob" else rnd(d, shape, g)
    return fill(d, shape, g, lo=0, hi=1 if d in ("bool", "uint8") or kind == "prob" else 5)


def kw_seed(k):
    k = dict(k)
    torch.manual_seed(k.pop("seed"))
    return k


# ---- softmax / log_softmax ----
def softmax_cases(rec, op, fn):
    for d in ALL:
        g = gen_for(op, d)
        kw = {"upcast": True}
        rec.case(op, "random", d, [T(d, [3, 4], values_for(d, [3, 4], g))], fn, kwargs={"dim": 1}, **kw)
        if d in FLOATS:
            rec.case(op, "dim0", d, [T(d, [3, 4], rnd(d, [3, 4], g))], fn, kwargs={"dim": 0}, **kw)
            rec.case(op, "inner", d, [T(d, [2, 3, 4], rnd(d, [2, 3, 4], g, 4.0))], fn, kwargs={"dim": -2}, **kw)
            rec.case(op, "0dim", d, [T(d, [], [1.5])], fn, kwargs={"dim": 0}, **kw)
            rec.case(op, "empty", d, [T(d, [0, 3], [])], fn, kwargs={"dim": 1}, **kw)
            rec.case(op, "large", d, [T(d, [2, 3], [1000.0, 0.0, -1000.0, 50.0, 50.5, 49.0])], fn, kwargs={"dim": 1}, **kw)
            e = edges(d)
            rec.case(op, "edge", d, [T(d, [4, 5], e)], fn, kwargs={"dim": 1}, **kw)
            rec.case(op, "implicit", d, [T(d, [2, 3, 2], rnd(d, [2, 3, 2], g))], fn, kwargs={}, **kw)
        rec.case(op, "dtype", d, [T(d, [2, 3], values_for(d, [2, 3], g))], fn, kwargs={"dim": 1, "dtype": "float64"}, **kw)


# ---- linear ----
def linear_cases(rec):
    op = "linear"
    fn = lambda a, k: F.linear(*a)
    shapes = [
        ("random", [3, 4], [5, 4], [5]),
        ("nobias", [3, 4], [5, 4], None),
        ("1d", [4], [5, 4], [5]),
        ("batched", [2, 3, 4], [5, 4], [5]),
        ("1d-weight", [3, 4], [4], None),
        ("empty", [0, 4], [2, 4], [2]),
    ]
    for d in ALL:
        g = gen_for(op, d)
        for sample, xs, ws, bs in shapes:
            if sample != "random" and not is_float(d):
                continue
            ins = [T(d, xs, values_for(d, xs, g)), T(d, ws, values_for(d, ws, g))]
            if bs is not None:
                ins.append(T(d, bs, values_for(d, bs, g)))
            rec.case(op, sample, d, ins, fn, upcast=True)


# ---- losses ----
def nll_cases(rec):
    op = "nllLoss"

    def fn(a, k):
        return F.nll_loss(a[0], a[1], weight=a[2] if len(a) > 2 else None, **k)

    for d in ALL:
        g = gen_for(op, d)
        kw = {"upcast": True}
        x = T(d, [4, 5], values_for(d, [4, 5], g))
        t = T("int64", [4], targets([4], 5, g))
        rec.case(op, "random", d, [x, t], fn, **kw)
        if not is_float(d):
            continue
        w = T(d, [5], probs(d, [5], g, 0.2, 2.0))
        rec.case(op, "weight", d, [x, t, w], fn, **kw)
        rec.case(op, "sum", d, [x, t, w], fn, kwargs={"reduction": "sum"}, **kw)
        rec.case(op, "none", d, [x, t, w], fn, kwargs={"reduction": "none"}, **kw)
        ti = T("int64", [4], targets([4], 5, g, ignore=-100))
        rec.case(op, "ignore", d, [x, ti, w], fn, **kw)
        rec.case(op, "ignore-index", d, [x, t], fn, kwargs={"ignoreIndex": t.values[0]}, **kw)
        rec.case(op, "all-ignored", d, [x, T("int64", [4], [-100] * 4)], fn, **kw)
        rec.case(op, "1d", d, [T(d, [5], rnd(d, [5], g)), T("int64", [], [3])], fn, **kw)
        rec.case(op, "kdim", d, [T(d, [2, 3, 2, 2], rnd(d, [2, 3, 2, 2], g)), T("int64", [2, 2, 2], targets([2, 2, 2], 3, g))], fn, kwargs={"reduction": "none"}, **kw)
        rec.case(op, "kdim3", d, [T(d, [2, 3, 4], rnd(d, [2, 3, 4], g)), T("int64", [2, 4], targets([2, 4], 3, g)), T(d, [3], [0.5, 1.5, 2.5])], fn, **kw)
        rec.case(op, "oob", d, [x, T("int64", [4], [0, 1, 5, 2])], fn, **kw)
        rec.case(op, "batch-mismatch", d, [x, T("int64", [3], [0, 1, 2])], fn, **kw)


def cross_entropy_cases(rec):
    op = "crossEntropy"

    def fn(a, k):
        return F.cross_entropy(a[0], a[1], weight=a[2] if len(a) > 2 else None, **k)

    for d in ALL:
        g = gen_for(op, d)
        kw = {"upcast": True}
        x = T(d, [4, 5], values_for(d, [4, 5], g))
        t = T("int64", [4], targets([4], 5, g))
        rec.case(op, "random", d, [x, t], fn, **kw)
        if not is_float(d):
            continue
        w = T(d, [5], probs(d, [5], g, 0.2, 2.0))
        ti = T("int64", [4], targets([4], 5, g, ignore=-100))
        rec.case(op, "weight", d, [x, t, w], fn, **kw)
        rec.case(op, "sum", d, [x, t], fn, kwargs={"reduction": "sum"}, **kw)
        rec.case(op, "none", d, [x, t, w], fn, kwargs={"reduction": "none"}, **kw)
        rec.case(op, "ignore", d, [x, ti, w], fn, **kw)
        rec.case(op, "smoothing", d, [x, t], fn, kwargs={"labelSmoothing": 0.1}, **kw)
        rec.case(op, "smoothing-weight", d, [x, ti, w], fn, kwargs={"labelSmoothing": 0.2}, **kw)
        rec.case(op, "smoothing-ignore-sum", d, [x, ti], fn, kwargs={"labelSmoothing": 0.2, "reduction": "sum"}, **kw)
        rec.case(op, "smoothing-none", d, [x, ti], fn, kwargs={"labelSmoothing": 0.3, "reduction": "none"}, **kw)
        rec.case(op, "kdim", d, [T(d, [2, 3, 4], rnd(d, [2, 3, 4], g)), T("int64", [2, 4], targets([2, 4], 3, g))], fn, **kw)
        rec.case(op, "1d", d, [T(d, [5], rnd(d, [5], g)), T("int64", [], [2])], fn, **kw)
        p = T(d, [4, 5], probs(d, [4, 5], g))
        rec.case(op, "probs", d, [x, p], fn, **kw)
        rec.case(op, "probs-smoothing", d, [x, p, w], fn, kwargs={"labelSmoothing": 0.1}, **kw)
        rec.case(op, "probs-none", d, [x, p], fn, kwargs={"reduction": "none"}, **kw)
        rec.case(op, "oob", d, [x, T("int64", [4], [0, 7, 1, 2])], fn, **kw)


def pair_loss_cases(rec, op, fn, extra=()):
    for d in ALL:
        g = gen_for(op, d)
        kw = {"upcast": True}
        rec.case(op, "random", d, [T(d, [3, 4], values_for(d, [3, 4], g)), T(d, [3, 4], values_for(d, [3, 4], g))], fn, **kw)
        if not is_float(d):
            continue
        a, b = T(d, [3, 4], rnd(d, [3, 4], g)), T(d, [3, 4], rnd(d, [3, 4], g))
        rec.case(op, "sum", d, [a, b], fn, kwargs={"reduction": "sum"}, **kw)
        rec.case(op, "none", d, [a, b], fn, kwargs={"reduction": "none"}, **kw)
        rec.case(op, "empty", d, [T(d, [0, 2], []), T(d, [0, 2], [])], fn, **kw)
        for sample, kwargs in extra:
            rec.case(op, sample, d, [a, b], fn, kwargs=kwargs, **kw)


def bce_cases(rec):
    op = "binaryCrossEntropy"

    def fn(a, k):
        return F.binary_cross_entropy(a[0], a[1], weight=a[2] if len(a) > 2 else None, **k)

    for d in ALL:
        g = gen_for(op, d)
        kw = {"upcast": True}
        x = T(d, [3, 4], values_for(d, [3, 4], g, "prob"))
        y = T(d, [3, 4], values_for(d, [3, 4], g, "prob"))
        rec.case(op, "random", d, [x, y], fn, **kw)
        if not is_float(d):
            continue
        w = T(d, [4], probs(d, [4], g, 0.5, 2.0))
        rec.case(op, "weight", d, [x, y, w], fn, **kw)
        rec.case(op, "sum", d, [x, y], fn, kwargs={"reduction": "sum"}, **kw)
        rec.case(op, "none", d, [x, y], fn, kwargs={"reduction": "none"}, **kw)
        rec.case(op, "edge", d, [T(d, [6], [0.0, 1.0, 0.0, 1.0, 1e-30 if d == "float64" else 0.25, 0.5]), T(d, [6], [0.0, 1.0, 1.0, 0.0, 1.0, 0.5])], fn, kwargs={"reduction": "none"}, **kw)
        rec.case(op, "out-of-range", d, [T(d, [2], [0.5, 1.5]), T(d, [2], [0.0, 1.0])], fn, **kw)
        rec.case(op, "size-mismatch", d, [T(d, [2], [0.5, 0.5]), T(d, [3], [0.0, 1.0, 1.0])], fn, **kw)


def bce_logits_cases(rec):
    op = "binaryCrossEntropyWithLogits"

    def fn(a, k):
        k = dict(k)
        w = a[2] if len(a) > 2 and k.pop("hasWeight", True) else None
        pw = a[3] if len(a) > 3 else None
        return F.binary_cross_entropy_with_logits(a[0], a[1], weight=w, pos_weight=pw, **k)

    _ops_common.PY_KWARGS["hasWeight"] = "hasWeight"
    for d in ALL:
        g = gen_for(op, d)
        kw = {"upcast": True}
        x = T(d, [3, 4], values_for(d, [3, 4], g))
        y = T(d, [3, 4], values_for(d, [3, 4], g, "prob"))
        rec.case(op, "random", d, [x, y], fn, **kw)
        if not is_float(d):
            continue
        w = T(d, [4], probs(d, [4], g, 0.5, 2.0))
        pw = T(d, [4], probs(d, [4], g, 0.5, 3.0))
        rec.case(op, "weight", d, [x, y, w], fn, **kw)
        rec.case(op, "pos-weight", d, [x, y, w, pw], fn, kwargs={"reduction": "sum"}, **kw)
        rec.case(op, "pos-weight-only", d, [x, y, w, pw], fn, kwargs={"reduction": "none", "hasWeight": False}, **kw)
        rec.case(op, "none", d, [x, y], fn, kwargs={"reduction": "none"}, **kw)
        big = [-100.0, -30.0, -5.0, 0.0, 5.0, 30.0, 100.0, 3.5]
        rec.case(op, "large", d, [T(d, [8], big), T(d, [8], [0.0, 1.0, 0.5, 1.0, 0.0, 0.0, 1.0, 0.25])], fn, kwargs={"reduction": "none"}, **kw)


# ---- normalization ----
def batch_norm_cases(rec):
    op = "batchNorm"

    def fn(a, k):
        x, rm, rv = a[0], a[1].clone(), a[2].clone()
        w = a[3] if len(a) > 3 else None
        b = a[4] if len(a) > 4 else None
        out = F.batch_norm(x, rm, rv, weight=w, bias=b, **k)
        return (out, rm, rv)

    for d in ALL:
        g = gen_for(op, d)
        kw = {"upcast": True}
        rm = T(d, [3], values_for(d, [3], g))
        rv = T(d, [3], values_for(d, [3], g, "prob"))
        rec.case(op, "train", d, [T(d, [4, 3], values_for(d, [4, 3], g)), rm, rv], fn, kwargs={"training": True}, **kw)
        if not is_float(d):
            continue
        w = T(d, [3], rnd(d, [3], g))
        b = T(d, [3], rnd(d, [3], g))
        x3 = T(d, [2, 3, 4], rnd(d, [2, 3, 4], g))
        rec.case(op, "train-affine", d, [x3, rm, rv, w, b], fn, kwargs={"training": True}, **kw)
        rec.case(op, "momentum", d, [x3, rm, rv, w, b], fn, kwargs={"training": True, "momentum": 0.3, "eps": 0.001}, **kw)
        rec.case(op, "eval", d, [x3, rm, rv, w, b], fn, kwargs={}, **kw)
        rec.case(op, "eval-plain", d, [T(d, [4, 3], rnd(d, [4, 3], g)), rm, rv], fn, kwargs={"training": False}, **kw)
        rec.case(op, "4d", d, [T(d, [2, 3, 2, 2], rnd(d, [2, 3, 2, 2], g)), rm, rv, w, b], fn, kwargs={"training": True}, **kw)
        rec.case(op, "one-value", d, [T(d, [1, 3], rnd(d, [1, 3], g)), rm, rv], fn, kwargs={"training": True}, **kw)
        rec.case(op, "bad-stats", d, [x3, T(d, [4], rnd(d, [4], g)), rv], fn, kwargs={"training": True}, **kw)


def layer_norm_cases(rec):
    op = "layerNorm"

    def fn(a, k):
        k = dict(k)
        shape = k.pop("normalized_shape")
        return F.layer_norm(a[0], shape, weight=a[1] if len(a) > 1 else None, bias=a[2] if len(a) > 2 else None, **k)

    for d in ALL:
        g = gen_for(op, d)
        kw = {"upcast": True}
        rec.case(op, "random", d, [T(d, [3, 4], values_for(d, [3, 4], g))], fn, kwargs={"normalizedShape": [4]}, **kw)
        if not is_float(d):
            continue
        rec.case(op, "affine", d, [T(d, [2, 3, 4], rnd(d, [2, 3, 4], g)), T(d, [3, 4], rnd(d, [3, 4], g)), T(d, [3, 4], rnd(d, [3, 4], g))], fn, kwargs={"normalizedShape": [3, 4]}, **kw)
        rec.case(op, "eps", d, [T(d, [2, 5], rnd(d, [2, 5], g)), T(d, [5], rnd(d, [5], g))], fn, kwargs={"normalizedShape": [5], "eps": 0.1}, **kw)
        rec.case(op, "bad-shape", d, [T(d, [2, 5], rnd(d, [2, 5], g))], fn, kwargs={"normalizedShape": [4]}, **kw)


def group_norm_cases(rec):
    op = "groupNorm"

    def fn(a, k):
        k = dict(k)
        groups = k.pop("num_groups")
        return F.group_norm(a[0], groups, weight=a[1] if len(a) > 1 else None, bias=a[2] if len(a) > 2 else None, **k)

    for d in ALL:
        g = gen_for(op, d)
        kw = {"upcast": True}
        rec.case(op, "random", d, [T(d, [2, 4, 3], values_for(d, [2, 4, 3], g))], fn, kwargs={"numGroups": 2}, **kw)
        if not is_float(d):
            continue
        rec.case(op, "affine", d, [T(d, [2, 4, 2, 2], rnd(d, [2, 4, 2, 2], g)), T(d, [4], rnd(d, [4], g)), T(d, [4], rnd(d, [4], g))], fn, kwargs={"numGroups": 4, "eps": 0.01}, **kw)
        rec.case(op, "one-group", d, [T(d, [3, 6], rnd(d, [3, 6], g))], fn, kwargs={"numGroups": 1}, **kw)
        rec.case(op, "bad-groups", d, [T(d, [2, 4, 3], rnd(d, [2, 4, 3], g))], fn, kwargs={"numGroups": 3}, **kw)


# ---- embedding, one_hot ----
def embedding_cases(rec):
    op = "embedding"
    fn = lambda a, k: F.embedding(a[0], a[1], **k)
    for d in ALL:
        g = gen_for(op, d)
        w = T(d, [5, 3], values_for(d, [5, 3], g))
        rec.case(op, "random", d, [T("int64", [2, 3], targets([2, 3], 5, g)), w], fn)
        if not is_float(d):
            continue
        rec.case(op, "padding", d, [T("int64", [4], [1, 0, 1, 4]), w], fn, kwargs={"paddingIdx": 1})
        rec.case(op, "int32", d, [T("int32", [3], [4, 4, 0]), w], fn)
        rec.case(op, "oob", d, [T("int64", [2], [0, 5]), w], fn)


def one_hot_cases(rec):
    op = "oneHot"
    fn = lambda a, k: F.one_hot(a[0], **k)
    for d in ALL:
        g = gen_for(op, d)
        vals = [0, 2, 1, 3] if d != "bool" else [True, False, True, True]
        rec.case(op, "infer", d, [T(d, [4], vals)], fn)
        if d != "int64":
            continue
        rec.case(op, "classes", d, [T(d, [2, 2], [0, 2, 1, 3])], fn, kwargs={"numClasses": 6})
        rec.case(op, "too-small", d, [T(d, [3], [0, 5, 1])], fn, kwargs={"numClasses": 3})
        rec.case(op, "negative", d, [T(d, [2], [0, -1])], fn)
        rec.case(op, "empty", d, [T(d, [0], [])], fn, kwargs={"numClasses": 3})


# ---- random ----
def dropout_inplace(a, k):
    k = kw_seed(k)
    return torch.dropout_(a[0], k.get("p", 0.5), k.get("training", True))


def dropout_cases(rec):
    op = "dropout"
    fn = lambda a, k: F.dropout(a[0], **kw_seed(k))
    for d in ALL:
        g = gen_for(op, d)
        x = T(d, [4, 5], values_for(d, [4, 5], g))
        rec.case(op, "random", d, [x], fn, kwargs={"seed": 7, "p": 0.3}, inplace=dropout_inplace, upcast=True)
        if not is_float(d):
            continue
        rec.case(op, "default-p", d, [x], fn, kwargs={"seed": 11}, inplace=dropout_inplace, upcast=True)
        rec.case(op, "eval", d, [x], fn, kwargs={"seed": 7, "p": 0.3, "training": False}, inplace=dropout_inplace, upcast=True)
        rec.case(op, "p1", d, [x], fn, kwargs={"seed": 7, "p": 1.0}, inplace=dropout_inplace, upcast=True)
        rec.case(op, "bad-p", d, [x], fn, kwargs={"seed": 7, "p": 1.5}, inplace=dropout_inplace)


def bernoulli_cases(rec):
    op = "bernoulli"

    def fn(a, k):
        k = kw_seed(k)
        if "p" in k:
            return torch.bernoulli(a[0], k["p"])
        return torch.bernoulli(a[0])

    for d in ALL:
        g = gen_for(op, d)
        rec.case(op, "probs", d, [T(d, [3, 5], values_for(d, [3, 5], g, "prob"))], fn, kwargs={"seed": 3}, upcast=True)
        if not is_float(d):
            continue
        rec.case(op, "p", d, [T(d, [10], rnd(d, [10], g))], fn, kwargs={"seed": 5, "p": 0.3}, upcast=True)
        rec.case(op, "bad-probs", d, [T(d, [2], [0.5, 1.5])], fn, kwargs={"seed": 5})


def multinomial_cases(rec):
    op = "multinomial"

    def fn(a, k):
        k = kw_seed(k)
        return torch.multinomial(a[0], k["num_samples"], replacement=k["replacement"])

    for d in ALL:
        g = gen_for(op, d)
        rec.case(op, "replacement", d, [T(d, [3, 5], values_for(d, [3, 5], g, "prob"))], fn, kwargs={"seed": 3, "numSamples": 7, "replacement": True}, upcast=True)
        if not is_float(d):
            continue
        rec.case(op, "1d", d, [T(d, [6], probs(d, [6], g))], fn, kwargs={"seed": 9, "numSamples": 10, "replacement": True}, upcast=True)
        rec.case(op, "too-many", d, [T(d, [3], probs(d, [3], g))], fn, kwargs={"seed": 9, "numSamples": 4, "replacement": False})
        rec.case(op, "negative", d, [T(d, [3], [0.5, -0.1, 0.2])], fn, kwargs={"seed": 9, "numSamples": 2, "replacement": True})


# Samples where PyTorch raises: no upcast retry (the float32 run raises the same error).
ERROR_SAMPLES = {"oob", "batch-mismatch", "out-of-range", "size-mismatch", "bad-stats", "bad-shape", "bad-groups",
                 "one-value", "too-many", "negative", "bad-p", "bad-probs", "too-small"}


NO_ACC = {"embedding", "oneHot", "dropout", "bernoulli", "multinomial"}


class NnRecorder(Recorder):
    """Error samples record the error 2.x raises (16-bit inputs run on float32 copies, so a
    kernel 1.13 lacks does not hide it); every other floating case is checked against float32
    accumulation (`float_acc`), as 2.x's opmath computes these ops."""

    def case(self, op, sample, dtype, inputs, fn, **kw):
        if sample in ERROR_SAMPLES:
            kw["upcast"] = False
            if dtype in ("float16", "bfloat16"):
                inner = fn
                fn = lambda a, k: inner([x.float() if isinstance(x, torch.Tensor) and x.dtype == DTYPES[dtype] else x for x in a], k)
        elif op not in NO_ACC:
            kw["float_acc"] = ("float16", "bfloat16")
        super().case(op, sample, dtype, inputs, fn, **kw)


def make():
    rec = NnRecorder()
    softmax_cases(rec, "softmax", lambda a, k: F.softmax(a[0], **k))
    softmax_cases(rec, "logSoftmax", lambda a, k: F.log_softmax(a[0], **k))
    linear_cases(rec)
    nll_cases(rec)
    cross_entropy_cases(rec)
    pair_loss_cases(rec, "mseLoss", lambda a, k: F.mse_loss(a[0], a[1], **k))
    pair_loss_cases(rec, "l1Loss", lambda a, k: F.l1_loss(a[0], a[1], **k))
    pair_loss_cases(rec, "smoothL1Loss", lambda a, k: F.smooth_l1_loss(a[0], a[1], **k), extra=[("beta", {"beta": 0.5}), ("beta0", {"beta": 0.0})])
    bce_cases(rec)
    bce_logits_cases(rec)
    batch_norm_cases(rec)
    layer_norm_cases(rec)
    group_norm_cases(rec)
    embedding_cases(rec)
    one_hot_cases(rec)
    dropout_cases(rec)
    bernoulli_cases(rec)
    multinomial_cases(rec)
    return {"family": "nn", **rec.result()}
