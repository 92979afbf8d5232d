import * as ort from 'onnxruntime-node';
import { createRequire } from 'node:module';
import { uniform } from '../data';
import { encodeModel, type GraphSpec, type NodeSpec } from '../onnx/proto';
import { numelOf, type Workload } from '../workloads';
import { asRead, prepared as pack, type Library, type Setup } from './types';

/**
 * onnxruntime-node (its CPU execution provider, native code shipped in the npm package):
 * each workload is a tiny ONNX graph written in code (onnx/proto.ts), run by a session on one
 * thread (`intraOpNumThreads: 1`, `interOpNumThreads: 1`, like every peer here). Every input,
 * conv2d's weight included, is a graph input fed at each run, as the other libraries get
 * tensors made beforehand: no initializer for the runtime to pre-pack. The run is
 * `await session.run(feeds)`, as onnxruntime's own benchmarks time it; onnxruntime-node runs
 * the session synchronously after a `setImmediate` hop, which the overhead rows therefore
 * include. onnxruntime-node does inference only (training needs onnxruntime-training's
 * artifacts), so the MLP step and tiny-fwd-bwd are n/a.
 */
const version = versionOf(createRequire(import.meta.url)('onnxruntime-node/package.json'));

function versionOf(pkg: unknown): string {
  return typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

type Feeds = Record<string, ort.Tensor>;
type Outputs = ort.InferenceSession.OnnxValueMapType;

/** The graph's output `y`, float32 as every workload's is. */
function outputY(out: Outputs): Float32Array {
  const d = out.y.data;
  if (!(d instanceof Float32Array)) throw new Error(`bench: onnxruntime's output y is ${out.y.type}, not float32`);
  return d;
}

function f32(data: Float32Array, dims: readonly number[]): ort.Tensor {
  return new ort.Tensor('float32', data, dims);
}

/** A session on `graph`, run on `feeds`; the result is the graph's output `y`. */
async function prepared(graph: GraphSpec, feeds: Feeds, calls = 1): Promise<Setup> {
  const session = await ort.InferenceSession.create(encodeModel(graph), {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
  return pack({
    mode: 'async',
    // Note [Overhead rows]: `calls` runs, the last one's output kept.
    run: async () => {
      for (let i = 1; i < calls; i++) await session.run(feeds);
      return session.run(feeds);
    },
    read: outputY,
    values: asRead,
    dispose: () => void session.release(),
  });
}

const input = (name: string, dims: readonly number[]) => ({ name, dims });
const one = (op: string, inputs: string[], attrs?: NodeSpec['attrs']): NodeSpec => ({ op, inputs, outputs: ['y'], attrs });

function setup(w: Workload): Setup | Promise<Setup> {
  const s = w.shapes;
  switch (w.id) {
    case 'matmul-128':
    case 'matmul-512':
    case 'matmul-1024':
    case 'matmul-2048': {
      const n = s.n!;
      const g = { nodes: [one('MatMul', ['a', 'b'])], inputs: [input('a', [n, n]), input('b', [n, n])], outputs: ['y'] };
      return prepared(g, { a: f32(uniform(n * n, 1), [n, n]), b: f32(uniform(n * n, 2), [n, n]) });
    }
    case 'add-4M':
    case 'add-bcast':
    case 'add-1': {
      const shape = s.shape!;
      const bShape = w.id === 'add-bcast' ? [shape[1]] : shape;
      const g = { nodes: [one('Add', ['a', 'b'])], inputs: [input('a', shape), input('b', bShape)], outputs: ['y'] };
      return prepared(g, { a: f32(uniform(numelOf(shape), 1), shape), b: f32(uniform(numelOf(bShape), 2), bShape) }, w.calls);
    }
    case 'exp-4M': {
      const g = { nodes: [one('Exp', ['a'])], inputs: [input('a', s.shape!)], outputs: ['y'] };
      return prepared(g, { a: f32(uniform(numelOf(s.shape!), 1), s.shape!) });
    }
    case 'add-transposed': {
      const [r, c] = s.shape!;
      const g = {
        nodes: [{ op: 'Transpose', inputs: ['a'], outputs: ['at'], attrs: { perm: [1, 0] } }, one('Add', ['at', 'b'])],
        inputs: [input('a', [c, r]), input('b', [r, c])],
        outputs: ['y'],
      };
      return prepared(g, { a: f32(uniform(r * c, 1), [c, r]), b: f32(uniform(r * c, 2), [r, c]) });
    }
    case 'sum-16M':
    case 'sum-lastdim': {
      // Opset 13's ReduceSum takes its axes as an input; with none it reduces every axis.
      const all = w.id === 'sum-16M';
      const g = {
        nodes: [one('ReduceSum', all ? ['a'] : ['a', 'axes'], { keepdims: 0 })],
        inputs: [input('a', s.shape!)],
        outputs: ['y'],
        int64s: all ? [] : [{ name: 'axes', values: [-1] }],
      };
      return prepared(g, { a: f32(uniform(numelOf(s.shape!), 1), s.shape!) });
    }
    case 'softmax': {
      const g = { nodes: [one('Softmax', ['a'], { axis: -1 })], inputs: [input('a', s.shape!)], outputs: ['y'] };
      return prepared(g, { a: f32(uniform(numelOf(s.shape!), 1, -4, 4), s.shape!) });
    }
    case 'conv2d': {
      const c = s.conv!;
      const p = c.padding;
      const g = { nodes: [one('Conv', ['x', 'k'], { pads: [p, p, p, p] })], inputs: [input('x', c.input), input('k', c.weight)], outputs: ['y'] };
      return prepared(g, { x: f32(uniform(numelOf(c.input), 1), c.input), k: f32(uniform(numelOf(c.weight), 2, -0.1, 0.1), c.weight) });
    }
    case 'conv2d-cl':
    case 'conv2d-cl-1x1':
      return { na: "no channels-last Conv: ONNX's Conv is NCHW (Note [Channels-last conv rows])" };
    case 'conv2d-bwd':
    case 'conv2d-1x1-bwd':
    case 'conv2d-cl-bwd':
    case 'conv2d-cl-1x1-bwd':
      return { na: 'onnxruntime-node does inference only (no backward)' };
    case 'mlp-step':
      return { na: 'onnxruntime-node does inference only (no training step)' };
    case 'rfft':
    case 'fft':
      // ONNX has a DFT operator from opset 17; the bench's graphs are opset 13 (onnx/proto.ts).
      return { na: 'no FFT graph: ONNX DFT needs opset 17, the bench builds opset 13' };
    case 'per-sample-vmap':
    case 'per-sample-loop':
    case 'per-sample-cnn-vmap':
    case 'per-sample-cnn-loop':
      return { na: 'onnxruntime-node has no autograd' };
    case 'tiny-fwd-bwd':
      return { na: 'onnxruntime-node has no autograd' };
  }
}

export const onnxruntime: Library = {
  name: 'onnxruntime',
  describe: () => `onnxruntime-node ${version} (CPU execution provider, 1 thread)`,
  setup,
};
