"""Goldens for F.instance_norm / InstanceNorm1d-3d, BatchNorm3d, F.local_response_norm /
LocalResponseNorm, F.lp_pool1d / 2d / LPPool1d / 2d, F.alpha_dropout / feature_alpha_dropout /
AlphaDropout / FeatureAlphaDropout, the padding layers, UpsamplingNearest2d / Bilinear2d and
ParameterList / ParameterDict (values, gradients, running statistics, reprs, errors), PyTorch 1.13.
Run: /usr/bin/python3 packages/torch/scripts/goldens/nn_norm_more.py"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

from _common import error_of, ramp_grad_case, values, write

warnings.simplefilter('ignore')
dt = torch.float64


torch.manual_seed(0)
X3 = torch.randn(2, 3, 5, dtype=dt)
X4 = torch.randn(2, 3, 4, 3, dtype=dt)
X5 = torch.randn(2, 3, 2, 3, 2, dtype=dt)
W3 = torch.randn(3, dtype=dt)
B3 = torch.randn(3, dtype=dt)
RM = torch.randn(3, dtype=dt)
RV = torch.rand(3, dtype=dt) + 0.5

inst = {
    'plain 3d': ramp_grad_case(lambda x: F.instance_norm(x), X3),
    'affine 4d': ramp_grad_case(lambda x, w, b: F.instance_norm(x, weight=w, bias=b, eps=1e-3), X4, W3, B3),
    '5d': ramp_grad_case(lambda x: F.instance_norm(x), X5),
    'eval stats': ramp_grad_case(lambda x, w, b: F.instance_norm(x, RM.clone(), RV.clone(), w, b, use_input_stats=False), X3, W3, B3),
}
rm, rv = RM.clone(), RV.clone()
F.instance_norm(X4, rm, rv, momentum=0.3)
running = {'mean': values(rm), 'var': values(rv)}

mods = {}
m = nn.InstanceNorm1d(3, affine=True, track_running_stats=True).double()
with torch.no_grad():
    m.weight.copy_(W3)
    m.bias.copy_(B3)
y_train = m(X3)
m.eval()
y_eval = m(X3)
mods['InstanceNorm1d'] = {'train': values(y_train), 'eval': values(y_eval), 'running_mean': values(m.running_mean), 'running_var': values(m.running_var),
                          'keys': list(m.state_dict().keys()), 'tracked': int(m.num_batches_tracked)}
m2 = nn.InstanceNorm2d(3)
mods['InstanceNorm2d unbatched'] = {'out': values(m2(X4[0])), 'keys': list(m2.state_dict().keys())}
m3 = nn.InstanceNorm3d(3, momentum=0.2, track_running_stats=True).double()
y3 = m3(X5)
mods['InstanceNorm3d'] = {'out': values(y3), 'running_mean': values(m3.running_mean), 'running_var': values(m3.running_var)}

bn = nn.BatchNorm3d(3).double()
with torch.no_grad():
    bn.weight.copy_(W3)
    bn.bias.copy_(B3)
bn_train = bn(X5)
bn.eval()
bn3 = {'train': values(bn_train), 'eval': values(bn(X5)), 'running_mean': values(bn.running_mean), 'running_var': values(bn.running_var), 'tracked': int(bn.num_batches_tracked)}

lrn = {
    '3d size 2': ramp_grad_case(lambda x: F.local_response_norm(x, 2), X3),
    '4d size 3': ramp_grad_case(lambda x: F.local_response_norm(x, 3, alpha=0.5, beta=0.6, k=2.0), X4),
    '5d size 4': ramp_grad_case(lambda x: F.local_response_norm(x, 4, alpha=1e-2), X5),
}
P3 = X3.abs() + 0.1
P4 = X4.abs() + 0.1
lp = {
    '1d p2': ramp_grad_case(lambda x: F.lp_pool1d(x, 2, 2), X3),
    '1d p1.5 stride ceil': ramp_grad_case(lambda x: F.lp_pool1d(x, 1.5, 3, stride=2, ceil_mode=True), P3),
    '2d p2': ramp_grad_case(lambda x: F.lp_pool2d(x, 2, 2), X4),
    '2d p3 rect stride': ramp_grad_case(lambda x: F.lp_pool2d(x, 3, (2, 3), stride=(1, 2)), P4),
    '2d p1 ceil': ramp_grad_case(lambda x: F.lp_pool2d(x, 1, 3, ceil_mode=True), P4),
}
lp['zero window'] = ramp_grad_case(lambda x: F.lp_pool2d(x, 2, 2), torch.zeros(1, 1, 2, 4, dtype=dt).index_fill_(3, torch.tensor([2, 3]), 1.0))

alpha = {}
for key, f in {
    'alpha': lambda: F.alpha_dropout(X4, 0.3, training=True),
    'alpha p1': lambda: F.alpha_dropout(X3, 1.0, training=True),
    'alpha eval': lambda: F.alpha_dropout(X3, 0.5),
    'feature alpha': lambda: F.feature_alpha_dropout(X4, 0.4, training=True),
    'feature alpha 5d': lambda: F.feature_alpha_dropout(X5, 0.5, training=True),
    'module alpha': lambda: nn.AlphaDropout(0.2)(X3),
    'module feature alpha': lambda: nn.FeatureAlphaDropout(0.5)(X4),
}.items():
    torch.manual_seed(7)
    alpha[key] = values(f())
xa = X3.clone().requires_grad_()
torch.manual_seed(7)
F.alpha_dropout(xa, 0.3, training=True).sum().backward()
alpha_grad = values(xa.grad)

pads = {}
for key, (mk, x) in {
    'ReflectionPad1d': (lambda: nn.ReflectionPad1d((1, 2)), X3),
    'ReflectionPad2d': (lambda: nn.ReflectionPad2d(1), X4),
    'ReflectionPad3d': (lambda: nn.ReflectionPad3d((1, 0, 1, 1, 0, 1)), X5),
    'ReplicationPad1d': (lambda: nn.ReplicationPad1d(2), X3),
    'ReplicationPad2d': (lambda: nn.ReplicationPad2d((1, 2, 0, 1)), X4),
    'ReplicationPad3d': (lambda: nn.ReplicationPad3d(1), X5),
    'ConstantPad1d': (lambda: nn.ConstantPad1d(2, 3.5), X3),
    'ConstantPad2d': (lambda: nn.ConstantPad2d((1, 0, 2, 1), -1.5), X4),
    'ConstantPad3d': (lambda: nn.ConstantPad3d(1, 0), X5),
    'ZeroPad2d': (lambda: nn.ZeroPad2d((1, 2, 3, 0)), X4),
}.items():
    mod = mk()
    pads[key] = {'repr': repr(mod), **ramp_grad_case(lambda t: mod(t), x)}

ups = {
    'nearest': {'repr': repr(nn.UpsamplingNearest2d(scale_factor=2)), 'out': values(nn.UpsamplingNearest2d(scale_factor=2)(X4))},
    'bilinear': {'repr': repr(nn.UpsamplingBilinear2d(size=(5, 7))), 'out': values(nn.UpsamplingBilinear2d(size=(5, 7))(X4))},
}

pl = nn.ParameterList([nn.Parameter(torch.ones(2, 3)), torch.zeros(4, dtype=dt)])
pd = nn.ParameterDict({'a': nn.Parameter(torch.ones(2)), 'b': torch.zeros(1, 2, dtype=dt)})


class Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self.plist = pl
        self.pdict = pd


containers = {
    'list repr': repr(pl), 'dict repr': repr(pd), 'holder repr': repr(Holder()),
    'holder keys': list(Holder().state_dict().keys()),
    'list types': [type(p).__name__ for p in pl], 'single': repr(nn.ParameterList([nn.Parameter(torch.ones(3))])),
}

reprs = [repr(nn.InstanceNorm2d(3)), repr(nn.InstanceNorm1d(4, affine=True, track_running_stats=True)), repr(nn.InstanceNorm3d(2, eps=1e-3, momentum=0.2)),
         repr(nn.BatchNorm3d(3)), repr(nn.LocalResponseNorm(2)), repr(nn.LocalResponseNorm(3, 0.5, 0.6, 2.0)),
         repr(nn.LPPool2d(2, 3)), repr(nn.LPPool1d(1.5, 2, 1, True)), repr(nn.LPPool2d(3, (2, 3), stride=(1, 2))),
         repr(nn.AlphaDropout()), repr(nn.FeatureAlphaDropout(0.2, True))]

errors = {
    'instance spatial': error_of(lambda: F.instance_norm(torch.ones(2, 3, 1))),
    'instance no stats': error_of(lambda: torch.instance_norm(torch.ones(2, 3, 4), None, None, None, None, False, 0.1, 1e-5, False)),
    'InstanceNorm1d dims': error_of(lambda: nn.InstanceNorm1d(3)(torch.ones(2, 3, 4, 5))),
    'InstanceNorm2d dims': error_of(lambda: nn.InstanceNorm2d(3)(torch.ones(2, 3))),
    'BatchNorm3d dims': error_of(lambda: nn.BatchNorm3d(3)(torch.ones(2, 3, 4, 5))),
    'lrn dims': error_of(lambda: F.local_response_norm(torch.ones(2, 3), 2)),
    'alpha p': error_of(lambda: F.alpha_dropout(torch.ones(2), 1.5, True)),
    'feature alpha 1d': error_of(lambda: F.feature_alpha_dropout(torch.ones(3), 0.5, True)),
}
write('nn_norm_more', {'x3': values(X3), 'x4': values(X4), 'x5': values(X5), 'w3': values(W3), 'b3': values(B3), 'rm': values(RM), 'rv': values(RV),
                       'instance': inst, 'running': running, 'modules': mods, 'batchnorm3d': bn3, 'lrn': lrn, 'lp': lp, 'alpha': alpha, 'alpha_grad': alpha_grad,
                       'pads': pads, 'upsampling': ups, 'containers': containers, 'reprs': reprs, 'errors': errors})
