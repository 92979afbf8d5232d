import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/data.json';
import { thrown } from './helpers';

const d = torch.utils.data;
const { DataLoader, TensorDataset, Dataset, IterableDataset, ConcatDataset, ChainDataset } = d;
const { SequentialSampler, RandomSampler, SubsetRandomSampler, WeightedRandomSampler, BatchSampler } = d;

const ds = () => new TensorDataset(torch.arange(10), torch.arange(10).float().mul(0.5));
const r10 = { length: 10 };
const gen = (seed: number) => new torch.Generator().manualSeed(seed);
const twice = <T>(s: Iterable<T>) => [[...s], [...s]];
const epochs = (loader: Iterable<unknown>, n: number) =>
  Array.from({ length: n }, () => [...loader].map((b) => (b as torch.Tensor[]).map((t) => t.tolist())));

class Range extends Dataset<number> {
  constructor(readonly lo: number, readonly hi: number) {
    super();
  }
  getItem(i: number) {
    return this.lo + i;
  }
  get length() {
    return this.hi - this.lo;
  }
}
class Stream extends IterableDataset<number> {
  constructor(readonly lo: number, readonly hi: number) {
    super();
  }
  *[Symbol.iterator]() {
    for (let i = this.lo; i < this.hi; i++) yield i;
  }
}

describe('samplers equal PyTorch', () => {
  it('Sequential, Random (generator, numSamples, replacement, default generator), SubsetRandom', () => {
    expect([...new SequentialSampler(r10)]).toEqual(golden.sequential);
    expect(twice(new RandomSampler(r10, { generator: gen(3) }))).toEqual(golden['random g3']);
    expect(twice(new RandomSampler(r10, { numSamples: 25, generator: gen(3) }))).toEqual(golden['random g3 numSamples 25']);
    expect(twice(new RandomSampler(r10, { numSamples: 4, generator: gen(3) }))).toEqual(golden['random g3 numSamples 4']);
    expect(twice(new RandomSampler(r10, { replacement: true, generator: gen(4) }))).toEqual(golden['random g4 replacement']);
    const rs = new RandomSampler(r10, { replacement: true, numSamples: 70, generator: gen(4) });
    expect(rs.length).toBe(70);
    expect(twice(rs)).toEqual(golden['random g4 replacement numSamples 70']);
    torch.manualSeed(11);
    expect(twice(new RandomSampler(r10))).toEqual(golden['random default seed 11']);
    expect(torch.rand(2).tolist()).toEqual(golden['random default seed 11 then']);
    expect(twice(new SubsetRandomSampler([3, 9, 4, 17, 0, 8], gen(5)))).toEqual(golden['subsetRandom g5']);
    torch.manualSeed(12);
    expect(twice(new SubsetRandomSampler([3, 9, 4, 17, 0, 8]))).toEqual(golden['subsetRandom default seed 12']);
    expect(torch.rand(2).tolist()).toEqual(golden['subsetRandom default seed 12 then']);
  });

  it('WeightedRandom and Batch (with and without dropLast)', () => {
    const w = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6];
    expect(twice(new WeightedRandomSampler(w, 12, true, gen(6)))).toEqual(golden['weighted g6 replacement 12']);
    expect(twice(new WeightedRandomSampler(torch.tensor(w), 5, false, gen(6)))).toEqual(golden['weighted g6 noReplacement 5']);
    torch.manualSeed(13);
    expect(twice(new WeightedRandomSampler(w, 7))).toEqual(golden['weighted default seed 13']);
    const bs = new BatchSampler(new RandomSampler(r10, { generator: gen(7) }), 3, false);
    expect(bs.length).toBe(4);
    expect(twice(bs)).toEqual(golden['batch random g7 bs 3']);
    expect(twice(new BatchSampler(new RandomSampler(r10, { generator: gen(7) }), 3, true))).toEqual(golden['batch random g7 bs 3 dropLast']);
    const seq = new BatchSampler(new SequentialSampler(r10), 4, true);
    expect(seq.length).toBe(2);
    expect([...seq]).toEqual(golden['batch sequential bs 4 dropLast']);
  });

  it('reject bad arguments with PyTorch messages', () => {
    expect(thrown(() => new RandomSampler(r10, { numSamples: 0 }))).toBeInstanceOf(torch.ValueError);
    expect(thrown(() => new RandomSampler(r10, { numSamples: 0 })).message).toBe('RandomSampler: num_samples should be a positive integer value, but got num_samples=0');
    expect(thrown(() => new RandomSampler(r10, { generator: 3 as never }))).toBeInstanceOf(torch.TorchTypeError);
    expect(thrown(() => new BatchSampler(new SequentialSampler(r10), 0, false)).message).toBe('BatchSampler: batch_size should be a positive integer value, but got batch_size=0');
    expect(thrown(() => new WeightedRandomSampler([[1, 2]] as never, 2)).message).toMatch(/^WeightedRandomSampler: weights should be a 1d sequence but given weights have shape \[1, 2\]/);
    expect(thrown(() => new WeightedRandomSampler([1, 2], 2.5))).toBeInstanceOf(torch.ValueError);
  });
});

describe('DataLoader with samplers and IterableDatasets equals PyTorch', () => {
  it('sampler, batchSampler, shuffle + dropLast moving the generator on', () => {
    const dl = new DataLoader(ds(), { batchSize: 4, sampler: new RandomSampler(ds(), { generator: gen(9) }), generator: gen(8) });
    expect(dl.length).toBe(3);
    expect(epochs(dl, 2)).toEqual(golden['loader sampler']);
    const bl = new DataLoader(ds(), { batchSampler: new BatchSampler(new RandomSampler(ds(), { generator: gen(9) }), 3, true) });
    expect(bl.length).toBe(3);
    expect(bl.batchSize).toBeNull();
    expect(epochs(bl, 2)).toEqual(golden['loader batchSampler']);
    const g = gen(10);
    const sl = new DataLoader(ds(), { batchSize: 5, shuffle: true, dropLast: true, generator: g });
    expect([epochs(sl, 2), torch.rand(2, { generator: g }).tolist()]).toEqual(golden['loader shuffle g10 bs 5 dropLast then']);
    // pinMemory is accepted and changes nothing; timeout is checked and kept
    expect(epochs(new DataLoader(ds(), { batchSize: 4, pinMemory: true, timeout: 5 }), 1)).toEqual(golden.inOrder);
  });

  it('ConcatDataset, ChainDataset, and batching an IterableDataset', async () => {
    const cd = new ConcatDataset([new Range(0, 3), new Range(100, 100), new Range(10, 15), new Range(50, 52)]);
    const want = golden.concat;
    expect(cd.length).toBe(want.length);
    expect([...cd.cumulativeSizes]).toEqual(want.cumulativeSizes);
    expect(Array.from({ length: cd.length }, (_, i) => cd.getItem(i))).toEqual(want.items);
    expect([cd.getItem(-1), cd.getItem(-10)]).toEqual(want.negative);
    expect(thrown(() => cd.getItem(10))).toBeInstanceOf(torch.IndexError);
    expect(thrown(() => cd.getItem(-11))).toBeInstanceOf(torch.ValueError);
    expect(thrown(() => new ConcatDataset([]))).toBeInstanceOf(torch.TorchError);
    expect(thrown(() => new ConcatDataset([new Stream(0, 2)] as never)).message).toMatch(/^ConcatDataset: does not support IterableDataset/);
    const chain = new ChainDataset([new Stream(0, 3), new Stream(7, 9)]);
    expect([...chain]).toEqual(golden.chain);
    expect(thrown(() => chain.length)).toBeInstanceOf(torch.TorchTypeError);
    const rows = (l: Iterable<unknown>) => [...l].map((b) => (b as torch.Tensor).tolist());
    expect(rows(new DataLoader(new Stream(0, 7), { batchSize: 2 }))).toEqual(golden['iterable loader bs 2']);
    expect(rows(new DataLoader(new Stream(0, 7), { batchSize: 2, dropLast: true }))).toEqual(golden['iterable loader bs 2 dropLast']);
    const asyncRows: unknown[] = [];
    for await (const b of new DataLoader(chain, { batchSize: 2 })) asyncRows.push((b as torch.Tensor).tolist());
    expect(asyncRows).toEqual([[0, 1], [2, 7], [8]]);
    expect([...new DataLoader(new Stream(0, 3), { batchSize: null })]).toEqual([0, 1, 2]);
    // an in-order loader over a ConcatDataset sees its items in order
    expect(rows(new DataLoader(cd, { batchSize: 4 })).flat()).toEqual(want.items);
  });

  it("rejects PyTorch's mutually exclusive options and unbuilt workers", () => {
    const msg = (f: () => unknown) => {
      const e = thrown(f);
      expect(e).toBeInstanceOf(torch.TorchError);
      return e.message;
    };
    const sampler = new SequentialSampler(r10);
    expect(msg(() => new DataLoader(ds(), { sampler, shuffle: true }))).toBe('sampler option is mutually exclusive with shuffle');
    const batchSampler = new BatchSampler(sampler, 2, false);
    for (const o of [{ batchSize: 2 }, { shuffle: true }, { sampler }, { dropLast: true }]) {
      expect(msg(() => new DataLoader(ds(), { batchSampler, ...o }))).toBe('batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last');
    }
    expect(msg(() => new DataLoader(new Stream(0, 3), { shuffle: true }))).toBe('DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle=true');
    expect(msg(() => new DataLoader(new Stream(0, 3), { sampler }))).toMatch(/^DataLoader with IterableDataset: expected unspecified sampler option/);
    expect(msg(() => new DataLoader(new Stream(0, 3), { batchSampler }))).toMatch(/^DataLoader with IterableDataset: expected unspecified batch_sampler option/);
    expect(msg(() => new DataLoader(ds(), { numWorkers: -1 }))).toBe('num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.');
    expect(msg(() => new DataLoader(ds(), { timeout: -1 }))).toBe('timeout option should be non-negative');
    expect(msg(() => new DataLoader(ds(), { prefetchFactor: 4 }))).toMatch(/^prefetch_factor option could only be specified in multiprocessing/);
    expect(msg(() => new DataLoader(ds(), { persistentWorkers: true }))).toBe('persistent_workers option needs num_workers > 0');
    expect(msg(() => new DataLoader(ds(), { sampler: 3 as never }))).toMatch(/argument 'sampler' must be an iterable of indices/);
    expect(msg(() => new DataLoader(ds(), { workerInitFn: 3 as never }))).toMatch(/argument 'workerInitFn' must be a function/);
    // (workers: data-workers.test.ts)
    expect(new DataLoader(ds(), { numWorkers: 2 }).numWorkers).toBe(2);
    expect(msg(() => new DataLoader(ds(), { multiprocessingContext: 'spawn' }))).toMatch(/^multiprocessing_context can only be used with multi-process loading/);
    expect(thrown(() => new DataLoader(ds(), { pinMemoryDevice: 'cuda' } as never))).toBeInstanceOf(torch.NotImplementedError);
    expect(thrown(() => new DataLoader(new Stream(0, 3)).length)).toBeInstanceOf(torch.TorchTypeError);
    // loading runs in the main process, where PyTorch's get_worker_info() is None
    expect(d.getWorkerInfo()).toBeNull();
  });
});
