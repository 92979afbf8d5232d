import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { labels, mlpParams, uniform } from '../data';
import { numelOf, type Workload } from '../workloads';
import type { Library, LibName, Setup } from './types';

/**
 * TensorFlow.js on one backend per process: `@tensorflow/tfjs-backend-cpu` (plain JS) or
 * `@tensorflow/tfjs-backend-wasm` with SIMD, its .wasm files read from node_modules (no
 * network) and its thread pool off (torch-ts runs on one thread; so does tfjs-cpu).
 */
export async function initTfjs(backend: 'cpu' | 'wasm'): Promise<void> {
  // tfjs-core warns once that tfjs-node would be faster; that is not what we measure.
  const warn = console.warn;
  console.warn = () => {};
  try {
    // tfjs-core's Node bundle registers no gradients (the @tensorflow/tfjs union package
    // does); its ES module build has them, with extensionless imports that only CommonJS
    // resolution (tsx's require hook) follows. They register into the engine's global
    // gradient registry, which every copy of tfjs-core shares.
    createRequire(import.meta.url)('@tensorflow/tfjs-core/dist/register_all_gradients.js');
    if (backend === 'cpu') {
      await import('@tensorflow/tfjs-backend-cpu');
    } else {
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      const require = createRequire(import.meta.url);
      const dist = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'));
      wasm.setWasmPaths(join(dist, 'dist') + '/');
      tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
      tf.env().set('WASM_HAS_SIMD_SUPPORT', true);
    }
    if (!(await tf.setBackend(backend))) throw new Error(`tfjs backend ${backend} failed to initialise`);
    await tf.ready();
    tf.tensor([0]).dispose(); // the first write prints the warning
  } finally {
    console.warn = warn;
  }
}

function t32(data: Float32Array, shape: readonly number[]): tf.Tensor {
  return tf.tensor(data, shape as number[], 'float32');
}

function prepared(inputs: tf.Tensor[], fn: () => tf.Tensor, values?: (r: unknown) => ArrayLike<number>): Setup {
  return {
    run: () => {
      // dataSync outside tidy: tidy walks its result looking for tensors, element by element.
      const y = tf.tidy(fn);
      const d = y.dataSync();
      y.dispose();
      return d;
    },
    values,
    dispose: () => {
      for (const t of inputs) t.dispose();
    },
  };
}

/** [N, C, H, W] data reordered to [N, H, W, C]. */
function nchwToNhwc(d: Float32Array, [n, c, h, w]: readonly number[]): Float32Array {
  const out = new Float32Array(d.length);
  for (let b = 0; b < n; b++)
    for (let ch = 0; ch < c; ch++)
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) out[((b * h + y) * w + x) * c + ch] = d[((b * c + ch) * h + y) * w + x];
  return out;
}

/** [N, H, W, C] result back to [N, C, H, W] for the probe. */
function nhwcToNchw(d: ArrayLike<number>, [n, c, h, w]: readonly number[]): Float32Array {
  const out = new Float32Array(d.length);
  for (let b = 0; b < n; b++)
    for (let ch = 0; ch < c; ch++)
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) out[((b * c + ch) * h + y) * w + x] = d[((b * h + y) * w + x) * c + ch];
  return out;
}

/** PyTorch's [O, C, K, K] weight as tfjs's [K, K, C, O]. */
function oikkToKkio(d: Float32Array, [o, c, kh, kw]: readonly number[]): Float32Array {
  const out = new Float32Array(d.length);
  for (let oo = 0; oo < o; oo++)
    for (let ci = 0; ci < c; ci++)
      for (let y = 0; y < kh; y++)
        for (let x = 0; x < kw; x++) out[((y * kw + x) * c + ci) * o + oo] = d[((oo * c + ci) * kh + y) * kw + x];
  return out;
}

export function tfjsLibrary(name: LibName, backend: 'cpu' | 'wasm'): Library {
  return {
    name,
    describe: () => `@tensorflow/tfjs-core ${tf.version_core}, backend ${tf.getBackend()}` + (backend === 'wasm' ? ' (SIMD, 1 thread)' : ''),
    setup(w: Workload): Setup {
      const s = w.shapes;
      switch (w.id) {
        case 'matmul-128':
        case 'matmul-512':
        case 'matmul-1024':
        case 'matmul-2048': {
          const n = s.n!;
          const a = t32(uniform(n * n, 1), [n, n]);
          const b = t32(uniform(n * n, 2), [n, n]);
          return prepared([a, b], () => tf.matMul(a, b));
        }
        case 'add-4M': {
          const a = t32(uniform(numelOf(s.shape!), 1), s.shape!);
          const b = t32(uniform(numelOf(s.shape!), 2), s.shape!);
          return prepared([a, b], () => tf.add(a, b));
        }
        case 'add-bcast': {
          const [r, c] = s.shape!;
          const a = t32(uniform(r * c, 1), [r, c]);
          const b = t32(uniform(c, 2), [c]);
          return prepared([a, b], () => tf.add(a, b));
        }
        case 'exp-4M': {
          const a = t32(uniform(numelOf(s.shape!), 1), s.shape!);
          return prepared([a], () => tf.exp(a));
        }
        case 'add-transposed': {
          const [r, c] = s.shape!;
          const a = t32(uniform(r * c, 1), [c, r]);
          const b = t32(uniform(r * c, 2), [r, c]);
          return prepared([a, b], () => tf.add(tf.transpose(a), b));
        }
        case 'sum-16M': {
          const a = t32(uniform(numelOf(s.shape!), 1), s.shape!);
          return prepared([a], () => tf.sum(a));
        }
        case 'sum-lastdim': {
          const a = t32(uniform(numelOf(s.shape!), 1), s.shape!);
          return prepared([a], () => tf.sum(a, -1));
        }
        case 'softmax': {
          const a = t32(uniform(numelOf(s.shape!), 1, -4, 4), s.shape!);
          return prepared([a], () => tf.softmax(a, -1));
        }
        case 'conv2d': {
          // tfjs convolves NHWC with [K, K, C, O] filters: the same numbers, its own layout.
          const c = s.conv!;
          const [n, ci, h, wd] = c.input;
          const x = t32(nchwToNhwc(uniform(numelOf(c.input), 1), c.input), [n, h, wd, ci]);
          const [o, , kh, kw] = c.weight;
          const k = t32(oikkToKkio(uniform(numelOf(c.weight), 2, -0.1, 0.1), c.weight), [kh, kw, ci, o]);
          const ho = h + 2 * c.padding - kh + 1;
          const wo = wd + 2 * c.padding - kw + 1;
          return prepared(
            [x, k],
            () => tf.conv2d(x as tf.Tensor4D, k as tf.Tensor4D, 1, c.padding),
            (r) => nhwcToNchw(r as ArrayLike<number>, [n, o, ho, wo]),
          );
        }
        case 'mlp-step':
          return mlpStep(w);
      }
    },
  };
}

/** The MLP step of torch-ts's adapter with tfjs's own tools: variables, `tf.train.sgd().minimize`. */
function mlpStep(w: Workload): Setup {
  const { widths, batch, lr } = w.shapes.mlp!;
  const init = mlpParams(widths, 10);
  const ws = init.weights.map((d, l) => tf.variable(t32(d, [widths[l], widths[l + 1]])));
  const bs = init.biases.map((d) => tf.variable(t32(d, [d.length])));
  const classes = widths[widths.length - 1];
  const x = t32(uniform(batch * widths[0], 3), [batch, widths[0]]);
  const onehot = tf.oneHot(tf.tensor1d(labels(batch, classes, 4), 'int32'), classes);
  const opt = tf.train.sgd(lr);
  const last = widths.length - 2;
  const run = (): number[] => {
    const loss = opt.minimize(() => {
      let h: tf.Tensor = x;
      for (let l = 0; l <= last; l++) {
        h = tf.add(tf.matMul(h, ws[l]), bs[l]);
        if (l < last) h = tf.relu(h);
      }
      return tf.losses.softmaxCrossEntropy(onehot, h) as tf.Scalar;
    }, true)!;
    const out = [loss.dataSync()[0]];
    loss.dispose();
    for (const v of bs[last].dataSync()) out.push(v);
    const w1 = ws[0].dataSync();
    for (let i = 0; i < 32 && i < w1.length; i++) out.push(w1[i]);
    return out;
  };
  return {
    run,
    dispose: () => {
      for (const t of [...ws, ...bs, x, onehot]) t.dispose();
      opt.dispose();
    },
  };
}
