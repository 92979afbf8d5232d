/**
 * linalg.pinv's own derivative (core's Note [pinv differentiates itself]; autograd's
 * pinvBackward, PyTorch 1.13's pinv_backward) against PyTorch's gradients
 * (goldens/linalg_pinv_grad.json): hermitian=True (through eigh, but differentiated as pinv,
 * not as eigh) and False, real and complex Hermitian, tall, wide, batched, rank-deficient,
 * empty, rtol cutting a nonzero singular value (pinv_backward is then not the truncated
 * forward's derivative, in PyTorch as here); gradcheck / gradgradcheck in float64 and complex128.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

interface PinvCase {
  id: string;
  dtype: 'float64' | 'complex128';
  shape: number[];
  hermitian: boolean;
  rtol: number | null;
  a: number[];
  w: number[];
  pinv: number[];
  grad: number[];
}
const goldens = JSON.parse(readFileSync(new URL('../goldens/linalg_pinv_grad.json', import.meta.url), 'utf8')) as { cases: PinvCase[] };

const L = torch.linalg;
const { gradcheck, gradgradcheck } = torch.autograd;

const flatOf = (t: Tensor): number[] => (t.isComplex() ? torch.viewAsReal(t.resolveConj()) : t).reshape([-1]).tolist() as number[];
const maxAbsDiff = (x: number[], y: number[]): number => Math.max(0, ...x.map((v, i) => Math.abs(v - y[i])));
const tensorOf = (values: number[], shape: number[], complex: boolean): Tensor =>
  complex ? torch.viewAsComplex(torch.tensor(values, { dtype: 'float64' }).reshape([...shape, 2])) : torch.tensor(values, { dtype: 'float64' }).reshape(shape);

describe("linalg.pinv's derivative against PyTorch 1.13 (pinv_backward)", () => {
  it('every golden case: the forward and the gradient of sum(real(pinv(A) * w))', () => {
    expect(goldens.cases.length).toBe(16);
    for (const c of goldens.cases) {
      const complex = c.dtype === 'complex128';
      const A = tensorOf(c.a, c.shape, complex).requiresGrad_(true);
      const wShape = [...c.shape.slice(0, -2), c.shape[c.shape.length - 1], c.shape[c.shape.length - 2]];
      const w = tensorOf(c.w, wShape, complex);
      const P = L.pinv(A, c.rtol === null ? { hermitian: c.hermitian } : { rtol: c.rtol, hermitian: c.hermitian });
      const label = `${c.id} hermitian=${c.hermitian}`;
      const scale = Math.max(1, ...c.pinv.map(Math.abs));
      expect([label, maxAbsDiff(flatOf(P), c.pinv) < 1e-12 * scale]).toEqual([label, true]);
      const prod = torch.mul(P, w);
      (complex ? torch.real(prod) : prod).sum().backward();
      expect([label, A.grad!.dtype, A.grad!.shape]).toEqual([label, c.dtype, c.shape]);
      const gscale = Math.max(1, ...c.grad.map(Math.abs));
      expect([label, maxAbsDiff(flatOf(A.grad!), c.grad) / gscale]).toSatisfy(([, d]: [string, number]) => d < 1e-10);
    }
  });

  it('hermitian=True is differentiated as pinv, not through eigh (the gradient is not symmetric-only)', () => {
    // a non-symmetric A: the forward reads the lower triangle only, pinv_backward's gradient reaches the upper one too
    const c = goldens.cases.find((x) => x.id === 'non-symmetric 3x3')!;
    const A = tensorOf(c.a, c.shape, false).requiresGrad_(true);
    torch.mul(L.pinv(A, { hermitian: true }), tensorOf(c.w, c.shape, false)).sum().backward();
    const g = A.grad!.tolist() as number[][];
    expect(Math.abs(g[0][2])).toBeGreaterThan(1e-6);
    expect(L.pinv(A, { hermitian: true }).gradFn!.name()).toBe('LinalgPinvBackward0');
    expect(torch.pinverse(A).gradFn!.name()).toBe('LinalgPinvBackward0');
  });

  it('gradcheck and gradgradcheck: real (tall, hermitian) and complex128 Hermitian', async () => {
    const g = new torch.Generator().manualSeed(21);
    const tall = torch.randn([3, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const pinv = (x: Tensor) => L.pinv(x);
    expect(await gradcheck(pinv, [tall])).toBe(true);
    expect(await gradgradcheck(pinv, [tall])).toBe(true);
    const sq = torch.randn([2, 3, 3], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const symPinv = (x: Tensor) => L.pinv(torch.add(x, x.mT), { hermitian: true });
    expect(await gradcheck(symPinv, [sq])).toBe(true);
    expect(await gradgradcheck(symPinv, [sq])).toBe(true);
    const z = torch.randn([3, 3, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const herPinv = (x: Tensor) => {
      const c = torch.viewAsComplex(x);
      return torch.viewAsReal(L.pinv(torch.add(c, c.mH), { hermitian: true }).resolveConj());
    };
    expect(await gradcheck(herPinv, [z])).toBe(true);
    expect(await gradgradcheck(herPinv, [z])).toBe(true);
  });
});
