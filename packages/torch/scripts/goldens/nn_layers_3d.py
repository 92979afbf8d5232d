"""Goldens for the 3-d layers and the rest of issue 18: Conv3d, ConvTranspose3d, MaxPool3d,
AvgPool3d, AdaptiveAvgPool3d, AdaptiveMaxPool1d/2d/3d, EmbeddingBag, Upsample's linear,
bicubic, trilinear and area modes, MultiMarginLoss and MultiLabelMarginLoss. As
nn_layers_shuffle_1d.py: each layer built after manual_seed, its output on a fixed input and
the gradients of its parameters and input for sum(output * r); also indices, reprs and
PyTorch's error messages for bad arguments."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import values, write


def case(make, shape, seed, extra=None):
    """`extra(x)`: the layer's other inputs built from the seeded generator (targets, offsets)."""
    torch.manual_seed(seed)
    m = make()
    x = torch.randn(*shape, requires_grad=True)
    args = extra() if extra else []
    y = m(x, *args)
    if isinstance(y, tuple):
        y = y[0]
    r = torch.randn(y.shape)
    (y * r).sum().backward()
    return {'x': values(x), 'args': [values(a) for a in args], 'y': values(y), 'r': values(r),
            'grads': {k: values(p.grad) for k, p in m.named_parameters()},
            'state': {k: values(v) for k, v in m.state_dict().items()},
            'xGrad': values(x.grad), 'repr': repr(m)}


def bag_case(make, seed, inp, offsets=None, psw=False):
    """EmbeddingBag: the weight is the only differentiable input (and per_sample_weights)."""
    torch.manual_seed(seed)
    m = make()
    inp = torch.tensor(inp)
    off = None if offsets is None else torch.tensor(offsets)
    w = torch.randn(inp.shape, requires_grad=True) if psw else None
    y = m(inp, off, w)
    r = torch.randn(y.shape)
    (y * r).sum().backward()
    return {'input': values(inp), 'offsets': None if off is None else values(off), 'psw': None if w is None else values(w),
            'y': values(y), 'r': values(r), 'grads': {k: values(p.grad) for k, p in m.named_parameters()},
            'state': {k: values(v) for k, v in m.state_dict().items()},
            'pswGrad': None if w is None else values(w.grad), 'repr': repr(m)}


layers = {
    'Conv3d(2,4,3,stride=2,padding=1,groups=2)': case(lambda: nn.Conv3d(2, 4, 3, stride=2, padding=1, groups=2), (2, 2, 5, 6, 5), 600),
    'Conv3d(3,2,(2,3,2),dilation=(2,1,2),bias=False)': case(lambda: nn.Conv3d(3, 2, (2, 3, 2), dilation=(2, 1, 2), bias=False), (1, 3, 5, 5, 6), 601),
    'Conv3d(2,3,3,padding=same,padding_mode=reflect)': case(lambda: nn.Conv3d(2, 3, 3, padding='same', padding_mode='reflect'), (1, 2, 4, 4, 5), 602),
    'Conv3d(2,2,2,padding=1,padding_mode=circular)': case(lambda: nn.Conv3d(2, 2, 2, padding=1, padding_mode='circular'), (2, 2, 3, 4, 3), 603),
    'Conv3d(2,2,(2,2,3),padding=same,padding_mode=replicate)': case(lambda: nn.Conv3d(2, 2, (2, 2, 3), padding='same', padding_mode='replicate'), (2, 3, 4, 3), 604),
    'Conv3d(2,2,2,padding=same) unbatched': case(lambda: nn.Conv3d(2, 2, 2, padding='same'), (2, 3, 3, 4), 605),
    'Conv2d(2,2,3,padding=1,padding_mode=reflect)': case(lambda: nn.Conv2d(2, 2, 3, padding=1, padding_mode='reflect'), (1, 2, 4, 5), 606),
    'Conv1d(2,2,3,padding=2,padding_mode=circular)': case(lambda: nn.Conv1d(2, 2, 3, padding=2, padding_mode='circular'), (2, 2, 5), 607),
    'ConvTranspose3d(2,4,3,stride=2,padding=1,output_padding=1,groups=2)':
        case(lambda: nn.ConvTranspose3d(2, 4, 3, stride=2, padding=1, output_padding=1, groups=2), (2, 2, 3, 2, 3), 610),
    'ConvTranspose3d(3,2,(2,3,2),stride=(3,1,2),dilation=(2,1,1),bias=False)':
        case(lambda: nn.ConvTranspose3d(3, 2, (2, 3, 2), stride=(3, 1, 2), dilation=(2, 1, 1), bias=False), (1, 3, 3, 3, 2), 611),
    'ConvTranspose3d(2,2,2) unbatched': case(lambda: nn.ConvTranspose3d(2, 2, 2), (2, 2, 3, 2), 612),
    'MaxPool3d(2)': case(lambda: nn.MaxPool3d(2), (2, 2, 4, 5, 4), 620),
    'MaxPool3d(3,2,1,dilation=(1,2,1),ceil_mode=True)': case(lambda: nn.MaxPool3d(3, 2, 1, dilation=(1, 2, 1), ceil_mode=True), (1, 2, 6, 7, 5), 621),
    'MaxPool3d((2,1,3),stride=1) unbatched': case(lambda: nn.MaxPool3d((2, 1, 3), stride=1), (2, 3, 3, 4), 622),
    'AvgPool3d(2)': case(lambda: nn.AvgPool3d(2), (2, 2, 4, 5, 4), 623),
    'AvgPool3d(3,2,1,ceil_mode=True,count_include_pad=False)': case(lambda: nn.AvgPool3d(3, 2, 1, ceil_mode=True, count_include_pad=False), (1, 2, 6, 5, 7), 624),
    'AvgPool3d((3,2,3),(2,1,2),(1,1,0),ceil_mode=True)': case(lambda: nn.AvgPool3d((3, 2, 3), (2, 1, 2), (1, 1, 0), ceil_mode=True), (1, 2, 6, 4, 6), 625),
    'AvgPool3d(2,divisor_override=3) unbatched': case(lambda: nn.AvgPool3d(2, divisor_override=3), (2, 4, 4, 5), 626),
    'AdaptiveAvgPool3d((2,3,None))': case(lambda: nn.AdaptiveAvgPool3d((2, 3, None)), (2, 2, 5, 7, 3), 627),
    'AdaptiveAvgPool3d(3) unbatched': case(lambda: nn.AdaptiveAvgPool3d(3), (2, 4, 5, 7), 628),
    'AdaptiveMaxPool1d(4)': case(lambda: nn.AdaptiveMaxPool1d(4), (2, 3, 10), 630),
    'AdaptiveMaxPool1d(3) unbatched': case(lambda: nn.AdaptiveMaxPool1d(3), (2, 7), 631),
    'AdaptiveMaxPool2d((3,None))': case(lambda: nn.AdaptiveMaxPool2d((3, None)), (2, 2, 7, 5), 632),
    'AdaptiveMaxPool2d(4,return_indices=True)': case(lambda: nn.AdaptiveMaxPool2d(4, return_indices=True), (1, 2, 6, 9), 633),
    'AdaptiveMaxPool3d((2,3,4))': case(lambda: nn.AdaptiveMaxPool3d((2, 3, 4)), (1, 2, 5, 7, 6), 634),
    'AdaptiveMaxPool3d(2) unbatched': case(lambda: nn.AdaptiveMaxPool3d(2), (2, 3, 5, 4), 635),
}

torch.manual_seed(690)
indices = {}
xi = torch.randn(2, 2, 5, 6, 7)
v, i = F.max_pool3d(xi, 3, stride=2, padding=1, dilation=(1, 1, 2), ceil_mode=True, return_indices=True)
indices['max_pool3d'] = {'x': values(xi), 'values': values(v), 'indices': values(i)}
for n, shape, size in [(1, (2, 3, 11), 4), (2, (2, 2, 7, 9), (3, 4)), (3, (1, 2, 5, 6, 7), (2, 4, 3))]:
    xi = torch.randn(*shape)
    v, i = getattr(F, 'adaptive_max_pool%dd' % n)(xi, size, return_indices=True)
    indices['adaptive_max_pool%dd' % n] = {'x': values(xi), 'values': values(v), 'indices': values(i)}

reprs = {
    'Conv3d(2,4,3)': repr(nn.Conv3d(2, 4, 3)),
    'Conv3d(2,4,(1,2,3),(2,1,1),padding=same,padding_mode=reflect,bias=False)': repr(nn.Conv3d(2, 4, (1, 2, 3), padding='same', padding_mode='reflect', bias=False)),
    'ConvTranspose3d(2,4,3,2,1,1,groups=2,dilation=2)': repr(nn.ConvTranspose3d(2, 4, 3, 2, 1, 1, groups=2, dilation=2)),
    'MaxPool3d(3)': repr(nn.MaxPool3d(3)),
    'MaxPool3d((3,2,1),2,1,2,True,True)': repr(nn.MaxPool3d((3, 2, 1), 2, 1, 2, True, True)),
    'AvgPool3d(3)': repr(nn.AvgPool3d(3)),
    'AvgPool3d(3,2,1,True,False,2)': repr(nn.AvgPool3d(3, 2, 1, True, False, 2)),
    'AdaptiveAvgPool3d((2,None,3))': repr(nn.AdaptiveAvgPool3d((2, None, 3))),
    'AdaptiveMaxPool1d(3)': repr(nn.AdaptiveMaxPool1d(3)),
    'AdaptiveMaxPool2d((2,None),True)': repr(nn.AdaptiveMaxPool2d((2, None), True)),
    'AdaptiveMaxPool3d(2)': repr(nn.AdaptiveMaxPool3d(2)),
}


def message(f):
    try:
        f()
    except (RuntimeError, ValueError) as e:
        return str(e).split('\n')[0]
    raise AssertionError('no error')


r = torch.randn
errors = {
    'conv3d 3-d input': message(lambda: F.conv3d(r(2, 3, 4), r(2, 3, 1, 1, 1))),
    'conv3d channels': message(lambda: F.conv3d(r(1, 3, 4, 4, 4), r(2, 2, 1, 1, 1))),
    'conv3d kernel > input': message(lambda: F.conv3d(r(1, 2, 2, 4, 4), r(2, 2, 3, 3, 3))),
    'conv3d groups': message(lambda: F.conv3d(r(1, 4, 4, 4, 4), r(3, 2, 1, 1, 1), groups=2)),
    'conv3d bias': message(lambda: F.conv3d(r(1, 2, 4, 4, 4), r(3, 2, 1, 1, 1), r(2))),
    'conv3d same strided': message(lambda: F.conv3d(r(1, 2, 4, 4, 4), r(3, 2, 1, 1, 1), stride=2, padding='same')),
    'conv_transpose3d channels': message(lambda: F.conv_transpose3d(r(1, 3, 2, 2, 2), r(2, 2, 2, 2, 2))),
    'conv_transpose3d output_padding': message(lambda: F.conv_transpose3d(r(1, 2, 2, 2, 2), r(2, 2, 2, 2, 2), stride=2, output_padding=2)),
    'conv_transpose3d 3-d input': message(lambda: F.conv_transpose3d(r(2, 2, 2), r(2, 2, 2, 2, 2))),
    'max_pool3d 3-d input': message(lambda: F.max_pool3d(r(2, 3, 4), 2)),
    'max_pool3d padding > kernel/2': message(lambda: F.max_pool3d(r(1, 1, 3, 3, 3), 2, padding=2)),
    'max_pool3d output too small': message(lambda: F.max_pool3d(r(1, 1, 3, 3, 3), 5)),
    'max_pool3d kernel pair': message(lambda: F.max_pool3d(r(1, 1, 3, 3, 3), [2, 2])),
    'max_pool3d int64': message(lambda: F.max_pool3d(r(1, 1, 3, 3, 3).long(), 2)),
    'avg_pool3d 3-d input': message(lambda: F.avg_pool3d(r(2, 3, 4), 2)),
    'avg_pool3d kernel > input': message(lambda: F.avg_pool3d(r(1, 1, 3, 3, 3), 5)),
    'adaptive_avg_pool3d 3-d input': message(lambda: F.adaptive_avg_pool3d(r(2, 3, 4), 2)),
    'adaptive_avg_pool3d output_size pair': message(lambda: F.adaptive_avg_pool3d(r(1, 1, 3, 3, 3), [2, 2])),
    'adaptive_max_pool1d 4-d input': message(lambda: F.adaptive_max_pool1d(r(2, 3, 4, 5), 2)),
    'adaptive_max_pool1d output_size pair': message(lambda: F.adaptive_max_pool1d(r(2, 3, 4), [2, 2])),
    'adaptive_max_pool2d 1-d input': message(lambda: F.adaptive_max_pool2d(r(2), 2)),
    'adaptive_max_pool3d 3-d input': message(lambda: F.adaptive_max_pool3d(r(2, 3, 4), 2)),
    'adaptive_max_pool3d int64': message(lambda: F.adaptive_max_pool3d(r(1, 1, 3, 3, 3).long(), 2)),
    'pad reflect 3-d too large': message(lambda: F.pad(r(1, 1, 2, 2, 2), [3, 3, 0, 0, 0, 0], mode='reflect')),
    'pad circular 3-d too large': message(lambda: F.pad(r(1, 1, 2, 2, 2), [3, 3, 0, 0, 0, 0], mode='circular')),
    'ConvTranspose3d padding_mode': message(lambda: nn.ConvTranspose3d(2, 2, 2, padding_mode='reflect')),
}

EXTRA = {}
try:
    import nn_layers_3d_more
    EXTRA = nn_layers_3d_more.goldens(case, bag_case, message)
except ImportError:
    pass

write('nn_layers_3d', {'layers': layers, 'indices': indices, 'reprs': reprs, 'errors': errors, **EXTRA})
