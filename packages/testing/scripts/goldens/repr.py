"""Goldens for tensor printing: `repr(tensor)` from real PyTorch.

Each case records what `formatTensor` is given (shape, dtype, flat logical values, device,
requires_grad / grad_fn, default dtype, print options) and the exact `repr` PyTorch prints.
int64 values beyond 2**53 travel as decimal strings, since JSON numbers would round them.
"""
import torch

NAMES = {
    torch.float32: "float32",
    torch.float64: "float64",
    torch.float16: "float16",
    torch.bfloat16: "bfloat16",
    torch.int8: "int8",
    torch.uint8: "uint8",
    torch.int16: "int16",
    torch.int32: "int32",
    torch.int64: "int64",
    torch.bool: "bool",
}

SAFE = 2**53


def _values(t):
    if t.device.type == "meta":
        return []
    flat = t.detach().reshape(-1)
    if t.dtype in (torch.float16, torch.bfloat16):
        flat = flat.float()
    vals = flat.tolist()
    if t.dtype == torch.int64:
        vals = [str(v) if abs(v) > SAFE else v for v in vals]
    return vals


def _case(cases, name, t, options=None, default_dtype=None):
    if options:
        torch.set_printoptions(**options)
    if default_dtype is not None:
        torch.set_default_dtype(default_dtype)
    try:
        text = repr(t)
    finally:
        torch.set_printoptions(profile="default")
        torch.set_default_dtype(torch.float32)
    case = {
        "name": name,
        "shape": list(t.shape),
        "dtype": NAMES[t.dtype],
        "values": _values(t),
        "repr": text,
    }
    if t.device.type != "cpu":
        case["device"] = str(t.device)
    if t.grad_fn is not None:
        case["grad_fn"] = type(t.grad_fn).__name__
    elif t.requires_grad:
        case["requires_grad"] = True
    if default_dtype is not None:
        case["default_dtype"] = NAMES[default_dtype]
    if options:
        case["options"] = options
    cases.append(case)


def _integers(add):
    add("arange10", torch.arange(10))
    add("negative_ints", torch.tensor([-5, 3, 100, -1000]))
    add("int64_big", torch.tensor([2**62, -(2**63), 1]))
    add("int64_max_scalar", torch.tensor(2**63 - 1))
    add("int64_past_2_53", torch.tensor([2**53 + 1, -(2**53) - 3, 7]))
    add("int64_wide_number", torch.tensor([123456789012, 1]))
    add("int8", torch.tensor([-128, 0, 127], dtype=torch.int8))
    add("uint8", torch.tensor([0, 255, 7], dtype=torch.uint8))
    add("int16_2d", torch.tensor([[-300, 2], [15, 32767]], dtype=torch.int16))
    add("int32_2d", torch.arange(6, dtype=torch.int32).reshape(2, 3))
    add("int32_scalar", torch.tensor(-42, dtype=torch.int32))
    add("int64_scalar", torch.tensor(7))
    add("randint_2d", torch.randint(-100, 100, (4, 5)))
    add("ints_wrap", torch.arange(50) * 37 - 900)
    add("int3d", torch.arange(12).reshape(2, 3, 2))


def _floats(add):
    add("randn5", torch.randn(5))
    add("randn_3x4", torch.randn(3, 4))
    add("randn_2x3x4", torch.randn(2, 3, 4))
    add("randn_2x2x2x3", torch.randn(2, 2, 2, 3))
    add("randn_4d_unit_dims", torch.randn(1, 2, 1, 3))
    add("randn_1x1", torch.randn(1, 1))
    add("randn_3x1", torch.randn(3, 1))
    add("float64", torch.randn(4, dtype=torch.float64))
    add("float64_2d", torch.randn(2, 3, dtype=torch.float64) * 100)
    add("float16", torch.randn(6).half())
    add("bfloat16", torch.randn(6).bfloat16())
    add("float16_sci", torch.tensor([1e-5, 1.0, 300.0], dtype=torch.float16))
    add("float16_max", torch.tensor([65504.0, -1.0], dtype=torch.float16))
    add("float16_subnormal", torch.tensor([6e-8, 0.5], dtype=torch.float16))
    add("bfloat16_big", torch.tensor([1e30, 3.14159], dtype=torch.bfloat16))
    add("bfloat16_ints", torch.tensor([[1.0, 2.0], [256.0, -8.0]], dtype=torch.bfloat16))
    add("integral_floats", torch.tensor([1.0, 2.0, 3.0]))
    add("integral_floats_neg", torch.tensor([-1.0, 0.0, 100.0]))
    add("integral_1e8", torch.tensor([1e8, 1.0]))
    add("integral_above_1e8", torch.tensor([2e8, 1.0]))
    add("integral_ratio_sci", torch.tensor([1.0, 1e5]))
    add("integral_ratio_edge", torch.tensor([1.0, 1000.0]))
    add("mixed_magnitudes", torch.tensor([1e-5, 1.0, 1e3]))
    add("ratio_over_1000", torch.tensor([0.1, 1000.5]))
    add("big_floats", torch.tensor([1e20, 1.5]))
    add("float32_max", torch.tensor([3e38, -1.25]))
    add("tiny", torch.tensor([1e-10, 2e-10]))
    add("subnormal_f32", torch.tensor([1e-40, 1e-45]))
    add("float64_extremes", torch.tensor([1e300, 1e-300], dtype=torch.float64))
    add("float64_max", torch.tensor([1.7976931348623157e308, 1.0], dtype=torch.float64))
    add("ties_fixed", torch.tensor([0.03125, 1.03125]))
    add("ties_sci", torch.tensor([1.03125, 1e-5]))
    add("round_up_carry", torch.tensor([9.99995, 0.5], dtype=torch.float64))
    add("sci_carry", torch.tensor([9.99996e-5, 1.0], dtype=torch.float64))
    add("uniform_3x3", torch.rand(3, 3) * 10 - 5)
    add("negatives_2d", -torch.rand(2, 4))


def _special(add):
    nan, inf = float("nan"), float("inf")
    add("nan_and_value", torch.tensor([nan, 1.5]))
    add("inf_ninf_nan", torch.tensor([inf, -inf, nan]))
    add("int_mode_inf", torch.tensor([1.0, inf]))
    add("zero_and_nan", torch.tensor([0.0, nan]))
    add("all_nan", torch.tensor([nan, nan]))
    add("nan_sci", torch.tensor([nan, 1e-5, -inf]))
    add("nan_2d", torch.tensor([[1.25, nan], [-inf, 3.5]]))
    add("neg_zero", torch.tensor([-0.0, 0.0, 1.5]))
    add("neg_zero_int_mode", torch.tensor([-0.0, 2.0]))
    add("neg_zero_only", torch.tensor([-0.0, 0.0]))
    add("zeros_2d", torch.zeros(2, 3))
    add("neg_sci", torch.tensor([-1e-5, 0.5]))


def _scalars(add):
    add("scalar_float", torch.tensor(3.0))
    add("scalar_neg_frac", torch.tensor(-2.5))
    add("scalar_tiny", torch.tensor(1e-7))
    add("scalar_nan", torch.tensor(float("nan")))
    add("scalar_neg_inf", torch.tensor(float("-inf")))
    add("scalar_neg_zero", torch.tensor(-0.0))
    add("scalar_bool", torch.tensor(True))
    add("scalar_float64", torch.tensor(0.1, dtype=torch.float64))
    add("scalar_float16", torch.tensor(3.0, dtype=torch.float16))
    add("scalar_requires_grad", torch.tensor(1.5, requires_grad=True))


def _empty(add):
    add("empty_float", torch.tensor([]))
    add("empty_0x3", torch.empty(0, 3))
    add("empty_int64", torch.empty(0, dtype=torch.int64))
    add("empty_int32_3d", torch.empty(2, 0, 3, dtype=torch.int32))
    add("empty_bool", torch.empty(0, 2, dtype=torch.bool))
    add("empty_float64", torch.empty(0, dtype=torch.float64))
    add("empty_requires_grad", torch.empty(0, 4, requires_grad=True))


def _layout(add):
    add("wrap_randn30", torch.randn(30))
    add("wrap_arange_float", torch.arange(100).float() * 1.5)
    add("wrap_float64", torch.randn(20, dtype=torch.float64))
    add("wrap_bool", torch.randn(40) > 0)
    add("wrap_2d_rows", torch.randn(3, 15))
    add("wrap_3d_rows", torch.randn(2, 2, 14))
    add("randn_4d", torch.randn(2, 3, 2, 2))
    add("bool_pair", torch.tensor([True, False]))
    add("bool_2d", torch.tensor([[True, True], [False, True]]))
    add("bool_all_true", torch.ones(3, dtype=torch.bool))


def _summarised(add):
    add("sum_arange2000", torch.arange(2000))
    add("sum_100x100", torch.arange(10000).reshape(100, 100))
    add("sum_3x500", torch.randn(3, 500))
    add("sum_20x20x20", torch.randn(20, 20, 20))
    add("sum_arange1001_float", torch.arange(1001).float())
    add("sum_4d", torch.randn(7, 7, 7, 7))
    add("sum_2x1000", torch.randn(2, 1000))
    add("sum_bool", torch.rand(2000) > 0.5)
    add("sum_float64", torch.randn(40, 30, dtype=torch.float64))
    add("sum_int32", torch.arange(3000, dtype=torch.int32).reshape(3, 1000))
    add("sum_float16", torch.randn(35, 30).half())
    add("sum_hidden_magnitudes", torch.cat([torch.ones(3), torch.full((1000,), 1e6), torch.ones(3)]))
    add("sum_requires_grad", torch.randn(1001, requires_grad=True))


def _autograd(add):
    add("requires_grad_1d", torch.randn(3, requires_grad=True))
    add("requires_grad_f64", torch.randn(3, dtype=torch.float64, requires_grad=True))
    add("requires_grad_2d", torch.randn(2, 3, requires_grad=True))
    add("suffix_wrap", torch.randn(7, dtype=torch.float64, requires_grad=True))
    add("suffix_wrap_long", torch.randn(8, dtype=torch.float64, requires_grad=True) * 100)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    add("grad_fn_mul", x * 2)
    add("grad_fn_sum", (x + 1).sum())
    w = torch.randn(2, 3, dtype=torch.float16).float().requires_grad_()
    add("grad_fn_2d_f64", (w * 3).double())


def _devices_and_defaults(add):
    add("meta_2x3", torch.empty(2, 3, device="meta"))
    add("meta_int64", torch.empty(5, device="meta", dtype=torch.int64))
    add("meta_scalar", torch.empty((), device="meta"))
    add("meta_float64_grad", torch.empty(4, 1, device="meta", dtype=torch.float64, requires_grad=True))
    f64 = torch.float64
    add("default_f64_float64", torch.tensor([1.5, -2.25], dtype=torch.float64), default_dtype=f64)
    add("default_f64_float32", torch.tensor([1.5, -2.25], dtype=torch.float32), default_dtype=f64)
    add("default_f64_empty_f32", torch.empty(0, dtype=torch.float32), default_dtype=f64)
    add("default_f64_empty_f64", torch.empty(0, dtype=torch.float64), default_dtype=f64)
    add("default_f64_meta_f32", torch.empty(2, device="meta", dtype=torch.float32), default_dtype=f64)
    add("default_f64_int", torch.tensor([1, 2]), default_dtype=f64)


def _random_scales(add):
    # Log-uniform magnitudes across many decades stress rounding in both notations.
    for i in range(12):
        exponents = torch.empty(24).uniform_(-12, 12) if i % 2 else torch.empty(24).uniform_(-3, 5)
        signs = torch.randint(0, 2, (24,)) * 2 - 1
        t = signs * torch.pow(10.0, exponents)
        dtype = (torch.float32, torch.float64, torch.float16, torch.bfloat16)[i % 4]
        if dtype is torch.float16:
            t = t.clamp(-60000, 60000)
        add(f"random_scale_{i}", t.to(dtype).reshape(4, 6))


def _options(add):
    add("opt_precision2", torch.randn(5), options={"precision": 2})
    add("opt_precision1_ties", torch.tensor([0.25, 0.75, 1.5]), options={"precision": 1})
    add("opt_precision0", torch.tensor([0.5, 1.5, 2.25]), options={"precision": 0})
    add("opt_precision0_sci", torch.tensor([0.5, 1.5e6]), options={"precision": 0})
    add("opt_precision10", torch.randn(3, dtype=torch.float64), options={"precision": 10})
    add("opt_sci_true", torch.randn(4), options={"sci_mode": True})
    add("opt_sci_true_ints", torch.tensor([1.0, 2.0]), options={"sci_mode": True})
    add("opt_sci_true_zeros", torch.tensor([0.0, 0.0]), options={"sci_mode": True})
    add("opt_sci_false", torch.tensor([-1e-5, 1.0]), options={"sci_mode": False})
    add("opt_sci_false_big", torch.tensor([1e-5, 1e20]), options={"sci_mode": False})
    add("opt_sci_false_ints", torch.tensor([1e5, 1e20]), options={"sci_mode": False})
    add("opt_threshold5", torch.arange(10), options={"threshold": 5})
    add("opt_edgeitems1", torch.randn(5, 5), options={"threshold": 10, "edgeitems": 1})
    add("opt_edgeitems5", torch.arange(3000), options={"edgeitems": 5})
    add("opt_linewidth40", torch.randn(20), options={"linewidth": 40})
    add("opt_linewidth20_sum", torch.arange(2000), options={"linewidth": 20})
    add("opt_linewidth5", torch.randn(3), options={"linewidth": 5})
    add("opt_linewidth_suffix", torch.randn(3, dtype=torch.float64, requires_grad=True), options={"linewidth": 30})
    add("opt_profile_short", torch.randn(10, 10), options={"profile": "short"})
    add("opt_profile_full", torch.arange(1500), options={"profile": "full"})
    add("opt_profile_full_override", torch.randn(3), options={"profile": "full", "precision": 6})


def make():
    torch.manual_seed(0)
    cases = []

    def add(name, t, options=None, default_dtype=None):
        _case(cases, name, t, options=options, default_dtype=default_dtype)

    for group in (_integers, _floats, _special, _scalars, _empty, _layout, _summarised,
                  _autograd, _devices_and_defaults, _random_scales, _options):
        group(add)
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    return {"cases": cases}
