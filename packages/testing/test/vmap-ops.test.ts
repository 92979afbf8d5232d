/**
 * vmap against a Python-style loop over samples for every op of the OpInfo table (core Note
 * [Batched tensors]): for one real golden case per op, a batch of 3 samples is made of each
 * tensor input (the input, its elements reversed, its elements rolled by one: the same
 * values, so each sample stays in the op's domain, in other places, so a rule that mixed
 * samples or reduced over the batch would differ), and `vmap(op)` must equal the stack of
 * the op's per-sample results, within the op's tolerance; once with every tensor input
 * mapped, once with only the first (the others unbatched, broadcast over the batch). Ops
 * whose loop raises for a rearranged sample (a domain that needs order: sorted boundaries,
 * a positive-definite matrix) are compared on their first variant only where it ran. The ops
 * that ran the per-sample fallback during the sweep (core's traceBatchedFallback) must be
 * exactly STILL_LOOPED.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { OP_TABLE, DEFAULT_TOLERANCE, loadOpGoldens, readBackSync, compareReadBacks, type GoldenCase, type OpInput, type OpInfo, type OpResult } from '../src';
import { makeInputs } from '../src/inputs';
import { traceBatchedFallback } from '@torch-ts/core';

const B = 3;

/**
 * Where vmap raises rather than loop: training batch norm with unbatched running stats (each
 * sample would update them; functorch's message), and front ends whose result SHAPE depends
 * on values they read on the host (bincount's and oneHot's length, histc's and histogram's
 * range): reading a batched tensor's values is refused (core Note [Batched tensors]).
 */
const DATA_DEPENDENT = /data-dependent control flow/;
const DYNAMIC_SHAPE = /^vmap: We do not support batching operators that can output dynamic shape/;
const VMAP_RAISES: Readonly<Record<string, RegExp>> = {
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
const STILL_LOOPED = [
  'bucketize.Tensor', // batched boundaries (functorch loops)
  'masked_scatter_', // each sample consumes its source in its own order (functorch loops)
  'take', // (functorch loops)
];

function samplesOf(x: Tensor): Tensor[] {
  if (x.dim() === 0) return [x, x, x];
  const flat = x.flatten();
  return [x, flat.flip([0]).reshape(x.shape), flat.roll(1, 0).reshape(x.shape)];
}

function firstCase(op: OpInfo, goldens: ReadonlyMap<string, readonly GoldenCase[]>): GoldenCase | undefined {
  const cases = (goldens.get(op.name) ?? []).filter((c) => !c.error && !c.dtype.startsWith('complex') && op.samples.includes(c.sample));
  return cases.find((c) => c.dtype === 'float32' && c.inputs.some((i) => 'shape' in i && i.shape.length > 0)) ?? cases.find((c) => c.inputs.some((i) => 'shape' in i && i.shape.length > 0));
}

const leaves = (r: OpResult): Tensor[] => (Array.isArray(r) ? [...(r as Tensor[])] : [r as Tensor]);

describe('vmap equals a loop over samples', () => {
  it('for one golden case of every OpInfo op, all inputs mapped and only the first mapped', () => {
    const goldens = loadOpGoldens();
    const failures: string[] = [];
    let compared = 0;
    let loopRaised = 0;
    let noCase = 0;
    const warn = console.warn;
    console.warn = () => undefined;
    let fallbacks: string[] = [];
    try {
      fallbacks = traceBatchedFallback(() => {
      for (const op of OP_TABLE) {
        if (op.randomCheck) continue; // (random draws: vmap's randomness modes, in torch's func.test.ts)
        const c = firstCase(op, goldens);
        if (!c) {
          noCase++;
          continue;
        }
        torch.tidy(() => {
          // (fresh inputs for each side: an op may update an input in place, batchNorm's running stats)
          const inputs = makeInputs(c, 'cpu');
          const tensorAt = inputs.map((x, i) => (typeof x === 'object' ? i : -1)).filter((i) => i >= 0);
          for (const only of [false, true]) {
            const mapped = only ? tensorAt.slice(0, 1) : tensorAt;
            const per = inputs.map((x, i) => (mapped.includes(i) ? samplesOf(x as Tensor) : null));
            let expected: Tensor[];
            try {
              const own = makeInputs(c, 'cpu');
              const rows = Array.from({ length: B }, (_, k) => leaves(op.call(own.map((x, i) => (per[i] ? per[i]![k]! : x)) as OpInput[], c.kwargs)));
              expected = rows[0]!.map((_, j) => torch.stack(rows.map((r) => r[j]!)));
            } catch {
              loopRaised++;
              continue;
            }
            const fresh = makeInputs(c, 'cpu');
            const batched = fresh.map((x, i) => (per[i] ? torch.stack(samplesOf(x as Tensor)) : x));
            const inDims = inputs.map((_, i) => (per[i] ? 0 : null));
            const where = `${op.name} (${c.sample}, ${c.dtype}${only ? ', first input mapped' : ''})`;
            let got: Tensor[];
            const raises = VMAP_RAISES[`${op.name}/${only ? 'first' : 'all'}`];
            if (raises && (op.name !== 'batchNorm' || c.kwargs.training === true)) {
              expect(() => torch.func.vmap((...xs: OpInput[]) => op.call(xs, c.kwargs), { inDims })(...batched)).toThrow(raises);
              compared++;
              continue;
            }
            try {
              got = leaves(torch.func.vmap((...xs: OpInput[]) => op.call(xs, c.kwargs), { inDims })(...batched) as OpResult);
            } catch (e) {
              failures.push(`${where}: vmap raised ${(e as Error).message.slice(0, 200)}`);
              continue;
            }
            const tol = op.tolerance?.[c.dtype] ?? DEFAULT_TOLERANCE[c.dtype] ?? null;
            if (got.length !== expected.length) failures.push(`${where}: ${got.length} outputs, expected ${expected.length}`);
            got.forEach((g, j) => {
              const problems = compareReadBacks(readBackSync(g), readBackSync(expected[j]!), { tolerance: tol });
              if (problems.length > 0) failures.push(`${where} output ${j}: ${problems.slice(0, 3).join('; ')}`);
            });
            compared++;
          }
        });
      }
      });
    } finally {
      console.warn = warn;
    }
    // (the counts, for the report: how much of the table the sweep reached)
    console.log(`vmap sweep: ${compared} comparisons, ${loopRaised} loop references raised, ${noCase} ops without a real case; ${fallbacks.length} ops ran the per-sample fallback`);
    expect(failures.join("\n")).toBe("");
    expect(fallbacks).toEqual(STILL_LOOPED);
    expect(compared).toBeGreaterThan(600);
  });
});
