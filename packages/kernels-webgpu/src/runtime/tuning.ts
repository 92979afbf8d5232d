import { gpuOrNull } from './device';

/**
 * Note [Kernel tuning per adapter]
 * A GPU runs a workgroup's invocations in lockstep and a `workgroupBarrier` costs a few
 * cycles, so reductions and row kernels (softmax) use the classic shape: a workgroup per
 * output, partial results combined by a tree in workgroup memory. A software adapter
 * (SwiftShader, the CI's Vulkan; any fallback adapter) runs a workgroup as SIMD-4 batches of
 * invocations on one CPU thread, and a barrier makes each batch a coroutine that must be
 * switched out and back at every barrier: a 256-wide tree costs about 1 ms per workgroup
 * there, 10x the arithmetic. On such adapters the same ops take barrier-free shapes: one
 * invocation per output (or per interleaved piece of it, combined by a second pass).
 * Both shapes compute the same values (up to float summation order) and both are tested on
 * every machine: the tests force each with `setKernelTuning`.
 */
export interface KernelTuning {
  /** Use barrier-free kernel shapes (one invocation per output or piece). */
  readonly barrierFree: boolean;
}

let forced: Partial<KernelTuning> = {};

/** The tuning for the current device: forced values first, then the adapter's class. */
export function kernelTuning(): KernelTuning {
  return { barrierFree: forced.barrierFree ?? gpuOrNull()?.softwareAdapter ?? false };
}

/** Forces tuning choices (tests run both shapes on one adapter); `{}` restores the adapter's. */
export function setKernelTuning(t: Partial<KernelTuning>): void {
  forced = { ...t };
}
