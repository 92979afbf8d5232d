import { it } from 'vitest';
import * as torch from '@torch-ts/torch';
const { forwardAd: fa } = torch.autograd;
it('smoke', () => {
  fa.dualLevel(() => {
    const x = torch.tensor([1, 2, 3], { dtype: 'float64' });
    const v = torch.tensor([1, 0, 0.5], { dtype: 'float64' });
    const d = fa.makeDual(x, v);
    const y = d.sin().mul(d).sum();
    console.log(fa.unpackDual(y).tangent?.tolist());
    const m = torch.tensor([[1, 2], [3, 4]], { dtype: 'float64' });
    const dm = fa.makeDual(m, torch.ones([2, 2], { dtype: 'float64' }));
    const r = dm.t().matmul(dm).softmax(1);
    console.log(fa.unpackDual(r).tangent?.tolist(), fa.unpackDual(dm.t()).tangent?.tolist());
    const b = torch.zeros([3], { dtype: 'float64' });
    b.index('0:2').mul_(1).add_(fa.makeDual(torch.ones([2], {dtype:'float64'}), torch.tensor([5, 6], {dtype:'float64'})));
    console.log(fa.unpackDual(b).tangent?.tolist());
  });
});
