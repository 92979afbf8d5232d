import type { BoundArgs, DType, DeviceLike } from '@torch-ts/core';
import * as init from '../init';
import { FACTORY_PARAMS, initBinder } from '../init-args';
import { Tensor, TorchError, noGradGuard } from '../internal';
import { Module } from '../module';
import { Parameter } from '../parameter';
import * as F from '../functional';
import { pyFloat, pyRepr } from '../repr';
import { emptyParam, type FactoryKwargs } from './linear';

export interface EmbeddingOptions extends FactoryKwargs {
  paddingIdx?: number | null;
  maxNorm?: number | null;
  normType?: number | null;
  scaleGradByFreq?: boolean | null;
  sparse?: boolean | null;
  /** PyTorch's `_weight`: the table to use instead of a fresh N(0, 1) one. */
  weight?: Tensor | null;
}

// (`_weight` is `weight` here: PyTorch's leading underscore has no camelCase spelling)
const embeddingArgs = initBinder(
  'Embedding',
  `int num_embeddings, int embedding_dim, int? padding_idx=None, float? max_norm=None, float norm_type=2.0, bool scale_grad_by_freq=False, bool sparse=False, Tensor? weight=None, ${FACTORY_PARAMS}`,
);

/** `nn.Embedding(num, dim)`: a lookup table initialised N(0, 1), the padding row zero. */
export class Embedding extends Module {
  declare weight: Parameter;
  readonly paddingIdx: number | null;
  readonly maxNorm: number | null;
  readonly normType: number;
  readonly scaleGradByFreq: boolean;
  readonly sparse: boolean;

  readonly numEmbeddings: number;
  readonly embeddingDim: number;

  constructor(
    ...args: BoundArgs<
      [numEmbeddings: number, embeddingDim: number],
      [paddingIdx: number, maxNorm: number, normType: number, scaleGradByFreq: boolean, sparse: boolean, weight: Tensor, device: DeviceLike, dtype: DType | string],
      EmbeddingOptions & { numEmbeddings?: number; embeddingDim?: number }
    >
  ) {
    super();
    const [numEmbeddings, embeddingDim, paddingIdx, maxNorm, normType, scaleGradByFreq, sparse, weight, device, dtype] = embeddingArgs.bind(args);
    const o = { maxNorm, normType, scaleGradByFreq, sparse, weight, device, dtype };
    this.numEmbeddings = numEmbeddings;
    this.embeddingDim = embeddingDim;
    let pad = paddingIdx ?? null;
    if (pad !== null) {
      if (pad > 0 && pad >= numEmbeddings) throw new TorchError('Embedding: Padding_idx must be within num_embeddings');
      if (pad < 0 && pad < -numEmbeddings) throw new TorchError('Embedding: Padding_idx must be within num_embeddings');
      if (pad < 0) pad += numEmbeddings;
    }
    this.paddingIdx = pad;
    this.maxNorm = o.maxNorm ?? null;
    this.normType = o.normType ?? 2.0;
    this.scaleGradByFreq = o.scaleGradByFreq ?? false;
    this.sparse = o.sparse ?? false;
    if (o.weight == null) {
      this.weight = emptyParam([numEmbeddings, embeddingDim], o);
      this.resetParameters();
    } else {
      if (o.weight.shape.join() !== [numEmbeddings, embeddingDim].join()) {
        throw new TorchError('Embedding: Shape of weight does not match num_embeddings and embedding_dim');
      }
      this.weight = new Parameter(o.weight);
    }
  }

  resetParameters(): void {
    init.normal_(this.weight);
    if (this.paddingIdx !== null) {
      const row = this.weight.select(0, this.paddingIdx);
      noGradGuard(() => row.fill_(0));
      row.dispose();
    }
  }

  override forward(input: Tensor): Tensor {
    return F.embedding(input, this.weight, {
      paddingIdx: this.paddingIdx,
      maxNorm: this.maxNorm,
      normType: this.normType,
      scaleGradByFreq: this.scaleGradByFreq,
      sparse: this.sparse,
    });
  }

  override extraRepr(): string {
    let s = `${this.numEmbeddings}, ${this.embeddingDim}`;
    if (this.paddingIdx !== null) s += `, padding_idx=${this.paddingIdx}`;
    if (this.maxNorm !== null) s += `, max_norm=${pyRepr(pyFloat(this.maxNorm))}`;
    if (this.normType !== 2) s += `, norm_type=${pyRepr(pyFloat(this.normType))}`;
    if (this.scaleGradByFreq) s += ', scale_grad_by_freq=True';
    if (this.sparse) s += ', sparse=True';
    return s;
  }
}

export interface EmbeddingBagOptions extends FactoryKwargs {
  maxNorm?: number | null;
  normType?: number | null;
  scaleGradByFreq?: boolean | null;
  mode?: 'sum' | 'mean' | 'max' | null;
  sparse?: boolean | null;
  /** PyTorch's `_weight`: the table to use instead of a fresh N(0, 1) one. */
  weight?: Tensor | null;
  includeLastOffset?: boolean | null;
  paddingIdx?: number | null;
}

export interface EmbeddingBagForwardOptions {
  offsets?: Tensor | null;
  perSampleWeights?: Tensor | null;
}

const embeddingBagArgs = initBinder(
  'EmbeddingBag',
  `int num_embeddings, int embedding_dim, float? max_norm=None, float norm_type=2.0, bool scale_grad_by_freq=False, str mode='mean', bool sparse=False, Tensor? weight=None, bool include_last_offset=False, int? padding_idx=None, ${FACTORY_PARAMS}`,
);

/** `nn.EmbeddingBag(num, dim)`: sums, means or maxes of bags of embeddings (F.embeddingBag), the table initialised N(0, 1), the padding row zero. */
export class EmbeddingBag extends Module {
  declare weight: Parameter;
  readonly numEmbeddings: number;
  readonly embeddingDim: number;
  readonly maxNorm: number | null;
  readonly normType: number;
  readonly scaleGradByFreq: boolean;
  readonly mode: 'sum' | 'mean' | 'max';
  readonly sparse: boolean;
  readonly includeLastOffset: boolean;
  readonly paddingIdx: number | null;

  constructor(
    ...args: BoundArgs<
      [numEmbeddings: number, embeddingDim: number],
      [
        maxNorm: number,
        normType: number,
        scaleGradByFreq: boolean,
        mode: 'sum' | 'mean' | 'max',
        sparse: boolean,
        weight: Tensor,
        includeLastOffset: boolean,
        paddingIdx: number,
        device: DeviceLike,
        dtype: DType | string,
      ],
      EmbeddingBagOptions & { numEmbeddings?: number; embeddingDim?: number }
    >
  ) {
    super();
    const [numEmbeddings, embeddingDim, maxNorm, normType, scaleGradByFreq, mode, sparse, weight, includeLastOffset, paddingIdx, device, dtype] =
      embeddingBagArgs.bind(args);
    this.numEmbeddings = numEmbeddings;
    this.embeddingDim = embeddingDim;
    this.maxNorm = maxNorm ?? null;
    this.normType = normType;
    this.scaleGradByFreq = scaleGradByFreq;
    this.mode = mode as 'sum' | 'mean' | 'max';
    this.sparse = sparse;
    this.includeLastOffset = includeLastOffset;
    let pad = paddingIdx ?? null;
    if (pad !== null) {
      if (pad > 0 && pad >= numEmbeddings) throw new TorchError('EmbeddingBag: padding_idx must be within num_embeddings');
      if (pad < 0 && pad < -numEmbeddings) throw new TorchError('EmbeddingBag: padding_idx must be within num_embeddings');
      if (pad < 0) pad += numEmbeddings;
    }
    this.paddingIdx = pad;
    if (weight == null) {
      this.weight = emptyParam([numEmbeddings, embeddingDim], { device, dtype });
      this.resetParameters();
    } else {
      if (weight.shape.join() !== [numEmbeddings, embeddingDim].join()) {
        throw new TorchError('EmbeddingBag: Shape of weight does not match num_embeddings and embedding_dim');
      }
      this.weight = new Parameter(weight);
    }
  }

  resetParameters(): void {
    init.normal_(this.weight);
    if (this.paddingIdx !== null) {
      const row = this.weight.select(0, this.paddingIdx);
      noGradGuard(() => row.fill_(0));
      row.dispose();
    }
  }

  override forward(input: Tensor, offsets?: Tensor | null, perSampleWeights?: Tensor | null): Tensor {
    return F.embeddingBag(input, this.weight, {
      offsets: offsets ?? null,
      maxNorm: this.maxNorm,
      normType: this.normType,
      scaleGradByFreq: this.scaleGradByFreq,
      mode: this.mode,
      sparse: this.sparse,
      perSampleWeights: perSampleWeights ?? null,
      includeLastOffset: this.includeLastOffset,
      paddingIdx: this.paddingIdx,
    });
  }

  override extraRepr(): string {
    let s = `${this.numEmbeddings}, ${this.embeddingDim}`;
    if (this.maxNorm !== null) s += `, max_norm=${pyRepr(pyFloat(this.maxNorm))}`;
    if (this.normType !== 2) s += `, norm_type=${pyRepr(pyFloat(this.normType))}`;
    if (this.scaleGradByFreq) s += ', scale_grad_by_freq=True';
    s += `, mode=${this.mode}`;
    if (this.paddingIdx !== null) s += `, padding_idx=${this.paddingIdx}`;
    return s;
  }
}
