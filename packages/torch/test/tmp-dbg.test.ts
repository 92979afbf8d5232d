import { it } from 'vitest';
import * as torch from '@torch-ts/torch';
it('dbg', () => {
  const fa = torch.autograd.forwardAd;
  const A = torch.tensor([[2, 1, 0.5], [0.3, 3, 0.2], [0.1, 0.4, 4]], { dtype: 'float64' });
  const S = A.add(A.mT);
  const dA = torch.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]], { dtype: 'float64' });
  const cases: Record<string, () => unknown> = {
    eigvals: () => torch.linalg.eigvals(fa.makeDual(A, dA)),
    eig: () => torch.linalg.eig(fa.makeDual(A, dA))[0],
    eigvalsh: () => torch.linalg.eigvalsh(fa.makeDual(S, dA.add(dA.mT))),
    svdvals: () => torch.linalg.svdvals(fa.makeDual(A, dA)),
    matrixRank: () => torch.linalg.matrixNorm(fa.makeDual(A, dA), 2),
    cond: () => torch.linalg.cond(fa.makeDual(A, dA)),
    qrR: () => torch.linalg.qr(fa.makeDual(A, dA), 'r')[1],
    lstsq: () => torch.linalg.lstsq(fa.makeDual(A, dA), A)[0],
    matrixExp: () => torch.linalg.matrixExp(fa.makeDual(A, dA)),
    householder: () => torch.linalg.householderProduct(fa.makeDual(A, dA), torch.tensor([0.5, 0.2], { dtype: 'float64' })),
    geqrf: () => torch.geqrf(fa.makeDual(A, dA))[0],
    slogdet: () => torch.linalg.slogdet(fa.makeDual(A, dA))[1],
    lu: () => torch.linalg.lu(fa.makeDual(A, dA))[2],
    cholesky: () => torch.linalg.cholesky(fa.makeDual(S.add(torch.eye(3, { dtype: 'float64' }).mul(5)), dA.add(dA.mT))),
  };
  for (const [k, f] of Object.entries(cases)) {
    try {
      fa.dualLevel(() => { const r = f() as torch.Tensor; console.log('OK', k, JSON.stringify(fa.unpackDual(r).tangent?.tolist())); });
    } catch (e) { console.log('ERR', k, (e as Error).message.slice(0, 200)); }
  }
});
