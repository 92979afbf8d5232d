import { IndexError, TorchError, fmtShape } from '../errors';
import { rowMajorStrides } from './layout';
import { TensorIterator } from './tensor-iterator';

/**
 * Note [Reduction iteration]
 * A reduction runs on the pointwise machinery: the output is viewed at the input's rank
 * with stride 0 along every reduced dim (`outStrides`), so iterating the input's shape
 * with operands [output, input] visits each input element once and maps it to the output
 * element it reduces into. The dims are ordered by the INPUT's strides (the reduction
 * option of TensorIterator), so memory is read in order:
 *   - sum over the last, contiguous dim of [M, K]: rows run along K with output stride 0;
 *     the kernel folds the row into one value and combines it with `out[base[0]]`.
 *   - sum over dim 0 of [M, K]: rows run along K with output and input stride 1; each of
 *     the M rows is combined elementwise into the same output row.
 * So a kernel must handle both inner output strides: 0 (fold the row, then combine with
 * the stored value) and nonzero (combine element by element); the output holds the
 * reduction's identity before the loop, and an empty input (no rows at all) leaves it so.
 * PyTorch instead puts reduced dims innermost and lets its 2-d kernels vectorise "outer"
 * reductions; with a 1-d row callback, input order is the cache-friendly choice.
 */
export interface ReductionGeometry {
  /** Reduced dims, wrapped into [0, ndim), ascending, unique (all dims for `[]`). */
  readonly dims: readonly number[];
  /** `reduced[d]` for every input dim d. */
  readonly reduced: readonly boolean[];
  /** Result sizes with reduced dims dropped (keepdim false)... */
  readonly sizes: number[];
  /** ...and kept as 1 (keepdim true). */
  readonly keepdimSizes: number[];
  /** The sizes and row-major strides of a NEW result, as `keepdim` asks (PyTorch allocates reductions contiguous). */
  readonly resultSizes: number[];
  readonly resultStrides: number[];
  /** The result's strides restrided to the input's rank, 0 along reduced dims. */
  readonly outStrides: number[];
  /** The iteration over [output (outStrides), input]: run it with `forEachRow`. */
  readonly iterator: TensorIterator;
}

/**
 * The geometry of reducing an input over `dims` (an empty list reduces every dim, as
 * `sum(dim=[])` does in PyTorch 1.13). Negative dims count from the end; a 0-d input
 * accepts dims 0 and -1 and reduces nothing away.
 */
export function reductionGeometry(
  op: string,
  inputSizes: readonly number[],
  inputStrides: readonly number[],
  dims: readonly number[],
  keepdim: boolean,
): ReductionGeometry {
  const ndim = inputSizes.length;
  if (inputStrides.length !== ndim) {
    throw new TorchError(`${op}: input sizes ${fmtShape(inputSizes)} but strides ${fmtShape(inputStrides)}`);
  }
  const reduced = new Array<boolean>(ndim).fill(dims.length === 0);
  for (const dim of dims) {
    const d = wrapDim(op, dim, ndim);
    if (ndim === 0) continue;
    if (reduced[d]) throw new TorchError(`${op}: dim ${d} appears multiple times in the list of dims`);
    reduced[d] = true;
  }
  const sizes: number[] = [];
  const keepdimSizes: number[] = [];
  const wrapped: number[] = [];
  for (let d = 0; d < ndim; d++) {
    keepdimSizes.push(reduced[d] ? 1 : inputSizes[d]);
    if (reduced[d]) wrapped.push(d);
    else sizes.push(inputSizes[d]);
  }
  const resultSizes = keepdim ? keepdimSizes : sizes;
  const resultStrides = rowMajorStrides(resultSizes);
  const outStrides = restrideReductionOutput(op, resultSizes, resultStrides, reduced, keepdim);
  const iterator = new TensorIterator(inputSizes, [outStrides, inputStrides], { reduction: true });
  return { dims: wrapped, reduced, sizes, keepdimSizes, resultSizes, resultStrides, outStrides, iterator };
}

/**
 * The strides, at the input's rank, of a reduction result with the given sizes and strides
 * (e.g. a preallocated `out=` tensor): 0 along reduced dims, the result's own strides
 * elsewhere. Build `new TensorIterator(inputSizes, [thoseStrides, inputStrides],
 * { reduction: true })` to run into it.
 */
export function restrideReductionOutput(
  op: string,
  resultSizes: readonly number[],
  resultStrides: readonly number[],
  reduced: readonly boolean[],
  keepdim: boolean,
): number[] {
  const kept = reduced.filter((r) => !r).length;
  const expectedRank = keepdim ? reduced.length : kept;
  if (resultSizes.length !== expectedRank || resultStrides.length !== expectedRank) {
    throw new TorchError(
      `${op}: result of sizes ${fmtShape(resultSizes)} does not fit a reduction of a ` +
        `${reduced.length}-d input to ${expectedRank} dims`,
    );
  }
  const out = new Array<number>(reduced.length);
  let j = 0;
  for (let d = 0; d < reduced.length; d++) {
    if (reduced[d]) {
      out[d] = 0;
      if (keepdim) j++;
    } else {
      out[d] = resultStrides[j++];
    }
  }
  return out;
}

function wrapDim(op: string, dim: number, ndim: number): number {
  const n = Math.max(ndim, 1);
  if (!Number.isInteger(dim) || dim < -n || dim >= n) {
    throw new IndexError(
      `${op}: Dimension out of range (expected to be in range of [${-n}, ${n - 1}], but got ${dim})`,
    );
  }
  return dim < 0 ? dim + n : dim;
}
