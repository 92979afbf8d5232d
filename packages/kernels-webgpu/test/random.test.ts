/**
 * Random ops on WebGPU (Note [WebGPU random kernels]): Philox4x32-10 against Random123's
 * known answers on the host and bit for bit on the device, the distributions of every
 * random op over many samples (bounds of 5 standard errors, so a correct kernel fails
 * about once in 10^6 runs, and a seed fixes the outcome anyway), determinism under a seed,
 * and fresh values on each call.
 */
import { describe, expect, it } from 'vitest';
import {
  Generator,
  bf16BitsToNumber,
  f16BitsToNumber,
  f64ToF16Bits,
  bernoulli,
  bernoulli_,
  dropout,
  empty,
  manualSeed,
  multinomial,
  normal_,
  exponential_,
  cauchy_,
  logNormal_,
  geometric_,
  random_,
  rand,
  randint,
  randn,
  uniform_,
  type Tensor,
} from '@torch-ts/core';
import { memoryStats } from '../src';
import { philox4x32 } from '../src/wgsl/philox';
import { gpuTensor, readValues, webgpuReady } from './helpers';

const dev = { device: 'webgpu' as const };

function stats(v: readonly number[]): { mean: number; variance: number } {
  let s = 0;
  for (const x of v) s += x;
  const mean = s / v.length;
  let q = 0;
  for (const x of v) q += (x - mean) ** 2;
  return { mean, variance: q / (v.length - 1) };
}

/** |got - want| within 5 standard errors of a proportion's estimate over n draws. */
function expectFrequency(count: number, n: number, p: number): void {
  const se = Math.sqrt((p * (1 - p)) / n);
  expect(Math.abs(count / n - p), `frequency ${count / n} vs ${p}`).toBeLessThanOrEqual(5 * se + 1e-12);
}

async function take(t: Tensor): Promise<number[]> {
  try {
    return await readValues(t);
  } finally {
    t.dispose();
  }
}

function count(v: readonly number[], f: (x: number) => boolean): number {
  let n = 0;
  for (const x of v) if (f(x)) n++;
  return n;
}

function minOf(v: readonly number[]): number {
  let m = Infinity;
  for (const x of v) if (x < m) m = x;
  return m;
}

function maxOf(v: readonly number[]): number {
  let m = -Infinity;
  for (const x of v) if (x > m) m = x;
  return m;
}

const u24 = (w: number) => (w & 0xffffff) * 2 ** -24;

describe('Philox4x32-10 on the host', () => {
  it("matches Random123's known-answer vectors", () => {
    const hex = (a: Uint32Array) => Array.from(a, (x) => x.toString(16).padStart(8, '0')).join(' ');
    expect(hex(philox4x32([0, 0, 0, 0], [0, 0]))).toBe('6627e8d5 e169c58d bc57ac4c 9b00dbd8');
    const ff = 0xffffffff;
    expect(hex(philox4x32([ff, ff, ff, ff], [ff, ff]))).toBe('408f276d 41c83b0e a20bc7c6 6d5451fd');
    expect(hex(philox4x32([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0]))).toBe(
      'd16cfe09 94fdcceb 5001e420 24126ea1',
    );
  });
});

describe.skipIf(!webgpuReady)('random ops on WebGPU', () => {
  it('rand draws the 24-bit uniforms of Philox(counter = (i / 4, 0, offset), key = seed), bit for bit', async () => {
    const seed = 0x1234_5678_9abcn;
    const g = new Generator().manualSeed(seed);
    const key = [Number(seed & 0xffffffffn), Number(seed >> 32n)];
    const n = 1037;
    const first = await take(rand([n], { ...dev, generator: g }));
    const second = await take(rand([n], { ...dev, generator: g }));
    for (const [values, offset] of [[first, 0], [second, 1]] as const) {
      const want = Array.from({ length: n }, (_, i) => u24(philox4x32([i >> 2, 0, offset, 0], key)[i & 3]));
      expect(values).toEqual(want);
    }
  });

  it('randint draws (word mod range) + low, with 64-bit draws past 2^32, in int32 and int64', async () => {
    const g = new Generator().manualSeed(99);
    const key = [99, 0];
    const small = await take(randint(-5, 7, [301], { ...dev, dtype: 'int32', generator: g }));
    expect(small).toEqual(Array.from({ length: 301 }, (_, i) => (philox4x32([i >> 2, 0, 0, 0], key)[i & 3] % 12) - 5));
    const range = 2n ** 40n + 3n;
    const low = -(2n ** 39n);
    const wide = randint(low, low + range, [77], { ...dev, generator: g });
    expect(wide.dtype).toBe('int64');
    const got = await take(wide);
    const want = Array.from({ length: 77 }, (_, i) => {
      const r = philox4x32([i >> 1, 0, 1, 0], key);
      const w = BigInt(r[2 * (i & 1)]) + (BigInt(r[2 * (i & 1) + 1]) << 32n);
      return Number((w % range) + low);
    });
    expect(got).toEqual(want);
    const floats = await take(randint(-7, 3, [1000], { ...dev, dtype: 'float32', generator: g }));
    expect(minOf(floats)).toBe(-7);
    expect(maxOf(floats)).toBe(2);
    expect(floats.every(Number.isInteger)).toBe(true);
    const bytes = await take(randint(3, 9, [1000], { ...dev, dtype: 'uint8', generator: g }));
    expect(minOf(bytes)).toBe(3);
    expect(maxOf(bytes)).toBe(8);
  });

  it('rand and uniform_ are uniform over 1M samples; uniform_ fills a strided view in place', async () => {
    manualSeed(1);
    const v = await take(rand(1000, 1000, dev));
    const { mean, variance } = stats(v);
    expect(minOf(v)).toBeGreaterThanOrEqual(0);
    expect(maxOf(v)).toBeLessThan(1);
    expect(Math.abs(mean - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / 1e6));
    expect(Math.abs(variance - 1 / 12)).toBeLessThan(1e-3);
    // 10 bins: each about 1/10
    const bins = new Array(10).fill(0);
    for (const x of v) bins[Math.floor(x * 10)]++;
    for (const b of bins) expectFrequency(b, 1e6, 0.1);

    const base = gpuTensor(new Array(2000).fill(-100), 'float32', [1000, 2]);
    const col = base.select(1, 1);
    const ret = uniform_(col, -2, 5);
    expect(ret).toBe(col);
    const all = await readValues(base);
    const untouched = all.filter((_, i) => i % 2 === 0);
    const filled = all.filter((_, i) => i % 2 === 1);
    expect(untouched.every((x) => x === -100)).toBe(true);
    expect(filled.every((x) => x >= -2 && x < 5)).toBe(true);
    expect(Math.abs(stats(filled).mean - 1.5)).toBeLessThan(5 * Math.sqrt(49 / 12 / 1000));
    base.dispose();
  });

  it('randn and normal_ are normal over 1M samples (Box-Muller)', async () => {
    manualSeed(2);
    const v = await take(randn([1 << 20], dev));
    const { mean, variance } = stats(v);
    expect(Number.isFinite(maxOf(v.map(Math.abs)))).toBe(true);
    expect(Math.abs(mean)).toBeLessThan(5 / 1024);
    expect(Math.abs(variance - 1)).toBeLessThan(5 * Math.sqrt(2 / (1 << 20)));
    expectFrequency(count(v, (x) => Math.abs(x) < 1), 1 << 20, 0.6826894921370859);
    expectFrequency(count(v, (x) => x > 2), 1 << 20, 0.022750131948179195);
    // the two values of each Box-Muller pair are independent: no correlation between neighbours
    let c = 0;
    for (let i = 0; i + 1 < v.length; i += 2) c += v[i] * v[i + 1];
    expect(Math.abs(c / (v.length / 2))).toBeLessThan(5 / Math.sqrt(v.length / 2));

    const t = empty([512, 512], dev).t();
    normal_(t, 3, 2);
    const w = await take(t);
    const s = stats(w);
    expect(Math.abs(s.mean - 3)).toBeLessThan(5 * 2 / 512);
    expect(Math.abs(Math.sqrt(s.variance) - 2)).toBeLessThan(0.02);
  });

  it('exponential_, cauchy_, logNormal_, geometric_ and random_ transform the device draws into their distributions', async () => {
    manualSeed(3);
    const n = 1 << 18;
    const e = await take(exponential_(empty([n], dev), 2));
    expect(minOf(e)).toBeGreaterThan(0);
    // Exp(2): mean 1/2, sd 1/2; P(x < ln 2 / 2) = 1/2
    expect(Math.abs(stats(e).mean - 0.5)).toBeLessThan(5 * 0.5 / Math.sqrt(n));
    expectFrequency(count(e, (x) => x < Math.LN2 / 2), n, 0.5);
    const c = await take(cauchy_(empty([n], dev), 1, 0.5));
    // Cauchy(1, 0.5): half below the median, half within one scale of it
    expectFrequency(count(c, (x) => x < 1), n, 0.5);
    expectFrequency(count(c, (x) => Math.abs(x - 1) < 0.5), n, 0.5);
    const l = await take(logNormal_(empty([n], dev), 0, 0.25));
    expect(minOf(l)).toBeGreaterThan(0);
    expectFrequency(count(l, (x) => x < 1), n, 0.5);
    expect(Math.abs(stats(l).mean - Math.exp(0.25 ** 2 / 2))).toBeLessThan(5 * 0.26 / Math.sqrt(n));
    const g = await take(geometric_(empty([n], { ...dev, dtype: 'int32' }), 0.3));
    expect(minOf(g)).toBe(1);
    expect(g.every(Number.isInteger)).toBe(true);
    expectFrequency(count(g, (x) => x === 1), n, 0.3);
    expectFrequency(count(g, (x) => x === 2), n, 0.21);
    const r = await take(random_(empty([n], dev), -3, 4));
    expect([minOf(r), maxOf(r)]).toEqual([-3, 3]);
    for (let k = -3; k <= 3; k++) expectFrequency(count(r, (x) => x === k), n, 1 / 7);
    const u8 = await take(random_(empty([n], { ...dev, dtype: 'uint8' })));
    expect([minOf(u8), maxOf(u8)]).toEqual([0, 255]);
    expectFrequency(count(u8, (x) => x < 128), n, 0.5);
  });

  it('float16 and bfloat16 (emulated): 11- and 8-bit uniforms below 1, normals, bernoulli with float16 probabilities', async () => {
    manualSeed(3);
    const half = async (t: Tensor) => (await take(t)).map(f16BitsToNumber); // (readValues gives float16's raw bits)
    const u = await half(rand([100000], { ...dev, dtype: 'float16' }));
    expect(minOf(u)).toBeGreaterThanOrEqual(0);
    expect(maxOf(u)).toBeLessThan(1);
    expect(u.every((x) => Number.isInteger(x * 2048))).toBe(true);
    expect(Math.abs(stats(u).mean - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / 1e5));
    const b = (await take(rand([20000], { ...dev, dtype: 'bfloat16' }))).map(bf16BitsToNumber);
    expect(maxOf(b)).toBeLessThan(1);
    expect(b.every((x) => x >= 0 && Number.isInteger(x * 256))).toBe(true);
    expect(Math.abs(stats(b).mean - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / 2e4));
    const z = await half(randn([100000], { ...dev, dtype: 'float16' }));
    expect(Math.abs(stats(z).mean)).toBeLessThan(5 / Math.sqrt(1e5));
    expect(Math.abs(stats(z).variance - 1)).toBeLessThan(0.03);
    const probs = gpuTensor([0, 1, 0.25, 0.5].map(f64ToF16Bits), 'float16', [1, 4]);
    const out = empty([20000, 4], { ...dev, dtype: 'float16' });
    bernoulli_(out, probs);
    const got = await half(out);
    expect(got.every((y) => y === 0 || y === 1)).toBe(true);
    for (let j = 0; j < 4; j++) {
      const col = got.filter((_, i) => i % 4 === j);
      expectFrequency(count(col, (y) => y === 1), col.length, [0, 1, 0.25, 0.5][j]);
    }
    probs.dispose();
  });

  it('a seed gives the same values run to run and whatever the layout; successive calls differ', async () => {
    manualSeed(7);
    const a = await take(randn([3, 50], dev));
    const b = await take(randn([3, 50], dev));
    manualSeed(7);
    const a2 = await take(randn([3, 50], dev));
    expect(a2).toEqual(a);
    expect(b).not.toEqual(a);
    // the i-th logical element draws counter i whatever the strides
    manualSeed(7);
    const tr = empty([50, 3], dev).t();
    normal_(tr);
    expect(await take(tr)).toEqual(a);
    // an explicit generator is apart from the default one
    const g = new Generator().manualSeed(7);
    expect(await take(randn([3, 50], { ...dev, generator: g }))).toEqual(a);
  });

  it('device draws leave the generator\'s MT19937 engine (the CPU stream) alone', async () => {
    const g = new Generator().manualSeed(5);
    (await take(rand([6], { ...dev, generator: g }))).length;
    expect(g.random()).toBe(new Generator().manualSeed(5).random());
  });

  it('bernoulli with a float p and with a tensor of probabilities, into every WebGPU dtype', async () => {
    manualSeed(11);
    const n = 1 << 20;
    const x = empty([n], dev);
    const v = await take(bernoulli(x, 0.3));
    x.dispose();
    expect(v.every((y) => y === 0 || y === 1)).toBe(true);
    expectFrequency(count(v, (y) => y === 1), n, 0.3);

    // probabilities 0, 1, 0.25, 0.9 repeating; p broadcast over rows
    const pv = [0, 1, 0.25, 0.9];
    const probs = gpuTensor(pv, 'float32', [1, 4]);
    const out = empty([250000, 4], dev);
    bernoulli_(out, probs);
    const got = await take(out);
    for (let j = 0; j < 4; j++) {
      const col = got.filter((_, i) => i % 4 === j);
      expectFrequency(count(col, (y) => y === 1), col.length, pv[j]);
    }
    const same = await take(bernoulli(gpuTensor([0.5, 0, 1, 0.5], 'float32', [2, 2]).t()));
    expect([same[1], same[2]]).toEqual([1, 0]);
    for (const dtype of ['int32', 'uint8', 'bool', 'int64'] as const) {
      const t = empty([4000], { ...dev, dtype });
      bernoulli_(t, 0.5);
      const ints = await take(t);
      expect(ints.every((y) => y === 0 || y === 1)).toBe(true);
      expectFrequency(count(ints, (y) => y === 1), 4000, 0.5);
    }
    probs.dispose();
  });

  it('dropout zeroes about p of the elements and scales the rest by 1 / (1 - p)', async () => {
    manualSeed(12);
    const n = 1 << 20;
    const x = gpuTensor(Array.from({ length: n }, (_, i) => 1 + (i % 7)));
    const y = dropout(x, { p: 0.2 });
    const xv = await readValues(x);
    const yv = await take(y);
    let kept = 0;
    let wrong = 0;
    for (let i = 0; i < n; i++) {
      if (yv[i] === 0) continue;
      kept++;
      if (!(Math.abs(yv[i] - xv[i] / 0.8) <= 1e-6 * xv[i])) wrong++;
    }
    expect(wrong, 'kept elements not scaled by 1 / (1 - p)').toBe(0);
    expectFrequency(kept, n, 0.8);
    // the mask is elementwise random, not blocks: neighbours are independent
    let both = 0;
    for (let i = 0; i + 1 < n; i += 2) if (yv[i] !== 0 && yv[i + 1] !== 0) both++;
    expectFrequency(both, n / 2, 0.64);
    // the same seed, the same mask
    manualSeed(12);
    expect(await take(dropout(x, { p: 0.2 }))).toEqual(yv);
    x.dispose();
  });

  it('multinomial with replacement draws each category with its probability (never a zero one)', async () => {
    manualSeed(13);
    const weights = [1, 2, 0, 7, 0.5, 0, 4.5];
    const total = weights.reduce((a, b) => a + b, 0);
    const probs = gpuTensor([...weights, ...[...weights].reverse()], 'float32', [2, 7]);
    const samples = 100000;
    const s = multinomial(probs, samples, { replacement: true });
    expect(s.dtype).toBe('int64');
    expect([...s.shape]).toEqual([2, samples]);
    const v = await take(s);
    for (let row = 0; row < 2; row++) {
      const w = row === 0 ? weights : [...weights].reverse();
      const part = v.slice(row * samples, (row + 1) * samples);
      for (let k = 0; k < 7; k++) {
        const c = count(part, (x) => x === k);
        if (w[k] === 0) expect(c).toBe(0);
        else expectFrequency(c, samples, w[k] / total);
      }
    }
    // a 1-D distribution over more categories than one workgroup holds (chunked running sum)
    const big = Array.from({ length: 700 }, (_, i) => (i % 100 === 0 ? 50 : 0));
    const one = await take(multinomial(gpuTensor(big), 20000, { replacement: true }));
    for (let k = 0; k < 700; k += 100) expectFrequency(count(one, (x) => x === k), 20000, 1 / 7);
    expect(one.every((x) => x % 100 === 0)).toBe(true);
    probs.dispose();
  });

  it('multinomial without replacement: distinct samples, the first drawn with its probability', async () => {
    manualSeed(14);
    const weights = [0.1, 0.2, 0, 0.7];
    const rows = 4000;
    const probs = gpuTensor(Array.from({ length: rows * 4 }, (_, i) => weights[i % 4]), 'float32', [rows, 4]);
    const v = await take(multinomial(probs, 4));
    const firsts: number[] = [];
    const bad: string[] = [];
    for (let r = 0; r < rows; r++) {
      const row = v.slice(4 * r, 4 * r + 4);
      // a permutation, and the zero-weight category only once the others are drawn
      if ([...row].sort().join() !== '0,1,2,3' || row[3] !== 2) bad.push(`row ${r}: ${row.join()}`);
      firsts.push(row[0]);
    }
    expect(bad.slice(0, 5)).toEqual([]);
    for (const k of [0, 1, 3]) expectFrequency(count(firsts, (x) => x === k), rows, weights[k]);
    // P(second = 1 | first = 3) = 0.2 / 0.3
    const after3 = v.filter((_, i) => i % 4 === 1 && v[i - 1] === 3);
    expectFrequency(count(after3, (x) => x === 1), after3.length, 0.2 / 0.3);
    // many categories, a few samples, from a transposed (strided) tensor
    const wide = Array.from({ length: 600 }, (_, i) => (i < 300 ? 1 : 0));
    const t = gpuTensor(wide, 'float32', [600, 1]).t();
    const few = await take(multinomial(t, 50));
    expect(new Set(few).size).toBe(50);
    expect(few.every((x) => x < 300)).toBe(true);
    probs.dispose();
  });

  it("bad probabilities raise CPU's errors at the reads of the draw (device-side checks)", async () => {
    const cases: [() => Tensor, RegExp][] = [
      [() => bernoulli(gpuTensor([0.5, 1.5])), /^bernoulli_: Expected p_in >= 0 && p_in <= 1/],
      [() => bernoulli(gpuTensor([0.5, Number.NaN])), /^bernoulli_: Expected p_in >= 0 && p_in <= 1/],
      [() => multinomial(gpuTensor([0.5, -0.1, 0.2]), 2, { replacement: true }), /^multinomial: invalid multinomial distribution \(encountering probability entry < 0\)/],
      [() => multinomial(gpuTensor([0.5, Infinity]), 2, { replacement: true }), /infinity or NaN/],
      [() => multinomial(gpuTensor([0.5, -0.1, 0.2]), 2), /^multinomial: probability tensor contains either `inf`, `nan` or element < 0/],
      [() => multinomial(gpuTensor([0, 0, 0, 1, 0, 0], 'float32', [2, 3]), 2, { replacement: true }), /sum of probabilities <= 0/],
      [() => multinomial(gpuTensor(new Array(100).fill(0)), 1), /sum of probabilities <= 0/],
    ];
    for (const [make, message] of cases) {
      const t = make();
      await expect(readValues(t)).rejects.toThrow(message);
      await expect(readValues(t)).rejects.toThrow(message); // at every read of it
      t.dispose();
      // other tensors read fine
      expect(await take(rand([3], dev))).toHaveLength(3);
    }
  });

  it('leaves no live tensors and no allocated bytes behind', async () => {
    const before = memoryStats();
    for (let i = 0; i < 3; i++) {
      rand([100], dev).dispose();
      const e = empty([100], dev);
      bernoulli(e, 0.5).dispose();
      e.dispose();
      const p = gpuTensor([1, 2, 3]);
      multinomial(p, 2).dispose();
      multinomial(p, 5, { replacement: true }).dispose();
      p.dispose();
    }
    const after = memoryStats();
    expect(after.allocatedBytes).toBe(before.allocatedBytes);
  });
});
