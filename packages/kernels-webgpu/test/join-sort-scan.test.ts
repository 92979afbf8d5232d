/**
 * The join/reorder, sort and scan kernels at sizes the OpInfo goldens do not reach: rows
 * longer than one workgroup's memory (the multi-pass bitonic sort, scans over many chunks),
 * many rows, strided and flipped inputs, int64 scans that carry past 32 bits, and the
 * stable order of ties and NaN. Expected values are computed here in plain JS.
 */
import { describe, expect, it } from 'vitest';
import { cat, cummax, cummin, cumprod, cumsum, flip, median, mode, searchsorted, sort, topk, triu, type Tensor } from '@torch-ts/core';
import { gpuTensor, readValues, rng as rand, webgpuReady } from './helpers';
import { commandQueue } from '../src/runtime/queue';
import { ROW_OUTER_MAX } from '../src/wgsl/rows';

/** PyTorch's stable sort of one row: (values, indices), NaN last (first when descending). */
function refSort(row: readonly number[], descending: boolean): { v: number[]; i: number[] } {
  const key = (x: number) => (Number.isNaN(x) ? Infinity : x);
  const idx = row.map((_, i) => i);
  idx.sort((a, b) => {
    const x = row[a], y = row[b];
    const xn = Number.isNaN(x), yn = Number.isNaN(y);
    let c: number;
    if (xn || yn) c = xn && yn ? 0 : xn ? 1 : -1;
    else c = key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0;
    if (descending) c = -c;
    return c !== 0 ? c : a - b;
  });
  return { v: idx.map((i) => row[i]), i: idx };
}

function rowsOf<T>(flat: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let r = 0; r < flat.length / n; r++) out.push(flat.slice(r * n, (r + 1) * n));
  return out;
}

async function values(t: Tensor): Promise<number[]> {
  return readValues(t);
}

describe.skipIf(!webgpuReady)('WebGPU join, sort and scan kernels', () => {
  it('sorts long rows (multi-pass bitonic) stably, ascending and descending, NaN last/first', async () => {
    const rnd = rand(1);
    for (const n of [1500, 5000]) {
      const rows = 3;
      const data = Array.from({ length: rows * n }, () => {
        const u = rnd();
        return u < 0.05 ? NaN : u < 0.1 ? -0 : Math.round((u - 0.5) * 40) / 4; // many ties
      });
      const x = gpuTensor(data, 'float32', [rows, n]);
      for (const descending of [false, true]) {
        const r = sort(x, -1, { descending });
        const gv = rowsOf(await values(r.values), n);
        const gi = rowsOf(await values(r.indices), n);
        rowsOf(data, n).forEach((row, k) => {
          const want = refSort(row.map((v) => Math.fround(v)), descending);
          expect(gi[k]).toEqual(want.i);
          expect(gv[k].map((v) => (Number.isNaN(v) ? 'nan' : v))).toEqual(want.v.map((v) => (Number.isNaN(v) ? 'nan' : v)));
        });
      }
    }
  });

  it('sorts along a strided dim and many short rows; int32 and uint8 keys', async () => {
    const rnd = rand(2);
    const n = 7, rows = 3000;
    const data = Array.from({ length: rows * n }, () => Math.floor(rnd() * 2000) - 1000);
    // [n, rows] sorted along dim 0: each row is strided
    const x = gpuTensor(data, 'int32', [n, rows]);
    const r = sort(x, 0);
    const gv = await values(r.values);
    const gi = await values(r.indices);
    for (let c = 0; c < rows; c += 97) {
      const col = Array.from({ length: n }, (_, k) => data[k * rows + c]);
      const want = refSort(col, false);
      expect(Array.from({ length: n }, (_, k) => gv[k * rows + c])).toEqual(want.v);
      expect(Array.from({ length: n }, (_, k) => gi[k * rows + c])).toEqual(want.i);
    }
    const u = Array.from({ length: 3000 }, () => Math.floor(rnd() * 256));
    const ru = sort(gpuTensor(u, 'uint8'), 0, { descending: true });
    const want = refSort(u, true);
    expect(await values(ru.values)).toEqual(want.v);
    expect(await values(ru.indices)).toEqual(want.i);
  });

  it('int64: sorts 64-bit keys (multi-pass), cummin and searchsorted compare both words', async () => {
    const rnd = rand(7);
    const n = 2500;
    const big = Array.from({ length: n }, () => Math.round((rnd() - 0.5) * 2 ** 50) * (rnd() < 0.3 ? 0 : 1) + Math.floor(rnd() * 3));
    const x = gpuTensor(big, 'int64');
    const r = sort(x, 0, { descending: true });
    const want = refSort(big, true);
    expect(Array.from((await r.values.data({ bigint: true })) as BigInt64Array).map(Number)).toEqual(want.v);
    expect(await values(r.indices)).toEqual(want.i);
    const cm = cummin(x, 0);
    let best = Infinity, at = 0;
    const wi = big.map((v, i) => {
      if (v <= best) [best, at] = [v, i];
      return at;
    });
    expect(await values(cm.indices)).toEqual(wi);
    const bd = gpuTensor([-(2 ** 40), -1, 0, 2 ** 33, 2 ** 40], 'int64');
    expect(await values(searchsorted(bd, gpuTensor([-(2 ** 41), -(2 ** 40), 1, 2 ** 33, 2 ** 45], 'int64')))).toEqual([0, 0, 3, 3, 5]);
    expect(await values(searchsorted(bd, gpuTensor([2 ** 33], 'int64'), { right: true }))).toEqual([4]);
  });

  it('searchsorted with empty boundaries writes zeros, over reused dirty buffers, in every layout', async () => {
    // Every insertion point among no boundaries is 0 (PyTorch 1.13 returns zeros). Each
    // output is allocated just after a junk tensor of its size is freed, so the caching
    // allocator hands it the junk's buffer: an output that is never written reads junk.
    // (2-D and 3-D empty boundaries are what vmap of a 1-D one makes: core took numel / m
    // = 0 rows there, and an empty view of the output reached the kernel.)
    const dirty = (n: number, dtype: 'int64' | 'int32') => gpuTensor(Array.from({ length: n }, (_, i) => 1000 + i), dtype).dispose();
    const vals = (sizes: number[]) => gpuTensor(Array.from({ length: sizes.reduce((a, b) => a * b, 1) }, (_, i) => i - 3.5), 'float32', sizes);
    const cases: [number[], number[]][] = [[[0], [3, 4]], [[3, 0], [3, 4]], [[2, 3, 0], [2, 3, 2]], [[1, 0], [1, 5]]];
    for (const [bs, vs] of cases) {
      const n = vs.reduce((a, b) => a * b, 1);
      for (const [outInt32, right] of [[false, false], [true, true]] as const) {
        const [b, v] = [gpuTensor([], 'float32', bs), vals(vs)];
        dirty(n, outInt32 ? 'int32' : 'int64');
        const r = searchsorted(b, v, { outInt32, right });
        expect([bs, outInt32, r.shape, await values(r)]).toEqual([bs, outInt32, vs, new Array(n).fill(0)]);
      }
      // a non-contiguous out= (written through a contiguous temporary)
      const out = gpuTensor(Array.from({ length: n }, (_, i) => 7 + i), 'int64', [...vs].reverse());
      const outT = out.permute([...vs.keys()].reverse());
      searchsorted(gpuTensor([], 'float32', bs), vals(vs), { out: outT });
      expect([bs, await values(out)]).toEqual([bs, new Array(n).fill(0)]);
    }
  });

  it('topk of long rows, largest and smallest, ties in index order', async () => {
    const rnd = rand(3);
    const n = 4000;
    const data = Array.from({ length: 2 * n }, () => Math.floor(rnd() * 100));
    const x = gpuTensor(data, 'float32', [2, n]);
    for (const largest of [true, false]) {
      const r = topk(x, 50, -1, { largest });
      const gv = rowsOf(await values(r.values), 50);
      const gi = rowsOf(await values(r.indices), 50);
      rowsOf(data, n).forEach((row, k) => {
        const want = refSort(row, largest);
        expect(gv[k]).toEqual(want.v.slice(0, 50));
        expect(gi[k]).toEqual(want.i.slice(0, 50));
      });
    }
  });

  it('median and mode of long rows (lower median, first NaN; mode: smallest most frequent, last index)', async () => {
    const rnd = rand(4);
    const n = 3001;
    const data = Array.from({ length: 2 * n }, () => Math.floor(rnd() * 50));
    data[n + 17] = NaN; // row 1 has a NaN
    data[n + 2000] = NaN;
    const x = gpuTensor(data, 'float32', [2, n]);
    const m = median(x, 1);
    const mv = await values(m.values);
    const mi = await values(m.indices);
    const row0 = data.slice(0, n);
    const s0 = refSort(row0, false);
    expect(mv[0]).toBe(s0.v[(n - 1) >> 1]);
    expect(mi[0]).toBe(s0.i[(n - 1) >> 1]);
    expect(Number.isNaN(mv[1])).toBe(true);
    expect(mi[1]).toBe(17);
    const all = await values(median(gpuTensor(row0, 'float32')));
    expect(all[0]).toBe(s0.v[(n - 1) >> 1]);
    const md = mode(gpuTensor(row0, 'int32'), 0);
    const counts = new Map<number, number>();
    for (const v of row0) counts.set(v, (counts.get(v) ?? 0) + 1);
    let best = Infinity, bestN = 0;
    for (const [v, c] of counts) if (c > bestN || (c === bestN && v < best)) [best, bestN] = [v, c];
    expect(await values(md.values)).toEqual([best]);
    expect(await values(md.indices)).toEqual([row0.lastIndexOf(best)]);
  });

  it('cumsum over long rows (many chunks) matches a double-accumulated sum; int64 carries past 32 bits', async () => {
    const rnd = rand(5);
    const n = 20000;
    const data = Array.from({ length: n }, () => Math.fround(rnd() * 2 - 0.9));
    const got = await values(cumsum(gpuTensor(data, 'float32'), 0));
    let acc = 0;
    let worst = 0;
    for (let i = 0; i < n; i++) {
      acc += data[i];
      worst = Math.max(worst, Math.abs(got[i] - Math.fround(acc)) / Math.max(1, Math.abs(acc)));
    }
    expect(worst).toBeLessThan(2e-7);
    // int32 input -> int64 result: 3e9 needs the high word
    const big = Array.from({ length: 9000 }, () => 1_500_000 + Math.floor(rnd() * 1000));
    const gi = await values(cumsum(gpuTensor(big, 'int32'), 0));
    let s = 0;
    const want = big.map((v) => (s += v));
    expect(gi).toEqual(want);
    expect(want[want.length - 1]).toBeGreaterThan(2 ** 32);
    // in place, over several blocks, uint8 wrapping modulo 256
    const bytes = Array.from({ length: 10000 }, () => Math.floor(rnd() * 256));
    const u = gpuTensor(bytes, 'uint8');
    u.cumsum_(0);
    let b = 0;
    expect(await values(u)).toEqual(bytes.map((v) => (b = (b + v) & 255)));
  });

  it('scans many short rows one invocation per row (cumsum, cummax with ties and NaN), strided', async () => {
    const rnd = rand(8);
    const rows = 600, n = 5;
    const data = Array.from({ length: rows * n }, () => (rnd() < 0.1 ? NaN : Math.floor(rnd() * 4)));
    const x = gpuTensor(data, 'float32', [n, rows]); // scanned along dim 0: strided rows
    const cs = await values(cumsum(x, 0));
    const cm = cummax(x, 0);
    const cv = await values(cm.values);
    const ci = await values(cm.indices);
    for (let c = 0; c < rows; c++) {
      let acc = 0, best = NaN, at = 0;
      for (let k = 0; k < n; k++) {
        const v = data[k * rows + c];
        acc += v;
        if (k === 0 || Number.isNaN(v) || (!Number.isNaN(best) && v >= best)) [best, at] = [v, k];
        const o = k * rows + c;
        expect(Number.isNaN(cs[o]) ? 'nan' : cs[o]).toEqual(Number.isNaN(acc) ? 'nan' : acc);
        expect(Number.isNaN(cv[o]) ? 'nan' : cv[o]).toEqual(Number.isNaN(best) ? 'nan' : best);
        expect(ci[o]).toBe(at);
      }
    }
  });

  it('rows of every rank: one set of kernels up to ROW_OUTER_MAX other dims, unrolled past it (sort, cumsum, median)', async () => {
    const rnd = rand(11);
    const q = commandQueue('test');
    /** Each row of `data` (row-major `sizes`) along `dim`, as [flat offsets, values]. */
    const linesOf = (data: readonly number[], sizes: readonly number[], dim: number): number[][] => {
      const strides = sizes.map((_, d) => sizes.slice(d + 1).reduce((a, b) => a * b, 1));
      const out: number[][] = [];
      for (let o = 0; o < data.length; o++) {
        if (Math.floor(o / strides[dim]) % sizes[dim] !== 0) continue;
        out.push(Array.from({ length: sizes[dim] }, (_, j) => o + j * strides[dim]));
      }
      return out;
    };
    // (outer dims 2 and ROW_OUTER_MAX share the sources; ROW_OUTER_MAX + 1 is unrolled)
    const shapes = [[3, 5, 4], [2, 1, 2, 3, 1, 2, 4, 3], [2, 1, 2, 1, 3, 1, 2, 2, 3]];
    expect(shapes.map((s) => s.length - 1)).toEqual([2, ROW_OUTER_MAX, ROW_OUTER_MAX + 1]);
    const compiled: number[] = [];
    for (const sizes of shapes) {
      const numel = sizes.reduce((a, b) => a * b, 1);
      const data = Array.from({ length: numel }, () => Math.floor(rnd() * 9) - 4);
      const dim = sizes.length - 2; // a middle dim: strided rows
      const x = gpuTensor(data, 'float32', sizes);
      const before = q.counters.pipelinesCompiled;
      const s = sort(x, dim);
      const [sv, si, cs, md] = [await values(s.values), await values(s.indices), await values(cumsum(x, dim)), await values(median(x, dim).values)];
      compiled.push(q.counters.pipelinesCompiled - before);
      linesOf(data, sizes, dim).forEach((line, r) => {
        const row = line.map((o) => data[o]);
        const want = refSort(row, false);
        expect(line.map((o) => sv[o])).toEqual(want.v);
        expect(line.map((o) => si[o])).toEqual(want.i);
        let acc = 0;
        expect(line.map((o) => cs[o])).toEqual(row.map((v) => (acc += v)));
        expect(md[r]).toBe(want.v[(row.length - 1) >> 1]);
      });
    }
    // the rank-8 tensor reuses every kernel of the rank-3 one; the rank-9 one compiles its own decodes
    expect(compiled[1]).toBe(0);
    expect(compiled[2]).toBeGreaterThan(0);
  });

  it('cumprod wraps int64 modulo 2^64 and int32 modulo 2^32; in place on a strided view', async () => {
    const xs = Array.from({ length: 40 }, (_, i) => (i % 5) + 2);
    const exact = cumprod(gpuTensor(xs, 'int64'), 0);
    const host = await exact.data({ bigint: true });
    expect(Array.from(host as BigInt64Array).map(String)).toEqual(
      xs.map(
        ((q) => (v: number) => {
          q = BigInt.asIntN(64, q * BigInt(v));
          return String(q);
        })(1n),
      ),
    );
    const i32 = await values(cumprod(gpuTensor([65536, 65536, 3], 'int32'), 0, { dtype: 'int32' }));
    expect(i32).toEqual([65536, 0, 0]);
    const t = gpuTensor([1, 2, 3, 4, 5, 6], 'float32', [2, 3]);
    t.t().cumsum_(1);
    expect(await values(t)).toEqual([1, 2, 3, 5, 7, 9]);
  });

  it('cummax keeps the latest index on ties and sticks to NaN at its latest position', async () => {
    const data = [1, 3, 3, 2, NaN, 5, NaN, 0];
    const r = cummax(gpuTensor(data, 'float32'), 0);
    expect((await values(r.values)).map((v) => (Number.isNaN(v) ? 'nan' : v))).toEqual([1, 3, 3, 3, 'nan', 'nan', 'nan', 'nan']);
    expect(await values(r.indices)).toEqual([0, 1, 2, 2, 4, 4, 6, 6]);
    const n = 5000;
    const rnd = rand(6);
    const long = Array.from({ length: n }, () => Math.floor(rnd() * 1e6));
    const rl = cummax(gpuTensor(long, 'int32'), 0);
    let best = -Infinity, at = 0;
    const wv: number[] = [], wi: number[] = [];
    long.forEach((v, i) => {
      if (v >= best) [best, at] = [v, i];
      wv.push(best);
      wi.push(at);
    });
    expect(await values(rl.values)).toEqual(wv);
    expect(await values(rl.indices)).toEqual(wi);
  });

  it('searchsorted with a sorter and per-row boundaries; cat of int64 and mixed dtypes; flip; triu of a view', async () => {
    const bd = gpuTensor([5, 1, 3, 3, 9], 'float32');
    const sorter = gpuTensor([1, 2, 3, 0, 4], 'int64');
    const v = gpuTensor([0, 3, 4, 10, NaN], 'float32');
    expect(await values(searchsorted(bd, v, { sorter }))).toEqual([0, 1, 3, 5, 5]);
    expect(await values(searchsorted(bd, v, { sorter, right: true }))).toEqual([0, 3, 3, 5, 5]);
    const rows = gpuTensor([1, 2, 3, 10, 20, 30], 'int32', [2, 3]);
    expect(await values(searchsorted(rows, gpuTensor([2, 2, 25, 0], 'int32', [2, 2]), { outInt32: true }))).toEqual([1, 1, 2, 0]);
    const a = gpuTensor([1, -2], 'int64');
    const b = gpuTensor([2 ** 40, 3], 'int64');
    const c = await cat([a, b]).data({ bigint: true });
    expect(Array.from(c as BigInt64Array)).toEqual([1n, -2n, 2n ** 40n, 3n]);
    expect(await values(cat([gpuTensor([1.5], 'float32'), gpuTensor([7], 'int32'), gpuTensor([1], 'bool')]))).toEqual([1.5, 7, 1]);
    const m = gpuTensor(Array.from({ length: 12 }, (_, i) => i), 'uint8', [3, 4]);
    expect(await values(flip(m, [0, 1]))).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(await values(triu(m.t(), 1))).toEqual([0, 4, 8, 0, 0, 9, 0, 0, 0, 0, 0, 0]);
  });
});
