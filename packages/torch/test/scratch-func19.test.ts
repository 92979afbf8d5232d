import { it } from 'vitest';
import * as torch from '../src';
it('scratch', () => {
  const x = torch.randn([3, 4]);
  const cases: [string, (a: any) => any][] = [
    ['nonzero', (a) => torch.nonzero(a.gt(0))],
    ['masked_select', (a) => torch.maskedSelect(a, a.gt(0))],
    ['unique', (a) => torch.unique(a)],
    ['as_strided', (a) => a.asStrided([2, 2], [1, 2])],
    ['add_ view', (a) => a.slice(0, 0, 2).add_(1)],
    ['out', (a) => torch.add(a, 1, { out: torch.empty([4]) })],
    ['out2', (a) => torch.sin(a, { out: a })],
    ['convT', (a) => torch.nn.functional.convTranspose1d(a.reshape([1, 1, 4]), torch.randn([1, 2, 3]))],
  ];
  for (const [n, f] of cases) {
    try {
      const r = torch.func.vmap(f)(x.clone());
      console.log(n, 'ok', r.shape);
    } catch (e) {
      console.log(n, 'ERR', (e as Error).constructor.name, (e as Error).message.slice(0, 200));
    }
  }
});
