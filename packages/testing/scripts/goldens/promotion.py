"""Goldens for dtype promotion and 16-bit float conversions (goldens/promotion.json).

Sections:
  promote_types  [a, b, torch.promote_types(a, b)] for all 100 pairs
  can_cast       [from, to, torch.can_cast(from, to)] for all 100 pairs
  result_type    one string per case, "<default dtype>: <operand> <operand> ... -> <result>",
                 an operand being a tensor "int8[2,3]" / "float64[]" or a Python scalar
                 "int:3", "float:2.5", "float:nan", "bool:true" (one line each keeps the
                 file small)
  conversions    {"f64_to_f16": [[value, bits], ...], ...}: the value is the source element
                 (exact as a double), bits the unsigned 16-bit pattern of the cast result.

Float scalars are never integer-valued: in JS an integer-valued number is an int scalar,
so 2.0 would mean something else there.
"""
import math
import random
import struct

import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from _dtypes import DTYPES, NAME  # noqa: E402
SCALARS = [3, -5, 0, 2.5, -0.5, float("nan"), float("inf"), True, False]


def _tensor(name, shape):
    return torch.zeros(shape, dtype=DTYPES[name])


def _operand(x):
    if isinstance(x, torch.Tensor):
        return f"{NAME[x.dtype]}[{','.join(str(n) for n in x.shape)}]"
    if isinstance(x, bool):
        return f"bool:{str(x).lower()}"
    if isinstance(x, int):
        return f"int:{x}"
    assert not float(x).is_integer(), "an integer-valued float would be an int in JS"
    return f"float:{x!r}"


def _result_types():
    cases = []

    def add(default, *xs):
        torch.set_default_dtype(DTYPES[default])
        try:
            if len(xs) == 2:
                r = torch.result_type(xs[0], xs[1])
            else:
                # torch.result_type takes two arguments; a ternary TensorIterator op
                # promotes all its inputs the same way. On the meta device only the
                # dtype logic runs (the CPU kernel lacks float16).
                r = torch.addcmul(*(x.to("meta") for x in xs)).dtype
        finally:
            torch.set_default_dtype(torch.float32)
        cases.append(f"{default}: {' '.join(_operand(x) for x in xs)} -> {NAME[r]}")

    names = list(DTYPES)
    for a in names:
        for b in names:
            add("float32", _tensor(a, [2, 3]), _tensor(b, [3]))
            add("float32", _tensor(a, [2, 3]), _tensor(b, []))
            add("float32", _tensor(a, []), _tensor(b, [2, 3]))
            add("float32", _tensor(a, []), _tensor(b, []))
            add("float32", _tensor(a, [0]), _tensor(b, []))
    for default in ["float32", "float64", "float16", "bfloat16"]:
        for a in names:
            for shape in ([4], []):
                for value in SCALARS:
                    add(default, _tensor(a, shape), value)
                    add(default, value, _tensor(a, shape))
        for v1 in SCALARS:
            for v2 in SCALARS:
                add(default, v1, v2)
    # Three operands: every mix of priority classes over a few dtypes.
    few = ["float64", "float32", "float16", "bfloat16", "int64", "int8", "uint8"]
    for a in few:
        for b in few:
            for c in few:
                for sa, sb, sc in ([[2], [], []], [[], [2], []], [[], [], [2]], [[], [], []], [[2], [2], []]):
                    add("float32", _tensor(a, sa), _tensor(b, sb), _tensor(c, sc))
    return cases


def _f16_grid(e_lo, e_hi, mants):
    """Values around float16 ties: exact ties, and ties nudged by less than a float32 ulp."""
    out = []
    for e in range(e_lo, e_hi):
        for m in mants:
            tie = (1024 + m + 0.5) * 2.0 ** (e - 25)
            for nudge in (0.0, 2.0 ** -30, -(2.0 ** -30), 2.0 ** -20, -(2.0 ** -20)):
                out.append(tie * (1 + nudge))
    return out


def _bf16_grid(exps, mants):
    out = []
    for e in exps:
        for m in mants:
            tie = (128 + m + 0.5) * 2.0 ** (e - 134)
            for nudge in (0.0, 2.0 ** -30, -(2.0 ** -30), 2.0 ** -12, -(2.0 ** -12)):
                out.append(tie * (1 + nudge))
    return out


def _f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _values():
    special = [
        0.0, -0.0, 1.0, -1.0, float("inf"), float("-inf"), float("nan"),
        # float16 range edges
        65504.0, 65519.99, 65520.0, 65536.0, 1e10, -65520.0, 1e300, -1e300,
        2.0 ** -14, 2.0 ** -24, 2.0 ** -25, -(2.0 ** -25), 2.0 ** -25 * (1 + 2.0 ** -30),
        2.0 ** -25 * (1 + 2.0 ** -20), 2.0 ** -26, 1.5 * 2.0 ** -24, 2.5 * 2.0 ** -24,
        3.5 * 2.0 ** -24, 1023.5 * 2.0 ** -24, 1023.25 * 2.0 ** -24, 1e-8, 1e-5, 6e-8,
        5e-324, -5e-324, 1e-310,
        # bfloat16 / float32 range edges
        _f32(0x7F7FFFFF), _f32(0x7F7F7FFF), _f32(0x7F7F8000), 3.3895314e38, 3.4e38,
        _f32(0x00000001), _f32(0x00008000), _f32(0x00018000), _f32(0x007FFFFF), _f32(0x00800000),
        1e-40, -1e-40, 1e-45,
        math.pi, math.e, 0.1, 1 / 3, -2 / 3,
    ]
    values = special
    values += _f16_grid(14, 17, [0, 1, 2, 1022])          # around 1.0
    values += [-v for v in _f16_grid(15, 16, [0, 1])]
    values += _f16_grid(1, 2, [0, 1])                     # smallest normals
    values += _f16_grid(29, 31, [1022])                   # near the top
    values += [(m + 0.5) * 2.0 ** -24 * (1 + n) for m in (0, 1, 2, 3, 510, 1022, 1023)
               for n in (0.0, 2.0 ** -30, -(2.0 ** -30))]  # subnormal ties
    values += _bf16_grid([127, 128, 1, 254], [0, 1, 126, 127])
    rng = random.Random(1234)
    values += [rng.uniform(-1, 1) * 2.0 ** rng.randint(-30, 20) for _ in range(40)]
    return values


def _bits(t):
    return [b & 0xFFFF for b in t.view(torch.int16).tolist()]


def _conversions():
    values = _values()
    src64 = torch.tensor(values, dtype=torch.float64)
    src32 = src64.to(torch.float32)
    out = {
        "f64_to_f16": list(zip(src64.tolist(), _bits(src64.to(torch.float16)))),
        "f64_to_bf16": list(zip(src64.tolist(), _bits(src64.to(torch.bfloat16)))),
        "f32_to_f16": list(zip(src32.double().tolist(), _bits(src32.to(torch.float16)))),
        "f32_to_bf16": list(zip(src32.double().tolist(), _bits(src32.to(torch.bfloat16)))),
    }
    # Writing Python floats straight into a 16-bit tensor must agree with the float64 cast
    # (NaN aside: its bit pattern depends on the kernel, see Note [NaN bit patterns]).
    for key, dt in (("f64_to_f16", torch.float16), ("f64_to_bf16", torch.bfloat16)):
        direct = _bits(torch.tensor(values, dtype=dt))
        for (v, b), d in zip(out[key], direct):
            assert math.isnan(v) or b == d, (key, v, b, d)
    return out


def make():
    names = list(DTYPES)
    return {
        "dtypes": names,
        "promote_types": [[a, b, NAME[torch.promote_types(DTYPES[a], DTYPES[b])]] for a in names for b in names],
        "can_cast": [[a, b, torch.can_cast(DTYPES[a], DTYPES[b])] for a in names for b in names],
        "result_type": _result_types(),
        "conversions": _conversions(),
    }
