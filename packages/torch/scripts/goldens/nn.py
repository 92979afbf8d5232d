"""Goldens for torch.nn: default initialisation after manual_seed, nn.init, module reprs,
state_dict key order, forward values of the layers whose ops exist, clip_grad_norm_."""
import math

import torch
import torch.nn as nn
from _common import values, write

torch.set_default_dtype(torch.float32)
out = {}

# ---- default initialisation (kaiming-uniform a=sqrt(5), bias U(+-1/sqrt(fan_in)), ...) ----
inits = {}
torch.manual_seed(0)
m = nn.Linear(3, 4)
inits['Linear(3,4)'] = {'weight': values(m.weight), 'bias': values(m.bias)}
torch.manual_seed(1)
m = nn.Linear(5, 2, bias=False, dtype=torch.float64)
inits['Linear(5,2,bias=False,float64)'] = {'weight': values(m.weight)}
torch.manual_seed(2)
m = nn.Conv2d(2, 3, 3)
inits['Conv2d(2,3,3)'] = {'weight': values(m.weight), 'bias': values(m.bias)}
torch.manual_seed(3)
m = nn.Conv1d(4, 2, 2, groups=2)
inits['Conv1d(4,2,2,groups=2)'] = {'weight': values(m.weight), 'bias': values(m.bias)}
torch.manual_seed(4)
m = nn.ConvTranspose2d(2, 4, (2, 3), stride=2)
inits['ConvTranspose2d(2,4,(2,3),stride=2)'] = {'weight': values(m.weight), 'bias': values(m.bias)}
torch.manual_seed(5)
m = nn.Bilinear(2, 3, 2)
inits['Bilinear(2,3,2)'] = {'weight': values(m.weight), 'bias': values(m.bias)}
torch.manual_seed(6)
m = nn.Embedding(5, 3, padding_idx=1)
inits['Embedding(5,3,padding_idx=1)'] = {'weight': values(m.weight)}
torch.manual_seed(7)
m = nn.BatchNorm2d(3)
inits['BatchNorm2d(3)'] = {k: values(v) for k, v in m.state_dict().items()}
out['inits'] = inits

# ---- nn.init ----
fns = {}
def init_case(name, shape, fn, seed, dtype=torch.float32):
    torch.manual_seed(seed)
    t = torch.empty(shape, dtype=dtype)
    fn(t)
    fns[name] = values(t)
init_case('uniform_(-2,3)', [3, 4], lambda t: nn.init.uniform_(t, -2, 3), 10)
init_case('normal_(1,0.5)', [3, 5], lambda t: nn.init.normal_(t, 1.0, 0.5), 11)
init_case('normal_(0,1) n=20 f64', [20], lambda t: nn.init.normal_(t), 11, torch.float64)
init_case('constant_(0.25)', [2, 2], lambda t: nn.init.constant_(t, 0.25), 12)
init_case('zeros_', [2, 3], nn.init.zeros_, 12)
init_case('ones_', [3], nn.init.ones_, 12)
init_case('xavierUniform_', [4, 6], nn.init.xavier_uniform_, 13)
init_case('xavierUniform_(gain=relu)', [3, 2, 2, 2], lambda t: nn.init.xavier_uniform_(t, gain=nn.init.calculate_gain('relu')), 14)
init_case('xavierNormal_', [5, 3], nn.init.xavier_normal_, 15)
init_case('kaimingUniform_', [4, 3], nn.init.kaiming_uniform_, 16)
init_case('kaimingUniform_(a=sqrt5)', [4, 3, 2], lambda t: nn.init.kaiming_uniform_(t, a=math.sqrt(5)), 17)
init_case('kaimingNormal_(fan_out,relu)', [6, 2, 3], lambda t: nn.init.kaiming_normal_(t, mode='fan_out', nonlinearity='relu'), 18)
init_case('kaimingNormal_', [20, 4], nn.init.kaiming_normal_, 19)
out['init'] = fns
out['gain'] = {
    'linear': nn.init.calculate_gain('linear'),
    'conv2d': nn.init.calculate_gain('conv2d'),
    'sigmoid': nn.init.calculate_gain('sigmoid'),
    'tanh': nn.init.calculate_gain('tanh'),
    'relu': nn.init.calculate_gain('relu'),
    'leaky_relu': nn.init.calculate_gain('leaky_relu'),
    'leaky_relu(0.2)': nn.init.calculate_gain('leaky_relu', 0.2),
    'selu': nn.init.calculate_gain('selu'),
}

# ---- reprs ----
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1))
        self.conv = nn.Conv2d(1, 2, 3)
        self.register_buffer('steps', torch.zeros(1))
        self.bn = nn.BatchNorm2d(2)
        self.register_buffer('tmp', torch.zeros(1), persistent=False)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(8, 3), nn.ReLU())

    def forward(self, x):
        return self.head(self.bn(self.conv(x))) * self.scale

reprs = {
    'Linear(3,4)': repr(nn.Linear(3, 4)),
    'Linear(3,4,bias=False)': repr(nn.Linear(3, 4, bias=False)),
    'Bilinear(2,3,4)': repr(nn.Bilinear(2, 3, 4)),
    'Identity': repr(nn.Identity()),
    'Flatten': repr(nn.Flatten()),
    'Unflatten(1,(2,5))': repr(nn.Unflatten(1, (2, 5))),
    'ReLU': repr(nn.ReLU()),
    'ReLU(inplace)': repr(nn.ReLU(inplace=True)),
    'GELU': repr(nn.GELU()),
    'GELU(tanh)': repr(nn.GELU(approximate='tanh')),
    'SiLU': repr(nn.SiLU()),
    'Tanh': repr(nn.Tanh()),
    'Sigmoid': repr(nn.Sigmoid()),
    'LeakyReLU': repr(nn.LeakyReLU()),
    'LeakyReLU(0.2,inplace)': repr(nn.LeakyReLU(0.2, inplace=True)),
    'ELU': repr(nn.ELU()),
    'ELU(2.0)': repr(nn.ELU(2.0)),  # JS numbers have no int/float split: alpha prints as a float
    'Softmax(1)': repr(nn.Softmax(dim=1)),
    'LogSoftmax(-1)': repr(nn.LogSoftmax(dim=-1)),
    'Dropout': repr(nn.Dropout()),
    'Dropout(0.25)': repr(nn.Dropout(0.25)),
    'Conv2d(1,8,3)': repr(nn.Conv2d(1, 8, 3)),
    'Conv2d(4,8,(3,5),stride=2,padding=1,dilation=2,groups=2,bias=False)': repr(nn.Conv2d(4, 8, (3, 5), stride=2, padding=1, dilation=2, groups=2, bias=False)),
    'Conv2d(2,2,3,padding=same)': repr(nn.Conv2d(2, 2, 3, padding='same')),
    'Conv1d(4,2,2)': repr(nn.Conv1d(4, 2, 2)),
    'ConvTranspose2d(2,4,3,stride=2,outputPadding=1)': repr(nn.ConvTranspose2d(2, 4, 3, stride=2, output_padding=1)),
    'MaxPool2d(2)': repr(nn.MaxPool2d(2)),
    'MaxPool2d(3,stride=1,padding=1)': repr(nn.MaxPool2d(3, stride=1, padding=1)),
    'AvgPool2d(2)': repr(nn.AvgPool2d(2)),
    'AdaptiveAvgPool2d((1,1))': repr(nn.AdaptiveAvgPool2d((1, 1))),
    'AdaptiveAvgPool2d(3)': repr(nn.AdaptiveAvgPool2d(3)),
    'BatchNorm1d(4)': repr(nn.BatchNorm1d(4)),
    'BatchNorm2d(3,momentum=None,affine=False)': repr(nn.BatchNorm2d(3, momentum=None, affine=False)),
    'LayerNorm(4)': repr(nn.LayerNorm(4)),
    'LayerNorm((2,3),eps=1e-6)': repr(nn.LayerNorm((2, 3), eps=1e-6)),
    'GroupNorm(2,4)': repr(nn.GroupNorm(2, 4)),
    'Embedding(10,3)': repr(nn.Embedding(10, 3)),
    'Embedding(10,3,padding_idx=0)': repr(nn.Embedding(10, 3, padding_idx=0)),
    'CrossEntropyLoss': repr(nn.CrossEntropyLoss()),
    'MSELoss': repr(nn.MSELoss()),
    'Sequential': repr(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 1), nn.Sigmoid()))),
    'ModuleList': repr(nn.ModuleList([nn.Linear(1, 1), nn.Tanh()])),
    'ModuleDict': repr(nn.ModuleDict({'a': nn.ReLU(), 'b': nn.Linear(2, 2)})),
    'Net': repr(Net()),
}
out['reprs'] = reprs

net = Net()
out['net'] = {
    'stateDictKeys': list(net.state_dict().keys()),
    'namedParameters': [k for k, _ in net.named_parameters()],
    'namedBuffers': [k for k, _ in net.named_buffers()],
    'namedModules': [k for k, _ in net.named_modules()],
    'children': [type(c).__name__ for c in net.children()],
}
try:
    net.load_state_dict({'scale': torch.ones(1), 'extra': torch.ones(1)})
except RuntimeError as e:
    out['net']['loadError'] = str(e)
try:
    nn.Linear(2, 3).load_state_dict({'weight': torch.ones(3, 3), 'bias': torch.ones(3)})
except RuntimeError as e:
    out['linearSizeMismatch'] = str(e)

# ---- forward values of layers whose ops exist in torch-ts now ----
fw = {}
torch.manual_seed(20)
lin = nn.Linear(4, 3)
x = torch.randn(5, 4)
fw['Linear(4,3)'] = {'x': values(x), 'y': values(lin(x))}
torch.manual_seed(21)
bil = nn.Bilinear(2, 3, 2)
x1 = torch.randn(4, 2)
x2 = torch.randn(4, 3)
fw['Bilinear(2,3,2)'] = {'x1': values(x1), 'x2': values(x2), 'y': values(bil(x1, x2))}
torch.manual_seed(22)
seq = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2), nn.Sigmoid())
x = torch.randn(2, 3)
fw['Sequential(Linear,Tanh,Linear,Sigmoid)'] = {'x': values(x), 'y': values(seq(x))}
out['forward'] = fw

# ---- clip_grad_norm_ / clip_grad_value_ ----
clip = {}
for norm_type in [2.0, 1.0, 3.0, math.inf]:
    a = torch.tensor([[1.5, -2.0], [0.5, 4.0]], requires_grad=True)
    b = torch.tensor([3.0, -1.0, 0.25], requires_grad=True)
    a.grad = torch.tensor([[1.0, -2.0], [3.0, 0.5]])
    b.grad = torch.tensor([-4.0, 2.0, 1.0])
    total = nn.utils.clip_grad_norm_([a, b], 2.5, norm_type=norm_type)
    clip[str(norm_type)] = {'total': total.item(), 'ga': values(a.grad), 'gb': values(b.grad)}
a = torch.tensor([1.0, 2.0], requires_grad=True)
a.grad = torch.tensor([0.1, 0.2])
clip['noclip'] = {'total': nn.utils.clip_grad_norm_([a], 10.0).item(), 'ga': values(a.grad)}
out['clipGradNorm'] = clip
write('nn', out)
