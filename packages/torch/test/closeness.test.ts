/**
 * torch.allclose, torch.equal and torch.isclose (and allcloseAsync / equalAsync) on the CPU
 * against PyTorch 1.13 (goldens/closeness.json): inf, NaN, equal_nan, broadcasting, integral
 * (exact beyond 2^53 with zero tolerances), bool, float16, complex (magnitudes), empty
 * operands, shape and dtype mismatches and negative tolerances. The isclose sweep over every
 * dtype is the OpInfo table's (packages/testing, goldens/ops_logical.json).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { CASES, describeCase, operand, options, type CloseCase } from './closeness-cases';

/** Runs the sync function form, the method form and the async form of a case; each result or thrown error. */
async function runAll(c: CloseCase): Promise<unknown[]> {
  const a = operand(c.a, 'cpu');
  const b = operand(c.b, 'cpu');
  const o = options(c);
  const attempt = async (f: () => unknown): Promise<unknown> => {
    try {
      const r = await f();
      // (isclose: its shape, then its elements row-major)
      return r instanceof torch.Tensor ? [r.shape, r.flatten().tolist()] : r;
    } catch (e) {
      return e;
    }
  };
  if (c.fn === 'equal') return [await attempt(() => torch.equal(a, b)), await attempt(() => a.equal(b)), await attempt(() => torch.equalAsync(a, b))];
  if (c.fn === 'allclose') {
    return [await attempt(() => torch.allclose(a, b, o)), await attempt(() => a.allclose(b, o)), await attempt(() => torch.allcloseAsync(a, b, o))];
  }
  return [await attempt(() => torch.isclose(a, b, o)), await attempt(() => a.isclose(b, o))];
}

describe('allclose, equal and isclose on the CPU, against PyTorch 1.13', () => {
  it('give 1.13 results and errors for every golden case, in the function, method and async forms', async () => {
    const problems: string[] = [];
    for (const c of CASES) {
      for (const got of await runAll(c)) {
        if (c.error !== undefined) {
          const ok = got instanceof torch.TorchError && got.message.startsWith(`${c.fn}: ${c.error}`);
          if (!ok) problems.push(`${describeCase(c)}: expected the error "${c.fn}: ${c.error}", got ${got instanceof Error ? got.message : JSON.stringify(got)}`);
        } else if (got instanceof Error) problems.push(`${describeCase(c)}: threw ${got.message}`);
        else if (JSON.stringify(got) !== JSON.stringify(c.shape ? [c.shape, c.expected] : c.expected)) problems.push(`${describeCase(c)}: ${JSON.stringify(got)}, expected ${JSON.stringify(c.expected)}`);
      }
    }
    expect(problems).toEqual([]);
    // (the goldens hold both answers of each function, and errors)
    for (const fn of ['allclose', 'equal'] as const) {
      expect(CASES.some((c) => c.fn === fn && c.expected === true) && CASES.some((c) => c.fn === fn && c.expected === false)).toBe(true);
    }
    expect(CASES.filter((c) => c.error !== undefined).length).toBeGreaterThanOrEqual(10);
  });

  it('raise the errors with their classes, and equal of a non-contiguous view compares its logical elements', () => {
    const a = torch.tensor([1, 2], { dtype: 'float32' });
    expect(() => torch.allclose(a, a.double())).toThrow(torch.DTypeError);
    expect(() => torch.isclose(a, torch.ones(3))).toThrow(torch.ShapeError);
    expect(() => torch.allclose(a, a, { rtol: NaN })).toThrow(/^allclose: rtol must be greater than or equal to zero, but got NaN$/);
    expect(() => untypedEqual(a, [1, 2])).toThrow(/^equal\(\): argument 'other' \(position 2\) must be Tensor, not Array/);
    const m = torch.tensor([[1, 2], [3, 4]], { dtype: 'float32' });
    expect(torch.equal(m.t(), torch.tensor([[1, 3], [2, 4]], { dtype: 'float32' }))).toBe(true);
    expect(torch.equal(m.t(), m)).toBe(false);
    // (a broadcast isclose keeps PyTorch's result shape)
    expect(torch.isclose(torch.zeros([2, 1]), torch.zeros([3])).shape).toEqual([2, 3]);
    expect(torch.isclose(torch.zeros([2, 1]), torch.zeros([3])).dtype).toBe('bool');
  });
});

const untypedEqual = torch.equal as unknown as (a: unknown, b: unknown) => boolean;
