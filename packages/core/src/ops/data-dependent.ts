import { backendKeyOf } from '../dispatch/dispatch-key';
import type { Device } from '../device';
import { TorchError } from '../errors';
import type { TensorImpl } from '../tensor/tensor-impl';
import { backendOf, implOf } from './registry';

/**
 * Note [Data-dependent sizes on async-read backends]
 * nonzero, masked_select and indexing by a bool mask make a result whose SIZE depends on the
 * data: the count of true elements must reach the host before the output is allocated (CUDA
 * syncs there too). A backend that cannot read synchronously (WebGPU: mapAsync only) says so
 * by implementing `nonzeroCountAsync`; then:
 *  - the synchronous forms (`nonzero`, `maskedSelect`, `x.index(mask)`) throw a TorchError
 *    naming their async form, after the argument checks and before any work (`countOf`,
 *    `checkCountReadable`), so nothing is allocated or enqueued;
 *  - the async forms (`nonzeroAsync`, `maskedSelectAsync`, `x.indexAsync`) first await the
 *    counts (`nonzeroCountAsync`: the count passes on the device and a 4-byte read, never the
 *    whole mask), then run the SAME synchronous op with the counts known (`withKnownCounts`:
 *    a queue that `countOf` takes from in call order, set and cleared within one synchronous
 *    section), so meta, kernels and autograd are those of the sync form. On a backend that
 *    counts synchronously (CPU) an async form is its sync form;
 *  - ops whose result size does NOT depend on the data need no count at all:
 *    masked_scatter_ (the k-th true position takes source[k]) runs the backend's
 *    `maskedScatterOrdered` (a device prefix sum over the mask; "source too short" is a
 *    device-side error), and `indexPut_` with one bool mask is a composite of it and `where`
 *    (indexing.ts, `maskedIndexPut`), so neither syncs.
 * unique is the same pattern: its sync form refuses (after its argument checks) and
 * `uniqueAsync` awaits `uniqueCountAsync` over the rows unique will make (sorting.ts), then
 * runs `unique` with that count known (taken from the same queue; the impl gets it).
 * If the data changes between the count and the kernels (an in-place op enqueued while the
 * count was being read), the kernels still never write beyond the counted size.
 */
let knownCounts: number[] | null = null;

/** Whether tensors on `device` can only be read asynchronously (their backend implements nonzeroCountAsync). */
export function countsAreAsync(device: Device): boolean {
  return typeof backendOf(backendKeyOf(device.type))?.impls.nonzeroCountAsync === 'function';
}

/** Runs `fn` with the counts its nonzero calls will ask for, in call order (Note [Data-dependent sizes on async-read backends]). */
export function withKnownCounts<T>(counts: readonly number[], fn: () => T): T {
  const saved = knownCounts;
  knownCounts = counts.slice();
  try {
    return fn();
  } finally {
    knownCounts = saved;
  }
}

/** The next known count, or null (taken by nonzero's meta). */
export function takeKnownCount(): number | null {
  return knownCounts !== null && knownCounts.length > 0 ? knownCounts.shift()! : null;
}

/** Whether a count is waiting for the next nonzero (inside `withKnownCounts`). */
export function hasKnownCount(): boolean {
  return knownCounts !== null && knownCounts.length > 0;
}

/** The number of nonzero elements of `self`, awaited on an async-read backend (a 4-byte read), else counted synchronously. */
export async function countNonzeroAsync(self: TensorImpl): Promise<number> {
  const b = backendOf(backendKeyOf(self.device.type));
  if (!b) throw new TorchError(`nonzero: no backend for device ${self.device.type}`);
  const f = b.impls.nonzeroCountAsync;
  if (typeof f === 'function') return f(self);
  return implOf(b, 'nonzeroCount', 'nonzero')(self);
}

/**
 * The number of distinct rows of `rows` (unique's [n, m] contiguous rows), awaited on an
 * async-read backend (`uniqueCountAsync`: a device sort, the adjacent differences counted, a
 * 4-byte read). Only for such backends: elsewhere unique counts in its kernel.
 */
export async function countUniqueAsync(rows: TensorImpl): Promise<number> {
  const b = backendOf(backendKeyOf(rows.device.type));
  if (!b) throw new TorchError(`unique: no backend for device ${rows.device.type}`);
  return implOf(b, 'uniqueCountAsync', 'unique')(rows);
}

/** The async form each data-dependent op names when its sync form is refused. */
const ASYNC_FORMS: Readonly<Record<string, string>> = {
  nonzero: 'await torch.nonzeroAsync(x)',
  masked_select: 'await torch.maskedSelectAsync(x, mask)',
  unique: 'await torch.uniqueAsync(x, options)',
  unique_consecutive: 'await torch.uniqueConsecutiveAsync(x, options)',
  bincount: 'await torch.bincountAsync(x, weights, minlength)',
  index: 'await x.indexAsync(...indices)',
  index_put_:
    "index by the bool mask alone (`x.indexPut_([mask], v)` runs on the device), or make index tensors first with `await torch.nonzeroAsync(mask, { asTuple: true })`",
};

/** The refusal of a sync data-dependent op on an async-read device (Note [Data-dependent sizes on async-read backends]). */
export function dataDependentError(op: string, device: Device): TorchError {
  const form = ASYNC_FORMS[op] ?? ASYNC_FORMS.nonzero;
  const use = op === 'index_put_' ? form : `use \`${form}\``;
  return new TorchError(
    `${op}: the size of the result depends on the data, and ${device.type} tensors cannot be read synchronously; ${use}`,
  );
}

/** Throws the refusal unless counts can be had now (a sync backend, or counts known). */
export function checkCountReadable(op: string, device: Device): void {
  if (!hasKnownCount() && countsAreAsync(device)) throw dataDependentError(op, device);
}


/** A stricter source check for the next masked_scatter_ (indexPut_ with a mask: the count must equal the values'). */
export interface ScatterCheck {
  readonly exact: boolean;
  readonly key: string;
  readonly error: (count: number) => TorchError;
}
let scatterCheck: ScatterCheck | null = null;

export function takeScatterCheck(): ScatterCheck | null {
  const c = scatterCheck;
  scatterCheck = null;
  return c;
}

/** Runs `fn` (one masked_scatter_ call) with `check` in place of "source too short" (on backends with maskedScatterOrdered). */
export function withScatterCheck<T>(check: ScatterCheck, fn: () => T): T {
  scatterCheck = check;
  try {
    return fn();
  } finally {
    scatterCheck = null;
  }
}

