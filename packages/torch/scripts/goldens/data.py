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
write('data', out)
