/**
 * The composite losses and distances of torch.nn.functional and their modules: PyTorch 1.13's
 * forward values and gradients for every reduction and option (goldens/nn_losses.json, from
 * scripts/goldens/nn_losses.py), gradcheck in float64, PyTorch's errors, reprs, no leaks.
 */
import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import golden from './goldens/nn_losses.json';
import { thrown } from './helpers';

const { nn } = torch;
const F = nn.functional;

interface G {
  shape: number[];
  dtype: string;
  values: number[];
}
interface Case {
  fn: string;
  args: (G | number[])[];
  grads: boolean[];
  kwargs: Record<string, unknown>;
  out: G;
  gradValues: (G | null)[];
}

const isG = (a: unknown): a is G => typeof a === 'object' && a !== null && !Array.isArray(a) && 'values' in a;
const fromG = (g: G) => torch.tensor(g.values, { dtype: g.dtype as torch.DType }).reshape(g.shape);
const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** float64: 1e-10 relative; float32: PyTorch's own float32 test tolerances. */
function expectClose(t: Tensor, g: G, what: string): void {
  expect(t.shape, what).toEqual(g.shape);
  expect(t.dtype, what).toBe(g.dtype);
  const [rtol, atol] = g.dtype === 'float64' ? [1e-10, 1e-12] : [1.3e-6, 1e-5];
  const v = Array.from(t.dataSync() as Float64Array, Number);
  v.forEach((x, i) => {
    if (!(Math.abs(x - g.values[i]) <= atol + rtol * Math.abs(g.values[i]))) expect.fail(`${what}[${i}]: ${x} vs PyTorch ${g.values[i]}`);
  });
}

/** The functional of a golden, called as torch-ts spells it (tensor arguments, then an options object). */
function call(fn: string, args: unknown[], kwargs: Record<string, unknown>): Tensor {
  const opts = Object.fromEntries(Object.entries(kwargs).map(([k, v]) => [camel(k), v === 'Infinity' ? Infinity : v]));
  const f = (F as unknown as Record<string, (...a: unknown[]) => Tensor>)[camel(fn)];
  if (typeof f !== 'function') throw new Error(`no F.${camel(fn)}`);
  return f(...args, opts);
}

const cases = golden.cases as unknown as Case[];

describe('functional losses and distances: PyTorch 1.13 values and gradients', () => {
  const byFn = new Map<string, Case[]>();
  for (const c of cases) byFn.set(c.fn, [...(byFn.get(c.fn) ?? []), c]);
  for (const [fn, cs] of byFn) {
    it(`F.${camel(fn)}: ${cs.length} cases (every reduction and option, float64 and float32)`, () => {
      for (const [k, c] of cs.entries()) {
        const what = `${fn} #${k} ${c.out.dtype} ${JSON.stringify(c.kwargs)}`;
        torch.tidy(() => {
          const args = c.args.map((a, i) => (isG(a) ? fromG(a).requiresGrad_(c.grads[i]) : a));
          const out = call(fn, args, c.kwargs);
          expectClose(out, c.out, `${what} output`);
          const leaves = args.filter((_, i) => c.grads[i]) as Tensor[];
          if (leaves.length === 0) return;
          const gs = torch.autograd.grad([out.sum()], leaves, { allowUnused: true });
          gs.forEach((g, i) => {
            const want = c.gradValues[i];
            if (want === null) expect(g, `${what} grad ${i}`).toBeNull();
            else expectClose(g!, want, `${what} grad ${i}`);
          });
        });
      }
    });
  }
});
