/**
 * `@torch-ts/torch`: PyTorch's tensor API in TypeScript. `import * as torch from '@torch-ts/torch'`.
 * Importing it registers the CPU backend and the autograd engine.
 *
 * @module @torch-ts/torch
 */
import { poolStats, threadsReady, wasmLevel } from '@torch-ts/kernels-cpu';
import {
  Function as AutogradFunction,
  FunctionCtx,
  backward as autogradBackward,
  detectAnomaly,
  grad as autogradGrad,
  gradcheck,
  gradgradcheck,
  savedTensorsHooks,
  forwardAd,
  functional as autogradFunctional,
} from '@torch-ts/autograd';
// tidyAsync follows its body across await through AsyncLocalStorage where Node has it (core Note [Async scopes])
import './async-scope';
import { memoryStats, resetPeakMemoryStats, getAllocator, hasAllocator, toDevice, type DeviceLike } from '@torch-ts/core';

export {
  // tensors and their lifetime
  Tensor,
  tidy,
  tidyAsync,
  AsyncScope,
  asyncScopeTracking,
  keep,
  // dtypes, devices
  type DType,
  type DTypeLike,
  DTYPES,
  REAL_DTYPES,
  type RealDType,
  getDefaultDtype,
  setDefaultDtype,
  promoteTypes,
  canCast,
  Device,
  type DeviceLike,
  getDefaultDevice,
  setDefaultDevice,
  withDevice,
  // which dtypes a device has kernels for (core Note [Dtype support is data])
  supports,
  supportedDtypes,
  // printing
  setPrintOptions,
  getPrintOptions,
  // indexing
  slice,
  // indexPut(_), gather, scatter(_), scatterAdd(_), scatterReduce(_), indexSelect, indexAdd(_),
  // indexFill(_), take, maskedFill(_), maskedSelect, maskedScatter(_): ./generated/front-ops
  type IndexPutOptions,
  nonzero,
  whereCondition,
  type NonzeroOptions,
  // errors
  TorchError,
  ShapeError,
  DTypeError,
  DeviceError,
  AutogradError,
  IndexError,
  TorchTypeError,
  NotImplementedError,
  ValueError,
  // factories (empty, zeros, ones, full, arange, linspace, eye and the *_like ones: ./generated/front-ops)
  tensor,
  type FactoryOptions,
  type TensorOptions,
  type TensorData,
  // random (rand, randn, randLike, randnLike, randperm: ./generated/front-ops)
  randint,
  manualSeed,
  seed,
  initialSeed,
  Generator,
  defaultGenerator,
  type GeneratorState,
  type RandomOptions,
  type BernoulliOptions,
  type MultinomialOptions,
  // NN ops PyTorch also has on `torch` (torch.softmax, torch.log_softmax, torch.dropout...): ./generated/front-ops
  // pointwise (the op table's rows come from ./generated/table-ops)
  // trueDivide, floorDivide, clamp, clip, isnan, isinf, isfinite, square, nanToNum, round: ./generated/front-ops
  // the composite activations relu6, selu, selu_: ./generated/front-ops (the rows' functions come from ./generated/table-ops)
  type RoundOptions,
  // where: ./generated/front-ops
  // reductions (the op table's rows, sum ... any, come from ./generated/table-ops)
  // max, min, median: ./generated/front-ops
  type ValuesIndices,
  // std, varMean, stdMean, norm, countNonzero, mode: ./generated/front-ops
  // cumsum(_), cumprod(_), cummax, cummin: ./generated/front-ops
  type VarOptions,
  type NormOptions,
  type NormOrd,
  type ScanOptions,
  // convolution, pooling, padding, interpolation (also F.*; conv1d, conv2d, convTranspose2d, avgPool2d, adaptiveAvgPool2d: ./generated/front-ops)
  maxPool1d,
  maxPool2d,
  maxPool3d,
  adaptiveMaxPool1d,
  type MaxPool3dOptions,
  type AdaptiveMaxPoolOptions,
  constantPadNd,
  type ConvOptions,
  type ConvTransposeOptions,
  type MaxPool2dOptions,
  type AvgPool2dOptions,
  type PadOptions,
  type InterpolateOptions,
  // linear algebra: mm, bmm, mv, dot, matmul: ./generated/front-ops
  // views and shape (view, reshape, permute, transpose, select, squeeze, expand, split... : ./generated/front-ops)
  index,
  torchBroadcastShapes as broadcastShapes,
  // joining and reordering (cat, stack, hstack, vstack: ./generated/front-ops)
  concat,
  concatenate,
  // repeat, tile, flip, fliplr, flipud, roll, triu, triu_, tril, tril_, repeatInterleave: ./generated/front-ops
  type CatOptions,
  type RollOptions,
  type TriOptions,
  type RepeatInterleaveOptions,
  // sort, argsort, topk, unique, searchsorted, bucketize: ./generated/front-ops
  type SortOptions,
  type TopkOptions,
  type UniqueOptions,
  type SearchsortedOptions,
  type BucketizeOptions,
  // addmm, baddbmm: ./generated/front-ops
  tensordot,
  type AddmmOptions,
  // copies and casts (clone, contiguous: ./generated/front-ops)
  type Scalar,
  type NestedList,
  type ReadOptions,
  type MemoryStats,
} from '@torch-ts/core';

import { resultType as coreResultType, type Operand } from '@torch-ts/core';

/** `torch.result_type(a, b)`: the dtype an op on these operands computes in. */
export function resultType(...operands: Operand[]): import('@torch-ts/core').DType {
  return coreResultType('resultType', operands);
}

// dtype constants: `torch.float32 === 'float32'`, as a dtype prints and compares as its name.
export const float32 = 'float32' as const;
export const float64 = 'float64' as const;
export const float16 = 'float16' as const;
export const bfloat16 = 'bfloat16' as const;
export const int8 = 'int8' as const;
export const uint8 = 'uint8' as const;
export const int16 = 'int16' as const;
export const int32 = 'int32' as const;
export const int64 = 'int64' as const;
export const bool = 'bool' as const;
export const float = float32;
export const double = float64;
export const half = float16;
export const long = int64;
export const int = int32;
export const short = int16;

// memory-format constants (Note [Memory formats]): `torch.channels_last === 'channels_last'`,
// the strings `memoryFormat` options take, as the dtype constants are dtypes' names.
export const contiguous_format = 'contiguous' as const;
export const preserve_format = 'preserve' as const;
export const channels_last = 'channels_last' as const;
export const channels_last_3d = 'channels_last_3d' as const;
export type { MemoryFormat, MemoryFormatName } from '@torch-ts/core';

/** `torch.memory`: live/peak bytes, live tensors and storages, cache size, per device. */
export const memory = {
  stats: (device: DeviceLike = 'cpu') => memoryStats(device),
  resetPeakStats: (device: DeviceLike = 'cpu') => resetPeakMemoryStats(device),
  emptyCache: (device: DeviceLike = 'cpu') => {
    const d = toDevice('memory.emptyCache', device);
    if (hasAllocator(d.type)) getAllocator('memory.emptyCache', d.type).emptyCache?.();
  },
};

export { noGrad, enableGrad, inferenceMode, isGradEnabled, setGradEnabled } from '@torch-ts/autograd';

/**
 * `torch.setNumThreads(n)`, `torch.getNumThreads()`: threads of the CPU kernels (default:
 * TORCH_TS_NUM_THREADS, else OMP_NUM_THREADS, else the machine's cores; Note [CPU thread
 * pool] in kernels-cpu). Results do not depend on the count.
 */
export { setNumThreads, getNumThreads } from '@torch-ts/kernels-cpu';

/**
 * `torch.backends.cpu.getCpuCapability()`: which build of the CPU kernels runs, as PyTorch's
 * `get_cpu_capability()` names its vector ISA: 'WASM_RELAXED_SIMD', 'WASM_SIMD', or
 * 'DEFAULT' (plain JS loops).
 */
export const backends = {
  cpu: {
    getCpuCapability: (): 'WASM_RELAXED_SIMD' | 'WASM_SIMD' | 'DEFAULT' =>
      wasmLevel === 'relaxed-simd' ? 'WASM_RELAXED_SIMD' : wasmLevel === 'simd' ? 'WASM_SIMD' : 'DEFAULT',
    /** Resolves once the CPU thread pool's workers for `getNumThreads()` are running (they start in the background). */
    threadsReady: (): Promise<void> => threadsReady(),
    /** Workers running and the kernel tasks they have run: whether work really spreads over threads. */
    poolStats: (): { workers: number; workerTasks: number } => poolStats(),
  },
};

/**
 * Results whose SIZE depends on the data (core Note [Data-dependent sizes on async-read
 * backends]): `nonzero`, `maskedSelect` and `x.index(mask)` must know the number of true
 * elements before they allocate. WebGPU tensors cannot be read synchronously, so there the
 * sync forms throw a TorchError naming the async form, before doing any work:
 *   const idx = await torch.nonzeroAsync(x);                 // or { asTuple: true }
 *   const sel = await torch.maskedSelectAsync(x, mask);      // also x.maskedSelectAsync(mask)
 *   const rows = await x.indexAsync(mask, ':');              // the same grammar as x.index
 * Each reads only the count (a 4-byte read, the sync CUDA makes too), then computes on the
 * device; autograd works through them as through the sync forms. On CPU they return the sync
 * result. `maskedScatter` and `x.indexPut_([mask], v)` need no count and run on WebGPU without
 * any sync ("source too short" surfaces at the next read, as other device-side errors).
 */
export { nonzeroAsync } from '@torch-ts/core';
// (maskedSelectAsync: ./generated/front-ops)

/** `torch.autograd`: `backward`, `grad`, custom `Function`s, `gradcheck`, anomaly detection. */
export const autograd = {
  backward: autogradBackward,
  grad: autogradGrad,
  Function: AutogradFunction,
  FunctionCtx,
  gradcheck,
  gradgradcheck,
  detectAnomaly,
  /** `torch.autograd.graph`: `savedTensorsHooks(pack, unpack, fn?)` (autograd Note [Saved tensors hooks]). */
  graph: { savedTensorsHooks },
  /** `torch.autograd.forwardAd`: dual tensors and their tangents (autograd Note [Forward-mode AD]). */
  forwardAd,
  /** `torch.autograd.functional`: jacobian, hessian, vjp, jvp, hvp, vhp. */
  functional: autogradFunctional,
};

/** `torch.nn` (also `@torch-ts/torch/nn`): modules, `init`, `utils`, `functional`. */
// The op table's functions (Note [The op table] in core): torch.exp, torch.exp_, ...
export * from './generated/table-ops';
// The front ends declared in core (Note [Front ends are declared once]): torch.sort, ...
export * from './generated/front-ops';
export * as nn from './nn';
/** `torch.linalg`: factorizations, solves, inverses, determinants and norms (Note [The linalg primitives] in core). */
export * as linalg from './linalg';

/** `torch.fft`: discrete Fourier transforms, their frequencies and shifts (Note [torch.fft on one complex-to-complex impl] in core). */
export * as fft from './fft';
/** `torch.sparse`: torch.sparse.sum, and sparse x dense products with a sparse gradient for the sparse operand (torch.sparse.mm, torch.sparse.addmm). */
export * as sparse from './sparse';

/** `torch.special`: the special functions under PyTorch's names (torch.special.logNdtr, torch.special.expit). */
export * as special from './special';

/** `torch.optim` (also `@torch-ts/torch/optim`): optimizers and `lrScheduler`. */
export * as optim from './optim';

/** `torch.webgpu`: loads the optional WebGPU backend (Note [WebGPU as an optional package]). */
export { webgpu, type WebGPUInitOptions, type WebGPULimits, type WebGPUMemoryStats, type WebGPUDeviceInfo } from './webgpu';

/** `torch.save` / `torch.load` (Node): PyTorch `.pt` checkpoints and safetensors files, by name. */
export { save, saveAsync, load, loadSafetensors } from './serialization/fs';
/** Byte-level (browser-safe) serialization: safetensors `serialize`/`deserialize`, `.pt` `serializePt`/`loadPt`. */
export * as serialization from './serialization';

/** `torch.utils.data` (Dataset, TensorDataset, DataLoader) and `torch.utils.checkpoint` (checkpoint, checkpointSequential). */
export * as utils from './utils';

/** `torch.distributions`: probability distributions, their samples, log-probabilities and KL divergences. */
export * as distributions from './distributions';
/** `torch.func`: vmap, grad, gradAndValue, vjp, jvp, jacrev, jacfwd, hessian, functionalCall, stackModuleState. */
export * as func from './func';

/** `torch.finfo` / `torch.iinfo`: the limits of a dtype. */
export { finfo, iinfo, type FInfo, type IInfo } from '@torch-ts/core';
