// The kernels' WebAssembly module: everything exported here is callable from
// src/wasm/kernels.ts (Note [Kernels in AssemblyScript]).
export { sgemm, dgemm, gemmScratchBytes, sgemmPackB, dgemmPackB, sgemmPackedB, dgemmPackedB, gemmFitsOneBlock, gemmPackedBBytes } from './gemm';
export { fill8, fill16, fill32, fill64 } from './fill';
export { maxPool2dF32, maxPool2dF64, maxPool2dBackwardF32, maxPool2dBackwardF64 } from './pool';
export { binaryF32, binaryF64 } from './binary';
export { tileScratchBytes } from './tile';
export { convertPlane } from './convert';
export { unaryF32 } from './unary';
export { compareF32, where32 } from './select';
export { expF32 } from './exp32';
export { sumF32, sumF32Blocks, sumF32Rows, sumBlockElements } from './sum';
export { softmaxLastF32, softmaxInnerF32, softmaxScratchBytes } from './softmax';
export { softmaxBackwardLastF32, softmaxBackwardInnerF32 } from './softmax-backward';
export {
  conv2dForward32,
  conv2dForward64,
  conv2dInputGrad32,
  conv2dInputGrad64,
  conv2dWeightGrad32,
  conv2dWeightGrad64,
  conv2dScratchBytes,
} from './conv2d';
export { conv2dDirect32, conv2dDirect64 } from './depthwise';
export { conv2dNhwcForward32, conv2dNhwcForward64, conv2dNhwcScratchBytes } from './conv2d-nhwc';
export {
  conv2dNhwcWeightGrad32,
  conv2dNhwcWeightGrad64,
  conv2dNhwcWeightGradScratchBytes,
  conv2dNhwcInputGrad32,
  conv2dNhwcInputGrad64,
  conv2dNhwcInputGradScratchBytes,
} from './conv2d-nhwc-grad';
// Normalization and average pooling (Note [Normalization in SIMD], Note [Average pooling in WebAssembly]).
export { layerNormF32, layerNormInputGradF32, layerNormParamGradF32, layerNormScratchBytes } from './layer-norm';
export { batchNormF32, batchNormBackwardF32 } from './batch-norm';
export { avgPool2dF32, avgPool2dF64, avgPool2dBackwardF32, avgPool2dBackwardF64 } from './avg-pool';
// Channels-last pooling and batch norm (Note [Channels-last pooling and batch norm in WebAssembly]).
export {
  maxPool2dNhwcF32,
  maxPool2dNhwcF64,
  avgPool2dNhwcF32,
  avgPool2dNhwcF64,
  batchNormNhwcF32,
  maxPool2dBackwardNhwcF32,
  maxPool2dBackwardNhwcF64,
  avgPool2dBackwardNhwcF32,
  avgPool2dBackwardNhwcF64,
  batchNormBackwardNhwcF32,
  adaptiveMaxPool2dNhwcF32,
  adaptiveMaxPool2dNhwcF64,
  groupNormNhwcF32,
  groupNormNhwcF64,
  groupNormBackwardNhwcF32,
  groupNormBackwardNhwcF64,
} from './pool-nhwc';
