"""PyTorch 1.13's forward-mode tangents of linalg.svd (with vectors), linalg.pinv,
linalg.eigvals and masked_fill with a 0-d tensor value, and linalg.det's gradient at exactly singular
matrices, for test/linalg-jvp.test.ts.

Run with /usr/bin/python3 (PyTorch 1.13): writes test/goldens/linalg_jvp.json.
Tensors are {shape, dtype, values}; a complex tensor's values are its view_as_real pairs.
Inputs are deterministic: wave(shape, s) = sin(0.37 k^2 + 1.37 k + s) for k = 0..numel-1
(the k^2 term: a plain sinusoid of k makes every matrix of rank 2); a complex one has real
parts wave(shape, s) and imaginary parts wave(shape, s + 0.5).
"""
import torch
import torch.autograd.forward_ad as fwAD

from _common import write

D = torch.float64
C = torch.complex128


def enc(t):
    t = t.detach().resolve_conj()
    v = torch.view_as_real(t) if t.is_complex() else t
    return {'shape': list(t.shape), 'dtype': str(t.dtype).replace('torch.', ''), 'values': v.reshape(-1).tolist()}


def wave(shape, s, dtype=D):
    n = 1
    for d in shape:
        n *= d
    k = torch.arange(n, dtype=D)
    re = torch.sin(k * k * 0.37 + k * 1.37 + s).reshape(shape)
    if dtype == C:
        return torch.complex(re, torch.sin(k * k * 0.37 + k * 1.37 + s + 0.5).reshape(shape))
    return re


def jvp(f, x, t):
    with fwAD.dual_level():
        out = f(fwAD.make_dual(x, t))
        outs = out if isinstance(out, tuple) else (out,)
        return [fwAD.unpack_dual(o).primal for o in outs], [fwAD.unpack_dual(o).tangent for o in outs]


out = {'svd': [], 'pinv': [], 'eigvals': [], 'masked_fill': [], 'det_singular': []}

for dtype in (D, C):
    for shape in ([3, 3], [4, 2], [2, 4], [2, 3, 2]):
        for full in (False, True):
            A = wave(shape, 0.1, dtype)
            dA = wave(shape, 2.3, dtype)
            (U, S, Vh), (dU, dS, dVh) = jvp(lambda a: tuple(torch.linalg.svd(a, full_matrices=full)), A, dA)
            out['svd'].append({'A': enc(A), 'dA': enc(dA), 'full_matrices': full, 'U': enc(U), 'S': enc(S), 'Vh': enc(Vh), 'dU': enc(dU), 'dS': enc(dS), 'dVh': enc(dVh)})

for dtype in (D, C):
    for shape in ([3, 3], [4, 2], [2, 4], [2, 2, 3]):
        A = wave(shape, 0.7, dtype)
        dA = wave(shape, -1.1, dtype)
        (P,), (dP,) = jvp(torch.linalg.pinv, A, dA)
        out['pinv'].append({'A': enc(A), 'dA': enc(dA), 'hermitian': False, 'pinv': enc(P), 'dpinv': enc(dP)})
    # hermitian=True on a Hermitian A and a Hermitian tangent
    A = wave([3, 3], 0.4, dtype)
    A = A + A.mH
    dA = wave([3, 3], 1.9, dtype)
    dA = dA + dA.mH
    (P,), (dP,) = jvp(lambda a: torch.linalg.pinv(a, hermitian=True), A, dA)
    out['pinv'].append({'A': enc(A), 'dA': enc(dA), 'hermitian': True, 'pinv': enc(P), 'dpinv': enc(dP)})

# eigvals of a dual tensor (1.13 computes the eigenvectors for it: linalg_eig_jvp's dL)
for dtype in (D, C):
    A = wave([3, 3], 0.5, dtype)
    dA = wave([3, 3], -0.8, dtype)
    (L,), (dL,) = jvp(torch.linalg.eigvals, A, dA)
    out['eigvals'].append({'A': enc(A), 'dA': enc(dA), 'L': enc(L), 'dL': enc(dL)})

# (float64 only: torch-ts has no complex masked_fill_.Tensor kernel)
for dtype in (D,):
    x = wave([2, 3], 0.2, dtype)
    xt = wave([2, 3], 1.2, dtype)
    mask = torch.tensor([[True, False, True], [False, False, True]])
    value = wave([], 0.9, dtype)
    vt = wave([], -0.4, dtype)
    with fwAD.dual_level():
        y = fwAD.make_dual(x, xt).masked_fill(mask, fwAD.make_dual(value, vt))
        t_both = fwAD.unpack_dual(y).tangent
        y = x.masked_fill(mask, fwAD.make_dual(value, vt))
        t_value = fwAD.unpack_dual(y).tangent
        y = fwAD.make_dual(x, xt).masked_fill(mask, value)
        t_self = fwAD.unpack_dual(y).tangent
    out['masked_fill'].append({'x': enc(x), 'xt': enc(xt), 'mask': mask.reshape(-1).tolist(), 'value': enc(value), 'vt': enc(vt),
                               'both': enc(t_both), 'value_only': enc(t_value), 'self_only': enc(t_self)})

# exactly singular matrices (the LU meets an exact zero pivot): rank n - 1 and rank n - 2,
# real and complex, and a batch of a singular and a regular matrix. The gradient is 1.13's
# create_graph one (its SVD formula at |det| < 100 eps); its first-order path is recorded
# too: it differs at rank n - 1 (Note [The determinant's derivative]).
singular = {
    'real_rank2': torch.tensor([[1., 2., 3.], [2., 4., 6.], [1., 0., -1.]], dtype=D),
    'real_rank1': torch.tensor([[1., -2., 3.], [2., -4., 6.], [-1., 2., -3.]], dtype=D),
    'complex_rank2': torch.tensor([[1 + 2j, 2 - 1j, 1j], [2 + 4j, 4 - 2j, 2j], [1, 3j, -1 + 1j]], dtype=C),
    'complex_rank1': torch.tensor([[1 + 1j, 2, -1j], [2 + 2j, 4, -2j], [-1j + 1, -2j, -1]], dtype=C) * torch.tensor([[1], [1], [0]], dtype=C)
    + torch.tensor([[0, 0, 0], [0, 0, 0], [1 + 1j, 2, -1j]], dtype=C) * (1 - 2j),
    'complex_batch': torch.stack([torch.tensor([[1 + 2j, 2 - 1j, 1j], [2 + 4j, 4 - 2j, 2j], [1, 3j, -1 + 1j]], dtype=C),
                                  torch.tensor([[2, 1j, 0], [1, 3, -1j], [1j, 0, 1 + 1j]], dtype=C)]),
}
for label, A in singular.items():
    A = A.clone().requires_grad_()
    d = torch.linalg.det(A)
    g = wave(list(d.shape), 0.3, d.dtype)
    (gA,) = torch.autograd.grad(d, A, g, create_graph=True)
    (gA1,) = torch.autograd.grad(torch.linalg.det(A), A, g)
    out['det_singular'].append({'label': label, 'A': enc(A), 'grad': enc(g), 'det': enc(d), 'gA': enc(gA), 'gA_first_order': enc(gA1)})

write('linalg_jvp', out)
