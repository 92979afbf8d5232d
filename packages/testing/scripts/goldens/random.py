"""Random ops with fixed seeds: torch-ts must reproduce PyTorch CPU's values bit for bit.

Each case seeds a generator, then runs a list of calls on it in order, so the generator's
state and its cached normal sample carry from one call to the next as in PyTorch.
A call is {"fn", "size"/"args", "dtype", "values"} (values flattened in logical order).
"""
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from _dtypes import DTYPES  # noqa: E402

SEEDS = [0, 42, 2**40 + 7]
SIZES = [1, 2, 3, 7, 16, 17, 33, 100]


def run(call, gen):
    fn, dtype = call["fn"], DTYPES.get(call.get("dtype", ""), None)
    if fn == "rand":
        t = torch.rand(call["size"], dtype=dtype, generator=gen)
    elif fn == "randn":
        t = torch.randn(call["size"], dtype=dtype, generator=gen)
    elif fn == "randint":
        t = torch.randint(*call["args"], call["size"], dtype=dtype or torch.int64, generator=gen)
    elif fn == "randperm":
        t = torch.randperm(call["args"][0], generator=gen)
    elif fn in ("uniform_", "normal_"):
        t = torch.empty(call["size"], dtype=dtype)
        if call.get("transposed"):
            t = t.t()
        getattr(t, fn)(*call["args"], generator=gen)
    else:
        raise ValueError(fn)
    call = dict(call)
    call["dtype"] = str(t.dtype)[6:]
    call["values"] = t.flatten().tolist()
    return call


def case(name, seed, calls, explicit=False):
    if explicit:
        gen = torch.Generator().manual_seed(seed)
    else:
        torch.manual_seed(seed)
        gen = None
    return {"name": name, "seed": seed, "explicit": explicit, "calls": [run(c, gen) for c in calls]}


def make():
    cases = []
    for seed in SEEDS:
        for dtype in ("float32", "float64"):
            for fn in ("rand", "randn"):
                # Each size on a fresh seed, so the first values of every size are checked.
                for n in SIZES:
                    cases.append(case(f"{fn} {n} {dtype}", seed, [{"fn": fn, "size": [n], "dtype": dtype}]))
                cases.append(case(f"{fn} [3,5] {dtype}", seed, [{"fn": fn, "size": [3, 5], "dtype": dtype}]))
        cases.append(case("randint", seed, [
            {"fn": "randint", "args": [0, 10], "size": [20]},
            {"fn": "randint", "args": [-5, 5], "size": [7]},
            {"fn": "randint", "args": [2**40], "size": [5]},
            {"fn": "randint", "args": [-(2**50), 2**50], "size": [4]},
            {"fn": "randint", "args": [3, 2**32 + 3], "size": [3]},
            {"fn": "randint", "args": [-100, 100], "size": [3], "dtype": "int32"},
            {"fn": "randint", "args": [0, 2**40], "size": [3], "dtype": "float32"},
            {"fn": "randint", "args": [0, 100], "size": [3], "dtype": "float64"},
        ]))
        for n in [1, 5, 10, 100, 3000]:
            cases.append(case(f"randperm {n}", seed, [{"fn": "randperm", "args": [n]}]))
        cases.append(case("interleaved", seed, [
            {"fn": "rand", "size": [3], "dtype": "float32"},
            {"fn": "randn", "size": [5], "dtype": "float32"},  # odd count: a normal stays cached
            {"fn": "randint", "args": [0, 10], "size": [4]},
            {"fn": "randn", "size": [3], "dtype": "float64"},  # starts with the cached one
            {"fn": "randn", "size": [20], "dtype": "float32"},  # vectorised: ignores the cache
            {"fn": "randn", "size": [1], "dtype": "float32"},  # the cache is still there
            {"fn": "rand", "size": [2], "dtype": "float64"},
            {"fn": "randperm", "args": [6]},
        ]))
        for dtype in ("float32", "float64", "float16", "bfloat16"):
            cases.append(case(f"in-place {dtype}", seed, [
                {"fn": "uniform_", "size": [50], "args": [-2, 3], "dtype": dtype},
                {"fn": "normal_", "size": [50], "args": [5, 0.5], "dtype": dtype},
                {"fn": "normal_", "size": [7], "args": [5, 0.5], "dtype": dtype},
                {"fn": "uniform_", "size": [3, 4], "args": [0.25, 7.5], "transposed": True, "dtype": dtype},
                {"fn": "normal_", "size": [4, 5], "args": [-1, 2], "transposed": True, "dtype": dtype},
            ]))
        for dtype in ("float16", "bfloat16"):
            cases.append(case(f"rand {dtype}", seed, [
                {"fn": "rand", "size": [40], "dtype": dtype},
                {"fn": "randn", "size": [9], "dtype": dtype},
            ]))
        cases.append(case("explicit generator", seed, [
            {"fn": "rand", "size": [4], "dtype": "float32"},
            {"fn": "randn", "size": [3], "dtype": "float64"},
            {"fn": "randint", "args": [0, 1000], "size": [5]},
            {"fn": "randperm", "args": [8]},
        ], explicit=True))
    # Every size from 1 to 40: both normal paths and every tail length of the vectorised one.
    for dtype in ("float32", "float64"):
        for n in range(1, 41):
            cases.append(case(f"randn sizes {n} {dtype}", 1234, [{"fn": "randn", "size": [n], "dtype": dtype}]))
    # Many float32 normals: exercises the avx_mathfun polynomials over many angles and radii.
    for seed in SEEDS:
        cases.append(case("randn 2048 float32", seed, [{"fn": "randn", "size": [2048], "dtype": "float32"}]))
        cases.append(case("randn 1024 float64", seed, [{"fn": "randn", "size": [1024], "dtype": "float64"}]))
        cases.append(case("randn scalar 1000 float64", seed, [{"fn": "randn", "size": [15], "dtype": "float64"}] * 60))

    torch.manual_seed(0)
    never = torch.Generator()
    errors = {}
    for key, thunk in {
        "randint_low_ge_high": lambda: torch.randint(5, 5, (3,)),
        "randperm_negative": lambda: torch.randperm(-1),
        "uniform_from_gt_to": lambda: torch.empty(3).uniform_(3, 2),
        "normal_negative_std": lambda: torch.empty(3).normal_(0, -1),
    }.items():
        try:
            thunk()
        except RuntimeError as e:
            errors[key] = str(e).split("\n")[0]
    return {
        "default_seed": never.initial_seed(),
        "never_seeded_rand": torch.rand(5, generator=torch.Generator()).tolist(),
        "cases": cases,
        "errors": errors,
    }
