"""Goldens for the spatial ops of the OpInfo table (goldens/ops_spatial.json).

conv1d conv2d convTranspose2d (stride, padding incl. 'same'/'valid', dilation, groups,
output_padding, bias or none, unbatched inputs), maxPool2d (with and without indices),
avgPool2d, adaptiveAvgPool2d, interpolate (nearest, linear, bilinear, align_corners, size or
scale_factor), pad (constant with crops, reflect, replicate, circular) and unfold / fold
(im2col / col2im: kernel, dilation, padding, stride, unbatched, empty batch), plus inputs
PyTorch rejects. Half (and the BFloat16 kernels 1.13 lacks) are computed on float32 copies,
as 2.x computes them ("reference": "upcast"); BFloat16 results that 1.13 rounds between
partial sums and 2.x does not are "upcast" too (`float_acc`). The case format is described
in _ops_common.py.
"""
import pathlib
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import _ops_common  # noqa: E402
from _ops_common import ALL, FLOATS, T, Recorder, fill, gen_for  # noqa: E402

# torch-ts option names -> PyTorch keyword names
_ops_common.PY_KWARGS.update({
    "stride": "stride",
    "padding": "padding",
    "dilation": "dilation",
    "groups": "groups",
    "outputPadding": "output_padding",
    "kernelSize": "kernel_size",
    "ceilMode": "ceil_mode",
    "countIncludePad": "count_include_pad",
    "divisorOverride": "divisor_override",
    "outputSize": "output_size",
    "size": "size",
    "scaleFactor": "scale_factor",
    "mode": "mode",
    "alignCorners": "align_corners",
    "pad": "pad",
})


def _bias(a):
    return a[2] if len(a) > 2 else None


FNS = {
    "conv1d": lambda a, k: F.conv1d(a[0], a[1], _bias(a), **k),
    "conv2d": lambda a, k: F.conv2d(a[0], a[1], _bias(a), **k),
    "convTranspose2d": lambda a, k: F.conv_transpose2d(a[0], a[1], _bias(a), **k),
    "maxPool2d": lambda a, k: F.max_pool2d(a[0], **k),
    "maxPool2d.indices": lambda a, k: F.max_pool2d(a[0], return_indices=True, **k),
    "avgPool2d": lambda a, k: F.avg_pool2d(a[0], **k),
    "adaptiveAvgPool2d": lambda a, k: F.adaptive_avg_pool2d(a[0], **k),
    "interpolate": lambda a, k: F.interpolate(a[0], **k),
    "pad": lambda a, k: F.pad(a[0], **k),
    "im2col": lambda a, k: F.unfold(a[0], **k),
    "col2im": lambda a, k: F.fold(a[0], **k),
}

# sample -> (shapes of the tensor inputs, kwargs)
CONV2D = [
    ("basic", [[2, 3, 5, 5], [4, 3, 3, 3], [4]], {}),
    ("stride-pad", [[1, 2, 6, 5], [3, 2, 3, 2]], {"stride": 2, "padding": 1}),
    ("stride-tuple", [[1, 2, 6, 7], [2, 2, 2, 3], [2]], {"stride": [2, 1], "padding": [0, 1]}),
    ("dilation", [[1, 2, 7, 7], [2, 2, 3, 3], [2]], {"dilation": 2, "padding": [1, 2]}),
    ("groups", [[2, 4, 5, 5], [6, 2, 3, 3], [6]], {"groups": 2, "padding": 1}),
    ("depthwise", [[1, 3, 5, 5], [3, 1, 3, 3]], {"groups": 3}),
    ("same-even", [[1, 2, 5, 6], [3, 2, 4, 3]], {"padding": "same"}),
    ("same-dilation", [[1, 1, 6, 6], [2, 1, 3, 3], [2]], {"padding": "same", "dilation": 2}),
    ("valid", [[1, 2, 4, 5], [2, 2, 3, 3]], {"padding": "valid"}),
    ("pointwise", [[2, 3, 4, 4], [5, 3, 1, 1], [5]], {}),
    ("pointwise-stride", [[1, 3, 5, 5], [2, 3, 1, 1]], {"stride": 2}),
    ("unbatched", [[3, 5, 5], [2, 3, 3, 3], [2]], {"padding": 1}),
    ("empty-batch", [[0, 3, 5, 5], [4, 3, 3, 3], [4]], {}),
    ("err-channels", [[1, 2, 5, 5], [4, 3, 3, 3]], {}),
    ("err-kernel-too-big", [[1, 3, 2, 2], [4, 3, 3, 3]], {}),
    ("err-groups", [[1, 4, 5, 5], [3, 2, 3, 3]], {"groups": 2}),
    ("err-bias-size", [[1, 3, 5, 5], [4, 3, 3, 3], [3]], {}),
    ("err-same-strided", [[1, 3, 5, 5], [4, 3, 3, 3]], {"padding": "same", "stride": 2}),
    ("err-2d-input", [[3, 5], [4, 3, 3, 3]], {}),
]
CONV1D = [
    ("basic", [[2, 3, 7], [4, 3, 3], [4]], {}),
    ("stride-pad-dilation", [[1, 2, 9], [3, 2, 3]], {"stride": 2, "padding": 2, "dilation": 2}),
    ("groups", [[2, 4, 6], [4, 2, 2], [4]], {"groups": 2}),
    ("same-even", [[1, 2, 6], [2, 2, 4]], {"padding": "same"}),
    ("valid", [[1, 2, 6], [2, 2, 3], [2]], {"padding": "valid"}),
    ("unbatched", [[3, 7], [2, 3, 3], [2]], {"padding": 1}),
    ("err-channels", [[1, 2, 7], [4, 3, 3]], {}),
]
CONV_T = [
    ("basic", [[2, 3, 4, 4], [3, 2, 3, 3], [2]], {}),
    ("stride-outpad", [[1, 2, 3, 4], [2, 3, 3, 3], [3]], {"stride": 2, "padding": 1, "outputPadding": 1}),
    ("stride-tuple", [[1, 2, 3, 3], [2, 2, 2, 3]], {"stride": [2, 1], "padding": [0, 1]}),
    ("groups", [[1, 4, 3, 3], [4, 3, 3, 3], [6]], {"groups": 2}),
    ("dilation", [[1, 2, 3, 3], [2, 2, 2, 2]], {"dilation": 2}),
    ("pointwise", [[2, 3, 3, 3], [3, 4, 1, 1], [4]], {}),
    ("unbatched", [[2, 3, 3], [2, 3, 3, 3], [3]], {"stride": 2}),
    ("err-outpad", [[1, 2, 3, 3], [2, 3, 3, 3]], {"outputPadding": 1}),
    ("err-channels", [[1, 3, 3, 3], [2, 3, 3, 3]], {}),
]
MAXPOOL = [
    ("basic", [[2, 3, 6, 6]], {"kernelSize": 2}),
    ("k3-s2-p1", [[1, 2, 7, 6]], {"kernelSize": 3, "stride": 2, "padding": 1}),
    ("dilation", [[1, 2, 7, 7]], {"kernelSize": 2, "stride": 1, "dilation": 2}),
    ("ceil", [[1, 2, 5, 5]], {"kernelSize": 2, "ceilMode": True}),
    ("rect", [[2, 5, 6]], {"kernelSize": [2, 3], "stride": [1, 2]}),
    ("nan", [[1, 1, 4, 4]], {"kernelSize": 2}),
    ("err-pad", [[1, 1, 4, 4]], {"kernelSize": 2, "padding": 2}),
    ("err-too-small", [[1, 1, 1, 1]], {"kernelSize": 2}),
    ("err-2d", [[4, 4]], {"kernelSize": 2}),
]
AVGPOOL = [
    ("basic", [[2, 3, 6, 6]], {"kernelSize": 2}),
    ("k3-s2-p1", [[1, 2, 7, 6]], {"kernelSize": 3, "stride": 2, "padding": 1}),
    ("no-count-pad", [[1, 2, 5, 5]], {"kernelSize": 3, "stride": 2, "padding": 1, "countIncludePad": False}),
    ("ceil", [[1, 2, 5, 5]], {"kernelSize": 2, "ceilMode": True}),
    ("ceil-pad", [[1, 1, 6, 5]], {"kernelSize": 3, "stride": 2, "padding": 1, "ceilMode": True, "countIncludePad": False}),
    ("divisor", [[1, 2, 4, 4]], {"kernelSize": 2, "divisorOverride": 3}),
    ("unbatched", [[2, 5, 6]], {"kernelSize": [2, 3]}),
    ("err-pad", [[1, 1, 4, 4]], {"kernelSize": 2, "padding": 2}),
]
ADAPTIVE = [
    ("down", [[2, 3, 7, 5]], {"outputSize": [3, 2]}),
    ("int", [[1, 2, 6, 6]], {"outputSize": 1}),
    ("none", [[1, 2, 5, 4]], {"outputSize": [2, None]}),
    ("up", [[1, 1, 2, 3]], {"outputSize": [3, 4]}),
    ("unbatched", [[3, 5, 5]], {"outputSize": [2, 2]}),
]
INTERP = [
    ("nearest-scale2", [[1, 2, 3, 4]], {"scaleFactor": 2.0}),
    ("nearest-size", [[2, 1, 3, 4]], {"size": [5, 7]}),
    ("nearest-scale1.5", [[1, 1, 4, 3]], {"scaleFactor": 1.5}),
    ("nearest-down", [[1, 1, 5, 6]], {"size": [2, 4]}),
    ("nearest-3d", [[2, 2, 5]], {"size": 7}),
    ("bilinear-scale2", [[1, 2, 3, 4]], {"scaleFactor": 2.0, "mode": "bilinear"}),
    ("bilinear-size", [[1, 1, 4, 3]], {"size": [5, 7], "mode": "bilinear"}),
    ("bilinear-align", [[1, 1, 4, 3]], {"size": [5, 7], "mode": "bilinear", "alignCorners": True}),
    ("bilinear-down", [[1, 2, 5, 6]], {"size": [3, 2], "mode": "bilinear"}),
    ("bilinear-scale-rect", [[1, 1, 3, 4]], {"scaleFactor": [1.5, 2.5], "mode": "bilinear"}),
    ("linear-3d", [[1, 2, 4]], {"scaleFactor": 2.5, "mode": "linear"}),
    ("linear-3d-align", [[1, 2, 4]], {"size": 7, "mode": "linear", "alignCorners": True}),
    ("err-bilinear-3d", [[1, 2, 4]], {"size": 7, "mode": "bilinear"}),
    ("err-both", [[1, 2, 4, 4]], {"size": 7, "scaleFactor": 2.0}),
    ("err-align-nearest", [[1, 2, 4, 4]], {"size": 7, "alignCorners": True}),
]
PAD = [
    ("constant-1d", [[2, 3]], {"pad": [1, 2]}),
    ("constant-2d-value", [[1, 2, 3, 3]], {"pad": [1, 1, 2, 0], "value": 2}),
    ("constant-crop", [[2, 4, 5]], {"pad": [-1, 1, 0, -2]}),
    ("constant-3dims", [[2, 2, 2]], {"pad": [1, 0, 0, 1, 1, 1]}),
    ("reflect-2d", [[1, 2, 4, 4]], {"pad": [1, 2, 2, 1], "mode": "reflect"}),
    ("reflect-1d", [[2, 2, 5]], {"pad": [2, 3], "mode": "reflect"}),
    ("reflect-3d-input", [[2, 4, 4]], {"pad": [1, 1, 3, 0], "mode": "reflect"}),
    ("replicate-2d", [[1, 2, 3, 3]], {"pad": [2, 1, 0, 3], "mode": "replicate"}),
    ("replicate-1d", [[1, 2, 4]], {"pad": [3, 1], "mode": "replicate"}),
    ("circular-2d", [[1, 2, 3, 4]], {"pad": [1, 2, 1, 0], "mode": "circular"}),
    ("circular-1d", [[1, 2, 4]], {"pad": [2, 3], "mode": "circular"}),
    ("err-reflect-too-big", [[1, 1, 3, 3]], {"pad": [3, 0, 0, 0], "mode": "reflect"}),
    ("err-odd", [[1, 1, 3, 3]], {"pad": [1, 2, 3]}),
]
# F.unfold and F.fold, filed under PyTorch's op names im2col and col2im (core's unfold is Tensor.unfold): L = blocks_h * blocks_w, fold's input (N, C * kh * kw, L)
UNFOLD = [
    ("basic", [[2, 3, 4, 5]], {"kernelSize": 2}),
    ("all-args", [[1, 2, 5, 6]], {"kernelSize": [2, 3], "dilation": [2, 1], "padding": [1, 2], "stride": [2, 1]}),
    ("stride-k", [[1, 1, 6, 6]], {"kernelSize": 3, "stride": 3}),
    ("unbatched", [[2, 4, 4]], {"kernelSize": 2, "padding": 1}),
    ("batch0", [[0, 2, 4, 4]], {"kernelSize": 2}),
    ("err-too-big", [[1, 1, 3, 3]], {"kernelSize": 4}),
    ("err-5d", [[1, 1, 1, 3, 3]], {"kernelSize": 2}),
    ("err-empty", [[1, 0, 3, 3]], {"kernelSize": 2}),
    ("err-stride0", [[1, 1, 3, 3]], {"kernelSize": 2, "stride": 0}),
    ("err-padding", [[1, 1, 3, 3]], {"kernelSize": 2, "padding": -1}),
]
FOLD = [
    ("basic", [[2, 12, 12]], {"outputSize": [4, 5], "kernelSize": 2}),
    ("all-args", [[1, 12, 24]], {"outputSize": [5, 6], "kernelSize": [2, 3], "dilation": [2, 1], "padding": [1, 2], "stride": [2, 1]}),
    ("stride-k", [[1, 9, 4]], {"outputSize": [6, 6], "kernelSize": 3, "stride": 3}),
    ("unbatched", [[8, 25]], {"outputSize": [4, 4], "kernelSize": 2, "padding": 1}),
    ("batch0", [[0, 4, 9]], {"outputSize": [4, 4], "kernelSize": 2}),
    ("err-blocks", [[1, 4, 8]], {"outputSize": [4, 4], "kernelSize": 2}),
    ("err-channels", [[1, 5, 9]], {"outputSize": [4, 4], "kernelSize": 2}),
    ("err-4d", [[1, 1, 4, 9]], {"outputSize": [4, 4], "kernelSize": 2}),
    ("err-kernel0", [[1, 4, 9]], {"outputSize": [4, 4], "kernelSize": 0}),
]

SAMPLES = {
    "conv1d": CONV1D, "conv2d": CONV2D, "convTranspose2d": CONV_T, "maxPool2d": MAXPOOL, "maxPool2d.indices": MAXPOOL,
    "avgPool2d": AVGPOOL, "adaptiveAvgPool2d": ADAPTIVE, "interpolate": INTERP, "pad": PAD, "im2col": UNFOLD, "col2im": FOLD,
}
# Every op's cases on every dtype: values where PyTorch has the kernel, its error elsewhere.
DTYPES = {op: ALL for op in SAMPLES}
FLOAT_ACC = {"conv1d", "conv2d", "convTranspose2d", "avgPool2d", "adaptiveAvgPool2d", "interpolate"}


def values(op, sample, d, shape, g, i):
    if sample == "nan" and i == 0 and d in FLOATS:
        vals = fill(d, shape, g)
        vals[1] = float("nan")
        vals[6] = float("nan")
        vals[7] = float("nan")
        return vals
    if d in FLOATS:
        return fill(d, shape, g, scale=1.5)
    if d == "bool":
        return fill(d, shape, g)
    return fill(d, shape, g, lo=0 if d == "uint8" else -20, hi=40)


def make():
    rec = Recorder()
    for op, samples in SAMPLES.items():
        for d in DTYPES[op]:
            for sample, shapes, kwargs in samples:
                g = gen_for(op, sample, d)
                inputs = [T(d, s, values(op, sample, d, s, g, i)) for i, s in enumerate(shapes)]
                rec.case(op, sample, d, inputs, FNS[op], kwargs=dict(kwargs), upcast=True,
                         float_acc=("bfloat16",) if op in FLOAT_ACC else ())
    return {"family": "spatial", **rec.result()}
