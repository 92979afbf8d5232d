import type { BoundArgs, DType, DeviceLike } from '@torch-ts/core';
import * as F from '../functional';
import { initBinder, FACTORY_PARAMS } from '../init-args';
import { Tensor, TorchError } from '../internal';
import { Module } from '../module';
import { Dropout } from './activation';
import { MultiheadAttention } from './attention';
import { Linear, type FactoryKwargs } from './linear';
import { LayerNorm } from './normalization';

export type TransformerActivation = 'relu' | 'gelu' | ((x: Tensor) => Tensor) | Module;

export interface TransformerEncoderLayerOptions extends FactoryKwargs {
  dimFeedforward?: number | null;
  dropout?: number | null;
  activation?: TransformerActivation | null;
  layerNormEps?: number | null;
  batchFirst?: boolean | null;
  normFirst?: boolean | null;
  bias?: boolean | null;
}

/** The decoder layer takes the encoder layer's settings. */
export type TransformerDecoderLayerOptions = TransformerEncoderLayerOptions;

// (activation: a name, a function or a module, checked below)
const LAYER_PARAMS = `int d_model, int nhead, int dim_feedforward=2048, float dropout=0.1, Any activation='relu', float layer_norm_eps=1e-05, bool batch_first=False, bool norm_first=False, bool bias=True, ${FACTORY_PARAMS}`;
const transformerEncoderLayerArgs = initBinder('TransformerEncoderLayer', LAYER_PARAMS);
const transformerDecoderLayerArgs = initBinder('TransformerDecoderLayer', LAYER_PARAMS);

type LayerArgs = BoundArgs<
  [dModel: number, nhead: number],
  [dimFeedforward: number, dropout: number, activation: TransformerActivation, layerNormEps: number, batchFirst: boolean, normFirst: boolean, bias: boolean, device: DeviceLike, dtype: DType | string],
  TransformerEncoderLayerOptions & { dModel?: number; nhead?: number }
>;

export interface TransformerEncoderLayerForwardOptions {
  srcMask?: Tensor | null;
  srcKeyPaddingMask?: Tensor | null;
  /** PyTorch 2.x's hint that `srcMask` is the causal mask (Note [The is_causal hint]). */
  isCausal?: boolean | null;
}

export interface TransformerDecoderLayerForwardOptions {
  tgtMask?: Tensor | null;
  memoryMask?: Tensor | null;
  tgtKeyPaddingMask?: Tensor | null;
  memoryKeyPaddingMask?: Tensor | null;
  /** PyTorch 2.x's hint that `tgtMask` is the causal mask (Note [The is_causal hint]). */
  tgtIsCausal?: boolean | null;
  /** PyTorch 2.x's hint that `memoryMask` is the causal mask (Note [The is_causal hint]). */
  memoryIsCausal?: boolean | null;
}

/**
 * Note [The is_causal hint]
 * PyTorch 2.x's `is_causal` / `tgt_is_causal` / `memory_is_causal` tell attention that the
 * mask given is the causal one, so a fused kernel may apply causality itself instead of
 * reading the mask. It is only a hint: the mask must still be given (PyTorch raises "Need
 * attn_mask if specifying the is_causal hint" without one), and for a truthful hint the
 * result is the mask's. torch-ts has no fused kernel, so it checks the mask is there and
 * applies it.
 */
export function checkCausalHint(op: string, isCausal: boolean | null | undefined, mask: Tensor | null): void {
  if (isCausal === true && mask === null) {
    throw new TorchError(`${op}: Need attn_mask if specifying the is_causal hint. You may use the Transformer module method \`generate_square_subsequent_mask\` to create this mask.`);
  }
}

/**
 * Note [Transformer layer activations]
 * `activation` is 'relu', 'gelu' (PyTorch's `F.relu` / `F.gelu`), a function, or a module,
 * which is registered as the submodule `activation` (PyTorch's `self.activation =
 * activation`, after the layer's other submodules). The layer keeps the name or the function,
 * never a closure over itself or its submodule, so that a deep copy of the layer (Note
 * [Deep-copying a module]) calls its own copy of an activation module.
 */
type ActivationSpec = { kind: 'relu' | 'gelu' | 'module' } | { kind: 'function'; fn: (x: Tensor) => Tensor };

function activationSpec(op: string, layer: Module, act: unknown): ActivationSpec {
  if (act === 'relu' || act === 'gelu') return { kind: act };
  if (act instanceof Module) {
    Reflect.set(layer, 'activation', act);
    return { kind: 'module' };
  }
  if (typeof act === 'function') return { kind: 'function', fn: act as (x: Tensor) => Tensor };
  throw new TorchError(`${op}: activation should be relu/gelu, not ${String(act)}`);
}

function activate(op: string, layer: Module, spec: ActivationSpec, x: Tensor): Tensor {
  if (spec.kind === 'relu') return F.relu(x);
  if (spec.kind === 'gelu') return F.gelu(x);
  const y: unknown = spec.kind === 'function' ? spec.fn(x) : (Reflect.get(layer, 'activation') as Module)(x);
  // (a custom activation's result: a Tensor, or an error naming what came back)
  if (!(y instanceof Tensor)) throw new TorchError(`${op}: the activation returned ${y === null ? 'null' : typeof y}, not a Tensor`);
  return y;
}

/**
 * `nn.TransformerEncoderLayer(dModel, nhead, { dimFeedforward = 2048, dropout = 0.1,
 * activation = 'relu', layerNormEps = 1e-5, batchFirst, normFirst })`: self-attention and a
 * feed-forward block, each with dropout, a residual connection and LayerNorm (post-norm by
 * default, pre-norm with `normFirst`), submodules registered in PyTorch's order.
 */
export class TransformerEncoderLayer extends Module {
  declare self_attn: MultiheadAttention;
  declare linear1: Linear;
  declare dropout: Dropout;
  declare linear2: Linear;
  declare norm1: LayerNorm;
  declare norm2: LayerNorm;
  declare dropout1: Dropout;
  declare dropout2: Dropout;
  readonly normFirst: boolean;
  readonly batchFirst: boolean;
  private readonly activationSpec: ActivationSpec;

  constructor(...args: LayerArgs) {
    super();
    const [dModel, nhead, dff, p, act, eps, batchFirst, normFirst, bias, device, dtype] = transformerEncoderLayerArgs.bind(args);
    const fk = { dtype, device };
    this.self_attn = new MultiheadAttention(dModel, nhead, { dropout: p, bias, batchFirst, ...fk });
    this.linear1 = new Linear(dModel, dff, { bias, ...fk });
    this.dropout = new Dropout(p);
    this.linear2 = new Linear(dff, dModel, { bias, ...fk });
    this.normFirst = normFirst;
    this.batchFirst = batchFirst;
    this.norm1 = new LayerNorm(dModel, { eps, bias, ...fk });
    this.norm2 = new LayerNorm(dModel, { eps, bias, ...fk });
    this.dropout1 = new Dropout(p);
    this.dropout2 = new Dropout(p);
    this.activationSpec = activationSpec('TransformerEncoderLayer', this, act);
  }

  private selfAttention(x: Tensor, mask: Tensor | null, kpm: Tensor | null): Tensor {
    const [out] = this.self_attn(x, x, x, { attnMask: mask, keyPaddingMask: kpm, needWeights: false });
    return this.dropout1.call(out);
  }

  private feedForward(x: Tensor): Tensor {
    const h = this.dropout.call(activate('TransformerEncoderLayer', this, this.activationSpec, this.linear1.call(x)));
    return this.dropout2.call(this.linear2.call(h));
  }

  override forward(src: Tensor, options: TransformerEncoderLayerForwardOptions = {}): Tensor {
    const mask = options.srcMask ?? null;
    const kpm = options.srcKeyPaddingMask ?? null;
    checkCausalHint('TransformerEncoderLayer', options.isCausal, mask);
    let x = src;
    if (this.normFirst) {
      x = x.add(this.selfAttention(this.norm1.call(x), mask, kpm));
      x = x.add(this.feedForward(this.norm2.call(x)));
    } else {
      x = this.norm1.call(x.add(this.selfAttention(x, mask, kpm)));
      x = this.norm2.call(x.add(this.feedForward(x)));
    }
    return x;
  }
}

/**
 * `nn.TransformerDecoderLayer(dModel, nhead, { dimFeedforward = 2048, dropout = 0.1,
 * activation = 'relu', layerNormEps = 1e-5, batchFirst, normFirst, bias })`: masked
 * self-attention over the target, attention to the encoder's output (`memory`) and a
 * feed-forward block, each with dropout, a residual connection and LayerNorm (post-norm by
 * default, pre-norm with `normFirst`), submodules registered in PyTorch's order.
 * `forward(tgt, memory, { tgtMask, memoryMask, tgtKeyPaddingMask, memoryKeyPaddingMask,
 * tgtIsCausal, memoryIsCausal })`.
 */
export class TransformerDecoderLayer extends Module {
  declare self_attn: MultiheadAttention;
  declare multihead_attn: MultiheadAttention;
  declare linear1: Linear;
  declare dropout: Dropout;
  declare linear2: Linear;
  declare norm1: LayerNorm;
  declare norm2: LayerNorm;
  declare norm3: LayerNorm;
  declare dropout1: Dropout;
  declare dropout2: Dropout;
  declare dropout3: Dropout;
  readonly normFirst: boolean;
  readonly batchFirst: boolean;
  private readonly activationSpec: ActivationSpec;

  constructor(...args: LayerArgs) {
    super();
    const [dModel, nhead, dff, p, act, eps, batchFirst, normFirst, bias, device, dtype] = transformerDecoderLayerArgs.bind(args);
    const fk = { dtype, device };
    this.self_attn = new MultiheadAttention(dModel, nhead, { dropout: p, bias, batchFirst, ...fk });
    this.multihead_attn = new MultiheadAttention(dModel, nhead, { dropout: p, bias, batchFirst, ...fk });
    this.linear1 = new Linear(dModel, dff, { bias, ...fk });
    this.dropout = new Dropout(p);
    this.linear2 = new Linear(dff, dModel, { bias, ...fk });
    this.normFirst = normFirst;
    this.batchFirst = batchFirst;
    this.norm1 = new LayerNorm(dModel, { eps, bias, ...fk });
    this.norm2 = new LayerNorm(dModel, { eps, bias, ...fk });
    this.norm3 = new LayerNorm(dModel, { eps, bias, ...fk });
    this.dropout1 = new Dropout(p);
    this.dropout2 = new Dropout(p);
    this.dropout3 = new Dropout(p);
    this.activationSpec = activationSpec('TransformerDecoderLayer', this, act);
  }

  private selfAttention(x: Tensor, mask: Tensor | null, kpm: Tensor | null): Tensor {
    const [out] = this.self_attn(x, x, x, { attnMask: mask, keyPaddingMask: kpm, needWeights: false });
    return this.dropout1.call(out);
  }

  private crossAttention(x: Tensor, memory: Tensor, mask: Tensor | null, kpm: Tensor | null): Tensor {
    const [out] = this.multihead_attn(x, memory, memory, { attnMask: mask, keyPaddingMask: kpm, needWeights: false });
    return this.dropout2.call(out);
  }

  private feedForward(x: Tensor): Tensor {
    const h = this.dropout.call(activate('TransformerDecoderLayer', this, this.activationSpec, this.linear1.call(x)));
    return this.dropout3.call(this.linear2.call(h));
  }

  override forward(tgt: Tensor, memory: Tensor, options: TransformerDecoderLayerForwardOptions = {}): Tensor {
    const tgtMask = options.tgtMask ?? null;
    const memoryMask = options.memoryMask ?? null;
    const tkpm = options.tgtKeyPaddingMask ?? null;
    const mkpm = options.memoryKeyPaddingMask ?? null;
    checkCausalHint('TransformerDecoderLayer', options.tgtIsCausal, tgtMask);
    checkCausalHint('TransformerDecoderLayer', options.memoryIsCausal, memoryMask);
    let x = tgt;
    if (this.normFirst) {
      x = x.add(this.selfAttention(this.norm1.call(x), tgtMask, tkpm));
      x = x.add(this.crossAttention(this.norm2.call(x), memory, memoryMask, mkpm));
      x = x.add(this.feedForward(this.norm3.call(x)));
    } else {
      x = this.norm1.call(x.add(this.selfAttention(x, tgtMask, tkpm)));
      x = this.norm2.call(x.add(this.crossAttention(x, memory, memoryMask, mkpm)));
      x = this.norm3.call(x.add(this.feedForward(x)));
    }
    return x;
  }
}
