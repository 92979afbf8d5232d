"""
PyTorch's column of the bench: py/bench_torch.py is child.ts for PyTorch (src/pytorch.ts runs
it with /usr/bin/python3). It reads the same config (TORCH_TS_BENCH_CHILD: the workload ids,
their shapes, the measure options), builds the same inputs (uniform() below is data.ts's
generator, bit for bit), runs the same warm-up and repeat policy as measure.ts with
time.perf_counter, and writes the same messages, one JSON object a line, on stdout.
PyTorch runs on one thread, like every peer. Each run is the op call; reading its output
back (.numpy(), a view on the CPU) is timed apart (Note [What a run times] in libs/types.ts).

With TORCH_TS_BENCH_TORCH_DEVICE=cuda (the `pytorch-cuda` column) the inputs live on the GPU
and each run ends with its output copied to the host, as a WebGPU run ends with its read:
the copy waits for the GPU. TF32 is off, so results are float32's, as on every other column.
"""
import gc
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
torch.set_num_interop_threads(1)
DEVICE = os.environ.get("TORCH_TS_BENCH_TORCH_DEVICE", "cpu")
if DEVICE == "cuda":
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False


def uniform(n, seed, lo=-1.0, hi=1.0):
    """data.ts's uniform(): mulberry32 is counter-based (the i-th value depends only on
    seed + (i + 1) * 0x6d2b79f5), so it vectorises; uint32 arithmetic wraps like Math.imul."""
    i = np.arange(1, n + 1, dtype=np.uint64)
    t = ((np.uint64(seed & 0xFFFFFFFF) + i * np.uint64(0x6D2B79F5)) & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    t = (t ^ (t >> np.uint32(15))) * (t | np.uint32(1))
    t ^= t + (t ^ (t >> np.uint32(7))) * (t | np.uint32(61))
    u = t ^ (t >> np.uint32(14))
    return (lo + u.astype(np.float64) * ((hi - lo) / 4294967296)).astype(np.float32)


def labels(n, classes, seed):
    u = uniform(n, seed, 0.0, 1.0).astype(np.float64)
    return np.minimum(classes - 1, np.floor(u * classes)).astype(np.int64)


def t32(data, shape, requires_grad=False):
    return torch.from_numpy(data).view(*shape).to(DEVICE).requires_grad_(requires_grad)


def numel(shape):
    return math.prod(shape)


class Prepared:
    def __init__(self, run, read=lambda y: y.detach().cpu().numpy()):
        if DEVICE == "cpu":
            self.run = run
        else:
            # The run is over when its output is on the host (Note [What a run times]).
            self.run = lambda: on_host(run())
        self.read = read


def on_host(y):
    if isinstance(y, tuple):  # the conv backward rows' gradients
        return tuple(on_host(t) for t in y)
    return y.detach().cpu() if torch.is_tensor(y) else y


def loop(calls, once):
    """Note [Overhead rows]: `calls` calls, each result dropped as it comes but the last."""
    def run():
        for _ in range(calls - 1):
            once()
        return once()
    return run


def setup(w):
    wid, s = w["id"], w["shapes"]
    if wid.startswith("matmul-"):
        n = s["n"]
        a, b = t32(uniform(n * n, 1), [n, n]), t32(uniform(n * n, 2), [n, n])
        return Prepared(lambda: a @ b)
    if wid in ("add-4M", "add-bcast", "add-1"):
        shape = s["shape"]
        b_shape = [shape[1]] if wid == "add-bcast" else shape
        a, b = t32(uniform(numel(shape), 1), shape), t32(uniform(numel(b_shape), 2), b_shape)
        return Prepared(loop(w.get("calls", 1), lambda: torch.add(a, b)))
    if wid == "exp-4M":
        a = t32(uniform(numel(s["shape"]), 1), s["shape"])
        return Prepared(lambda: torch.exp(a))
    if wid == "add-transposed":
        r, c = s["shape"]
        a, b = t32(uniform(r * c, 1), [c, r]), t32(uniform(r * c, 2), [r, c])
        return Prepared(lambda: a.t() + b)
    if wid in ("sum-16M", "sum-lastdim"):
        a = t32(uniform(numel(s["shape"]), 1), s["shape"])
        return Prepared((lambda: a.sum()) if wid == "sum-16M" else (lambda: a.sum(-1)))
    if wid == "softmax":
        a = t32(uniform(numel(s["shape"]), 1, -4.0, 4.0), s["shape"])
        return Prepared(lambda: torch.softmax(a, -1))
    if wid in ("conv2d", "conv2d-cl", "conv2d-cl-1x1"):
        c = s["conv"]
        x = t32(uniform(numel(c["input"]), 1), c["input"])
        k = t32(uniform(numel(c["weight"]), 2, -0.1, 0.1), c["weight"])
        if c.get("channelsLast"):
            # Note [Channels-last conv rows] (workloads.ts): laid out before the run
            x, k = x.contiguous(memory_format=torch.channels_last), k.contiguous(memory_format=torch.channels_last)
        return Prepared(lambda: F.conv2d(x, k, padding=c["padding"]))
    if wid in ("conv2d-bwd", "conv2d-1x1-bwd", "conv2d-cl-bwd", "conv2d-cl-1x1-bwd"):
        return conv_backward(s["conv"])
    if wid == "mlp-step":
        return mlp_step(s["mlp"])
    if wid in ("rfft", "fft"):
        # Note [FFT rows] (workloads.ts): a complex result reads back as (re, im) pairs.
        shape = s["shape"]
        read = lambda y: torch.view_as_real(y).detach().cpu().numpy()
        a = t32(uniform(numel(shape), 1), shape)
        if wid == "rfft":
            return Prepared(lambda: torch.fft.rfft(a, dim=-1), read)
        x = torch.complex(a, t32(uniform(numel(shape), 2), shape))
        return Prepared(lambda: torch.fft.fft(x, dim=-1), read)
    if wid == "tiny-fwd-bwd":
        x = t32(uniform(4, 1), [4], True)

        def once():
            x.mul(x).sum().backward()
            g = x.grad
            x.grad = None
            return g
        return Prepared(loop(w["calls"], once))
    if wid in ("per-sample-vmap", "per-sample-loop"):
        return per_sample(wid, s["psg"])
    if wid in ("per-sample-cnn-vmap", "per-sample-cnn-loop"):
        return per_sample_cnn(wid, s["psgCnn"])
    raise ValueError(f"bench_torch: unknown workload {wid}")


def per_sample(wid, m):
    """Note [Per-sample gradient rows] (workloads.ts): vmap(grad(loss)) or a loop of grad, flattened."""
    (i, h, o), batch = m["widths"], m["batch"]
    p = {
        "w1": t32(uniform(i * h, 10, -0.3, 0.3), [h, i]),
        "b1": t32(uniform(h, 11, -0.3, 0.3), [h]),
        "w2": t32(uniform(h * o, 12, -0.3, 0.3), [o, h]),
        "b2": t32(uniform(o, 13, -0.3, 0.3), [o]),
    }
    x = t32(uniform(batch * i, 3), [batch, i])
    y = torch.from_numpy(labels(batch, o, 4)).to(DEVICE)

    def loss(q, xi, yi):
        return F.cross_entropy(F.linear(F.relu(F.linear(xi[None], q["w1"], q["b1"])), q["w2"], q["b2"]), yi[None])

    return per_sample_run(wid == "per-sample-vmap", loss, p, x, y, batch)


def per_sample_cnn(wid, m):
    """Note [Per-sample gradient rows] (workloads.ts): the small CNN's per-sample gradients."""
    size, channels, classes, batch = m["size"], m["channels"], m["classes"], m["batch"]
    features = channels * ((size - 2) // 2) ** 2
    p = {
        "w1": t32(uniform(channels * 9, 10, -0.3, 0.3), [channels, 1, 3, 3]),
        "b1": t32(uniform(channels, 11, -0.3, 0.3), [channels]),
        "w2": t32(uniform(classes * features, 12, -0.3, 0.3), [classes, features]),
        "b2": t32(uniform(classes, 13, -0.3, 0.3), [classes]),
    }
    x = t32(uniform(batch * size * size, 3), [batch, 1, size, size])
    y = torch.from_numpy(labels(batch, classes, 4)).to(DEVICE)

    def loss(q, xi, yi):
        h = F.max_pool2d(F.relu(F.conv2d(xi[None], q["w1"], q["b1"])), 2)
        return F.cross_entropy(F.linear(h.flatten(1), q["w2"], q["b2"]), yi[None])

    return per_sample_run(wid == "per-sample-cnn-vmap", loss, p, x, y, batch)


def per_sample_run(vmapped, loss, p, x, y, batch):
    """vmap(grad(loss)) over (x, y), or a loop of grad calls stacked, every gradient flattened."""
    try:
        from torch.func import vmap, grad
    except ImportError:
        from functorch import vmap, grad
    g = grad(loss)
    flat = lambda gs: torch.cat([gs[k].reshape(batch, -1) for k in ("w1", "b1", "w2", "b2")], 1)
    if vmapped:
        return Prepared(lambda: flat(vmap(g, in_dims=(None, 0, 0))(p, x, y)))
    def run():
        rows = [g(p, x[n], y[n]) for n in range(batch)]
        return flat({k: torch.stack([r[k] for r in rows]) for k in ("w1", "b1", "w2", "b2")})
    return Prepared(run)


def conv_backward(c):
    """Note [Conv backward rows] (workloads.ts): the conv's forward, then the gradients of its
    input and weight from dy (channels-last for the -cl rows, made before the run), read back
    as grad_input then grad_weight in logical order."""
    n, _, h, wd = c["input"]
    o, _, kh, kw = c["weight"]
    p = c["padding"]
    y_shape = [n, o, h + 2 * p - kh + 1, wd + 2 * p - kw + 1]
    x = t32(uniform(numel(c["input"]), 1), c["input"])
    k = t32(uniform(numel(c["weight"]), 2, -0.1, 0.1), c["weight"])
    dy = t32(uniform(numel(y_shape), 3), y_shape)
    if c.get("channelsLast"):
        x, k, dy = (t.contiguous(memory_format=torch.channels_last) for t in (x, k, dy))
    # Laid out first, then made leaves that require grad.
    x, k = x.requires_grad_(True), k.requires_grad_(True)

    def step():
        return torch.autograd.grad(F.conv2d(x, k, padding=p), (x, k), dy)

    def read(gs):
        return np.concatenate([g.detach().cpu().numpy().reshape(-1) for g in gs])
    return Prepared(step, read)


def mlp_step(m):
    """torch-ts's MLP step (libs/torch-ts.ts): forward, cross-entropy, autograd.grad, p -= lr * g."""
    widths, batch, lr = m["widths"], m["batch"], m["lr"]
    ws, bs = [], []
    for l in range(len(widths) - 1):
        bound = 1 / math.sqrt(widths[l])
        ws.append(t32(uniform(widths[l] * widths[l + 1], 10 + 2 * l, -bound, bound), [widths[l], widths[l + 1]], True))
        bs.append(t32(uniform(widths[l + 1], 10 + 2 * l + 1, -bound, bound), [widths[l + 1]], True))
    params = ws + bs
    x = t32(uniform(batch * widths[0], 3), [batch, widths[0]])
    y = torch.from_numpy(labels(batch, widths[-1], 4)).to(DEVICE)
    last = len(widths) - 2

    def step():
        h = x
        for l in range(last + 1):
            h = h @ ws[l] + bs[l]
            if l < last:
                h = torch.relu(h)
        loss = F.cross_entropy(h, y)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, g in zip(params, grads):
                p.sub_(g, alpha=lr)
        return loss.detach()

    def read(loss):
        return np.concatenate([[loss.item()], bs[last].detach().cpu().numpy(), ws[0].detach().cpu().numpy().reshape(-1)[:32]])
    return Prepared(step, read)


def probe_of(values):
    """probe.ts's probeOf."""
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    n = len(v)
    count = min(16, n)
    samples = [float(v[0 if count == 1 else (k * (n - 1)) // (count - 1)]) for k in range(count)]
    return {"length": n, "samples": samples, "sum": float(v.sum()), "sumAbs": float(np.abs(v).sum())}


def once(p):
    c0, t0 = time.process_time(), time.perf_counter()
    out = p.run()
    ms = (time.perf_counter() - t0) * 1000
    cpu_ms = (time.process_time() - c0) * 1000
    r0 = time.perf_counter()
    data = p.read(out)
    return ms, cpu_ms, (time.perf_counter() - r0) * 1000, data


def measure(w, o):
    """measure.ts's measure()."""
    gc.collect()
    try:
        p = setup(w)
        ms, cpu_ms, read_ms, data = once(p)
    except Exception as e:  # an op this PyTorch lacks: n/a with the reason, as measure.ts does
        return {"id": w["id"], "samples": [], "na": f"failed: {str(e).splitlines()[0][:200]}"}
    m = {"id": w["id"], "probe": probe_of(data)} if o["probe"] else {"id": w["id"]}
    if DEVICE == "cuda":
        # CUDA loads each kernel on its first use in a process (lazy module loading; torch.func's
        # first vmap took 5 s on an H200): the first run is never a sample, as measure.ts does
        # for libraries whose first run compiles (compilesOnFirstRun).
        ms, cpu_ms, read_ms, _ = once(p)
    if ms > o["slowMs"]:
        return {**m, "samples": [ms], "cpuSamples": [cpu_ms], "readSamples": [read_ms]}
    last, warm, k = ms, ms, 1
    while k < o["maxWarmups"] and warm < o["warmupMs"]:
        last = once(p)[0]
        warm += last
        k += 1
    reps = max(1, min(o["maxReps"], round(o["targetMs"] / max(last, 1e-3))))
    runs = [once(p) for _ in range(reps)]
    return {**m, "samples": [r[0] for r in runs], "cpuSamples": [r[1] for r in runs], "readSamples": [r[2] for r in runs]}


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def main():
    config = json.loads(os.environ["TORCH_TS_BENCH_CHILD"])
    where = torch.cuda.get_device_name() if DEVICE == "cuda" else f"{torch.get_num_threads()} thread"
    send({"kind": "describe", "text": f"PyTorch {torch.__version__} ({sys.executable}, {where})"})
    matmul_rate = 0.0  # child.ts's skip of sizes predicted over predictLimitMs
    for w in config["workloads"]:
        n = w["shapes"].get("n")
        if n is not None and matmul_rate > 0 and matmul_rate * n**3 > config["predictLimitMs"]:
            send({"kind": "measurement", "m": {"id": w["id"], "samples": [], "na": f"skipped: a run would take ~{round(matmul_rate * n**3 / 1000)} s"}})
            continue
        m = measure(w, config["options"])
        if n is not None and m["samples"]:
            matmul_rate = min(m["samples"]) / n**3
        send({"kind": "measurement", "m": m})


if __name__ == "__main__":
    main()
