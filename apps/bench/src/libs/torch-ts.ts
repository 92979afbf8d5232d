import * as torch from '@torch-ts/torch';
import { labels, mlpParams, uniform } from '../data';
import { numelOf, type Workload } from '../workloads';
import { asRead, prepared as pack, type Library, type Setup } from './types';

type Tensor = torch.Tensor;
const F = torch.nn.functional;

/** Where the adapter runs: `cpu` (synchronous reads) or `webgpu` (Dawn in Node; async reads). */
type Dev = 'cpu' | 'webgpu';

/** Float32 `data` as a tensor of `shape` on `device` (built on the CPU, then uploaded, untimed). */
function f32(data: Float32Array, shape: readonly number[], device: Dev, requiresGrad = false): Tensor {
  const t = torch.tensor(data).view(...shape);
  if (device === 'cpu') return t.requiresGrad_(requiresGrad);
  const moved = t.to(device);
  t.dispose();
  return moved.requiresGrad_(requiresGrad);
}

/** The `fft` row's complex64 input (Note [FFT rows]): real part uniform(seed 1), imaginary uniform(seed 2), made before the run. */
function complex64(shape: readonly number[], device: Dev): Tensor {
  const re = f32(uniform(numelOf(shape), 1), shape, device);
  const im = f32(uniform(numelOf(shape), 2), shape, device);
  const x = torch.complex(re, im);
  re.dispose();
  im.dispose();
  return x;
}

/**
 * On WebGPU: enqueues `fn()` (tidy frees its intermediates), then awaits the read of the
 * whole result, so a run is over only when the device has finished it and the numbers are
 * on the host (as tfjs's `await data()`).
 */
function forcedAsync(fn: () => Tensor): () => Promise<ArrayLike<number>> {
  return async () => {
    const y = torch.tidy(fn);
    try {
      return numbers(await y.data());
    } finally {
      y.dispose();
    }
  };
}

/** A read-back as numbers: the workloads are float32 (an int64 result would read as bigints). */
function numbers(d: Awaited<ReturnType<Tensor['data']>>): ArrayLike<number> {
  if (d instanceof BigInt64Array) throw new Error('bench: a torch-ts result read back as int64');
  return d;
}

/** On the CPU the run is `fn()` (tidy frees its intermediates), read back apart (Note [What a run times]). */
function prepared(inputs: Tensor[], fn: () => Tensor, device: Dev): Setup {
  const dispose = () => {
    for (const t of inputs) t.dispose();
  };
  if (device !== 'cpu') return pack({ mode: 'read-in-run', run: forcedAsync(fn), values: asRead, dispose });
  return pack({
    mode: 'sync',
    run: () => torch.tidy(fn),
    read: (y) => numbers(y.dataSync()),
    free: (y) => y.dispose(),
    values: asRead,
    dispose,
  });
}

/** `calls` calls of `once` (Note [Overhead rows]): every result but the last disposed as it comes. */
function loop(calls: number, once: () => Tensor): () => Tensor {
  return () => {
    for (let i = 1; i < calls; i++) once().dispose();
    return once();
  };
}

/**
 * Note [torch-ts thread columns]
 * The CPU engine runs twice: `torch-ts` on one thread (`torch.setNumThreads(1)`), like every
 * peer here, and `torch-ts-threads` on its default thread count (`getNumThreads()` at load).
 * When the default is one thread, there is one torch-ts column, on one thread.
 */
/** torch-ts's default CPU thread count where it can run on more than one, else null (one column). */
export function defaultThreads(): number | null {
  const n = torch.getNumThreads();
  return n > 1 ? n : null;
}

/** torch-ts on the CPU, on one thread or on its default thread count (Note [torch-ts thread columns]). */
export function torchTsCpu(threads: 'one' | 'default'): Library {
  if (threads === 'one') torch.setNumThreads(1);
  const n = torch.getNumThreads();
  return {
    name: threads === 'one' ? 'torch-ts' : 'torch-ts-threads',
    describe: () => `torch-ts CPU, ${n} thread${n === 1 ? '' : 's'} (this repository, run from source)`,
    setup: (w) => setupOn(w, 'cpu'),
  };
}

/** torch-ts on WebGPU; `loadLibrary` has initialised the device (`torch.webgpu.init`). */
export const torchTsWebgpu: Library = {
  name: 'torch-ts-webgpu',
  compilesOnFirstRun: true,
  describe: () => {
    const info = torch.webgpu.deviceInfo();
    return `torch-ts WebGPU (this repository, run from source; ${info.source}: ${info.adapter})`;
  },
  setup: (w) => setupOn(w, 'webgpu'),
};

/**
 * The workloads on `device`. An op that the backend has no kernel for yet throws at the
 * first run, which measureAsync reports as n/a with the reason (so a workload starts to run
 * by itself once the kernel lands).
 */
function setupOn(w: Workload, device: Dev): Setup {
  const s = w.shapes;
  switch (w.id) {
    case 'matmul-128':
    case 'matmul-512':
    case 'matmul-1024':
    case 'matmul-2048': {
      const n = s.n!;
      const a = f32(uniform(n * n, 1), [n, n], device);
      const b = f32(uniform(n * n, 2), [n, n], device);
      return prepared([a, b], () => a.matmul(b), device);
    }
    case 'add-4M': {
      const a = f32(uniform(numelOf(s.shape!), 1), s.shape!, device);
      const b = f32(uniform(numelOf(s.shape!), 2), s.shape!, device);
      return prepared([a, b], () => a.add(b), device);
    }
    case 'add-bcast': {
      const [r, c] = s.shape!;
      const a = f32(uniform(r * c, 1), [r, c], device);
      const b = f32(uniform(c, 2), [c], device);
      return prepared([a, b], () => a.add(b), device);
    }
    case 'exp-4M': {
      const a = f32(uniform(numelOf(s.shape!), 1), s.shape!, device);
      return prepared([a], () => a.exp(), device);
    }
    case 'add-transposed': {
      const [r, c] = s.shape!;
      const a = f32(uniform(r * c, 1), [c, r], device);
      const b = f32(uniform(r * c, 2), [r, c], device);
      return prepared([a, b], () => a.t().add(b), device);
    }
    case 'sum-16M': {
      const a = f32(uniform(numelOf(s.shape!), 1), s.shape!, device);
      return prepared([a], () => a.sum(), device);
    }
    case 'sum-lastdim': {
      const a = f32(uniform(numelOf(s.shape!), 1), s.shape!, device);
      return prepared([a], () => a.sum(-1), device);
    }
    case 'softmax': {
      const a = f32(uniform(numelOf(s.shape!), 1, -4, 4), s.shape!, device);
      return prepared([a], () => F.softmax(a, { dim: -1 }), device);
    }
    case 'conv2d':
    case 'conv2d-cl':
    case 'conv2d-cl-1x1': {
      const c = s.conv!;
      const [x, k] = convOperands(c, device);
      return prepared([x, k], () => F.conv2d(x, k, { padding: c.padding }), device);
    }
    case 'conv2d-bwd':
    case 'conv2d-1x1-bwd':
    case 'conv2d-cl-bwd':
    case 'conv2d-cl-1x1-bwd':
      return convBackward(s.conv!, device);
    case 'mlp-step':
      return mlpStep(w, device);
    case 'rfft': {
      // Note [FFT rows]: the complex64 result reads back as (re, im) pairs.
      const a = f32(uniform(numelOf(s.shape!), 1), s.shape!, device);
      return prepared([a], () => torch.fft.rfft(a, { dim: -1 }), device);
    }
    case 'fft': {
      const x = complex64(s.shape!, device);
      return prepared([x], () => torch.fft.fft(x, { dim: -1 }), device);
    }
    case 'add-1': {
      const a = f32(uniform(1, 1), [1], device);
      const b = f32(uniform(1, 2), [1], device);
      return prepared([a, b], loop(w.calls!, () => torch.add(a, b)), device);
    }
    case 'per-sample-vmap':
    case 'per-sample-loop':
      return perSample(w, device);
    case 'per-sample-cnn-vmap':
    case 'per-sample-cnn-loop':
      return perSampleCnn(w, device);
    case 'tiny-fwd-bwd': {
      const x = f32(uniform(4, 1), [4], device, true);
      const opt = new torch.optim.SGD([x]);
      // The grad of the last call is the result: 2x.
      const once = (): Tensor => {
        const y = x.mul(x);
        const s = y.sum();
        s.backward();
        s.dispose();
        y.dispose();
        const g = x.grad!;
        opt.zeroGrad(); // x.grad = None
        return g;
      };
      return prepared([x], loop(w.calls!, once), device);
    }
  }
}

type ConvShapes = NonNullable<Workload['shapes']['conv']>;

/** `t` laid out channels-last (`contiguous` returns the tensor itself where it is laid out so already: a 1x1 weight). */
function channelsLast(t: Tensor): Tensor {
  const l = t.contiguous({ memoryFormat: 'channels_last' });
  if (l !== t) t.dispose();
  return l;
}

/** The conv rows' input and weight, channels-last where the row says (Note [Channels-last conv rows]): laid out before the run. */
function convOperands(c: ConvShapes, device: Dev): [Tensor, Tensor] {
  const x = f32(uniform(numelOf(c.input), 1), c.input, device);
  const k = f32(uniform(numelOf(c.weight), 2, -0.1, 0.1), c.weight, device);
  return c.channelsLast ? [channelsLast(x), channelsLast(k)] : [x, k];
}

/**
 * A training step's convolution (Note [Conv backward rows]): the forward, then the gradients
 * of the input and the weight from dy, returned as [grad_input, grad_weight] and read back
 * (logical order) one after the other.
 */
function convBackward(c: ConvShapes, device: Dev): Setup {
  // Laid out first, then made leaves that require grad (a layout copy of a leaf would not be one).
  const [x, k] = convOperands(c, device).map((t) => t.requiresGrad_(true));
  const [n, , h, wd] = c.input;
  const [o, , kh, kw] = c.weight;
  const yShape = [n, o, h + 2 * c.padding - kh + 1, wd + 2 * c.padding - kw + 1];
  const dyLogical = f32(uniform(numelOf(yShape), 3), yShape, device);
  const dy = c.channelsLast ? channelsLast(dyLogical) : dyLogical;
  const step = (): Tensor[] =>
    torch.tidy(() => {
      const y = F.conv2d(x, k, { padding: c.padding });
      return torch.autograd.grad(y, [x, k], dy).map((g, i) => {
        if (g === null) throw new Error(`bench: conv2d's output does not reach its ${i === 0 ? 'input' : 'weight'}`);
        return g;
      });
    });
  const concat = (parts: ArrayLike<number>[]): Float32Array => {
    const out = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const dispose = () => {
    for (const t of [x, k, dy]) t.dispose();
  };
  if (device === 'cpu') {
    return pack({
      mode: 'sync',
      run: step,
      read: (gs) => concat(gs.map((g) => numbers(g.dataSync()))),
      free: (gs) => gs.forEach((g) => g.dispose()),
      values: asRead,
      dispose,
    });
  }
  const run = async (): Promise<ArrayLike<number>> => {
    const gs = step();
    try {
      return concat((await Promise.all(gs.map((g) => g.data()))).map(numbers));
    } finally {
      for (const g of gs) g.dispose();
    }
  };
  return pack({ mode: 'read-in-run', run, values: asRead, dispose });
}

/** Per-sample gradients of an MLP's loss (Note [Per-sample gradient rows]). */
function perSample(w: Workload, device: Dev): Setup {
  const { widths, batch } = w.shapes.psg!;
  const [i, h, o] = widths;
  const p: Record<string, Tensor> = {
    w1: f32(uniform(i * h, 10, -0.3, 0.3), [h, i], device),
    b1: f32(uniform(h, 11, -0.3, 0.3), [h], device),
    w2: f32(uniform(h * o, 12, -0.3, 0.3), [o, h], device),
    b2: f32(uniform(o, 13, -0.3, 0.3), [o], device),
  };
  const x = f32(uniform(batch * i, 3), [batch, i], device);
  const yCpu = torch.tensor(Array.from(labels(batch, o, 4)), { dtype: 'int64' });
  const y = device === 'cpu' ? yCpu : yCpu.to(device);
  const loss = (q: Record<string, Tensor>, xi: Tensor, yi: Tensor): Tensor =>
    F.crossEntropy(F.linear(F.relu(F.linear(xi.unsqueeze(0), q.w1, q.b1)), q.w2, q.b2), yi.unsqueeze(0));
  return perSampleRun(w.id === 'per-sample-vmap', loss, p, x, y, batch, device);
}

/** Per-sample gradients of a small CNN's loss (Note [Per-sample gradient rows]). */
function perSampleCnn(w: Workload, device: Dev): Setup {
  const { size, channels, classes, batch } = w.shapes.psgCnn!;
  const features = channels * ((size - 2) / 2) ** 2;
  const p: Record<string, Tensor> = {
    w1: f32(uniform(channels * 9, 10, -0.3, 0.3), [channels, 1, 3, 3], device),
    b1: f32(uniform(channels, 11, -0.3, 0.3), [channels], device),
    w2: f32(uniform(classes * features, 12, -0.3, 0.3), [classes, features], device),
    b2: f32(uniform(classes, 13, -0.3, 0.3), [classes], device),
  };
  const x = f32(uniform(batch * size * size, 3), [batch, 1, size, size], device);
  const yCpu = torch.tensor(Array.from(labels(batch, classes, 4)), { dtype: 'int64' });
  const y = device === 'cpu' ? yCpu : yCpu.to(device);
  const loss = (q: Record<string, Tensor>, xi: Tensor, yi: Tensor): Tensor => {
    const h = F.maxPool2d(F.relu(F.conv2d(xi.unsqueeze(0), q.w1, q.b1)), 2);
    return F.crossEntropy(F.linear(h.flatten(1), q.w2, q.b2), yi.unsqueeze(0));
  };
  return perSampleRun(w.id === 'per-sample-cnn-vmap', loss, p, x, y, batch, device);
}

/** vmap(grad(loss)) over (x, y), or the loop of grad calls stacked; every gradient flattened (w1, b1, w2, b2). */
function perSampleRun(
  vmapped: boolean,
  loss: (q: Record<string, Tensor>, xi: Tensor, yi: Tensor) => Tensor,
  p: Record<string, Tensor>,
  x: Tensor,
  y: Tensor,
  batch: number,
  device: Dev,
): Setup {
  const g = torch.func.grad(loss);
  const flat = (gs: Record<string, Tensor>): Tensor => torch.cat(['w1', 'b1', 'w2', 'b2'].map((k) => gs[k].reshape([batch, -1])), 1);
  const run = vmapped
    ? () => torch.tidy(() => flat(torch.func.vmap(g, { inDims: [null, 0, 0] })(p, x, y) as Record<string, Tensor>))
    : () =>
        torch.tidy(() => {
          const rows = Array.from({ length: batch }, (_, n) => g(p, x.select(0, n), y.select(0, n)) as Record<string, Tensor>);
          const out: Record<string, Tensor> = {};
          for (const k of ['w1', 'b1', 'w2', 'b2']) out[k] = torch.stack(rows.map((r) => r[k]));
          return flat(out);
        });
  return prepared([...Object.values(p), x, y], run, device);
}

/**
 * One SGD step of an MLP: forward (matmul + bias + relu), cross-entropy (mean), gradients by
 * `torch.autograd.grad` (the backward pass, without accumulating into `.grad`), then
 * `p -= lr * g` under no-grad. Its output is [loss, updated last bias, first 32 updated w1]:
 * read apart on the CPU, awaited at the end of the step on WebGPU (Note [What a run times]).
 */
function mlpStep(w: Workload, device: Dev): Setup {
  const { widths, batch, lr } = w.shapes.mlp!;
  const init = mlpParams(widths, 10);
  const ws = init.weights.map((d, l) => f32(d, [widths[l], widths[l + 1]], device, true));
  const bs = init.biases.map((d) => f32(d, [d.length], device, true));
  const x = f32(uniform(batch * widths[0], 3), [batch, widths[0]], device);
  const yCpu = torch.tensor(Array.from(labels(batch, widths[widths.length - 1], 4)), { dtype: 'int64' });
  const y = device === 'cpu' ? yCpu : yCpu.to(device);
  if (y !== yCpu) yCpu.dispose();
  const params = [...ws, ...bs];
  const last = widths.length - 2;
  /** The step itself; returns the loss (kept out of tidy). */
  const step = (): Tensor =>
    torch.tidy(() => {
      let h = x;
      for (let l = 0; l <= last; l++) {
        h = h.matmul(ws[l]).add(bs[l]);
        if (l < last) h = h.relu();
      }
      const loss = F.crossEntropy(h, y);
      const grads = torch.autograd.grad(loss, params);
      torch.noGrad(() => {
        for (let i = 0; i < params.length; i++) {
          const g = grads[i];
          if (g === null) throw new Error(`bench: the MLP loss does not reach parameter ${i}`);
          params[i].sub_(g, { alpha: lr });
        }
      });
      return loss.detach();
    });
  const collect = (loss: number, b: ArrayLike<number>, w1: ArrayLike<number>): number[] => {
    const out = [loss];
    for (const v of Array.from(b)) out.push(Number(v));
    for (let i = 0; i < 32 && i < w1.length; i++) out.push(Number(w1[i]));
    return out;
  };
  const dispose = () => {
    for (const t of [...params, x, y]) t.dispose();
  };
  if (device === 'cpu') {
    return pack({
      mode: 'sync',
      run: step,
      read: (loss) => collect(Number(loss.item()), numbers(bs[last].dataSync()), numbers(ws[0].dataSync())),
      free: (loss) => loss.dispose(),
      values: asRead,
      dispose,
    });
  }
  const run = async (): Promise<ArrayLike<number>> => {
    const loss = step();
    try {
      const [l, b, w1] = await Promise.all([loss.data(), bs[last].data(), ws[0].data()]);
      return collect(Number(numbers(l)[0]), numbers(b), numbers(w1));
    } finally {
      loss.dispose();
    }
  };
  return pack({ mode: 'read-in-run', run, values: asRead, dispose });
}
