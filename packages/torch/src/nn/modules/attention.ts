import { NotImplementedError, zerosLike, type BoundArgs, type DType, type DeviceLike } from '@torch-ts/core';
import { FACTORY_PARAMS, initBinder } from '../init-args';
import * as F from '../functional';
import * as init from '../init';
import { Tensor, TorchError } from '../internal';
import { Module } from '../module';
import type { Parameter } from '../parameter';
import { emptyParam, Linear, type FactoryKwargs } from './linear';

/** PyTorch's `NonDynamicallyQuantizableLinear`: a Linear under the name MHA's repr shows. */
export class NonDynamicallyQuantizableLinear extends Linear {}

export interface MultiheadAttentionOptions extends FactoryKwargs {
  dropout?: number | null;
  bias?: boolean | null;
  addBiasKv?: boolean | null;
  addZeroAttn?: boolean | null;
  kdim?: number | null;
  vdim?: number | null;
  batchFirst?: boolean | null;
}

const multiheadAttentionArgs = initBinder(
  'MultiheadAttention',
  `int embed_dim, int num_heads, float dropout=0.0, bool bias=True, bool add_bias_kv=False, bool add_zero_attn=False, int? kdim=None, int? vdim=None, bool batch_first=False, ${FACTORY_PARAMS}`,
  ['addBiasKv', 'addZeroAttn'],
);

export interface MultiheadAttentionForwardOptions {
  keyPaddingMask?: Tensor | null;
  needWeights?: boolean;
  attnMask?: Tensor | null;
  averageAttnWeights?: boolean;
}

/** A bool mask (true = masked out) as an additive float mask with -inf, as `_canonical_mask`. */
function canonicalMask(mask: Tensor | null | undefined, dtype: Tensor['dtype']): Tensor | null {
  if (mask == null) return null;
  if (mask.dtype === 'bool') return zerosLike(mask, { dtype }).maskedFill_(mask, -Infinity);
  if (!mask.isFloatingPoint()) throw new TorchError(`MultiheadAttention: only bool and floating types of masks are supported, got ${mask.dtype}`);
  return mask;
}

/**
 * `nn.MultiheadAttention(embedDim, numHeads, { dropout, bias, batchFirst })`: packed in-projection
 * (`in_proj_weight` [3E, E], `in_proj_bias`), scaled dot-product attention per head with
 * optional additive/boolean `attnMask` and `keyPaddingMask`, then `out_proj`. `forward`
 * returns `[output, weights]` (weights averaged over heads unless `averageAttnWeights` is
 * false, null without `needWeights`), as PyTorch's. Same key/value dims as the query only.
 */
export class MultiheadAttention extends Module {
  declare in_proj_weight: Parameter;
  declare in_proj_bias: Parameter | null;
  declare out_proj: NonDynamicallyQuantizableLinear;
  readonly headDim: number;
  readonly dropout: number;
  readonly batchFirst: boolean;

  readonly embedDim: number;
  readonly numHeads: number;

  constructor(
    ...args: BoundArgs<
      [embedDim: number, numHeads: number],
      [dropout: number, bias: boolean, addBiasKv: boolean, addZeroAttn: boolean, kdim: number, vdim: number, batchFirst: boolean, device: DeviceLike, dtype: DType | string],
      MultiheadAttentionOptions & { embedDim?: number; numHeads?: number }
    >
  ) {
    super();
    const [embedDim, numHeads, dropout, bias, , , kdim, vdim, batchFirst, device, dtype] = multiheadAttentionArgs.bind(args);
    // (key and value of the query's width only: other widths need separate projections)
    for (const [name, d] of [['kdim', kdim], ['vdim', vdim]] as const) {
      if (d != null && d !== embedDim) throw new NotImplementedError(`MultiheadAttention: ${name}=${d} other than embed_dim is not supported by torch-ts yet`);
    }
    const o = { device, dtype };
    this.embedDim = embedDim;
    this.numHeads = numHeads;
    if (embedDim <= 0 || numHeads <= 0) throw new TorchError(`MultiheadAttention: embed_dim and num_heads must be greater than 0, got embed_dim=${embedDim} and num_heads=${numHeads} instead`);
    this.headDim = Math.floor(embedDim / numHeads);
    if (this.headDim * numHeads !== embedDim) throw new TorchError('MultiheadAttention: embed_dim must be divisible by num_heads');
    this.dropout = dropout;
    this.batchFirst = batchFirst;
    this.in_proj_weight = emptyParam([3 * embedDim, embedDim], o);
    if (bias) this.in_proj_bias = emptyParam([3 * embedDim], o);
    else this.registerParameter('in_proj_bias', null);
    this.out_proj = new NonDynamicallyQuantizableLinear(embedDim, embedDim, { bias, dtype: o.dtype, device: o.device });
    this.resetParameters();
  }

  /** `_reset_parameters`: xavier-uniform in-projection, zero biases (after out_proj's own init). */
  resetParameters(): void {
    init.xavierUniform_(this.in_proj_weight);
    if (this.in_proj_bias !== null) {
      init.constant_(this.in_proj_bias, 0);
      if (this.out_proj.bias !== null) init.constant_(this.out_proj.bias, 0);
    }
  }

  override forward(query: Tensor, key: Tensor, value: Tensor, options: MultiheadAttentionForwardOptions = {}): [Tensor, Tensor | null] {
    const batched = query.dim() === 3;
    if (!batched && query.dim() !== 2) throw new TorchError(`MultiheadAttention: query should be unbatched 2D or batched 3D tensor but received ${query.dim()}-D query tensor`);
    let q = query;
    let k = key;
    let v = value;
    if (this.batchFirst && batched) [q, k, v] = [q.transpose(1, 0), k.transpose(1, 0), v.transpose(1, 0)];
    let kpm = options.keyPaddingMask ?? null;
    if (!batched) {
      [q, k, v] = [q.unsqueeze(1), k.unsqueeze(1), v.unsqueeze(1)];
      if (kpm) kpm = kpm.unsqueeze(0);
    }
    const [out, weights] = this.attention(q, k, v, kpm, options);
    let o = out;
    let w = weights;
    if (!batched) {
      o = o.squeeze(1);
      if (w) w = w.squeeze(0);
    } else if (this.batchFirst) {
      o = o.transpose(1, 0);
    }
    return [o, w];
  }

  private attention(query: Tensor, key: Tensor, value: Tensor, keyPaddingMask: Tensor | null, o: MultiheadAttentionForwardOptions): [Tensor, Tensor | null] {
    const [tgtLen, bsz, E] = query.shape;
    const srcLen = key.size(0);
    const H = this.numHeads;
    const hd = this.headDim;
    if (E !== this.embedDim) throw new TorchError(`MultiheadAttention: was expecting embedding dimension of ${this.embedDim}, but got ${E}`);
    if (key.size(2) !== E || value.size(2) !== E) throw new TorchError('MultiheadAttention: key and value must have the embedding dimension of the query (kdim/vdim are not supported)');
    // in-projection: one linear for self-attention, else per-chunk weights
    let q: Tensor;
    let k: Tensor;
    let v: Tensor;
    const w = this.in_proj_weight;
    const b = this.in_proj_bias;
    const chunk = (t: Tensor | null, i: number) => (t === null ? null : t.narrow(0, i * E, E));
    if (query === key && key === value) {
      const proj = F.linear(query, w, b);
      [q, k, v] = proj.chunk(3, -1);
    } else {
      q = F.linear(query, chunk(w, 0)!, chunk(b, 0));
      k = F.linear(key, chunk(w, 1)!, chunk(b, 1));
      v = F.linear(value, chunk(w, 2)!, chunk(b, 2));
    }
    let attnMask = canonicalMask(o.attnMask, query.dtype);
    if (attnMask !== null) {
      if (attnMask.dim() === 2) {
        if (attnMask.size(0) !== tgtLen || attnMask.size(1) !== srcLen) {
          throw new TorchError(`MultiheadAttention: The shape of the 2D attn_mask is [${attnMask.shape.join(', ')}], but should be [${tgtLen}, ${srcLen}].`);
        }
        attnMask = attnMask.unsqueeze(0);
      } else if (attnMask.dim() === 3) {
        if (attnMask.size(0) !== bsz * H || attnMask.size(1) !== tgtLen || attnMask.size(2) !== srcLen) {
          throw new TorchError(`MultiheadAttention: The shape of the 3D attn_mask is [${attnMask.shape.join(', ')}], but should be [${bsz * H}, ${tgtLen}, ${srcLen}].`);
        }
      } else {
        throw new TorchError(`MultiheadAttention: attn_mask's dimension ${attnMask.dim()} is not supported`);
      }
    }
    const qh = q.contiguous().view(tgtLen, bsz * H, hd).transpose(0, 1);
    const kh = k.contiguous().view(srcLen, bsz * H, hd).transpose(0, 1);
    const vh = v.contiguous().view(srcLen, bsz * H, hd).transpose(0, 1);
    const kpm = canonicalMask(keyPaddingMask, query.dtype);
    if (kpm !== null) {
      if (kpm.dim() !== 2 || kpm.size(0) !== bsz || kpm.size(1) !== srcLen) {
        throw new TorchError(`MultiheadAttention: expecting key_padding_mask shape of [${bsz}, ${srcLen}], but got [${kpm.shape.join(', ')}]`);
      }
      const m = kpm.view(bsz, 1, 1, srcLen).expand(-1, H, -1, -1).reshape(bsz * H, 1, srcLen);
      attnMask = attnMask === null ? m : attnMask.add(m);
    }
    const scaled = qh.mul(Math.sqrt(1.0 / hd));
    let scores = scaled.bmm(kh.transpose(-2, -1));
    if (attnMask !== null) scores = attnMask.add(scores);
    let weights = F.softmax(scores, -1);
    const p = this.training ? this.dropout : 0.0;
    if (p > 0) weights = F.dropout(weights, { p, training: true });
    const ctx = weights.bmm(vh);
    const merged = ctx.transpose(0, 1).contiguous().view(tgtLen * bsz, E);
    const out = F.linear(merged, this.out_proj.weight, this.out_proj.bias).view(tgtLen, bsz, E);
    if (!(o.needWeights ?? true)) return [out, null];
    let wv = weights.view(bsz, H, tgtLen, srcLen);
    if (o.averageAttnWeights ?? true) wv = wv.mean(1);
    return [out, wv];
  }
}
