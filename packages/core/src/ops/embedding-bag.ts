/**
 * Note [embedding_bag as a segment reduction]
 * F.embedding_bag looks the rows up with F.embedding (so max_norm renorms and
 * scale_grad_by_freq scales as there), then reduces them per bag with a scatter along dim 0:
 * index_add for sum and mean (mean divides by the bag's count, an empty bag giving zeros),
 * scatter_reduce 'amax' without self for max (an empty bag keeps its zeros). Each element's bag
 * is computed on the device (the row for 2-d input; searchsorted of its position among the
 * offsets for 1-d input), so nothing is read back. Elements equal to padding_idx go to one
 * extra bag that is dropped: they neither add nor count, as PyTorch's. The gradient is the
 * scatters' and embedding's, to the weight and to per_sample_weights.
 */
import { DTypeError, IndexError, NotImplementedError, ShapeError, TorchError, ValueError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { front, type OptionsOf } from './front';
import { unwrapOptionalTensor, unwrapTensor } from './call';
import { torchTypeName } from './meta-utils';
import { where } from './pointwise';
import { clampMin, div, eq, ge, mul, sub } from './generated/table-ops';
import { floorDivide } from './aliases';
import { arange, ones, zeros } from './factories';
import { indexAdd, scatterReduce } from './gather-scatter';
import { embedding } from './nn-misc';
import { searchsorted } from './sorting';
import { narrow, reshape } from './shape-ops';
import { expand, unsqueeze } from './views';
import { to } from './copy';

const MODES = ['sum', 'mean', 'max'];

/** F.embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode='mean', sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None). */
export const embeddingBag = front(
  "embedding_bag(Tensor input, Tensor weight, Tensor? offsets=None, float? max_norm=None, float norm_type=2, bool scale_grad_by_freq=False, str mode='mean', bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int? padding_idx=None) -> Tensor",
  { method: false, namespaces: ['nn.functional'] },
).run(([input, weight, offsets, maxNorm, normType, scaleGradByFreq, mode, sparse, perSampleWeights, includeLastOffset, paddingIdx]): Tensor => {
  const op = 'embedding_bag';
  const x = unwrapTensor(op, 'input', input);
  const w = unwrapTensor(op, 'weight', weight);
  const off = unwrapOptionalTensor(op, 'offsets', offsets) ?? null;
  const psw = unwrapOptionalTensor(op, 'per_sample_weights', perSampleWeights) ?? null;
  if (psw && (psw.dim !== x.dim || psw.sizes.some((s, i) => s !== x.sizes[i]))) {
    throw new ValueError(`${op}: If per_sample_weights (${fmtShape(psw.sizes)}) is not None, then it must have the same shape as the input (${fmtShape(x.sizes)})`);
  }
  if (w.dim !== 2) throw new ShapeError(`${op}: weight has to be a 2D Tensor, but got Tensor of dimension ${w.dim}`);
  if (x.dim === 2) {
    if (off) throw new ValueError(`${op}: if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length sequences. However, found offsets of type <class 'torch.Tensor'>`);
  } else if (x.dim === 1) {
    if (!off) throw new ValueError(`${op}: offsets has to be a 1D Tensor but got None`);
    if (off.dim !== 1) throw new ValueError(`${op}: offsets has to be a 1D Tensor`);
  } else throw new ValueError(`${op}: input has to be 1D or 2D Tensor, but got Tensor of dimension ${x.dim}`);
  if (!MODES.includes(mode)) throw new ValueError(`${op}: mode has to be one of sum, mean or max`);
  if (psw && mode !== 'sum') {
    throw new NotImplementedError(
      `${op}: per_sample_weights was not None. per_sample_weights is only supported for mode='sum' (got mode='${mode}'). Please open a feature request on GitHub.`,
    );
  }
  if (x.dtype !== 'int64' && x.dtype !== 'int32') {
    throw new DTypeError(`${op}: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ${torchTypeName(x.dtype)} instead`);
  }
  if (sparse) throw new TorchError(`${op}: sparse gradients are not supported by torch-ts`);
  const V = w.sizes[0];
  let pad: number | null = paddingIdx ?? null;
  if (pad !== null) {
    if (pad < -V || pad >= V) throw new TorchError(`${op}: padding_idx must be within the number of embeddings, -${V} through ${V - 1}, but got ${pad}`);
    if (pad < 0) pad += V;
  }
  const n = x.numel;
  let B: number;
  if (x.dim === 2) B = x.sizes[0];
  else {
    B = (off as { sizes: readonly number[] }).sizes[0] - (includeLastOffset ? 1 : 0);
    if (offsets!.device.type === 'cpu') {
      // PyTorch's checks of the offsets (on CPU, where they are readable now)
      const o = Array.from(offsets!.dataSync() as ArrayLike<number | bigint>, Number);
      if (o.length > 0 && o[0] !== 0) {
        throw new TorchError(`${op}: offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, got ${o[0]}`);
      }
      if (o.length > 0 && o[o.length - 1] > n) {
        throw new TorchError(`${op}: offsets[-1] can not be greater than input's length ${n} but got offsets[-1] of ${o[o.length - 1]}`);
      }
    }
  }
  if (input.device.type === 'cpu') {
    const idx = Array.from(input.dataSync() as ArrayLike<number | bigint>, Number);
    const bad = idx.findIndex((i) => i < 0 || i >= V);
    if (bad >= 0) throw new IndexError(`${op}: Index ${bad} is out of bounds: ${idx[bad]}, range 0 to ${V}`);
  }
  const D = w.sizes[1];
  const device = input.device;
  return tidy(() => {
    const flat = reshape(input, [n]);
    let rows = embedding(flat, weight, { paddingIdx: pad, maxNorm, normType, scaleGradByFreq });
    if (perSampleWeights) rows = mul(rows, unsqueeze(reshape(perSampleWeights, [n]), 1));
    const positions = arange(n, { device });
    let bag: Tensor;
    if (x.dim === 2) bag = floorDivide(positions, x.sizes[1]);
    else {
      // the bag of element k: the last offset <= k (Note [embedding_bag as a segment reduction])
      const starts = narrow(to(offsets!, 'int64'), 0, 0, B);
      bag = sub(searchsorted(starts, positions, { right: true }), 1);
      // (with include_last_offset, elements from the last offset on belong to no bag)
      if (includeLastOffset) bag = where(ge(positions, narrow(to(offsets!, 'int64'), 0, B, 1)), B, bag);
    }
    // padding entries go to the extra bag B, dropped below
    if (pad !== null) bag = where(eq(flat, pad), B, bag);
    if (mode === 'max') {
      const out = scatterReduce(zeros([B + 1, D], { dtype: rows.dtype, device }), 0, expand(unsqueeze(bag, 1), [n, D]), rows, 'amax', { includeSelf: false });
      return narrow(out, 0, 0, B);
    }
    const sums = narrow(indexAdd(zeros([B + 1, D], { dtype: rows.dtype, device }), 0, bag, rows), 0, 0, B);
    if (mode === 'sum') return sums;
    const counts = narrow(indexAdd(zeros([B + 1], { dtype: rows.dtype, device }), 0, bag, ones([n], { dtype: rows.dtype, device })), 0, 0, B);
    return div(sums, unsqueeze(clampMin(counts, 1), 1));
  });
});
export type EmbeddingBagOptions = OptionsOf<typeof embeddingBag>;
