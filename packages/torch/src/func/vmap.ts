/**
 * `torch.func.vmap`: maps a function over a batch dimension of its inputs.
 *
 * Note [vmap over batched tensors]
 * As PyTorch's: each mapped input is wrapped in a batched tensor of a new vmap level (core
 * Note [Batched tensors]: a logical tensor of one sample's shape whose dispatch key runs a
 * batching rule, the op called once on the whole physical batch, or a per-sample loop that
 * warns once for an op without a rule), `fn` runs ONCE on the wrappers, and each output's
 * physical value has its batch dim moved to `outDims` (an output that does not depend on a
 * mapped input is expanded over the batch). Nested vmaps open nested levels. Autograd
 * records the physical ops, so `grad` inside vmap differentiates the whole batch in one
 * backward pass and each sample's gradient is its own (func/grad.ts reads the batch through
 * core's `toPhysical`); `grad(vmap(f))` differentiates through the physical ops as well.
 *
 * `chunkSize` runs the batch in chunks of that many samples (one batched call each, the
 * outputs concatenated), bounding the peak memory of one call. `randomness`: 'error' (the
 * default) throws when `fn` draws from the default generator; 'different' (each sample its
 * own draws, in sample order) and 'same' (the generator's state replayed for every sample)
 * run the per-sample path (vmap-per-sample.ts), since one batched draw cannot reproduce
 * either sequence of draws. `jvp` / `jacfwd` inside vmap make their duals of the physical
 * inputs, as `grad` does (Note [Function transforms over the tape]).
 */
import { Tensor, ValueError, cat, defaultGenerator, enterVmapLevel, exitVmapLevel, makeBatched, unwrapBatched } from '@torch-ts/core';
import { broadcastSpec, treeLeaves, treeMap } from './pytree';
import { checkOutputs, isInDim, isOutDim, normDim, type InDim, type Randomness } from './vmap-common';
import { RANDOM_IN_ERROR_MODE, sameState, vmapPerSample } from './vmap-per-sample';

export type { InDim } from './vmap-common';
/** Per argument: a dim (or null for "not mapped"), or a structure matching that argument's arrays / objects. */
export type InDims = InDim | readonly unknown[];

export interface VmapOptions {
  /** Which dim of each input is mapped (default 0); null leaves an input unmapped. */
  inDims?: InDims;
  /** Where the batch dim goes in each output (default 0). */
  outDims?: number | readonly number[];
  /** Samples per chunk (default: the whole batch at once). */
  chunkSize?: number | null;
  /** What random ops inside `fn` do (default 'error'). */
  randomness?: Randomness;
}

/**
 * `torch.func.vmap(fn, { inDims, outDims, chunkSize, randomness })`: `fn` applied to each
 * sample of its mapped inputs, the outputs stacked (Note [vmap over batched tensors]).
 */
export function vmap<A extends unknown[], R>(fn: (...args: A) => R, options: VmapOptions = {}): (...args: A) => R {
  const { inDims = 0, outDims = 0, chunkSize = null, randomness = 'error' } = options;
  if (randomness !== 'error' && randomness !== 'different' && randomness !== 'same') {
    throw new ValueError(`vmap: randomness must be one of 'error', 'different' or 'same', got '${String(randomness)}'`);
  }
  if (chunkSize !== null && !(Number.isInteger(chunkSize) && chunkSize > 0)) {
    throw new ValueError(`vmap: chunkSize should be null or a positive integer, got ${String(chunkSize)}`);
  }
  return (...args: A): R => {
    const perArg = Array.isArray(inDims) ? inDims : args.map(() => inDims);
    if (perArg.length !== args.length) {
      throw new ValueError(
        `vmap: inDims is not compatible with the structure of the inputs: expected one entry per positional argument (${args.length}), got ${perArg.length}`,
      );
    }
    const dims = broadcastSpec('vmap: inDims', perArg, args, isInDim);
    const leaves = treeLeaves(args);
    let batch: number | null = null;
    const mapped = leaves.map((t, i) => {
      const d = dims[i];
      if (d === null || d === undefined) return null;
      if (t.dim() === 0) {
        throw new ValueError(`vmap: inDim ${d} was specified for a 0-dim Tensor (a scalar cannot be mapped over); use null for it instead`);
      }
      const dim = normDim('vmap: inDims', d, t.dim());
      const n = t.shape[dim]!;
      if (batch !== null && n !== batch) {
        const sizes = leaves.map((u, j) => (dims[j] === null ? 'null' : String(u.shape[normDim('vmap', dims[j]!, u.dim())])));
        throw new ValueError(`vmap: Expected all tensors to have the same size in the mapped dimension, got sizes [${sizes.join(', ')}] for the mapped dimension`);
      }
      batch = n;
      return dim;
    });
    if (batch === null) {
      throw new ValueError('vmap: at least one input must be a Tensor mapped over (an inDim that is not null), got none');
    }
    const size: number = batch;
    if (size === 0) throw new ValueError('vmap: the mapped dimension has size 0; vmap over an empty batch is not supported');
    if (randomness !== 'error') return vmapPerSample(fn, args, mapped, size, outDims, randomness) as R;
    const step = chunkSize ?? size;
    const chunks: unknown[] = [];
    for (let c = 0; c < size; c += step) chunks.push(runBatched(fn, args, mapped, c, Math.min(step, size - c), size, outDims));
    return (chunks.length === 1 ? chunks[0] : catChunks(chunks, outDims)) as R;
  };
}

/** One batched call of `fn` on samples [start, start + n) of the mapped inputs. */
function runBatched(fn: (...args: any[]) => unknown, args: unknown[], mapped: (number | null)[], start: number, n: number, size: number, outDims: number | readonly number[]): unknown {
  const before = defaultGenerator.getState();
  const level = enterVmapLevel(n);
  const wrappers: Tensor[] = [];
  try {
    const batched = treeMap(args, (t, k) => {
      const d = mapped[k];
      if (d === null || d === undefined) return t;
      const w = makeBatched(n === size ? t : t.narrow(d, start, n), d, level);
      wrappers.push(w);
      return w;
    }) as unknown[];
    const out = fn(...batched);
    if (!sameState(before, defaultGenerator.getState())) throw new ValueError(RANDOM_IN_ERROR_MODE);
    checkOutputs(out);
    const od = broadcastSpec('vmap: outDims', Array.isArray(outDims) ? outDims : outDims, out, isOutDim);
    return treeMap(out, (t, k) => {
      const d = normDim('vmap: outDims', od[k]!, t.dim() + 1);
      const u = unwrapBatched(t, level);
      // (an output that does not depend on a mapped input is the same for every sample)
      if (!u) return t.unsqueeze(d).expand([...t.shape.slice(0, d), n, ...t.shape.slice(d)]);
      return u.bdim === d ? u.value : u.value.movedim(u.bdim, d);
    });
  } finally {
    exitVmapLevel(level);
    for (const w of wrappers) w.dispose();
  }
}

function catChunks(chunks: unknown[], outDims: number | readonly number[]): unknown {
  const first = chunks[0];
  const od = broadcastSpec('vmap: outDims', outDims, first, isOutDim);
  const columns = chunks.map((c) => treeLeaves(c));
  return treeMap(first, (t, k) => cat(columns.map((col) => col[k]!), normDim('vmap: outDims', od[k]!, t.dim())));
}
