/**
 * torch.linalg on complex inputs (core's Note [Complex linear solves by the real
 * embedding]): linalg.solve (left and right, vector right-hand sides, broadcast batches) and
 * linalg.inv against PyTorch 1.13 (goldens/linalg_complex.json), the gradients of a real
 * loss through them against PyTorch's, and gradcheck / gradgradcheck through view_as_real.
 * The same values on WebGPU (complex64). Then the norms (vector_norm; matrix_norm 'fro', 1,
 * inf: the moduli's), matrix_power (negative powers through the complex inverse),
 * multi_dot and vecdot (x's conjugate times y) of complex matrices, values and gradients against PyTorch's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

vi.setConfig({ testTimeout: 120_000 });

interface Pairs {
  shape: number[];
  values: number[];
}
interface Case {
  id: string;
  op: 'solve' | 'inv';
  dtype: 'complex64' | 'complex128';
  left: boolean;
  A: Pairs;
  B?: Pairs;
  expected: Pairs;
  weights?: number[];
  grads?: number[][];
}
interface Other {
  id: string;
  dtype: 'complex64' | 'complex128';
  A: Pairs;
  expected: Pairs;
  grad?: number[];
}
const { cases, others } = JSON.parse(readFileSync(new URL('../goldens/linalg_complex.json', import.meta.url), 'utf8')) as { cases: Case[]; others: Other[] };

const L = torch.linalg;
const { LinAlgError } = torch.linalg;
const { gradcheck, gradgradcheck } = torch.autograd;
const partsDtype = (d: string) => (d === 'complex64' ? 'float32' : 'float64');
const complexOf = (p: Pairs, d: string): Tensor => torch.viewAsComplex(torch.tensor(p.values, { dtype: partsDtype(d) }).reshape([...p.shape, 2]));
const pairsOf = (z: Tensor): number[] => torch.viewAsReal(z).reshape([-1]).tolist() as number[];
const maxAbsDiff = (x: number[], y: number[]): number => Math.max(0, ...x.map((v, i) => Math.abs(v - y[i])));
const run = (c: Case, A: Tensor, B: Tensor | null): Tensor => (c.op === 'solve' ? L.solve(A, B!, { left: c.left }) : L.inv(A));

describe('complex linalg.solve / inv against PyTorch 1.13', () => {
  for (const device of ['cpu', 'webgpu'] as const) {
    for (const c of cases) {
      if (device === 'webgpu' && c.dtype === 'complex128') continue;
      it(`${device} ${c.dtype}: ${c.id}`, async (ctx) => {
        if (device === 'webgpu' && !(await torch.webgpu.init())) return ctx.skip();
        const move = async (t: Tensor) => (device === 'cpu' ? t : await t.toAsync('webgpu'));
        const A = await move(complexOf(c.A, c.dtype));
        const B = c.B ? await move(complexOf(c.B, c.dtype)) : null;
        const out = run(c, A, B);
        expect([out.dtype, out.shape]).toEqual([c.dtype, c.expected.shape]);
        const got = pairsOf(device === 'cpu' ? out : await out.toAsync('cpu'));
        const scale = Math.max(1, ...c.expected.values.map(Math.abs));
        expect(maxAbsDiff(got, c.expected.values)).toBeLessThan((c.dtype === 'complex128' ? 1e-12 : 2e-5) * scale);
      });
    }
  }

  for (const c of cases) {
    if (!c.grads) continue;
    it(`PyTorch's gradient of a real loss: ${c.id}`, () => {
      const A = complexOf(c.A, c.dtype).requiresGrad_(true);
      const B = c.B ? complexOf(c.B, c.dtype).requiresGrad_(true) : null;
      const out = run(c, A, B);
      const w = complexOf({ shape: c.expected.shape, values: c.weights! }, c.dtype);
      torch.add(torch.real(torch.mul(out, w)).sum(), torch.abs(out).sum()).backward();
      const leaves = B ? [A, B] : [A];
      leaves.forEach((t, i) => {
        const scale = Math.max(1, ...c.grads![i].map(Math.abs));
        expect(maxAbsDiff(pairsOf(t.grad!), c.grads![i])).toBeLessThan(1e-10 * scale);
      });
    });
  }

  it('gradcheck and gradgradcheck through view_as_real', async () => {
    const g = new torch.Generator().manualSeed(5);
    const a = torch.randn([3, 3, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const b = torch.randn([3, 2, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const solve = (x: Tensor, y: Tensor) => torch.viewAsReal(L.solve(torch.viewAsComplex(x), torch.viewAsComplex(y)));
    const inv = (x: Tensor) => torch.viewAsReal(L.inv(torch.viewAsComplex(x)));
    expect(await gradcheck(solve, [a, b])).toBe(true);
    expect(await gradgradcheck(solve, [a, b])).toBe(true);
    expect(await gradcheck(inv, [a])).toBe(true);
    expect(await gradgradcheck(inv, [a])).toBe(true);
  });

  it('a singular complex matrix raises a LinAlgError; solve_ex / inv_ex report info', () => {
    const s = torch.viewAsComplex(torch.tensor([[[1, 1], [2, 2]], [[2, 2], [4, 4]]], { dtype: 'float64' }));
    expect(() => L.inv(s)).toThrow(LinAlgError);
    expect(() => L.solve(s, s)).toThrow(LinAlgError);
    expect((L.invEx(s).info.item() as number) !== 0).toBe(true);
    expect(() => L.solve(s, torch.ones([2, 2], { dtype: 'float64' }))).toThrow(/^linalg\.solve: Expected A and B to have the same dtype, but found A of type ComplexDouble and B of type Double instead$/);
  });
});

const OTHERS: Record<string, (a: Tensor) => Tensor> = {
  vector_norm: (a) => L.vectorNorm(a),
  'vector_norm ord=1 dim=-1': (a) => L.vectorNorm(a, 1, { dim: [-1] }),
  'vector_norm ord=inf dim=(0, 2)': (a) => L.vectorNorm(a, Infinity, { dim: [0, 2] }),
  'matrix_norm fro': (a) => L.matrixNorm(a),
  'matrix_norm 1': (a) => L.matrixNorm(a, 1),
  'matrix_norm -inf': (a) => L.matrixNorm(a, -Infinity),
  'matrix_power 3': (a) => torch.viewAsReal(L.matrixPower(a, 3)),
  'matrix_power -2': (a) => torch.viewAsReal(L.matrixPower(a, -2)),
  'vecdot dim=-2': (a) => torch.viewAsReal(L.vecdot(a, torch.select(a, 0, 1), { dim: -2 })),
  multi_dot: (a) => torch.viewAsReal(L.multiDot([torch.select(a, 0, 0), torch.select(a, 0, 1), torch.select(a, 0, 0)])),
};

describe('complex norms, matrix_power and multi_dot against PyTorch 1.13', () => {
  for (const o of others) {
    it(`${o.dtype}: ${o.id}`, () => {
      const A = complexOf(o.A, o.dtype);
      if (o.grad) A.requiresGrad_(true);
      const out = OTHERS[o.id](A);
      expect([out.dtype, out.shape]).toEqual([partsDtype(o.dtype), o.expected.shape]);
      const scale = Math.max(1, ...o.expected.values.map(Math.abs));
      expect(maxAbsDiff(out.reshape([-1]).tolist() as number[], o.expected.values)).toBeLessThan((o.dtype === 'complex128' ? 1e-12 : 2e-5) * scale);
      if (o.grad) {
        out.sum().backward();
        expect(maxAbsDiff(pairsOf(A.grad!), o.grad)).toBeLessThan(1e-10 * Math.max(1, ...o.grad.map(Math.abs)));
      }
    });
  }
});
