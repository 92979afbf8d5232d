"""Shared machinery of the op goldens (ops_pointwise.py, ops_reduction.py, ops_linalg.py).

The leading underscore keeps make_goldens.py from treating this file as an area.

Every case records, for one op x sample x dtype:
  sample     the sample id (the OpInfo table in src/op-info lists the same ids)
  variant    "" or what tells apart several cases of one sample and dtype ("int8+uint8")
  dtype      the dtype the case is filed under (the first tensor input's, usually)
  inputs     [{"dtype", "shape", "values"}] for tensors, {"scalar": v} for JS scalars
  kwargs     the options object, spelled as torch-ts spells it (roundingMode, keepdim...)
  expected   {"dtype", "shape", "values"}, or a list of them for tuple results
  error      {"type", "message"} instead of expected when PyTorch raises
  reference  "upcast" where torch-ts follows PyTorch 2.x rather than 1.13 for Half/BFloat16
             (docs/api.md): the op ran on float32 copies and the result was cast back, which is
             what 2.x computes. Either 1.13's CPU kernel lacks the dtype, or (`float_acc`
             ops) 1.13 rounds partial results to 16 bits where 2.x accumulates in float32;
             such a case is marked only when the two answers differ
  inplace    for ops with an in-place form whose first input is a tensor: "ok", or the
             {"type", "message"} PyTorch raises for `x.clone().op_(...)`

Values are flat, row-major. Float values are exact doubles (16-bit floats are stored as the
double they decode to); non-finite ones travel as "nan"/"inf"/"-inf" (the driver writes
them). int64 values beyond 2^53 are decimal strings, so wrap-around survives JSON. Float
scalars are never integer-valued: in JS an integer-valued number is an int scalar.
"""
import math
import zlib

import torch

from _dtypes import DTYPES, NAME  # noqa: E402
ALL = list(DTYPES)
FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int8", "uint8", "int16", "int32", "int64"]
SIGNED = ["int8", "int16", "int32", "int64"]

SAFE = 2**53


def is_float(name):
    return name in FLOATS


def gen_for(*key):
    """A generator seeded from the case's name, so adding a case never shifts another."""
    g = torch.Generator()
    g.manual_seed(zlib.crc32("/".join(str(k) for k in key).encode()))
    return g


# ---- value pools ----
def float_edges(name):
    big = {"float16": 60000.0, "bfloat16": 3.0e38, "float32": 3.0e38, "float64": 1.0e300}[name]
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.0, -7.25, 100.0, -1000.5,
            1e-3, big, -big, math.nan, math.inf, -math.inf]
    return _exact(vals, name)


def int_edges(name):
    if name == "bool":
        return [True, False, True, True, False]
    if name == "uint8":
        return [0, 1, 2, 7, 100, 127, 128, 200, 254, 255]
    info = torch.iinfo(DTYPES[name])
    lo, hi = (info.min, info.max) if name != "int64" else (-(2**52), 2**52)
    return [0, 1, -1, 2, -2, 7, -7, 100, -100, lo, hi, lo + 1, hi - 1]


def edges(name):
    return float_edges(name) if is_float(name) else int_edges(name)


def _exact(vals, name):
    """The values as `name` stores them, as doubles (exact for 16-bit floats)."""
    return torch.tensor(vals, dtype=torch.float64).to(DTYPES[name]).double().tolist()


def random_values(name, n, g, scale=3.0, lo=None, hi=None):
    if name == "bool":
        return (torch.rand(n, generator=g) < 0.5).tolist()
    if is_float(name):
        return _exact((torch.randn(n, generator=g, dtype=torch.float64) * scale).tolist(), name)
    info = torch.iinfo(DTYPES[name])
    lo = max(info.min, -100) if lo is None else lo
    hi = min(info.max, 100) if hi is None else hi
    return torch.randint(lo, hi + 1, (n,), generator=g, dtype=torch.int64).tolist()


def fill(name, shape, g, pool=None, scale=3.0, lo=None, hi=None):
    """`numel(shape)` values: the pool first (cycled when short), then random ones."""
    n = math.prod(shape)
    pool = list(pool or [])
    head = pool[:n]
    rest = random_values(name, n - len(head), g, scale, lo, hi) if n > len(head) else []
    return head + rest


# The shape pairs every binary op's goldens cover: equal, broadcast (also against 0-dim), 0-dim
# with 0-dim and with a tensor, and empty.
BINARY_SHAPES = [
    ("same-shape", [4, 5], [4, 5]),
    ("broadcast", [2, 1, 4], [3, 1]),
    ("broadcast-0dim", [2, 3], []),
    ("0dim-0dim", [], []),
    ("0dim-tensor", [], [3]),
    ("empty", [0, 3], [3]),
]


def small_operand(d, shape, g):
    """An operand whose products and sums stay exact: floats in [-2, 2], ints in [-5, 5] ([0, 5] for uint8)."""
    if is_float(d):
        return fill(d, shape, g, scale=2.0)
    if d == "bool":
        return fill(d, shape, g)
    lo, hi = (0, 5) if d == "uint8" else (-5, 5)
    return fill(d, shape, g, lo=lo, hi=hi)


def small_operands(op, sample, d, shapes):
    """One `small_operand` per shape, drawn from the case's own generator."""
    g = gen_for(op, sample, d)
    return [T(d, s, small_operand(d, s, g)) for s in shapes]


def shuffled(vals, g):
    perm = torch.randperm(len(vals), generator=g).tolist()
    return [vals[i] for i in perm]


def make_tensor(name, shape, values):
    if name == "bool":
        return torch.tensor(values, dtype=torch.bool).reshape(shape)
    if name == "int64" or name in INTS:
        return torch.tensor(values, dtype=torch.int64).to(DTYPES[name]).reshape(shape)
    return torch.tensor(values, dtype=torch.float64).to(DTYPES[name]).reshape(shape)


class T:
    """A tensor input: dtype name, shape, flat values (built on use)."""

    def __init__(self, name, shape, values):
        assert len(values) == math.prod(shape), (name, shape, len(values))
        if is_float(name):
            values = _exact(list(values), name)
        elif name == "bool":
            values = [bool(v) for v in values]
        else:
            info = torch.iinfo(DTYPES[name])
            assert all(info.min <= v <= info.max and abs(v) <= SAFE for v in values), (name, values)
        self.name, self.shape, self.values = name, list(shape), list(values)

    def torch(self):
        return make_tensor(self.name, self.shape, self.values)

    def encode(self):
        return {"dtype": self.name, "shape": self.shape, "values": _encode_values(self.name, self.values)}


class S:
    """A JS scalar input (int, float or bool)."""

    def __init__(self, value):
        assert not (isinstance(value, float) and float(value).is_integer()), "integer-valued float"
        self.value = value

    def torch(self):
        return self.value

    def encode(self):
        return {"scalar": self.value}


def _encode_values(name, values):
    if name == "int64":
        return [v if -SAFE <= v <= SAFE else str(v) for v in values]
    return values


def encode_result(t):
    if isinstance(t, (tuple, list)):
        return [encode_result(x) for x in t]
    name = NAME[t.dtype]
    flat = t.detach().reshape(-1)
    if t.is_complex():
        # complex values travel as view_as_real pairs: [re0, im0, re1, im1, ...]
        flat = torch.view_as_real(flat.resolve_conj()).reshape(-1)
    if name in ("float16", "bfloat16"):
        flat = flat.double()
    return {"dtype": name, "shape": list(t.shape), "values": _encode_values(name, flat.tolist())}


def encode_error(e):
    return {"type": type(e).__name__, "message": str(e).strip().split("\n")[0]}


# ---- running a case ----
PY_KWARGS = {"roundingMode": "rounding_mode", "keepdim": "keepdim", "dim": "dim", "alpha": "alpha", "dtype": "dtype", "value": "value",
             "nan": "nan", "posinf": "posinf", "neginf": "neginf", "rtol": "rtol", "atol": "atol", "equalNan": "equal_nan"}


def py_kwargs(kwargs):
    out = {}
    for k, v in kwargs.items():
        out[PY_KWARGS[k]] = DTYPES[v] if k == "dtype" else v
    return out


def _upcast(x):
    if isinstance(x, torch.Tensor) and x.dtype in (torch.float16, torch.bfloat16):
        return x.float()
    return x


def _downcast(r, dtype):
    if isinstance(r, (tuple, list)):
        return [_downcast(x, dtype) for x in r]
    return r.to(dtype) if r.dtype == torch.float32 else r


def _identical(a, b):
    if isinstance(a, (tuple, list)):
        return all(_identical(x, y) for x, y in zip(a, b))
    return a.dtype == b.dtype and a.shape == b.shape and bool(torch.equal(a.isnan(), b.isnan())) and bool(
        (a.isnan() | (a == b)).all())


def _lacks_16bit(e):
    msg = str(e)
    return "not implemented for 'Half'" in msg or "not implemented for 'BFloat16'" in msg


class Recorder:
    """Collects the cases of one golden file, keyed by op name."""

    def __init__(self):
        self.ops = {}

    def case(self, op, sample, dtype, inputs, fn, kwargs=None, variant="", inplace=None, upcast=False, float_acc=()):
        """Runs `fn(torch inputs, python kwargs)` and records the result or the error.

        `inplace(torch inputs, python kwargs)` runs the in-place form on a clone of input 0.
        `upcast`: 2.x has this op's Half/BFloat16 CPU kernel where 1.13 lacks it.
        `float_acc`: the 16-bit dtypes for which 2.x accumulates this op in float32.
        """
        kwargs = kwargs or {}
        case = {
            "sample": sample,
            "variant": variant,
            "dtype": dtype,
            "inputs": [x.encode() for x in inputs],
            "kwargs": kwargs,
        }
        args = [x.torch() for x in inputs]
        kw = py_kwargs(kwargs)
        try:
            result = fn(args, kw)
            if dtype in float_acc:
                wide = _downcast(fn([_upcast(a) for a in args], kw), DTYPES[dtype])
                if not _identical(result, wide):
                    result = wide
                    case["reference"] = "upcast"
            case["expected"] = encode_result(result)
        except Exception as e:  # noqa: BLE001 - every PyTorch error is a golden
            if upcast and _lacks_16bit(e) and dtype in ("float16", "bfloat16"):
                r = _downcast(fn([_upcast(a) for a in args], kw), DTYPES[dtype])
                case["expected"] = encode_result(r)
                case["reference"] = "upcast"
            else:
                case["error"] = encode_error(e)
        if inplace is not None and isinstance(args[0], torch.Tensor):
            case["inplace"] = self._inplace(inplace, args, kw, case.get("reference") == "upcast", dtype)
        cases = self.ops.setdefault(op, {"cases": []})["cases"]
        key = (sample, variant, dtype)
        assert all((c["sample"], c["variant"], c["dtype"]) != key for c in cases), (op, key)
        cases.append(case)

    @staticmethod
    def _inplace(inplace, args, kw, upcast, dtype):
        try:
            if upcast:
                # as 2.x: compute in float32 and write back into the 16-bit tensor
                x = args[0].clone()
                r = inplace([_upcast(x), *[_upcast(a) for a in args[1:]]], kw)
                x.copy_(r)
            else:
                inplace([args[0].clone(), *args[1:]], kw)
            return "ok"
        except Exception as e:  # noqa: BLE001
            return encode_error(e)

    def result(self):
        return {"ops": self.ops}
