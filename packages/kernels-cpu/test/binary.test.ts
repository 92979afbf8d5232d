import { TorchError, type DType, type TensorImpl } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls } from '../src/index';
import { BINARY_CASES } from './goldens/pointwise';
import { empty, laidOut, mismatches, read, releaseCreated, tensor, view, type Value } from './helpers';

afterEach(releaseCreated);

type Case = (typeof BINARY_CASES)[number];

function run(c: Case, out: TensorImpl, a: TensorImpl, b: TensorImpl): void {
  if (c.op === 'add') cpuImpls.add(out, a, b, c.dtype === 'int64' ? BigInt(c.alpha) : c.alpha);
  else cpuImpls[c.op](out, a, b);
}

const outDtype = (c: Case): DType => (['eq', 'ne', 'lt', 'le', 'gt', 'ge'].includes(c.op) ? 'bool' : (c.dtype as DType));

/**
 * Exact, except: `pow` computes in double with V8's Math.pow, which is not correctly rounded
 * (glibc's is, SLEEF is within 1 ulp in float32), so results may differ by an ulp of the
 * dtype; and the sign of a zero from maximum/minimum of 0 and -0, which PyTorch itself picks
 * by the element's position in its AVX2 vector (see maximumRow).
 */
function tolerance(c: Case): ((a: number, b: number) => boolean) | undefined {
  if (c.op === 'maximum' || c.op === 'minimum') return (x, y) => x === y;
  if (c.op !== 'pow' || !['float32', 'float64', 'float16', 'bfloat16'].includes(c.dtype)) return undefined;
  const ulp = c.dtype === 'float64' ? 2 ** -52 : 2 ** -23;
  return (x, y) => Math.abs(x - y) <= Math.abs(y) * ulp;
}

function label(c: Case): string {
  return `${c.op}${c.op === 'add' && c.alpha !== 1 ? `(alpha=${c.alpha})` : ''} ${c.dtype}`;
}

describe('binary ops against PyTorch goldens (table of every a[i] with every b[j])', () => {
  for (const c of BINARY_CASES) {
    const dtype = c.dtype as DType;
    const a = c.a as readonly Value[];
    const b = c.b as readonly Value[];
    const n = a.length;
    const m = b.length;
    const expected = c.out as readonly Value[];
    const close = tolerance(c);

    it(`${label(c)}: broadcast operands (stride 0)`, () => {
      // a as [n, 1] and b as [1, m] expanded to [n, m], both at an offset
      const ab = laidOut(dtype, [n], a, 'strided');
      const bb = laidOut(dtype, [m], b, 'strided');
      const av = view(ab, [n, m], [ab.strides[0], 0], ab.storageOffset);
      const bv = view(bb, [n, m], [0, bb.strides[0]], bb.storageOffset);
      const out = empty(outDtype(c), [n, m]);
      run(c, out, av, bv);
      expect(mismatches(read(out), expected, close)).toEqual([]);
    });

    it(`${label(c)}: contiguous, strided and transposed operands`, () => {
      const full = (xs: readonly Value[], pick: (i: number, j: number) => number): Value[] => {
        const r: Value[] = [];
        for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) r.push(xs[pick(i, j)]);
        return r;
      };
      const af = full(a, (i) => i);
      const bf = full(b, (_, j) => j);
      for (const [la, lb, lo] of [
        ['contiguous', 'contiguous', 'contiguous'],
        ['transposed', 'strided', 'contiguous'],
        ['strided', 'transposed', 'transposed'],
      ] as const) {
        const out = laidOut(outDtype(c), [n, m], new Array<Value>(n * m).fill(outDtype(c) === 'int64' ? 0n : 0), lo);
        run(c, out, laidOut(dtype, [n, m], af, la), laidOut(dtype, [n, m], bf, lb));
        expect(mismatches(read(out), expected, close), `${la} ${lb} -> ${lo}`).toEqual([]);
      }
    });

    it(`${label(c)}: a 0-d other broadcast to a row, and in place`, () => {
      const ab = tensor(dtype, [n], a);
      const b0 = tensor(dtype, [], [b[1]]);
      const out = empty(outDtype(c), [n]);
      run(c, out, ab, view(b0, [n], [0], 0));
      const column = Array.from({ length: n }, (_, i) => expected[i * m + 1]);
      expect(mismatches(read(out), column, close)).toEqual([]);
      if (outDtype(c) === dtype) {
        run(c, ab, ab, view(b0, [n], [0], 0));
        expect(mismatches(read(ab), column, close)).toEqual([]);
      }
    });
  }
});

describe('integer division by zero', () => {
  for (const dtype of ['int8', 'uint8', 'int16', 'int32', 'int64'] as DType[]) {
    for (const op of ['divTrunc', 'divFloor', 'remainder'] as const) {
      it(`${op} ${dtype} raises ZeroDivisionError`, () => {
        const zero = dtype === 'int64' ? 0n : 0;
        const one = dtype === 'int64' ? 1n : 1;
        const a = tensor(dtype, [3], [one, one, one]);
        const b = tensor(dtype, [3], [one, zero, one]);
        expect(() => cpuImpls[op](empty(dtype, [3]), a, b)).toThrow(TorchError);
        expect(() => cpuImpls[op](empty(dtype, [3]), a, b)).toThrow(/ZeroDivisionError/);
      });
    }
  }
  it('float division by zero is IEEE', () => {
    const a = tensor('float32', [3], [1, -1, 0]);
    const b = tensor('float32', [3], [0, 0, 0]);
    const out = empty('float32', [3]);
    cpuImpls.divTrunc(out, a, b);
    expect(read(out)).toEqual([Infinity, -Infinity, NaN]);
    cpuImpls.remainder(out, a, b);
    expect(read(out)).toEqual([NaN, NaN, NaN]);
  });
});

describe('add: alpha', () => {
  it('raises PyTorch overflow errors for an alpha outside the dtype', () => {
    const cases: [DType, number | bigint][] = [
      ['int8', 300],
      ['int8', -129],
      ['uint8', 256],
      ['int16', 2 ** 20],
      ['int32', 2 ** 31],
      ['int64', 2n ** 63n],
      ['float16', 1e6],
      ['bfloat16', 1e300],
      ['float32', 1e39],
    ];
    for (const [dtype, alpha] of cases) {
      const x = tensor(dtype, [1], [dtype === 'int64' ? 1n : 1]);
      expect(() => cpuImpls.add(empty(dtype, [1]), x, x, alpha), `${dtype} ${alpha}`).toThrow(/without overflow/);
    }
  });

  it('accepts alpha at the edges: uint8 -1 wraps, int8 -128, float inf and nan', () => {
    const u = tensor('uint8', [1], [1]);
    const uo = empty('uint8', [1]);
    cpuImpls.add(uo, u, u, -1);
    expect(read(uo)).toEqual([0]);
    const i8 = tensor('int8', [1], [1]);
    const io = empty('int8', [1]);
    cpuImpls.add(io, i8, i8, -128);
    expect(read(io)).toEqual([-127]);
    const f = tensor('float32', [2], [1, 1]);
    const fo = empty('float32', [2]);
    cpuImpls.add(fo, f, f, Infinity);
    expect(read(fo)).toEqual([Infinity, Infinity]);
    cpuImpls.add(fo, f, f, NaN);
    expect(read(fo)).toEqual([NaN, NaN]);
  });

  it('float64 a + alpha * b is one fused multiply-add (PyTorch uses vfmadd)', () => {
    // torch.add(a, b, alpha=0.1) where the result differs from the unfused a + 0.1 * b
    const a = tensor('float64', [6], [-0.07664429396390915, -0.28678029775619507, 0.2043411135673523, -0.16680915653705597, -0.06768558919429779, -0.2712145745754242]);
    const b = tensor('float64', [6], [0.731959342956543, -1.8082444667816162, -2.262479543685913, 1.289848804473877, -1.8670891523361206, 2.39288592338562]);
    const torchResult = [-0.0034483596682548484, -0.4676047444343567, -0.021906840801239027, -0.03782427608966827, -0.25439450442790984, -0.03192598223686217];
    const out = empty('float64', [6]);
    cpuImpls.add(out, a, b, 0.1);
    expect(read(out)).toEqual(torchResult);
    // alpha -1 (sub) needs no fusing: a - b is already one rounding
    cpuImpls.add(out, a, b, -1);
    expect(read(out)).toEqual((read(a) as number[]).map((x, i) => x - (read(b)[i] as number)));
  });

  it('bool add is logical or; bool mul is and', () => {
    const a = tensor('bool', [4], [0, 0, 1, 1]);
    const b = tensor('bool', [4], [0, 1, 0, 1]);
    const out = empty('bool', [4]);
    cpuImpls.add(out, a, b, 1);
    expect(read(out)).toEqual([0, 1, 1, 1]);
    cpuImpls.mul(out, a, b);
    expect(read(out)).toEqual([0, 0, 0, 1]);
  });
});

describe('binary ops on empty and long tensors', () => {
  it('does nothing for empty outputs', () => {
    for (const dtype of ['float32', 'int64', 'int8', 'float16'] as DType[]) {
      const e = empty(dtype, [0, 4]);
      cpuImpls.add(empty(dtype, [0, 4]), e, e, 1);
      cpuImpls.mul(empty(dtype, [0, 4]), e, e);
      cpuImpls.eq(empty('bool', [0, 4]), e, e);
    }
  });

  it('crosses scratch chunks correctly (rows longer than 1024)', () => {
    const n = 5000;
    const xs = Array.from({ length: n }, (_, i) => (i % 251) - 125);
    for (const dtype of ['int8', 'int16', 'float16', 'bfloat16', 'int64'] as DType[]) {
      const enc = (v: number): Value => (dtype === 'int64' ? BigInt(v) : v);
      const a = tensor(dtype, [n], xs.map(enc));
      const b = tensor(dtype, [n], xs.map((v) => enc(-v + 3)));
      const out = laidOut(dtype, [n], xs.map(() => enc(0)), 'strided');
      cpuImpls.mul(out, a, b);
      const expected = xs.map((v) => {
        const p = v * (-v + 3);
        if (dtype === 'int8') return ((p + 128) & 255) - 128;
        if (dtype === 'int64') return BigInt(p);
        return p;
      });
      if (dtype === 'float16' || dtype === 'bfloat16') {
        // the exact product rounded to the 16-bit type, by the test helpers' own encoder
        const ref = laidOut(dtype, [n], expected as Value[], 'contiguous');
        expect(mismatches(read(out), read(ref))).toEqual([]);
      } else {
        expect(mismatches(read(out), expected as Value[])).toEqual([]);
      }
    }
  });
});
