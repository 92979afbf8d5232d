/**
 * Micro-benchmarks of the hot kernels: `npx vitest bench --run` in packages/kernels-cpu.
 * Kept out of `vitest run` (the test include is *.test.ts); numbers depend on the machine.
 */
import { CPU, TensorImpl, type DType } from '@torch-ts/core';
import { bench, describe } from 'vitest';
import { cpuImpls } from '../src/index';

function filled(dtype: DType, sizes: number[], seed: number): TensorImpl {
  const t = TensorImpl.empty('bench', sizes, dtype, CPU);
  const a = t.storage.typed(Float32Array);
  for (let i = 0; i < a.length; i++) a[i] = ((i * 2654435761 + seed) % 1000) / 100 - 5;
  return t;
}

const N = 4 * 1024 * 1024;
const a = filled('float32', [N], 1);
const b = filled('float32', [N], 2);
const out = TensorImpl.empty('bench', [N], 'float32', CPU);
const scalar = filled('float32', [], 3);
const scalarView = scalar.view([N], [0], 0);
const at = filled('float32', [2048, 2048], 4);
const atT = at.view([2048, 2048], [1, 2048], 0);
const out2 = TensorImpl.empty('bench', [2048, 2048], 'float32', CPU);

describe('pointwise float32, 4M elements', () => {
  bench('add contiguous', () => cpuImpls.add(out, a, b, 1));
  bench('mul by a broadcast scalar', () => cpuImpls.mul(out, a, scalarView));
  bench('add transposed + contiguous', () => cpuImpls.add(out2, atT, at, 1));
  bench('exp', () => cpuImpls.exp(out, a));
  bench('sum (all)', () => cpuImpls.sum(TensorImpl.empty('bench', [1], 'float32', CPU), a, [0]));
});

const m1 = filled('float32', [512, 512], 5);
const m2 = filled('float32', [512, 512], 6);
const mo = TensorImpl.empty('bench', [512, 512], 'float32', CPU);

describe('mm float32 512x512x512', () => {
  bench('mm', () => cpuImpls.mm(mo, m1, m2), { iterations: 5 });
  bench('mm, b transposed', () => cpuImpls.mm(mo, m1, m2.view([512, 512], [1, 512], 0)), { iterations: 5 });
});
