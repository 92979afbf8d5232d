import { TensorIterator, forEachRow, type RowLoop, type TensorImpl } from '@torch-ts/core';

const UNIT_STRIDES: readonly number[][] = [[], [1], [1, 1], [1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1, 1]];

/**
 * Calls `fn` once per innermost row of the pointwise iteration over `tensors` (the output
 * first, then the inputs, all of the output's shape; broadcast inputs carry stride 0), with
 * each operand's storage offset already in `base[k]` (Note [Row loop contract]).
 * When every operand is contiguous the whole op is one row of `numel` elements with unit
 * strides, and no TensorIterator is built. Nothing happens for an empty output.
 */
export function forEachRowOf(tensors: readonly TensorImpl[], fn: RowLoop): void {
  const out = tensors[0];
  const numel = out.numel;
  if (numel === 0) return;
  const nt = tensors.length;
  let contiguous = true;
  for (let k = 0; k < nt; k++) if (!tensors[k].isContiguous) contiguous = false;
  if (contiguous) {
    const base = new Int32Array(nt);
    for (let k = 0; k < nt; k++) base[k] = tensors[k].storageOffset;
    fn(numel, base, UNIT_STRIDES[nt] ?? new Array<number>(nt).fill(1));
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
