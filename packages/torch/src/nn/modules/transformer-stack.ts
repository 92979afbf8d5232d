import { full, triu, type BoundArgs, type DType, type DeviceLike } from '@torch-ts/core';
import { FACTORY_PARAMS, initBinder, pyFunction } from '../init-args';
import * as init from '../init';
import { noGradGuard, Tensor, TorchError } from '../internal';
import { Module, describeValue } from '../module';
import { deepcopyModule } from '../module-copy';
import { ModuleList } from './container';
import type { FactoryKwargs } from './linear';
import { LayerNorm } from './normalization';
import {
  checkCausalHint,
  TransformerDecoderLayer,
  TransformerEncoderLayer,
  type TransformerActivation,
  type TransformerDecoderLayerForwardOptions,
} from './transformer';

/** PyTorch's `_get_clones`: `n` deep copies of `layer` (Note [Deep-copying a module]) in a ModuleList. */
function clones(op: string, layer: unknown, n: number): ModuleList {
  if (!(layer instanceof Module)) throw new TorchError(`${op}: the layer to stack must be an nn.Module, but got ${describeValue(layer)}`);
  if (n < 0) throw new TorchError(`${op}: num_layers must be non-negative, but got ${n}`);
  return new ModuleList(Array.from({ length: n }, () => deepcopyModule(layer)));
}

function optionalModule(op: string, name: string, m: unknown): Module | null {
  if (m == null) return null;
  if (!(m instanceof Module)) throw new TorchError(`${op}: ${name} must be an nn.Module or None, but got ${describeValue(m)}`);
  return m;
}

export interface TransformerEncoderOptions {
  norm?: Module | null;
  enableNestedTensor?: boolean | null;
  maskCheck?: boolean | null;
}

const transformerEncoderArgs = initBinder('TransformerEncoder', 'Any encoder_layer, int num_layers, Any? norm=None, bool enable_nested_tensor=True, bool mask_check=True');

export interface TransformerEncoderForwardOptions {
  mask?: Tensor | null;
  srcKeyPaddingMask?: Tensor | null;
  /** PyTorch 2.x's hint that `mask` is the causal mask (Note [The is_causal hint]). */
  isCausal?: boolean | null;
}

/**
 * `nn.TransformerEncoder(encoderLayer, numLayers, { norm })`: `numLayers` copies of
 * `encoderLayer` (deep copies, so they start with its weights, as PyTorch's) applied in turn,
 * then `norm` if given. `enableNestedTensor` and `maskCheck` choose PyTorch's inference fast
 * path, which gives the same values; they are kept and change nothing here.
 */
export class TransformerEncoder extends Module {
  declare layers: ModuleList;
  declare norm: Module | null;
  readonly numLayers: number;
  readonly enableNestedTensor: boolean;
  readonly maskCheck: boolean;

  constructor(
    ...args: BoundArgs<[encoderLayer: Module, numLayers: number], [norm: Module | null, enableNestedTensor: boolean, maskCheck: boolean], TransformerEncoderOptions & { encoderLayer?: Module; numLayers?: number }>
  ) {
    super();
    const [layer, n, norm, nested, maskCheck] = transformerEncoderArgs.bind(args);
    this.layers = clones('TransformerEncoder', layer, n);
    this.numLayers = n;
    this.norm = optionalModule('TransformerEncoder', 'norm', norm);
    this.enableNestedTensor = nested;
    this.maskCheck = maskCheck;
  }

  override forward(src: Tensor, options: TransformerEncoderForwardOptions = {}): Tensor {
    const mask = options.mask ?? null;
    const kpm = options.srcKeyPaddingMask ?? null;
    if (kpm !== null && kpm.dtype !== 'bool' && !kpm.isFloatingPoint()) {
      throw new TorchError(`TransformerEncoder: only bool and floating types of key_padding_mask are supported, but got ${kpm.dtype}`);
    }
    checkCausalHint('TransformerEncoder', options.isCausal, mask);
    let x = src;
    for (const layer of this.layers) x = layer.call(x, { srcMask: mask, srcKeyPaddingMask: kpm, isCausal: options.isCausal ?? null }) as Tensor;
    return this.norm === null ? x : (this.norm.call(x) as Tensor);
  }
}

export interface TransformerDecoderOptions {
  norm?: Module | null;
}

const transformerDecoderArgs = initBinder('TransformerDecoder', 'Any decoder_layer, int num_layers, Any? norm=None');

/**
 * `nn.TransformerDecoder(decoderLayer, numLayers, { norm })`: `numLayers` deep copies of
 * `decoderLayer` applied in turn to the target, each attending to the same `memory`, then
 * `norm` if given. `forward(tgt, memory, options)` takes the decoder layer's options.
 */
export class TransformerDecoder extends Module {
  declare layers: ModuleList;
  declare norm: Module | null;
  readonly numLayers: number;

  constructor(...args: BoundArgs<[decoderLayer: Module, numLayers: number], [norm: Module | null], TransformerDecoderOptions & { decoderLayer?: Module; numLayers?: number }>) {
    super();
    const [layer, n, norm] = transformerDecoderArgs.bind(args);
    this.layers = clones('TransformerDecoder', layer, n);
    this.numLayers = n;
    this.norm = optionalModule('TransformerDecoder', 'norm', norm);
  }

  override forward(tgt: Tensor, memory: Tensor, options: TransformerDecoderLayerForwardOptions = {}): Tensor {
    checkCausalHint('TransformerDecoder', options.tgtIsCausal, options.tgtMask ?? null);
    checkCausalHint('TransformerDecoder', options.memoryIsCausal, options.memoryMask ?? null);
    let x = tgt;
    for (const layer of this.layers) x = layer.call(x, memory, options) as Tensor;
    return this.norm === null ? x : (this.norm.call(x) as Tensor);
  }
}

export interface TransformerOptions extends FactoryKwargs {
  dModel?: number | null;
  nhead?: number | null;
  numEncoderLayers?: number | null;
  numDecoderLayers?: number | null;
  dimFeedforward?: number | null;
  dropout?: number | null;
  activation?: TransformerActivation | null;
  customEncoder?: Module | null;
  customDecoder?: Module | null;
  layerNormEps?: number | null;
  batchFirst?: boolean | null;
  normFirst?: boolean | null;
  bias?: boolean | null;
}

const transformerArgs = initBinder(
  'Transformer',
  `int d_model=512, int nhead=8, int num_encoder_layers=6, int num_decoder_layers=6, int dim_feedforward=2048, float dropout=0.1, Any activation='relu', Any? custom_encoder=None, Any? custom_decoder=None, float layer_norm_eps=1e-05, bool batch_first=False, bool norm_first=False, bool bias=True, ${FACTORY_PARAMS}`,
);

export interface TransformerForwardOptions {
  srcMask?: Tensor | null;
  tgtMask?: Tensor | null;
  memoryMask?: Tensor | null;
  srcKeyPaddingMask?: Tensor | null;
  tgtKeyPaddingMask?: Tensor | null;
  memoryKeyPaddingMask?: Tensor | null;
  /** PyTorch 2.x's hints that a mask is the causal one (Note [The is_causal hint]). */
  srcIsCausal?: boolean | null;
  tgtIsCausal?: boolean | null;
  memoryIsCausal?: boolean | null;
}

const squareSubsequentMask = pyFunction('generate_square_subsequent_mask(int sz, Device? device=None, ScalarType? dtype=None) -> Tensor').run(
  ([sz, device, dtype]): Tensor => {
    if (sz < 0) throw new TorchError(`generate_square_subsequent_mask: sz must be non-negative, but got ${sz}`);
    return triu(full([sz, sz], -Infinity, { dtype: dtype ?? undefined, device: device ?? undefined }), 1);
  },
);

/**
 * `nn.Transformer({ dModel = 512, nhead = 8, numEncoderLayers = 6, numDecoderLayers = 6,
 * dimFeedforward = 2048, dropout = 0.1, activation = 'relu', customEncoder, customDecoder,
 * layerNormEps, batchFirst, normFirst, bias })`: a TransformerEncoder (with a final
 * LayerNorm) over `src` and a TransformerDecoder (with a final LayerNorm) over `tgt` that
 * attends to the encoder's output; every parameter of more than one dimension is then
 * re-drawn with `xavier_uniform_`, as PyTorch's `_reset_parameters`.
 * `forward(src, tgt, { srcMask, tgtMask, memoryMask, srcKeyPaddingMask, tgtKeyPaddingMask,
 * memoryKeyPaddingMask })`.
 */
export class Transformer extends Module {
  declare encoder: Module;
  declare decoder: Module;
  readonly dModel: number;
  readonly nhead: number;
  readonly batchFirst: boolean;

  /** `Transformer.generate_square_subsequent_mask(sz)`: 0 on and below the diagonal, -inf above (a float causal mask). */
  static generateSquareSubsequentMask(...args: Parameters<typeof squareSubsequentMask>): Tensor {
    return squareSubsequentMask(...args);
  }

  /** The static method, reachable from an instance as in PyTorch. */
  generateSquareSubsequentMask(...args: Parameters<typeof squareSubsequentMask>): Tensor {
    return squareSubsequentMask(...args);
  }

  constructor(
    ...args: BoundArgs<
      [],
      [
        dModel: number,
        nhead: number,
        numEncoderLayers: number,
        numDecoderLayers: number,
        dimFeedforward: number,
        dropout: number,
        activation: TransformerActivation,
        customEncoder: Module | null,
        customDecoder: Module | null,
        layerNormEps: number,
        batchFirst: boolean,
        normFirst: boolean,
        bias: boolean,
        device: DeviceLike,
        dtype: DType | string,
      ],
      TransformerOptions
    >
  ) {
    super();
    const [dModel, nhead, nEnc, nDec, dff, p, act, customEncoder, customDecoder, eps, batchFirst, normFirst, bias, device, dtype] = transformerArgs.bind(args);
    const fk = { device, dtype };
    const layerOptions = { dimFeedforward: dff, dropout: p, activation: act as TransformerActivation, layerNormEps: eps, batchFirst, normFirst, bias, ...fk };
    const enc = optionalModule('Transformer', 'custom_encoder', customEncoder);
    this.encoder = enc ?? new TransformerEncoder(new TransformerEncoderLayer(dModel, nhead, layerOptions), nEnc, { norm: new LayerNorm(dModel, { eps, bias, ...fk }) });
    const dec = optionalModule('Transformer', 'custom_decoder', customDecoder);
    this.decoder = dec ?? new TransformerDecoder(new TransformerDecoderLayer(dModel, nhead, layerOptions), nDec, { norm: new LayerNorm(dModel, { eps, bias, ...fk }) });
    noGradGuard(() => {
      for (const w of this.parameters()) if (w.dim() > 1) init.xavierUniform_(w);
    });
    this.dModel = dModel;
    this.nhead = nhead;
    this.batchFirst = batchFirst;
  }

  override forward(src: Tensor, tgt: Tensor, options: TransformerForwardOptions = {}): Tensor {
    const batched = src.dim() === 3;
    if (batched && src.size(this.batchFirst ? 0 : 1) !== tgt.size(this.batchFirst ? 0 : 1)) {
      throw new TorchError(`Transformer: the batch number of src and tgt must be equal, but got src [${src.shape.join(', ')}] and tgt [${tgt.shape.join(', ')}]`);
    }
    if (src.size(-1) !== this.dModel || tgt.size(-1) !== this.dModel) {
      throw new TorchError(`Transformer: the feature number of src and tgt must be equal to d_model (${this.dModel}), but got src [${src.shape.join(', ')}] and tgt [${tgt.shape.join(', ')}]`);
    }
    const memory = this.encoder.call(src, { mask: options.srcMask ?? null, srcKeyPaddingMask: options.srcKeyPaddingMask ?? null, isCausal: options.srcIsCausal ?? null }) as Tensor;
    return this.decoder.call(tgt, memory, {
      tgtMask: options.tgtMask ?? null,
      memoryMask: options.memoryMask ?? null,
      tgtKeyPaddingMask: options.tgtKeyPaddingMask ?? null,
      memoryKeyPaddingMask: options.memoryKeyPaddingMask ?? null,
      tgtIsCausal: options.tgtIsCausal ?? null,
      memoryIsCausal: options.memoryIsCausal ?? null,
    }) as Tensor;
  }
}
