import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { labels, mlpParams, uniform } from '../data';
import { numelOf, type Workload } from '../workloads';
import { asRead, prepared, type Library, type NodeLibName, type Setup } from './types';

export type TfjsBackend = 'cpu' | 'wasm' | 'webgpu';

/**
 * Note [tfjs-webgpu in Node]
 * `@tensorflow/tfjs-backend-webgpu` asks `navigator.gpu` for its adapter. Node has no
 * navigator.gpu: it gets Dawn's, from the `webgpu` package that torch-ts's backend uses too,
 * so both libraries run on the same adapter (SwiftShader's Vulkan on a machine without a
 * GPU: with no VK_ICD_FILENAMES set, the retry picks Chromium's SwiftShader driver, as
 * torch-ts's init does). The GPU object owns Dawn's instance and must outlive every device
 * made from it: it is kept here, at module scope, for the life of the process.
 */
const dawnInstances: unknown[] = [];

const SWIFTSHADER_ICDS = ['/usr/lib/chromium/vk_swiftshader_icd.json', '/usr/lib/chromium-browser/vk_swiftshader_icd.json', '/opt/google/chrome/vk_swiftshader_icd.json'];

async function provideNavigatorGpu(): Promise<void> {
  const { create, globals } = await import('webgpu');
  for (const [k, v] of Object.entries(globals)) if (!(k in globalThis)) Reflect.set(globalThis, k, v);
  let gpu = create([]);
  dawnInstances.push(gpu);
  if (!(await gpu.requestAdapter()) && !process.env.VK_ICD_FILENAMES) {
    const { existsSync } = await import('node:fs');
    const icd = SWIFTSHADER_ICDS.find((p) => existsSync(p));
    if (icd) {
      process.env.VK_ICD_FILENAMES = icd;
      gpu = create([]);
      dawnInstances.push(gpu);
    }
  }
  Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true, writable: true });
}

/**
 * TensorFlow.js on one backend per process: `@tensorflow/tfjs-backend-cpu` (plain JS),
 * `@tensorflow/tfjs-backend-wasm` with SIMD, its .wasm files read from node_modules (no
 * network) and its thread pool off (every peer runs on one thread, like the `torch-ts` column), or
 * `@tensorflow/tfjs-backend-webgpu` on Dawn (Note [tfjs-webgpu in Node]).
 */
export async function initTfjs(backend: TfjsBackend): Promise<void> {
  // tfjs-core warns once that tfjs-node would be faster; that is not what we measure.
  const warn = console.warn;
  console.warn = () => {};
  try {
    // tfjs-core's Node bundle registers no gradients (the @tensorflow/tfjs union package
    // does); its ES module build has them, with extensionless imports that only CommonJS
    // resolution (tsx's require hook) follows. They register into the engine's global
    // gradient registry, which every copy of tfjs-core shares.
    try {
      createRequire(import.meta.url)('@tensorflow/tfjs-core/dist/register_all_gradients.js');
    } catch {
      // Not under tsx (the bench's unit tests run in vitest, whose transform, told to inline
      // tfjs-core in vitest.config.ts, resolves those imports instead).
      await import('@tensorflow/tfjs-core/dist/register_all_gradients.js');
    }
    if (backend === 'cpu') {
      await import('@tensorflow/tfjs-backend-cpu');
    } else if (backend === 'webgpu') {
      await provideNavigatorGpu();
      await import('@tensorflow/tfjs-backend-webgpu');
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
  return tf.tensor(data, [...shape], 'float32');
}

/** What tfjs reads back from a float32 tensor. */
type Read = tf.DataTypeMap[tf.NumericDataType];

/** On WebGPU a run ends when its result is on the host; on the CPU backends it is the op, read apart (Note [What a run times]). */
function preparedOn(inputs: tf.Tensor[], fn: () => tf.Tensor, values: (r: Read) => ArrayLike<number>, readAsync: boolean): Setup {
  const dispose = () => {
    for (const t of inputs) t.dispose();
  };
  if (readAsync) {
    const run = async () => {
      const y = tf.tidy(fn);
      const d = await y.data();
      y.dispose();
      return d;
    };
    return prepared({ mode: 'read-in-run', run, values, dispose });
  }
  return prepared({
    mode: 'sync',
    run: () => tf.tidy(fn),
    // dataSync outside tidy: tidy walks its result looking for tensors, element by element.
    read: (y) => y.dataSync(),
    free: (y) => y.dispose(),
    values,
    dispose,
  });
}

/** `calls` calls of `once` (Note [Overhead rows]): every result but the last disposed as it comes. */
function loop(calls: number, once: () => tf.Tensor): () => tf.Tensor {
  return () => {
    for (let i = 1; i < calls; i++) once().dispose();
    return once();
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

/** tfjs's [K, K, C, O] filter (or its gradient) back to PyTorch's [O, C, K, K]. */
function kkioToOikk(d: ArrayLike<number>, [o, c, kh, kw]: readonly number[]): Float32Array {
  const out = new Float32Array(d.length);
  for (let oo = 0; oo < o; oo++)
    for (let ci = 0; ci < c; ci++)
      for (let y = 0; y < kh; y++)
        for (let x = 0; x < kw; x++) out[((oo * c + ci) * kh + y) * kw + x] = d[((y * kw + x) * c + ci) * o + oo];
  return out;
}

/**
 * A training step's convolution (Note [Conv backward rows]) as tfjs's own benchmarks time
 * one: `tf.grads` of the NHWC conv2d at (x, filter) from dy, NHWC too (tfjs has one layout, so
 * a `-cl` row is the same computation as its contiguous row). The gradients are read back
 * in PyTorch's NCHW / OIHW order for the probe.
 */
function convBackward(c: NonNullable<Workload['shapes']['conv']>, readAsync: boolean): Setup {
  const [n, ci, h, wd] = c.input;
  const [o, , kh, kw] = c.weight;
  const ho = h + 2 * c.padding - kh + 1;
  const wo = wd + 2 * c.padding - kw + 1;
  const x = tf.tensor4d(nchwToNhwc(uniform(numelOf(c.input), 1), c.input), [n, h, wd, ci], 'float32');
  const k = tf.tensor4d(oikkToKkio(uniform(numelOf(c.weight), 2, -0.1, 0.1), c.weight), [kh, kw, ci, o], 'float32');
  const yShape = [n, o, ho, wo];
  const dy = tf.tensor4d(nchwToNhwc(uniform(numelOf(yShape), 3), yShape), [n, ho, wo, o], 'float32');
  // (tf.grads types its function's arguments as any rank's: they are x and k, both 4-d)
  const grads = tf.grads((xs: tf.Tensor, ks: tf.Tensor) => tf.conv2d(xs as tf.Tensor4D, ks as tf.Tensor4D, 1, c.padding));
  const step = (): tf.Tensor[] => grads([x, k], dy);
  const values = ([gx, gk]: ArrayLike<number>[]): Float32Array => {
    const out = new Float32Array(gx.length + gk.length);
    out.set(nhwcToNchw(gx, c.input));
    out.set(kkioToOikk(gk, c.weight), gx.length);
    return out;
  };
  const dispose = () => {
    for (const t of [x, k, dy]) t.dispose();
  };
  if (readAsync) {
    const run = async (): Promise<ArrayLike<number>[]> => {
      const gs = step();
      try {
        return await Promise.all(gs.map((g) => g.data()));
      } finally {
        for (const g of gs) g.dispose();
      }
    };
    return prepared({ mode: 'read-in-run', run, values, dispose });
  }
  return prepared({
    mode: 'sync',
    run: step,
    read: (gs) => gs.map((g) => g.dataSync()),
    free: (gs) => gs.forEach((g) => g.dispose()),
    values,
    dispose,
  });
}

/** The adapter tfjs-webgpu runs on, as its backend reports it. */
function webgpuAdapter(): string {
  // (tfjs-backend-webgpu's own field: the backend is typed as tfjs-core's KernelBackend)
  const info: unknown = Reflect.get(tf.backend(), 'adapterInfo');
  const field = (k: string): unknown => (typeof info === 'object' && info !== null ? Reflect.get(info, k) : undefined);
  return [field('vendor'), field('architecture')].filter((s) => typeof s === 'string' && s).join(' ') || 'unknown adapter';
}

export function tfjsLibrary(name: NodeLibName, backend: TfjsBackend): Library {
  const readAsync = backend === 'webgpu';
  const prepared = (inputs: tf.Tensor[], fn: () => tf.Tensor, values: (r: Read) => ArrayLike<number> = asRead): Setup =>
    preparedOn(inputs, fn, values, readAsync);
  const extra = backend === 'wasm' ? ' (SIMD, 1 thread)' : backend === 'webgpu' ? ` (Dawn in Node: ${webgpuAdapter()})` : '';
  return {
    name,
    compilesOnFirstRun: readAsync,
    describe: () => `@tensorflow/tfjs-core ${tf.version_core}, backend ${tf.getBackend()}` + extra,
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
        case 'conv2d':
        case 'conv2d-cl':
        case 'conv2d-cl-1x1': {
          // tfjs convolves NHWC with [K, K, C, O] filters: the same numbers, its own layout.
          const c = s.conv!;
          const [n, ci, h, wd] = c.input;
          const x = tf.tensor4d(nchwToNhwc(uniform(numelOf(c.input), 1), c.input), [n, h, wd, ci], 'float32');
          const [o, , kh, kw] = c.weight;
          const k = tf.tensor4d(oikkToKkio(uniform(numelOf(c.weight), 2, -0.1, 0.1), c.weight), [kh, kw, ci, o], 'float32');
          const ho = h + 2 * c.padding - kh + 1;
          const wo = wd + 2 * c.padding - kw + 1;
          return prepared(
            [x, k],
            () => tf.conv2d(x, k, 1, c.padding),
            (r) => nhwcToNchw(r, [n, o, ho, wo]),
          );
        }
        case 'conv2d-bwd':
        case 'conv2d-1x1-bwd':
        case 'conv2d-cl-bwd':
        case 'conv2d-cl-1x1-bwd':
          // tfjs-backend-wasm 4.22 has the input gradient's kernel, not the weight gradient's.
          if (!tf.getKernel('Conv2DBackpropFilter', backend)) return { na: `no Conv2DBackpropFilter kernel (conv2d's weight gradient) in tfjs-backend-${backend}` };
          return convBackward(s.conv!, readAsync);
        case 'mlp-step':
          return mlpStep(w, readAsync);
        case 'rfft':
        case 'fft': {
          // Note [FFT rows]: tf.spectral transforms the innermost dimension; a complex64
          // result reads back (dataSync / data) as interleaved (re, im) pairs.
          if (backend === 'wasm') return { na: 'tfjs-backend-wasm 4.22 has no FFT kernel' };
          const n = numelOf(s.shape!);
          const re = t32(uniform(n, 1), s.shape!);
          if (w.id === 'rfft') return prepared([re], () => tf.spectral.rfft(re));
          const im = t32(uniform(n, 2), s.shape!);
          const x = tf.complex(re, im);
          re.dispose();
          im.dispose();
          return prepared([x], () => tf.spectral.fft(x));
        }
        case 'add-1': {
          const a = t32(uniform(1, 1), [1]);
          const b = t32(uniform(1, 2), [1]);
          return prepared([a, b], loop(w.calls!, () => tf.add(a, b)));
        }
        case 'per-sample-vmap':
        case 'per-sample-loop':
        case 'per-sample-cnn-vmap':
        case 'per-sample-cnn-loop':
          return { na: 'no vmap in tfjs (per-sample gradients need function transforms)' };
        case 'tiny-fwd-bwd': {
          // tfjs's autograd is functional: the gradient of sum(x * x) at x, with nothing to drop.
          const x = t32(uniform(4, 1), [4]);
          const grad = tf.grad((v: tf.Tensor) => tf.sum(tf.mul(v, v)));
          return prepared([x], loop(w.calls!, () => grad(x)));
        }
      }
    },
  };
}

/** The MLP step of torch-ts's adapter with tfjs's own tools: variables, `tf.train.sgd().minimize`. */
function mlpStep(w: Workload, readAsync: boolean): Setup {
  const { widths, batch, lr } = w.shapes.mlp!;
  const init = mlpParams(widths, 10);
  const ws = init.weights.map((d, l) => tf.variable(t32(d, [widths[l], widths[l + 1]])));
  const bs = init.biases.map((d) => tf.variable(t32(d, [d.length])));
  const classes = widths[widths.length - 1];
  const x = t32(uniform(batch * widths[0], 3), [batch, widths[0]]);
  const onehot = tf.oneHot(tf.tensor1d(labels(batch, classes, 4), 'int32'), classes);
  const opt = tf.train.sgd(lr);
  const last = widths.length - 2;
  const step = (): tf.Scalar => {
    const loss = opt.minimize(() => {
      let h: tf.Tensor = x;
      for (let l = 0; l <= last; l++) {
        h = tf.add(tf.matMul(h, ws[l]), bs[l]);
        if (l < last) h = tf.relu(h);
      }
      // (a mean over the batch: tfjs types the loss's rank by a type argument)
      return tf.losses.softmaxCrossEntropy<tf.Tensor, tf.Scalar>(onehot, h);
    }, true);
    if (loss === null) throw new Error('bench: tfjs minimize returned no cost');
    return loss;
  };
  const collect = (loss: ArrayLike<number>, b: ArrayLike<number>, w1: ArrayLike<number>): number[] => {
    const out = [loss[0]];
    for (let i = 0; i < b.length; i++) out.push(b[i]);
    for (let i = 0; i < 32 && i < w1.length; i++) out.push(w1[i]);
    return out;
  };
  const dispose = () => {
    for (const t of [...ws, ...bs, x, onehot]) t.dispose();
    opt.dispose();
  };
  if (readAsync) {
    const run = async (): Promise<number[]> => {
      const loss = step();
      const [l, b, w1] = await Promise.all([loss.data(), bs[last].data(), ws[0].data()]);
      loss.dispose();
      return collect(l, b, w1);
    };
    return prepared({ mode: 'read-in-run', run, values: asRead, dispose });
  }
  return prepared({
    mode: 'sync',
    run: step,
    read: (loss) => collect(loss.dataSync(), bs[last].dataSync(), ws[0].dataSync()),
    free: (loss) => loss.dispose(),
    values: asRead,
    dispose,
  });
}
