// A short tour of the facade: `pnpm demo` from the repository root.
import * as torch from '../src/index';

const x = torch.arange(12, { dtype: 'float32' }).view(3, 4);
console.log('x =', String(x));
console.log('x.t() is a view with strides', x.t().stride(), 'and offset', x.t().storageOffset());
console.log('x.index(":", "1::2") =', String(x.index(':', '1::2')));
const w = torch.full([4, 2], 0.5);
console.log('x @ w =', String(x.matmul(w)));
console.log('softmax-ish row sums:', String(x.exp().sum(1, { keepdim: true })));
const [values, indices] = x.max(1);
console.log('max over dim 1:', String(values), String(indices));
console.log('int + float scalar promotes:', String(torch.tensor([1, 2, 3]).add(0.5)));
console.log('memory:', torch.memory.stats('cpu'));
