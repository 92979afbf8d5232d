"""Goldens for the nn layers that wrap torch.nn.functional: for each layer, built after
manual_seed (so its parameters are PyTorch's default initialisation), its output on a
fixed input, and the gradients of its parameters and input for the loss
sum(output * r) with a fixed r. Also BatchNorm running statistics after training steps,
losses as modules, and three SGD steps of a small CNN."""
import torch
import torch.nn as nn
from _common import values, write

def case(make, shape, seed, input_fn=None, train=True):
    torch.manual_seed(seed)
    m = make()
    m.train(train)
    x = input_fn() if input_fn else torch.randn(*shape)
    if x.is_floating_point():
        x.requires_grad_(True)
    y = m(x)
    r = torch.randn(y.shape)
    (y * r).sum().backward()
    out = {'x': values(x), 'y': values(y), 'r': values(r),
           'grads': {k: values(p.grad) for k, p in m.named_parameters() if p.grad is not None},
           'state': {k: values(v) for k, v in m.state_dict().items()}}
    if x.is_floating_point():
        out['xGrad'] = values(x.grad)
    return out

layers = {
    'Linear(4,3)': case(lambda: nn.Linear(4, 3), (5, 4), 100),
    'Conv1d(2,3,3,stride=2,padding=1)': case(lambda: nn.Conv1d(2, 3, 3, stride=2, padding=1), (2, 2, 7), 101),
    'Conv2d(2,4,3,padding=1)': case(lambda: nn.Conv2d(2, 4, 3, padding=1), (2, 2, 5, 5), 102),
    'Conv2d(4,4,(3,2),stride=2,groups=2,bias=False)': case(lambda: nn.Conv2d(4, 4, (3, 2), stride=2, groups=2, bias=False), (1, 4, 6, 5), 103),
    'ConvTranspose2d(3,2,3,stride=2,padding=1,output_padding=1)': case(lambda: nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1), (2, 3, 3, 4), 104),
    'MaxPool2d(2)': case(lambda: nn.MaxPool2d(2), (2, 3, 4, 6), 105),
    'MaxPool2d(3,stride=2,padding=1)': case(lambda: nn.MaxPool2d(3, stride=2, padding=1), (1, 2, 7, 7), 106),
    'AvgPool2d(2)': case(lambda: nn.AvgPool2d(2), (2, 3, 4, 6), 107),
    'AdaptiveAvgPool2d((2,3))': case(lambda: nn.AdaptiveAvgPool2d((2, 3)), (2, 2, 5, 7), 108),
    'BatchNorm1d(3)': case(lambda: nn.BatchNorm1d(3), (6, 3), 109),
    'BatchNorm1d(3) on (N,C,L)': case(lambda: nn.BatchNorm1d(3), (4, 3, 5), 110),
    'BatchNorm2d(3)': case(lambda: nn.BatchNorm2d(3), (2, 3, 4, 4), 111),
    'BatchNorm2d(3,momentum=None)': case(lambda: nn.BatchNorm2d(3, momentum=None), (2, 3, 2, 2), 112),
    'BatchNorm2d(3) eval': case(lambda: nn.BatchNorm2d(3), (2, 3, 2, 2), 113, train=False),
    'LayerNorm(5)': case(lambda: nn.LayerNorm(5), (3, 5), 114),
    'LayerNorm((2,3))': case(lambda: nn.LayerNorm((2, 3)), (4, 2, 3), 115),
    'GroupNorm(2,4)': case(lambda: nn.GroupNorm(2, 4), (3, 4, 3, 2), 116),
    'Embedding(6,3,padding_idx=2)': case(lambda: nn.Embedding(6, 3, padding_idx=2), None, 117,
                                         input_fn=lambda: torch.tensor([[0, 2, 5], [2, 1, 1]])),
    'Softmax(1)': case(lambda: nn.Softmax(dim=1), (3, 4), 118),
    'LogSoftmax(-1)': case(lambda: nn.LogSoftmax(dim=-1), (3, 4), 119),
    'ReLU': case(lambda: nn.ReLU(), (3, 4), 120),
    'GELU': case(lambda: nn.GELU(), (3, 4), 121),
    'GELU(tanh)': case(lambda: nn.GELU(approximate='tanh'), (3, 4), 122),
    'SiLU': case(lambda: nn.SiLU(), (3, 4), 123),
    'Tanh': case(lambda: nn.Tanh(), (3, 4), 124),
    'Sigmoid': case(lambda: nn.Sigmoid(), (3, 4), 125),
    'LeakyReLU(0.2)': case(lambda: nn.LeakyReLU(0.2), (3, 4), 126),
    'ELU(0.5)': case(lambda: nn.ELU(0.5), (3, 4), 127),
    'Dropout eval': case(lambda: nn.Dropout(0.5), (3, 4), 128, train=False),
    'Flatten': case(lambda: nn.Flatten(), (2, 3, 2), 129),
    'Unflatten(1,(2,3))': case(lambda: nn.Unflatten(1, (2, 3)), (2, 6), 130),
}

# BatchNorm running statistics over several training steps, then eval output.
torch.manual_seed(200)
bn = nn.BatchNorm2d(2, momentum=0.3)
xs = [torch.randn(3, 2, 2, 2) for _ in range(3)]
for x in xs:
    bn(x)
bn.eval()
xe = torch.randn(1, 2, 2, 2)
bn_steps = {'xs': [values(x) for x in xs], 'state': {k: values(v) for k, v in bn.state_dict().items()},
            'xe': values(xe), 'ye': values(bn(xe))}

# Losses as modules.
torch.manual_seed(300)
logits = torch.randn(4, 3)
target = torch.tensor([0, 2, 1, 2])
pred = torch.randn(4, 3)
tgt = torch.randn(4, 3)
prob = torch.rand(4, 3)
bin_t = (torch.rand(4, 3) > 0.5).float()
w = torch.tensor([1.0, 2.0, 0.5])
losses = {
    'CrossEntropyLoss': nn.CrossEntropyLoss()(logits, target).item(),
    'CrossEntropyLoss(weight,labelSmoothing=0.1)': nn.CrossEntropyLoss(weight=w, label_smoothing=0.1)(logits, target).item(),
    'CrossEntropyLoss(sum,ignoreIndex=2)': nn.CrossEntropyLoss(reduction='sum', ignore_index=2)(logits, target).item(),
    'NLLLoss': nn.NLLLoss()(torch.log_softmax(logits, 1), target).item(),
    'MSELoss': nn.MSELoss()(pred, tgt).item(),
    'MSELoss(sum)': nn.MSELoss(reduction='sum')(pred, tgt).item(),
    'L1Loss': nn.L1Loss()(pred, tgt).item(),
    'SmoothL1Loss(beta=0.5)': nn.SmoothL1Loss(beta=0.5)(pred, tgt).item(),
    'BCELoss': nn.BCELoss()(prob, bin_t).item(),
    'BCEWithLogitsLoss(posWeight)': nn.BCEWithLogitsLoss(pos_weight=w)(pred, bin_t).item(),
}
loss_inputs = {'logits': values(logits), 'target': values(target), 'pred': values(pred), 'tgt': values(tgt),
               'prob': values(prob), 'binT': values(bin_t), 'w': values(w)}

# A small CNN, three SGD steps.
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(4 * 3 * 3, 5))

    def forward(self, x):
        return self.head(self.features(x))

torch.manual_seed(400)
net = CNN()
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
data = torch.randn(8, 1, 6, 6)
labels = torch.tensor([0, 1, 2, 3, 4, 0, 1, 2])
loss_fn = nn.CrossEntropyLoss()
train_losses = []
for _ in range(3):
    opt.zero_grad()
    loss = loss_fn(net(data), labels)
    loss.backward()
    opt.step()
    train_losses.append(loss.item())
cnn = {'data': values(data), 'labels': values(labels), 'losses': train_losses,
       'state': {k: values(v) for k, v in net.state_dict().items()}}

write('nn_layers', {'layers': layers, 'bnSteps': bn_steps, 'losses': losses, 'lossInputs': loss_inputs, 'cnn': cnn})
