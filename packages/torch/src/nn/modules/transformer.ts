import type { BoundArgs, DType, DeviceLike } from '@torch-ts/core';
import * as F from '../functional';
import { initBinder, FACTORY_PARAMS } from '../init-args';
import { Tensor, TorchError } from '../internal';
import { Module } from '../module';
import { Dropout } from './activation';
import { MultiheadAttention } from './attention';
import { Linear, type FactoryKwargs } from './linear';
import { LayerNorm } from './normalization';

type Activation = 'relu' | 'gelu' | ((x: Tensor) => Tensor) | Module;

export interface TransformerEncoderLayerOptions extends FactoryKwargs {
  dimFeedforward?: number | null;
  dropout?: number | null;
  activation?: Activation | null;
  layerNormEps?: number | null;
  batchFirst?: boolean | null;
  normFirst?: boolean | null;
  bias?: boolean | null;
}

// (activation: a name, a function or a module, checked below)
const transformerEncoderLayerArgs = initBinder(
  'TransformerEncoderLayer',
  `int d_model, int nhead, int dim_feedforward=2048, float dropout=0.1, Any activation='relu', float layer_norm_eps=1e-05, bool batch_first=False, bool norm_first=False, bool bias=True, ${FACTORY_PARAMS}`,
);

export interface TransformerEncoderLayerForwardOptions {
  srcMask?: Tensor | null;
  srcKeyPaddingMask?: Tensor | null;
}

/** What a custom activation (a function or a module) returned: a Tensor, or an error naming what came back. */
function activationResult(y: unknown): Tensor {
  if (!(y instanceof Tensor)) throw new TorchError(`TransformerEncoderLayer: the activation returned ${y === null ? 'null' : typeof y}, not a Tensor`);
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
  readonly activationFn: (x: Tensor) => Tensor;

  constructor(
    ...args: BoundArgs<
      [dModel: number, nhead: number],
      [dimFeedforward: number, dropout: number, activation: Activation, layerNormEps: number, batchFirst: boolean, normFirst: boolean, bias: boolean, device: DeviceLike, dtype: DType | string],
      TransformerEncoderLayerOptions & { dModel?: number; nhead?: number }
    >
  ) {
    super();
    const [dModel, nhead, dff, p, act, eps, batchFirst, normFirst, bias, device, dtype] = transformerEncoderLayerArgs.bind(args);
    const fk = { dtype, device };
    this.self_attn = new MultiheadAttention(dModel, nhead, { dropout: p, bias, batchFirst, ...fk });
    this.linear1 = new Linear(dModel, dff, { bias, ...fk });
    this.dropout = new Dropout(p);
    this.linear2 = new Linear(dff, dModel, { bias, ...fk });
    this.normFirst = normFirst;
    this.norm1 = new LayerNorm(dModel, { eps, bias, ...fk });
    this.norm2 = new LayerNorm(dModel, { eps, bias, ...fk });
    this.dropout1 = new Dropout(p);
    this.dropout2 = new Dropout(p);
    if (act === 'relu') this.activationFn = (x) => F.relu(x);
    else if (act === 'gelu') this.activationFn = (x) => F.gelu(x);
    else if (act instanceof Module) {
      // (registered as `activation`, as PyTorch's `self.activation = activation` does)
      Reflect.set(this, 'activation', act);
      this.activationFn = (x) => activationResult(act(x));
    } else if (typeof act === 'function') this.activationFn = (x) => activationResult(act(x));
    else throw new TorchError(`TransformerEncoderLayer: activation should be relu/gelu, not ${String(act)}`);
  }

  private selfAttention(x: Tensor, mask: Tensor | null, kpm: Tensor | null): Tensor {
    const [out] = this.self_attn(x, x, x, { attnMask: mask, keyPaddingMask: kpm, needWeights: false });
    return this.dropout1.call(out);
  }

  private feedForward(x: Tensor): Tensor {
    const h = this.dropout.call(this.activationFn(this.linear1.call(x)));
    return this.dropout2.call(this.linear2.call(h));
  }

  override forward(src: Tensor, options: TransformerEncoderLayerForwardOptions = {}): Tensor {
    const mask = options.srcMask ?? null;
    const kpm = options.srcKeyPaddingMask ?? null;
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
