// The kernels' WebAssembly module: everything exported here is callable from
// src/wasm/kernels.ts (Note [Kernels in AssemblyScript]).
export { sgemm, dgemm, gemmScratchBytes } from './gemm';
export { expF32 } from './exp32';
export { sumF32, sumF32Blocks, sumF32Rows, sumBlockElements } from './sum';
export { softmaxLastF32, softmaxInnerF32, softmaxScratchBytes, softmaxBackwardLastF32 } from './softmax';
