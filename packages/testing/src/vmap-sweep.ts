/**
 * Note [The vmap sweep]
 * vmap against a Python-style loop over samples, op by op (core Note [Batched tensors]): for
 * one real golden case of an op, a batch of 3 samples is made of each tensor input (the
 * input, its elements reversed, its elements rolled by one: the same values, so each sample
 * stays in the op's domain, in other places, so a rule that mixed samples or reduced over the
 * batch would differ), and `vmap(op)` must equal the stack of the op's per-sample results,
 * within the op's tolerance; once with every tensor input mapped ('all'), once with only the
 * first ('first': the others unbatched, broadcast over the batch). Where the loop itself
 * raises for a rearranged sample (a domain that needs order: sorted boundaries, a
 * positive-definite matrix) there is nothing to compare. Where vmap must refuse (VMAP_RAISES)
 * the check is that it does, with functorch's message.
 * The CPU sweep (test/vmap-ops.test.ts) runs this on every op with the loop on the CPU too;
 * the WebGPU shards (test/ops-webgpu-suite.ts) run vmap on WebGPU against the CPU loop on the
 * same float32 inputs (the shard's oracle checks have shown the op's WebGPU forward equals
 * the CPU's on that case, so the CPU loop stands for the WebGPU one at no device time).
 */
import * as torch from '@torch-ts/torch';
import type { DeviceLike, Tensor } from '@torch-ts/torch';
import type { GoldenCase } from './goldens';
import { makeInputs } from './inputs';
import { DEFAULT_TOLERANCE } from './op-info/common';
import type { OpInfo, OpInput, OpResult, Tolerance } from './op-info/types';

/** The batch size of the sweep. */
export const VMAP_BATCH = 3;

/**
 * Where vmap raises rather than loop: training batch norm with unbatched running stats (each
 * sample would update them; functorch's message), and front ends whose result SHAPE depends
 * on values they read on the host (bincount's and oneHot's length, histc's and histogram's
 * range): reading a batched tensor's values is refused (core Note [Batched tensors]).
 * Keys: `op/all` (every tensor input mapped), `op/first` (only the first).
 */
const DATA_DEPENDENT = /data-dependent control flow/;
const DYNAMIC_SHAPE = /^vmap: We do not support batching operators that can output dynamic shape/;
export const VMAP_RAISES: Readonly<Record<string, RegExp>> = {
  'batchNorm/first': /running_mean or running_var, which will be updated in place, were not batched/,
  'bincount/all': DATA_DEPENDENT,
  'bincount/first': DATA_DEPENDENT,
  'histc/all': DATA_DEPENDENT,
  'histc/first': DATA_DEPENDENT,
  'histogram/all': DATA_DEPENDENT,
  'histogram/first': DATA_DEPENDENT,
  'oneHot/all': DATA_DEPENDENT,
  'oneHot/first': DATA_DEPENDENT,
  // (functorch's refusals, even where the samples' shapes agree)
  'nonzero/all': DYNAMIC_SHAPE,
  'nonzero/first': DYNAMIC_SHAPE,
  'unique/all': DYNAMIC_SHAPE,
  'unique/first': DYNAMIC_SHAPE,
  'maskedSelect/all': /^vmap: Attempted to vmap over `mask` in torch.masked_select/,
};

/**
 * The ops the sweep still runs through the per-sample fallback (a rule covers some of their
 * argument combinations at most): the list may only shrink. An op leaving it gets a rule,
 * whose results the sweep compares with the loop's. `functorch loops` marks the cases
 * functorch 1.13 itself runs per sample (its vmap warns "There is a performance drop because
 * we have not yet implemented the batching rule for aten::<op>", checked with
 * /usr/bin/python3: functorch.vmap of torch.take, of torch.bucketize over batched
 * boundaries, of masked_scatter_; it loops index_fill_ and index_add_ with a batched index
 * too, which torch-ts runs per sample inside their rules, as functorch's index_add rule).
 */
export const STILL_LOOPED: readonly string[] = [
  'bucketize.Tensor', // batched boundaries (functorch loops)
  'masked_scatter_', // each sample consumes its source in its own order (functorch loops)
  'take', // (functorch loops)
];

export type VmapVariant = 'all' | 'first';
export const VMAP_VARIANTS: readonly VmapVariant[] = ['all', 'first'];

/** The batch's samples of `x`: itself, its elements reversed, its elements rolled by one. */
export function vmapSamplesOf(x: Tensor): Tensor[] {
  if (x.dim() === 0) return [x, x, x];
  const flat = x.flatten();
  return [x, flat.flip([0]).reshape(x.shape), flat.roll(1, 0).reshape(x.shape)];
}

/** The real cases of `op` the sweep may use: no error, not complex, a sample the entry still has. */
const realCases = (op: OpInfo, goldens: ReadonlyMap<string, readonly GoldenCase[]>): GoldenCase[] =>
  (goldens.get(op.name) ?? []).filter((c) => !c.error && !c.dtype.startsWith('complex') && op.samples.includes(c.sample));

const hasTensorWithDims = (c: GoldenCase) => c.inputs.some((i) => 'shape' in i && i.shape.length > 0);

/**
 * The CPU sweep's case of `op`: its first float32 case with a tensor input of at least one
 * dim, else its first such case in any real dtype.
 */
export function vmapCase(op: OpInfo, goldens: ReadonlyMap<string, readonly GoldenCase[]>): GoldenCase | undefined {
  const cases = realCases(op, goldens);
  return cases.find((c) => c.dtype === 'float32' && hasTensorWithDims(c)) ?? cases.find(hasTensorWithDims);
}

/**
 * A device mirror's case of `op`: the CPU sweep's (`vmapCase`) where it is float32 and `runs`
 * (on the device: not an xfail there), since VMAP_RAISES and STILL_LOOPED are written for
 * those cases; else the smallest float32 case with a tensor input of at least one dim that runs.
 */
export function vmapDeviceCase(op: OpInfo, goldens: ReadonlyMap<string, readonly GoldenCase[]>, runs: (c: GoldenCase) => boolean): GoldenCase | undefined {
  const cpu = vmapCase(op, goldens);
  if (cpu && cpu.dtype === 'float32' && runs(cpu)) return cpu;
  const numel = (c: GoldenCase) => c.inputs.reduce((n, i) => n + ('shape' in i ? i.shape.reduce((a, b) => a * b, 1) : 0), 0);
  const cases = realCases(op, goldens).filter((c) => c.dtype === 'float32' && hasTensorWithDims(c) && numel(c) > 0 && runs(c));
  return cases.sort((a, b) => numel(a) - numel(b))[0];
}

/** What one variant of a case gave. Tensors in `got` and `expected` are the caller's to dispose. */
export type VmapRun =
  /** The per-sample loop itself raised: nothing to compare. */
  | { readonly kind: 'loop-raised'; readonly where: string }
  /** A VMAP_RAISES case: `problem` is null when vmap raised as it must. */
  | { readonly kind: 'refused'; readonly where: string; readonly problem: string | null }
  | { readonly kind: 'vmap-raised'; readonly where: string; readonly problem: string }
  | { readonly kind: 'ran'; readonly where: string; readonly got: Tensor[]; readonly expected: Tensor[]; readonly tolerance: Tolerance | null };

const leaves = (r: OpResult): Tensor[] => (Array.isArray(r) ? [...(r as Tensor[])] : [r as Tensor]);

/**
 * Runs one variant of the sweep on case `c` of `op`: `vmap(op)` over inputs on `device`, and
 * the per-sample loop over the same values on `loopDevice`. Fresh inputs for each side: an op
 * may update an input in place (batchNorm's running stats). Call it inside `torch.tidy`,
 * which keeps the returned tensors.
 */
export function runVmapCase(op: OpInfo, c: GoldenCase, variant: VmapVariant, device: DeviceLike = 'cpu', loopDevice: DeviceLike = device): VmapRun {
  const only = variant === 'first';
  const where = `${op.name} (${c.sample}, ${c.dtype}${only ? ', first input mapped' : ''})`;
  const loopInputs = makeInputs(c, loopDevice);
  const tensorAt = loopInputs.map((x, i) => (typeof x === 'object' ? i : -1)).filter((i) => i >= 0);
  const mapped = only ? tensorAt.slice(0, 1) : tensorAt;
  const per = loopInputs.map((x, i) => (mapped.includes(i) ? vmapSamplesOf(x as Tensor) : null));
  let expected: Tensor[];
  try {
    const own = makeInputs(c, loopDevice);
    const rows = Array.from({ length: VMAP_BATCH }, (_, k) => leaves(op.call(own.map((x, i) => (per[i] ? per[i]![k]! : x)) as OpInput[], c.kwargs)));
    expected = rows[0]!.map((_, j) => torch.stack(rows.map((r) => r[j]!)));
  } catch {
    return { kind: 'loop-raised', where };
  }
  const fresh = makeInputs(c, device);
  const batched = fresh.map((x, i) => (per[i] ? torch.stack(vmapSamplesOf(x as Tensor)) : x));
  const inDims = fresh.map((_, i) => (per[i] ? 0 : null));
  const vmapped = () => torch.func.vmap((...xs: OpInput[]) => op.call(xs, c.kwargs), { inDims })(...batched) as OpResult;
  const raises = VMAP_RAISES[`${op.name}/${variant}`];
  if (raises && (op.name !== 'batchNorm' || c.kwargs.training === true)) {
    try {
      vmapped();
    } catch (e) {
      const m = (e as Error).message;
      return { kind: 'refused', where, problem: raises.test(m) ? null : `vmap raised ${m.slice(0, 200)}, expected ${raises}` };
    }
    return { kind: 'refused', where, problem: `vmap ran, but must raise ${raises}` };
  }
  let got: Tensor[];
  try {
    got = leaves(vmapped());
  } catch (e) {
    return { kind: 'vmap-raised', where, problem: `vmap raised ${(e as Error).message.slice(0, 200)}` };
  }
  return { kind: 'ran', where, got, expected, tolerance: op.tolerance?.[c.dtype] ?? DEFAULT_TOLERANCE[c.dtype] ?? null };
}
