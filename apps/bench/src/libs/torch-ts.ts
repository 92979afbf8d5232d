import * as torch from '@torch-ts/torch';
import { labels, mlpParams, uniform } from '../data';
import { numelOf, type Workload } from '../workloads';
import type { Library, Setup } from './types';

type Tensor = torch.Tensor;
type AnyFn = (...args: unknown[]) => Tensor;

/**
 * An op that other work may not have landed yet (softmax, conv2d, crossEntropy): looked up
 * at run time on `torch`, `torch.nn.functional` and `torch.F`, so the benchmark compiles
 * and runs before it exists and reports "n/a (op missing)".
 */
function op(name: string): AnyFn | null {
  const t = torch as unknown as Record<string, unknown>;
  const nn = t.nn as Record<string, unknown> | undefined;
  const places = [t, nn?.functional, t.F, t.functional] as (Record<string, unknown> | undefined)[];
  for (const p of places) {
    const f = p?.[name];
    if (typeof f === 'function') return f as AnyFn;
  }
  return null;
}

function f32(data: Float32Array, shape: readonly number[], requiresGrad = false): Tensor {
  return torch.tensor(data).view(...shape).requiresGrad_(requiresGrad);
}

/** Computes `fn()` inside a tidy scope, reads the result back and frees everything. */
function forced(fn: () => Tensor): () => ArrayLike<number> {
  return () =>
    torch.tidy(() => {
      return fn().dataSync() as ArrayLike<number>;
    });
}

function prepared(inputs: Tensor[], fn: () => Tensor): Setup {
  return {
    run: forced(fn),
    dispose: () => {
      for (const t of inputs) t.dispose();
    },
  };
}

export const torchTs: Library = {
  name: 'torch-ts',
  describe: () => 'torch-ts CPU (this repository, run from source)',
  setup(w: Workload): Setup {
    const s = w.shapes;
    switch (w.id) {
      case 'matmul-128':
      case 'matmul-512':
      case 'matmul-1024':
      case 'matmul-2048': {
        const n = s.n!;
        const a = f32(uniform(n * n, 1), [n, n]);
        const b = f32(uniform(n * n, 2), [n, n]);
        return prepared([a, b], () => a.matmul(b));
      }
      case 'add-4M': {
        const a = f32(uniform(numelOf(s.shape!), 1), s.shape!);
        const b = f32(uniform(numelOf(s.shape!), 2), s.shape!);
        return prepared([a, b], () => a.add(b));
      }
      case 'add-bcast': {
        const [r, c] = s.shape!;
        const a = f32(uniform(r * c, 1), [r, c]);
        const b = f32(uniform(c, 2), [c]);
        return prepared([a, b], () => a.add(b));
      }
      case 'exp-4M': {
        const a = f32(uniform(numelOf(s.shape!), 1), s.shape!);
        return prepared([a], () => a.exp());
      }
      case 'add-transposed': {
        const [r, c] = s.shape!;
        const a = f32(uniform(r * c, 1), [c, r]);
        const b = f32(uniform(r * c, 2), [r, c]);
        return prepared([a, b], () => a.t().add(b));
      }
      case 'sum-16M': {
        const a = f32(uniform(numelOf(s.shape!), 1), s.shape!);
        return prepared([a], () => a.sum());
      }
      case 'sum-lastdim': {
        const a = f32(uniform(numelOf(s.shape!), 1), s.shape!);
        return prepared([a], () => a.sum(-1));
      }
      case 'softmax': {
        const softmax = op('softmax');
        if (!softmax) return { na: 'op missing' };
        const a = f32(uniform(numelOf(s.shape!), 1, -4, 4), s.shape!);
        return prepared([a], () => softmax(a, { dim: -1 }));
      }
      case 'conv2d': {
        const conv2d = op('conv2d');
        if (!conv2d) return { na: 'op missing' };
        const c = s.conv!;
        const x = f32(uniform(numelOf(c.input), 1), c.input);
        const k = f32(uniform(numelOf(c.weight), 2, -0.1, 0.1), c.weight);
        return prepared([x, k], () => conv2d(x, k, { padding: c.padding }));
      }
      case 'mlp-step':
        return mlpStep(w);
    }
  },
};

/**
 * One SGD step of an MLP: forward (matmul + bias + relu), cross-entropy (mean), gradients by
 * `torch.autograd.grad` (the backward pass, without accumulating into `.grad`), then
 * `p -= lr * g` under no-grad. Returns [loss, updated last bias, first 32 updated w1].
 */
function mlpStep(w: Workload): Setup {
  const crossEntropy = op('crossEntropy');
  if (!crossEntropy) return { na: 'op missing (crossEntropy)' };
  const { widths, batch, lr } = w.shapes.mlp!;
  const init = mlpParams(widths, 10);
  const ws = init.weights.map((d, l) => f32(d, [widths[l], widths[l + 1]], true));
  const bs = init.biases.map((d) => f32(d, [d.length], true));
  const x = f32(uniform(batch * widths[0], 3), [batch, widths[0]]);
  const y = torch.tensor(Array.from(labels(batch, widths[widths.length - 1], 4)), { dtype: 'int64' });
  const params = [...ws, ...bs];
  const last = widths.length - 2;
  const run = (): ArrayLike<number> =>
    torch.tidy(() => {
      let h = x;
      for (let l = 0; l <= last; l++) {
        h = h.matmul(ws[l]).add(bs[l]);
        if (l < last) h = h.relu();
      }
      const loss = crossEntropy(h, y);
      const grads = torch.autograd.grad(loss, params) as Tensor[];
      torch.noGrad(() => {
        for (let i = 0; i < params.length; i++) params[i].sub_(grads[i], { alpha: lr });
      });
      const out = [loss.item() as number];
      for (const v of bs[last].dataSync()) out.push(Number(v));
      const w1 = ws[0].dataSync();
      for (let i = 0; i < 32 && i < w1.length; i++) out.push(Number(w1[i]));
      return out;
    });
  return {
    run,
    dispose: () => {
      for (const t of [...params, x, y]) t.dispose();
    },
  };
}
