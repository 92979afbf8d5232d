/**
 * `torch.func.vmap`: maps a function over a batch dimension of its inputs.
 *
 * Note [vmap by per-sample calls]
 * PyTorch's vmap wraps each input in a BatchedTensor (a Batched dispatch key whose kernels
 * move the batch dimension and call the op once) and falls back to a loop over the batch for
 * ops without a batching rule. This vmap is, for now, that fallback applied to the whole
 * function: it selects sample i of every mapped input (a view, `select(inDim, i)`), calls
 * `fn` on the samples, and stacks the outputs along `outDims`. The results are the same as
 * PyTorch's (the value of a function applied per sample is what vmap defines); only the
 * speed differs, by the per-call overhead times the batch size. Because `fn` sees plain
 * tensors, everything composes with it as it does without vmap: nested vmap, `grad` inside
 * vmap (per-sample gradients), autograd through vmap, in-place ops on fresh tensors. A
 * Batched dispatch key with per-op batching rules can replace the loop behind this same API.
 *
 * `randomness` (PyTorch's flag): 'error' throws when `fn` draws from the default generator,
 * 'different' lets each sample draw its own values (the loop's natural behaviour), and
 * 'same' replays the generator's state for every sample so each sees the same draws.
 * `chunkSize` is validated and honoured as a grouping of the samples; with per-sample calls
 * it changes neither the results nor the peak memory of one call.
 */
import { Tensor, ValueError, defaultGenerator, movedim, stack, type GeneratorState } from '@torch-ts/core';
import { broadcastSpec, treeLeaves, treeMap } from './pytree';

export type InDim = number | null;
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
  randomness?: 'error' | 'different' | 'same';
}

const isInDim = (s: unknown): s is InDim => s === null || typeof s === 'number';
const isOutDim = (s: unknown): s is number => typeof s === 'number';

function sameState(a: GeneratorState, b: GeneratorState): boolean {
  if (a.engine.index !== b.engine.index || a.deviceOffset !== b.deviceOffset) return false;
  if (a.nextFloatNormal !== b.nextFloatNormal || a.nextDoubleNormal !== b.nextDoubleNormal) return false;
  const x = a.engine.state;
  const y = b.engine.state;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function normDim(where: string, dim: number, ndim: number): number {
  if (!Number.isInteger(dim) || dim < -ndim || dim >= ndim) {
    throw new ValueError(`${where}: dim ${dim} is out of bounds for a tensor of dimension ${ndim} (expected a dim in [${-ndim}, ${ndim - 1}])`);
  }
  return dim < 0 ? dim + ndim : dim;
}

/**
 * `torch.func.vmap(fn, { inDims, outDims, chunkSize, randomness })`: `fn` applied to each
 * sample of its mapped inputs, the outputs stacked (Note [vmap by per-sample calls]).
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
    const start = defaultGenerator.getState();
    const results: unknown[] = [];
    const step = chunkSize ?? Math.max(size, 1);
    for (let c = 0; c < size; c += step) {
      for (let i = c; i < Math.min(size, c + step); i++) {
        if (randomness === 'same') defaultGenerator.setState(start);
        const sample = treeMap(args, (t, k) => (mapped[k] === null ? t : t.select(mapped[k]!, i))) as A;
        const before = randomness === 'error' ? defaultGenerator.getState() : null;
        const out = fn(...sample);
        if (before && !sameState(before, defaultGenerator.getState())) {
          throw new ValueError(
            "vmap: called random operation while in randomness error mode. Please either use the 'same' or 'different' randomness flags on vmap or perform the randomness operation out of vmap",
          );
        }
        results.push(out);
      }
    }
    return stackOutputs(results, outDims) as R;
  };
}

function stackOutputs(results: unknown[], outDims: number | readonly number[]): unknown {
  const first = results[0];
  const perOut = Array.isArray(outDims) ? outDims : null;
  const dims = broadcastSpec('vmap: outDims', perOut ?? outDims, first, isOutDim);
  const columns: Tensor[][] = dims.map(() => []);
  for (const r of results) {
    const leaves = treeLeaves(r);
    if (leaves.length !== dims.length) {
      throw new ValueError(`vmap: fn must return the same structure for every sample, got ${dims.length} tensors and then ${leaves.length}`);
    }
    leaves.forEach((t, k) => columns[k]!.push(t));
  }
  checkOutputs(first);
  return treeMap(first, (_t, k) => {
    const col = columns[k]!;
    const ndim = col[0]!.dim() + 1;
    const d = normDim('vmap: outDims', dims[k]!, ndim);
    const stacked = stack(col, 0);
    return d === 0 ? stacked : movedim(stacked, 0, d);
  });
}

function checkOutputs(out: unknown): void {
  const bad = (v: unknown): boolean =>
    v instanceof Tensor ? false : Array.isArray(v) ? v.some(bad) : v !== null && typeof v === 'object' ? Object.values(v).some(bad) : true;
  if (bad(out)) {
    throw new ValueError(`vmap: fn must only return Tensors (or arrays / objects of them), got ${out === null ? 'null' : typeof out} among its outputs`);
  }
}
