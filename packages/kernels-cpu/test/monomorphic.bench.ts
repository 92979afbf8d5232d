/**
 * Note [Monomorphic loops] in practice: every dtype runs through the binary, unary,
 * comparison and copy impls first, and float32 add must stay as fast as in a fresh process
 * (`npx vitest bench --run test/monomorphic.bench.ts`, compare with kernels.bench.ts).
 */
import { CPU, DTYPES, TensorImpl, isFloatingType } from '@torch-ts/core';
import { bench, describe } from 'vitest';
import { cpuImpls } from '../src/index';

for (const d of DTYPES) {
  const x = TensorImpl.empty('warm', [3000], d, CPU);
  const y = TensorImpl.empty('warm', [3000], d, CPU);
  const mask = TensorImpl.empty('warm', [3000], 'bool', CPU);
  const f = TensorImpl.empty('warm', [3000], 'float32', CPU);
  cpuImpls.fill(x, 3);
  cpuImpls.fill(y, 1);
  for (let r = 0; r < 50; r++) {
    cpuImpls.add(x, x, y, 1);
    cpuImpls.mul(x, x, y);
    cpuImpls.maximum(x, x, y);
    cpuImpls.eq(mask, x, y);
    cpuImpls.copy(f, x);
    if (d !== 'bool') cpuImpls.abs(x, y);
    if (isFloatingType(d)) cpuImpls.exp(x, y);
  }
}

const N = 4 * 1024 * 1024;
const a = TensorImpl.empty('bench', [N], 'float32', CPU);
const b = TensorImpl.empty('bench', [N], 'float32', CPU);
const o = TensorImpl.empty('bench', [N], 'float32', CPU);
describe('after every dtype went through the impls', () => {
  bench('add float32 4M contiguous', () => cpuImpls.add(o, a, b, 1));
});
