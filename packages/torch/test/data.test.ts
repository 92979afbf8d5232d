import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/data.json';
import { thrown } from './helpers';

const { DataLoader, TensorDataset, Dataset, defaultCollate, randomSplit, Subset } = torch.utils.data;

const ds = () => new TensorDataset(torch.arange(10), torch.arange(10).float().mul(0.5));

function epochs(loader: Iterable<unknown>, n: number): unknown[] {
  const out: unknown[] = [];
  for (let e = 0; e < n; e++) out.push([...loader].map((b) => (b as torch.Tensor[]).map((t) => t.tolist())));
  return out;
}

describe('DataLoader equals PyTorch', () => {
  it('in order, with a last short batch, and dropLast', () => {
    expect(epochs(new DataLoader(ds(), { batchSize: 4 }), 1)).toEqual(golden.inOrder);
    const dl = new DataLoader(ds(), { batchSize: 4, dropLast: true });
    expect(dl.length).toBe(2);
    expect(epochs(dl, 1)).toEqual(golden.dropLast);
  });

  it('shuffled with a generator: the same order as PyTorch, epoch after epoch', () => {
    const g = new torch.Generator().manualSeed(42);
    expect(epochs(new DataLoader(ds(), { batchSize: 3, shuffle: true, generator: g }), 2)).toEqual(golden.shuffleGenerator42);
  });

  it("binds PyTorch's signature: positional forms, and nothing ignored", () => {
    expect(epochs(new DataLoader(ds(), 4), 1)).toEqual(golden.inOrder);
    expect(epochs(new DataLoader(ds(), 3, true, { generator: new torch.Generator().manualSeed(42) }), 2)).toEqual(golden.shuffleGenerator42);
    expect(new DataLoader(ds(), null).length).toBe(10);
    expect(new DataLoader(ds(), { batchSize: null }).batchSize).toBeNull();
    expect(() => new DataLoader(ds(), { batchSze: 4 } as never)).toThrow("DataLoader.__init__() got an unexpected keyword argument 'batchSze'");
    expect(() => new DataLoader(ds(), { batchSize: 2.5 })).toThrow("DataLoader.__init__(): argument 'batchSize' must be int, not number");
    expect(new DataLoader(ds(), { numWorkers: 2 }).numWorkers).toBe(2);
    expect(new DataLoader(ds(), { numWorkers: 0 } as never).length).toBe(10);
    expect(() => new DataLoader([1, 2] as never)).toThrow("DataLoader.__init__(): argument 'dataset' must be a Dataset, not");
    expect(() => new DataLoader(ds(), { collateFn: 3 } as never)).toThrow("argument 'collateFn' must be a function");
  });

  it('shuffled with the default generator, consuming it as PyTorch does', () => {
    torch.manualSeed(5);
    expect(epochs(new DataLoader(ds(), { batchSize: 3, shuffle: true }), 2)).toEqual(golden.shuffleDefaultSeed5);
    expect(torch.rand(2, { dtype: 'float32' }).tolist()).toEqual(golden.afterShuffleDefault);
    torch.manualSeed(6);
    epochs(new DataLoader(ds(), { batchSize: 5 }), 1);
    expect(torch.rand(2).tolist()).toEqual(golden.afterInOrderSeed6);
  });

  it('batches are stacked with dtypes kept; async iteration gives the same batches', async () => {
    const dl = new DataLoader(ds(), { batchSize: 4 });
    const sync = [...dl] as torch.Tensor[][];
    expect(sync[0][0].dtype).toBe('int64');
    expect(sync[0][1].dtype).toBe('float32');
    expect(sync[0][0].shape).toEqual([4]);
    const got: unknown[] = [];
    for await (const b of dl) got.push((b as torch.Tensor[]).map((t) => t.tolist()));
    expect(got).toEqual(golden.inOrder[0]);
  });

  it('custom datasets (sync and async), collateFn, and defaultCollate', async () => {
    class Squares extends Dataset<{ x: torch.Tensor; y: number }> {
      getItem(i: number) {
        return { x: torch.full([2], i, { dtype: 'float32' }), y: i * i };
      }
      get length() {
        return 5;
      }
    }
    const batches = [...new DataLoader(new Squares(), { batchSize: 2 })] as { x: torch.Tensor; y: torch.Tensor }[];
    expect(batches.length).toBe(3);
    expect(batches[0].x.tolist()).toEqual([[0, 0], [1, 1]]);
    expect(batches[0].y.dtype).toBe('int64');
    expect(batches[2].y.tolist()).toEqual([16]);
    class Slow extends Dataset<number> {
      async getItem(i: number) {
        await new Promise((r) => setTimeout(r, 1));
        return i + 0.5;
      }
      get length() {
        return 3;
      }
    }
    const out: number[][] = [];
    for await (const b of new DataLoader(new Slow(), { batchSize: 2 })) out.push((b as torch.Tensor).tolist() as number[]);
    expect(out).toEqual([[0.5, 1.5], [2.5]]);
    expect(thrown(() => [...new DataLoader(new Slow(), { batchSize: 2 })])).toBeInstanceOf(torch.TorchError);
    const sums = [...new DataLoader(ds(), { batchSize: 5, collateFn: (b) => b.length })];
    expect(sums).toEqual([5, 5]);
    expect((defaultCollate([[1, 'a'], [2, 'b']]) as unknown[])[1]).toEqual(['a', 'b']);
  });

  it('randomSplit equals PyTorch (lengths and fractions); Subset indexes its dataset', () => {
    const g = new torch.Generator();
    const idx = (ss: InstanceType<typeof Subset>[]) => ss.map((s) => [...s.indices]);
    g.manualSeed(7);
    expect(idx(randomSplit(ds(), [3, 7], { generator: g }))).toEqual(golden['randomSplit[3,7]']);
    // (PyTorch's positional generator, the same split from the same state)
    expect(idx(randomSplit(ds(), [3, 7], new torch.Generator().manualSeed(0)))).toEqual(idx(randomSplit(ds(), [3, 7], { generator: new torch.Generator().manualSeed(0) })));
    expect(() => randomSplit(ds(), [3, 7], { generatr: g } as never)).toThrow("random_split() got an unexpected keyword argument 'generatr'");
    g.manualSeed(8);
    expect(idx(randomSplit(ds(), [0.3, 0.3, 0.4], { generator: g }))).toEqual(golden['randomSplit[0.3,0.3,0.4]']);
    g.manualSeed(9);
    const small = new TensorDataset(torch.arange(7));
    const halves = randomSplit(small, [0.5, 0.5], { generator: g });
    expect(idx(halves)).toEqual(golden['randomSplit[0.5,0.5] of 7']);
    expect((halves[1].getItem(0) as torch.Tensor[])[0].item()).toBe(golden['randomSplit[0.5,0.5] of 7'][1][0]);
    expect(thrown(() => randomSplit(ds(), [3, 3]))).toBeInstanceOf(torch.TorchError);
  });

  it('rejects bad arguments', () => {
    expect(thrown(() => new TensorDataset(torch.zeros(3), torch.zeros(4))).message).toBe('Size mismatch between tensors');
    expect(thrown(() => new DataLoader(ds(), { batchSize: 0 }))).toBeInstanceOf(torch.TorchError);
    expect(thrown(() => ds().getItem(10))).toBeInstanceOf(torch.TorchError);
  });
});
