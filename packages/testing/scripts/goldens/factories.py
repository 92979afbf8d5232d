"""Factory values PyTorch computes in its own way: linspace (bit for bit) and arange."""
import torch


def make():
    cases = []
    spans = [(0, 1, 10), (-1, 1, 7), (0, 1, 40), (-3.7, 11.2, 100), (0, 1, 17), (5, -2, 33),
             (1e-3, 7.5, 1000), (0, 1, 16), (-1, 1, 31), (2.5, 2.5, 5), (0, 1, 1), (0, 1, 0)]
    for start, end, steps in spans:
        for dtype in (torch.float32, torch.float64):
            values = torch.linspace(start, end, steps, dtype=dtype).tolist()
            cases.append({"op": "linspace", "args": [start, end, steps], "dtype": str(dtype)[6:], "values": values})
    for args in [(5,), (1, 10, 3), (0, 1, 0.1), (-2.5, 3.0, 0.5), (10, 0, -3), (0.1, 0.95, 0.05)]:
        t = torch.arange(*args)
        cases.append({"op": "arange", "args": list(args), "dtype": str(t.dtype)[6:], "values": t.tolist()})
    return {"cases": cases}
