import { ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { empty, triuIndices, zeros } from './factories';
import { front } from './front';
import { linalgVectorNorm } from './linalg-front';
import { softmax } from './softmax';

/**
 * Note [More nn composites]
 * PyTorch 1.13 functions that are compositions of ops torch-ts has, computed as 1.13 computes
 * them (so values, and for gumbel_softmax the draws for a seed, are its):
 *  - pdist: the p-norms of x[i] - x[j] for i < j in row order, i.e. vector_norm of the rows'
 *    differences (the gradient is vector_norm's: at a zero distance it is zero, as pdist's).
 *  - bilinear: y[..., o] = x1[..., i] W[o, i, j] x2[..., j] + b[o] (one matmul, then a
 *    product and a sum over j).
 *  - gumbel_softmax: softmax((logits - log(Exp(1) draws)) / tau); `hard` takes the argmax's
 *    one-hot and passes the soft gradient through (y_hard - y_soft.detach() + y_soft).
 *  - max_unpool1d / 2d / 3d: zeros of the output size with the input's values put at the
 *    indices (flat within each plane), a scatter; its gradient is a gather.
 */
const F_ONLY = { method: false, namespaces: ['nn.functional'] } as const;

/** `F.pdist(input, p=2)` / `torch.pdist`: the distances between the rows of a 2-d input, i < j. */
export const pdist = front('pdist(Tensor input, float p=2) -> Tensor', { method: false, namespaces: ['torch', 'nn.functional'] }).run(([x, p]): Tensor => {
  if (x.dim() !== 2) throw new ShapeError(`pdist: pdist only supports 2D tensors, got: ${x.dim()}D`);
  if (!(p >= 0)) throw new TorchError('pdist: pdist only supports non-negative p values');
  const n = x.shape[0];
  return tidy(() => {
    if (n < 2) return empty([0], { dtype: x.dtype, device: x.device });
    const pairs = triuIndices(n, n, 1, { device: x.device });
    const diff = x.indexSelect(0, pairs.select(0, 0)).sub(x.indexSelect(0, pairs.select(0, 1)));
    return linalgVectorNorm(diff, p, [1]);
  });
});

/** `F.bilinear(input1, input2, weight, bias=None)`: x1^T W[o] x2 (+ b[o]) over the last dims. */
export const bilinear = front('bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor', { method: false, namespaces: ['torch', 'nn.functional'] }).run(
  ([x1, x2, w, b]): Tensor => {
    const op = 'bilinear';
    if (x1.dim() !== x2.dim()) throw new ShapeError(`${op}(): input dimensions do not match: got ${x1.dim()} and ${x2.dim()}`);
    for (let i = 0; i < x1.dim() - 1; i++) {
      if (x1.shape[i] !== x2.shape[i]) throw new ShapeError(`${op}(): input batch dimensions do not match at dim ${i}: got ${x1.shape[i]} and ${x2.shape[i]}`);
    }
    if (w.dim() !== 3) throw new ShapeError(`${op}(): weight must be three-dimensional, but got ${fmtShape(w.shape)}`);
    const [out, in1, in2] = w.shape;
    if (x1.shape[x1.dim() - 1] !== in1) throw new ShapeError(`${op}(): input1 size does not match weight size: got ${x1.shape[x1.dim() - 1]} but expected ${in1}`);
    if (x2.shape[x2.dim() - 1] !== in2) throw new ShapeError(`${op}(): input2 size does not match weight size: got ${x2.shape[x2.dim() - 1]} but expected ${in2}`);
    if (b != null && (b.dim() !== 1 || b.shape[0] !== out)) {
      throw new ShapeError(`${op}(): bias size does not match weight size: got ${b.shape[b.dim() - 1]} but expected ${out}`);
    }
    return tidy(() => {
      const lead = x1.shape.slice(0, -1);
      const a = x1.reshape([-1, in1]);
      const t = a.matmul(w.permute([1, 0, 2]).reshape([in1, -1])).reshape([-1, out, in2]);
      const y = t.mul(x2.reshape([-1, in2]).unsqueeze(1)).sum(-1);
      return (b == null ? y : y.add(b)).reshape([...lead, out]);
    });
  },
);

/** `F.gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1)`: a sample of the Gumbel-softmax distribution. */
export const gumbelSoftmax = front('gumbel_softmax(Tensor logits, float tau=1, bool hard=False, float eps=1e-10, int dim=-1) -> Tensor', F_ONLY).run(
  ([logits, tau, hard, , dim]): Tensor =>
    tidy(() => {
      const draws = empty(logits.shape, { dtype: logits.dtype, device: logits.device }).exponential_();
      const ySoft = softmax(logits.sub(draws.log()).div(tau), dim);
      if (!hard) return ySoft;
      const index = ySoft.max(dim, true)[1];
      const yHard = zeros(logits.shape, { dtype: logits.dtype, device: logits.device }).scatter_(dim, index, 1.0);
      return yHard.sub(ySoft.detach()).add(ySoft);
    }),
);

/** PyTorch's _unpool_output_size: the default size per spatial dim, or `outputSize` (all dims or the spatial ones) checked against it. */
function unpoolSize(op: string, x: Tensor, k: number[], s: number[], p: number[], outputSize: readonly number[] | null): number[] {
  const n = k.length;
  const def = k.map((kk, d) => (x.shape[x.dim() - n + d] - 1) * s[d] + kk - 2 * p[d]);
  if (outputSize == null) return def;
  const size = outputSize.length === n + 2 ? outputSize.slice(2) : [...outputSize];
  if (size.length !== n) throw new TorchError(`${op}: output_size should be a sequence containing ${n} or ${n + 2} elements, but it has a length of '${size.length}'`);
  size.forEach((v, d) => {
    if (!(def[d] - s[d] < v && v < def[d] + s[d])) {
      throw new TorchError(`${op}: invalid output_size "${fmtShape(size)}" (dim ${d} must be between ${def[d] - s[d]} and ${def[d] + s[d]})`);
    }
  });
  return size;
}

function maxUnpool(op: string, x: Tensor, indices: Tensor, n: number, kernel: number[], stride: number[] | null, padding: number[], outputSize: readonly number[] | null): Tensor {
  const fill = (v: number[], what: string) => {
    if (v.length === 1) return Array<number>(n).fill(v[0]);
    if (v.length !== n) throw new TorchError(`${op}: ${what} must be a single int or a tuple of ${n} ints`);
    return v;
  };
  const k = fill(kernel, 'kernel_size');
  const s = stride == null || stride.length === 0 ? k : fill(stride, 'stride');
  const p = fill(padding, 'padding');
  if (x.dim() !== n + 1 && x.dim() !== n + 2) throw new ShapeError(`${op}: Expected ${n + 1}D or ${n + 2}D input, but got ${fmtShape(x.shape)}`);
  if (indices.dtype !== 'int64') throw new TorchError(`${op}: elements in indices should be type int64 but got: ${indices.dtype}`);
  if (indices.shape.length !== x.shape.length || indices.shape.some((v, i) => v !== x.shape[i])) {
    throw new ShapeError(`${op}: Expected shape of indices to be same as that of the input tensor (${fmtShape(x.shape)}) but got indices tensor with shape: ${fmtShape(indices.shape)}`);
  }
  const size = unpoolSize(op, x, k, s, p, outputSize);
  const lead = x.shape.slice(0, x.dim() - n);
  const planeOut = size.reduce((a, b) => a * b, 1);
  return tidy(() => {
    const flatIdx = indices.reshape([...lead, -1]);
    // (checked here, in PyTorch's words, where the indices can be read at once; on a device
    // the scatter's own bounds check reports an IndexError when the result is read)
    if (flatIdx.numel() > 0 && x.device.type === 'cpu') {
      const [lo, hi] = [flatIdx.min().item() as number, flatIdx.max().item() as number];
      const bad = lo < 0 ? lo : hi >= planeOut ? hi : null;
      if (bad !== null) throw new TorchError(`${op}: Found an invalid max index: ${bad} (output volumes are of size ${size.join('x')}`);
    }
    const out = zeros([...lead, planeOut], { dtype: x.dtype, device: x.device });
    return out.scatter(lead.length, flatIdx, x.reshape([...lead, -1])).reshape([...lead, ...size]);
  });
}

const UNPOOL = (n: number) =>
  `max_unpool${n}d(Tensor input, Tensor indices, int[${n}] kernel_size, int[${n}]? stride=None, int[${n}] padding=0, int[]? output_size=None) -> Tensor` as const;

/** `F.max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None)`: max_pool1d's partial inverse. */
export const maxUnpool1d = front(UNPOOL(1), F_ONLY).run(([x, idx, k, s, p, o]): Tensor => maxUnpool('max_unpool1d', x, idx, 1, k, s ?? null, p, o ?? null));
/** `F.max_unpool2d(...)`: max_pool2d's partial inverse (non-maxima zero). */
export const maxUnpool2d = front(UNPOOL(2), F_ONLY).run(([x, idx, k, s, p, o]): Tensor => maxUnpool('max_unpool2d', x, idx, 2, k, s ?? null, p, o ?? null));
/** `F.max_unpool3d(...)`: max_pool3d's partial inverse. */
export const maxUnpool3d = front(UNPOOL(3), F_ONLY).run(([x, idx, k, s, p, o]): Tensor => maxUnpool('max_unpool3d', x, idx, 3, k, s ?? null, p, o ?? null));
