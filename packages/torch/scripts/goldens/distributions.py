"""Goldens for torch.distributions (test/goldens/distributions.json).

Each case builds a distribution from fixed parameters (float64, and float32 for the
samplers), then records its shapes, repr, mean/mode/variance/stddev/entropy, log_prob (and
cdf/icdf where it has them) at fixed values, the gradients of sum(log_prob) with respect to
the parameters, and draws from a seeded generator: `sample` and `rsample` of a sample shape,
in that order on one seed, and the gradient of sum(rsample) (PyTorch's reparameterised
draws are deterministic given the generator, so torch-ts must give the same values).
"kl" holds KL divergences (and gradients) of pairs; "errors" the messages of invalid
arguments and values. The JS names of the parameters are PyTorch's. Non-finite values travel
as "nan", "inf" and "-inf".
"""
import math

import torch
import torch.distributions as D
from _common import values as _values, write

torch.set_default_dtype(torch.float64)


def _finite(v):
    if isinstance(v, list):
        return [_finite(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def values(x):
    """A tensor as {shape, dtype, values}, non-finite values as "nan"/"inf"/"-inf" (JSON has none)."""
    v = _values(x)
    v["values"] = _finite(v["values"])
    return v


def t(x, dtype=torch.float64):
    return torch.tensor(x, dtype=dtype)


# name, constructor, params {name: values}, keyword-only params, evaluation points, sample shape
CASES = [
    ("normal", D.Normal, {"loc": [0.5, -1.0, 2.0], "scale": [1.0, 0.5, 2.5]}, {}, [[0.3, -1.2, 4.0], [1.0, 0.0, -2.0]], [4]),
    ("normal-broadcast", D.Normal, {"loc": [[0.0], [1.0]], "scale": [0.5, 2.0]}, {}, [[0.1, -0.3]], [2]),
    ("uniform", D.Uniform, {"low": [0.0, -2.0], "high": [1.0, 3.0]}, {}, [[0.25, 2.5], [0.999, -1.5]], [3]),
    ("bernoulli-probs", D.Bernoulli, {}, {"probs": [0.2, 0.7, 0.5]}, [[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]], [5]),
    ("bernoulli-logits", D.Bernoulli, {}, {"logits": [-1.5, 0.3, 2.0]}, [[1.0, 1.0, 0.0]], [5]),
    ("categorical-probs", D.Categorical, {}, {"probs": [[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]}, [[2.0, 0.0], [1.0, 1.0]], [6]),
    ("categorical-logits", D.Categorical, {}, {"logits": [[0.5, -1.0, 2.0, 0.0]]}, [[3.0], [0.0]], [4]),
    ("onehot", D.OneHotCategorical, {}, {"probs": [[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]}, [[[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]], [3]),
    ("exponential", D.Exponential, {"rate": [0.5, 2.0, 4.0]}, {}, [[0.1, 1.5, 0.0], [3.0, 0.2, 0.7]], [4]),
    ("laplace", D.Laplace, {"loc": [0.0, 1.5], "scale": [1.0, 0.3]}, {}, [[0.5, 1.2], [-2.0, 3.0]], [4]),
    ("lognormal", D.LogNormal, {"loc": [0.0, 0.5], "scale": [1.0, 0.25]}, {}, [[0.5, 2.0], [1.5, 0.1]], [3]),
    ("gamma", D.Gamma, {"concentration": [0.5, 2.0, 7.5], "rate": [1.0, 0.5, 3.0]}, {}, [[0.3, 2.5, 1.0], [4.0, 0.01, 2.2]], [4]),
    ("chi2", D.Chi2, {"df": [1.0, 3.0, 10.0]}, {}, [[0.3, 2.5, 11.0]], [4]),
    ("beta", D.Beta, {"concentration1": [0.5, 2.0, 5.0], "concentration0": [0.7, 2.0, 1.5]}, {}, [[0.2, 0.5, 0.9], [0.999, 0.01, 0.5]], [3]),
    # (no concentration of exactly 1: there 1.13's log_prob, log(value) * (c - 1), and 2.x's,
    # xlogy(c - 1, value), which torch-ts follows, have different gradients: test/distributions.test.ts)
    ("dirichlet", D.Dirichlet, {"concentration": [[0.5, 1.25, 2.0], [3.0, 0.2, 1.5]]}, {}, [[[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]], [2]),
    ("dirichlet-small", D.Dirichlet, {"concentration": [[0.5, 0.3, 0.9]]}, {}, [[[0.1, 0.8, 0.1]]], [2]),
    ("poisson", D.Poisson, {"rate": [0.5, 4.0, 15.0]}, {}, [[0.0, 3.0, 12.0], [2.0, 7.0, 20.0]], [4]),
    ("binomial-probs", D.Binomial, {"total_count": [5.0, 5.0, 5.0]}, {"probs": [0.2, 0.7, 0.5]}, [[0.0, 3.0, 5.0], [2.0, 4.0, 1.0]], [4]),
    ("binomial-logits", D.Binomial, {"total_count": [40.0, 40.0]}, {"logits": [-0.3, 1.5]}, [[10.0, 33.0]], [3]),
    ("binomial-large", D.Binomial, {"total_count": [1000.0, 30.0]}, {"probs": [0.4, 0.9]}, [[410.0, 27.0]], [3]),
    ("mvn-cov", D.MultivariateNormal, {"loc": [[0.5, -1.0, 2.0], [0.0, 0.3, -0.2]]},
     {"covariance_matrix": [[2.0, 0.3, -0.4], [0.3, 1.0, 0.2], [-0.4, 0.2, 1.5]]}, [[[0.1, -0.5, 1.0], [1.0, 0.0, 0.0]]], [4]),
    ("mvn-scale-tril", D.MultivariateNormal, {"loc": [1.0, -2.0, 0.5]},
     {"scale_tril": [[1.2, 0.0, 0.0], [0.4, 0.8, 0.0], [-0.3, 0.1, 0.5]]}, [[0.3, -1.0, 1.2], [[0.0, 0.0, 0.0], [2.0, -3.0, 0.1]]], [3]),
    ("mvn-precision", D.MultivariateNormal, {"loc": [0.2, -0.7]}, {"precision_matrix": [[2.0, -0.5], [-0.5, 1.0]]}, [[0.5, 0.5]], [5]),
]

ICDF_AT = [0.1, 0.5, 0.9]


def param_tensors(params, kw, dtype):
    pos = {k: t(v, dtype).requires_grad_() for k, v in params.items()}
    kws = {k: t(v, dtype).requires_grad_() for k, v in kw.items()}
    return pos, kws


def safe(fn):
    try:
        return {"value": values(fn())}
    except NotImplementedError as e:
        return {"error": "NotImplementedError", "message": str(e)}


def grads(out, leaves):
    g = torch.autograd.grad(out, list(leaves.values()), allow_unused=True, retain_graph=True)
    return {k: (values(x) if x is not None else None) for k, x in zip(leaves.keys(), g)}


def case(name, cls, params, kw, points, sample_shape, dtype):
    pos, kws = param_tensors(params, kw, dtype)
    leaves = {**pos, **kws}
    d = cls(*pos.values(), **kws)
    rec = {
        "name": name, "dist": cls.__name__, "dtype": str(dtype)[6:],
        "params": {k: values(v) for k, v in pos.items()}, "kwparams": {k: values(v) for k, v in kws.items()},
        "batchShape": list(d.batch_shape), "eventShape": list(d.event_shape), "repr": repr(d),
        "mean": safe(lambda: d.mean), "mode": safe(lambda: d.mode), "variance": safe(lambda: d.variance),
        "stddev": safe(lambda: d.stddev), "entropy": safe(lambda: d.entropy()),
        "points": [], "samples": None,
    }
    for p in points:
        v = t(p, dtype)
        lp = d.log_prob(v)
        pt = {"value": values(v), "logProb": values(lp), "grads": grads(lp.sum(), leaves)}
        pt["cdf"] = safe(lambda: d.cdf(v))
        rec["points"].append(pt)
    rec["icdf"] = []
    for q in ICDF_AT:
        v = torch.full(d.batch_shape, q, dtype=dtype)
        rec["icdf"].append({"value": values(v), "icdf": safe(lambda: d.icdf(v))})
    torch.manual_seed(7)
    s = d.sample(torch.Size(sample_shape))
    rs = d.rsample(torch.Size(sample_shape)) if d.has_rsample else None
    rec["samples"] = {
        "seed": 7, "shape": sample_shape, "sample": values(s),
        "rsample": values(rs) if rs is not None else None,
        "rsampleGrads": grads(rs.sum(), leaves) if rs is not None else None,
    }
    e = d.expand(torch.Size([2]) + d.batch_shape)
    rec["expand"] = {"batchShape": list(e.batch_shape), "mean": safe(lambda: e.mean)}
    return rec


def kl_cases():
    out = []
    pairs = [
        ("normal", lambda l1, s1, l2, s2: (D.Normal(l1, s1), D.Normal(l2, s2)), [[0.0, 1.0], [1.0, 0.5], [0.5, -1.0], [2.0, 0.25]]),
        ("laplace", lambda l1, s1, l2, s2: (D.Laplace(l1, s1), D.Laplace(l2, s2)), [[0.0, 1.0], [1.0, 0.5], [0.5, -1.0], [2.0, 0.25]]),
        ("uniform", lambda a, b, c, d: (D.Uniform(a, b), D.Uniform(c, d)), [[0.0, 0.2], [1.0, 0.5], [-1.0, 0.1], [2.0, 0.6]]),
        ("exponential", lambda r1, r2: (D.Exponential(r1), D.Exponential(r2)), [[0.5, 2.0], [1.5, 1.0]]),
        ("bernoulli", lambda p1, p2: (D.Bernoulli(p1), D.Bernoulli(p2)), [[0.2, 0.7, 0.0, 1.0], [0.5, 0.1, 0.3, 0.6]]),
        ("bernoulli-q-edge", lambda p1, p2: (D.Bernoulli(p1), D.Bernoulli(p2)), [[0.2, 0.7], [0.0, 1.0]]),
        ("categorical", lambda p1, p2: (D.Categorical(p1), D.Categorical(p2)), [[[0.1, 0.2, 0.7], [0.0, 0.5, 0.5]], [[0.3, 0.3, 0.4], [0.2, 0.2, 0.6]]]),
        ("categorical-q-zero", lambda p1, p2: (D.Categorical(p1), D.Categorical(p2)), [[[0.1, 0.2, 0.7]], [[0.5, 0.0, 0.5]]]),
        ("onehot", lambda p1, p2: (D.OneHotCategorical(p1), D.OneHotCategorical(p2)), [[[0.1, 0.2, 0.7]], [[0.3, 0.3, 0.4]]]),
        ("independent-normal", lambda l1, s1, l2, s2: (D.Independent(D.Normal(l1, s1), 1), D.Independent(D.Normal(l2, s2), 1)), [[[0.0, 1.0]], [[1.0, 0.5]], [[0.5, -1.0]], [[2.0, 0.25]]]),
        ("lognormal", lambda l1, s1, l2, s2: (D.LogNormal(l1, s1), D.LogNormal(l2, s2)), [[0.0, 1.0], [1.0, 0.5], [0.5, -1.0], [2.0, 0.25]]),
        ("gamma", lambda a1, r1, a2, r2: (D.Gamma(a1, r1), D.Gamma(a2, r2)), [[0.5, 2.0], [1.0, 0.5], [1.5, 0.3], [2.0, 4.0]]),
        ("beta", lambda a1, b1, a2, b2: (D.Beta(a1, b1), D.Beta(a2, b2)), [[0.5, 2.0], [1.0, 0.5], [1.5, 0.3], [2.0, 4.0]]),
        ("dirichlet", lambda c1, c2: (D.Dirichlet(c1), D.Dirichlet(c2)), [[[0.5, 1.0, 2.0]], [[1.5, 0.3, 0.7]]]),
        ("poisson", lambda r1, r2: (D.Poisson(r1), D.Poisson(r2)), [[0.5, 4.0], [2.0, 3.0]]),
        ("binomial", lambda n1, p1, n2, p2: (D.Binomial(n1, p1), D.Binomial(n2, p2)), [[10.0, 12.0], [0.3, 0.6], [10.0, 8.0], [0.5, 0.2]]),
        ("mvn", lambda l1, c1, l2, c2: (D.MultivariateNormal(l1, covariance_matrix=c1), D.MultivariateNormal(l2, covariance_matrix=c2)),
         [[0.5, -1.0], [[2.0, 0.3], [0.3, 1.0]], [[0.0, 0.0], [1.0, 1.0]], [[[1.0, 0.0], [0.0, 1.0]], [[1.5, -0.2], [-0.2, 0.7]]]]),
    ]
    for name, make, args in pairs:
        ts = [t(a).requires_grad_() for a in args]
        p, q = make(*ts)
        kl = D.kl_divergence(p, q)
        finite = kl.isfinite()
        g = torch.autograd.grad(kl[finite].sum(), ts, allow_unused=True) if finite.any() else [None] * len(ts)
        out.append({"name": name, "args": [values(a) for a in ts], "kl": values(kl), "grads": [values(x) if x is not None else None for x in g]})
    return out


def err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return {"type": type(e).__name__, "message": str(e)}
    raise AssertionError("no error")


def error_cases():
    return {
        "normal-scale": err(lambda: D.Normal(t([0.0, 1.0]), t([1.0, -1.0]))),
        "normal-scale-scalar": err(lambda: D.Normal(0.0, -1.0)),
        "bernoulli-probs": err(lambda: D.Bernoulli(probs=t([0.5, 1.5]))),
        "bernoulli-neither": err(lambda: D.Bernoulli()),
        "bernoulli-both": err(lambda: D.Bernoulli(probs=t([0.5]), logits=t([0.0]))),
        "categorical-probs": err(lambda: D.Categorical(probs=t([-0.5, 1.5]))),
        "uniform-order": err(lambda: D.Uniform(t([0.0, 2.0]), t([1.0, 1.0]))),
        "exponential-rate": err(lambda: D.Exponential(t([0.0]))),
        "log-prob-support": err(lambda: D.Exponential(t([1.0])).log_prob(t([-1.0]))),
        "log-prob-shape": err(lambda: D.Normal(t([0.0, 1.0]), t([1.0, 1.0])).log_prob(t([0.0, 1.0, 2.0]))),
        "log-prob-event-shape": err(lambda: D.OneHotCategorical(t([[0.5, 0.5]])).log_prob(t([1.0, 0.0, 0.0]))),
        "log-prob-not-tensor": err(lambda: D.Normal(t([0.0]), t([1.0])).log_prob(0.5)),
        "independent-ndims": err(lambda: D.Independent(D.Normal(t([0.0]), t([1.0])), 2)),
        "kl-not-implemented": err(lambda: D.kl_divergence(D.Laplace(t([0.0]), t([1.0])), D.Categorical(t([0.5, 0.5])))),
        "bernoulli-rsample": err(lambda: D.Bernoulli(t([0.5])).rsample()),
        "mvn-not-pd": err(lambda: D.MultivariateNormal(t([0.0, 0.0]), covariance_matrix=t([[1.0, 2.0], [2.0, 1.0]]))),
        "mvn-none": err(lambda: D.MultivariateNormal(t([0.0, 0.0]))),
        "mvn-scale-tril": err(lambda: D.MultivariateNormal(t([0.0, 0.0]), scale_tril=t([[1.0, 0.5], [0.0, 1.0]]))),
    }


def draws():
    """Seeded _standard_gamma and poisson draws (every branch of their samplers), and their errors."""
    alphas = [0.3, 1.0, 2.5, 0.05, 7.0, 1e-3, 100.0, 0.7, 0.0, 3.3]
    rates = [0.0, 0.5, 3.0, 9.99, 10.0, 12.5, 40.0, 1000.0, 1e6, 2.0]
    out = []
    for dtype in (torch.float64, torch.float32, torch.float16, torch.bfloat16):
        for fn, params in (("_standard_gamma", alphas), ("poisson", rates), ("_sample_dirichlet", alphas[:9]), ("binomial", [5.0, 20.0, 1000.0, 0.0, 7.0, 30.0, 100.0, 3.0, 1e5, 12.0])):
            for shape, expand in (([10], None), ([2, 5], None), ([1, 10], [3, 10])):
                if fn == "_sample_dirichlet":
                    shape = [3, 3] if not expand else [1, 9]
                    expand = None if not expand else [2, 9]
                x = t(params, dtype).reshape(shape)
                if expand:
                    x = x.expand(expand)
                g = torch.Generator().manual_seed(11)
                rec = {"fn": fn, "dtype": str(dtype)[6:], "input": values(x.contiguous()), "expand": expand}
                try:
                    if fn == "binomial":
                        p = t([0.3, 0.9, 0.5, 0.5, 0.0, 0.02, 0.97, 1.0, 0.4, 0.6], dtype).reshape(x.shape if not expand else shape)
                        rec["prob"] = values(p.contiguous())
                        rec["values"] = values(torch.binomial(x, p.expand(x.shape), generator=g))
                    else:
                        rec["values"] = values(getattr(torch, fn)(x, generator=g))
                except Exception as e:  # noqa: BLE001
                    rec["error"] = str(e)
                out.append(rec)
    return out


def gamma_grads():
    """d x / d alpha of Gamma(alpha, 1) at x, to 30 digits (mpmath): the exact implicit derivative
    that torch-ts's _standard_gamma_grad computes (PyTorch's approximates it to about 2e-3)."""
    import mpmath
    mpmath.mp.dps = 30
    out = []
    for a in [0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 7.9, 8.1, 20.0, 100.0, 1000.0]:
        for x in [1e-5, 0.01, 0.3, 0.79, 0.81, 1.5, 3.0, a, 2 * a, a / 3 + 0.05, a + 1.0001, 5 * a + 3, a + 3 * math.sqrt(a)]:
            am, xm = mpmath.mpf(a), mpmath.mpf(x)
            dpda = mpmath.diff(lambda aa: mpmath.gammainc(aa, 0, xm, regularized=True), am)
            density = xm ** (am - 1) * mpmath.exp(-xm) / mpmath.gamma(am)
            if density == 0 or dpda == 0:
                continue  # (mpmath's difference underflows there)
            g = torch._standard_gamma_grad(t([a]), t([x])).item()
            out.append({"alpha": a, "x": x, "exact": float(-dpda / density), "pytorch": g})
    return out


def make():
    cases = []
    for dtype in (torch.float64, torch.float32):
        for c in CASES:
            cases.append(case(*c, dtype))
    return {"cases": cases, "kl": kl_cases(), "errors": error_cases(), "draws": draws(), "gammaGrads": gamma_grads()}


if __name__ == "__main__":
    write("distributions", make())
