import { TensorIterator, forEachRow, type RowLoop, type TensorImpl } from '@torch-ts/core';

const UNIT_STRIDES: readonly number[][] = [[], [1], [1, 1], [1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1, 1]];

/**
 * Note [Long rows in pieces]
 * V8 optimises a function that runs one very long loop only by on-stack replacement, and
 * that code is often thrown away when the loop exits into paths it never saw (measured: a
 * 16M-element float32 sum stuck at interpreter speed, 5x slower, call after call). Row
 * kernels called many times on shorter rows are optimised as whole functions, with feedback
 * for every path. So a long contiguous row is handed out in pieces of ROW_PIECE elements;
 * the per-call cost is nothing at that length, and rows stay rows (Note [Row loop contract]).
 */
export const ROW_PIECE = 1 << 15;

/**
 * Calls `fn` once per innermost row of the pointwise iteration over `tensors` (the output
 * first, then the inputs, all of the output's shape; broadcast inputs carry stride 0), with
 * each operand's storage offset already in `base[k]` (Note [Row loop contract]).
 * When every operand is contiguous the whole op is one row of `numel` elements with unit
 * strides, handed out in pieces (Note [Long rows in pieces]), and no TensorIterator is
 * built. Nothing happens for an empty output.
 */
export function forEachRowOf(tensors: readonly TensorImpl[], fn: RowLoop): void {
  const out = tensors[0];
  const numel = out.numel;
  if (numel === 0) return;
  const nt = tensors.length;
  let contiguous = true;
  for (let k = 0; k < nt; k++) if (!tensors[k].isContiguous) contiguous = false;
  if (contiguous) {
    // Note [Long rows in pieces]: the one row of a contiguous op goes in ROW_PIECE pieces.
    const base = new Int32Array(nt);
    const unit = UNIT_STRIDES[nt] ?? new Array<number>(nt).fill(1);
    for (let start = 0; start < numel; start += ROW_PIECE) {
      for (let k = 0; k < nt; k++) base[k] = tensors[k].storageOffset + start;
      fn(numel - start < ROW_PIECE ? numel - start : ROW_PIECE, base, unit);
    }
    return;
  }
  const it = new TensorIterator(
    out.sizes,
    tensors.map((t) => t.strides),
  );
  forEachRow(
    it,
    tensors.map((t) => t.storageOffset),
    fn,
  );
}

/**
 * Note [One-row fast path]
 * A small op on contiguous tensors (every op of a tiny model, the scalar ops of an optimizer)
 * is one row no longer than ROW_PIECE. Its driver calls the row kernel once, directly, with
 * each operand's storage offset and unit strides: what forEachRowOf would hand out, without
 * the operand array, the row closure and the offsets array it allocates per call.
 */
export function isOneRow(out: TensorImpl, a: TensorImpl, b?: TensorImpl): boolean {
  const n = out.numel;
  return n > 0 && n <= ROW_PIECE && out.isContiguous && a.isContiguous && (b === undefined || b.isContiguous);
}

/**
 * Row iteration over geometries that are not all tensors: each operand is given by its
 * strides (over `sizes`) and storage offset. Used for scratch accumulators that live beside
 * a tensor (reductions) and for the output of a reduction written back from them.
 */
export function forEachRowOfStrides(
  sizes: readonly number[],
  strides: readonly (readonly number[])[],
  offsets: readonly number[],
  fn: RowLoop,
  reduction = false,
): void {
  let numel = 1;
  for (const s of sizes) numel *= s;
  if (numel === 0) return;
  forEachRow(new TensorIterator(sizes, strides, { reduction }), offsets, fn);
}
