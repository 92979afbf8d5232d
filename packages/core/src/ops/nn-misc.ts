/**
 * `linear`, `embedding`, `oneHot`, `dropout` of `torch.nn.functional`.
 *  - linear is `input @ weight^T + bias`: addmm for a 2-D input, matmul + add otherwise, as
 *    PyTorch composes it (Note [linear]);
 *  - embedding is a kernel op (Node EmbeddingBackward0) whose backward is the kernel op
 *    `embedding_dense_backward` (padding_idx rows get no gradient);
 *  - oneHot compares against arange (no gradient, int64);
 *  - dropout is PyTorch's `_dropout_impl`: a bernoulli_(1 - p) mask divided by 1 - p, then
 *    a multiply (Node MulBackward0), drawn from the generator as PyTorch CPU draws it.
 */
import { isFloatingType } from '../dtype';
import { DTypeError, IndexError, ShapeError, TorchError, fmtShape } from '../errors';
import { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { TensorImpl } from '../tensor/tensor-impl';
import { front, type OptionsOf } from './front';
import { callFunctional, unwrapOptionalTensor, unwrapTensor } from './call';
import { to } from './copy';
import { arange, emptyLike, zeros } from './factories';
import { countsAreAsync } from './data-dependent';
import { scatter_ } from './gather-scatter';
import { matmul } from './linalg';
import { addmm } from './linalg-extra';
import { commonDevice, torchTypeName } from './meta-utils';
import { contiguousAs } from './nn-impls';
import { add, amax, amin, div_, eq, mul, mul_ } from './generated/table-ops';
import { bernoulli_ } from './random-extra';
import { drawnOnDevice } from './random-impls';
import { defaultGenerator } from '../random/generator';
import { defineStructured, implOf } from './registry';
import { t as transpose2d } from './shape-ops';
import { unsqueeze } from './views';

// (F.linear, F.embedding, F.one_hot: neither torch.* nor Tensor methods)
const F_ONLY = { method: false, namespaces: ['nn.functional'] } as const;

/**
 * Note [linear]
 * As PyTorch's linear: a 2-D input with a bias is one addmm(bias, input, weight^T) (Node
 * AddmmBackward0); any other input is matmul(input, weight^T) followed by an add of the bias
 * (Nodes of matmul's parts, then AddBackward0).
 */
export const linear = front('linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor', F_ONLY).run(([input, weight, b]): Tensor => {
  const x = unwrapTensor('linear', 'input', input);
  const w = unwrapTensor('linear', 'weight', weight);
  const bi = unwrapOptionalTensor('linear', 'bias', b);
  if (w.dim > 2) throw new ShapeError(`linear: weight must be 1-D or 2-D, got a tensor of shape ${fmtShape(w.sizes)}`);
  if (x.dim === 0) throw new ShapeError('linear: both arguments to linear need to be at least 1D, but they are 0D and ' + `${w.dim}D`);
  const k = x.sizes[x.dim - 1];
  const wk = w.sizes[w.dim - 1];
  if (k !== wk) {
    const rows = x.numel / Math.max(k, 1);
    throw new ShapeError(
      `linear: mat1 and mat2 shapes cannot be multiplied (${x.dim === 1 ? 1 : rows}x${k} and ${wk}x${w.dim === 2 ? w.sizes[0] : 1})`,
    );
  }
  if (x.dtype !== w.dtype) {
    throw new DTypeError(`linear: mat1 and mat2 must have the same dtype, but got ${torchTypeName(x.dtype)} and ${torchTypeName(w.dtype)}`);
  }
  if (bi && bi.dtype !== x.dtype) {
    throw new DTypeError(`linear: expected bias to have dtype ${torchTypeName(x.dtype)}, but got ${torchTypeName(bi.dtype)}`);
  }
  return tidy(() => {
    if (x.dim === 2 && b && w.dim === 2) return addmm(b, input, transpose2d(weight));
    const y = matmul(input, transpose2d(weight));
    return b ? add(y, b) : y;
  });
});

// ---- embedding ----
function checkIndices(op: string, indices: TensorImpl): void {
  if (indices.dtype !== 'int64' && indices.dtype !== 'int32') {
    throw new DTypeError(
      `${op}: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ${torchTypeName(indices.dtype)} instead (while checking arguments for embedding)`,
    );
  }
}

function normPadding(paddingIdx: number | null, v: number): number {
  if (paddingIdx == null) return -1;
  return paddingIdx < 0 ? paddingIdx + v : paddingIdx;
}

export const EMBEDDING = defineStructured(
  'embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor',
  ([weight, indices], b) => {
    const w = weight;
    const idx = indices;
    if (w.dim !== 2) throw new ShapeError(`embedding: 'weight' must be 2-D, got a tensor of shape ${fmtShape(w.sizes)}`);
    checkIndices('embedding', idx);
    commonDevice('embedding', [w, idx]);
    const [v, d] = w.sizes;
    const out = TensorImpl.empty('embedding', [...idx.sizes, d], w.dtype, w.device);
    if (out.numel === 0 && idx.numel === 0) return out;
    const parts: TensorImpl[] = [];
    try {
      const wc = contiguousAs(b, 'embedding', w, w.dtype);
      parts.push(wc);
      const ic = contiguousAs(b, 'embedding', idx, 'int64');
      parts.push(ic);
      implOf(b, 'embedding', 'embedding')(out, wc, ic, idx.numel, v, d);
    } catch (e) {
      out.release();
      throw e;
    } finally {
      for (const p of parts) p.release();
    }
    return out;
  },
);

export const EMBEDDING_DENSE_BACKWARD = defineStructured(
  'embedding_dense_backward(Tensor grad_output, Tensor indices, int num_weights, int padding_idx, bool scale_grad_by_freq) -> Tensor',
  ([gradOutput, indices, numWeights, paddingIdx, scaleGradByFreq], b) => {
    const g = gradOutput;
    const idx = indices;
    checkIndices('embedding_dense_backward', idx);
    const v = numWeights;
    const d = g.dim === 0 ? 1 : g.sizes[g.dim - 1];
    if (!isFloatingType(g.dtype)) throw new DTypeError(`embedding_dense_backward: expected a floating grad, got ${torchTypeName(g.dtype)}`);
    const out = TensorImpl.empty('embedding_dense_backward', [v, d], g.dtype, g.device);
    const compute = g.dtype === 'float64' ? 'float64' : 'float32';
    const parts: TensorImpl[] = [];
    try {
      const gc = contiguousAs(b, 'embedding_dense_backward', g, compute);
      parts.push(gc);
      const ic = contiguousAs(b, 'embedding_dense_backward', idx, 'int64');
      parts.push(ic);
      const pad = paddingIdx;
      const run = (o: TensorImpl) => {
        implOf(b, 'embeddingBackward', 'embedding_dense_backward')(o, gc, ic, idx.numel, v, d, pad);
        if (scaleGradByFreq === true) scaleByFreq(o, ic, idx.numel, d);
      };
      if (out.dtype === compute) run(out);
      else {
        const tmp = TensorImpl.empty('embedding_dense_backward', [v, d], compute, g.device);
        parts.push(tmp);
        run(tmp);
        implOf(b, 'copy', 'embedding_dense_backward')(out, tmp);
      }
    } catch (e) {
      out.release();
      throw e;
    } finally {
      for (const p of parts) p.release();
    }
    return out;
  },
);

/** scale_grad_by_freq: each row's gradient divided by how often its index occurs (CPU data). */
function scaleByFreq(o: TensorImpl, idx: TensorImpl, n: number, d: number): void {
  const ids = idx.storage.typed(BigInt64Array);
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const k = Number(ids[idx.storageOffset + i]);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const data = o.dtype === 'float64' ? o.storage.typed(Float64Array) : o.storage.typed(Float32Array);
  for (const [k, c] of counts) {
    const base = o.storageOffset + k * d;
    for (let j = 0; j < d; j++) data[base + j] /= c;
  }
}

/**
 * `embedding(indices, weight, { paddingIdx, maxNorm, normType, scaleGradByFreq })`: rows of
 * `weight`. With `maxNorm`, the rows looked up are first renormalised in place (without
 * gradient) to norm at most `maxNorm`, as PyTorch's embedding_renorm_.
 * F.embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False).
 */
export const embedding = front(
  'embedding(Tensor input, Tensor weight, int? padding_idx=None, float? max_norm=None, float norm_type=2.0, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor',
  F_ONLY,
).run(([input, weight, paddingIdx, maxNorm, normType, scaleGradByFreq, sparse]): Tensor => {
  const options = { paddingIdx, maxNorm, normType, scaleGradByFreq, sparse };
  const idx = unwrapTensor('embedding', 'input', input);
  const w = unwrapTensor('embedding', 'weight', weight);
  if (w.dim !== 2) throw new ShapeError(`embedding: 'weight' must be 2-D, got a tensor of shape ${fmtShape(w.sizes)}`);
  const v = w.sizes[0];
  let pad = options.paddingIdx ?? null;
  if (pad != null) {
    if (pad >= v || pad < -v) throw new TorchError(`embedding: Padding_idx must be within num_embeddings`);
    pad = normPadding(pad, v);
  }
  if (options.maxNorm != null) {
    checkIndices('embedding_renorm_', idx);
    embeddingRenorm(idx, w, options.maxNorm, options.normType ?? 2);
  }
  return callFunctional(EMBEDDING, [w, idx, pad ?? -1, options.scaleGradByFreq ?? false, options.sparse ?? false]);
});
export type EmbeddingOptions = OptionsOf<typeof embedding>;

/**
 * `torch.embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False)`:
 * aten's embedding, weight first and no renorm (Note [aten's own signatures on torch]). As
 * aten's, padding_idx is not checked: one outside [0, num_embeddings) (-1 among them) pads
 * nothing.
 */
export const atenEmbedding = front('embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor', {
  method: false,
  name: 'atenEmbedding',
  exportAs: 'embedding',
}).run(([weight, indices, paddingIdx, scaleGradByFreq, sparse]): Tensor =>
  callFunctional(EMBEDDING, [unwrapTensor('embedding', 'weight', weight), unwrapTensor('embedding', 'indices', indices), paddingIdx, scaleGradByFreq, sparse]),
);

/** PyTorch's embedding_renorm_: each distinct looked-up row whose norm exceeds maxNorm is scaled to maxNorm / (norm + 1e-7). */
function embeddingRenorm(idx: TensorImpl, w: TensorImpl, maxNorm: number, normType: number): void {
  if (w.device.type !== 'cpu') throw new TorchError('embedding: maxNorm is only supported on CPU tensors in torch-ts');
  if (!isFloatingType(w.dtype) || (w.dtype !== 'float32' && w.dtype !== 'float64')) {
    throw new DTypeError(`embedding_renorm_: "embedding_renorm_cpu_" not implemented for '${torchTypeName(w.dtype)}'`);
  }
  const seen = new Set<number>();
  const data = w.dtype === 'float64' ? w.storage.typed(Float64Array) : w.storage.typed(Float32Array);
  const [v, d] = w.sizes;
  const [s0, s1] = w.strides;
  forEachIndex(idx, (k) => {
    if (k < 0 || k >= v) throw new IndexError(`embedding_renorm_: index out of range in self`);
    if (seen.has(k)) return;
    seen.add(k);
    let norm = 0;
    for (let j = 0; j < d; j++) {
      const x = Math.abs(data[w.storageOffset + k * s0 + j * s1]);
      norm += normType === 1 ? x : normType === Infinity ? 0 : x ** normType;
    }
    if (normType === Infinity) {
      for (let j = 0; j < d; j++) norm = Math.max(norm, Math.abs(data[w.storageOffset + k * s0 + j * s1]));
    } else if (normType !== 1) norm = norm ** (1 / normType);
    if (norm > maxNorm) {
      const scale = maxNorm / (norm + 1e-7);
      for (let j = 0; j < d; j++) data[w.storageOffset + k * s0 + j * s1] *= scale;
    }
  });
  w.version.bump();
}

/** Calls `f` with every index of an int32/int64 CPU tensor, in row-major order. */
function forEachIndex(idx: TensorImpl, f: (k: number) => void): void {
  const n = idx.numel;
  const pos = new Array<number>(idx.dim).fill(0);
  const big = idx.dtype === 'int64' ? idx.storage.typed(BigInt64Array) : null;
  const small = idx.dtype === 'int32' ? idx.storage.typed(Int32Array) : null;
  for (let i = 0; i < n; i++) {
    let off = idx.storageOffset;
    for (let dd = 0; dd < idx.dim; dd++) off += pos[dd] * idx.strides[dd];
    f(big ? Number(big[off]) : small![off]);
    for (let dd = idx.dim - 1; dd >= 0; dd--) {
      if (++pos[dd] < idx.sizes[dd]) break;
      pos[dd] = 0;
    }
  }
}

// ---- one_hot ----
/** `oneHot(indices, numClasses = -1)`: int64 [..., numClasses] with a 1 at each index; -1 infers max + 1. */
export const oneHot = front('one_hot(Tensor input, int num_classes=-1) -> Tensor', F_ONLY).run(([input, nc]): Tensor => {
  const x = unwrapTensor('one_hot', 'self', input);
  if (x.dtype !== 'int64') throw new DTypeError('one_hot: one_hot is only applicable to index tensor.');
  if (!Number.isInteger(nc) || nc < -1) throw new TorchError('one_hot: num_classes should be positive');
  let n = nc;
  if (x.numel === 0) {
    if (n === -1) throw new TorchError('one_hot: Can not infer total number of classes from empty tensor.');
  } else if (countsAreAsync(x.device)) {
    // As PyTorch on CUDA: no host check of the class values (it would be a sync read); a value
    // out of [0, numClasses) is reported by scatter's device-side index check at the next read.
    if (n === -1) {
      throw new TorchError(
        `one_hot: num_classes=-1 needs the largest class value, and ${x.device.type} tensors cannot be read synchronously; ` +
          'pass numClasses (e.g. `(await x.max().itemAsync()) + 1`)',
      );
    }
    return tidy(() => scatter_(zeros([...input.shape, n], { dtype: 'int64', device: input.device }), -1, unsqueeze(input, -1), 1));
  } else {
    const lo = amin(input);
    const hi = amax(input);
    try {
      const min = Number(lo.item());
      const max = Number(hi.item());
      if (min < 0) throw new TorchError('one_hot: Class values must be non-negative.');
      if (n === -1) n = max + 1;
      else if (max >= n) throw new TorchError('one_hot: Class values must be smaller than num_classes.');
    } finally {
      lo.dispose();
      hi.dispose();
    }
  }
  return tidy(() => to(eq(unsqueeze(input, -1), arange(n, { device: input.device })), 'int64'));
});
export type OneHotOptions = OptionsOf<typeof oneHot>;

// ---- dropout ----
function checkP(p: number): void {
  if (!(p >= 0 && p <= 1)) throw new TorchError(`dropout: dropout probability has to be between 0 and 1, but got ${p}`);
}

/**
 * `dropout(x, { p = 0.5, training = true, inplace = false })` (F.dropout): each element is
 * zeroed with probability p, the others scaled by 1 / (1 - p). Not training, p = 0 or an
 * empty input returns `x` itself, as PyTorch does.
 * F.dropout(input, p=0.5, training=True, inplace=False); also torch.dropout(input, p, train).
 */
export const dropout = front(
  'dropout(Tensor input, float p=0.5, bool training=True, bool inplace=False, *, Generator? generator=None) -> Tensor',
  { method: false, namespaces: ['torch', 'nn.functional'] },
).run(([input, p0, training0, inplace, generator]): Tensor => {
  const o = { p: p0, training: training0, inplace, generator };
  unwrapTensor('dropout', 'input', input);
  const p = o.p ?? 0.5;
  checkP(p);
  const training = o.training ?? true;
  if (p === 0 || !training || input.numel() === 0) return input;
  if (!isFloatingType(input.dtype)) {
    throw new DTypeError(`dropout: result type Float can't be cast to the desired output type ${torchTypeName(input.dtype)}`);
  }
  if (p === 1) {
    return o.inplace ? mul_(input, 0) : mul(input, 0);
  }
  // (on a device that draws its own values the mask is drawn straight into a new tensor,
  // the same values bernoulli_ would copy in: Note [Counter-based random streams])
  const mask = () =>
    drawnOnDevice('bernoulli_', input.shape, input.dtype, input.device, { kind: 'bernoulli', p: 1 - p }, o.generator ?? defaultGenerator) ??
    bernoulli_(emptyLike(input, { memoryFormat: 'contiguous' }), 1 - p, { generator: o.generator ?? null });
  const noise = tidy(() => div_(mask(), 1 - p));
  try {
    return o.inplace ? mul_(input, noise) : mul(input, noise);
  } finally {
    noise.dispose();
  }
});
export type DropoutOptions = OptionsOf<typeof dropout>;

/**
 * `torch.dropout_(input, p, train)`: aten's in-place dropout, F.dropout(input, p, train,
 * inplace=True) (MulBackward0 on input, as PyTorch's).
 */
export const dropout_ = front('dropout_(Tensor input, float p, bool train) -> Tensor', { method: false }).run(([input, p, train]): Tensor =>
  dropout(input, p, train, true),
);

/** The `embedding` kernel op itself (no renorm), for the derivative table. */
export function _embedding(weight: Tensor, indices: Tensor, paddingIdx: number): Tensor {
  return callFunctional(EMBEDDING, [unwrapTensor('embedding', 'weight', weight), unwrapTensor('embedding', 'indices', indices), paddingIdx, false, false]);
}

/** `embedding_dense_backward`, for the derivative table. */
export function _embeddingDenseBackward(grad: Tensor, indices: Tensor, numWeights: number, paddingIdx: number, scaleGradByFreq: boolean): Tensor {
  const op = 'embedding_dense_backward';
  return callFunctional(EMBEDDING_DENSE_BACKWARD, [unwrapTensor(op, 'grad_output', grad), unwrapTensor(op, 'indices', indices), numWeights, paddingIdx, scaleGradByFreq]);
}
