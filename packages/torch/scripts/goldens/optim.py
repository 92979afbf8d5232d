"""Goldens for torch.optim: parameter values after N steps from fixed start values and
fixed gradients (each step sets p.grad to the recorded gradient), for every optimizer
and option set the tests use, in float64 and float32; and the learning rates (and
momenta) every scheduler gives step by step.

PyTorch 1.13 differs from 2.x in one op order: Adam/AdamW/RMSprop(centered) update the
first moment with `mul_(beta).add_(g, alpha=1-beta)` where 2.x uses `lerp_(g, 1-beta)`;
torch-ts follows 2.x, so the float32 comparisons allow rounding-level differences."""
import contextlib
import io

import torch
from _common import values, write

N_STEPS = 6
torch.manual_seed(0)
start = [torch.randn(2, 3, dtype=torch.float64), torch.randn(3, dtype=torch.float64)]
grads = [[torch.randn(2, 3, dtype=torch.float64), torch.randn(3, dtype=torch.float64)] for _ in range(N_STEPS)]

CASES = [
    ('SGD', {'lr': 0.1}),
    ('SGD', {'lr': 0.1, 'momentum': 0.9}),
    ('SGD', {'lr': 0.1, 'momentum': 0.9, 'dampening': 0.1, 'weight_decay': 0.01}),
    ('SGD', {'lr': 0.05, 'momentum': 0.8, 'nesterov': True, 'weight_decay': 0.1}),
    ('SGD', {'lr': 0.1, 'momentum': 0.5, 'maximize': True}),
    ('Adam', {'lr': 0.01}),
    ('Adam', {'lr': 0.01, 'weight_decay': 0.1, 'amsgrad': True}),
    ('Adam', {'lr': 0.02, 'betas': (0.8, 0.9), 'eps': 1e-6, 'maximize': True}),
    ('AdamW', {'lr': 0.01}),
    ('AdamW', {'lr': 0.01, 'weight_decay': 0.1, 'amsgrad': True}),
    ('RMSprop', {'lr': 0.01}),
    ('RMSprop', {'lr': 0.01, 'momentum': 0.9, 'centered': True, 'weight_decay': 0.1}),
    ('RMSprop', {'lr': 0.01, 'alpha': 0.9, 'maximize': True}),
    ('Adagrad', {'lr': 0.1}),
    ('Adagrad', {'lr': 0.1, 'lr_decay': 0.01, 'weight_decay': 0.1, 'initial_accumulator_value': 0.5}),
]


def run(name, opts, dtype, groups=None):
    ps = [s.clone().to(dtype).requires_grad_(True) for s in start]
    params = ps if groups is None else groups(ps)
    opt = getattr(torch.optim, name)(params, **opts)
    for step in range(N_STEPS):
        for p, g in zip(ps, grads[step]):
            p.grad = g.to(dtype).clone()
        opt.step()
    return [values(p) for p in ps]


cases = []
for name, opts in CASES:
    cases.append({'optimizer': name, 'options': opts,
                  'float64': run(name, opts, torch.float64), 'float32': run(name, opts, torch.float32)})
groups_case = run('SGD', {'lr': 0.1, 'momentum': 0.9}, torch.float64,
                  groups=lambda ps: [{'params': [ps[0]]}, {'params': [ps[1]], 'lr': 0.5, 'momentum': 0.0}])

# ---- schedulers ----
def sched_run(make, n, opt_name='SGD', opt_kwargs=None, metrics=None, track=None):
    p = torch.zeros(1, requires_grad=True)
    opt = getattr(torch.optim, opt_name)([p], **(opt_kwargs or {'lr': 0.1, 'momentum': 0.9}))
    s = make(opt)
    lrs = [opt.param_groups[0]['lr']]
    moms = [opt.param_groups[0][track] if track == 'momentum' else opt.param_groups[0]['betas'][0]] if track else None
    for i in range(n):
        opt.step()
        if metrics is not None:
            s.step(metrics[i])
        else:
            s.step()
        lrs.append(opt.param_groups[0]['lr'])
        if track:
            moms.append(opt.param_groups[0][track] if track == 'momentum' else opt.param_groups[0]['betas'][0])
    out = {'lrs': lrs}
    if track:
        out['momenta'] = moms
    return out

S = torch.optim.lr_scheduler
metrics = [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 0.49]
scheds = {
    'StepLR(3,0.5)': sched_run(lambda o: S.StepLR(o, 3, gamma=0.5), 10),
    'MultiStepLR([2,5,5],0.1)': sched_run(lambda o: S.MultiStepLR(o, [2, 5, 5], 0.1), 8),
    'ExponentialLR(0.9)': sched_run(lambda o: S.ExponentialLR(o, 0.9), 8),
    'CosineAnnealingLR(5,0.01)': sched_run(lambda o: S.CosineAnnealingLR(o, 5, eta_min=0.01), 16),
    'LinearLR(0.25,4)': sched_run(lambda o: S.LinearLR(o, start_factor=0.25, total_iters=4), 7),
    'OneCycleLR(1.0,10)': sched_run(lambda o: S.OneCycleLR(o, 1.0, total_steps=10), 9, track='momentum'),
    'OneCycleLR(Adam,0.01,12,linear,threePhase)': sched_run(
        lambda o: S.OneCycleLR(o, 0.01, total_steps=12, anneal_strategy='linear', three_phase=True), 11,
        opt_name='Adam', opt_kwargs={'lr': 0.001}, track='betas'),
    'ReduceLROnPlateau(patience=2,factor=0.5,cooldown=1)': sched_run(
        lambda o: S.ReduceLROnPlateau(o, patience=2, factor=0.5, cooldown=1), len(metrics), metrics=metrics),
}

# ---- scheduler arguments: PyTorch's TypeErrors, and what verbose=True prints ----
def type_error(f):
    try:
        f()
    except TypeError as e:
        return str(e)
    raise AssertionError('no TypeError')


def sgd():
    return torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)


# (one positional too many: each signature's full positional list, then one more)
sched_errors = {
    'StepLR': (lambda: S.StepLR(sgd(), 3, 0.5, -1, False, 1), lambda: S.StepLR(sgd(), 3, gama=0.5)),
    'MultiStepLR': (lambda: S.MultiStepLR(sgd(), [2], 0.1, -1, False, 1), lambda: S.MultiStepLR(sgd(), [2], milestone=[3])),
    'ExponentialLR': (lambda: S.ExponentialLR(sgd(), 0.9, -1, False, 1), lambda: S.ExponentialLR(sgd(), 0.9, gama=0.5)),
    'CosineAnnealingLR': (lambda: S.CosineAnnealingLR(sgd(), 5, 0.0, -1, False, 1), lambda: S.CosineAnnealingLR(sgd(), 5, etamin=0.01)),
    'LinearLR': (lambda: S.LinearLR(sgd(), 0.5, 1.0, 5, -1, False, 1), lambda: S.LinearLR(sgd(), startFactr=0.5)),
    'OneCycleLR': (lambda: S.OneCycleLR(sgd(), 1.0, 10, None, None, 0.3, 'cos', True, 0.85, 0.95, 25.0, 1e4, False, -1, False, 1),
                   lambda: S.OneCycleLR(sgd(), 1.0, total_step=10)),
    'ReduceLROnPlateau': (lambda: S.ReduceLROnPlateau(sgd(), 'min', 0.1, 10, 1e-4, 'rel', 0, 0, 1e-8, False, 1),
                          lambda: S.ReduceLROnPlateau(sgd(), patiense=2)),
}
sched_errors = {k: {'tooMany': type_error(a), 'unknownKeyword': type_error(b)} for k, (a, b) in sched_errors.items()}


def printed(make, n, lr=0.1, metrics=None):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=lr, momentum=0.9)
        s = make(opt)
        for i in range(n):
            opt.step()
            s.step(*([] if metrics is None else [metrics[i]]))
    return out.getvalue().splitlines()


# (1.03125 and 0.515625 are exact ties at 5 digits: Python rounds them half to even)
sched_verbose = {
    'StepLR': printed(lambda o: S.StepLR(o, 2, 0.5, verbose=True), 4),
    'ExponentialLR(1.03125)': printed(lambda o: S.ExponentialLR(o, 0.5, verbose=True), 3, lr=1.03125),
    'OneCycleLR': printed(lambda o: S.OneCycleLR(o, 1.0, total_steps=5, verbose=True), 4),
    'ReduceLROnPlateau': printed(lambda o: S.ReduceLROnPlateau(o, patience=0, factor=0.5, verbose=True), 4, metrics=[1.0, 2.0, 3.0, 0.5]),
}

write('optim', {'start': [values(s) for s in start], 'grads': [[values(g) for g in gs] for gs in grads],
                'cases': cases, 'groups': groups_case, 'schedulers': scheds, 'plateauMetrics': metrics,
                'schedulerErrors': sched_errors, 'schedulerVerbose': sched_verbose})
