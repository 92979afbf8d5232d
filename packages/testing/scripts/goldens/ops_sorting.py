"""Goldens for the sorting ops of the OpInfo table (goldens/ops_sorting.json).

sort argsort topk unique searchsorted bucketize on every dtype. sort and argsort are
stable (ties keep their order, NaN sorts as the largest), with ties and edge values;
topk's inputs have no ties (PyTorch leaves the order of tied indices unspecified); unique
covers the inverse and counts and the dim form, without NaN (1.13's CPU unique misplaces
NaNs; torch-ts follows 2.x, tested in packages/torch/test/join-reorder.test.ts);
searchsorted covers left/right, side, a sorter, int32 output, N-D boundaries, scalar values
and promotion. 16-bit floats are computed on float32 copies where 1.13 lacks the kernel
(2.x has it). The case format is described in _ops_common.py.
"""
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, S, T, Recorder, edges, fill, gen_for, is_float  # noqa: E402
from _dtypes import DTYPES  # noqa: E402

_ops_common.PY_KWARGS.update({
    "descending": "descending", "stable": "stable", "largest": "largest", "sorted": "sorted", "k": "k",
    "returnInverse": "return_inverse", "returnCounts": "return_counts", "right": "right", "side": "side",
    "outInt32": "out_int32",
})


def distinct(d, n, g):
    """n distinct values of dtype d (a shuffled range, scaled for floats)."""
    if d == "bool":
        return [bool(i % 2) for i in range(n)]
    perm = torch.randperm(n, generator=g).tolist()
    if is_float(d):
        return [(p - n / 2) * 0.75 for p in perm]
    if d == "uint8":
        return [p * 2 for p in perm]
    return [(p - n // 2) * 3 for p in perm]


def with_ties(d, n, g):
    """Values from a small set, so there are ties (sort's stability shows)."""
    if d == "bool":
        return (torch.rand(n, generator=g) < 0.5).tolist()
    v = torch.randint(0, 4, (n,), generator=g).tolist()
    return [x * 1.5 if is_float(d) else x for x in v]


SORT = [
    ("1d", [7], "random", {}),
    ("ties", [9], "ties", {"stable": True}),
    ("ties-desc", [9], "ties", {"stable": True, "descending": True}),
    ("edges", [20], "edges", {"stable": True}),
    ("edges-desc", [20], "edges", {"stable": True, "descending": True}),
    ("dim0", [4, 3], "ties", {"dim": 0, "stable": True}),
    ("mid-dim", [2, 5, 3], "ties", {"dim": 1, "stable": True, "descending": True}),
    ("0d", [], "random", {}),
    ("empty", [0, 3], "random", {"dim": 0}),
]

TOPK = [
    ("k3", [8], {"k": 3}),
    ("smallest", [8], {"k": 2, "largest": False}),
    ("dim0", [5, 3], {"k": 2, "dim": 0}),
    ("k0", [4], {"k": 0}),
    ("kall", [2, 4], {"k": 4}),
    ("0d", [], {"k": 1}),
    ("k-too-big", [3], {"k": 4}),
]


def sort_values(d, shape, pool, g):
    n = 1
    for s in shape:
        n *= s
    if pool == "ties":
        return with_ties(d, n, g)
    if pool == "edges":
        return fill(d, shape, g, edges(d))
    return distinct(d, n, g)


def sorted_seq(d, n, g):
    if d == "bool":
        return [False] * (n // 2) + [True] * (n - n // 2)
    return sorted(distinct(d, n, g))


def make():
    rec = Recorder()
    sort = lambda a, k: torch.sort(a[0], **k)  # noqa: E731
    argsort = lambda a, k: torch.argsort(a[0], **k)  # noqa: E731
    topk = lambda a, k: torch.topk(a[0], **k)  # noqa: E731
    unique = lambda a, k: torch.unique(a[0], **k)  # noqa: E731
    ss = lambda a, k: torch.searchsorted(a[0], a[1], **k)  # noqa: E731
    ss_sorter = lambda a, k: torch.searchsorted(a[0], a[1], sorter=a[2], **k)  # noqa: E731
    bucket = lambda a, k: torch.bucketize(a[0], a[1], **k)  # noqa: E731
    for d in ALL:
        for sample, shape, pool, kw in SORT:
            g = gen_for("sort", sample, d)
            x = T(d, shape, sort_values(d, shape, pool, g))
            rec.case("sort", sample, d, [x], sort, kw, upcast=True)
            akw = {**kw, "stable": True}
            rec.case("argsort", sample, d, [x], argsort, akw, upcast=True)
        for sample, shape, kw in TOPK:
            g = gen_for("topk", sample, d)
            n = 1
            for s in shape:
                n *= s
            rec.case("topk", sample, d, [T(d, shape, distinct(d, n, g))], topk, kw, upcast=True)
        g = gen_for("unique", d)
        vals = with_ties(d, 10, g)
        x = T(d, [10], vals)
        rec.case("unique", "flat", d, [x], unique, upcast=True)
        rec.case("unique", "inverse", d, [T(d, [2, 5], vals)], unique, {"returnInverse": True}, upcast=True)
        rec.case("unique", "counts", d, [x], unique, {"returnCounts": True}, upcast=True)
        rec.case("unique", "both", d, [T(d, [5, 2], vals)], unique, {"returnInverse": True, "returnCounts": True}, upcast=True)
        rows = with_ties(d, 4, g)
        rv = [rows[i % 2] if j == 0 else rows[2 + (i % 3 == 0)] for i in range(6) for j in range(2)]
        rec.case("unique", "dim0", d, [T(d, [6, 2], rv)], unique, {"dim": 0, "returnInverse": True, "returnCounts": True}, upcast=True)
        rec.case("unique", "dim1", d, [T(d, [2, 6], torch.tensor(rv).reshape(6, 2).t().reshape(-1).tolist())], unique,
                 {"dim": 1, "returnCounts": True}, upcast=True)
        rec.case("unique", "empty", d, [T(d, [0], [])], unique, {"returnInverse": True, "returnCounts": True}, upcast=True)
        rec.case("unique", "0d", d, [T(d, [], vals[:1])], unique, {"returnInverse": True}, upcast=True)
        # searchsorted / bucketize
        g = gen_for("searchsorted", d)
        seq = sorted_seq(d, 6, g)
        probe = fill(d, [3, 4], g, seq[:3] + edges(d)[:6])
        b = T(d, [6], seq)
        v = T(d, [3, 4], probe)
        rec.case("searchsorted", "left", d, [b, v], ss, upcast=True)
        rec.case("searchsorted", "right", d, [b, v], ss, {"right": True}, upcast=True)
        rec.case("searchsorted", "side", d, [b, v], ss, {"side": "right"}, upcast=True)
        rec.case("searchsorted", "int32", d, [b, v], ss, {"outInt32": True}, upcast=True)
        rows2 = sorted_seq(d, 4, g) + sorted_seq(d, 4, g)
        rec.case("searchsorted", "nd", d, [T(d, [2, 4], rows2), T(d, [2, 3], fill(d, [2, 3], g, rows2[:3]))], ss, upcast=True)
        perm = torch.randperm(6, generator=g).tolist()
        unsorted = [seq[p] for p in perm]
        sorter = [perm.index(i) for i in range(6)]
        rec.case("searchsorted", "sorter", d, [T(d, [6], unsorted), v, T("int64", [6], sorter)], ss_sorter, upcast=True)
        rec.case("searchsorted", "empty-values", d, [b, T(d, [0], [])], ss, upcast=True)
        rec.case("searchsorted", "empty-seq", d, [T(d, [0], []), T(d, [2], probe[:2])], ss, upcast=True)
        rec.case("searchsorted", "scalar", d, [b, S(1.5 if is_float(d) else (True if d == "bool" else 2))], ss, upcast=True)
        rec.case("searchsorted", "shape-mismatch", d, [T(d, [2, 3], fill(d, [2, 3], g)), T(d, [3, 3], fill(d, [3, 3], g))], ss)
        rec.case("bucketize", "left", d, [v, b], bucket, upcast=True)
        rec.case("bucketize", "right", d, [v, b], bucket, {"right": True, "outInt32": True}, upcast=True)
        rec.case("bucketize", "0d", d, [T(d, [], probe[:1]), b], bucket, upcast=True)
        rec.case("bucketize", "2d-boundaries", d, [v, T(d, [2, 3], seq)], bucket)
    for da, db in [("int32", "float32"), ("float64", "int64"), ("int8", "uint8")]:
        g = gen_for("searchsorted", "promote", da, db)
        rec.case("searchsorted", "promote", da, [T(da, [4], sorted_seq(da, 4, g)), T(db, [3], fill(db, [3], g))], ss, variant=f"{da}+{db}")
    return {"family": "sorting", **rec.result()}
