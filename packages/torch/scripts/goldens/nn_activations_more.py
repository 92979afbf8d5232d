"""Goldens for the activation modules and functions torch-ts added after issue 18's list
(ReLU6 SELU CELU Softplus Hardtanh Hardswish Hardsigmoid Mish LogSigmoid Softmin Softmax2d GLU
PReLU Threshold Hardshrink Softshrink Tanhshrink Softsign RReLU; F.logsigmoid softsign
tanhshrink softmin glu hardshrink softshrink threshold prelu celu rrelu): reprs, outputs, input
gradients (and PReLU's weight gradient) for sum(out * w), w = arange / 10, float64, PyTorch 1.13.
Run: /usr/bin/python3 packages/torch/scripts/goldens/nn_activations_more.py"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from _common import error_of, values, write

torch.manual_seed(0)
dt = torch.float64
X = torch.randn(2, 4, 3, 2, dtype=dt) * 3
MODULES = {
    'ReLU6': lambda: nn.ReLU6(), 'SELU': lambda: nn.SELU(), 'CELU(0.5)': lambda: nn.CELU(0.5), 'Softplus(2,1)': lambda: nn.Softplus(2, 1),
    'Hardtanh(-2,3)': lambda: nn.Hardtanh(-2., 3.), 'Hardswish': lambda: nn.Hardswish(), 'Hardsigmoid': lambda: nn.Hardsigmoid(), 'Mish': lambda: nn.Mish(),
    'LogSigmoid': lambda: nn.LogSigmoid(), 'Softmin(1)': lambda: nn.Softmin(1), 'Softmax2d': lambda: nn.Softmax2d(), 'GLU(1)': lambda: nn.GLU(1),
    'PReLU': lambda: nn.PReLU(), 'PReLU(4,0.1)': lambda: nn.PReLU(4, 0.1), 'Threshold(0.5,-2)': lambda: nn.Threshold(0.5, -2.),
    'Hardshrink(1.5)': lambda: nn.Hardshrink(1.5), 'Softshrink(0.7)': lambda: nn.Softshrink(0.7), 'Tanhshrink': lambda: nn.Tanhshrink(),
    'Softsign': lambda: nn.Softsign(), 'RReLU eval': lambda: nn.RReLU(0.1, 0.3).eval(),
}
cases = {}
for key, make in MODULES.items():
    m = make().double()
    x = X.clone().requires_grad_()
    y = m(x)
    (y * torch.arange(y.numel(), dtype=dt).view(y.shape) / 10).sum().backward()
    c = {'repr': repr(m), 'out': values(y), 'grad': values(x.grad)}
    if isinstance(m, nn.PReLU):
        c['weight_grad'] = values(m.weight.grad)
        c['state_dict'] = list(m.state_dict().keys())
    cases[key] = c
reprs = {k: repr(f()) for k, f in {
    'ReLU6(True)': lambda: nn.ReLU6(True), 'CELU(0.5,True)': lambda: nn.CELU(0.5, True), 'Softplus': lambda: nn.Softplus(),
    'Hardtanh': lambda: nn.Hardtanh(), 'Softmin': lambda: nn.Softmin(), 'GLU': lambda: nn.GLU(), 'PReLU(3)': lambda: nn.PReLU(3),
    'Hardshrink': lambda: nn.Hardshrink(), 'RReLU': lambda: nn.RReLU(), 'RReLU(0.1,0.3,True)': lambda: nn.RReLU(0.1, 0.3, True),
}.items()}
errors = {
    'glu': error_of(lambda: F.glu(torch.randn(2, 3))),
    'softshrink': error_of(lambda: F.softshrink(torch.randn(2), -1)),
    'prelu': error_of(lambda: F.prelu(torch.randn(2, 3), torch.ones(2))),
}
write('nn_activations_more', {'x': values(X), 'cases': cases, 'reprs': reprs, 'errors': errors})
