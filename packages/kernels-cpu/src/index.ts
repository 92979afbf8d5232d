/**
 * `@torch-ts/kernels-cpu`: the CPU backend. Importing this module registers the CPU allocator
 * and the CPU kernels with core, as docs/architecture.md's "Backends" section describes.
 *
 * @module @torch-ts/kernels-cpu
 */
import { DispatchKey, registerAllocator, registerBackend } from '@torch-ts/core';
import { cpuAllocator } from './allocator';
import { cpuImpls } from './impls';
import { cpuDtypes } from './dtypes';

registerAllocator(cpuAllocator);
registerBackend(DispatchKey.CPU, cpuImpls, { dtypes: cpuDtypes });

export { cpuAllocator, CpuAllocator } from './allocator';
export { cpuImpls } from './impls';
export { cpuDtypes } from './dtypes';
export { getNumThreads, poolStats, setNumThreads, threadsReady } from './wasm/pool';
export { wasmLevel, type WasmLevel } from './wasm/kernels';
