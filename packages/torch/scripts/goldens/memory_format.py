"""Goldens for memory formats (channels_last): output strides, values and input-gradient
strides of the conv/pool/norm/upsample/pointwise/reduction ops for a contiguous and a
channels-last input, plus the layouts clone/contiguous/to/*_like give. PyTorch 1.13, float64.
Run: /usr/bin/python3 packages/torch/scripts/goldens/memory_format.py"""
import torch
import torch.nn.functional as F

from _common import values, write

torch.manual_seed(0)
dt = torch.float64
X = torch.randn(2, 3, 5, 6, dtype=dt)
W = torch.randn(4, 3, 3, 3, dtype=dt)
B = torch.randn(4, dtype=dt)
WG = torch.randn(3, 1, 3, 3, dtype=dt)
WT = torch.randn(3, 2, 3, 3, dtype=dt)
M = torch.randn(3, 1, 1, dtype=dt)
params = {'x': X, 'w': W, 'b': B, 'wg': WG, 'wt': WT, 'm': M}

# name -> (function of x); the TS test has the same table
OPS = {
    'conv2d': lambda x: F.conv2d(x, W, B, padding=1),
    'conv2d_stride2': lambda x: F.conv2d(x, W, stride=2),
    'conv2d_groups': lambda x: F.conv2d(x, WG, groups=3),
    'conv_transpose2d': lambda x: F.conv_transpose2d(x, WT),
    'max_pool2d': lambda x: F.max_pool2d(x, 2),
    'avg_pool2d': lambda x: F.avg_pool2d(x, 2),
    'adaptive_avg_pool2d': lambda x: F.adaptive_avg_pool2d(x, (2, 3)),
    'adaptive_max_pool2d': lambda x: F.adaptive_max_pool2d(x, (2, 3)),
    'batch_norm': lambda x: F.batch_norm(x, None, None, training=True),
    'batch_norm_eval': lambda x: F.batch_norm(x, torch.zeros(3, dtype=dt), torch.ones(3, dtype=dt)),
    'group_norm': lambda x: F.group_norm(x, 1),
    'layer_norm': lambda x: F.layer_norm(x, (5, 6)),
    'interpolate_nearest': lambda x: F.interpolate(x, scale_factor=2),
    'interpolate_bilinear': lambda x: F.interpolate(x, scale_factor=2, mode='bilinear'),
    'interpolate_bilinear_ac': lambda x: F.interpolate(x, size=(7, 8), mode='bilinear', align_corners=True),
    'interpolate_bicubic': lambda x: F.interpolate(x, scale_factor=2, mode='bicubic'),
    'interpolate_bicubic_ac': lambda x: F.interpolate(x, size=(7, 8), mode='bicubic', align_corners=True),
    'pixel_shuffle': lambda x: F.pixel_shuffle(x, 1),
    'pixel_unshuffle': lambda x: F.pixel_unshuffle(x[:, :, :4], 2),
    'pixel_shuffle_roundtrip': lambda x: F.pixel_shuffle(F.pixel_unshuffle(x[:, :, :4], 2), 2),
    'relu': F.relu,
    'mul_broadcast': lambda x: x * M,
    'sum_keepdim': lambda x: x.sum(1, keepdim=True),
    'mean_hw': lambda x: x.mean((2, 3), keepdim=True),
    'softmax': lambda x: F.softmax(x, 1),
    'pad_constant': lambda x: F.pad(x, (1, 2, 1, 1)),
    'pad_reflect': lambda x: F.pad(x, (1, 2, 1, 1), mode='reflect'),
}

cases = []
for name, f in OPS.items():
    case = {'op': name}
    for fmt in ['contiguous', 'channels_last']:
        mf = torch.contiguous_format if fmt == 'contiguous' else torch.channels_last
        x = X.contiguous(memory_format=mf).requires_grad_()
        y = f(x)
        torch.manual_seed(1)
        go = torch.randn(y.shape, dtype=dt).contiguous(memory_format=torch.channels_last if y.is_contiguous(memory_format=torch.channels_last) and not y.is_contiguous() else torch.contiguous_format)
        (g,) = torch.autograd.grad(y, x, go)
        case[fmt] = {'stride': list(y.stride()), 'channels_last': y.is_contiguous(memory_format=torch.channels_last), 'grad_output_stride': list(go.stride()), 'grad_stride': list(g.stride())}
        if fmt == 'contiguous':
            case.update({'out': values(y), 'grad_output': values(go), 'grad': values(g)})
            ref = (y.detach(), g)
        else:
            # the values do not depend on the layout (stored once, for the contiguous input)
            assert torch.allclose(y.detach(), ref[0], rtol=1e-12, atol=1e-12) and torch.allclose(g, ref[1], rtol=1e-12, atol=1e-12), name
    cases.append(case)


def layout(t):
    return {'shape': list(t.shape), 'stride': list(t.stride())}


cl = X.contiguous(memory_format=torch.channels_last)
x1 = torch.randn(2, 3, 1, 1, dtype=dt)
x5 = torch.randn(2, 3, 2, 3, 4, dtype=dt)
nd = X[:, :, ::2]  # not dense
clnd = cl[:, :, ::2]
api = {
    'to_cl': layout(X.to(memory_format=torch.channels_last)),
    'contiguous_cl': layout(X.contiguous(memory_format=torch.channels_last)),
    'clone_cl': layout(X.clone(memory_format=torch.channels_last)),
    'clone_preserve_cl': layout(cl.clone()),
    'clone_contiguous_of_cl': layout(cl.clone(memory_format=torch.contiguous_format)),
    'contiguous_of_cl': layout(cl.contiguous()),
    'clone_preserve_nondense': layout(nd.clone()),
    'clone_preserve_cl_nondense': layout(clnd.clone()),
    'to_dtype_cl': layout(cl.to(torch.float32)),
    'to_cl_n11': layout(x1.to(memory_format=torch.channels_last)),
    'contiguous_cl_n11': layout(x1.contiguous(memory_format=torch.channels_last)),
    'conv_n11_cl': layout(F.conv2d(x1.to(memory_format=torch.channels_last), torch.randn(4, 3, 1, 1, dtype=dt))),
    'empty_like_cl': layout(torch.empty_like(cl)),
    'zeros_like_cl': layout(torch.zeros_like(cl)),
    'ones_like_cl_contiguous': layout(torch.ones_like(cl, memory_format=torch.contiguous_format)),
    'full_like_x_cl': layout(torch.full_like(X, 2.0, memory_format=torch.channels_last)),
    'empty_like_nondense': layout(torch.empty_like(nd)),
    'empty_cl': layout(torch.empty(2, 3, 5, 6, memory_format=torch.channels_last)),
    'empty_cl3d': layout(torch.empty(2, 3, 2, 3, 4, memory_format=torch.channels_last_3d)),
    'clone_cl3d': layout(x5.clone(memory_format=torch.channels_last_3d)),
    'permuted_clone': layout(X.permute(0, 2, 3, 1).clone()),
}
is_contiguous = {
    'x': [X.is_contiguous(), X.is_contiguous(memory_format=torch.channels_last)],
    'cl': [cl.is_contiguous(), cl.is_contiguous(memory_format=torch.channels_last)],
    'n11_cl': [x1.to(memory_format=torch.channels_last).is_contiguous(), x1.to(memory_format=torch.channels_last).is_contiguous(memory_format=torch.channels_last)],
    'x5_cl3d': [x5.clone(memory_format=torch.channels_last_3d).is_contiguous(), x5.clone(memory_format=torch.channels_last_3d).is_contiguous(memory_format=torch.channels_last_3d)],
}
errors = {}
for k, f in {
    'to_2d': lambda: torch.randn(2, 3).to(memory_format=torch.channels_last),
    'contiguous_2d': lambda: torch.randn(2, 3).contiguous(memory_format=torch.channels_last),
    'clone_3d_cl3d': lambda: torch.randn(2, 3, 4).clone(memory_format=torch.channels_last_3d),
    'empty_like_2d': lambda: torch.empty_like(torch.randn(2, 3), memory_format=torch.channels_last),
    'empty_preserve': lambda: torch.empty(2, 3, 4, 5, memory_format=torch.preserve_format),
    'contiguous_preserve': lambda: X.t().contiguous(memory_format=torch.preserve_format) if False else X.transpose(1, 2).contiguous(memory_format=torch.preserve_format),
}.items():
    try:
        f()
        errors[k] = None
    except RuntimeError as e:
        errors[k] = str(e)

# conv's input and weight gradient layouts for each (input, weight) layout pair, and the input
# gradient layout of each 2-d op when grad_output's layout differs from its output's
conv_grads = []
for xf in ['contiguous', 'channels_last']:
    for wf in ['contiguous', 'channels_last']:
        for name, w, f in [('conv2d', W, lambda x, w: F.conv2d(x, w, padding=1)), ('conv_transpose2d', WT, F.conv_transpose2d)]:
            x = X.contiguous(memory_format=torch.channels_last if xf == 'channels_last' else torch.contiguous_format).requires_grad_()
            wl = w.contiguous(memory_format=torch.channels_last if wf == 'channels_last' else torch.contiguous_format).requires_grad_()
            y = f(x, wl)
            gx, gw = torch.autograd.grad(y, (x, wl), torch.ones_like(y, memory_format=torch.contiguous_format))
            conv_grads.append({'op': name, 'input': xf, 'weight': wf, 'stride': list(y.stride()), 'grad_input_stride': list(gx.stride()), 'grad_weight_stride': list(gw.stride())})
mixed_grads = {}
for name in ['conv2d', 'max_pool2d', 'avg_pool2d', 'adaptive_avg_pool2d', 'adaptive_max_pool2d', 'batch_norm', 'group_norm', 'interpolate_nearest', 'interpolate_bilinear', 'interpolate_bicubic', 'pixel_unshuffle']:
    for xf, gf in [('channels_last', 'contiguous'), ('contiguous', 'channels_last')]:
        x = X.contiguous(memory_format=torch.channels_last if xf == 'channels_last' else torch.contiguous_format).requires_grad_()
        y = OPS[name](x)
        go = torch.ones_like(y).contiguous(memory_format=torch.channels_last if gf == 'channels_last' else torch.contiguous_format)
        (g,) = torch.autograd.grad(y, x, go)
        mixed_grads[f'{name}/{xf}/{gf}'] = list(g.stride())

# 3-d ops: output strides, values and input-gradient strides for a contiguous and a
# channels_last_3d input (grad_output random, in the output's layout), as the 2-d cases;
# then each op's input-gradient strides for every (input, grad_output) layout pair. PyTorch
# 1.13's CPU conv3d, conv_transpose3d and 3-d poolings give contiguous outputs and gradients;
# batch norm keeps the input's layout; group norm's gradient and nearest upsampling's are
# contiguous; trilinear's gradient takes grad_output's layout.
torch.manual_seed(2)
X5 = torch.randn(2, 3, 3, 4, 4, dtype=dt)
W5 = torch.randn(4, 3, 3, 3, 3, dtype=dt)
B5 = torch.randn(4, dtype=dt)
WT5 = torch.randn(3, 2, 2, 2, 2, dtype=dt)
params.update({'x5': X5, 'w5': W5, 'b5': B5, 'wt5': WT5})
OPS3D = {
    'conv3d': lambda x: F.conv3d(x, W5, B5, padding=1),
    'conv_transpose3d': lambda x: F.conv_transpose3d(x, WT5),
    'max_pool3d': lambda x: F.max_pool3d(x, 2),
    'avg_pool3d': lambda x: F.avg_pool3d(x, 2, stride=1),
    'adaptive_avg_pool3d': lambda x: F.adaptive_avg_pool3d(x, (2, 3, 3)),
    'adaptive_max_pool3d': lambda x: F.adaptive_max_pool3d(x, (2, 3, 3)),
    'batch_norm3d': lambda x: F.batch_norm(x, None, None, training=True),
    'batch_norm3d_eval': lambda x: F.batch_norm(x, torch.zeros(3, dtype=dt), torch.ones(3, dtype=dt)),
    'group_norm3d': lambda x: F.group_norm(x, 3),
    'interpolate_nearest3d': lambda x: F.interpolate(x, size=(4, 6, 5)),
    'interpolate_trilinear': lambda x: F.interpolate(x, size=(4, 6, 5), mode='trilinear'),
    'interpolate_trilinear_ac': lambda x: F.interpolate(x, size=(5, 5, 6), mode='trilinear', align_corners=True),
}
CL3D = torch.channels_last_3d
cases3d = []
for name, f in OPS3D.items():
    case = {'op': name}
    for fmt in ['contiguous', 'channels_last_3d']:
        x = X5.contiguous(memory_format=CL3D if fmt == 'channels_last_3d' else torch.contiguous_format).requires_grad_()
        y = f(x)
        torch.manual_seed(1)
        go = torch.randn(y.shape, dtype=dt).contiguous(memory_format=CL3D if y.is_contiguous(memory_format=CL3D) and not y.is_contiguous() else torch.contiguous_format)
        (g,) = torch.autograd.grad(y, x, go)
        case[fmt] = {'stride': list(y.stride()), 'grad_output_stride': list(go.stride()), 'grad_stride': list(g.stride())}
        if fmt == 'contiguous':
            case.update({'out': values(y), 'grad_output': values(go), 'grad': values(g)})
            ref = (y.detach(), g)
        else:
            assert torch.allclose(y.detach(), ref[0], rtol=1e-12, atol=1e-12) and torch.allclose(g, ref[1], rtol=1e-12, atol=1e-12), name
    cases3d.append(case)
mixed_grads3d = {}
for name, f in OPS3D.items():
    for xf in ['contiguous', 'channels_last_3d']:
        for gf in ['contiguous', 'channels_last_3d']:
            x = X5.contiguous(memory_format=CL3D if xf == 'channels_last_3d' else torch.contiguous_format).requires_grad_()
            y = f(x)
            go = torch.ones_like(y).contiguous(memory_format=CL3D if gf == 'channels_last_3d' else torch.contiguous_format)
            (g,) = torch.autograd.grad(y, x, go)
            mixed_grads3d[f'{name}/{xf}/{gf}'] = list(g.stride())
# an empty batch: the 3-d upsamplings' output strides
empty3d = {}
for name in ['interpolate_nearest3d', 'interpolate_trilinear']:
    for fmt in ['contiguous', 'channels_last_3d']:
        x0 = torch.randn(0, 3, 3, 4, 4, dtype=dt).contiguous(memory_format=CL3D if fmt == 'channels_last_3d' else torch.contiguous_format)
        empty3d[f'{name}/{fmt}'] = list(OPS3D[name](x0).stride())

write('memory_format', {'params': {k: values(v) for k, v in params.items()}, 'cases': cases, 'api': api, 'is_contiguous': is_contiguous, 'errors': errors, 'conv_grads': conv_grads, 'mixed_grads': mixed_grads, 'cases3d': cases3d, 'mixed_grads3d': mixed_grads3d, 'empty3d': empty3d})
