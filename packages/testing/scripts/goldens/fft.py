"""Goldens for torch.fft (goldens/fft.json), from PyTorch 1.13's CPU (pocketfft), read by
test/fft.test.ts:
  - "forward": transforms of seeded random inputs: fft / ifft / rfft / irfft / hfft / ihfft at
    the lengths 1 2 3 4 5 7 8 12 16 17 30 64 97 100 127 128 256 257 1000 1009 4096 (smooth and
    prime, so both the mixed-radix and the Bluestein plans), n padding and trimming, every
    norm, dim choices, batched shapes, the 2-D and n-D families with s and dim, real
    (float32 / float64 / int64 / bool) and complex64 / complex128 inputs, fftfreq /
    rfftfreq (n, d, dtype) and fftshift / ifftshift with dims;
  - "grads": the gradient of the real loss sum(|f(x) * w|^2) for seeded weights w, for the
    c2c, r2c, c2r and Hermitian families (PyTorch's fft_r2c_backward / fft_c2r_backward
    define the r2c and c2r ones; a complex input's gradient is PyTorch's conjugate
    Wirtinger one, dL/dre + i dL/dim);
  - "errors": PyTorch 1.13's exception class and message for bad n, s, dim and norm, complex
    inputs to the real transforms, float16 / bfloat16 inputs, and fftfreq's dtype.
Tensors are {dtype, shape, re, im?} with values as doubles (float32 values are exact;
non-finite ones as "nan" / "inf" / "-inf").
Run: /usr/bin/python3 packages/testing/scripts/make_goldens.py fft
"""
import torch

DT = {"float32": torch.float32, "float64": torch.float64, "complex64": torch.complex64,
      "complex128": torch.complex128, "int64": torch.int64, "bool": torch.bool,
      "float16": torch.float16, "bfloat16": torch.bfloat16}
NAME = {v: k for k, v in DT.items()}
SEED = [0]


def rand(dtype, shape):
    SEED[0] += 1
    g = torch.Generator().manual_seed(SEED[0])
    if dtype in ("complex64", "complex128"):
        return torch.randn(*shape, dtype=DT[dtype], generator=g)
    if dtype == "int64":
        return torch.randint(-5, 6, shape, generator=g)
    if dtype == "bool":
        return torch.randint(0, 2, shape, generator=g).bool()
    return torch.randn(*shape, dtype=torch.float64, generator=g).to(DT[dtype])


def enc(t):
    t = t.detach()
    d = {"dtype": NAME[t.dtype], "shape": list(t.shape)}
    if t.is_complex():
        d["re"] = t.real.double().reshape(-1).tolist()
        d["im"] = t.imag.double().reshape(-1).tolist()
    else:
        d["re"] = t.double().reshape(-1).tolist()
    return d


forward, grads, errors = [], [], []


def case(fn, x, **kw):
    out = getattr(torch.fft, fn)(x, **kw)
    forward.append({"fn": fn, "input": enc(x), "kwargs": kw, "out": enc(out)})


def grad_case(fn, dt, shape, **kw):
    x = rand(dt, shape).requires_grad_(True)
    out = getattr(torch.fft, fn)(x, **kw)
    w = rand(NAME[out.dtype], list(out.shape))
    loss = ((out * w).abs() ** 2).sum()
    loss.backward()
    grads.append({"fn": fn, "input": enc(x), "kwargs": kw, "weight": enc(w), "grad": enc(x.grad)})


def err(fn, dt, shape, **kw):
    x = rand(dt, shape) if dt is not None else None
    try:
        getattr(torch.fft, fn)(x, **kw)
    except Exception as e:  # noqa: BLE001
        errors.append({"fn": fn, "input": {"dtype": dt, "shape": shape}, "kwargs": kw, "type": type(e).__name__, "message": str(e).split("\n")[0]})
        return
    raise AssertionError(f"{fn} {dt} {shape} {kw} did not raise")


def ferr(fn, n, **kw):
    k = dict(kw)
    if "dtype" in k:
        k["dtype"] = DT[k["dtype"]]
    try:
        getattr(torch.fft, fn)(n, **k)
    except Exception as e:  # noqa: BLE001
        errors.append({"fn": fn, "n": n, "kwargs": kw, "type": type(e).__name__, "message": str(e).split("\n")[0]})
        return
    raise AssertionError(f"{fn} did not raise")



def make():
    forward.clear()
    grads.clear()
    errors.clear()
    SEED[0] = 0
    LENGTHS = [1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 30, 64, 97, 100, 127, 128, 256, 257, 1000, 1009, 4096]
    for n in LENGTHS:
        case("fft", rand("complex128", [n]))
        case("ifft", rand("complex64", [n]))
        case("rfft", rand("float32" if n % 2 else "float64", [n]))
        if n > 1:
            case("irfft", rand("complex128", [n // 2 + 1]), n=n)
        if n <= 257:
            case("fft", rand("complex64", [n]))
            case("hfft", rand("complex64", [n // 2 + 1]), n=n)
            case("ihfft", rand("float64", [n]))

    for norm in [None, "backward", "ortho", "forward"]:
        kw = {} if norm is None else {"norm": norm}
        for fn, dt, shape in [("fft", "complex128", [3, 6]), ("ifft", "complex64", [6, 5]), ("fft", "float64", [4, 7]),
                              ("ifft", "float32", [2, 8]), ("rfft", "float64", [3, 9]), ("irfft", "complex128", [3, 5]),
                              ("hfft", "complex128", [2, 4]), ("ihfft", "float32", [3, 10])]:
            case(fn, rand(dt, shape), **kw)
            case(fn, rand(dt, shape), dim=0, n=5, **kw)
        for fn, dt, shape in [("fft2", "complex128", [2, 4, 6]), ("ifft2", "float64", [3, 5]), ("rfft2", "float32", [4, 6]),
                              ("irfft2", "complex64", [3, 4]), ("hfft2", "complex128", [4, 3]), ("ihfft2", "float64", [5, 6]),
                              ("fftn", "complex64", [2, 3, 4]), ("ifftn", "complex128", [3, 2, 5]), ("rfftn", "float64", [2, 3, 4]),
                              ("irfftn", "complex128", [2, 3, 3]), ("hfftn", "complex64", [3, 2, 4]), ("ihfftn", "float32", [2, 3, 5])]:
            case(fn, rand(dt, shape), **kw)

    # n padding / trimming, dims, batched
    for fn, dt in [("fft", "complex128"), ("ifft", "complex64"), ("rfft", "float64"), ("ihfft", "float64")]:
        for n, dim in [(3, -1), (11, -1), (4, 0), (9, 1), (2, -2)]:
            case(fn, rand(dt, [4, 6, 3] if dim != -1 else [2, 3, 7]), n=n, dim=dim)
    for fn in ["irfft", "hfft"]:
        for n, dim in [(1, -1), (2, -1), (7, 0), (12, 1), (3, -2)]:
            case(fn, rand("complex128", [4, 5, 3]), n=n, dim=dim)
    # n-D: s and dim
    for fn, dt in [("fftn", "complex128"), ("ifftn", "float64"), ("rfftn", "float64"), ("irfftn", "complex128"),
                   ("hfftn", "complex128"), ("ihfftn", "float64")]:
        x = rand(dt, [3, 4, 5])
        for kw in [{}, {"dim": [0, 2]}, {"dim": [2, 0]}, {"s": [6, 3]}, {"s": [2, -1, 7]}, {"s": [4, 6], "dim": [0, -1]},
                   {"dim": 1}, {"s": [5], "dim": [0]}]:
            case(fn, x, **kw)
    for fn, dt in [("fft2", "complex64"), ("rfft2", "float32"), ("irfft2", "complex64"), ("hfft2", "complex128"), ("ihfft2", "float64"), ("ifft2", "complex128")]:
        x = rand(dt, [2, 5, 6])
        for kw in [{}, {"s": [3, 8]}, {"dim": [0, 2]}, {"s": [4, 4], "dim": [1, 0]}]:
            case(fn, x, **kw)
    # dtype promotion
    for dt in ["int64", "bool"]:
        case("fft", rand(dt, [6]))
        case("rfft", rand(dt, [2, 5]))
        case("fftn", rand(dt, [3, 4]))
        case("ihfft", rand(dt, [7]))
    case("irfft", rand("float64", [5]))
    case("hfft", rand("float32", [5]), n=7)
    case("ifftn", rand("int64", [2, 3]))
    # empty batch
    case("fft", rand("complex128", [0, 4]))
    case("rfft", rand("float64", [0, 5]))
    case("irfft", rand("complex128", [2, 0, 4]), dim=-1)
    case("fft", rand("float32", [0]), n=3)
    freq, shifts = [], []
    for fn in ["fftfreq", "rfftfreq"]:
        for n, kw in [(1, {}), (5, {}), (8, {}), (9, {"d": 0.25}), (10, {"d": 3.0}), (7, {"dtype": "float64"}),
                      (6, {"d": 0.1, "dtype": "float64"}), (0, {})]:
            k = dict(kw)
            if "dtype" in k:
                k["dtype"] = DT[k["dtype"]]
            freq.append({"fn": fn, "n": n, "kwargs": kw, "out": enc(getattr(torch.fft, fn)(n, **k))})

    for fn in ["fftshift", "ifftshift"]:
        for shape, kw in [([7], {}), ([6], {}), ([4, 5], {}), ([4, 5], {"dim": 0}), ([4, 5], {"dim": -1}), ([3, 4, 5], {"dim": [0, 2]}),
                          ([3, 4, 5], {"dim": [-1, 1]})]:
            x = torch.arange(int(torch.tensor(shape).prod()), dtype=torch.float64).reshape(shape)
            shifts.append({"fn": fn, "input": enc(x), "kwargs": kw, "out": enc(getattr(torch.fft, fn)(x, **kw))})
    x = rand("complex64", [3, 4])
    shifts.append({"fn": "fftshift", "input": enc(x), "kwargs": {}, "out": enc(torch.fft.fftshift(x))})
    for fn, dt, shape, kw in [
        ("fft", "complex128", [6], {}), ("fft", "float64", [2, 5], {"norm": "ortho"}), ("ifft", "complex128", [3, 4], {"n": 6, "dim": 0}),
        ("ifft", "float64", [7], {"n": 5}), ("rfft", "float64", [8], {}), ("rfft", "float64", [3, 7], {"norm": "forward"}),
        ("rfft", "float64", [2, 6], {"n": 9, "dim": 1}), ("irfft", "complex128", [5], {}), ("irfft", "complex128", [2, 4], {"n": 7}),
        ("irfft", "complex128", [4, 3], {"n": 4, "dim": 0, "norm": "ortho"}), ("hfft", "complex128", [5], {}),
        ("hfft", "complex128", [2, 4], {"n": 5, "norm": "forward"}), ("ihfft", "float64", [7], {}), ("ihfft", "float64", [2, 6], {"norm": "ortho"}),
        ("fft2", "complex128", [3, 4], {}), ("rfft2", "float64", [4, 5], {}), ("irfft2", "complex128", [3, 4], {"s": [3, 5]}),
        ("hfft2", "complex128", [3, 3], {}), ("ihfft2", "float64", [4, 5], {}), ("fftn", "float64", [2, 3, 4], {"dim": [0, 2]}),
        ("ifftn", "complex128", [2, 3, 2], {"s": [4, 2, 3], "norm": "ortho"}), ("rfftn", "float64", [3, 4, 5], {}),
        ("irfftn", "complex128", [2, 3, 4], {}), ("hfftn", "complex128", [2, 3, 3], {"s": [3, 4]}),
        ("ihfftn", "float64", [3, 2, 4], {}), ("fft", "complex128", [97], {}), ("rfft", "float64", [17], {}),
    ]:
        grad_case(fn, dt, shape, **kw)
    err("fft", "float32", [6], n=0)
    err("fft", "complex64", [6], n=-1)
    err("rfft", "float64", [6], n=0)
    err("irfft", "complex64", [1])
    err("hfft", "complex64", [1])
    err("irfft", "complex64", [4], n=0)
    err("fft", "float32", [6], dim=3)
    err("fft", "complex64", [2, 3], dim=-3)
    err("fft", "float32", [6], norm="bad")
    err("ifft", "complex128", [6], norm="Ortho")
    err("rfft", "complex64", [3])
    err("ihfft", "complex64", [3])
    err("fft", "float16", [6])
    err("fft", "bfloat16", [6])
    err("rfft", "float16", [6])
    err("fft", "float32", [0])
    err("fftn", "float32", [2, 3], s=[2, 3], dim=[0])
    err("fftn", "float32", [2, 3], dim=[0, 0])
    err("fftn", "float32", [2, 3], dim=[0, -2])
    err("fftn", "float32", [2, 3], s=[3, 4, 5])
    err("fftn", "float32", [2, 3], s=[0, 2])
    err("fftn", "float32", [2, 3], dim=[2])
    err("fft2", "float32", [6])
    err("rfftn", "complex64", [2, 3])
    err("rfftn", "float32", [6], s=[3, -1])
    err("irfftn", "complex64", [2, 1])
    err("irfftn", "complex64", [2, 3], s=[4], dim=[0, 1])
    err("hfftn", "complex64", [2, 1])
    err("ihfftn", "complex64", [2, 3])
    err("fftn", "float32", [2, 3], norm="bad")
    err("irfft2", "complex64", [3], s=[2, 2])
    err("fftshift", "float32", [2, 3], dim=5)
    err("ifftshift", "float32", [2, 3], dim=[])
    ferr("fftfreq", 5, dtype="int64")
    ferr("rfftfreq", 5, dtype="bool")
    ferr("fftfreq", 5, dtype="complex64")
    ferr("rfftfreq", 4, dtype="complex128")
    return {"family": "fft", "forward": forward, "freq": freq, "shifts": shifts, "grads": grads, "errors": errors}
