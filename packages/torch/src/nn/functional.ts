/**
 * `torch.nn.functional` (imported as `F`): PyTorch's functional NN API. Each name is the
 * core op of the same name; the families append their ops here.
 */
// The option types are aliases declared here, not re-exported from core: the declaration
// bundler turns a type re-exported through `export * as functional` into a value
// (`declare const functional_X: typeof X`, TS2693 in a consumer's type check).
import type * as core from '@torch-ts/core';
export type LossReduction = core.LossReduction;
export type NllLossOptions = core.NllLossOptions;
export type CrossEntropyOptions = core.CrossEntropyOptions;
export type LossOptions = core.LossOptions;
export type SmoothL1Options = core.SmoothL1Options;
export type BceOptions = core.BceOptions;
export type BceWithLogitsOptions = core.BceWithLogitsOptions;
export type DropoutOptions = core.DropoutOptions;
export type BatchNormOptions = core.BatchNormOptions;
export type LayerNormOptions = core.LayerNormOptions;
export type GroupNormOptions = core.GroupNormOptions;
export type EmbeddingOptions = core.EmbeddingOptions;
export type OneHotOptions = core.OneHotOptions;
export type SoftmaxOptions = core.SoftmaxOptions;
export type ConvOptions = core.ConvOptions;
export type ConvTransposeOptions = core.ConvTransposeOptions;
export type MaxPool2dOptions = core.MaxPool2dOptions;
export type MaxPool1dOptions = core.MaxPool1dOptions;
export type AvgPool1dOptions = core.AvgPool1dOptions;
export type AvgPool2dOptions = core.AvgPool2dOptions;
export type PadOptions = core.PadOptions;
export type MaxPool3dOptions = core.MaxPool3dOptions;
export type AvgPool3dOptions = core.AvgPool3dOptions;
export type AdaptiveMaxPoolOptions = core.AdaptiveMaxPoolOptions;
export type EmbeddingBagOptions = core.EmbeddingBagOptions;
export type MultiMarginLossOptions = core.MultiMarginLossOptions;
export type MultilabelMarginLossOptions = core.MultilabelMarginLossOptions;
export type InterpolateOptions = core.InterpolateOptions;
export {
  // activations: the op table's rows that F has come from ../generated/functional-table-ops
  relu,
  relu_,
  sigmoid,
  tanh,
} from '@torch-ts/core';
export * from '../generated/functional-table-ops';
export * from '../generated/functional-front-ops';
// NN functional ops (core ops/softmax.ts, losses.ts, normalization.ts, nn-misc.ts, activations.ts):
// ../generated/functional-front-ops
export {
  // convolution, pooling, interpolation (the others: ../generated/functional-front-ops)
  maxPool1d,
  maxPool2d,
  maxPool3d,
  adaptiveMaxPool1d,
  adaptiveMaxPool2d,
  adaptiveMaxPool3d,
  interpolate,
  // a plain function: its distance_function is a callable, which no schema types
  tripletMarginWithDistanceLoss,
} from '@torch-ts/core';
export type TripletMarginWithDistanceLossOptions = core.TripletMarginWithDistanceLossOptions;
