/**
 * The workloads of the benchmark, as data: every library builds the same inputs from the
 * same seeded generator (data.ts) and runs the same computation, so results can be compared
 * value by value before any time is believed (Note [A wrong result is not a fast one]).
 */

export type WorkloadId =
  | 'matmul-128'
  | 'matmul-512'
  | 'matmul-1024'
  | 'matmul-2048'
  | 'add-4M'
  | 'add-bcast'
  | 'exp-4M'
  | 'add-transposed'
  | 'sum-16M'
  | 'sum-lastdim'
  | 'softmax'
  | 'conv2d'
  | 'conv2d-cl'
  | 'conv2d-cl-1x1'
  | 'conv2d-bwd'
  | 'conv2d-1x1-bwd'
  | 'conv2d-cl-bwd'
  | 'conv2d-cl-1x1-bwd'
  | 'mlp-step'
  | 'rfft'
  | 'fft'
  | 'add-1'
  | 'tiny-fwd-bwd'
  | 'per-sample-vmap'
  | 'per-sample-loop'
  | 'per-sample-cnn-vmap'
  | 'per-sample-cnn-loop';

/**
 * Note [Per-sample gradient rows]
 * `per-sample-vmap` and `per-sample-loop` compute the same thing: for each of `batch`
 * samples, the gradient of a 2-layer MLP's cross-entropy loss (widths[0] -> widths[1], relu,
 * -> widths[2]) with respect to its four parameters, as `torch.func.vmap(torch.func.grad(loss),
 * in_dims=(None, 0, 0))` and as a loop of `grad` calls stacked. The output is every
 * per-sample gradient, flattened and concatenated (w1, b1, w2, b2). Libraries without
 * function transforms are n/a. `per-sample-cnn-vmap` / `-loop` do the same for the small CNN
 * of issue 19's test: a [1, size, size] image, conv2d (channels 3x3 filters, no padding) +
 * relu, max_pool2d(2), then linear to `classes` logits, cross-entropy.
 */

/**
 * Note [Channels-last conv rows]
 * `conv2d-cl` and `conv2d-cl-1x1` convolve the same numbers as `conv2d` with the input and
 * the weight laid out channels-last beforehand (untimed), as a model converted with
 * `model.to(memory_format=torch.channels_last)` runs: the result is channels-last too, and
 * reads back in logical (NCHW) order. torch-ts and PyTorch take their channels-last kernels;
 * tfjs convolves NHWC natively (the same computation as its `conv2d` row); ONNX's Conv is
 * NCHW only, so onnxruntime is n/a. The 1x1 row (64 -> 256 channels, a ResNet bottleneck's
 * expansion) is one GEMM in channels-last memory.
 */

/**
 * Note [Conv backward rows]
 * `conv2d-bwd`, `conv2d-1x1-bwd`, `conv2d-cl-bwd` and `conv2d-cl-1x1-bwd` time a training
 * step's convolution, as the peers' own benchmarks time it: the forward of the `conv2d` /
 * `conv2d-cl` (-1x1) rows' convolution with the input and the weight requiring grad, then the
 * backward from an upstream gradient dy (uniform(seed 3), the output's shape) to the
 * gradients of the input and of the weight (`torch.autograd.grad(y, [x, w], dy)`, nothing
 * accumulated into `.grad`; tfjs: `tf.grads`). dy is made before the run (untimed) in the
 * rows' memory layout, channels-last for the `-cl` rows, as the layer after a channels-last
 * conv hands it back. The output is grad_input then grad_weight, each flattened in logical
 * (NCHW, OIHW) order. A `-cl` row computes the numbers of its contiguous row (`sameAs`), and
 * the harness checks that torch-ts's results of the two agree when both run (checkSameAs in
 * report.ts). js-pytorch has no conv2d, onnxruntime-node no backward: n/a.
 */

/**
 * Note [FFT rows]
 * `rfft` (a float32 [64, 4096] batch, `torch.fft.rfft` along the last dim: [64, 2049]
 * complex64) and `fft` (a complex64 [16, 4096] batch, real part uniform(seed 1), imaginary
 * part uniform(seed 2), `torch.fft.fft` along the last dim) time one transform call, as the
 * peers' benchmarks time `tf.spectral.rfft` / `torch.fft.rfft`. The complex input is built
 * before the run (untimed). A complex result is read back as interleaved (re, im) float32
 * pairs, PyTorch's `view_as_real` layout, which is what torch-ts's and tfjs's reads give.
 * They have no throughput figure: an FFT's FLOP count depends on the algorithm.
 */

/** Sizes of one workload; `tiny` ones are for the smoke test, never timed. */
export interface Shapes {
  /** matmul: n (square n x n @ n x n). */
  readonly n?: number;
  /** Pointwise / reduction: the input shape. */
  readonly shape?: readonly number[];
  /** add-bcast: the broadcast row's length is shape[1]. */
  /**
   * conv2d: input [N, C, H, W], weight [O, C, K, K], padding; `channelsLast`: input and
   * weight in channels-last memory (Note [Channels-last conv rows]).
   */
  readonly conv?: {
    readonly input: readonly [number, number, number, number];
    readonly weight: readonly [number, number, number, number];
    readonly padding: number;
    readonly channelsLast?: boolean;
    /** Forward and backward (Note [Conv backward rows]). */
    readonly backward?: boolean;
  };
  /** mlp-step: layer widths (input first) and batch size. */
  readonly mlp?: { readonly widths: readonly number[]; readonly batch: number; readonly lr: number };
  /** per-sample rows (Note [Per-sample gradient rows]): MLP widths (3) and batch size. */
  readonly psg?: { readonly widths: readonly [number, number, number]; readonly batch: number };
  /** per-sample CNN rows (Note [Per-sample gradient rows]): image size, conv channels, classes, batch size. */
  readonly psgCnn?: { readonly size: number; readonly channels: number; readonly classes: number; readonly batch: number };
}

export interface Workload {
  readonly id: WorkloadId;
  /** What the table prints. */
  readonly label: string;
  readonly shapes: Shapes;
  /** Overhead rows (Note [Overhead rows]): a run makes this many calls; the table shows µs per call. */
  readonly calls?: number;
  /** A row that computes the same numbers in another memory layout (Note [Conv backward rows]): torch-ts's results of the two must agree. */
  readonly sameAs?: WorkloadId;
}

/**
 * Note [Overhead rows]
 * `add-1` (a 1-element float32 add) and `tiny-fwd-bwd` (x of 4 elements requiring grad,
 * `x.mul(x).sum().backward()`, then the grad dropped) measure what a library costs per call
 * rather than per element. A run is a loop of `calls` calls, each result released inside the
 * loop as a program would (`dispose()`, or Python dropping its reference); the last result
 * is the run's output, read back and checked like any other. A library without autograd
 * has no `tiny-fwd-bwd` (n/a).
 */

const M4 = 4 * 1024 * 1024;
const M16 = 16 * 1024 * 1024;

export const WORKLOADS: readonly Workload[] = [
  { id: 'matmul-128', label: 'matmul 128x128 @ 128x128', shapes: { n: 128 } },
  { id: 'matmul-512', label: 'matmul 512', shapes: { n: 512 } },
  { id: 'matmul-1024', label: 'matmul 1024', shapes: { n: 1024 } },
  { id: 'matmul-2048', label: 'matmul 2048', shapes: { n: 2048 } },
  { id: 'add-4M', label: 'add 4M + 4M', shapes: { shape: [M4] } },
  { id: 'add-bcast', label: 'add [2048,2048] + [2048]', shapes: { shape: [2048, 2048] } },
  { id: 'exp-4M', label: 'exp 4M', shapes: { shape: [M4] } },
  { id: 'add-transposed', label: 'add [2048,2048].T + [2048,2048]', shapes: { shape: [2048, 2048] } },
  { id: 'sum-16M', label: 'sum 16M', shapes: { shape: [M16] } },
  { id: 'sum-lastdim', label: 'sum [4096,4096] dim -1', shapes: { shape: [4096, 4096] } },
  { id: 'softmax', label: 'softmax [1024,4096] dim -1', shapes: { shape: [1024, 4096] } },
  {
    id: 'conv2d',
    label: 'conv2d [8,64,56,56] x [64,64,3,3] p1',
    shapes: { conv: { input: [8, 64, 56, 56], weight: [64, 64, 3, 3], padding: 1 } },
  },
  {
    id: 'conv2d-cl',
    label: 'conv2d channels_last [8,64,56,56] x [64,64,3,3] p1',
    shapes: { conv: { input: [8, 64, 56, 56], weight: [64, 64, 3, 3], padding: 1, channelsLast: true } },
  },
  {
    id: 'conv2d-cl-1x1',
    label: 'conv2d channels_last [8,64,56,56] x [256,64,1,1]',
    shapes: { conv: { input: [8, 64, 56, 56], weight: [256, 64, 1, 1], padding: 0, channelsLast: true } },
  },
  {
    id: 'conv2d-bwd',
    label: 'conv2d fwd+bwd [8,64,56,56] x [64,64,3,3] p1',
    shapes: { conv: { input: [8, 64, 56, 56], weight: [64, 64, 3, 3], padding: 1, backward: true } },
  },
  {
    id: 'conv2d-cl-bwd',
    label: 'conv2d fwd+bwd channels_last [8,64,56,56] x [64,64,3,3] p1',
    shapes: { conv: { input: [8, 64, 56, 56], weight: [64, 64, 3, 3], padding: 1, channelsLast: true, backward: true } },
    sameAs: 'conv2d-bwd',
  },
  {
    id: 'conv2d-1x1-bwd',
    label: 'conv2d fwd+bwd [8,64,56,56] x [256,64,1,1]',
    shapes: { conv: { input: [8, 64, 56, 56], weight: [256, 64, 1, 1], padding: 0, backward: true } },
  },
  {
    id: 'conv2d-cl-1x1-bwd',
    label: 'conv2d fwd+bwd channels_last [8,64,56,56] x [256,64,1,1]',
    shapes: { conv: { input: [8, 64, 56, 56], weight: [256, 64, 1, 1], padding: 0, channelsLast: true, backward: true } },
    sameAs: 'conv2d-1x1-bwd',
  },
  {
    id: 'mlp-step',
    label: 'MLP 784-512-512-10 step b128',
    shapes: { mlp: { widths: [784, 512, 512, 10], batch: 128, lr: 0.01 } },
  },
  { id: 'rfft', label: 'rfft [64,4096] dim -1', shapes: { shape: [64, 4096] } },
  { id: 'fft', label: 'fft complex64 [16,4096] dim -1', shapes: { shape: [16, 4096] } },
  { id: 'add-1', label: 'add 1 + 1 (µs per call)', shapes: { shape: [1] }, calls: 10_000 },
  { id: 'tiny-fwd-bwd', label: 'mul -> sum -> backward, 4 elements (µs per call)', shapes: { shape: [4] }, calls: 1_000 },
  { id: 'per-sample-vmap', label: 'per-sample grads vmap(grad) MLP 64-32-10 b32', shapes: { psg: { widths: [64, 32, 10], batch: 32 } } },
  { id: 'per-sample-loop', label: 'per-sample grads loop of grad MLP 64-32-10 b32', shapes: { psg: { widths: [64, 32, 10], batch: 32 } } },
  { id: 'per-sample-cnn-vmap', label: 'per-sample grads vmap(grad) CNN 1x12x12 c8 b32', shapes: { psgCnn: { size: 12, channels: 8, classes: 10, batch: 32 } } },
  { id: 'per-sample-cnn-loop', label: 'per-sample grads loop of grad CNN 1x12x12 c8 b32', shapes: { psgCnn: { size: 12, channels: 8, classes: 10, batch: 32 } } },
];

/** The same workloads on sizes small enough for a unit test. */
export const TINY_WORKLOADS: readonly Workload[] = WORKLOADS.map((w) => ({ ...w, shapes: tinyShapes(w), ...(w.calls ? { calls: 10 } : {}) }));

function tinyShapes(w: Workload): Shapes {
  const s = w.shapes;
  if (w.calls) return s;
  if (s.n !== undefined) return { n: Math.max(3, s.n / 64 + 1) };
  if (s.conv?.backward) {
    // Large enough for torch-ts's channels-last gradient kernels, which decline small GEMMs
    // (kernels-cpu Note [CPU channels-last convolution]), and keeping the row's kernel size:
    // the tests then compare those kernels with the contiguous path.
    const k = s.conv.weight[2];
    return { conv: { ...s.conv, input: [2, 32, 5, 6], weight: k === 1 ? [80, 32, 1, 1] : [16, 32, k, k] } };
  }
  if (s.conv) return { conv: { input: [2, 3, 5, 5], weight: [4, 3, 3, 3], padding: 1, channelsLast: s.conv.channelsLast } };
  if (s.mlp) return { mlp: { widths: [12, 8, 8, 3], batch: 5, lr: s.mlp.lr } };
  if (s.psg) return { psg: { widths: [6, 5, 3], batch: 4 } };
  if (s.psgCnn) return { psgCnn: { size: 6, channels: 2, classes: 3, batch: 4 } };
  if (w.id === 'sum-lastdim' || w.id === 'softmax' || w.id === 'add-transposed' || w.id === 'add-bcast') return { shape: [7, 9] };
  // Not a power of two: the peers' FFTs take another path there (tfjs: a DFT by matmul).
  if (w.id === 'rfft' || w.id === 'fft') return { shape: [3, 12] };
  return { shape: [1000] };
}

export function numelOf(shape: readonly number[]): number {
  let n = 1;
  for (const s of shape) n *= s;
  return n;
}

/** What a run of a workload does, for the throughput table: floating-point operations, or bytes moved. */
export interface Work {
  readonly unit: 'GFLOP/s' | 'GB/s';
  /** FLOPs (multiply and add counted apart) or bytes per run. */
  readonly amount: number;
}

/**
 * matmul and conv2d in FLOPs (2 per multiply-add; a conv backward row 3 times its forward's:
 * the forward, the input gradient and the weight gradient each make every multiply-add of
 * the convolution once); the pointwise, reduction and softmax
 * workloads in the float32 bytes they must read and write at least once (softmax: its input
 * and its output). None for the MLP step and the overhead rows.
 */
export function workOf(w: Workload): Work | null {
  const s = w.shapes;
  if (s.n !== undefined) return { unit: 'GFLOP/s', amount: 2 * s.n ** 3 };
  if (s.conv) {
    const [n, , h, wd] = s.conv.input;
    const [o, c, kh, kw] = s.conv.weight;
    const ho = h + 2 * s.conv.padding - kh + 1;
    const wo = wd + 2 * s.conv.padding - kw + 1;
    return { unit: 'GFLOP/s', amount: (s.conv.backward ? 3 : 1) * 2 * n * o * ho * wo * c * kh * kw };
  }
  if (!s.shape || w.calls) return null;
  const n = numelOf(s.shape);
  const floats: Partial<Record<WorkloadId, number>> = {
    'add-4M': 3 * n,
    'add-bcast': 2 * n + s.shape[s.shape.length - 1],
    'exp-4M': 2 * n,
    'add-transposed': 3 * n,
    'sum-16M': n + 1,
    'sum-lastdim': n + s.shape[0],
    softmax: 2 * n,
  };
  const f = floats[w.id];
  return f === undefined ? null : { unit: 'GB/s', amount: 4 * f };
}
