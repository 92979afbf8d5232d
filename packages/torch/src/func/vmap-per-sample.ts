/**
 * vmap's per-sample path (Note [vmap over batched tensors]): `fn` called on each sample and
 * the outputs stacked. It serves `randomness: 'same' | 'different'`, whose draws per sample
 * the batched path cannot reproduce.
 */
import { Tensor, ValueError, defaultGenerator, movedim, stack, type GeneratorState } from '@torch-ts/core';
import { broadcastSpec, treeLeaves, treeMap } from './pytree';
import { checkOutputs, isOutDim, normDim, type Randomness } from './vmap-common';

export function sameState(a: GeneratorState, b: GeneratorState): boolean {
  if (a.engine.index !== b.engine.index || a.deviceOffset !== b.deviceOffset) return false;
  if (a.nextFloatNormal !== b.nextFloatNormal || a.nextDoubleNormal !== b.nextDoubleNormal) return false;
  const x = a.engine.state;
  const y = b.engine.state;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

export const RANDOM_IN_ERROR_MODE =
  "vmap: called random operation while in randomness error mode. Please either use the 'same' or 'different' randomness flags on vmap or perform the randomness operation out of vmap";

/** `fn` on sample i of every mapped input (`mapped[k]`: leaf k's dim, null when unmapped), for i < size, the outputs stacked at `outDims`. */
export function vmapPerSample(
  fn: (...args: any[]) => unknown,
  args: unknown[],
  mapped: (number | null)[],
  size: number,
  outDims: number | readonly number[],
  randomness: Randomness,
): unknown {
  const start = defaultGenerator.getState();
  const results: unknown[] = [];
  for (let i = 0; i < size; i++) {
    if (randomness === 'same') defaultGenerator.setState(start);
    const sample = treeMap(args, (t, k) => (mapped[k] === null ? t : t.select(mapped[k]!, i))) as unknown[];
    const before = randomness === 'error' ? defaultGenerator.getState() : null;
    const out = fn(...sample);
    if (before && !sameState(before, defaultGenerator.getState())) throw new ValueError(RANDOM_IN_ERROR_MODE);
    results.push(out);
  }
  return stackOutputs(results, outDims);
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

