"""Goldens for torch.linalg part 2a (goldens/ops_linalg_qr.json): QR (geqrf, orgqr /
householder_product, linalg.qr, torch.qr), the symmetric eigendecomposition (eigh,
eigvalsh), least squares (lstsq) and the matrix exponential, float32 and float64 (other
dtypes: the errors).

Inputs are random matrices, batched, tall and wide, empty (0 x 0, 0 x n, batch size 0) and
1 x 1, plus:
  - "hilbert": the 4 x 4 Hilbert matrix, condition number 1.6e4. The float32 results keep
    about eps32 * cond = 6e-8 * 1.6e4 = 1e-3 relative accuracy in the small entries of R,
    in the smallest eigenvalues and in the least-squares solutions, so the OpInfo entries
    state float32 tolerances of that size (op-info/linalg-qr.ts); float64 keeps the
    default (1.1e-16 * 1.6e4 = 2e-12);
  - eigh of a matrix with a repeated eigenvalue ("repeated", eigvalsh only: its eigenvectors
    are any basis of the eigenspace) and of a non-symmetric input (only the UPLO triangle
    is read);
  - lstsq of a rank-deficient matrix (gelsy's minimum-norm solution and rank), and the SVD
    drivers gelsd / gelss (singular values, rank, residuals only when every matrix of the
    batch has rank n; rcond < 0 or >= 1, where LAPACK's two drivers differ);
  - matrix_exp at 1-norms in each of ATen's degree intervals (1, 2, 4, 8, 12, 18 and
    scaling and squaring) for the dtype.
Eigenvectors are unique up to sign, in LAPACK too: the eigh goldens (and op-info's call)
flip each column so that its entry of largest magnitude is positive.
The case format is described in _ops_common.py.
"""
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, T, gen_for  # noqa: E402
from ops_linalg_solve import AllDtypes, hilbert  # noqa: E402

_ops_common.PY_KWARGS.update({"mode": "mode", "UPLO": "UPLO", "some": "some", "rcond": "rcond", "driver": "driver"})
L = torch.linalg
FLOATS = ["float32", "float64"]


def rand(d, shape, key, scale=1.0):
    g = gen_for(*key)
    return T(d, shape, (torch.randn(*shape, generator=g, dtype=torch.float64) * scale).reshape(-1).tolist())


def sym(d, shape, key):
    g = gen_for(*key)
    x = torch.randn(*shape, generator=g, dtype=torch.float64)
    return T(d, shape, ((x + x.transpose(-2, -1)) / 2).reshape(-1).tolist())


def signed(V):
    """Each column flipped so that its entry of largest magnitude is positive."""
    if V.numel() == 0:
        return V
    idx = V.abs().argmax(dim=-2, keepdim=True)
    s = torch.sign(torch.gather(V, -2, idx))
    return V * torch.where(s == 0, torch.ones_like(s), s)


def eigh_signed(a, k):
    w, V = L.eigh(*a, **k)
    return w, signed(V)


QR_SHAPES = [("3x3", [3, 3]), ("tall", [5, 3]), ("wide", [3, 5]), ("batched", [2, 4, 3]), ("1x1", [1, 1]),
             ("empty", [0, 0]), ("rows0", [0, 3]), ("cols0", [3, 0]), ("batch0", [0, 3, 3])]

REPEATED = [2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 5.0]
NONSYM = [4.0, 9.0, -7.0, 1.0, 3.0, 8.0, 2.0, 0.5, 5.0]
# (two equal columns: rank 2)
DEFICIENT = [1.0, 2.0, 2.0, 0.5, -1.0, -1.0, 3.0, 0.25, 0.25, -2.0, 1.5, 1.5]
# (a third column of norm 1e-3 orthogonal to the others, whose norms are far apart, so that
# the pivoting order and the truncated solution are unique: rank 2 at rcond 0.01, 3 at the default)
NEAR_DEFICIENT = [2.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1e-3, 0.0, 0.0, 0.0]


def make():
    rec = AllDtypes()
    for d in FLOATS:
        # ---- QR ----
        for sample, shape in QR_SHAPES:
            rec.case("geqrf", sample, d, [rand(d, shape, ("geqrf", sample, d))], lambda a, k: torch.geqrf(*a))
        rec.case("geqrf", "hilbert", d, [hilbert(d)], lambda a, k: torch.geqrf(*a))
        for sample, shape in QR_SHAPES:
            for mode in ["reduced", "complete", "r"]:
                name = sample if mode == "reduced" else f"{sample}-{mode}"
                rec.case("linalgQr", name, d, [rand(d, shape, ("qr", sample, d))], lambda a, k: L.qr(*a, **k), {"mode": mode})
        rec.case("linalgQr", "hilbert", d, [hilbert(d)], lambda a, k: L.qr(*a))
        for sample, shape, kw in [("3x3", [3, 3], {}), ("tall", [5, 3], {"some": False}), ("wide", [3, 5], {})]:
            rec.case("qr", sample, d, [rand(d, shape, ("torchqr", sample, d))], lambda a, k: torch.qr(*a, **k), kw)
        for op, fn in [("linalgHouseholderProduct", L.householder_product), ("orgqr", torch.orgqr)]:
            for sample, shape, k in [("3x3", [3, 3], 3), ("tall", [5, 3], 3), ("k1", [4, 3], 1), ("batched", [2, 4, 2], 2), ("k0", [3, 2], 0),
                                     ("batch0", [0, 3, 2], 2)]:
                a, tau = torch.geqrf(rand(d, shape, (op, sample, d)).torch())
                tau = tau[..., :k]
                inputs = [T(d, list(a.shape), a.reshape(-1).tolist()), T(d, list(tau.shape), tau.reshape(-1).tolist())]
                rec.case(op, sample, d, inputs, lambda a, k, fn=fn: fn(*a))

        # ---- eigh ----
        for sample, shape in [("3x3", [3, 3]), ("batched", [2, 4, 4]), ("1x1", [1, 1]), ("empty", [0, 0]), ("batch0", [0, 3, 3]), ("6x6", [6, 6]),
                              ("nonsymmetric", None)]:
            for uplo in ["L", "U"]:
                name = sample if uplo == "L" else f"{sample}-upper"
                inputs = [sym(d, shape, ("eigh", sample, d)) if shape else T(d, [3, 3], NONSYM)]
                rec.case("linalgEigh", name, d, inputs, eigh_signed, {"UPLO": uplo})
                rec.case("linalgEigvalsh", name, d, inputs, lambda a, k: L.eigvalsh(*a, **k), {"UPLO": uplo})
        rec.case("linalgEigh", "hilbert", d, [hilbert(d)], eigh_signed)
        rec.case("linalgEigvalsh", "hilbert", d, [hilbert(d)], lambda a, k: L.eigvalsh(*a))
        rec.case("linalgEigvalsh", "repeated", d, [T(d, [3, 3], REPEATED)], lambda a, k: L.eigvalsh(*a))

        # ---- lstsq ----
        for sample, sa, sb, kw in [
            ("tall", [5, 3], [5, 2], {}), ("tall-gels", [5, 3], [5, 2], {"driver": "gels"}), ("square", [3, 3], [3, 2], {}),
            ("wide", [3, 5], [3, 2], {}), ("wide-gels", [3, 5], [3, 2], {"driver": "gels"}), ("vector", [4, 3], [4], {}),
            ("vector-gels", [2, 4, 3], [2, 4], {"driver": "gels"}), ("batched", [2, 5, 3], [2, 5, 2], {"driver": "gelsy"}),
            ("broadcast", [2, 4, 3], [1, 4, 2], {}), ("upper-case", [4, 2], [4, 1], {"driver": "GELS"}),
            ("rows0", [0, 3], [0, 2], {}), ("batch0", [0, 4, 3], [0, 4, 2], {}), ("k0", [4, 3], [4, 0], {"driver": "gels"}),
        ]:
            rec.case("linalgLstsq", sample, d, [rand(d, sa, ("lstsq", sample, d)), rand(d, sb, ("lstsqB", sample, d))], lambda a, k: L.lstsq(*a, **k), kw)
        rec.case("linalgLstsq", "deficient", d, [T(d, [4, 3], DEFICIENT), rand(d, [4, 2], ("lstsqB", "deficient", d))], lambda a, k: L.lstsq(*a, **k))
        rec.case("linalgLstsq", "rcond", d, [T(d, [4, 3], NEAR_DEFICIENT), rand(d, [4, 1], ("lstsqB", "rcond", d))],
                 lambda a, k: L.lstsq(*a, **k), {"rcond": 0.01})
        rec.case("linalgLstsq", "hilbert", d, [hilbert(d), rand(d, [4, 1], ("lstsqB", "hilbert", d))], lambda a, k: L.lstsq(*a, **k))
        # the SVD drivers: singular values, rank, residuals only where every matrix has rank n
        for drv in ["gelsd", "gelss"]:
            for sample, sa, sb, kw in [
                ("tall", [5, 3], [5, 2], {}), ("square", [3, 3], [3, 2], {}), ("wide", [3, 5], [3, 2], {}), ("vector", [4, 3], [4], {}),
                ("batched", [2, 5, 3], [2, 5, 2], {}), ("broadcast-a", [1, 4, 3], [3, 4, 2], {}), ("broadcast-b", [2, 1, 4, 3], [1, 3, 4, 2], {}),
                ("rows0", [0, 3], [0, 2], {}), ("cols0", [4, 0], [4, 2], {}), ("batch0", [0, 4, 3], [0, 4, 2], {}),
                ("1x1", [1, 1], [1, 1], {}), ("rcond-negative", [5, 3], [5, 1], {"rcond": -1.0}), ("rcond-big", [5, 3], [5, 1], {"rcond": 2.0}),
            ]:
                rec.case("linalgLstsq", f"{drv}-{sample}", d, [rand(d, sa, ("lstsq", drv, sample, d)), rand(d, sb, ("lstsqB", drv, sample, d))],
                         lambda a, k: L.lstsq(*a, **k), {"driver": drv, **kw})
            # (no k0 sample: without right-hand sides 1.13's gelsd fails an internal assert (SLALSD
            # refuses nrhs = 0) and its gelss crashes)
            rec.case("linalgLstsq", f"{drv}-rcond", d, [T(d, [4, 3], NEAR_DEFICIENT), rand(d, [4, 2], ("lstsqB", drv, "rcond", d))],
                     lambda a, k: L.lstsq(*a, **k), {"driver": drv, "rcond": 0.01})
            rec.case("linalgLstsq", f"{drv}-zero", d, [T(d, [4, 3], [0.0] * 12), rand(d, [4, 2], ("lstsqB", drv, "zero", d))],
                     lambda a, k: L.lstsq(*a, **k), {"driver": drv})
            rec.case("linalgLstsq", f"{drv}-hilbert", d, [hilbert(d), rand(d, [4, 1], ("lstsqB", drv, "hilbert", d))], lambda a, k: L.lstsq(*a, **k), {"driver": drv})
            # (one matrix of the batch of rank 2: no residuals for any)
            bad = torch.randn(2, 4, 3, generator=gen_for("lstsq", drv, "batch-deficient", d), dtype=torch.float64)
            bad[1, :, 2] = bad[1, :, 1]
            rec.case("linalgLstsq", f"{drv}-batch-deficient", d, [T(d, [2, 4, 3], bad.reshape(-1).tolist()), rand(d, [2, 4, 1], ("lstsqB", drv, "bd", d))],
                     lambda a, k: L.lstsq(*a, **k), {"driver": drv})

        # ---- matrix_exp ----
    # (16-bit matrices: 1.13 exponentiates bfloat16 in bfloat16 with float64's thresholds, so
    # that ones(2, 2) overflows to inf, and fails float16 at log2 ("log2_vml_cpu" not
    # implemented for 'Half') but where the degree-1 or -2 polynomial serves; torch-ts
    # exponentiates them in float32 and rounds once: their goldens are that, "upcast")
    for d in FLOATS + ["float16", "bfloat16"]:
        kw16 = {"upcast": True, "float_acc": ("float16", "bfloat16")}
        for op, fn in [("linalgMatrixExp", L.matrix_exp), ("matrixExp", torch.matrix_exp)]:
            for norm in ["1e-17", "1e-9", "1e-5", "0.01", "0.2", "0.5", "1.2", "2.5", "10"]:
                x = rand("float64", [3, 3], (op, norm, d)).torch()
                x = x * (float(norm) / x.abs().sum(-2).max())
                rec.case(op, f"norm{norm}", d, [T(d, [3, 3], x.reshape(-1).tolist())], lambda a, k, fn=fn: fn(*a), **kw16)
            rec.case(op, "batched", d, [rand(d, [3, 4, 4], (op, "batched", d), 0.5)], lambda a, k, fn=fn: fn(*a), **kw16)
            for sample, shape in [("1x1", [1, 1]), ("empty", [0, 0]), ("batch0", [0, 2, 2])]:
                rec.case(op, sample, d, [rand(d, shape, (op, sample, d))], lambda a, k, fn=fn: fn(*a), **kw16)

    # ---- errors: shapes, and the dtypes PyTorch refuses ----
    for op, fn in [("geqrf", torch.geqrf), ("linalgQr", L.qr), ("linalgEigh", L.eigh), ("linalgEigvalsh", L.eigvalsh), ("linalgMatrixExp", L.matrix_exp)]:
        rec.case(op, "vector", "float32", [T("float32", [3], [1.0, 2.0, 3.0])], lambda a, k, fn=fn: fn(*a))
        for dd in ALL:
            if dd in FLOATS:
                continue
            if op == "linalgMatrixExp" and dd in ("float16", "bfloat16"):
                rec.case(op, "dtype", dd, [T(dd, [2, 2], [1, 0, 0, 1])], lambda a, k, fn=fn: fn(*a), upcast=True, float_acc=("float16", "bfloat16"))
                continue
            rec.case(op, "dtype", dd, [T(dd, [2, 2], [1, 0, 0, 1])], lambda a, k, fn=fn: fn(*a))
    for op, fn in [("linalgEigh", L.eigh), ("linalgMatrixExp", L.matrix_exp)]:
        rec.case(op, "nonsquare", "float32", [T("float32", [2, 3], [1.0] * 6)], lambda a, k, fn=fn: fn(*a))
    rec.case("linalgLstsq", "mismatch", "float32", [T("float32", [3, 2], [1.0] * 6), T("float32", [2, 1], [1.0, 2.0])], lambda a, k: L.lstsq(*a))
    rec.case("linalgHouseholderProduct", "wide", "float32", [T("float32", [2, 3], [1.0] * 6), T("float32", [1], [1.0])], lambda a, k: L.householder_product(*a))
    rec.fill()
    return {"family": "linalg_qr", **rec.result()}
