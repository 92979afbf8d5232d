/**
 * The OpInfo runner's own parts: inputs in every layout hold the golden values, comparisons
 * mean what they say, xfail keys match what they name, the table audit catches a table
 * that contradicts the goldens, and coverage rows cover op x dtype x device.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { opCoverage } from '../src/coverage';
import { CPU_HARNESS } from '../src/devices';
import { decodeValues, loadOpGoldens, type GoldenCase } from '../src/goldens';
import { disposeAll, layoutApplies, makeInputs, type Layout } from '../src/inputs';
import { tableProblems } from '../src/op-audit';
import { OP_TABLE } from '../src/op-info';
import { describeOpInfo } from '../src/run-op-info';
import { compareReadBacks, readBackSync, type ReadBack } from '../src/values';
import { XfailBook } from '../src/xfail';

const goldens = loadOpGoldens();
const caseOf = (op: string, sample: string, dtype: string): GoldenCase => {
  const c = goldens.get(op)?.find((x) => x.sample === sample && x.dtype === dtype);
  if (!c) throw new Error(`no golden ${op} ${sample} ${dtype}`);
  return c;
};

describe('makeInputs', () => {
  const c = caseOf('where', 'same-shape', 'int64');
  for (const layout of ['contiguous', 'strided', 'transposed'] as Layout[]) {
    it(`${layout}: the golden values, ${layout === 'contiguous' ? '' : 'not '}contiguous`, () => {
      const inputs = makeInputs(c, 'cpu', layout);
      try {
        inputs.forEach((x, i) => {
          const g = c.inputs[i];
          if (!(x instanceof torch.Tensor) || 'scalar' in g) throw new Error('expected tensors');
          expect(readBackSync(x).values).toEqual(decodeValues(g));
          expect(x.shape).toEqual(g.shape);
          expect(x.isContiguous()).toBe(layout === 'contiguous');
        });
      } finally {
        disposeAll(inputs);
      }
    });
  }

  it('keeps 0-dim and one-element inputs contiguous, and says when no layout applies', () => {
    const c0 = caseOf('add', '0dim-0dim', 'float32');
    expect(layoutApplies(c0, 'strided')).toBe(false);
    const inputs = makeInputs(c0, 'cpu', 'strided');
    expect(inputs.every((x) => x instanceof torch.Tensor && x.isContiguous())).toBe(true);
    disposeAll(inputs);
  });

  it('reads int64 beyond 2^53 exactly and decodes non-finite floats', () => {
    const g = { dtype: 'int64' as const, shape: [2], values: ['9223372036854775807', -3] };
    expect(decodeValues(g)).toEqual([9223372036854775807n, -3n]);
    expect(decodeValues({ dtype: 'float32', shape: [3], values: ['nan', 'inf', '-inf'] })).toEqual([NaN, Infinity, -Infinity]);
  });
});

describe('compareReadBacks', () => {
  const rb = (dtype: ReadBack['dtype'], values: ReadBack['values'], shape = [values.length]): ReadBack => ({ dtype, shape, values });
  const tol = { rtol: 1e-3, atol: 0 };

  it('treats NaN as equal to NaN and infinities as exact', () => {
    expect(compareReadBacks(rb('float32', [NaN, Infinity]), rb('float32', [NaN, Infinity]), { tolerance: tol })).toEqual([]);
    expect(compareReadBacks(rb('float32', [Infinity]), rb('float32', [NaN]), { tolerance: tol })[0]).toMatch(/got Infinity, expected NaN/);
    expect(compareReadBacks(rb('float32', [-Infinity]), rb('float32', [Infinity]), { tolerance: tol })[0]).toMatch(/got -Infinity/);
  });

  it('applies the tolerance to floats only', () => {
    expect(compareReadBacks(rb('float32', [1.0005]), rb('float32', [1]), { tolerance: tol })).toEqual([]);
    expect(compareReadBacks(rb('float32', [1.002]), rb('float32', [1]), { tolerance: tol })).not.toEqual([]);
    expect(compareReadBacks(rb('int32', [2]), rb('int32', [1]), { tolerance: { rtol: 1, atol: 1 } })).not.toEqual([]);
    expect(compareReadBacks(rb('int64', [2n ** 60n]), rb('int64', [2n ** 60n + 1n]), { tolerance: null })).not.toEqual([]);
  });

  it('is bitwise without a tolerance (-0 is not 0) and reports dtype and shape', () => {
    expect(compareReadBacks(rb('float32', [-0]), rb('float32', [0]), { tolerance: null })).toHaveLength(1);
    expect(compareReadBacks(rb('float64', [1]), rb('float32', [1]), { tolerance: null })[0]).toMatch(/dtype/);
    expect(compareReadBacks(rb('float32', [1, 2], [2]), rb('float32', [1, 2], [1, 2]), { tolerance: null })[0]).toMatch(/shape/);
  });
});

describe('XfailBook', () => {
  it('matches by check, dtype, sample, case id and sample/dtype, and reports unused and malformed keys', () => {
    const book = new XfailBook({
      'float16': 'a',
      'inplace@broadcast': 'b',
      'promote:int8+uint8/int8': 'c',
      'forward@edge/bool': 'd',
      'leak@*': 'e',
      'never@x': 'f',
      'unused-sample': 'g',
    });
    expect(book.reason({ check: 'method', dtype: 'float16', sample: 'edge', caseId: 'edge' })).toBe('a');
    expect(book.reason({ check: 'inplace', dtype: 'int8', sample: 'broadcast', caseId: 'broadcast' })).toBe('b');
    expect(book.reason({ check: 'forward', dtype: 'int8', sample: 'broadcast', caseId: 'broadcast' })).toBeNull();
    expect(book.reason({ check: 'out', dtype: 'int8', sample: 'promote', caseId: 'promote:int8+uint8' })).toBe('c');
    expect(book.reason({ check: 'forward', dtype: 'bool', sample: 'edge', caseId: 'edge' })).toBe('d');
    expect(book.reason({ check: 'method', dtype: 'bool', sample: 'edge', caseId: 'edge' })).toBeNull();
    expect(book.reason({ check: 'leak', name: 'leak' })).toBe('e');
    expect(book.unused()).toEqual(['unused-sample']);
    expect(book.malformed).toHaveLength(1);
  });
});

describe('tableProblems', () => {
  const add = OP_TABLE.find((op) => op.name === 'add')!;

  it('finds nothing wrong with the real entry', () => {
    expect(tableProblems(add, goldens.get('add')!)).toEqual([]);
  });

  it('catches a wrong dtype list, a missing sample and an undocumented 2.x deviation', () => {
    const exp = OP_TABLE.find((op) => op.name === 'exp')!;
    const problems = tableProblems(
      { ...exp, dtypes: exp.dtypes.filter((d) => d !== 'int8'), samples: exp.samples.slice(1), pytorch2x: undefined },
      goldens.get('exp')!,
    );
    expect(problems.join('\n')).toMatch(/PyTorch supports int8/);
    expect(problems.join('\n')).toMatch(/golden sample 'edge' is missing/);
    expect(problems.join('\n')).toMatch(/float16 goldens follow PyTorch 2.x/);
  });
});

describe('opCoverage', () => {
  it('has a row per op x dtype x device, with the statuses the table implies', () => {
    const rows = opCoverage(OP_TABLE, ['cpu']);
    expect(rows).toHaveLength(OP_TABLE.length * torch.REAL_DTYPES.length);
    const row = (op: string, dtype: string) => rows.find((r) => r.op === op && r.dtype === dtype)!;
    expect(row('add', 'float32').status).toBe('supported');
    expect(row('sub', 'bool').status).toBe('rejected');
    expect(row('add', 'bool').status).toBe('supported');
    expect(row('floorDivide', 'float32').status).toBe('known-failure');
    expect(row('exp', 'float16').notes.join()).toMatch(/PyTorch 2.x/);
    expect(row('add', 'float32').cases).toBeGreaterThan(5);
  });
});

// The oracle path, as a WebGPU harness will use it (with CPU as the oracle), on two ops.
describeOpInfo(
  OP_TABLE.filter((op) => op.name === 'mul' || op.name === 'max'),
  [{ ...CPU_HARNESS, name: 'cpu checked against cpu', oracle: 'cpu' }],
  { requireEveryGoldenOp: false },
);
