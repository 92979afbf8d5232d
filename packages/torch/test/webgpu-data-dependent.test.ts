/**
 * Data-dependent sizes on WebGPU (core Note [Data-dependent sizes on async-read backends]):
 * nonzero, maskedSelect and `x.index(mask)` refuse their sync forms there, naming the async
 * ones; `nonzeroAsync`, `maskedSelectAsync` and `x.indexAsync` match CPU; maskedScatter and
 * `indexPut_` with a mask run with no count; autograd goes through all of them; nothing
 * leaks. CPU is the oracle. Skipped without a WebGPU adapter, unless
 * TORCH_TS_REQUIRE_WEBGPU=1 makes that an error (`webgpu.init` throws).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

const ready = await torch.webgpu.init();
if (!ready) console.warn('[webgpu-data-dependent] SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');

const X = [
  [1.5, 0, -2, 0],
  [0, 3, Number.NaN, -0],
  [4, 0, 0, 5],
];
const M = [
  [true, false, true, false],
  [false, true, true, true],
  [true, false, false, true],
];

async function list(t: Tensor | readonly Tensor[]): Promise<unknown> {
  if (Array.isArray(t)) return Promise.all((t as Tensor[]).map((x) => x.tolistAsync()));
  return (t as Tensor).tolistAsync();
}

function gpu(data: unknown, dtype: torch.DType = 'float32'): Tensor {
  return torch.tensor(data as number[], { dtype, device: 'webgpu' });
}
function cpu(data: unknown, dtype: torch.DType = 'float32'): Tensor {
  return torch.tensor(data as number[], { dtype });
}

/**
 * No tensor or storage more than `before`. Counts may drop meanwhile: the FinalizationRegistry
 * safety net releases what earlier tests left to the GC whenever a collection runs.
 */
function expectNoGrowth(before: { tensors: number; storages: number }): void {
  const now = live();
  expect(now.tensors, `live tensors ${before.tensors} -> ${now.tensors}`).toBeLessThanOrEqual(before.tensors);
  expect(now.storages, `live storages ${before.storages} -> ${now.storages}`).toBeLessThanOrEqual(before.storages);
}

function live(): { tensors: number; storages: number } {
  const s = torch.memory.stats('webgpu');
  const c = torch.memory.stats('cpu');
  return { tensors: s.liveTensors + c.liveTensors, storages: s.liveStorages + c.liveStorages };
}

describe.skipIf(!ready)('data-dependent sizes on WebGPU', () => {
  it('refuses the sync forms by naming the async ones, before any work', () => {
    const x = gpu(X);
    const m = gpu(M, 'bool');
    const col = gpu([true, false, true, true], 'bool');
    const row = m.index(':', 0);
    const xc = x.clone();
    const one = torch.tensor(1, { device: 'webgpu' });
    const wrong = gpu([true, false, true], 'bool');
    const short = gpu([true, false], 'bool');
    const before = live();
    expect(() => torch.nonzero(x)).toThrow(/nonzero: the size of the result depends on the data, and webgpu tensors cannot be read synchronously; use `await torch.nonzeroAsync\(x\)`/);
    expect(() => x.nonzero({ asTuple: true })).toThrow(/torch\.nonzeroAsync/);
    expect(() => torch.maskedSelect(x, m)).toThrow(/masked_select: .*use `await torch\.maskedSelectAsync\(x, mask\)`/);
    expect(() => torch.where(m)).toThrow(/nonzeroAsync/);
    expect(() => x.index(m)).toThrow(/index: .*use `await x\.indexAsync\(\.\.\.indices\)`/);
    expect(() => x.index(':', col)).toThrow(/x\.indexAsync/);
    expect(() => xc.indexPut_([row, col], one)).toThrow(/index_put_: .*nonzeroAsync\(mask, \{ asTuple: true \}\)/);
    expectNoGrowth(before);
    // argument errors come first, as on CPU
    expect(() => torch.maskedSelect(x, wrong)).toThrow(/masked_select: The size of tensor a \(4\) must match the size of tensor b \(3\)/);
    expect(() => x.index(short)).toThrow(/index: The shape of the mask \[2\] at index 0 does not match the shape of the indexed tensor \[3, 4\] at index 0/);
    expectNoGrowth(before);
    for (const t of [x, m, col, row, xc, one, wrong, short]) t.dispose();
  });

  it('nonzeroAsync matches CPU (every WebGPU dtype, asTuple, 0-dim, empty, strided)', async () => {
    const cases: [unknown, torch.DType][] = [
      [X, 'float32'],
      [[[1, 0, -3], [0, 0, 7]], 'int32'],
      [[[1, 0, 255], [0, 0, 7]], 'uint8'],
      [M, 'bool'],
      [[[0, 0], [0, 0]], 'float32'],
      [5, 'float32'],
      [0, 'int32'],
      [[], 'float32'],
    ];
    for (const [data, dtype] of cases) {
      const c = cpu(data, dtype);
      const g = gpu(data, dtype);
      expect(await list(await torch.nonzeroAsync(g)), `${dtype} ${JSON.stringify(data)}`).toEqual(c.nonzero().tolist());
      expect(await list(await torch.nonzeroAsync(g, { asTuple: true }))).toEqual(torch.nonzero(c, { asTuple: true }).map((t) => t.tolist()));
      expect(await list(await g.nonzeroAsync())).toEqual(c.nonzero().tolist());
    }
    // strided, transposed and broadcast views
    const big = torch.arange(3000).remainder(7).eq(0).reshape([30, 100]);
    const gb = big.to('webgpu');
    for (const [cv, gv] of [
      [big.t(), gb.t()],
      [big.index('::2', '1::3'), gb.index('::2', '1::3')],
      [big.index(0).expand([5, 100]), gb.index(0).expand([5, 100])],
    ]) {
      expect(await list(await torch.nonzeroAsync(gv))).toEqual(cv.nonzero().tolist());
    }
    // on CPU the async form is the sync one
    expect((await torch.nonzeroAsync(cpu(X))).tolist()).toEqual(cpu(X).nonzero().tolist());
  });

  it('maskedSelectAsync and indexAsync match CPU, with broadcasting and every grammar item', async () => {
    for (const dtype of ['float32', 'int32', 'uint8', 'bool'] as const) {
      const data = dtype === 'bool' ? M.map((r) => r.map((b) => !b)) : dtype === 'float32' ? X : [[1, 0, 2, 0], [0, 3, 9, 0], [4, 0, 0, 5]];
      const c = cpu(data, dtype);
      const g = gpu(data, dtype);
      const cm = cpu(M, 'bool');
      const gm = gpu(M, 'bool');
      expect(await list(await torch.maskedSelectAsync(g, gm)), dtype).toEqual(torch.maskedSelect(c, cm).tolist());
      expect(await list(await g.maskedSelectAsync(gm.index(1)))).toEqual(c.maskedSelect(cm.index(1)).tolist());
      expect(await list(await g.index(0).maskedSelectAsync(gm))).toEqual(c.index(0).maskedSelect(cm).tolist());
      expect(await list(await g.indexAsync(gm))).toEqual(c.index(cm).tolist());
      expect(await list(await g.indexAsync(':', gm.index(0)))).toEqual(c.index(':', cm.index(0)).tolist());
      expect(await list(await g.indexAsync(gm.index(':', 0), '1:'))).toEqual(c.index(cm.index(':', 0), '1:').tolist());
      expect(await list(await g.indexAsync(gm.index(':', 1), torch.tensor([2, 0], { device: 'webgpu' })))).toEqual(
        c.index(cm.index(':', 1), torch.tensor([2, 0])).tolist(),
      );
      expect(await list(await g.indexAsync(null, '...', gm.index(2)))).toEqual(c.index(null, '...', cm.index(2)).tolist());
      expect(await list(await g.indexAsync(gm.to('uint8')))).toEqual(c.index(cm.to('uint8')).tolist());
      expect(await list(await g.indexAsync(torch.tensor(true, { device: 'webgpu' })))).toEqual(c.index(torch.tensor(true)).tolist());
      expect(await list(await g.indexAsync(1, '::2'))).toEqual(c.index(1, '::2').tolist()); // no mask: a view
    }
    const out = torch.empty([7], { device: 'webgpu' });
    const r = await torch.maskedSelectAsync(gpu(X), gpu(M, 'bool'), { out });
    expect(r).toBe(out);
    expect(await list(out)).toEqual(torch.maskedSelect(cpu(X), cpu(M, 'bool')).tolist());
    expect((await torch.maskedSelectAsync(cpu(X), cpu(M, 'bool'))).tolist()).toEqual(torch.maskedSelect(cpu(X), cpu(M, 'bool')).tolist());
  });

  it('maskedScatter runs with no count and matches CPU; a short source is a device-side error', async () => {
    for (const dtype of ['float32', 'int32', 'uint8', 'bool', 'int64'] as const) {
      const data = dtype === 'bool' ? M : [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]];
      const src = dtype === 'bool' ? [[false, true, false], [true, false, true], [false, false, true]] : [[-1, -2, -3], [-4, -5, -6], [-7, -8, 0]];
      const s = dtype === 'uint8' ? src.map((r) => r.map((v) => Math.abs(Number(v)))) : src;
      const c = cpu(data, dtype);
      const g = gpu(data, dtype);
      const cm = cpu(M, 'bool');
      const gm = gpu(M, 'bool');
      expect(await list(torch.maskedScatter(g, gm, gpu(s, dtype))), dtype).toEqual(torch.maskedScatter(c, cm, cpu(s, dtype)).tolist());
      // a broadcast mask, a transposed self and a non-contiguous source
      expect(await list(g.t().maskedScatter(gm.index(0).index(':', null), gpu(s, dtype).t()))).toEqual(
        c.t().maskedScatter(cm.index(0).index(':', null), cpu(s, dtype).t()).tolist(),
      );
      const gi = g.clone();
      gi.maskedScatter_(gm, gpu(s, dtype).reshape([-1]));
      expect(await list(gi)).toEqual(c.clone().maskedScatter_(cm, cpu(s, dtype).reshape([-1])).tolist());
    }
    // more than one workgroup of true elements
    const n = 5000;
    const cm = torch.arange(n).remainder(3).ne(1);
    const csrc = torch.arange(n, { dtype: 'float32' }).neg();
    const want = torch.zeros([n]).maskedScatter(cm, csrc).tolist();
    expect(await list(torch.zeros([n], { device: 'webgpu' }).maskedScatter(cm.to('webgpu'), csrc.to('webgpu')))).toEqual(want);
    const bad = torch.maskedScatter(gpu([1, 2, 3]), gpu([true, true, true], 'bool'), gpu([1, 2]));
    await expect(bad.tolistAsync()).rejects.toThrow(/masked_scatter_: Number of elements of source < number of ones in mask/);
    bad.dispose();
    const empty = torch.maskedScatter(gpu([1, 2]), gpu([true, false], 'bool'), gpu([]));
    await expect(empty.tolistAsync()).rejects.toThrow(/Number of elements of source < number of ones in mask/);
    empty.dispose();
    // no true element and an empty source: nothing to do
    expect(await list(torch.maskedScatter(gpu([1, 2]), gpu([false, false], 'bool'), gpu([])))).toEqual([1, 2]);
  });

  it('indexPut_ with one bool mask runs with no count and matches CPU', async () => {
    const cm = cpu(M, 'bool');
    const gm = gpu(M, 'bool');
    const cases: [unknown[], unknown[], Tensor | number, boolean][] = [
      [[cm], [gm], -1, false],
      [[cm], [gm], 2.5, true],
      [[cm], [gm], torch.tensor([10, 20, 30, 40, 50, 60, 70]), false],
      [[cm], [gm], torch.tensor([10, 20, 30, 40, 50, 60, 70]), true],
      [[cm.index(':', 0)], [gm.index(':', 0)], torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]]), false],
      [[cm.index(':', 0)], [gm.index(':', 0)], torch.tensor([1, 2, 3, 4]), true],
      [[null, cm.index(0)], [null, gm.index(0)], torch.tensor([[1, 2], [3, 4], [5, 6]]), false],
      [[null, cm.index(0)], [null, gm.index(0)], torch.tensor([[7], [8], [9]]), true],
    ];
    for (const [ci, gi, v, accumulate] of cases) {
      const c = cpu(X).clone();
      const g = gpu(X).clone();
      const cv = typeof v === 'number' ? v : v.to('float32');
      const gv = typeof v === 'number' ? v : v.to('float32').to('webgpu');
      c.indexPut_(ci, cv, { accumulate });
      const r = g.indexPut_(gi, gv, { accumulate });
      expect(r).toBe(g);
      expect(await list(g), `${JSON.stringify(ci.map((t) => (t as Tensor | null)?.shape))} ${accumulate}`).toEqual(c.tolist());
    }
    // a uint8 mask, int32 and bool data
    const gi = gpu([[1, 2], [3, 4]], 'int32');
    gi.indexPut_([gpu([[1, 0], [0, 1]], 'uint8')], torch.tensor(9, { dtype: 'int32', device: 'webgpu' }));
    expect(await gi.tolistAsync()).toEqual([[9, 2], [3, 9]]);
    // values whose count differs from the mask's: PyTorch's shape mismatch, at the next read
    const bad = gpu(X).clone();
    bad.indexPut_([gm], gpu([1, 2, 3]));
    await expect(bad.tolistAsync()).rejects.toThrow(/index_put_: shape mismatch: value tensor of shape \[3\] cannot be broadcast to indexing result of shape \[7\]/);
    const bad2 = gpu(X).clone();
    expect(() => bad2.indexPut_([gm.index(':', 0)], gpu([[1, 2, 3]]))).toThrow(/index_put_: shape mismatch/);
    expect(() => bad2.indexPut_([gm], gpu([1], 'int32'))).toThrow(/index_put_: Index put requires the source and destination dtypes match/);
  });

  it('gradients through the async forms, maskedScatter and a masked indexPut match CPU', async () => {
    const grads = async (device: 'cpu' | 'webgpu'): Promise<unknown[]> => {
      const x = torch.tensor(X.map((r) => r.map((v) => (Number.isNaN(v) ? 0.5 : v))), { device, requiresGrad: true });
      const m = torch.tensor(M, { dtype: 'bool', device });
      const w = torch.arange(7, { dtype: 'float32', device }).add(1);
      const sel = await torch.maskedSelectAsync(x, m);
      const rows = await x.indexAsync(m.index(':', 0));
      const src = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9.5]], { device, requiresGrad: true });
      const sc = torch.maskedScatter(x.mul(2), m, src);
      const v = torch.tensor([3, 1, 4, 1, 5, 9, 2.5], { device, requiresGrad: true });
      const put = x.mul(1).indexPut([m], v);
      const loss = sel.mul(w).sum().add(rows.pow(2).sum()).add(sc.mul(sc).sum()).add(put.mul(put).sum());
      loss.backward();
      return [await list(x.grad!), await list(src.grad!), await list(v.grad!), sel.gradFn?.name(), rows.gradFn?.name()];
    };
    const c = await grads('cpu');
    const g = await grads('webgpu');
    expect(g).toEqual(c);
    // the maskedScatter source gradient with a mask that broadcasts
    const sg = async (device: 'cpu' | 'webgpu') => {
      const src = torch.arange(12, { dtype: 'float32', device }).requiresGrad_();
      const out = torch.zeros([3, 4], { device }).maskedScatter(torch.tensor([true, false, true, true], { device }), src);
      out.mul(torch.arange(12, { dtype: 'float32', device }).reshape([3, 4])).sum().backward();
      return list(src.grad!);
    };
    expect(await sg('webgpu')).toEqual(await sg('cpu'));
  });

  it('leaks nothing across a loop of the async forms, their errors included', async () => {
    const x = gpu(X);
    const m = gpu(M, 'bool');
    const badMask = gpu([true, false], 'bool');
    const shortMask = gpu([true], 'bool');
    const col = m.index(':', 1);
    const step = async () => {
      const a = await torch.nonzeroAsync(x);
      const b = await torch.nonzeroAsync(m, { asTuple: true });
      const c = await torch.maskedSelectAsync(x, m);
      const d = await x.indexAsync(col, '1:');
      const e = torch.maskedScatter(x, m, x);
      const f = x.clone().indexPut_([m], 2);
      await Promise.all([a, ...b, c, d, e, f].map((t) => t.data()));
      for (const t of [a, ...b, c, d, e, f]) t.dispose();
      await expect(torch.maskedSelectAsync(x, badMask)).rejects.toThrow(/masked_select/);
      await expect(x.indexAsync(shortMask)).rejects.toThrow(/index: The shape of the mask/);
      expect(() => torch.maskedSelect(x, m)).toThrow(/maskedSelectAsync/);
    };
    await step();
    await torch.webgpu.synchronize();
    const before = live();
    for (let i = 0; i < 10; i++) await step();
    await torch.webgpu.synchronize();
    expectNoGrowth(before);
    for (const t of [x, m, badMask, shortMask, col]) t.dispose();
  });
});

describe.skipIf(!ready)('oneHot and repeatInterleave on webgpu (no host reads)', () => {
  it('refuses the forms that need a read, naming what to pass instead', () => {
    const idx = gpu([0, 2, 1], 'int64');
    const reps = gpu([1, 0, 2], 'int64');
    const x = gpu([1, 2, 3]);
    expect(() => torch.nn.functional.oneHot(idx)).toThrow(/one_hot: num_classes=-1 needs the largest class value, and webgpu tensors cannot be read synchronously; pass numClasses/);
    expect(() => torch.repeatInterleave(x, reps)).toThrow(/repeat_interleave: the size of the result depends on the repeats, and webgpu tensors cannot be read synchronously; pass \{ outputSize \}/);
    expect(() => torch.repeatInterleave(reps)).toThrow(/pass \{ outputSize \}/);
    for (const t of [idx, reps, x]) t.dispose();
  });

  it('oneHot with numClasses and repeatInterleave with outputSize equal CPU, gradients included', async () => {
    const oh = torch.nn.functional.oneHot(gpu([[0, 2], [1, 1]], 'int64'), { numClasses: 4 });
    expect(await oh.tolistAsync()).toEqual(torch.nn.functional.oneHot(cpu([[0, 2], [1, 1]], 'int64'), { numClasses: 4 }).tolist());
    expect(await torch.repeatInterleave(gpu([2, 0, 3], 'int64'), { outputSize: 5 }).tolistAsync()).toEqual([0, 0, 2, 2, 2]);
    const grads: unknown[] = [];
    const values: unknown[] = [];
    for (const device of ['cpu', 'webgpu'] as const) {
      const x = torch.tensor([[1, 2], [3, 4], [5, 6]], { dtype: 'float32', device, requiresGrad: true });
      const r = torch.tensor([2, 0, 1], { dtype: 'int64', device });
      const y = torch.repeatInterleave(x, r, { dim: 0, outputSize: 3 });
      values.push(await y.tolistAsync());
      y.mul(torch.tensor([[1, 2], [3, 4], [5, 6]], { device })).sum().backward();
      grads.push(await x.grad!.tolistAsync());
    }
    expect(values[1]).toEqual(values[0]);
    expect(grads[1]).toEqual(grads[0]);
  });

  it('reports an out-of-range class at the next read, as scatter does (PyTorch on CUDA likewise)', async () => {
    const oh = torch.nn.functional.oneHot(gpu([0, 7], 'int64'), { numClasses: 3 });
    await expect(oh.tolistAsync()).rejects.toThrow(/out of bounds/);
  });
});

describe.skipIf(!ready)('unique on webgpu (uniqueAsync)', () => {
  /** [values, inverse?, counts?] as lists (unique's result is one tensor without flags). */
  async function uniqueList(r: Tensor | Tensor[]): Promise<unknown> {
    return list(Array.isArray(r) ? r : [r]);
  }
  function asList(r: Tensor | Tensor[]): unknown {
    return (Array.isArray(r) ? r : [r]).map((t) => t.tolist());
  }

  it('refuses the sync form by naming uniqueAsync, after the argument checks and before any work', () => {
    const x = gpu(X);
    const z = torch.zeros([2, 0], { device: 'webgpu' });
    const before = live();
    expect(() => torch.unique(x)).toThrow(/unique: the size of the result depends on the data, and webgpu tensors cannot be read synchronously; use `await torch\.uniqueAsync\(x, options\)`/);
    expect(() => x.unique({ dim: 1, returnCounts: true })).toThrow(/torch\.uniqueAsync/);
    expectNoGrowth(before);
    expect(() => torch.unique(x, { dim: 2 })).toThrow(/unique: Dimension out of range/);
    expect(() => torch.unique(z, { dim: 0 })).toThrow(/Number of zero sized dimensions/);
    expectNoGrowth(before);
    x.dispose();
    z.dispose();
  });

  // One test per case, rather than one test of them all: under CI's load (SwiftShader on 2
  // cores shared with other suites) the single test took two minutes, against its limit.
  const flags = [{}, { returnInverse: true }, { returnCounts: true }, { returnInverse: true, returnCounts: true, sorted: false }];
  // (values with NaN, -0 and ties; a long row over several workgroups and the global sort steps)
  const long = Array.from({ length: 3000 }, (_, i) => ((i * 7919) % 613) - 300);
  const cases: [string, torch.DType, unknown][] = [
    ['NaN, -0 and ties', 'float32', [3, -0, 0, Number.NaN, 1.5, 3, Number.NaN, -2, 1.5]],
    ['NaN, -0 and ties', 'float16', [3, -0, 0, Number.NaN, 1.5, 3, Number.NaN, -2, 1.5]],
    ['a long row', 'int32', long],
    ['a long row', 'float32', long.map((v) => v / 4)],
    ['ties', 'uint8', [5, 200, 5, 0, 255, 200, 1]],
    ['ties', 'bool', [true, false, true, true]],
    ['values past 2^32', 'int64', [-3, 2 ** 40, -3, 7, -(2 ** 40), 7, 0]],
    ['no elements', 'float32', []],
    ['a 2-d tensor, flattened', 'int32', [[1, 2, 1], [3, 2, 3]]],
  ];
  it.each(cases)('uniqueAsync matches CPU with every flag: %s, %s', async (_what, dtype, data) => {
    const values = dtype === 'int64' ? (data as number[]).map((v) => BigInt(v)) : data;
    const c = torch.tensor(values as number[], { dtype });
    const g = c.to('webgpu');
    for (const o of flags) {
      expect(await uniqueList(await torch.uniqueAsync(g, o)), `${dtype} ${JSON.stringify(o)}`).toEqual(asList(torch.unique(c, o)));
    }
    g.dispose();
    c.dispose();
  });

  // rows: dim 0 and 1 of a 2-d and 3-d tensor with repeated rows (NaN rows are all distinct)
  const rowCases: [string, () => Tensor][] = [
    ['repeated and NaN rows', () => torch.tensor([[1, 2, 0], [0, 5, 1], [1, 2, 0], [Number.NaN, 1, 1], [0, 5, 1], [Number.NaN, 1, 1], [-0, 5, 1]])],
    ['a 3-d tensor', () => torch.arange(60, { dtype: 'int32' }).remainder(5).reshape([3, 4, 5])],
    ['600 rows over several blocks', () => torch.arange(2400, { dtype: 'int32' }).remainder(37).reshape([600, 4]).remainder(3)],
  ];
  it.each(rowCases)('uniqueAsync with dim matches CPU (dims 0, 1, -1, every flag): %s', async (_what, make) => {
    const c = make();
    const g = c.to('webgpu');
    for (const dim of [0, 1, -1]) {
      for (const o of flags) {
        const opts = { ...o, dim };
        expect(await uniqueList(await g.uniqueAsync(opts)), JSON.stringify(opts)).toEqual(asList(c.unique(opts)));
      }
    }
    g.dispose();
    c.dispose();
  });

  it('uniqueAsync of a strided view and a 0-dim tensor, on CPU, and its errors', async () => {
    const c2 = torch.tensor([[1, 2, 0], [0, 5, 1], [1, 2, 0], [Number.NaN, 1, 1], [0, 5, 1], [Number.NaN, 1, 1], [-0, 5, 1]]);
    const g2 = c2.to('webgpu');
    const gt = g2.t();
    expect(await uniqueList(await torch.uniqueAsync(gt, { dim: 1, returnInverse: true }))).toEqual(asList(torch.unique(c2.t(), { dim: 1, returnInverse: true })));
    const g0 = torch.tensor(4, { device: 'webgpu' });
    expect(await uniqueList(await torch.uniqueAsync(g0, { returnInverse: true, returnCounts: true }))).toEqual([[4], 0, [1]]);
    // on CPU, uniqueAsync is unique
    expect(asList(await torch.uniqueAsync(c2, { dim: 0, returnCounts: true }))).toEqual(asList(torch.unique(c2, { dim: 0, returnCounts: true })));
    await expect(torch.uniqueAsync(g2, { dim: 3 })).rejects.toThrow(/unique: Dimension out of range/);
    await expect(torch.uniqueAsync(torch.ones([2], { dtype: 'float64' }).to('webgpu'))).rejects.toThrow(/unique.*float64/);
    for (const t of [c2, g2, gt, g0]) t.dispose();
  });

  it('leaks nothing across a loop of uniqueAsync, its errors included', async () => {
    const x = gpu([[1, 2], [3, 4], [1, 2], [Number.NaN, 0]]);
    const step = async () => {
      const a = (await torch.uniqueAsync(x, { returnInverse: true, returnCounts: true })) as Tensor[];
      const b = (await x.uniqueAsync({ dim: 0, returnCounts: true })) as Tensor[];
      const c = (await torch.uniqueAsync(x)) as Tensor;
      await Promise.all([...a, ...b, c].map((t) => t.data()));
      for (const t of [...a, ...b, c]) t.dispose();
      await expect(torch.uniqueAsync(x, { dim: 2 })).rejects.toThrow(/unique: Dimension out of range/);
      expect(() => torch.unique(x)).toThrow(/uniqueAsync/);
    };
    await step();
    await torch.webgpu.synchronize();
    const before = live();
    for (let i = 0; i < 5; i++) await step();
    await torch.webgpu.synchronize();
    expectNoGrowth(before);
    x.dispose();
  });

  it('bincount refuses its sync form by naming bincountAsync, after the argument checks; bincountAsync reads the min and max, matches CPU and leaks nothing', async () => {
    const data = [3, 0, 7, 3, 1];
    const x = gpu(data, 'int32');
    const w = gpu([0.5, 1.5, 2, -1, 4]);
    const neg = gpu([1, -2], 'int32');
    const short = gpu([1, 2]);
    const before = live();
    expect(() => torch.bincount(x)).toThrow(/bincount: the size of the result depends on the data, and webgpu tensors cannot be read synchronously; use `await torch\.bincountAsync\(x, weights, minlength\)`/);
    expect(() => torch.bincount(x, short)).toThrow(/bincount: weights should be 1-d and have the same length as input/);
    expect(() => torch.bincount(x, { minlength: -1 })).toThrow(/bincount: minlength should be >= 0/);
    expectNoGrowth(before);
    const expected = torch.tidy(() => [torch.bincount(cpu(data, 'int32')).tolist(), torch.bincount(cpu(data, 'int32'), cpu([0.5, 1.5, 2, -1, 4]), 10).tolist()]);
    const read = async (r: Promise<Tensor>) => {
      const t = await r;
      try {
        return await t.tolistAsync();
      } finally {
        t.dispose();
      }
    };
    for (let i = 0; i < 3; i++) {
      expect(await read(torch.bincountAsync(x))).toEqual(expected[0]);
      expect(await read(x.bincountAsync(w, 10))).toEqual(expected[1]);
      await expect(torch.bincountAsync(neg)).rejects.toThrow(/bincount: bincount only supports 1-d non-negative integral inputs/);
      const empty = gpu([], 'int32');
      expect(await read(torch.bincountAsync(empty, { minlength: 2 }))).toEqual([0, 0]);
      empty.dispose();
    }
    expectNoGrowth(before);
    for (const t of [x, w, neg, short]) t.dispose();
  });
});
