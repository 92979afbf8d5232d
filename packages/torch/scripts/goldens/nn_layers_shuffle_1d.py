"""Goldens for ConvTranspose1d, the 1-d pooling layers (MaxPool1d, AvgPool1d,
AdaptiveAvgPool1d) and the shuffles (PixelShuffle, PixelUnshuffle, ChannelShuffle): as
nn_layers.py, each layer built after manual_seed, its output on a fixed input and the
gradients of its parameters and input for sum(output * r); also F.max_pool1d's indices,
the modules' reprs and PyTorch's error messages for bad arguments."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from _common import values, write


def math_channel_shuffle(x, g):
    # PyTorch 1.13's channel_shuffle has no derivative ("derivative for channel_shuffle is not
    # implemented"; 2.x differentiates it): its gradient here is that of its math definition,
    # checked equal to the op's output below
    n, c = x.shape[:2]
    return x.reshape(n, g, c // g, *x.shape[2:]).transpose(1, 2).reshape(x.shape)


def case(make, shape, seed):
    torch.manual_seed(seed)
    m = make()
    x = torch.randn(*shape, requires_grad=True)
    y = m(x)
    if isinstance(m, nn.ChannelShuffle):
        y2 = math_channel_shuffle(x, m.groups)
        assert torch.equal(y, y2)
        y = y2
    r = torch.randn(y.shape)
    (y * r).sum().backward()
    return {'x': values(x), 'y': values(y), 'r': values(r),
            'grads': {k: values(p.grad) for k, p in m.named_parameters()},
            'state': {k: values(v) for k, v in m.state_dict().items()},
            'xGrad': values(x.grad), 'repr': repr(m)}


layers = {
    'ConvTranspose1d(2,4,3,stride=2,output_padding=1,groups=2,bias=False)':
        case(lambda: nn.ConvTranspose1d(2, 4, 3, stride=2, output_padding=1, groups=2, bias=False), (2, 2, 5), 500),
    'ConvTranspose1d(3,2,3,stride=2,padding=1,dilation=2)':
        case(lambda: nn.ConvTranspose1d(3, 2, 3, stride=2, padding=1, dilation=2), (2, 3, 4), 501),
    'ConvTranspose1d(3,2,2) unbatched': case(lambda: nn.ConvTranspose1d(3, 2, 2), (3, 4), 502),
    'MaxPool1d(3,2,1,2,ceil_mode=True)': case(lambda: nn.MaxPool1d(3, 2, 1, 2, ceil_mode=True), (2, 3, 10), 503),
    'MaxPool1d(2) unbatched': case(lambda: nn.MaxPool1d(2), (3, 7), 504),
    'MaxPool1d(4,stride=1,padding=2)': case(lambda: nn.MaxPool1d(4, stride=1, padding=2), (1, 2, 6), 505),
    'AvgPool1d(3,2,1,ceil_mode=True,count_include_pad=False)':
        case(lambda: nn.AvgPool1d(3, 2, 1, ceil_mode=True, count_include_pad=False), (2, 3, 8), 506),
    'AvgPool1d(3,stride=2,padding=1)': case(lambda: nn.AvgPool1d(3, stride=2, padding=1), (2, 2, 7), 507),
    'AvgPool1d(2) unbatched': case(lambda: nn.AvgPool1d(2), (3, 7), 508),
    'AdaptiveAvgPool1d(3)': case(lambda: nn.AdaptiveAvgPool1d(3), (2, 3, 7), 509),
    'AdaptiveAvgPool1d(4) unbatched': case(lambda: nn.AdaptiveAvgPool1d(4), (2, 10), 510),
    'PixelShuffle(2)': case(lambda: nn.PixelShuffle(2), (2, 8, 2, 3), 511),
    'PixelShuffle(3) 5-d': case(lambda: nn.PixelShuffle(3), (2, 1, 9, 2, 2), 512),
    'PixelShuffle(2) unbatched': case(lambda: nn.PixelShuffle(2), (4, 1, 3), 513),
    'PixelUnshuffle(2)': case(lambda: nn.PixelUnshuffle(2), (1, 2, 4, 6), 514),
    'PixelUnshuffle(3) unbatched': case(lambda: nn.PixelUnshuffle(3), (1, 3, 6), 515),
    'ChannelShuffle(2)': case(lambda: nn.ChannelShuffle(2), (2, 4, 3), 516),
    'ChannelShuffle(3)': case(lambda: nn.ChannelShuffle(3), (1, 6, 2, 2), 517),
    'Unfold((2,3),dilation=2,padding=1,stride=(1,2))': case(lambda: nn.Unfold((2, 3), dilation=2, padding=1, stride=(1, 2)), (2, 2, 5, 6), 518),
    'Fold((4,5),2)': case(lambda: nn.Fold((4, 5), 2), (2, 8, 12), 519),
    'Fold(5,(2,3),padding=1,stride=2) unbatched': case(lambda: nn.Fold(5, (2, 3), padding=1, stride=2), (6, 9), 521),
}

torch.manual_seed(520)
xi = torch.randn(2, 3, 11)
mv, mi = F.max_pool1d(xi, 3, stride=2, padding=1, dilation=2, return_indices=True)
indices = {'x': values(xi), 'values': values(mv), 'indices': values(mi)}

reprs = {
    'MaxPool1d(3)': repr(nn.MaxPool1d(3)),
    'MaxPool1d(3,2,1,2,True,True)': repr(nn.MaxPool1d(3, 2, 1, 2, True, True)),
    'AvgPool1d(3)': repr(nn.AvgPool1d(3)),
    'AvgPool1d(3,2,1,True,False)': repr(nn.AvgPool1d(3, 2, 1, True, False)),
    'AdaptiveAvgPool1d(3)': repr(nn.AdaptiveAvgPool1d(3)),
    'ConvTranspose1d(2,4,3)': repr(nn.ConvTranspose1d(2, 4, 3)),
    'PixelShuffle(2)': repr(nn.PixelShuffle(2)),
    'PixelUnshuffle(3)': repr(nn.PixelUnshuffle(3)),
    'ChannelShuffle(2)': repr(nn.ChannelShuffle(2)),
    'Unfold(2)': repr(nn.Unfold(2)),
    'Fold(4,(2,2),1,0,1)': repr(nn.Fold(4, (2, 2), 1, 0, 1)),
}


def message(f):
    try:
        f()
    except RuntimeError as e:
        return str(e).split('\n')[0]
    raise AssertionError('no error')


x3 = torch.randn(2, 3, 5)
errors = {
    'max_pool1d 1-d input': message(lambda: F.max_pool1d(torch.randn(5), 2)),
    'max_pool1d kernel 0': message(lambda: F.max_pool1d(x3, 0)),
    'max_pool1d stride 0': message(lambda: F.max_pool1d(x3, 2, stride=0)),
    'max_pool1d padding > kernel/2': message(lambda: F.max_pool1d(x3, 2, padding=2)),
    'max_pool1d kernel > input': message(lambda: F.max_pool1d(x3.clone().requires_grad_(), 7)),
    'avg_pool1d 1-d input': message(lambda: F.avg_pool1d(torch.randn(5), 2)),
    'avg_pool1d kernel > input': message(lambda: F.avg_pool1d(x3, 7)),
    'avg_pool1d padding > kernel/2': message(lambda: F.avg_pool1d(x3, 3, padding=2)),
    'adaptive_avg_pool1d 1-d input': message(lambda: F.adaptive_avg_pool1d(torch.randn(5), 2)),
    'pixel_shuffle channels': message(lambda: F.pixel_shuffle(torch.randn(1, 5, 2, 2), 2)),
    'pixel_shuffle 2-d input': message(lambda: F.pixel_shuffle(torch.randn(5, 2), 2)),
    'pixel_shuffle factor 0': message(lambda: F.pixel_shuffle(torch.randn(1, 4, 2, 2), 0)),
    'pixel_unshuffle height': message(lambda: F.pixel_unshuffle(torch.randn(1, 1, 3, 4), 2)),
    'pixel_unshuffle width': message(lambda: F.pixel_unshuffle(torch.randn(1, 1, 4, 3), 2)),
    'pixel_unshuffle factor 0': message(lambda: F.pixel_unshuffle(torch.randn(1, 4, 2, 2), 0)),
    'channel_shuffle channels': message(lambda: F.channel_shuffle(torch.randn(1, 5, 2, 2), 2)),
    'channel_shuffle groups 0': message(lambda: F.channel_shuffle(torch.randn(1, 4, 2, 2), 0)),
    'channel_shuffle 1-d input': message(lambda: F.channel_shuffle(torch.randn(4), 2)),
    'conv_transpose1d 4-d input': message(lambda: F.conv_transpose1d(torch.randn(1, 2, 3, 3), torch.randn(2, 2, 3))),
    'conv_transpose1d channels': message(lambda: F.conv_transpose1d(torch.randn(1, 3, 5), torch.randn(2, 2, 3))),
}

write('nn_layers_shuffle_1d', {'layers': layers, 'indices': indices, 'reprs': reprs, 'errors': errors})
