import { isFloatingType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { ones } from './factories';
import { front } from './front';
import { matmul } from './linalg';
import { dropout } from './nn-misc';
import { where } from './pointwise';
import { softmax } from './softmax';
import { torchTypeName } from './meta-utils';

/**
 * Note [scaled_dot_product_attention]
 * `F.scaled_dot_product_attention` is PyTorch 2's (it postdates 1.13), computed as its math
 * backend (`_scaled_dot_product_attention_math`) computes it, so any device runs it and
 * autograd differentiates it:
 *  - the scale (default 1 / sqrt(E), E = query.size(-1)) goes half on the query and half on
 *    the key, sqrt(scale) each (a negative scale's sign on the query);
 *  - `isCausal` is the mask tril(ones(L, S)): query i attends keys 0..i, from the top left
 *    (refused together with an explicit mask); a boolean mask marks the pairs that take part
 *    (False becomes -inf), a float mask is added to the scores;
 *  - the softmax over keys is the "safe" one (PyTorch 2.5's `_safe_softmax`): a query whose
 *    every key is masked out gets zero weights, not NaN;
 *  - `dropoutP` drops attention weights as F.dropout does (always, as PyTorch's: the caller
 *    passes 0 in eval mode); `enableGqa` repeats each key / value head for its group of query
 *    heads (grouped-query attention).
 */
export const scaledDotProductAttention = front(
  'scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor',
  { method: false, namespaces: ['nn.functional'] },
).run(([query, key, value, attnMask, dropoutP, isCausal, scale, enableGqa]): Tensor => {
  const op = 'scaled_dot_product_attention';
  for (const [name, t] of [['query', query], ['key', key], ['value', value]] as const) {
    if (t.dim() < 2) throw new ShapeError(`${op}: expected ${name} to have at least 2 dimensions, but got ${fmtShape(t.shape)}`);
    if (!isFloatingType(t.dtype)) throw new DTypeError(`${op}: expected ${name} to be floating point, but got ${torchTypeName(t.dtype)}`);
  }
  if (query.dtype !== key.dtype || query.dtype !== value.dtype) {
    throw new DTypeError(
      `Expected query, key, and value to have the same dtype, but got query.dtype: ${torchTypeName(query.dtype)} key.dtype: ${torchTypeName(key.dtype)} and value.dtype: ${torchTypeName(value.dtype)} instead.`,
    );
  }
  if (isCausal && attnMask != null) throw new TorchError('_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True');
  if (attnMask != null && attnMask.dtype !== 'bool' && attnMask.dtype !== query.dtype) {
    throw new DTypeError(`Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: ${torchTypeName(attnMask.dtype)} and  query.dtype: ${torchTypeName(query.dtype)} instead.`);
  }
  const E = query.shape[query.dim() - 1];
  const L = query.shape[query.dim() - 2];
  const S = key.shape[key.dim() - 2];
  return tidy(() => {
    let k = key;
    let v = value;
    if (enableGqa && query.dim() >= 3 && key.dim() >= 3) {
      const hq = query.shape[query.dim() - 3];
      const hk = key.shape[key.dim() - 3];
      if (hq !== hk) {
        if (hq % hk !== 0) throw new ShapeError(`${op}: the number of query heads (${hq}) must be a multiple of the number of key / value heads (${hk})`);
        k = k.repeatInterleave(hq / hk, -3);
        v = v.repeatInterleave(hq / hk, -3);
      }
    }
    const s = scale ?? 1 / Math.sqrt(E);
    const half = Math.sqrt(Math.abs(s));
    const q = query.mul(s < 0 ? -half : half);
    let scores = matmul(q, k.transpose(-2, -1).mul(half));
    let mask: Tensor | null = attnMask ?? null;
    if (isCausal) mask = ones([L, S], { dtype: 'bool', device: query.device }).tril();
    if (mask !== null) scores = scores.add(mask.dtype === 'bool' ? where(mask, 0, -Infinity).to(query.dtype) : mask);
    let weights: Tensor;
    if (mask === null) weights = softmax(scores, -1);
    else {
      // the safe softmax: a row of -inf scores (every key masked out) weighs nothing, and
      // passes no gradient (softmax of a zeroed row, so no NaN reaches the backward)
      const dead = scores.eq(-Infinity).all(-1, true);
      weights = where(dead, 0, softmax(where(dead, 0, scores), -1));
    }
    if (dropoutP > 0) weights = dropout(weights, dropoutP, true);
    return matmul(weights, v);
  });
});
