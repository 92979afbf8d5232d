"""Goldens for complex64 torch.linalg.eig in a batch (goldens/linalg_eig_complex_batch.json),
PyTorch 1.13's CPU (LAPACK's cgeev, which iterates in single precision).

One batch of 70 random complex64 6 x 6 matrices (more than one WebGPU workgroup of 64):
`a` (flat (real, imag) pairs, [70, 6, 6]), `L` (the eigenvalues as flat pairs in cgeev's
order, [70, 6]). The WebGPU kernel follows cgeev's steps in float32, so its eigenvalues
come in this order (test/linalg-eig-complex-webgpu.test.ts); the CPU kernel iterates in
doubles (zgeev's steps), whose order may differ where float32's rounding changes a
deflation.
"""
import torch

COMPACT = True


def pairs(z):
    return torch.view_as_real(z.resolve_conj()).reshape(-1).tolist()


def make():
    g = torch.Generator().manual_seed(2026)
    a = torch.complex(torch.randn(70, 6, 6, generator=g), torch.randn(70, 6, 6, generator=g))
    L = torch.linalg.eigvals(a)
    return {"batch": [{"shape": list(a.shape), "a": pairs(a), "L": pairs(L)}]}
