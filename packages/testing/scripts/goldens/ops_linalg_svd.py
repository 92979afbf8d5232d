"""Goldens for torch.linalg part 2b (goldens/ops_linalg_svd.json): the SVD family (svd,
svdvals, torch.svd, pinv, pinverse, matrix_rank, cond, norm), float32 and float64 (other
dtypes: the errors, filed by AllDtypes as ops_linalg_solve.py does).

Singular vectors are unique only up to a sign per pair (u_i, v_i): the svd goldens are
recorded through `sign_fix` (op-info/linalg-svd.ts applies the same to torch-ts's results),
which flips each pair so that the entry of largest magnitude of u_i is positive, and each
extra row of a full Vh (or column of a full U) by its own largest entry. So the samples whose
vectors the goldens hold have distinct, nonzero singular values and full-matrices shapes
with |m - n| <= 1 (the completion of U or Vh is then unique up to that sign); the
rank-deficient, repeated-value and zero inputs are checked through their values only
(svdvals, matrix_rank, pinv, whose results do not depend on the basis picked).

Inputs: random matrices (distinct singular values), batched, tall and wide, 1 x 1, empty
(0 x 0, 0 x n, m x 0, batch size 0), plus:
  - "hilbert": the 4 x 4 Hilbert matrix (singular values 1.5 to 9.7e-5, condition number
    1.6e4). PyTorch's float32 LAPACK computes a small singular value to about eps32 * s_max
    absolute, so the relative error of s_min, of the condition number and of pinv is about
    eps32 * cond = 6e-8 * 1.6e4 = 1e-3 where torch-ts (Jacobi in doubles) is exact to float32
    rounding: op-info/linalg-svd.ts states float32 tolerances of that size (float64:
    2.2e-16 * 1.6e4 = 4e-12, inside the default);
  - "rank-deficient": a 4 x 3 matrix of rank 2 (its third singular value is rounding noise,
    about eps * s_max, below every default cutoff of pinv and matrix_rank);
  - "repeated": Q1 diag(3, 3, 1) Q2^T with orthogonal Q1, Q2 (values only);
  - "zeros": the zero matrix (values only; its vectors are any orthonormal basis).
The case format is described in _ops_common.py.
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import T, gen_for  # noqa: E402
from ops_linalg_solve import AllDtypes, hilbert, rand  # noqa: E402

_ops_common.PY_KWARGS.update({
    "fullMatrices": "full_matrices", "driver": "driver", "some": "some", "computeUv": "compute_uv", "atol": "atol", "rtol": "rtol",
    "hermitian": "hermitian", "rcond": "rcond", "tol": "tol", "p": "p", "ord": "ord",
})
L = torch.linalg
FLOATS = ["float32", "float64"]


def sign_fix(U, S, Vh):
    """Each pair (u_i, v_i) flipped so that u_i's entry of largest magnitude (the first such) is
    positive; rows of Vh past k (full_matrices) by their own largest entry."""
    k = S.shape[-1]

    def signs(X, dim):
        if X.numel() == 0:
            shape = list(X.shape)
            shape[dim] = 1
            return torch.ones(shape, dtype=X.dtype)
        return X.gather(dim, X.abs().argmax(dim, keepdim=True)).sign()

    sU = signs(U, -2)
    sV = signs(Vh, -1)
    pair = torch.cat([sU[..., :k].mT, sV[..., k:, :]], -2)
    return U * sU, S, Vh * pair


def svd_fixed(a, k):
    return sign_fix(*L.svd(a[0], **k))


def torch_svd_fixed(a, k):
    U, S, V = torch.svd(a[0], **k)
    if not k.get("compute_uv", True):
        return U, S, V
    U, S, Vh = sign_fix(U, S, V.mT)
    return U, S, Vh.mT


def orthogonal(n, g):
    q, _ = torch.linalg.qr(torch.randn(n, n, generator=g, dtype=torch.float64))
    return q


def rank_deficient(d, key):
    g = gen_for(*key)
    x = torch.randn(4, 2, generator=g, dtype=torch.float64) @ torch.randn(2, 3, generator=g, dtype=torch.float64)
    return T(d, [4, 3], x.reshape(-1).tolist())


def repeated(d, key):
    g = gen_for(*key)
    x = orthogonal(3, g) @ torch.diag(torch.tensor([3.0, 3.0, 1.0], dtype=torch.float64)) @ orthogonal(3, g).T
    return T(d, [3, 3], x.reshape(-1).tolist())


def symmetric(d, n, key):
    g = gen_for(*key)
    x = torch.randn(n, n, generator=g, dtype=torch.float64)
    return T(d, [n, n], (x + x.T).reshape(-1).tolist())


def zeros(d, shape):
    return T(d, shape, [0.0] * math.prod(shape))


def _ord(k, name):
    k = dict(k)
    if k.get(name) == "inf":
        k[name] = math.inf
    elif k.get(name) == "-inf":
        k[name] = -math.inf
    return k


def make():
    rec = AllDtypes()
    for d in FLOATS:
        # ---- svd (vectors through sign_fix) ----
        for sample, shape, kw in [
            ("3x3", [3, 3], {}), ("1x1", [1, 1], {}), ("batched", [2, 4, 3], {}), ("full-tall", [4, 3], {}), ("full-wide", [3, 4], {}),
            ("thin-tall", [5, 3], {"fullMatrices": False}), ("thin-wide", [3, 5], {"fullMatrices": False}),
            ("thin-batched", [2, 3, 4, 2], {"fullMatrices": False}), ("empty", [0, 0], {}), ("m0-full", [0, 3], {}), ("n0-full", [3, 0], {}),
            ("m0-thin", [0, 3], {"fullMatrices": False}), ("batch0", [0, 3, 3], {}),
        ]:
            rec.case("linalgSvd", sample, d, [rand(d, shape, ("svd", sample, d))], svd_fixed, kw)
        rec.case("linalgSvd", "hilbert", d, [hilbert(d)], svd_fixed)

        for sample, inputs in [
            ("3x3", [rand(d, [3, 3], ("svdvals", "3x3", d))]), ("tall", [rand(d, [5, 3], ("svdvals", "tall", d))]),
            ("wide", [rand(d, [3, 5], ("svdvals", "wide", d))]), ("batched", [rand(d, [2, 4, 3], ("svdvals", "batched", d))]),
            ("hilbert", [hilbert(d)]), ("rank-deficient", [rank_deficient(d, ("svdvals", "rd", d))]), ("repeated", [repeated(d, ("svdvals", "rep", d))]),
            ("zeros", [zeros(d, [3, 3])]), ("empty", [zeros(d, [0, 0])]), ("n0", [zeros(d, [3, 0])]), ("batch0", [zeros(d, [0, 2, 3])]),
        ]:
            rec.case("linalgSvdvals", sample, d, inputs, lambda a, k: L.svdvals(*a, **k))

        for sample, shape, kw in [
            ("3x3", [3, 3], {}), ("tall", [5, 3], {}), ("wide", [3, 5], {}), ("full", [4, 3], {"some": False}),
            ("batched", [2, 3, 4], {}), ("no-uv", [3, 4], {"computeUv": False}), ("empty", [0, 3], {}),
        ]:
            rec.case("svd", sample, d, [rand(d, shape, ("tsvd", sample, d))], torch_svd_fixed, kw)

        # ---- pinv, matrix_rank ----
        for op, fn in [("linalgPinv", L.pinv), ("linalgMatrixRank", L.matrix_rank)]:
            for sample, inputs, kw in [
                ("3x3", [rand(d, [3, 3], (op, "3x3", d))], {}), ("tall", [rand(d, [5, 3], (op, "tall", d))], {}),
                ("wide", [rand(d, [3, 5], (op, "wide", d))], {}), ("batched", [rand(d, [2, 4, 3], (op, "batched", d))], {}),
                ("rank-deficient", [rank_deficient(d, (op, "rd", d))], {}), ("zeros", [zeros(d, [3, 2])], {}),
                ("atol", [rand(d, [4, 4], (op, "atol", d))], {"atol": 0.5}), ("rtol", [rand(d, [4, 4], (op, "rtol", d))], {"rtol": 0.3}),
                ("atol-rtol", [rand(d, [4, 4], (op, "atrt", d))], {"atol": 0.25, "rtol": 0.1}),
                ("hermitian", [symmetric(d, 3, (op, "herm", d))], {"hermitian": True}),
                ("hermitian-lower", [rand(d, [3, 3], (op, "hlow", d))], {"hermitian": True}),
                ("empty", [zeros(d, [0, 3])], {}), ("batch0", [zeros(d, [0, 3, 3])], {}),
            ]:
                rec.case(op, sample, d, inputs, lambda a, k, fn=fn: fn(*a, **k), kw)
        rec.case("linalgPinv", "hilbert", d, [hilbert(d)], lambda a, k: L.pinv(*a))
        rec.case("linalgPinv", "rcond", d, [rand(d, [4, 4], ("pinv", "rcond", d))], lambda a, k: L.pinv(*a, **k), {"rcond": 0.2})
        rec.case("linalgMatrixRank", "hilbert", d, [hilbert(d)], lambda a, k: L.matrix_rank(*a))
        rec.case("linalgMatrixRank", "tol", d, [rand(d, [4, 4], ("rank", "tol", d))], lambda a, k: L.matrix_rank(*a, **k), {"tol": 0.5})
        for sample, inputs, kw in [
            # (rank-deficient with a cutoff: pinverse's default rcond 1e-15 keeps the rounding noise of the zero singular value)
            ("3x3", [rand(d, [3, 3], ("pinverse", "3x3", d))], {}), ("rank-deficient", [rank_deficient(d, ("pinverse", "rd", d))], {"rcond": 0.001}),
            ("rcond", [rand(d, [4, 4], ("pinverse", "rcond", d))], {"rcond": 0.2}),
        ]:
            rec.case("pinverse", sample, d, inputs, lambda a, k: torch.pinverse(*a, **k), kw)

        # ---- cond ----
        for sample, inputs, kw in [
            ("default", [rand(d, [3, 3], ("cond", "default", d))], {}), ("two", [rand(d, [2, 3, 3], ("cond", "two", d))], {"p": 2}),
            ("minus-two", [rand(d, [3, 3], ("cond", "m2", d))], {"p": -2}), ("one", [rand(d, [3, 3], ("cond", "one", d))], {"p": 1}),
            ("minus-one", [rand(d, [2, 3, 3], ("cond", "m1", d))], {"p": -1}), ("inf", [rand(d, [3, 3], ("cond", "inf", d))], {"p": "inf"}),
            ("minus-inf", [rand(d, [3, 3], ("cond", "minf", d))], {"p": "-inf"}), ("fro", [rand(d, [3, 3], ("cond", "fro", d))], {"p": "fro"}),
            ("nuc", [rand(d, [2, 3, 3], ("cond", "nuc", d))], {"p": "nuc"}), ("tall", [rand(d, [5, 3], ("cond", "tall", d))], {}),
            ("singular-one", [T(d, [2, 2], [1.0, 0.0, 0.0, 0.0])], {"p": 1}), ("singular-two", [T(d, [2, 2], [1.0, 0.0, 0.0, 0.0])], {}),
            ("hilbert", [hilbert(d)], {}), ("empty", [zeros(d, [0, 0])], {}), ("batch0-one", [zeros(d, [0, 3, 3])], {"p": 1}),
        ]:
            rec.case("linalgCond", sample, d, inputs, lambda a, k: L.cond(*a, **_ord(k, "p")), kw)

        # ---- norm ----
        for sample, shape, kw in [
            ("vector", [5], {}), ("matrix", [3, 4], {}), ("batched", [2, 3, 4], {}), ("vector-ord", [5], {"ord": 3}),
            ("two", [3, 4], {"ord": 2}), ("minus-two", [4, 3], {"ord": -2}), ("nuc", [3, 4], {"ord": "nuc"}), ("fro", [3, 4], {"ord": "fro"}),
            ("one", [3, 4], {"ord": 1}), ("inf", [3, 4], {"ord": "inf"}), ("dims", [2, 3, 4], {"ord": 2, "dim": [2, 0]}),
            ("nuc-keepdim", [2, 3, 4], {"ord": "nuc", "dim": [0, 1], "keepdim": True}), ("dim1", [2, 3, 4], {"ord": 3, "dim": [1]}),
            ("no-ord-dims", [2, 3, 4], {"dim": [0, 2]}),
        ]:
            rec.case("linalgNorm", sample, d, [rand(d, shape, ("norm", sample, d))], lambda a, k: L.norm(a[0], **_ord(k, "ord")), kw)

    # ---- errors ----
    for op, call in [("linalgSvd", lambda a, k: L.svd(*a, **k)), ("linalgSvdvals", lambda a, k: L.svdvals(*a, **k)),
                     ("svd", lambda a, k: torch.svd(*a, **k)), ("linalgPinv", lambda a, k: L.pinv(*a, **k)),
                     ("linalgMatrixRank", lambda a, k: L.matrix_rank(*a, **k)), ("linalgCond", lambda a, k: L.cond(*a, **k))]:
        rec.case(op, "vector", "float32", [T("float32", [3], [1.0, 2.0, 3.0])], call)
    for op, call in [("linalgSvd", lambda a, k: L.svd(*a, **k)), ("linalgSvdvals", lambda a, k: L.svdvals(*a, **k))]:
        rec.case(op, "driver", "float32", [T("float32", [2, 2], [1.0, 2.0, 3.0, 4.0])], call, {"driver": "gesvd"})
    rec.case("linalgCond", "bad-ord", "float32", [T("float32", [2, 2], [1.0, 2.0, 3.0, 4.0])], lambda a, k: L.cond(*a, **k), {"p": 3})
    rec.case("linalgCond", "nonsquare", "float32", [T("float32", [2, 3], [1.0] * 6)], lambda a, k: L.cond(*a, **k), {"p": 1})
    rec.case("linalgCond", "nonsquare-fro", "float32", [T("float32", [2, 3], [1.0] * 6)], lambda a, k: L.cond(*a, **k), {"p": "fro"})
    rec.case("linalgNorm", "no-dim-3d", "float32", [T("float32", [2, 2, 2], [1.0] * 8)], lambda a, k: L.norm(a[0], **k), {"ord": 2})
    rec.case("linalgNorm", "dim3", "float32", [T("float32", [2, 2, 2], [1.0] * 8)], lambda a, k: L.norm(a[0], **k), {"dim": [0, 1, 2]})
    rec.case("linalgNorm", "bad-ord", "float32", [T("float32", [2, 2], [1.0] * 4)], lambda a, k: L.norm(a[0], **k), {"ord": 3})
    rec.fill()
    return {"family": "linalg_svd", **rec.result()}
