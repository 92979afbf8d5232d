import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

/**
 * Higher-order derivatives with `createGraph`: second derivatives of elementary functions
 * against their analytic forms, a Hessian-vector product and a third derivative. The
 * analytic values were cross-checked with PyTorch 1.13 (torch.autograd.grad(..., create_graph=True)).
 */

function f64(data: number | number[], requiresGrad = true): Tensor {
  return torch.tensor(data, { dtype: 'float64', requiresGrad });
}

function expectClose(actual: unknown, expected: number[], tol = 1e-10): void {
  expect(Array.isArray(actual)).toBe(true);
  const a = actual as number[];
  expect(a).toHaveLength(expected.length);
  a.forEach((v, i) => {
    if (!(Math.abs(v - expected[i]) <= tol * Math.max(1, Math.abs(expected[i])))) {
      throw new Error(`element ${i}: got ${v}, expected ${expected[i]} (actual ${JSON.stringify(a)})`);
    }
  });
}

/** First and second derivative of the elementwise `f` at `points`, via two autograd.grad calls. */
function firstAndSecond(f: (x: Tensor) => Tensor, points: number[]): { d1: number[]; d2: number[]; d1HasGraph: boolean } {
  const x = f64(points);
  const [g] = torch.autograd.grad(f(x).sum(), x, { createGraph: true });
  const d1HasGraph = g!.requiresGrad && g!.gradFn !== null;
  const [h] = torch.autograd.grad(g!.sum(), x);
  return { d1: g!.tolist() as number[], d2: h!.tolist() as number[], d1HasGraph };
}

const sig = (x: number) => 1 / (1 + Math.exp(-x));

describe('second derivatives with createGraph', () => {
  const points = [-1.5, -0.3, 0.4, 2.0];
  const cases: [string, (x: Tensor) => Tensor, (x: number) => number, (x: number) => number][] = [
    ['x**3', (x) => x.pow(3), (x) => 3 * x * x, (x) => 6 * x],
    ['x*x*x', (x) => x.mul(x).mul(x), (x) => 3 * x * x, (x) => 6 * x],
    [
      'tanh',
      (x) => x.tanh(),
      (x) => 1 - Math.tanh(x) ** 2,
      (x) => -2 * Math.tanh(x) * (1 - Math.tanh(x) ** 2),
    ],
    [
      'sigmoid',
      (x) => x.sigmoid(),
      (x) => sig(x) * (1 - sig(x)),
      (x) => sig(x) * (1 - sig(x)) * (1 - 2 * sig(x)),
    ],
    ['exp', (x) => x.exp(), Math.exp, Math.exp],
    ['sin', (x) => x.sin(), Math.cos, (x) => -Math.sin(x)],
    ['cos', (x) => x.cos(), (x) => -Math.sin(x), (x) => -Math.cos(x)],
  ];
  for (const [name, f, d1, d2] of cases) {
    it(`${name} at ${points.join(', ')}`, () => {
      const r = firstAndSecond(f, points);
      expect(r.d1HasGraph).toBe(true);
      expectClose(r.d1, points.map(d1));
      expectClose(r.d2, points.map(d2));
    });
  }

  it('log at 0.25, 1, 3: 1/x and -1/x^2', () => {
    const pts = [0.25, 1.0, 3.0];
    const r = firstAndSecond((x) => x.log(), pts);
    expectClose(r.d1, [4.0, 1.0, 1 / 3]);
    expectClose(r.d2, [-16.0, -1.0, -1 / 9]);
  });

  it('sqrt at 0.25, 4: 1/(2 sqrt x) and -1/(4 x^1.5)', () => {
    const pts = [0.25, 4.0];
    const r = firstAndSecond((x) => x.sqrt(), pts);
    expectClose(r.d1, [1.0, 0.25]);
    expectClose(r.d2, [-0.25 / 0.125, -0.25 / 8]);
  });

  it('PyTorch 1.13 values for tanh and sigmoid (float64)', () => {
    // torch.autograd.grad twice on tanh / sigmoid at [-1.5, -0.3, 0.4, 2.0]
    expectClose(firstAndSecond((x) => x.tanh(), points).d2, [
      0.32713259728754795, 0.5331818782014544, -0.6501981376737277, -0.13621868742711296,
    ]);
    expectClose(firstAndSecond((x) => x.sigmoid(), points).d2, [
      0.09473021278475269, 0.036396183955576235, -0.04742154162820855, -0.07996250105615312,
    ]);
  });

  it('without createGraph the gradient has no graph (and cannot be differentiated)', () => {
    const x = f64([1.5]);
    const [g] = torch.autograd.grad(x.pow(3).sum(), x);
    expect(g!.requiresGrad).toBe(false);
    expect(g!.gradFn).toBeNull();
    expect(() => torch.autograd.grad(g!.sum(), x)).toThrow(torch.AutogradError);
  });

  it('backward({ createGraph }) leaves a differentiable x.grad', () => {
    // (x**3).sum().backward(create_graph=True): x.grad = 6.75 requires grad; grad(x.grad, x) = 9
    const x = f64([1.5]);
    x.pow(3).sum().backward(undefined, { createGraph: true });
    const g = x.grad!;
    expect(g.requiresGrad).toBe(true);
    expectClose(g.tolist() as number[], [6.75]);
    const [gg] = torch.autograd.grad(g.sum(), x);
    expectClose(gg!.tolist() as number[], [9.0]);
    g.dispose();
  });

  it('mixed partials of x*y^2', () => {
    // gx = y^2 = 4, gy = 2xy = -6; d(gx)/dx unused, d(gx)/dy = 2y = -4; d(gy)/dx = 2y = -4, d(gy)/dy = 2x = 3
    const x = f64(1.5);
    const y = f64(-2.0);
    const [gx, gy] = torch.autograd.grad(x.mul(y).mul(y), [x, y], { createGraph: true });
    expect(gx!.item()).toBeCloseTo(4.0, 12);
    expect(gy!.item()).toBeCloseTo(-6.0, 12);
    const [gxx, gxy] = torch.autograd.grad(gx!, [x, y], { allowUnused: true, retainGraph: true });
    expect(gxx).toBeNull();
    expect(gxy!.item()).toBeCloseTo(-4.0, 12);
    const [gyx, gyy] = torch.autograd.grad(gy!, [x, y]);
    expect(gyx!.item()).toBeCloseTo(-4.0, 12);
    expect(gyy!.item()).toBeCloseTo(3.0, 12);
  });
});

describe('Hessian-vector product', () => {
  it('of x^T A x is (A + A^T) v, via grad of (grad . v)', () => {
    // A = [[2,-1,.5],[0,3,1],[1.5,-2,1]], x = [.5,-1,2], v = [1,.5,-2]
    // f = 12, grad = (A + A^T) x = [7, -8.5, 6], Hv = [-0.5, 4, -2.5]
    const A = torch.tensor(
      [
        [2.0, -1.0, 0.5],
        [0.0, 3.0, 1.0],
        [1.5, -2.0, 1.0],
      ],
      { dtype: 'float64' },
    );
    const x = f64([0.5, -1.0, 2.0]);
    const v = f64([1.0, 0.5, -2.0], false);
    const f = x.dot(A.mv(x));
    expect(f.item()).toBeCloseTo(12.0, 12);
    const [g] = torch.autograd.grad(f, x, { createGraph: true });
    expectClose(g!.tolist() as number[], [7.0, -8.5, 6.0]);
    const [hv] = torch.autograd.grad(g!.dot(v), x);
    expectClose(hv!.tolist() as number[], [-0.5, 4.0, -2.5]);
    expect(x.grad).toBeNull();
  });

  it('the same product with matmul on a column vector and sum', () => {
    const A = torch.tensor(
      [
        [2.0, -1.0, 0.5],
        [0.0, 3.0, 1.0],
        [1.5, -2.0, 1.0],
      ],
      { dtype: 'float64' },
    );
    const x = f64([0.5, -1.0, 2.0]);
    const col = x.unsqueeze(1);
    const f = col.t().mm(A).mm(col).sum();
    const [g] = torch.autograd.grad(f, x, { createGraph: true });
    const [hv] = torch.autograd.grad(g!.mul(f64([1.0, 0.5, -2.0], false)).sum(), x);
    expectClose(hv!.tolist() as number[], [-0.5, 4.0, -2.5]);
  });
});

describe('third derivative', () => {
  it('of x**4 is 24x (with 4x^3 and 12x^2 on the way)', () => {
    // x = [.5, -2]: [0.5, -32], [3, 48], [12, -48]
    const x = f64([0.5, -2.0]);
    const [g1] = torch.autograd.grad(x.pow(4).sum(), x, { createGraph: true });
    const [g2] = torch.autograd.grad(g1!.sum(), x, { createGraph: true });
    const [g3] = torch.autograd.grad(g2!.sum(), x);
    expectClose(g1!.tolist() as number[], [0.5, -32.0]);
    expectClose(g2!.tolist() as number[], [3.0, 48.0]);
    expectClose(g3!.tolist() as number[], [12.0, -48.0]);
  });

  it('of sin is -cos, through three createGraph rounds', () => {
    const pts = [0.3, 1.2];
    const x = f64(pts);
    const [g1] = torch.autograd.grad(x.sin().sum(), x, { createGraph: true });
    const [g2] = torch.autograd.grad(g1!.sum(), x, { createGraph: true });
    const [g3] = torch.autograd.grad(g2!.sum(), x);
    expectClose(g3!.tolist() as number[], pts.map((p) => -Math.cos(p)));
  });
});
