// The kernels' WebAssembly module: everything exported here is callable from
// src/wasm/kernels.ts (Note [Kernels in AssemblyScript]).
export { sgemm, dgemm, gemmScratchBytes } from './gemm';
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
