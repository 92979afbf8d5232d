import { torch as jp } from 'js-pytorch';
import { labels, mlpParams, uniform } from '../data';
import { numelOf, type Workload } from '../workloads';
import { asRead, prepared as pack, type Library, type Setup } from './types';

/**
 * js-pytorch 0.7: tensors are nested JS arrays of doubles (no float32 storage, so the
 * inputs are float32 values computed in float64), eager, with its own autograd. It has no
 * conv2d; its nn.ReLU multiplies negatives by 1e-3, so ReLU here is `masked_fill(x < 0, 0)`.
 */
type Nested = number | Nested[];
type JpTensor = InstanceType<typeof jp.Tensor>;

function nest(d: ArrayLike<number>, shape: readonly number[], off = 0, dim = 0): Nested[] {
  const n = shape[dim];
  const out: Nested[] = new Array(n);
  if (dim === shape.length - 1) {
    for (let i = 0; i < n; i++) out[i] = d[off + i];
    return out;
  }
  let inner = 1;
  for (let k = dim + 1; k < shape.length; k++) inner *= shape[k];
  for (let i = 0; i < n; i++) out[i] = nest(d, shape, off + i * inner, dim + 1);
  return out;
}

function flat(x: unknown): number[] {
  const out: number[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'number') out.push(v);
    else if (Array.isArray(v)) for (const e of v) walk(e);
    else throw new Error(`bench: js-pytorch data holds ${typeof v}, not numbers`);
  };
  walk(x);
  return out;
}

function t(d: ArrayLike<number>, shape: readonly number[], requiresGrad = false): JpTensor {
  return jp.tensor(nest(d, shape), requiresGrad);
}

/** The run is the op (computed eagerly); reading it back is its nested `data` flattened (Note [What a run times]). */
function prepared(fn: () => JpTensor): Setup {
  return pack({ mode: 'sync', run: fn, read: (y) => flat(y.data), values: asRead, dispose: () => {} });
}

/** `calls` calls of `once` (Note [Overhead rows]); results are left to the garbage collector. */
function loop(calls: number, once: () => JpTensor): () => JpTensor {
  return () => {
    for (let i = 1; i < calls; i++) once();
    return once();
  };
}

export const jsPytorch: Library = {
  name: 'js-pytorch',
  describe: () => 'js-pytorch 0.7.2 (nested JS arrays, float64 math)',
  setup(w: Workload): Setup {
    const s = w.shapes;
    switch (w.id) {
      case 'matmul-128':
      case 'matmul-512':
      case 'matmul-1024':
      case 'matmul-2048': {
        const n = s.n!;
        const a = t(uniform(n * n, 1), [n, n]);
        const b = t(uniform(n * n, 2), [n, n]);
        return prepared(() => a.matmul(b));
      }
      case 'add-4M':
      case 'add-bcast': {
        const shape = s.shape!;
        const a = t(uniform(numelOf(shape), 1), shape);
        const bShape = w.id === 'add-bcast' ? [shape[1]] : shape;
        const b = t(uniform(numelOf(bShape), 2), bShape);
        return prepared(() => a.add(b));
      }
      case 'exp-4M': {
        const a = t(uniform(numelOf(s.shape!), 1), s.shape!);
        return prepared(() => a.exp());
      }
      case 'add-transposed': {
        const [r, c] = s.shape!;
        const a = t(uniform(r * c, 1), [c, r]);
        const b = t(uniform(r * c, 2), [r, c]);
        return prepared(() => a.transpose(0, 1).add(b));
      }
      case 'sum-16M': {
        const a = t(uniform(numelOf(s.shape!), 1), s.shape!);
        return prepared(() => a.sum(-1));
      }
      case 'sum-lastdim': {
        const a = t(uniform(numelOf(s.shape!), 1), s.shape!);
        return prepared(() => a.sum(-1));
      }
      case 'softmax': {
        // nn.Softmax: exp(x) / sum(exp(x)) (no max subtracted; inputs are in [-4, 4]).
        const a = t(uniform(numelOf(s.shape!), 1, -4, 4), s.shape!);
        const softmax = new jp.nn.Softmax();
        return prepared(() => softmax.forward(a, -1));
      }
      case 'conv2d':
      case 'conv2d-cl':
      case 'conv2d-cl-1x1':
      case 'conv2d-bwd':
      case 'conv2d-1x1-bwd':
      case 'conv2d-cl-bwd':
      case 'conv2d-cl-1x1-bwd':
        return { na: 'no conv2d in js-pytorch' };
      case 'mlp-step':
        return mlpStep(w);
      case 'rfft':
      case 'fft':
        return { na: 'no FFT in js-pytorch' };
      case 'add-1': {
        const a = t(uniform(1, 1), [1]);
        const b = t(uniform(1, 2), [1]);
        return prepared(loop(w.calls!, () => a.add(b)));
      }
      case 'per-sample-vmap':
      case 'per-sample-loop':
      case 'per-sample-cnn-vmap':
      case 'per-sample-cnn-loop':
        return { na: 'no function transforms (vmap, grad) in js-pytorch' };
      case 'tiny-fwd-bwd': {
        const x = t(uniform(4, 1), [4], true);
        // The grad of the last call is the result: 2x.
        const once = (): JpTensor => {
          x.mul(x).sum().backward();
          const g = x._grad;
          x.zero_grad(); // a fresh zero grad: g stays as it was
          return g;
        };
        return prepared(loop(w.calls!, once));
      }
    }
  },
};

function mlpStep(w: Workload): Setup {
  const { widths, batch, lr } = w.shapes.mlp!;
  const init = mlpParams(widths, 10);
  const ws = init.weights.map((d, l) => t(d, [widths[l], widths[l + 1]], true));
  const bs = init.biases.map((d) => t(d, [d.length], true));
  const params = [...ws, ...bs];
  const x = t(uniform(batch * widths[0], 3), [batch, widths[0]]);
  const y = jp.tensor(Array.from(labels(batch, widths[widths.length - 1], 4)));
  const lossFn = new jp.nn.CrossEntropyLoss();
  const last = widths.length - 2;
  const step = (): JpTensor => {
    let h = x;
    for (let l = 0; l <= last; l++) {
      h = h.matmul(ws[l]).add(bs[l]);
      if (l < last) h = h.masked_fill(h, (v: number) => v < 0, 0);
    }
    const loss = lossFn.forward(h, y);
    loss.backward();
    for (const p of params) {
      p._data = jp.tensor(p._data).add(p._grad.mul(-lr))._data;
      p.zero_grad();
    }
    return loss;
  };
  const read = (loss: JpTensor): number[] => {
    const out = flat(loss.data);
    out.push(...flat(bs[last].data));
    out.push(...flat(ws[0].data).slice(0, 32));
    return out;
  };
  return pack({ mode: 'sync', run: step, read, values: asRead, dispose: () => {} });
}
