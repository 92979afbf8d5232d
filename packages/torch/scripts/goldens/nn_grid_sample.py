"""Goldens for F.grid_sample and F.affine_grid (4-d), PyTorch 1.13: every mode x padding mode x
align_corners on a grid reaching past [-1, 1] (values, input and grid gradients, float64),
float32 values, a channels-last input, affine grids (values and theta gradients, an H = 1
output) and the errors.
Run: /usr/bin/python3 packages/torch/scripts/goldens/nn_grid_sample.py"""
import torch
import torch.nn.functional as F

from _common import error_of, values, write

torch.manual_seed(0)
dt = torch.float64
X = torch.randn(2, 3, 4, 5, dtype=dt)
G = torch.rand(2, 3, 6, 2, dtype=dt) * 2.6 - 1.3
GO = torch.randn(2, 3, 3, 6, dtype=dt)
out = {'x': values(X), 'grid': values(G), 'grad_output': values(GO), 'cases': []}
for mode in ['bilinear', 'nearest', 'bicubic']:
    for padding in ['zeros', 'border', 'reflection']:
        for align in [False, True]:
            x = X.clone().requires_grad_()
            g = G.clone().requires_grad_()
            y = F.grid_sample(x, g, mode=mode, padding_mode=padding, align_corners=align)
            y.backward(GO)
            y32 = F.grid_sample(X.float(), G.float(), mode=mode, padding_mode=padding, align_corners=align)
            out['cases'].append({'mode': mode, 'padding': padding, 'align': align, 'out': values(y), 'out32': values(y32),
                                 'grad_input': values(x.grad), 'grad_grid': values(g.grad)})
xc = X.contiguous(memory_format=torch.channels_last).requires_grad_()
yc = F.grid_sample(xc, G, align_corners=False)
yc.backward(GO)
out['channels_last'] = {'stride': list(yc.stride()), 'grad_stride': list(xc.grad.stride())}

T = torch.randn(2, 2, 3, dtype=dt)
aff = []
for size in [[2, 3, 4, 5], [2, 1, 1, 3], [2, 1, 3, 1]]:
    for align in [False, True]:
        t = T.clone().requires_grad_()
        gr = F.affine_grid(t, size, align_corners=align)
        w = torch.arange(gr.numel(), dtype=dt).view(gr.shape) / 10
        (gr * w).sum().backward()
        aff.append({'size': size, 'align': align, 'out': values(gr), 'grad_theta': values(t.grad)})
out['theta'] = values(T)
out['affine'] = aff

x = torch.randn(1, 1, 3, 3)
g = torch.rand(1, 2, 2, 2)
out['errors'] = {
    'mode': error_of(lambda: F.grid_sample(x, g, mode='area', align_corners=False)),
    'padding': error_of(lambda: F.grid_sample(x, g, padding_mode='wrap', align_corners=False)),
    'batch': error_of(lambda: F.grid_sample(x, torch.rand(2, 2, 2, 2), align_corners=False)),
    'last': error_of(lambda: F.grid_sample(x, torch.rand(1, 2, 2, 3), align_corners=False)),
    'empty': error_of(lambda: F.grid_sample(torch.randn(1, 1, 0, 3), g, align_corners=False)),
    'affine_size': error_of(lambda: F.affine_grid(torch.randn(1, 2, 3), [1, 1, 3], align_corners=False)),
    'affine_theta': error_of(lambda: F.affine_grid(torch.randn(1, 3, 3), [1, 1, 3, 3], align_corners=False)),
    'affine_int': error_of(lambda: F.affine_grid(torch.randn(1, 2, 3).long(), [1, 1, 3, 3], align_corners=False)),
}
write('nn_grid_sample', out)
