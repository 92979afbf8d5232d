/**
 * `torch.nn` (also `@torch-ts/torch/nn`): Module, Parameter, the layers, `init`, `utils`
 * and `functional` (usually imported as `F`).
 *
 * @module @torch-ts/torch/nn
 */
import '@torch-ts/kernels-cpu';

export * as functional from './functional';
export * as init from './init';
export * as utils from './utils';
export {
  Module,
  type StateDict,
  type ForwardHook,
  type ForwardPreHook,
  type RemovableHandle,
  type LoadStateDictOptions,
  type IncompatibleKeys,
  type ModuleToOptions,
} from './module';
export { Parameter } from './parameter';
export { Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict } from './modules/container';
export { Identity, Linear, Bilinear, Flatten, Unflatten, type LinearOptions } from './modules/linear';
export { ReLU, GELU, SiLU, Tanh, Sigmoid, LeakyReLU, ELU, Softmax, LogSoftmax, Dropout, Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout } from './modules/activation';
export {
  ReLU6,
  SELU,
  CELU,
  Softplus,
  Hardtanh,
  Hardswish,
  Hardsigmoid,
  Mish,
  LogSigmoid,
  Softmin,
  Softmax2d,
  GLU,
  PReLU,
  Threshold,
  Hardshrink,
  Softshrink,
  Tanhshrink,
  Softsign,
  RReLU,
  type PReLUOptions,
} from './modules/activation-more';
export { Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, type ConvOptions, type ConvTransposeOptions, type PaddingMode } from './modules/conv';
export { MaxPool1d, MaxPool2d, AvgPool1d, AvgPool2d, AdaptiveAvgPool1d, AdaptiveAvgPool2d } from './modules/pooling';
export { MaxPool3d, AvgPool3d, AdaptiveAvgPool3d } from './modules/pooling-3d';
export { AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d } from './modules/pooling-adaptive-max';
export { PixelShuffle, PixelUnshuffle, ChannelShuffle } from './modules/pixel-shuffle';
export { Unfold, Fold } from './modules/fold';
export {
  BatchNorm1d,
  BatchNorm2d,
  BatchNorm3d,
  InstanceNorm1d,
  InstanceNorm2d,
  InstanceNorm3d,
  LocalResponseNorm,
  LayerNorm,
  GroupNorm,
} from './modules/normalization';
export {
  ReflectionPad1d,
  ReflectionPad2d,
  ReflectionPad3d,
  ReplicationPad1d,
  ReplicationPad2d,
  ReplicationPad3d,
  ConstantPad1d,
  ConstantPad2d,
  ConstantPad3d,
  ZeroPad1d,
  ZeroPad2d,
  ZeroPad3d,
  CircularPad1d,
  CircularPad2d,
  CircularPad3d,
} from './modules/padding';
export { LPPool1d, LPPool2d } from './modules/pooling-lp';
export { MaxUnpool1d, MaxUnpool2d, MaxUnpool3d } from './modules/max-unpool';
export { Embedding, EmbeddingBag, type EmbeddingBagOptions } from './modules/sparse';
export { Upsample, UpsamplingNearest2d, UpsamplingBilinear2d, type UpsampleOptions } from './modules/upsampling';
export {
  MultiheadAttention,
  NonDynamicallyQuantizableLinear,
  type MultiheadAttentionOptions,
  type MultiheadAttentionForwardOptions,
} from './modules/attention';
export {
  TransformerEncoderLayer,
  TransformerDecoderLayer,
  type TransformerActivation,
  type TransformerEncoderLayerOptions,
  type TransformerEncoderLayerForwardOptions,
  type TransformerDecoderLayerOptions,
  type TransformerDecoderLayerForwardOptions,
} from './modules/transformer';
export {
  TransformerEncoder,
  TransformerDecoder,
  Transformer,
  type TransformerEncoderOptions,
  type TransformerEncoderForwardOptions,
  type TransformerDecoderOptions,
  type TransformerOptions,
  type TransformerForwardOptions,
} from './modules/transformer-stack';
export { RNNBase, RNN, LSTM, GRU, type RNNMode, type RNNBaseOptions, type RNNOptions, type LSTMOptions } from './modules/rnn';
export { RNNCellBase, RNNCell, LSTMCell, GRUCell, type RNNCellOptions, type RNNCellNonlinearityOptions, type CellWeights } from './modules/rnn-cell';
export {
  CrossEntropyLoss,
  NLLLoss,
  MSELoss,
  L1Loss,
  BCELoss,
  BCEWithLogitsLoss,
  SmoothL1Loss,
  type Reduction,
} from './modules/loss';
export {
  KLDivLoss,
  HuberLoss,
  MarginRankingLoss,
  HingeEmbeddingLoss,
  SoftMarginLoss,
  MultiLabelSoftMarginLoss,
  MultiMarginLoss,
  MultiLabelMarginLoss,
  PoissonNLLLoss,
  GaussianNLLLoss,
  CosineEmbeddingLoss,
  TripletMarginLoss,
  TripletMarginWithDistanceLoss,
  CTCLoss,
  CosineSimilarity,
  PairwiseDistance,
  type TripletMarginWithDistanceLossOptions,
} from './modules/loss-more';
