import { TorchError } from '../errors';
import type { TensorIterator } from './tensor-iterator';

/**
 * One innermost row: `n` elements; element i of operand k is at
 * `base[k] + i * innerStrides[k]` in that operand's storage (in elements).
 */
export type RowLoop = (n: number, base: Int32Array | Float64Array, innerStrides: readonly number[]) => void;

/**
 * Note [Row loop contract]
 * `forEachRow` calls `fn` once per innermost row, odometer-style over the outer dims
 * (fastest first, so storage is walked as closely in order as the operands allow). Per row
 * it does O(ntensors) additions amortised and allocates nothing; per call it allocates two
 * tiny typed arrays. For the kernel:
 *   - `base` and `innerStrides` are the driver's own buffers, reused for every row: read
 *     them, never write or keep them. `innerStrides` is `it.innerStrides`, constant per call.
 *   - `base` is an Int32Array whenever every reachable element index fits in int32 (always,
 *     in practice), so `base[k]` reads as a small integer and the kernel's index arithmetic
 *     stays int32 in the JIT; a Float64Array only past 2^31 - 1.
 *   - An output stride of 0 in the row (reductions, Note [Reduction iteration]) means all n
 *     elements land in one place: accumulate, reading the current value first.
 *   - Rows of one call never overlap in a pointwise op's output, so `forEachRowInRange` over
 *     disjoint ranges may run in parallel; in a reduction, split only where the output is
 *     not shared (not along reduced dims).
 */
export function forEachRow(it: TensorIterator, offsets: readonly number[], fn: RowLoop): void {
  forEachRowInRange(it, offsets, 0, it.numel, fn);
}

/**
 * `forEachRow` restricted to the elements with linear iteration index in [begin, end),
 * where the index counts in iteration order (`shape[0]` fastest); the first and last rows
 * may be partial. For splitting one op across workers.
 */
export function forEachRowInRange(
  it: TensorIterator,
  offsets: readonly number[],
  begin: number,
  end: number,
  fn: RowLoop,
): void {
  const nt = it.ntensors;
  if (offsets.length !== nt) {
    throw new TorchError(`forEachRow: expected ${nt} storage offsets, got ${offsets.length}`);
  }
  if (!(Number.isInteger(begin) && Number.isInteger(end) && 0 <= begin && begin <= end && end <= it.numel)) {
    throw new TorchError(`forEachRow: range [${begin}, ${end}) is not inside [0, ${it.numel})`);
  }
  if (begin === end) return;
  const base = fitsInt32(it, offsets) ? new Int32Array(nt) : new Float64Array(nt);
  const inner = it.innerStrides;
  const shape = it.shape;
  const ndim = it.ndim;
  const size0 = shape[0];

  // The multi-index of `begin` (dims 1..ndim-1 in `counter`, dim 0 in `c0`) and its base.
  const counter = new Float64Array(ndim);
  let rest = begin;
  for (let d = 0; d < ndim; d++) {
    counter[d] = rest % shape[d];
    rest = Math.floor(rest / shape[d]);
  }
  const steps = it.stepTable;
  const rewinds = it.rewindTable;
  for (let k = 0; k < nt; k++) {
    let b = offsets[k];
    for (let d = 0; d < ndim; d++) b += counter[d] * steps[d * nt + k];
    base[k] = b;
  }

  let c0 = counter[0];
  let left = end - begin;
  for (;;) {
    const n = size0 - c0 < left ? size0 - c0 : left;
    fn(n, base, inner);
    left -= n;
    if (left === 0) return;
    if (c0 !== 0) {
      // Only the first row can start mid-dim: go back to the start of dim 0.
      for (let k = 0; k < nt; k++) base[k] -= c0 * inner[k];
      c0 = 0;
    }
    // Odometer over dims 1..ndim-1; `left > 0` guarantees a dim that can still advance.
    for (let d = 1; ; d++) {
      const row = d * nt;
      if (++counter[d] < shape[d]) {
        for (let k = 0; k < nt; k++) base[k] += steps[row + k];
        break;
      }
      counter[d] = 0;
      for (let k = 0; k < nt; k++) base[k] -= rewinds[row + k];
    }
  }
}

/**
 * One 2-d tile: `n1` rows of `n0` elements; element (i, j) of operand k is at
 * `base[k] + i * innerStrides[k] + j * outerStrides[k]`.
 */
export type PlaneLoop = (
  n0: number,
  n1: number,
  base: Int32Array | Float64Array,
  innerStrides: readonly number[],
  outerStrides: readonly number[],
) => void;

/**
 * Like `forEachRow`, but hands the kernel the two fastest dims at once (PyTorch's
 * `loop2d`), once per plane, under the same Note [Row loop contract]. Worth it when rows
 * are short (a size-3 last dim, a broadcast column): a call per row costs about as much as
 * a few elements. A 1-d iteration is one plane with `n1 = 1` and outer strides 0.
 */
export function forEachPlane(it: TensorIterator, offsets: readonly number[], fn: PlaneLoop): void {
  const nt = it.ntensors;
  if (offsets.length !== nt) {
    throw new TorchError(`forEachPlane: expected ${nt} storage offsets, got ${offsets.length}`);
  }
  if (it.numel === 0) return;
  const base = fitsInt32(it, offsets) ? new Int32Array(nt) : new Float64Array(nt);
  for (let k = 0; k < nt; k++) base[k] = offsets[k];
  const shape = it.shape;
  const ndim = it.ndim;
  const n0 = shape[0];
  const n1 = ndim > 1 ? shape[1] : 1;
  const inner = it.innerStrides;
  const outer = it.outerStrides;
  const steps = it.stepTable;
  const rewinds = it.rewindTable;
  const counter = new Float64Array(ndim);
  let planes = it.numel / (n0 * n1);
  for (;;) {
    fn(n0, n1, base, inner, outer);
    if (--planes === 0) return;
    for (let d = 2; ; d++) {
      const row = d * nt;
      if (++counter[d] < shape[d]) {
        for (let k = 0; k < nt; k++) base[k] += steps[row + k];
        break;
      }
      counter[d] = 0;
      for (let k = 0; k < nt; k++) base[k] -= rewinds[row + k];
    }
  }
}

const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;

function fitsInt32(it: TensorIterator, offsets: readonly number[]): boolean {
  for (let k = 0; k < offsets.length; k++) {
    if (offsets[k] + it.spanHi[k] > INT32_MAX || offsets[k] + it.spanLo[k] < INT32_MIN) return false;
  }
  return true;
}
