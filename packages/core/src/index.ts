/**
 * `@torch-ts/core`: c10 + ATen core. See docs/architecture.md for what lives here and why.
 *
 * @module @torch-ts/core
 */
export * from './errors';
export * from './dtype';
export * from './device';
export * from './format';
export * from './iterator';
export * from './views';

export { RefCounted } from './memory/ref-counted';
export {
  registerAllocator,
  getAllocator,
  hasAllocator,
  emptyStats,
  type Allocator,
  type AllocatorStats,
  type AllocateOptions,
  type DataPtr,
  type HostRegion,
} from './memory/allocator';
export { StorageImpl } from './memory/storage-impl';
export { liveCounts, type LiveCounts } from './memory/live-counts';
export { memoryStats, resetPeakMemoryStats, type MemoryStats } from './memory/stats';

export * from './dispatch/dispatch-key';
export { DispatchKeySet } from './dispatch/dispatch-key-set';
export * from './dispatch/local-state';
export * from './dispatch/schema';
export * from './dispatch/dispatcher';
export type { SchemaValues, ValueRepr, KernelRepr } from './dispatch/schema-types';
export type { OpSchemas } from './ops/generated/schemas';

export * from './tensor/autograd-interface';
export { TensorImpl, VersionCounter } from './tensor/tensor-impl';
export { MEMORY_FORMATS, parseMemoryFormat, formatStrides, isContiguousAs, isDense, obeysLayoutContract, suggestMemoryFormat, type MemoryFormat, type MemoryFormatName } from './tensor/memory-format';
export { Tensor, type Layout, type ReadOptions, type NestedList, type HostData } from './tensor/tensor';
export { tidy, tidyAsync, keep, AsyncScope, registerAsyncScopeContext, asyncScopeTracking, type AsyncScopeContext } from './tensor/scope';
export { registerDeviceReader, registerDeviceUploader, type DeviceReader, type DeviceUploader } from './tensor/device-reader';
export { registerDeviceRuntime, deviceRuntime } from './dispatch/device-runtime';
export { registerPrivateUse1Backend, type PrivateUse1BackendOptions } from './privateuse1';
export type { HostValues } from './tensor/host-data';

export * from './ops/backend-impls';
export type { RandomImpls, RandomFill, DeviceStream } from './ops/random-impls';
export { KERNEL_OP_NAMES, type KernelOpName } from './ops/op-names';
export { registerBackend, isBackendRegistered, implOf, defineStructured, type Backend, type BackendOpHook, type BackendOptions, type StructuredRun } from './ops/registry';
export { defineComposite, type CompositeArgs, type CompositeRepr } from './ops/composite';
export type { KernelArgs } from './ops/kernel-args';
export { supports, supportedDtypes, OP_KERNELS, type KernelNeed } from './ops/supports';
export * from './ops/api';
export { makeBinder, makeOverloads, BindFailure, traceBinds, keywordOf, camelName, isOptionsObject, typeName, type Binder, type TypedBinder, type TypedOverloadBinder, type BoundValues, type BoundCall, type BinderOptions, type OverloadBinder, type OptionalArgs, type BoundArgs } from './ops/binder';
export { front, overloadedFront, allFronts, type Front, type FrontInfo, type FrontDeclOptions, type FrontBuilder, type FrontMethod, type FrontNamespace, type OptionsOf } from './ops/front';
export type { FrontArgs, FrontOptions, FrontInput, OverloadFrontArgs } from './ops/front-types';

export * from './batched';
export { SparseTensorImpl, isSparseImpl } from './sparse/sparse-tensor-impl';
import { registerBatchingRules } from './batched';
// (after every op is declared: the pointwise and reduction rules are registered per op)
registerBatchingRules();
