"""Complex goldens of the OpInfo table (goldens/ops_complex.json).

Cases in complex64 and complex128 for ops whose entries already hold their real cases (the
runner merges this file's cases into those entries; its sample ids all start with "c-"). A
complex tensor input or result travels as view_as_real pairs: values [re0, im0, re1, im1, ...]
with the complex shape. The case format is otherwise the one of _ops_common.py.

Unary ops get random values ("c-random", [3, 4]), finite special points ("c-edges": signed
zeros, the axes and branch cuts, large parts) and non-finite ones ("c-nonfinite"); binary ops
equal shapes, broadcasting and a real operand; the others samples shaped like their real ones.
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _dtypes import COMPLEX  # noqa: E402
from _ops_common import S, T, Recorder, gen_for  # noqa: E402

COMPACT = True
CDTYPES = ["complex64", "complex128"]
PART = {"complex64": "float32", "complex128": "float64"}

# Kwargs these cases use that _ops_common's py_kwargs does not know; the lambdas below read them.
for _k in ["dims", "shifts", "repeats", "pad", "ord", "correction", "items", "accumulate", "stable", "descending", "p", "weight"]:
    _ops_common.PY_KWARGS.setdefault(_k, _k)


def _exact_pairs(pairs, name):
    t = torch.tensor(pairs, dtype=torch.float64).to(getattr(torch, PART[name]))
    return t.double().tolist()


class C:
    """A complex tensor input: dtype name, shape, flat (re, im) pairs."""

    def __init__(self, name, shape, pairs):
        assert len(pairs) == 2 * math.prod(shape), (name, shape, len(pairs))
        self.name, self.shape, self.values = name, list(shape), _exact_pairs(list(pairs), name)

    def torch(self):
        parts = torch.tensor(self.values, dtype=torch.float64).to(getattr(torch, PART[self.name]))
        return torch.view_as_complex(parts.reshape(self.shape + [2])).clone()

    def encode(self):
        return {"dtype": self.name, "shape": self.shape, "values": self.values}


def rand_c(name, shape, g, scale=1.5):
    n = math.prod(shape)
    return C(name, shape, (torch.randn(2 * n, generator=g, dtype=torch.float64) * scale).tolist())


def rand_r(name, shape, g, scale=1.5):
    return T(PART[name], shape, (torch.randn(math.prod(shape), generator=g, dtype=torch.float64) * scale).tolist())


def _pairs(zs):
    return [v for z in zs for v in (z.real, z.imag)] if zs and isinstance(zs[0], complex) else [v for z in zs for v in z]


INF, NAN = math.inf, math.nan
EDGES = [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0), (1.0, 0.0), (-1.0, 0.0), (-1.0, -0.0), (0.0, 1.0),
         (0.0, -1.0), (2.0, 0.0), (2.0, -0.0), (-2.0, 0.0), (-2.0, -0.0), (0.0, 2.0), (0.0, -2.0), (0.5, 0.5),
         (-2.0, 3.0), (3.0, -4.0), (-1.5, -2.5), (1e-5, -1e-5), (30.0, 1.0), (-30.0, 1.0), (1.0, 30.0), (0.25, -30.0)]
NONFINITE = [(INF, 0.0), (-INF, 0.0), (0.0, INF), (0.0, -INF), (INF, INF), (-INF, INF), (INF, -1.0), (-INF, 1.0),
             (1.0, INF), (NAN, 0.0), (0.0, NAN), (NAN, NAN), (INF, NAN), (NAN, INF), (1.0, NAN)]

UNARY = {
    "neg": torch.neg, "abs": torch.abs, "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt, "sin": torch.sin,
    "cos": torch.cos, "reciprocal": torch.reciprocal, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "rsqrt": torch.rsqrt,
    "square": torch.square, "exp2": torch.exp2, "expm1": torch.expm1, "log2": torch.log2, "log10": torch.log10,
    "log1p": torch.log1p, "tan": torch.tan, "asin": torch.asin, "acos": torch.acos, "atan": torch.atan,
    "sinh": torch.sinh, "cosh": torch.cosh, "asinh": torch.asinh, "acosh": torch.acosh, "atanh": torch.atanh,
    "isnan": torch.isnan, "isinf": torch.isinf, "isfinite": torch.isfinite,
    # PyTorch rejects these for complex: their errors are the goldens
    "sign": torch.sign, "erf": torch.erf,
}
NO_INPLACE = {"isnan", "isinf", "isfinite"}

BINARY = {
    "add": (lambda a, k: torch.add(a[0], a[1]), lambda a, k: a[0].add_(a[1])),
    "sub": (lambda a, k: torch.sub(a[0], a[1]), lambda a, k: a[0].sub_(a[1])),
    "mul": (lambda a, k: torch.mul(a[0], a[1]), lambda a, k: a[0].mul_(a[1])),
    "div": (lambda a, k: torch.div(a[0], a[1]), lambda a, k: a[0].div_(a[1])),
    "pow": (lambda a, k: torch.pow(a[0], a[1]), lambda a, k: a[0].pow_(a[1])),
    "eq": (lambda a, k: torch.eq(a[0], a[1]), lambda a, k: a[0].eq_(a[1])),
    "ne": (lambda a, k: torch.ne(a[0], a[1]), lambda a, k: a[0].ne_(a[1])),
}


def unary(rec):
    for op, f in UNARY.items():
        fn = lambda a, k, f=f: f(a[0])  # noqa: E731
        ip = None if op in NO_INPLACE else (lambda a, k, op=op: getattr(a[0], op + "_")())
        for d in CDTYPES:
            g = gen_for("complex", op, d)
            rec.case(op, "c-random", d, [rand_c(d, [3, 4], g)], fn, inplace=ip)
            rec.case(op, "c-edges", d, [C(d, [len(EDGES)], _pairs(EDGES))], fn, inplace=ip)
            rec.case(op, "c-nonfinite", d, [C(d, [len(NONFINITE)], _pairs(NONFINITE))], fn, inplace=ip)


def binary(rec):
    for op, (f, ip) in BINARY.items():
        for d in CDTYPES:
            g = gen_for("complex", op, d)
            rec.case(op, "c-same-shape", d, [rand_c(d, [3, 4], g), rand_c(d, [3, 4], g)], f, inplace=ip)
            rec.case(op, "c-broadcast", d, [rand_c(d, [2, 1, 3], g), rand_c(d, [4, 1], g)], f, inplace=ip)
            rec.case(op, "c-real-other", d, [rand_c(d, [3, 4], g), rand_r(d, [4], g)], f, inplace=ip)
            rec.case(op, "c-real-self", d, [rand_r(d, [3, 4], g), rand_c(d, [4], g)], f, inplace=ip)
    # pow: scalar exponents (int and float), the special exponents 0, 1, 2, 0.5, and a zero base
    for d in CDTYPES:
        g = gen_for("complex", "pow-scalar", d)
        f, ip = BINARY["pow"]
        rec.case("pow", "c-scalar-int", d, [rand_c(d, [3, 4], g), S(3)], f, inplace=ip)
        rec.case("pow", "c-scalar-two", d, [rand_c(d, [3, 4], g), S(2)], f, inplace=ip)
        rec.case("pow", "c-scalar-float", d, [rand_c(d, [3, 4], g), S(0.5)], f, inplace=ip)
        rec.case("pow", "c-scalar-negative", d, [rand_c(d, [3, 4], g), S(-1.5)], f, inplace=ip)
        zb = C(d, [4], _pairs([(0.0, 0.0), (0.0, 0.0), (0.0, 0.0), (1.0, 0.0)]))
        ze = C(d, [4], _pairs([(0.0, 0.0), (2.0, 0.0), (0.5, 1.0), (0.0, 0.0)]))
        rec.case("pow", "c-zero-base", d, [zb, ze], f, inplace=ip)
        rec.case("pow.Scalar", "c-scalar-base", d, [S(2.5), rand_c(d, [3, 4], g)], lambda a, k: torch.pow(a[0], a[1]))


def others(rec):
    for d in CDTYPES:
        g = gen_for("complex", "others", d)
        z = lambda *shape: rand_c(d, list(shape), g)  # noqa: E731
        cond = T("bool", [3, 4], (torch.rand(12, generator=g) < 0.5).tolist())
        rec.case("where", "c-same-shape", d, [cond, z(3, 4), z(3, 4)], lambda a, k: torch.where(a[0], a[1], a[2]))
        rec.case("lerp", "c-scalar-weight", d, [z(3, 4), z(3, 4), S(0.3)], lambda a, k: torch.lerp(a[0], a[1], a[2]),
                 inplace=lambda a, k: a[0].lerp_(a[1], a[2]))
        rec.case("lerp", "c-tensor-weight", d, [z(3, 4), z(3, 4), z(4)], lambda a, k: torch.lerp(a[0], a[1], a[2]),
                 inplace=lambda a, k: a[0].lerp_(a[1], a[2]))
        for op in ["addcmul", "addcdiv"]:
            f = lambda a, k, op=op: getattr(torch, op)(a[0], a[1], a[2])  # noqa: E731
            ip = lambda a, k, op=op: getattr(a[0], op + "_")(a[1], a[2])  # noqa: E731
            rec.case(op, "c-same-shape", d, [z(3, 4), z(3, 4), z(3, 4)], f, inplace=ip)
            rec.case(op, "c-broadcast", d, [z(3, 4), z(3, 4), z(4)], f, inplace=ip)
        # reductions and scans
        for op in ["sum", "mean", "prod"]:
            f = lambda a, k, op=op: getattr(torch, op)(a[0], **k)  # noqa: E731
            rec.case(op, "c-all", d, [z(3, 4)], f)
            rec.case(op, "c-dim1", d, [z(3, 4)], f, kwargs={"dim": 1})
        for op in ["var", "std"]:
            f = lambda a, k, op=op: getattr(torch, op)(a[0], **k)  # noqa: E731
            rec.case(op, "c-all", d, [z(3, 4)], f)
            rec.case(op, "c-dim1", d, [z(3, 4)], f, kwargs={"dim": 1})
            rec.case(op, "c-correction", d, [z(3, 4)], f, kwargs={"dim": 0, "correction": 0, "keepdim": True})
        for op in ["cumsum", "cumprod"]:
            f = lambda a, k, op=op: getattr(torch, op)(a[0], **k)  # noqa: E731
            ip = lambda a, k, op=op: getattr(a[0], op + "_")(**k)  # noqa: E731
            rec.case(op, "c-dim0", d, [z(3, 4)], f, kwargs={"dim": 0}, inplace=ip)
            rec.case(op, "c-dim1", d, [z(3, 4)], f, kwargs={"dim": 1}, inplace=ip)
        vn = lambda a, k: torch.linalg.vector_norm(a[0], **k)  # noqa: E731
        rec.case("linalgVectorNorm", "c-default", d, [z(2, 3, 4)], vn)
        rec.case("linalgVectorNorm", "c-ord1", d, [z(3, 4)], vn, kwargs={"ord": 1})
        rec.case("linalgVectorNorm", "c-inf", d, [z(3, 4)], vn, kwargs={"ord": INF})
        rec.case("linalgVectorNorm", "c-ord3-dims", d, [z(2, 3, 4)], vn, kwargs={"ord": 3, "dim": [0, 2], "keepdim": True})
        # matrix products
        rec.case("mm", "c-rect", d, [z(2, 5), z(5, 4)], lambda a, k: torch.mm(a[0], a[1]))
        rec.case("bmm", "c-basic", d, [z(2, 3, 4), z(2, 4, 2)], lambda a, k: torch.bmm(a[0], a[1]))
        rec.case("mv", "c-basic", d, [z(3, 4), z(4)], lambda a, k: torch.mv(a[0], a[1]))
        # Debian's 1.13 build (BLAS_INFO=generic) returns 0 from torch.dot / vdot / matmul of two
        # complex vectors (the BLAS zdotu/cdotu return-value ABI): their goldens are sum(a * b),
        # which is what PyTorch defines dot as (no conjugation) and what torch.inner gives there.
        ref_dot = lambda a, k: (a[0] * a[1]).sum()  # noqa: E731
        rec.case("dot", "c-basic", d, [z(5), z(5)], ref_dot)
        mm = lambda a, k: torch.matmul(a[0], a[1])  # noqa: E731
        rec.case("matmul", "c-1d-1d", d, [z(5), z(5)], ref_dot)
        rec.case("matmul", "c-2d-1d", d, [z(3, 4), z(4)], mm)
        rec.case("matmul", "c-batch-broadcast", d, [z(2, 1, 3, 4), z(3, 4, 2)], mm)
        rec.case("outer", "c-basic", d, [z(3), z(4)], lambda a, k: torch.outer(a[0], a[1]))
        rec.case("addmm", "c-basic", d, [z(2, 4), z(2, 3), z(3, 4)], lambda a, k: torch.addmm(a[0], a[1], a[2]),
                 inplace=lambda a, k: a[0].addmm_(a[1], a[2]))
        rec.case("baddbmm", "c-basic", d, [z(2, 2, 4), z(2, 2, 3), z(2, 3, 4)], lambda a, k: torch.baddbmm(a[0], a[1], a[2]),
                 inplace=lambda a, k: a[0].baddbmm_(a[1], a[2]))
        # data movement
        rec.case("flip", "c-both", d, [z(2, 3)], lambda a, k: torch.flip(a[0], k["dims"]), kwargs={"dims": [0, 1]})
        rec.case("roll", "c-dim", d, [z(3, 2)], lambda a, k: torch.roll(a[0], k["shifts"], k["dims"]), kwargs={"shifts": [1], "dims": [0]})
        rec.case("repeat", "c-more-dims", d, [z(2, 3)], lambda a, k: a[0].repeat(*k["repeats"]), kwargs={"repeats": [2, 1, 2]})
        rec.case("triu", "c-rect", d, [z(3, 5)], lambda a, k: torch.triu(a[0]), inplace=lambda a, k: a[0].triu_())
        rec.case("tril", "c-rect", d, [z(3, 5)], lambda a, k: torch.tril(a[0]), inplace=lambda a, k: a[0].tril_())
        idx = lambda shape, hi: T("int64", shape, torch.randint(0, hi, shape, generator=g).reshape(-1).tolist())  # noqa: E731
        rec.case("indexSelect", "c-dim1", d, [z(2, 3, 4), idx([2], 3)], lambda a, k: torch.index_select(a[0], 1, a[1]), kwargs={"dim": 1})
        rec.case("gather", "c-dim1", d, [z(3, 4), idx([3, 2], 4)], lambda a, k: torch.gather(a[0], 1, a[1]), kwargs={"dim": 1})
        perm = T("int64", [2, 4], [0, 2, 1, 0, 2, 1, 0, 2])
        rec.case("scatter", "c-dim0", d, [z(3, 4), perm, z(2, 4)], lambda a, k: torch.scatter(a[0], 0, a[1], a[2]), kwargs={"dim": 0},
                 inplace=lambda a, k: a[0].scatter_(0, a[1], a[2]))
        rec.case("take", "c-basic", d, [z(3, 4), idx([4], 12)], lambda a, k: torch.take(a[0], a[1]))
        rows = T("int64", [3], [4, 0, 2])
        rec.case("indexPut", "c-set", d, [z(5, 3), rows, z(3, 3)], lambda a, k: torch.index_put(a[0], (a[1],), a[2]),
                 kwargs={"items": [{"input": 1}]}, inplace=lambda a, k: a[0].index_put_((a[1],), a[2]))
        mask = T("bool", [3, 4], (torch.rand(12, generator=g) < 0.5).tolist())
        rec.case("maskedFill", "c-scalar", d, [z(3, 4), mask, S(2.5)], lambda a, k: torch.masked_fill(a[0], a[1], a[2]),
                 inplace=lambda a, k: a[0].masked_fill_(a[1], a[2]))
        rec.case("maskedSelect", "c-basic", d, [z(3, 4), mask], lambda a, k: torch.masked_select(a[0], a[1]))
        rec.case("pad", "c-constant-1d", d, [z(2, 3)], lambda a, k: torch.nn.functional.pad(a[0], k["pad"]), kwargs={"pad": [1, 2]})
        rec.case("cat", "c-dim0", d, [z(2, 3), z(1, 3)], lambda a, k: torch.cat([a[0], a[1]]))
        rec.case("stack", "c-dim0", d, [z(2, 3), z(2, 3)], lambda a, k: torch.stack([a[0], a[1]]))
        rec.case("sort", "c-1d", d, [z(7)], lambda a, k: torch.sort(a[0]))
    linalg(rec)


_ops_common.PY_KWARGS.update({"driver": "driver"})


def linalg(rec):
    """torch.linalg on complex matrices (core's Note [Complex linalg primitives]): a generator of their own, so the other cases keep their inputs."""
    for d in CDTYPES:
        g = gen_for("complex", "linalg", d)
        z = lambda *shape: rand_c(d, list(shape), g)  # noqa: E731

        def hpd(*shape):
            # X X^H + n I, exactly Hermitian positive-definite in the dtype
            x = rand_c(d, list(shape), g).torch().to(torch.complex128)
            h = x @ x.mH + shape[-1] * torch.eye(shape[-1], dtype=torch.complex128)
            h = (h + h.mH) / 2
            return C(d, list(shape), torch.view_as_real(h).reshape(-1).tolist())

        sq = z(2, 3, 3)
        for op, f in [("linalgInv", torch.linalg.inv), ("linalgDet", torch.linalg.det), ("linalgSlogdet", torch.linalg.slogdet), ("linalgLuFactor", torch.linalg.lu_factor)]:
            rec.case(op, "c-square", d, [sq], lambda a, k, f=f: f(a[0]))
        rec.case("linalgLu", "c-rect", d, [z(3, 4)], lambda a, k: torch.linalg.lu(a[0]))
        rec.case("linalgCholesky", "c-hpd", d, [hpd(2, 3, 3)], lambda a, k: torch.linalg.cholesky(a[0]))
        rec.case("linalgEigvalsh", "c-hermitian", d, [hpd(3, 3)], lambda a, k: torch.linalg.eigvalsh(a[0]))
        # the Householder QR family (LAPACK's conventions: R's diagonal real, tau complex)
        rec.case("linalgQr", "c-tall", d, [z(4, 3)], lambda a, k: torch.linalg.qr(a[0]))
        rec.case("linalgQr", "c-wide", d, [z(2, 3, 4)], lambda a, k: torch.linalg.qr(a[0]))
        rec.case("geqrf", "c-tall", d, [z(4, 3)], lambda a, k: torch.geqrf(a[0]))
        rec.case("linalgHouseholderProduct", "c-tall", d, [z(4, 3), z(2)], lambda a, k: torch.linalg.householder_product(a[0], a[1]))
        # the SVD family's gauge-invariant functions (core's Note [Complex SVD]; the vectors are unique up to a phase only)
        rec.case("linalgSvdvals", "c-tall", d, [z(4, 3)], lambda a, k: torch.linalg.svdvals(a[0]))
        rec.case("linalgSvdvals", "c-wide", d, [z(2, 2, 3)], lambda a, k: torch.linalg.svdvals(a[0]))
        rec.case("linalgPinv", "c-tall", d, [z(3, 2)], lambda a, k: torch.linalg.pinv(a[0]))
        rec.case("linalgMatrixRank", "c-square", d, [z(2, 3, 3)], lambda a, k: torch.linalg.matrix_rank(a[0]))
        rec.case("linalgCond", "c-square", d, [z(3, 3)], lambda a, k: torch.linalg.cond(a[0]))
        # lstsq (each driver; B broadcast over A's batch; a vector right-hand side) and matrix_exp
        rec.case("linalgLstsq", "c-tall", d, [z(4, 3), z(4, 2)], lambda a, k: torch.linalg.lstsq(a[0], a[1]))
        for drv in ("gels", "gelsd", "gelss"):
            rec.case("linalgLstsq", f"c-tall-{drv}", d, [z(4, 3), z(4, 2)], lambda a, k: torch.linalg.lstsq(a[0], a[1], driver=k["driver"]), kwargs={"driver": drv})
        rec.case("linalgLstsq", "c-wide-gelsd", d, [z(2, 3, 4), z(3, 1)], lambda a, k: torch.linalg.lstsq(a[0], a[1], driver=k["driver"]), kwargs={"driver": "gelsd"})
        rec.case("linalgLstsq", "c-square-vector", d, [z(3, 3), z(3)], lambda a, k: torch.linalg.lstsq(a[0], a[1]))
        for op, f in [("linalgMatrixExp", torch.linalg.matrix_exp), ("matrixExp", torch.matrix_exp)]:
            rec.case(op, "c-square", d, [z(2, 3, 3)], lambda a, k, f=f: f(a[0]))


def isclose(rec):
    """isclose compares magnitudes: |a - b| <= atol + rtol * |b|; a NaN in either part is NaN."""
    f = lambda a, k: torch.isclose(a[0], a[1], **k)  # noqa: E731
    for d in CDTYPES:
        g = gen_for("complex", "isclose", d)
        a = rand_c(d, [3, 4], g)
        steps = torch.complex(torch.randn(12, generator=g, dtype=torch.float64), torch.randn(12, generator=g, dtype=torch.float64))
        scale = torch.tensor([0, 1e-9, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.03, 0.1, 0.3, 1], dtype=torch.float64)
        near = (a.torch().reshape(-1).to(torch.complex128) + steps * scale).to(a.torch().dtype).reshape(3, 4)
        b = C(d, [3, 4], _pairs(near.reshape(-1).tolist()))
        rec.case("isclose", "c-near", d, [a, b], f)
        rec.case("isclose", "c-near-tol", d, [a, b], f, {"rtol": 0.01, "atol": 0.01})
        nf = C(d, [len(NONFINITE)], _pairs(NONFINITE))
        rec.case("isclose", "c-nonfinite", d, [nf, C(d, [len(NONFINITE)], _pairs(NONFINITE[::-1]))], f)
        rec.case("isclose", "c-nonfinite-self", d, [nf, nf], f)
        rec.case("isclose", "c-equal-nan", d, [nf, nf], f, {"equalNan": True})
        rec.case("isclose", "c-broadcast", d, [rand_c(d, [2, 1, 3], g), rand_c(d, [4, 1], g)], f, {"atol": 1.5})


def make():
    rec = Recorder()
    unary(rec)
    binary(rec)
    others(rec)
    isclose(rec)
    assert set(COMPLEX) == set(CDTYPES)
    return {"family": "complex", **rec.result()}
