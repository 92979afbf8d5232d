"""Goldens for torch.utils.data: batches of a DataLoader over a TensorDataset, in order and
shuffled (with a generator, and with the default generator), with and without drop_last,
and what the default generator yields afterwards (the loader consumes it as PyTorch does)."""
import torch
from torch.utils.data import DataLoader, TensorDataset
from _common import write

ds = TensorDataset(torch.arange(10), torch.arange(10, dtype=torch.float32) * 0.5)

def epochs(loader, n=2):
    return [[[b[0].tolist(), b[1].tolist()] for b in loader] for _ in range(n)]

out = {}
out['inOrder'] = epochs(DataLoader(ds, batch_size=4), 1)
out['dropLast'] = epochs(DataLoader(ds, batch_size=4, drop_last=True), 1)
g = torch.Generator()
g.manual_seed(42)
out['shuffleGenerator42'] = epochs(DataLoader(ds, batch_size=3, shuffle=True, generator=g))
torch.manual_seed(5)
out['shuffleDefaultSeed5'] = epochs(DataLoader(ds, batch_size=3, shuffle=True))
out['afterShuffleDefault'] = torch.rand(2).tolist()
torch.manual_seed(6)
epochs(DataLoader(ds, batch_size=5), 1)
out['afterInOrderSeed6'] = torch.rand(2).tolist()
from torch.utils.data import random_split
g = torch.Generator()
g.manual_seed(7)
out['randomSplit[3,7]'] = [list(s.indices) for s in random_split(range(10), [3, 7], generator=g)]
g.manual_seed(8)
out['randomSplit[0.3,0.3,0.4]'] = [list(s.indices) for s in random_split(range(10), [0.3, 0.3, 0.4], generator=g)]
g.manual_seed(9)
out['randomSplit[0.5,0.5] of 7'] = [list(s.indices) for s in random_split(range(7), [0.5, 0.5], generator=g)]

# Samplers: index orders for seeds and generators (each sampler drawn twice: epoch after epoch).
from torch.utils.data import (SequentialSampler, RandomSampler, SubsetRandomSampler, WeightedRandomSampler,
                              BatchSampler, ConcatDataset, ChainDataset, IterableDataset, Dataset)
def gen(seed):
    g = torch.Generator()
    g.manual_seed(seed)
    return g
def twice(s):
    return [list(s), list(s)]
r = range(10)
out['sequential'] = list(SequentialSampler(r))
out['random g3'] = twice(RandomSampler(r, generator=gen(3)))
out['random g3 numSamples 25'] = twice(RandomSampler(r, num_samples=25, generator=gen(3)))
out['random g3 numSamples 4'] = twice(RandomSampler(r, num_samples=4, generator=gen(3)))
out['random g4 replacement'] = twice(RandomSampler(r, replacement=True, generator=gen(4)))
out['random g4 replacement numSamples 70'] = twice(RandomSampler(r, replacement=True, num_samples=70, generator=gen(4)))
torch.manual_seed(11)
out['random default seed 11'] = twice(RandomSampler(r))
out['random default seed 11 then'] = torch.rand(2).tolist()
out['subsetRandom g5'] = twice(SubsetRandomSampler([3, 9, 4, 17, 0, 8], generator=gen(5)))
torch.manual_seed(12)
out['subsetRandom default seed 12'] = twice(SubsetRandomSampler([3, 9, 4, 17, 0, 8]))
out['subsetRandom default seed 12 then'] = torch.rand(2).tolist()
w = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6]
out['weighted g6 replacement 12'] = twice(WeightedRandomSampler(w, 12, generator=gen(6)))
out['weighted g6 noReplacement 5'] = twice(WeightedRandomSampler(w, 5, replacement=False, generator=gen(6)))
torch.manual_seed(13)
out['weighted default seed 13'] = twice(WeightedRandomSampler(w, 7))
out['batch random g7 bs 3'] = twice(BatchSampler(RandomSampler(r, generator=gen(7)), 3, False))
out['batch random g7 bs 3 dropLast'] = twice(BatchSampler(RandomSampler(r, generator=gen(7)), 3, True))
out['batch sequential bs 4 dropLast'] = list(BatchSampler(SequentialSampler(r), 4, True))
# A loader over a sampler / batch sampler (the loader's base seed comes from its own generator).
g = gen(8)
out['loader sampler'] = epochs(DataLoader(ds, batch_size=4, sampler=RandomSampler(ds, generator=gen(9)), generator=g))
out['loader batchSampler'] = epochs(DataLoader(ds, batch_sampler=BatchSampler(RandomSampler(ds, generator=gen(9)), 3, True)))
out['loader shuffle g10 bs 5 dropLast then'] = (lambda g: [epochs(DataLoader(ds, batch_size=5, shuffle=True, drop_last=True, generator=g)), torch.rand(2, generator=g).tolist()])(gen(10))

# ConcatDataset and ChainDataset
class Range(Dataset):
    def __init__(self, lo, hi): self.lo, self.hi = lo, hi
    def __getitem__(self, i):
        if i < 0 or i >= len(self): raise IndexError
        return self.lo + i
    def __len__(self): return self.hi - self.lo
class Stream(IterableDataset):
    def __init__(self, lo, hi): self.lo, self.hi = lo, hi
    def __iter__(self): return iter(range(self.lo, self.hi))
cd = ConcatDataset([Range(0, 3), Range(100, 100), Range(10, 15), Range(50, 52)])
out['concat'] = {'length': len(cd), 'cumulativeSizes': cd.cumulative_sizes, 'items': [cd[i] for i in range(len(cd))], 'negative': [cd[-1], cd[-10]]}
out['chain'] = list(ChainDataset([Stream(0, 3), Stream(7, 9)]))
out['iterable loader bs 2'] = [b.tolist() for b in DataLoader(Stream(0, 7), batch_size=2)]
out['iterable loader bs 2 dropLast'] = [b.tolist() for b in DataLoader(Stream(0, 7), batch_size=2, drop_last=True)]
# Workers: per-worker seeds (base_seed + id) with a generator, and IterableDataset sharding by worker info
from torch.utils.data import get_worker_info
class Info(Dataset):
    def __getitem__(self, i):
        w = get_worker_info()
        return {'row': torch.tensor([i, w.id, w.num_workers, int(torch.randint(0, 1000, (1,)))]), 'seed': str(w.seed)}
    def __len__(self): return 10
# (seeds exceed 2**53: strings)
out['workers info g14 bs 3'] = [{'rows': b['row'].tolist(), 'seeds': b['seed']} for b in DataLoader(Info(), batch_size=3, num_workers=2, generator=gen(14))]
class Sharded(IterableDataset):
    def __iter__(self):
        w = get_worker_info()
        return iter(range(w.id, 10, w.num_workers))
out['workers iterable sharded bs 2'] = [b.tolist() for b in DataLoader(Sharded(), batch_size=2, num_workers=2)]
write('data', out)
