// The kernels' WebAssembly module: everything exported here is callable from
// src/wasm/kernels.ts (Note [Kernels in AssemblyScript]).
export { sgemm, dgemm, gemmScratchBytes } from './gemm';
