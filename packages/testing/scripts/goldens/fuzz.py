"""Seeded fuzz cases checked against PyTorch (issue 14): random view chains and random
binary ops with broadcasting and mixed dtypes. Written compact (COMPACT below: one case a
line), since there are thousands; test/fuzz.test.ts runs them all.

views: [shape, steps, expected]
  the input is `arange(numel(shape))` (int64) viewed as `shape`, then each step
  [op, ...args] is applied in turn (torch-ts method names, positional arguments);
  expected is {"s": sizes, "t": strides, "o": storage offset} when the result is a view of
  the input's storage (its values are then the storage positions, by arange), plus "v":
  the values (row-major) when a step copied (a reshape that cannot be a view), or
  {"e": [error class, PyTorch's message]}.
binary: [op, a, b, expected]
  a, b: [dtype, shape, values] tensors or ["scalar", value] Python numbers; expected is
  [dtype, shape, values] (floats to 7 significant digits) or {"e": [class, message]}.
Where PyTorch 1.13 lacks a float16 CPU kernel that 2.x has (atan2), the expected values are
computed in float32 and rounded to float16, as 2.x does.
Values are chosen exactly representable in every dtype they are made in (small integers,
quarters for floats), so the inputs are the same in PyTorch and torch-ts.
"""
import math
import random

import torch

COMPACT = True
SEED = 20240614
VIEW_CASES = 2000
BINARY_CASES = 2000

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
FLOATS = {"float16", "bfloat16", "float32", "float64"}


def err(e):
    return {"e": [type(e).__name__, str(e).split("\n")[0]]}


# ---- views ----------------------------------------------------------------------------

def rand_shape(r, max_dims=4, max_numel=48):
    while True:
        nd = r.randint(0, max_dims)
        shape = [r.choice([1, 1, 2, 2, 3, 4, 5]) for _ in range(nd)]
        if math.prod(shape) <= max_numel:
            return shape


def rdim(r, nd, extra=0):
    """A dim in range (sometimes negative), rarely out of range."""
    n = max(nd + extra, 1)
    if r.random() < 0.04:
        return r.choice([n, -n - 1])
    d = r.randrange(n)
    return d - n if r.random() < 0.3 else d


def view_step(r, t, storage_numel):
    shape = list(t.shape)
    nd = len(shape)
    numel = t.numel()
    ops = ["view", "reshape", "permute", "transpose", "expand", "unsqueeze", "squeeze", "flatten", "asStrided"]
    if nd > 0 or r.random() < 0.05:
        ops += ["narrow", "select", "unfold"]
    if nd > 1 or r.random() < 0.05:
        ops += ["diagonal"]
    op = r.choice(ops)
    if op in ("view", "reshape"):
        sizes = factor(r, numel)
        if sizes and r.random() < 0.3:
            sizes[r.randrange(len(sizes))] = -1
        if r.random() < 0.05:
            sizes = sizes + [2]
        return [op, sizes]
    if op == "permute":
        dims = list(range(nd))
        r.shuffle(dims)
        dims = [d - nd if r.random() < 0.2 else d for d in dims]
        if nd and r.random() < 0.04:
            dims[0] = dims[-1]
        return [op, dims]
    if op == "transpose":
        return [op, rdim(r, nd), rdim(r, nd)]
    if op == "narrow":
        if nd == 0:
            return [op, 0, 0, 1]
        d = rdim(r, nd)
        size = shape[d] if -nd <= d < nd else 1
        start = r.randint(0, size)
        return [op, d, start, r.randint(0, size - start + (1 if r.random() < 0.05 else 0))]
    if op == "select":
        if nd == 0:
            return [op, 0, 0]
        d = rdim(r, nd)
        size = shape[d] if -nd <= d < nd else 1
        return [op, d, r.randint(-size, size - 1 + (1 if r.random() < 0.05 else 0)) if size > 0 else 0]
    if op == "expand":
        lead = [r.choice([1, 2, 3]) for _ in range(r.randint(0, 2 if nd < 4 else 0))]
        rest = [(r.choice([2, 3, -1]) if s == 1 else r.choice([s, s, -1, s + (1 if r.random() < 0.1 else 0)])) for s in shape]
        return [op, lead + rest]
    if op == "unsqueeze":
        return [op, rdim(r, nd, 1)]
    if op == "squeeze":
        return [op] if r.random() < 0.3 or nd == 0 else [op, rdim(r, nd)]
    if op == "flatten":
        a, b = rdim(r, nd), rdim(r, nd)
        return [op, a, b]
    if op == "unfold":
        if nd == 0:
            return [op, 0, 1, 1]
        d = rdim(r, nd)
        size = shape[d] if -nd <= d < nd else 1
        return [op, d, r.randint(0, size + (1 if r.random() < 0.05 else 0)), r.randint(1, 3)]
    if op == "diagonal":
        a = rdim(r, nd)
        b = rdim(r, nd)
        if nd > 1 and (a - b) % nd == 0 and r.random() < 0.9:
            b = (a + r.randint(1, nd - 1)) % nd
        return [op, r.randint(-2, 2), a, b]
    # asStrided: a window inside the base storage (rarely one past it)
    nd2 = r.randint(0, 3)
    sizes = [r.randint(0, 4) for _ in range(nd2)]
    strides = [r.randint(0, 5) for _ in range(nd2)]
    extent = sum((s - 1) * st for s, st in zip(sizes, strides)) if all(sizes) else 0
    room = storage_numel - 1 - extent
    if room < 0 and r.random() < 0.9:
        return ["asStrided", [1], [1], 0]
    offset = r.randint(0, max(room, 0) + (1 if r.random() < 0.05 else 0))
    return [op, sizes, strides, offset]


def factor(r, n):
    """A random shape with `n` elements."""
    out = []
    while n > 1 and len(out) < 3:
        ds = [d for d in range(2, n + 1) if n % d == 0]
        d = r.choice(ds)
        out.append(d)
        n //= d
    if n > 1:
        out.append(n)
    if r.random() < 0.2:
        out.insert(r.randint(0, len(out)), 1)
    return out


def apply_view(t, step):
    op, *a = step
    if op == "view":
        return t.view(a[0])
    if op == "reshape":
        return t.reshape(a[0])
    if op == "permute":
        return t.permute(a[0])
    if op == "transpose":
        return t.transpose(a[0], a[1])
    if op == "narrow":
        return t.narrow(a[0], a[1], a[2])
    if op == "select":
        return t.select(a[0], a[1])
    if op == "expand":
        return t.expand(a[0])
    if op == "unsqueeze":
        return t.unsqueeze(a[0])
    if op == "squeeze":
        return t.squeeze(*a)
    if op == "flatten":
        return t.flatten(a[0], a[1])
    if op == "unfold":
        return t.unfold(a[0], a[1], a[2])
    if op == "diagonal":
        return t.diagonal(a[0], a[1], a[2])
    if op == "asStrided":
        return t.as_strided(a[0], a[1], a[2])
    raise ValueError(op)


def view_cases(r):
    out = []
    for _ in range(VIEW_CASES):
        shape = rand_shape(r)
        numel = math.prod(shape)
        base = torch.arange(numel, dtype=torch.int64).view(shape)
        t = base
        steps = []
        expected = None
        for _ in range(r.randint(1, 5)):
            step = view_step(r, t, numel)
            steps.append(step)
            try:
                t = apply_view(t, step)
            except (RuntimeError, IndexError, ValueError, TypeError) as e:
                expected = err(e)
                break
        if expected is None:
            expected = {"s": list(t.shape), "t": list(t.stride()), "o": t.storage_offset()}
            if t.storage().data_ptr() != base.storage().data_ptr():
                expected["v"] = t.reshape(-1).tolist()
        out.append([shape, steps, expected])
    return out


# ---- binary ops -----------------------------------------------------------------------

BINARY = {
    "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div, "maximum": torch.maximum,
    "minimum": torch.minimum, "eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "ge": torch.ge,
    "remainder": torch.remainder, "floorDivide": torch.floor_divide, "bitwiseAnd": torch.bitwise_and,
    "bitwiseOr": torch.bitwise_or, "logicalXor": torch.logical_xor, "atan2": torch.atan2, "fmod": torch.fmod,
    "pow": torch.pow,
}
NO_SCALAR = {"maximum", "minimum", "atan2", "logicalXor"}  # tensor-only in PyTorch


def rand_values(r, dtype, n):
    if dtype == "bool":
        return [r.random() < 0.5 for _ in range(n)]
    if dtype == "uint8":
        return [r.randint(0, 12) for _ in range(n)]
    if dtype in FLOATS:
        return [r.randint(-24, 24) / 4 for _ in range(n)]
    return [r.randint(-12, 12) for _ in range(n)]


def broadcast_pair(r):
    out = rand_shape(r, 3, 24)
    a = [s if r.random() < 0.6 else 1 for s in out]
    b = [s if r.random() < 0.6 else 1 for s in out]
    a = a[r.randint(0, len(a)):] if r.random() < 0.3 else a
    b = b[r.randint(0, len(b)):] if r.random() < 0.3 else b
    if r.random() < 0.05 and b:
        b[r.randrange(len(b))] += 1  # usually not broadcastable
    return a, b


def operand(r, dtype, shape):
    n = math.prod(shape)
    return [dtype, shape, rand_values(r, dtype, n)]


def to_torch(x):
    if x[0] == "scalar":
        return x[1]
    return torch.tensor(x[2], dtype=getattr(torch, x[0])).reshape(x[1])


def result_values(t):
    vals = t.reshape(-1).tolist()
    if t.dtype.is_floating_point:
        return [v if (math.isnan(v) or math.isinf(v)) else float("%.7g" % v) for v in vals]
    return vals


UPCAST_HALF = {"atan2"}


def binary(op, a, b):
    try:
        return BINARY[op](a, b)
    except RuntimeError as e:
        # PyTorch 2.x has the float16 kernels 1.13 lacks (atan2): computed in float32 and
        # rounded to the result dtype, as 2.x's opmath does.
        if op not in UPCAST_HALF or "not implemented for 'Half'" not in str(e):
            raise
        up = lambda x: x.float() if isinstance(x, torch.Tensor) and x.dtype == torch.float16 else x
        return BINARY[op](up(a), up(b)).to(torch.result_type(a, b))


def binary_cases(r):
    out = []
    for _ in range(BINARY_CASES):
        op = r.choice(sorted(BINARY))
        sa, sb = broadcast_pair(r)
        a = operand(r, r.choice(DTYPES), sa)
        if op not in NO_SCALAR and r.random() < 0.15:
            # (a float scalar is never integral: JSON's 2.0 would read back in JS as the integer 2)
            b = ["scalar", r.choice([True, r.randint(-3, 3), (2 * r.randint(-6, 5) + 1) / 4])]
        else:
            b = operand(r, r.choice(DTYPES), sb)
        try:
            res = binary(op, to_torch(a), to_torch(b))
            expected = [str(res.dtype).replace("torch.", ""), list(res.shape), result_values(res)]
        except (RuntimeError, IndexError, ValueError, TypeError, ZeroDivisionError) as e:
            expected = err(e)
        out.append([op, a, b, expected])
    return out


def make():
    r = random.Random(SEED)
    return {"seed": SEED, "views": view_cases(r), "binary": binary_cases(r)}
