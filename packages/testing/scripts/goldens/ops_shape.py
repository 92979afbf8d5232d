"""Goldens for the joining and reordering ops of the OpInfo table (goldens/ops_shape.json),
and torch.fft.fftshift / ifftshift (rolls).

cat stack hstack vstack repeat tile flip roll triu tril repeatInterleave on every dtype:
each op's dims (negative ones included), empty and 0-dim inputs, cat's type promotion and
its legacy rule for 1-D empty tensors, and the errors PyTorch raises. These ops only move
elements, so every value is exact. The case format is described in _ops_common.py.
"""
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, S, T, Recorder, edges, fill, gen_for  # noqa: E402

_ops_common.PY_KWARGS.update({"repeats": "repeats", "dims": "dims", "shifts": "shifts", "diagonal": "diagonal"})


def vals(d, shape, g, with_edges=True):
    return fill(d, shape, g, edges(d) if with_edges else None)


def tensors(op, sample, d, shapes, dtypes=None):
    g = gen_for(op, sample, d)
    return [T(dt, s, vals(dt, s, g)) for s, dt in zip(shapes, dtypes or [d] * len(shapes))]


CAT = [
    ("dim0", [[2, 3], [1, 3]], {}),
    ("dim1", [[2, 3], [2, 2]], {"dim": 1}),
    ("neg-dim", [[2, 1, 2], [2, 1, 3]], {"dim": -1}),
    ("three", [[2, 1, 2], [2, 3, 2], [2, 2, 2]], {"dim": 1}),
    ("single", [[3, 2]], {}),
    ("legacy-empty", [[0], [2, 3], [0]], {}),
    ("all-legacy-empty", [[0], [0]], {}),
    ("zero-size", [[0, 3], [2, 3]], {}),
    ("zero-size-dim", [[2, 0], [2, 0]], {"dim": 1}),
    ("zero-dim", [[], [2]], {}),
    ("size-mismatch", [[2, 3], [2, 4]], {}),
    ("ndim-mismatch", [[2, 3], [3]], {}),
    ("dim-range", [[2, 3], [2, 3]], {"dim": 2}),
]

STACK = [
    ("dim0", [[2, 3], [2, 3]], {}),
    ("dim1", [[2, 3], [2, 3], [2, 3]], {"dim": 1}),
    ("dim-last", [[2, 3], [2, 3]], {"dim": -1}),
    ("0d", [[], []], {}),
    ("empty", [[0, 2], [0, 2]], {"dim": 1}),
    ("unequal", [[2], [3]], {}),
    ("dim-range", [[2], [2]], {"dim": 3}),
]

HVSTACK = [
    ("1d", [[3], [2]]),
    ("2d", [[2, 3], [2, 1]]),
    ("0d", [[], []]),
]
VSTACK = [
    ("1d", [[3], [3]]),
    ("2d", [[2, 3], [1, 3]]),
    ("3d", [[1, 2, 2], [2, 2, 2]]),
]

REPEAT = [
    ("2d", [2, 3], [2, 1]),
    ("more-dims", [2, 3], [2, 1, 2]),
    ("0d", [], [3]),
    ("0d-empty-reps", [], []),
    ("zero-rep", [2, 3], [0, 2]),
    ("empty", [0, 2], [2, 2]),
    ("fewer-reps", [2, 3], [2]),
    ("negative", [2, 3], [-1, 2]),
]

TILE = [
    ("fewer", [2, 3], [2]),
    ("more", [2, 3], [1, 2, 2]),
    ("same", [2, 2], [2, 3]),
]

FLIP = [
    ("dim0", [3, 2], [0]),
    ("both", [2, 3], [0, 1]),
    ("neg", [2, 2, 3], [-1]),
    ("outer-inner", [2, 2, 3], [0, 2]),
    ("none", [2, 3], []),
    ("0d", [], []),
    ("empty", [0, 3], [1]),
    ("dup", [2, 3], [0, 0]),
    ("range", [2, 3], [2]),
]

# torch.fft.fftshift / ifftshift (OpInfo names fftFftshift / fftIfftshift): rolls by n // 2 or (n + 1) // 2
FFTSHIFT = [
    ("all", [3, 4], {}),
    ("odd", [5], {}),
    ("even", [6], {}),
    ("dim", [4, 5], {"dim": [1]}),
    ("dims", [2, 3, 5], {"dim": [-1, 0]}),
    ("empty", [0, 3], {"dim": [1]}),
    ("range", [2, 3], {"dim": [2]}),
    ("0d", [], {}),
]
ROLL = [
    ("flat", [2, 3], {"shifts": [1]}),
    ("flat-neg", [3, 2], {"shifts": [-4]}),
    ("dim", [2, 3], {"shifts": [1], "dims": [1]}),
    ("big-shift", [2, 3], {"shifts": [7], "dims": [-1]}),
    ("two-dims", [3, 4], {"shifts": [1, -2], "dims": [0, 1]}),
    ("same-dim-twice", [5], {"shifts": [2, 1], "dims": [0, 0]}),
    ("0d", [], {"shifts": [1]}),
    ("empty", [0, 2], {"shifts": [1], "dims": [0]}),
    ("mismatch", [2, 3], {"shifts": [1, 2], "dims": [0]}),
    ("range", [2, 3], {"shifts": [1], "dims": [2]}),
]

TRI = [
    ("square", [3, 3], {}),
    ("rect", [3, 5], {}),
    ("tall", [5, 2], {}),
    ("pos", [4, 4], {"diagonal": 1}),
    ("neg", [4, 3], {"diagonal": -1}),
    ("far", [3, 3], {"diagonal": 5}),
    ("far-neg", [3, 3], {"diagonal": -5}),
    ("batch", [2, 3, 3], {"diagonal": 0}),
    ("empty", [0, 3], {}),
]


def make():
    rec = Recorder()
    cat = lambda a, k: torch.cat(a, **k)  # noqa: E731
    stack = lambda a, k: torch.stack(a, **k)  # noqa: E731
    for d in ALL:
        for sample, shapes, kw in CAT:
            rec.case("cat", sample, d, tensors("cat", sample, d, shapes), cat, kw)
        for sample, shapes, kw in STACK:
            rec.case("stack", sample, d, tensors("stack", sample, d, shapes), stack, kw)
        for sample, shapes in HVSTACK:
            rec.case("hstack", sample, d, tensors("hstack", sample, d, shapes), lambda a, k: torch.hstack(a))
        for sample, shapes in VSTACK:
            rec.case("vstack", sample, d, tensors("vstack", sample, d, shapes), lambda a, k: torch.vstack(a))
        for sample, shape, reps in REPEAT:
            rec.case("repeat", sample, d, tensors("repeat", sample, d, [shape]), lambda a, k: a[0].repeat(*k["repeats"]) if k["repeats"] else a[0].repeat(torch.Size([])), {"repeats": reps})
        for sample, shape, reps in TILE:
            rec.case("tile", sample, d, tensors("tile", sample, d, [shape]), lambda a, k: torch.tile(a[0], k["dims"]), {"dims": reps})
        for sample, shape, dims in FLIP:
            rec.case("flip", sample, d, tensors("flip", sample, d, [shape]), lambda a, k: torch.flip(a[0], k["dims"]), {"dims": dims})
        for sample, shape, kw in ROLL:
            rec.case("roll", sample, d, tensors("roll", sample, d, [shape]), lambda a, k: torch.roll(a[0], **k), kw)
        for op, fn in (("fftFftshift", torch.fft.fftshift), ("fftIfftshift", torch.fft.ifftshift)):
            for sample, shape, kw in FFTSHIFT:
                rec.case(op, sample, d, tensors(op, sample, d, [shape]), lambda a, k, fn=fn: fn(a[0], **k), kw)
        for op in ("triu", "tril"):
            for sample, shape, kw in TRI:
                rec.case(op, sample, d, tensors(op, sample, d, [shape]), lambda a, k, op=op: getattr(torch, op)(a[0], **k), kw,
                         inplace=lambda a, k, op=op: getattr(a[0], op + "_")(**k))
        # repeat_interleave: int repeats (a JS scalar), and int64 tensors of repeats
        ri = lambda a, k: torch.repeat_interleave(a[0], a[1], **k)  # noqa: E731
        g = gen_for("repeatInterleave", d)
        x23 = T(d, [2, 3], vals(d, [2, 3], g))
        rec.case("repeatInterleave", "int-flat", d, [x23, S(2)], ri)
        rec.case("repeatInterleave", "int-dim", d, [x23, S(3)], ri, {"dim": 1})
        rec.case("repeatInterleave", "int-zero", d, [x23, S(0)], ri, {"dim": 0})
        rec.case("repeatInterleave", "tensor-dim", d, [x23, T("int64", [2], [1, 3])], ri, {"dim": 0})
        rec.case("repeatInterleave", "tensor-dim-neg", d, [x23, T("int64", [3], [2, 0, 1])], ri, {"dim": -1})
        rec.case("repeatInterleave", "tensor-one", d, [x23, T("int64", [1], [2])], ri, {"dim": 1})
        rec.case("repeatInterleave", "tensor-flat", d, [x23, T("int64", [6], [1, 0, 2, 1, 1, 3])], ri)
        rec.case("repeatInterleave", "tensor-wrong-size", d, [x23, T("int64", [2], [1, 1])], ri, {"dim": 1})
        rec.case("repeatInterleave", "tensor-negative", d, [x23, T("int64", [2], [1, -1])], ri, {"dim": 0})
    # cat promotes across its inputs
    for da, db in [("int8", "uint8"), ("int32", "float32"), ("bool", "int64"), ("float16", "bfloat16"), ("float32", "float64"), ("float64", "int8")]:
        ts = tensors("cat", "promote", f"{da}+{db}", [[1, 3], [2, 3]], [da, db])
        rec.case("cat", "promote", da, ts, cat, variant=f"{da}+{db}")
        ts = tensors("cat", "promote-empty", f"{da}+{db}", [[0], [2, 2]], [db, da])
        rec.case("cat", "promote-empty", da, ts, cat, variant=f"{db}+{da}")
        ts = tensors("stack", "promote", f"{da}+{db}", [[3], [3]], [da, db])
        rec.case("stack", "promote", da, ts, stack, variant=f"{da}+{db}")
    return {"family": "shape", **rec.result()}
