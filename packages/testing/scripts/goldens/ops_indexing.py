"""Goldens for the indexing ops of the OpInfo table (goldens/ops_indexing.json).

Advanced indexing (`index`: integer index tensors, masks, booleans, mixed with slices,
numbers, None and '...', adjacent and separated indexed dims, broadcast indices),
indexPut (set and accumulate, duplicates, masks), gather, scatter (src, value, reduce),
scatterAdd, scatterReduce (sum prod mean amax amin, with and without include_self),
indexSelect, indexAdd (alpha), indexFill, take, maskedFill (Scalar and 0-dim tensor values),
maskedSelect, maskedScatter and nonzero (and its as_tuple form), on every dtype, with
out-of-range indices and other errors PyTorch raises.

Index tensors are int64 (int32 where PyTorch takes it) inputs after the first; an `index`
or `indexPut` case spells its items in kwargs["items"]: ':' / '...' / null / an int /
{"slice": [start, end, step]} / {"input": k} for the k-th input tensor. The case format is
described in _ops_common.py.
"""
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, S, T, Recorder, edges, fill, gen_for, is_float  # noqa: E402

# Keyword names of this family, spelled as torch-ts spells them (the runner passes them on).
_ops_common.PY_KWARGS.update({"reduce": "reduce", "includeSelf": "include_self", "accumulate": "accumulate",
                              "items": "items", "asTuple": "as_tuple"})


def _flat(values):
    return [v for x in values for v in (_flat(x) if isinstance(x, list) else [x])]


def L(values, shape=None, dtype="int64"):
    """An index tensor input (values may be nested lists)."""
    shape = [len(values)] if shape is None else shape
    return T(dtype, shape, _flat(values))


def B(values, shape=None):
    """A bool mask input."""
    shape = [len(values)] if shape is None else shape
    return T("bool", shape, values)


def vals(d, shape, g, op):
    if is_float(d):
        return fill(d, shape, g, scale=3.0)
    if d == "bool":
        return fill(d, shape, g)
    if d == "uint8":
        return fill(d, shape, g, lo=0, hi=9)
    return fill(d, shape, g, lo=-9, hi=9)


def scalar_for(d):
    if d == "bool":
        return True
    return 2.5 if is_float(d) else 7


# ---- advanced indexing ----
def py_items(items, args):
    out = []
    for it in items:
        if it == ":":
            out.append(slice(None))
        elif it == "...":
            out.append(Ellipsis)
        elif isinstance(it, dict) and "slice" in it:
            out.append(slice(*it["slice"]))
        elif isinstance(it, dict) and "input" in it:
            out.append(args[it["input"]])
        else:
            out.append(it)
    return tuple(out)


def index_fn(a, k):
    return a[0][py_items(k["items"], a)]


def index_fn_int32(a, k):
    # PyTorch 2.x indexes with int32 tensors (1.13 refuses: "tensors used as indices must be
    # long, byte or bool tensors"): the golden is what 2.x computes, the indices as int64.
    return index_fn([a[0]] + [x.long() if isinstance(x, torch.Tensor) and x.dtype == torch.int32 else x for x in a[1:]], k)


def index_put_fn(a, k):
    return a[0].clone().index_put_(tuple(a[1:-1]), a[-1], accumulate=k.get("accumulate", False))


def index_put_inplace(a, k):
    return a[0].index_put_(tuple(a[1:-1]), a[-1], accumulate=k.get("accumulate", False))


INP = lambda k: {"input": k}  # noqa: E731

INDEX_SAMPLES = [
    # id, self shape, [index inputs], items
    ("int", [4, 3], [L([2, 0, 3, 2])], [INP(1)]),
    ("neg", [4, 3], [L([-1, -4, 1])], [INP(1)]),
    ("2d-index", [4, 3], [L([0, 3, 1, 1], [2, 2])], [INP(1)]),
    ("adjacent", [2, 3, 4], [L([[0], [2]], [2, 1]), L([1, 3])], [":", INP(1), INP(2)]),
    ("separated", [2, 3, 4], [L([0, 1, 1]), L([3, 0, 2])], [INP(1), ":", INP(2)]),
    ("slice-number", [3, 4, 5], [L([4, 0])], [{"slice": [0, 3, 2]}, 1, INP(1)]),
    ("ellipsis", [2, 3, 4], [L([3, 1, 0])], ["...", INP(1)]),
    ("newaxis", [3, 4], [L([1, 2])], [INP(1), None]),
    ("mask", [3, 4], [B([True, False, True])], [INP(1)]),
    ("mask-2d", [2, 3, 4], [B([True, False, True, False, False, True], [2, 3])], [INP(1)]),
    ("mask-inner", [2, 3, 4], [B([True, True, False, False], [4])], ["...", INP(1)]),
    ("mask-and-int", [3, 4], [B([False, True, True]), L([3, 0])], [INP(1), INP(2)]),
    ("bool", [2, 3], [], [True]),
    ("bool-false", [2, 3], [], [":", False]),
    ("int32", [4, 3], [L([1, 3], dtype="int32")], [INP(1)]),
    ("empty-index", [4, 3], [L([], [0])], [INP(1)]),
    ("empty-self", [0, 3], [L([], [0])], [":", INP(1)]),
    ("0dim-index", [4, 3], [L([2], [])], [":", INP(1)]),
]
# error samples: (id, shape, index inputs, items)
INDEX_ERRORS = [
    ("out-of-range", [4, 3], [L([1, 4])], [INP(1)]),
    ("out-of-range-neg", [4, 3], [L([0, -5])], [INP(1)]),
    ("out-of-range-dim1", [4, 3], [L([3])], [":", INP(1)]),
]


def index_cases(rec):
    for d in ALL:
        for sid, shape, idx, items in INDEX_SAMPLES + INDEX_ERRORS:
            g = gen_for("index", sid, d)
            fn = index_fn_int32 if sid == "int32" else index_fn
            rec.case("index", sid, d, [T(d, shape, vals(d, shape, g, "index")), *idx], fn, {"items": items})


INDEX_PUT_SAMPLES = [
    # id, shape, index inputs, values shape, accumulate
    ("set", [5, 3], [L([4, 0, 2])], [3, 3], False),
    ("set-2idx", [4, 3], [L([0, 3]), L([2, 1])], [2], False),
    ("broadcast-values", [4, 3], [L([1, 3])], [3], False),
    ("0dim-values", [4, 3], [L([0, 2])], [], False),
    ("accumulate", [4, 3], [L([1, 1, 3, 1])], [4, 3], True),
    ("accumulate-2idx", [3, 4], [L([0, 0, 2]), L([1, 1, 3])], [3], True),
    ("mask", [3, 4], [B([True, False, True])], [2, 4], False),
    ("mask-accumulate", [3, 4], [B([True, False, True, True, False, False, True, False, True, True, True, False], [3, 4])], [1], True),
    ("neg", [4, 3], [L([-1, -4])], [2, 3], False),
    ("out-of-range", [4, 3], [L([0, 4])], [2, 3], False),
    ("shape-mismatch", [4, 3], [L([0, 1])], [3, 3], False),
]


def index_put_cases(rec):
    for d in ALL:
        for sid, shape, idx, vshape, acc in INDEX_PUT_SAMPLES:
            g = gen_for("indexPut", sid, d)
            x = T(d, shape, vals(d, shape, g, "indexPut"))
            v = T(d, vshape, vals(d, vshape, g, "indexPut"))
            items = [INP(k + 1) for k in range(len(idx))]
            kw = {"items": items, "accumulate": acc} if acc else {"items": items}
            rec.case("indexPut", sid, d, [x, *idx, v], index_put_fn, kw, "", index_put_inplace)
    # values of another dtype: PyTorch refuses (index_put_ needs matching dtypes)
    g = gen_for("indexPut", "dtype-mismatch")
    rec.case("indexPut", "dtype-mismatch", "float32", [T("float32", [3], [1.5, 2.5, 3.5]), L([0]), T("float64", [1], [0.5])],
             index_put_fn, {"items": [INP(1)]}, "", index_put_inplace)


# ---- gather / scatter ----
def gather_cases(rec):
    fn = lambda a, k: torch.gather(a[0], k["dim"], a[1])  # noqa: E731
    samples = [
        ("dim0", [3, 4], {"dim": 0}, L([0, 2, 1, 2, 1, 0, 0, 2], [2, 4])),
        ("dim1", [3, 4], {"dim": 1}, L([3, 0, 1, 1, 2, 2], [3, 2])),
        ("neg-dim", [2, 3, 4], {"dim": -1}, L([0, 3, 1, 2, 2, 3], [2, 1, 3])),
        ("smaller", [3, 4], {"dim": 0}, L([2, 0], [1, 2])),
        ("neg-index", [3, 4], {"dim": 1}, L([-1, -4, 0], [3, 1])),
        ("0dim", [], {"dim": 0}, L([0], [])),
        ("empty-index", [3, 4], {"dim": 1}, L([], [3, 0])),
        ("out-of-range", [3, 4], {"dim": 1}, L([4, 0], [1, 2])),
        ("bad-shape", [3, 4], {"dim": 0}, L([0, 0, 0, 0, 0], [1, 5])),
        ("int32-index", [3, 4], {"dim": 0}, L([0, 1], [1, 2], dtype="int32")),
    ]
    for d in ALL:
        for sid, shape, kw, idx in samples:
            g = gen_for("gather", sid, d)
            rec.case("gather", sid, d, [T(d, shape, vals(d, shape, g, "gather")), idx], fn, kw)


# distinct positions per column (scatter without reduce is nondeterministic on duplicates)
SCATTER_SAMPLES = [
    ("dim0", [3, 4], {"dim": 0}, L([1, 0, 2, 0, 2, 2, 0, 1], [2, 4]), [2, 4]),
    ("dim1", [3, 4], {"dim": 1}, L([3, 0, 1, 2, 2, 0], [3, 2]), [3, 3]),
    ("neg-dim", [2, 3], {"dim": -1}, L([2, -3], [1, 2]), [2, 2]),
    ("0dim", [], {"dim": 0}, L([0], []), []),
    ("empty-index", [3, 4], {"dim": 0}, L([], [0, 4]), [2, 4]),
]
SCATTER_DUP = [
    ("dup-dim0", [3, 4], {"dim": 0}, L([1, 1, 2, 0, 1, 1, 2, 0, 1, 2, 2, 2], [3, 4]), [3, 4]),
    ("dup-dim1", [2, 3], {"dim": 1}, L([0, 0, 0, 2, 1, 2, 2, 2], [2, 4]), [2, 5]),
]
SCATTER_ERRORS = [
    ("out-of-range", [3, 4], {"dim": 0}, L([3, 0], [1, 2]), [1, 2]),
    ("bad-shape", [3, 4], {"dim": 1}, L([0, 1, 2], [1, 3]), [1, 2]),
]


def scatter_cases(rec):
    fn = lambda a, k: torch.scatter(a[0], k["dim"], a[1], a[2], **({"reduce": k["reduce"]} if "reduce" in k else {}))  # noqa: E731
    inp = lambda a, k: a[0].scatter_(k["dim"], a[1], a[2], **({"reduce": k["reduce"]} if "reduce" in k else {}))  # noqa: E731
    for d in ALL:
        for sid, shape, kw, idx, sshape in SCATTER_SAMPLES + SCATTER_ERRORS:
            g = gen_for("scatter", sid, d)
            rec.case("scatter", sid, d, [T(d, shape, vals(d, shape, g, "s")), idx, T(d, sshape, vals(d, sshape, g, "s"))], fn, kw, "", inp)
        g = gen_for("scatter", "value", d)
        rec.case("scatter", "value", d, [T(d, [3, 4], vals(d, [3, 4], g, "s")), SCATTER_SAMPLES[1][3], S(scalar_for(d))], fn, {"dim": 1}, "", inp)
        for red in ("add", "multiply"):
            sid, shape, kw, idx, sshape = SCATTER_DUP[0]
            g = gen_for("scatter", red, d)
            rec.case("scatter", f"reduce-{red}", d, [T(d, shape, vals(d, shape, g, "s")), idx, T(d, sshape, vals(d, sshape, g, "s"))], fn,
                     {**kw, "reduce": red}, "", inp)


def scatter_add_cases(rec):
    fn = lambda a, k: torch.scatter_add(a[0], k["dim"], a[1], a[2])  # noqa: E731
    inp = lambda a, k: a[0].scatter_add_(k["dim"], a[1], a[2])  # noqa: E731
    for d in ALL:
        for sid, shape, kw, idx, sshape in SCATTER_SAMPLES + SCATTER_DUP + SCATTER_ERRORS:
            g = gen_for("scatterAdd", sid, d)
            rec.case("scatterAdd", sid, d, [T(d, shape, vals(d, shape, g, "s")), idx, T(d, sshape, vals(d, sshape, g, "s"))], fn, kw, "", inp)


def scatter_reduce_cases(rec):
    def fn(a, k):
        return torch.scatter_reduce(a[0], k["dim"], a[1], a[2], k["reduce"], include_self=k.get("include_self", True))

    def inp(a, k):
        return a[0].scatter_reduce_(k["dim"], a[1], a[2], k["reduce"], include_self=k.get("include_self", True))

    for d in ALL:
        for red in ("sum", "prod", "mean", "amax", "amin"):
            for include in (True, False):
                for sid, shape, kw, idx, sshape in SCATTER_DUP:
                    g = gen_for("scatterReduce", sid, red, include, d)
                    k = {**kw, "reduce": red} if include else {**kw, "reduce": red, "includeSelf": False}
                    name = f"{red}-{sid}" + ("" if include else "-exclude")
                    rec.case("scatterReduce", name, d, [T(d, shape, vals(d, shape, g, "s")), idx, T(d, sshape, vals(d, sshape, g, "s"))], fn, k,
                             "", inp, upcast=True)
        g = gen_for("scatterReduce", "bad-reduce", d)
        rec.case("scatterReduce", "out-of-range", d, [T(d, [3], vals(d, [3], g, "s")), L([3]), T(d, [1], vals(d, [1], g, "s"))], fn,
                 {"dim": 0, "reduce": "sum"}, "", inp)


# ---- index_select / index_add / take ----
def index_select_cases(rec):
    fn = lambda a, k: torch.index_select(a[0], k["dim"], a[1])  # noqa: E731
    samples = [
        ("dim0", [4, 3], {"dim": 0}, L([3, 0, 3])),
        ("dim1", [2, 3, 4], {"dim": 1}, L([2, 1])),
        ("neg-dim", [2, 3, 4], {"dim": -1}, L([0, 3, 3, 1, 2])),
        ("int32", [4, 3], {"dim": 0}, L([1, 2], dtype="int32")),
        ("0dim-index", [4, 3], {"dim": 1}, L([2], [])),
        ("empty-index", [4, 3], {"dim": 0}, L([], [0])),
        ("out-of-range", [4, 3], {"dim": 0}, L([0, 4])),
        ("2d-index", [4, 3], {"dim": 0}, L([0, 1], [1, 2])),
    ]
    for d in ALL:
        for sid, shape, kw, idx in samples:
            g = gen_for("indexSelect", sid, d)
            rec.case("indexSelect", sid, d, [T(d, shape, vals(d, shape, g, "s")), idx], fn, kw)


def index_add_cases(rec):
    def fn(a, k):
        return torch.index_add(a[0], k["dim"], a[1], a[2], **({"alpha": k["alpha"]} if "alpha" in k else {}))

    def inp(a, k):
        return a[0].index_add_(k["dim"], a[1], a[2], **({"alpha": k["alpha"]} if "alpha" in k else {}))

    samples = [
        ("dim0", [4, 3], {"dim": 0}, L([3, 0, 3]), [3, 3]),
        ("dim1", [2, 3, 4], {"dim": 1}, L([2, 2, 0, 1]), [2, 4, 4]),
        ("alpha", [4, 3], {"dim": 0, "alpha": 2}, L([1, 3]), [2, 3]),
        ("int32", [4, 3], {"dim": 1}, L([0, 2], dtype="int32"), [4, 2]),
        ("empty-index", [4, 3], {"dim": 0}, L([], [0]), [0, 3]),
        ("out-of-range", [4, 3], {"dim": 0}, L([4]), [1, 3]),
        ("bad-source", [4, 3], {"dim": 0}, L([0, 1]), [3, 3]),
    ]
    for d in ALL:
        for sid, shape, kw, idx, sshape in samples:
            g = gen_for("indexAdd", sid, d)
            kw2 = kw
            if sid == "alpha" and is_float(d):
                kw2 = {**kw, "alpha": 1.5}
            if sid == "alpha" and d == "bool":
                kw2 = {**kw, "alpha": True}
            # 2.x adds `alpha * source` in float32 and rounds once; 1.13 rounds alpha * source
            # to 16 bits first (float_acc marks the cases where the two differ).
            acc = ("float16", "bfloat16") if sid == "alpha" else ()
            rec.case("indexAdd", sid, d, [T(d, shape, vals(d, shape, g, "s")), idx, T(d, sshape, vals(d, sshape, g, "s"))], fn, kw2, "", inp,
                     float_acc=acc)


def index_fill_cases(rec):
    fn = lambda a, k: torch.Tensor.index_fill(a[0], k["dim"], a[1], a[2])  # noqa: E731
    inp = lambda a, k: a[0].index_fill_(k["dim"], a[1], a[2])  # noqa: E731
    samples = [
        ("dim0", [4, 3], {"dim": 0}, L([3, 0])),
        ("dim1-dup", [2, 3, 4], {"dim": 1}, L([2, 2, 0])),
        ("neg-index", [2, 3, 4], {"dim": -1}, L([-1, 0])),
        ("0dim-index", [4, 3], {"dim": 1}, L([2], [])),
        ("0dim", [], {"dim": 0}, L([0])),
        ("empty-index", [4, 3], {"dim": 0}, L([], [0])),
        ("out-of-range", [4, 3], {"dim": 0}, L([4])),
        ("int32", [4, 3], {"dim": 0}, L([1], dtype="int32")),
    ]
    for d in ALL:
        for sid, shape, kw, idx in samples:
            g = gen_for("indexFill", sid, d)
            rec.case("indexFill", sid, d, [T(d, shape, vals(d, shape, g, "s")), idx, S(scalar_for(d))], fn, kw, "", inp)
        g = gen_for("indexFill", "tensor-value", d)
        rec.case("indexFill", "tensor-value", d, [T(d, [3, 4], vals(d, [3, 4], g, "s")), L([1, 3]), T(d, [], vals(d, [], g, "s"))], fn,
                 {"dim": 1}, "", inp)


def take_cases(rec):
    fn = lambda a, k: torch.take(a[0], a[1])  # noqa: E731
    samples = [
        ("basic", [3, 4], L([0, 11, 5, 5])),
        ("neg", [3, 4], L([-1, -12, 3], [3, 1])),
        ("2d-index", [2, 3], L([0, 5, 1, 4], [2, 2])),
        ("0dim", [], L([0], [])),
        ("empty-index", [3, 4], L([], [0])),
        ("out-of-range", [3, 4], L([12])),
    ]
    for d in ALL:
        for sid, shape, idx in samples:
            g = gen_for("take", sid, d)
            rec.case("take", sid, d, [T(d, shape, vals(d, shape, g, "s")), idx], fn, {})


# ---- masked ops ----
def masked_fill_cases(rec):
    fn = lambda a, k: torch.masked_fill(a[0], a[1], a[2])  # noqa: E731
    inp = lambda a, k: a[0].masked_fill_(a[1], a[2])  # noqa: E731
    for d in ALL:
        g = gen_for("maskedFill", d)
        v = S(scalar_for(d))
        m34 = B([True, False, False, True, True, True, False, False, False, True, False, True], [3, 4])
        rec.case("maskedFill", "scalar", d, [T(d, [3, 4], vals(d, [3, 4], g, "s")), m34, v], fn, {}, "", inp)
        rec.case("maskedFill", "broadcast-mask", d, [T(d, [3, 4], vals(d, [3, 4], g, "s")), B([False, True, True, False]), v], fn, {}, "", inp)
        rec.case("maskedFill", "broadcast-self", d, [T(d, [4], vals(d, [4], g, "s")), m34, v], fn, {}, "", inp)
        rec.case("maskedFill", "tensor-value", d, [T(d, [3, 4], vals(d, [3, 4], g, "s")), m34, T(d, [], vals(d, [], g, "s"))], fn, {}, "", inp)
        rec.case("maskedFill", "0dim", d, [T(d, [], vals(d, [], g, "s")), B([True], []), v], fn, {}, "", inp)
        rec.case("maskedFill", "empty", d, [T(d, [0, 3], []), B([True, False, True]), v], fn, {}, "", inp)


def masked_select_cases(rec):
    fn = lambda a, k: torch.masked_select(a[0], a[1])  # noqa: E731
    for d in ALL:
        g = gen_for("maskedSelect", d)
        m34 = B([True, False, False, True, True, True, False, False, False, True, False, True], [3, 4])
        rec.case("maskedSelect", "basic", d, [T(d, [3, 4], vals(d, [3, 4], g, "s")), m34], fn, {})
        rec.case("maskedSelect", "broadcast-mask", d, [T(d, [3, 4], vals(d, [3, 4], g, "s")), B([False, True, True, False])], fn, {})
        rec.case("maskedSelect", "broadcast-self", d, [T(d, [3, 1], vals(d, [3, 1], g, "s")), m34], fn, {})
        rec.case("maskedSelect", "none", d, [T(d, [2, 2], vals(d, [2, 2], g, "s")), B([False] * 4, [2, 2])], fn, {})
        rec.case("maskedSelect", "0dim", d, [T(d, [], vals(d, [], g, "s")), B([True], [])], fn, {})


def masked_scatter_cases(rec):
    fn = lambda a, k: torch.Tensor.masked_scatter(a[0], a[1], a[2])  # noqa: E731
    inp = lambda a, k: a[0].masked_scatter_(a[1], a[2])  # noqa: E731
    for d in ALL:
        g = gen_for("maskedScatter", d)
        m34 = B([True, False, False, True, True, True, False, False, False, True, False, True], [3, 4])
        rec.case("maskedScatter", "basic", d, [T(d, [3, 4], vals(d, [3, 4], g, "s")), m34, T(d, [7], vals(d, [7], g, "s"))], fn, {}, "", inp)
        rec.case("maskedScatter", "broadcast-mask", d,
                 [T(d, [3, 4], vals(d, [3, 4], g, "s")), B([False, True, True, False]), T(d, [2, 4], vals(d, [2, 4], g, "s"))], fn, {}, "", inp)
        rec.case("maskedScatter", "longer-source", d,
                 [T(d, [2, 3], vals(d, [2, 3], g, "s")), B([True, False, True, False, False, True], [2, 3]), T(d, [2, 5], vals(d, [10], g, "s"))],
                 fn, {}, "", inp)
        rec.case("maskedScatter", "short-source", d,
                 [T(d, [2, 3], vals(d, [2, 3], g, "s")), B([True] * 6, [2, 3]), T(d, [4], vals(d, [4], g, "s"))], fn, {}, "", inp)


def nonzero_cases(rec):
    fn = lambda a, k: torch.nonzero(a[0], as_tuple=k.get("as_tuple", False))  # noqa: E731
    for d in ALL:
        g = gen_for("nonzero", d)
        e = edges(d)
        zero = False if d == "bool" else 0
        x = fill(d, [3, 4], g, [zero, e[1], zero, e[2], zero, zero, e[3], zero, e[-1], zero, e[2], zero])
        rec.case("nonzero", "basic", d, [T(d, [3, 4], x)], fn, {})
        rec.case("nonzero", "as-tuple", d, [T(d, [3, 4], x)], fn, {"asTuple": True})
        rec.case("nonzero", "edges", d, [T(d, [len(e)], e)], fn, {})
        rec.case("nonzero", "3d", d, [T(d, [2, 2, 3], fill(d, [12], g, [zero, zero, e[2], zero]))], fn, {})
        rec.case("nonzero", "0dim", d, [T(d, [], [e[2]])], fn, {})
        rec.case("nonzero", "empty", d, [T(d, [0, 3], [])], fn, {})


def make():
    rec = Recorder()
    index_cases(rec)
    index_put_cases(rec)
    gather_cases(rec)
    scatter_cases(rec)
    scatter_add_cases(rec)
    scatter_reduce_cases(rec)
    index_select_cases(rec)
    index_add_cases(rec)
    index_fill_cases(rec)
    take_cases(rec)
    masked_fill_cases(rec)
    masked_select_cases(rec)
    masked_scatter_cases(rec)
    nonzero_cases(rec)
    return {"family": "indexing", **rec.result()}
