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

# ties (a window of equal values, as after a relu): PyTorch's kernels take the first maximum
xt = torch.zeros(1, 2, 3, 2, 5, requires_grad=True)
v, i = F.max_pool3d(xt, 2, stride=1, return_indices=True)
(v * torch.arange(v.numel()).reshape(v.shape)).sum().backward()
yt = torch.zeros(2, 7, requires_grad=True)
v2, i2 = F.adaptive_max_pool1d(yt, 3, return_indices=True)
(v2 * torch.arange(v2.numel()).reshape(v2.shape)).sum().backward()
ties = {'max_pool3d': {'indices': values(i), 'grad': values(xt.grad)}, 'adaptive_max_pool1d': {'indices': values(i2), 'grad': values(yt.grad)}}

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
    except (RuntimeError, ValueError, NotImplementedError) as e:
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


# EmbeddingBag: bags from offsets (1-d input) or rows (2-d input)
bags = {
    'EmbeddingBag(10,3) mean offsets': bag_case(lambda: nn.EmbeddingBag(10, 3), 640, [1, 2, 4, 5, 4, 3, 2, 9], [0, 4, 4, 6]),
    'EmbeddingBag(10,3,mode=sum) per_sample_weights': bag_case(lambda: nn.EmbeddingBag(10, 3, mode='sum'), 641, [1, 2, 4, 5, 4, 3, 2, 9], [0, 3, 5], psw=True),
    'EmbeddingBag(10,3,mode=max) offsets': bag_case(lambda: nn.EmbeddingBag(10, 3, mode='max'), 642, [1, 2, 4, 5, 4, 3, 2, 9], [0, 2, 2, 7]),
    'EmbeddingBag(10,3,mode=sum,include_last_offset=True)': bag_case(lambda: nn.EmbeddingBag(10, 3, mode='sum', include_last_offset=True), 643, [1, 2, 4, 5, 4, 3], [0, 2, 5, 6]),
    'EmbeddingBag(10,3,padding_idx=2) 2-d': bag_case(lambda: nn.EmbeddingBag(10, 3, padding_idx=2), 644, [[1, 2, 4], [2, 2, 2], [4, 3, 2]]),
    'EmbeddingBag(10,3,mode=max,padding_idx=4) 2-d': bag_case(lambda: nn.EmbeddingBag(10, 3, mode='max', padding_idx=4), 645, [[1, 4, 7], [4, 4, 4], [0, 9, 4]]),
    'EmbeddingBag(10,3,mode=sum,max_norm=1.0)': bag_case(lambda: nn.EmbeddingBag(10, 3, mode='sum', max_norm=1.0), 646, [1, 2, 4, 1, 3], [0, 2]),
}

# Upsample's modes (F.interpolate), with their input gradients
upsample = {
    'Upsample(scale_factor=2,mode=linear)': case(lambda: nn.Upsample(scale_factor=2, mode='linear'), (2, 2, 5), 650),
    'Upsample(size=7,mode=linear,align_corners=True)': case(lambda: nn.Upsample(size=7, mode='linear', align_corners=True), (1, 2, 4), 651),
    'Upsample(scale_factor=(1.5,2.3),mode=bicubic)': case(lambda: nn.Upsample(scale_factor=(1.5, 2.3), mode='bicubic'), (1, 2, 4, 3), 652),
    'Upsample(size=(3,7),mode=bicubic,align_corners=True)': case(lambda: nn.Upsample(size=(3, 7), mode='bicubic', align_corners=True), (1, 2, 5, 4), 653),
    'Upsample(scale_factor=1.7,mode=bicubic,recompute_scale_factor=True)': case(lambda: nn.Upsample(scale_factor=1.7, mode='bicubic', recompute_scale_factor=True), (1, 1, 3, 4), 654),
    'Upsample(scale_factor=2,mode=trilinear)': case(lambda: nn.Upsample(scale_factor=2, mode='trilinear'), (1, 2, 2, 3, 2), 655),
    'Upsample(size=(3,2,5),mode=trilinear,align_corners=True)': case(lambda: nn.Upsample(size=(3, 2, 5), mode='trilinear', align_corners=True), (1, 1, 4, 3, 3), 656),
    'Upsample(scale_factor=(0.5,1.5,2.5),mode=trilinear)': case(lambda: nn.Upsample(scale_factor=(0.5, 1.5, 2.5), mode='trilinear'), (1, 2, 4, 2, 2), 657),
    'Upsample(size=(2,3),mode=area)': case(lambda: nn.Upsample(size=(2, 3), mode='area'), (2, 2, 5, 7), 658),
    'Upsample(scale_factor=0.5,mode=area)': case(lambda: nn.Upsample(scale_factor=0.5, mode='area'), (1, 2, 4, 6, 5), 659),
    'Upsample(size=3,mode=area)': case(lambda: nn.Upsample(size=3, mode='area'), (1, 2, 7), 660),
    'Upsample(scale_factor=(2,1,3),mode=nearest)': case(lambda: nn.Upsample(scale_factor=(2, 1, 3), mode='nearest'), (1, 2, 2, 3, 2), 661),
    'Upsample(size=(3,5,2),mode=nearest)': case(lambda: nn.Upsample(size=(3, 5, 2)), (1, 1, 2, 3, 4), 662),
}


def loss_case(make, shape, seed, target):
    torch.manual_seed(seed)
    m = make()
    x = torch.randn(*shape, requires_grad=True)
    t = torch.tensor(target)
    y = m(x, t)
    r = torch.randn(y.shape)
    (y * r).sum().backward()
    return {'x': values(x), 'args': [values(t)], 'y': values(y), 'r': values(r), 'grads': {}, 'state': {k: values(v) for k, v in m.state_dict().items()},
            'xGrad': values(x.grad), 'repr': repr(m)}


losses = {
    'MultiMarginLoss()': loss_case(lambda: nn.MultiMarginLoss(), (4, 5), 670, [0, 4, 2, 2]),
    'MultiMarginLoss(p=2,margin=0.7,reduction=sum)': loss_case(lambda: nn.MultiMarginLoss(p=2, margin=0.7, reduction='sum'), (3, 4), 671, [3, 0, 1]),
    'MultiMarginLoss(weight,reduction=none)': loss_case(lambda: nn.MultiMarginLoss(weight=torch.tensor([0.5, 2.0, 1.0, 0.25]), reduction='none'), (3, 4), 672, [1, 3, 0]),
    'MultiMarginLoss() 1-d': loss_case(lambda: nn.MultiMarginLoss(reduction='none'), (5,), 673, 3),
    'MultiLabelMarginLoss()': loss_case(lambda: nn.MultiLabelMarginLoss(), (3, 5), 674, [[3, 0, -1, 1, 2], [4, 1, 2, 0, 3], [-1, 2, 3, 0, 0]]),
    'MultiLabelMarginLoss(reduction=none)': loss_case(lambda: nn.MultiLabelMarginLoss(reduction='none'), (2, 4), 675, [[1, 1, 2, -1], [0, -1, 3, 3]]),
    'MultiLabelMarginLoss(reduction=sum) 1-d': loss_case(lambda: nn.MultiLabelMarginLoss(reduction='sum'), (4,), 676, [2, 1, -1, 0]),
}

reprs.update({
    'EmbeddingBag(10,3)': repr(nn.EmbeddingBag(10, 3)),
    'EmbeddingBag(10,3,max_norm=1.0,norm_type=1.0,scale_grad_by_freq=True,mode=max,padding_idx=-2,include_last_offset=True)':
        repr(nn.EmbeddingBag(10, 3, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, mode='max', padding_idx=-2, include_last_offset=True)),
    'Upsample(scale_factor=2,mode=bicubic)': repr(nn.Upsample(scale_factor=2, mode='bicubic')),
    'Upsample(size=(3,4))': repr(nn.Upsample(size=(3, 4))),
    'Upsample(scale_factor=(2,1.5),mode=area)': repr(nn.Upsample(scale_factor=(2, 1.5), mode='area')),
    'MultiMarginLoss(p=2,margin=0.5)': repr(nn.MultiMarginLoss(p=2, margin=0.5)),
    'MultiLabelMarginLoss()': repr(nn.MultiLabelMarginLoss()),
})

w10 = torch.randn(10, 3)
errors.update({
    'embedding_bag 2-d input with offsets': message(lambda: F.embedding_bag(torch.tensor([[1, 2], [3, 4]]), w10, torch.tensor([0, 1]))),
    'embedding_bag no offsets': message(lambda: F.embedding_bag(torch.tensor([1, 2, 3]), w10)),
    'embedding_bag 3-d input': message(lambda: F.embedding_bag(torch.zeros(2, 2, 2).long(), w10)),
    'embedding_bag per_sample_weights shape': message(lambda: F.embedding_bag(torch.tensor([1, 2, 3]), w10, torch.tensor([0, 1]), mode='sum', per_sample_weights=torch.ones(2))),
    'embedding_bag mode': message(lambda: F.embedding_bag(torch.tensor([1, 2, 3]), w10, torch.tensor([0, 1]), mode='foo')),
    'embedding_bag offsets[0]': message(lambda: F.embedding_bag(torch.tensor([1, 2, 3]), w10, torch.tensor([1, 2]))),
    'embedding_bag offsets[-1]': message(lambda: F.embedding_bag(torch.tensor([1, 2, 3]), w10, torch.tensor([0, 4]))),
    'embedding_bag float input': message(lambda: F.embedding_bag(torch.tensor([1., 2, 3]), w10, torch.tensor([0, 2]))),
    'embedding_bag padding_idx': message(lambda: F.embedding_bag(torch.tensor([1, 2, 3]), w10, torch.tensor([0, 2]), padding_idx=10)),
    'multi_margin_loss p': message(lambda: F.multi_margin_loss(r(3, 4), torch.tensor([0, 1, 2]), p=3)),
    'multi_margin_loss target size': message(lambda: F.multi_margin_loss(r(3, 4), torch.tensor([0, 1]))),
    'multi_margin_loss target range': message(lambda: F.multi_margin_loss(r(3, 4), torch.tensor([0, 1, 4]))),
    'multi_margin_loss 3-d input': message(lambda: F.multi_margin_loss(r(2, 3, 4), torch.tensor([0, 1]))),
    'multi_margin_loss float target': message(lambda: F.multi_margin_loss(r(3, 4), torch.tensor([0., 1, 2]))),
    'multilabel_margin_loss target size': message(lambda: F.multilabel_margin_loss(r(3, 4), torch.tensor([0, 1, 2]))),
    'multilabel_margin_loss target range': message(lambda: F.multilabel_margin_loss(r(2, 4), torch.tensor([[0, 1, -1, 5], [3, -1, 0, 0]]))),
    'multilabel_margin_loss 3-d input': message(lambda: F.multilabel_margin_loss(r(2, 3, 4), torch.zeros(2, 3, 4).long())),
    'interpolate bicubic 5-d': message(lambda: F.interpolate(r(1, 1, 2, 2, 2), scale_factor=2, mode='bicubic')),
    'interpolate trilinear 4-d': message(lambda: F.interpolate(r(1, 1, 2, 2), scale_factor=2, mode='trilinear')),
    'interpolate area align_corners': message(lambda: F.interpolate(r(1, 1, 2, 2), scale_factor=2, mode='area', align_corners=True)),
})
write('nn_layers_3d', {'layers': layers, 'bags': bags, 'upsample': upsample, 'losses': losses, 'indices': indices, 'ties': ties, 'reprs': reprs, 'errors': errors})
