// The kernels' WebAssembly module: everything exported here is callable from
// src/wasm/kernels.ts (Note [Kernels in AssemblyScript]).
export { sgemm, dgemm, gemmScratchBytes } from './gemm';
export { binaryF32, binaryF64 } from './binary';
export { tileScratchBytes } from './tile';
export { unaryF32 } from './unary';
