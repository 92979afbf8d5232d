import { f16BitsToNumber, f32BitsToBf16Bits, f32BitsToF16Bits, bf16BitsToNumber, type DType, type RealDType } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls, setNumThreads, threadsReady } from '../src/index';
import { pointwiseWasm } from '../src/kernels/pointwise-wasm';
import { CAST_CASES } from './goldens/cast';
import { empty, laidOut, mismatches, read, releaseCreated, rng, view, type Layout, type Value } from './helpers';

afterEach(releaseCreated);

// Note [Copy and cast kernels]: the casts the wasm kernels run, each against PyTorch's goldens
// repeated over planes large enough for the SIMD loops, their tails, several tiles and the
// thread pool's split.
const OTHERS: RealDType[] = ['float64', 'int32', 'int64', 'float16', 'bfloat16', 'uint8', 'bool'];
const PAIRS: [RealDType, RealDType][] = [...OTHERS.map((d): [RealDType, RealDType] => ['float32', d]), ...OTHERS.map((d): [RealDType, RealDType] => [d, 'float32'])];
const LAYOUTS: [Layout, Layout][] = [
  ['contiguous', 'contiguous'],
  ['transposed', 'contiguous'],
  ['contiguous', 'transposed'],
  ['strided', 'transposed'],
];
/** Odd sizes: row tails of every SIMD width, and more columns than one tile (128). */
const SHAPE = [37, 301];

function golden(src: RealDType, dst: RealDType, n: number): { values: Value[]; expected: Value[] } {
  const c = CAST_CASES[src];
  const vs = c.values as readonly Value[];
  const ex = c[dst] as readonly Value[];
  // A stride coprime to the table's length, so neighbours differ along rows and columns.
  const values: Value[] = [];
  const expected: Value[] = [];
  for (let i = 0; i < n; i++) {
    const k = (i * 7) % vs.length;
    values.push(vs[k]);
    expected.push(ex[k]);
  }
  return { values, expected };
}

describe('WebAssembly copy and cast kernels', () => {
  it('run in Node', () => expect(pointwiseWasm).not.toBeNull());

  for (const [src, dst] of PAIRS) {
    it(`${src} -> ${dst}: PyTorch's results in every layout`, () => {
      const n = SHAPE[0] * SHAPE[1];
      const { values, expected } = golden(src, dst, n);
      const bad: string[] = [];
      for (const [ls, ld] of LAYOUTS) {
        const s = laidOut(src, SHAPE, values, ls);
        const d = laidOut(dst, SHAPE, new Array<Value>(n).fill(dst === 'int64' ? 0n : 0), ld);
        cpuImpls.copy(d, s);
        for (const m of mismatches(read(d), expected).slice(0, 3)) bad.push(`${ls} -> ${ld}: ${m}`);
      }
      expect(bad).toEqual([]);
    });
  }

  it('float32 -> float16 / bfloat16 round every float32 exponent as core does', () => {
    const r = rng(11);
    const n = 20_000;
    const bits = new Uint32Array(n);
    for (let i = 0; i < n; i++) bits[i] = ((r() + 1) * 2 ** 31) >>> 0;
    const f = new Float32Array(bits.buffer);
    const s = empty('float32', [n]);
    s.storage.typed(Float32Array).set(f);
    const bad: string[] = [];
    for (const [dt, toBits, fromBits] of [
      ['float16', f32BitsToF16Bits, f16BitsToNumber],
      ['bfloat16', f32BitsToBf16Bits, bf16BitsToNumber],
    ] as const) {
      const d = empty(dt, [n]);
      cpuImpls.copy(d, s);
      const expected = Array.from(bits, (b) => fromBits(toBits(b)));
      for (const m of mismatches(read(d), expected).slice(0, 3)) bad.push(`${dt}: ${m}`);
    }
    expect(bad).toEqual([]);
  });

  for (const dtype of ['bool', 'float16', 'float32', 'float64'] as DType[]) {
    it(`copies ${dtype} between layouts as raw elements`, () => {
      const r = rng(3);
      const n = SHAPE[0] * SHAPE[1];
      const values: Value[] = Array.from({ length: n }, () => (dtype === 'bool' ? (r() > 0 ? 1 : 0) : dtype === 'float16' ? f16BitsToNumber(f32BitsToF16Bits(((r() + 1) * 2 ** 30) >>> 0)) : dtype === 'float32' ? Math.fround(r() * 1e3) : r() * 1e3));
      const bad: string[] = [];
      for (const [ls, ld] of [...LAYOUTS, ['transposed', 'transposed'] as [Layout, Layout]]) {
        const s = laidOut(dtype, SHAPE, values, ls);
        const d = laidOut(dtype, SHAPE, new Array<Value>(n).fill(0), ld);
        cpuImpls.copy(d, s);
        for (const m of mismatches(read(d), values).slice(0, 3)) bad.push(`${ls} -> ${ld}: ${m}`);
      }
      // a permuted 3-d source (no dim steps by 1 in both)
      const base = laidOut(dtype, [7, 11, 13], values.slice(0, 1001), 'contiguous');
      const p = view(base, [13, 7, 11], [1, 143, 13], 0);
      const d = empty(dtype, [13, 7, 11]);
      cpuImpls.copy(d, p);
      const expected: Value[] = [];
      for (let i = 0; i < 13; i++) for (let j = 0; j < 7; j++) for (let k = 0; k < 11; k++) expected.push(values[j * 143 + k * 13 + i]);
      for (const m of mismatches(read(d), expected).slice(0, 3)) bad.push(`permuted: ${m}`);
      expect(bad).toEqual([]);
    });
  }

  it('gives identical results on 1, 2 and 4 threads', async () => {
    const r = rng(5);
    const rows = 300;
    const cols = 301;
    const n = rows * cols;
    const values = Array.from({ length: n }, () => r() * 3e9);
    const s = laidOut('float32', [rows, cols], values, 'contiguous');
    const sT = view(s, [cols, rows], [1, cols], 0);
    const results: Value[][] = [];
    for (const threads of [1, 2, 4]) {
      setNumThreads(threads);
      await threadsReady();
      const out: Value[] = [];
      for (const dt of ['int32', 'bfloat16', 'uint8', 'float32'] as DType[]) {
        const d = empty(dt, [n]);
        cpuImpls.copy(d, s);
        const dT = empty(dt, [cols, rows]);
        cpuImpls.copy(dT, sT);
        for (const v of read(d)) out.push(v);
        for (const v of read(dT)) out.push(v);
      }
      results.push(out);
    }
    expect(mismatches(results[1], results[0]).length).toBe(0);
    expect(mismatches(results[2], results[0]).length).toBe(0);
    // and the transposed float32 copy is the transpose
    const t = results[0].slice(results[0].length - n);
    let wrong = 0;
    for (let i = 0; i < cols; i++) for (let j = 0; j < rows; j++) if (!Object.is(t[i * rows + j], Math.fround(values[j * cols + i]))) wrong++;
    expect(wrong).toBe(0);
    setNumThreads(2);
  });
});
