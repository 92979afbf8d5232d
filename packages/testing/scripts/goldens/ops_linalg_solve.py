"""Goldens for torch.linalg part 1 (goldens/ops_linalg_solve.json): the LU / Cholesky /
triangular family and its composites, float32 and float64 (other dtypes: the errors).

Inputs are well-conditioned random matrices (randn + n * I: diagonally dominant, condition
numbers of a few units), batched, empty (0 x 0 matrices, batch size 0) and 1 x 1, plus:
  - "hilbert": the 4 x 4 Hilbert matrix, condition number 1.6e4. The float32 results keep
    about eps32 * cond = 6e-8 * 1.6e4 = 1e-3 relative accuracy, so the OpInfo entries of the
    functions that take it (inv, solve, det, lu_factor...) state float32 tolerances of that
    size (op-info/linalg-solve.ts); float64 keeps the default tolerance (1.1e-16 * 1.6e4 = 2e-12);
  - singular inputs (the _ex forms' info, and the raising forms' LinAlgError on CPU);
  - not positive-definite inputs for the Cholesky forms, failing at their last leading minor
    (where LAPACK's blocked and unblocked potrf leave the same partial factor).
The case format is described in _ops_common.py.
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, T, Recorder, _identical, _lacks_16bit, encode_result, gen_for, py_kwargs  # noqa: E402

_ops_common.PY_KWARGS.update({
    "pivot": "pivot", "checkErrors": "check_errors", "left": "left", "adjoint": "adjoint", "upper": "upper",
    "unitriangular": "unitriangular", "ord": "ord", "n": "n",
})
L = torch.linalg
FLOATS = ["float32", "float64"]


def well(d, shape, key):
    """randn + n * I over the last two dims (square), or plain randn (rectangular)."""
    g = gen_for(*key)
    x = torch.randn(*shape, generator=g, dtype=torch.float64)
    if len(shape) >= 2 and shape[-1] == shape[-2] and shape[-1] > 0:
        x = x + shape[-1] * torch.eye(shape[-1], dtype=torch.float64)
    return T(d, shape, x.reshape(-1).tolist())


def spd(d, shape, key):
    g = gen_for(*key)
    x = torch.randn(*shape, generator=g, dtype=torch.float64)
    n = shape[-1]
    a = x @ x.transpose(-2, -1) + n * torch.eye(n, dtype=torch.float64)
    # exactly symmetric in the stored dtype
    a = a.to(getattr(torch, d)).double()
    a = (a + a.transpose(-2, -1)) / 2
    return T(d, shape, a.reshape(-1).tolist())


def rand(d, shape, key):
    g = gen_for(*key)
    return T(d, shape, torch.randn(*shape, generator=g, dtype=torch.float64).reshape(-1).tolist())


def hilbert(d, n=4):
    return T(d, [n, n], [1.0 / (i + j + 1) for i in range(n) for j in range(n)])


SIXTEEN = ("float16", "bfloat16")


def _mm_2x(x, y):
    """A 16-bit product as 2.x's CPU kernels compute it: accumulated in float32, rounded once."""
    if x.dtype in (torch.float16, torch.bfloat16):
        return torch.matmul(x.float(), y.float()).to(x.dtype)
    return torch.matmul(x, y)


def matrix_power_2x(a, n):
    """1.13's linalg_matrix_power_impl with 2.x's 16-bit products (each rounded to 16 bits)."""
    if n < 0:
        a = L.inv(a)  # refuses 16-bit dtypes in 2.x as in 1.13
        n = -n
    if n == 0:
        return torch.eye(a.shape[-1], dtype=torch.float32).to(a.dtype).expand_as(a).clone()
    if n == 1:
        return a.clone()
    if n == 2:
        return _mm_2x(a, a)
    if n == 3:
        return _mm_2x(_mm_2x(a, a), a)
    z = result = None
    while n > 0:
        bit = n % 2
        n //= 2
        z = a if z is None else _mm_2x(z, z)
        if bit == 1:
            result = z if result is None else _mm_2x(result, z)
    return result


def multi_dot_2x(ts):
    """1.13's multi_dot (its order of the products) with 2.x's 16-bit products."""
    n = len(ts)
    first, last = ts[0].dim() == 1, ts[-1].dim() == 1
    ts = [t.unsqueeze(0) if i == 0 and first else t.unsqueeze(1) if i == n - 1 and last else t for i, t in enumerate(ts)]
    if n == 2:
        r = _mm_2x(ts[0], ts[1])
    elif n == 3:
        (a, b), (c, d) = ts[0].shape, ts[2].shape
        r = _mm_2x(ts[0], _mm_2x(ts[1], ts[2])) if a * c * (b + d) > b * d * (a + c) else _mm_2x(_mm_2x(ts[0], ts[1]), ts[2])
    else:
        p = [ts[0].shape[0]] + [t.shape[1] for t in ts]
        m = [[0] * n for _ in range(n)]
        s = [[0] * n for _ in range(n)]
        for length in range(1, n):
            for i in range(n - length):
                j = i + length
                m[i][j] = math.inf
                for k in range(i, j):
                    q = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                    if q < m[i][j]:
                        m[i][j], s[i][j] = q, k

        def prod(i, j):
            return ts[i] if i == j else _mm_2x(prod(i, s[i][j]), prod(s[i][j] + 1, j))
        r = prod(0, n - 1)
    if first:
        r = r.squeeze(0)
    if last:
        r = r.squeeze(-1)
    return r


SINGULAR = [1.0, 2.0, 2.0, 4.0]
SINGULAR = [1.0, 2.0, 2.0, 4.0]
BATCH_SINGULAR = [2.0, 1.0, 1.0, 3.0, 1.0, 2.0, 2.0, 4.0]
NOT_PD = [1.0, 2.0, 2.0, 1.0]
BATCH_NOT_PD = [4.0, 1.0, 1.0, 3.0, 1.0, 2.0, 2.0, 1.0]

SQUARE = [("3x3", [3, 3]), ("batched", [2, 4, 4]), ("1x1", [1, 1]), ("empty", [0, 0]), ("batch0", [0, 3, 3]), ("5x5", [5, 5])]


def square_inputs(op, d):
    for sample, shape in SQUARE:
        yield sample, [well(d, shape, (op, sample, d))]
    yield "hilbert", [hilbert(d)]


def bad_inputs(op):
    yield "vector", [T("float32", [3], [1.0, 2.0, 3.0])]
    yield "nonsquare", [T("float32", [2, 3], [1.0] * 6)]


class AllDtypes(Recorder):
    """A Recorder that files every sample under every dtype, as the OpInfo runner expects: the
    dtypes PyTorch refuses (or, matrix_power, computes in) get the sample's float32 inputs as
    small integers / bools."""

    def __init__(self):
        super().__init__()
        self.first = {}

    def case(self, op, sample, dtype, inputs, fn, kwargs=None, variant="", fn_2x=None, **kw):
        """`fn_2x`: the op computed as 2.x computes it for 16-bit dtypes (the products:
        matrix_power, multi_dot). 1.13 lacks the Half matmul and rounds BFloat16 partial
        sums; 2.x accumulates each product in float32 and rounds it once, as torch-ts (mm's
        goldens, ops_linalg.py). A chain of products rounds between them, so the Recorder's
        `upcast` (all of it in float32, rounded at the end) is not 2.x's result here."""
        super().case(op, sample, dtype, inputs, fn, kwargs, variant, **kw)
        if fn_2x is not None and dtype in SIXTEEN:
            self._follow_2x(self.ops[op]["cases"][-1], inputs, fn, fn_2x, kwargs or {})
        if not variant:
            self.first.setdefault((op, sample), (inputs, fn, kwargs, fn_2x))

    @staticmethod
    def _follow_2x(case, inputs, fn, fn_2x, kwargs):
        args = [x.torch() for x in inputs]
        kw = py_kwargs(kwargs)
        try:
            wide = fn_2x(args, kw)
        except Exception:  # noqa: BLE001 - 2.x raises as 1.13 (linalg.inv's low precision)
            return
        if "error" in case:
            if _lacks_16bit(RuntimeError(case["error"]["message"])):
                del case["error"]
                case["expected"] = encode_result(wide)
                case["reference"] = "upcast"
        elif not _identical(fn(args, kw), wide):
            case["expected"] = encode_result(wide)
            case["reference"] = "upcast"

    def fill(self):
        for (op, sample), (inputs, fn, kwargs, fn_2x) in list(self.first.items()):
            have = {c["dtype"] for c in self.ops[op]["cases"] if c["sample"] == sample and not c["variant"]}
            for d in ALL:
                if d not in have:
                    self.case(op, sample, d, [_as(d, x) for x in inputs], fn, kwargs, fn_2x=fn_2x)


def _as(d, x):
    if x.name == "int32":
        return x  # (lu_solve's pivots: an index, int32 whatever the data's dtype)
    if d in ("float16", "bfloat16"):
        return T(d, x.shape, x.values)
    if d == "bool":
        return T(d, x.shape, [v != 0 for v in x.values])
    lo = 0 if d == "uint8" else -5
    return T(d, x.shape, [max(lo, min(5, int(round(v)))) for v in x.values])


def make():
    rec = AllDtypes()
    for d in FLOATS:
        # ---- primitives ----
        for sample, inputs in square_inputs("luFactorEx", d):
            rec.case("linalgLuFactorEx", sample, d, inputs, lambda a, k: L.lu_factor_ex(*a, **k))
        rec.case("linalgLuFactorEx", "singular", d, [T(d, [2, 2], SINGULAR)], lambda a, k: L.lu_factor_ex(*a, **k))
        rec.case("linalgLuFactorEx", "batch-singular", d, [T(d, [2, 2, 2], BATCH_SINGULAR)], lambda a, k: L.lu_factor_ex(*a, **k))
        for sample, shape in [("wide", [3, 5]), ("tall", [2, 5, 3])]:
            rec.case("linalgLuFactorEx", sample, d, [rand(d, shape, ("luFactorEx", sample, d))], lambda a, k: L.lu_factor_ex(*a, **k))
        for sample, inputs in square_inputs("luFactor", d):
            rec.case("linalgLuFactor", sample, d, inputs, lambda a, k: L.lu_factor(*a, **k))
        for sample, shape in [("3x3", [3, 3]), ("wide", [3, 5]), ("tall", [2, 5, 3]), ("batch0", [0, 2, 2])]:
            rec.case("linalgLu", sample, d, [rand(d, shape, ("lu", sample, d)) if sample != "3x3" else well(d, shape, ("lu", sample, d))], lambda a, k: L.lu(*a, **k))

        for sample, sa, sb, kw in [
            ("basic", [3, 3], [3, 2], {}), ("adjoint", [3, 3], [3, 2], {"adjoint": True}),
            ("right", [3, 3], [2, 3], {"left": False}), ("right-adjoint", [3, 3], [2, 3], {"left": False, "adjoint": True}),
            ("broadcast", [2, 3, 3], [3, 1], {}), ("broadcast-b", [3, 3], [2, 3, 2], {}), ("k0", [3, 3], [3, 0], {}),
        ]:
            # (the inputs are lu_factor's LU and pivots of a well-conditioned A, factored by
            # PyTorch in the case's dtype, and B)
            LU, piv = L.lu_factor(well(d, sa, ("luSolve", sample, d)).torch())
            inputs = [T(d, list(LU.shape), LU.reshape(-1).tolist()), T("int32", list(piv.shape), piv.reshape(-1).tolist()),
                      rand(d, sb, ("luSolveB", sample, d))]
            rec.case("linalgLuSolve", sample, d, inputs, lambda a, k: L.lu_solve(*a, **k), kw)

        for sample, sa, sb, kw in [
            ("upper", [3, 3], [3, 2], {"upper": True}), ("lower", [3, 3], [3, 2], {"upper": False}),
            ("unit", [3, 3], [3, 2], {"upper": False, "unitriangular": True}),
            ("right", [3, 3], [2, 3], {"upper": True, "left": False}), ("right-lower", [3, 3], [2, 3], {"upper": False, "left": False}),
            ("broadcast", [2, 3, 3], [3, 1], {"upper": True}), ("batch0", [0, 3, 3], [0, 3, 2], {"upper": True}),
        ]:
            rec.case("linalgSolveTriangular", sample, d, [well(d, sa, ("solveTriangular", sample, d)), rand(d, sb, ("solveTriangularB", sample, d))],
                     lambda a, k: L.solve_triangular(*a, **k), kw)

        for op, fn in [("linalgCholeskyEx", L.cholesky_ex), ("linalgCholesky", L.cholesky)]:
            for sample, shape in [("3x3", [3, 3]), ("batched", [2, 4, 4]), ("empty", [0, 0]), ("batch0", [0, 2, 2])]:
                rec.case(op, sample, d, [spd(d, shape, (op, sample, d))], lambda a, k, fn=fn: fn(*a, **k))
            rec.case(op, "upper", d, [spd(d, [3, 3], (op, "upper", d))], lambda a, k, fn=fn: fn(*a, **k), {"upper": True})
            rec.case(op, "not-pd", d, [T(d, [2, 2], NOT_PD)], lambda a, k, fn=fn: fn(*a, **k))
            rec.case(op, "batch-not-pd", d, [T(d, [2, 2, 2], BATCH_NOT_PD)], lambda a, k, fn=fn: fn(*a, **k))

        # ---- composites ----
        for op, fn in [("linalgInv", L.inv), ("inverse", torch.inverse), ("linalgInvEx", L.inv_ex), ("linalgDet", L.det), ("det", torch.det),
                       ("linalgSlogdet", L.slogdet), ("slogdet", torch.slogdet), ("logdet", torch.logdet)]:
            for sample, inputs in square_inputs(op, d):
                rec.case(op, sample, d, inputs, lambda a, k, fn=fn: fn(*a))
            rec.case(op, "singular", d, [T(d, [2, 2], SINGULAR)], lambda a, k, fn=fn: fn(*a))
            rec.case(op, "batch-singular", d, [T(d, [2, 2, 2], BATCH_SINGULAR)], lambda a, k, fn=fn: fn(*a))
        rec.case("logdet", "negative", d, [T(d, [2, 2], [0.0, 1.0, 1.0, 0.0])], lambda a, k: torch.logdet(*a))

        for op, fn in [("linalgSolve", L.solve), ("linalgSolveEx", L.solve_ex)]:
            for sample, sa, sb, kw in [
                ("matrix", [3, 3], [3, 2], {}), ("vector", [3, 3], [3], {}), ("batched-vector", [2, 3, 3], [2, 3], {}),
                ("broadcast", [2, 3, 3], [3, 2], {}), ("right", [3, 3], [2, 3], {"left": False}), ("empty", [0, 0], [0, 2], {}),
            ]:
                rec.case(op, sample, d, [well(d, sa, (op, sample, d)), rand(d, sb, (op + "B", sample, d))], lambda a, k, fn=fn: fn(*a, **k), kw)
            rec.case(op, "hilbert", d, [hilbert(d), rand(d, [4, 1], (op, "hilbertB", d))], lambda a, k, fn=fn: fn(*a, **k))
            rec.case(op, "singular", d, [T(d, [2, 2], SINGULAR), T(d, [2, 1], [1.0, 1.0])], lambda a, k, fn=fn: fn(*a, **k))

        # (matrix_power and multi_dot are products: their 16-bit goldens follow 2.x, AllDtypes.case)
        for op, fn in [("linalgMatrixPower", L.matrix_power), ("matrixPower", torch.matrix_power)]:
            for n in [0, 1, 2, 3, 5, -1, -3]:
                rec.case(op, f"n{n}".replace("-", "m"), d, [well(d, [2, 3, 3], (op, n, d))], lambda a, k, fn=fn: fn(a[0], **k), {"n": n},
                         fn_2x=lambda a, k: matrix_power_2x(a[0], **k))

        rec.case("linalgMultiDot", "two", d, [rand(d, [2, 3], ("md2", d)), rand(d, [3, 4], ("md2b", d))], lambda a, k: L.multi_dot(a), fn_2x=lambda a, k: multi_dot_2x(a))
        rec.case("linalgMultiDot", "three", d, [rand(d, [5, 2], ("md3", d)), rand(d, [2, 6], ("md3b", d)), rand(d, [6, 3], ("md3c", d))],
                 lambda a, k: L.multi_dot(a), fn_2x=lambda a, k: multi_dot_2x(a))
        rec.case("linalgMultiDot", "four-vectors", d, [rand(d, [3], ("md4", d)), rand(d, [3, 5], ("md4b", d)), rand(d, [5, 2], ("md4c", d)),
                                                      rand(d, [2], ("md4d", d))], lambda a, k: L.multi_dot(a), fn_2x=lambda a, k: multi_dot_2x(a))
        rec.case("linalgMultiDot", "chain", d, [rand(d, s, ("md5", i, d)) for i, s in enumerate([[4, 2], [2, 6], [6, 1], [1, 5], [5, 3]])],
                 lambda a, k: L.multi_dot(a), fn_2x=lambda a, k: multi_dot_2x(a))

        for sample, kw, shape in [("default", {}, [2, 3, 4]), ("ord1", {"ord": 1}, [3, 4]), ("inf", {"ord": "inf"}, [3, 4]),
                                  ("dim", {"ord": 3, "dim": [0, 2], "keepdim": True}, [2, 3, 4]), ("ord0", {"ord": 0}, [3, 4])]:
            rec.case("linalgVectorNorm", sample, d, [rand(d, shape, ("vn", sample, d))], lambda a, k: L.vector_norm(a[0], **_ord(k)), kw)
        for sample, kw, shape in [("fro", {}, [2, 3, 4]), ("one", {"ord": 1}, [3, 4]), ("minus-one", {"ord": -1}, [2, 3, 4]),
                                  ("inf", {"ord": "inf"}, [3, 4]), ("minus-inf", {"ord": "-inf"}, [2, 3, 4]),
                                  ("dims", {"ord": 1, "dim": [2, 0]}, [2, 3, 4]), ("keepdim", {"ord": "inf", "keepdim": True}, [2, 3, 4]),
                                  # (the singular values' orders: torch.linalg part 2b, ops_linalg_svd.py)
                                  ("two", {"ord": 2}, [2, 3, 4]), ("minus-two", {"ord": -2}, [4, 3]), ("nuc", {"ord": "nuc"}, [2, 3, 4]),
                                  ("nuc-dims", {"ord": "nuc", "dim": [2, 0], "keepdim": True}, [2, 3, 4])]:
            rec.case("linalgMatrixNorm", sample, d, [rand(d, shape, ("mn", sample, d))], lambda a, k: L.matrix_norm(a[0], **_ord(k)), kw)
        rec.case("linalgVecdot", "basic", d, [rand(d, [2, 3], ("vd", d)), rand(d, [3], ("vdb", d))], lambda a, k: L.vecdot(*a))
        rec.case("linalgVecdot", "dim", d, [rand(d, [4, 2], ("vd2", d)), rand(d, [4, 2], ("vd2b", d))], lambda a, k: L.vecdot(*a, **k), {"dim": 0})
        rec.case("linalgCross", "basic", d, [rand(d, [2, 3], ("cr", d)), rand(d, [2, 3], ("crb", d))], lambda a, k: L.cross(*a))
        rec.case("linalgCross", "dim", d, [rand(d, [3, 2], ("cr2", d)), rand(d, [3, 2], ("cr2b", d))], lambda a, k: L.cross(*a, **k), {"dim": 0})
        rec.case("linalgCross", "broadcast", d, [rand(d, [2, 1, 3], ("cr3", d)), rand(d, [1, 4, 3], ("cr3b", d))], lambda a, k: L.cross(*a))
        # (1.13 broadcasts the sizes but not the number of dims: 2.x does both)
        rec.case("linalgCross", "ndims", d, [rand(d, [2, 3], ("cr4", d)), rand(d, [3], ("cr4b", d))], lambda a, k: L.cross(*a))

    # ---- errors: shapes, and the dtypes PyTorch refuses ----
    for op, fn in [("linalgInv", L.inv), ("linalgDet", L.det), ("linalgSlogdet", L.slogdet), ("linalgLuFactorEx", L.lu_factor_ex),
                   ("linalgCholesky", L.cholesky), ("logdet", torch.logdet), ("linalgMatrixPower", None)]:
        kw = {"n": 2} if fn is None else {}
        call = (lambda a, k: L.matrix_power(a[0], **k)) if fn is None else (lambda a, k, fn=fn: fn(*a))
        extra = {"fn_2x": lambda a, k: matrix_power_2x(a[0], **k)} if fn is None else {}
        for sample, inputs in bad_inputs(op):
            rec.case(op, sample, "float32", inputs, call, kw)
        for d in ALL:
            if d in FLOATS:
                continue
            rec.case(op, "dtype", d, [T(d, [2, 2], [1, 0, 0, 1])], call, kw, **extra)
    rec.case("linalgSolve", "mismatch", "float32", [T("float32", [2, 2], [1.0, 0.0, 0.0, 1.0]), T("float32", [3, 1], [1.0, 2.0, 3.0])],
             lambda a, k: L.solve(*a))
    rec.case("linalgSolve", "dtypes", "float32", [T("float32", [2, 2], [1.0, 0.0, 0.0, 1.0]), T("float64", [2, 1], [1.0, 2.0])],
             lambda a, k: L.solve(*a), variant="float32+float64")
    rec.case("linalgSolveTriangular", "mismatch", "float32", [T("float32", [2, 2], [1.0, 0.0, 0.0, 1.0]), T("float32", [3, 1], [1.0, 2.0, 3.0])],
             lambda a, k: L.solve_triangular(*a, **k), {"upper": True})
    rec.case("linalgMatrixNorm", "vector", "float32", [T("float32", [3], [1.0, 2.0, 3.0])], lambda a, k: L.matrix_norm(*a))
    rec.case("linalgMatrixNorm", "ord3", "float32", [T("float32", [2, 2], [1.0, 2.0, 3.0, 4.0])], lambda a, k: L.matrix_norm(a[0], **k), {"ord": 3})
    rec.case("linalgMultiDot", "mismatch", "float32", [T("float32", [2, 3], [1.0] * 6), T("float32", [2, 2], [1.0] * 4)], lambda a, k: L.multi_dot(a))
    rec.fill()
    return {"family": "linalg_solve", **rec.result()}


def _ord(k):
    k = dict(k)
    if k.get("ord") == "inf":
        k["ord"] = math.inf
    elif k.get("ord") == "-inf":
        k["ord"] = -math.inf
    return k
