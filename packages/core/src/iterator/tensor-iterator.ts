import { TorchError, fmtShape } from '../errors';
import { iterationOrder } from './dim-order';

export interface TensorIteratorOptions {
  /** How many of the operands, from the front, are outputs. Default 1. */
  readonly numOutputs?: number;
  /**
   * A reduction: the outputs have stride 0 along reduced dims (see Note [Reduction
   * iteration]), and the dims are ordered by the inputs' strides first.
   */
  readonly reduction?: boolean;
  /** Keep row-major order (last dim fastest) for ops whose result depends on visit order. */
  readonly linear?: boolean;
}

/**
 * Note [TensorIterator geometry]
 * The iteration of one kernel call over operands that all have the same (broadcast) shape:
 * outputs first, then inputs, each given by its strides in elements (a broadcast input has
 * stride 0 where it is expanded). The constructor
 *   1. orders the dims by Note [Iteration dim order], outputs asked first (a reduction asks
 *      the inputs first), or keeps row-major order with `linear`;
 *   2. coalesces neighbours: dims i (faster) and i+1 merge when either has size 1, or when
 *      `shape[i] * stride[i] === stride[i + 1]` for EVERY operand; a size-1 dim takes the
 *      strides of the dim it merges with. A fully contiguous op becomes one dim of numel.
 * Conventions of the result, which kernels rely on:
 *   - `shape[0]` is the FASTEST dim (the inner loop), as in PyTorch's TensorIterator;
 *     `strides[k][d]` is operand k's stride along `shape[d]`; `innerStrides[k]` is
 *     `strides[k][0]`.
 *   - `ndim >= 1` always: a 0-d iteration is shape [1] with strides 0, and an empty one
 *     (numel 0) is shape [0] with strides 0, so kernels never see a 0-d special case.
 */
export class TensorIterator {
  readonly ndim: number;
  /** Coalesced sizes, fastest dim first. */
  readonly shape: readonly number[];
  /** `strides[operand][dim]`, in elements, dims as in `shape`. */
  readonly strides: readonly (readonly number[])[];
  /** `strides[k][0]` for every operand k: the strides of the inner loop. */
  readonly innerStrides: readonly number[];
  /** `strides[k][1]` for every operand k (0 for a 1-d iteration): the strides between rows. */
  readonly outerStrides: readonly number[];
  readonly numel: number;
  readonly ntensors: number;
  readonly numOutputs: number;
  readonly isReduction: boolean;

  /** Loop-driver tables, dim-major (`[d * ntensors + k]`): step to the next index of dim d... */
  readonly stepTable: Float64Array;
  /** ...and step back from its last index to index 0: `stride * (size - 1)`. */
  readonly rewindTable: Float64Array;
  /** Per operand, the lowest and highest element offset reached, relative to its base. */
  readonly spanLo: Float64Array;
  readonly spanHi: Float64Array;

  constructor(
    shape: readonly number[],
    operandStrides: readonly (readonly number[])[],
    options: TensorIteratorOptions = {},
  ) {
    const nt = operandStrides.length;
    const numOutputs = options.numOutputs ?? 1;
    if (!Number.isInteger(numOutputs) || numOutputs < 0 || numOutputs > nt) {
      throw new TorchError(`TensorIterator: numOutputs ${numOutputs} is not in [0, ${nt}]`);
    }
    for (let k = 0; k < nt; k++) {
      if (operandStrides[k].length !== shape.length) {
        throw new TorchError(
          `TensorIterator: operand ${k} has strides ${fmtShape(operandStrides[k])} ` +
            `for shape ${fmtShape(shape)}`,
        );
      }
    }
    let numel = 1;
    for (const size of shape) {
      if (!Number.isInteger(size) || size < 0) {
        throw new TorchError(`TensorIterator: invalid shape ${fmtShape(shape)}`);
      }
      numel *= size;
    }
    this.ntensors = nt;
    this.numOutputs = numOutputs;
    this.isReduction = options.reduction ?? false;
    this.numel = numel;

    let sizes: number[];
    let strides: number[][];
    if (numel === 0 || shape.length === 0) {
      sizes = [numel];
      strides = operandStrides.map(() => [0]);
    } else {
      const perm = options.linear ? rowMajorPerm(shape.length) : iterationOrder(shape, this.priority(operandStrides));
      sizes = perm.map((d) => shape[d]);
      strides = operandStrides.map((s) => perm.map((d) => s[d]));
      coalesce(sizes, strides);
    }
    this.ndim = sizes.length;
    this.shape = sizes;
    this.strides = strides;
    this.innerStrides = strides.map((s) => s[0]);
    this.outerStrides = strides.map((s) => (s.length > 1 ? s[1] : 0));

    const ndim = this.ndim;
    this.stepTable = new Float64Array(ndim * nt);
    this.rewindTable = new Float64Array(ndim * nt);
    this.spanLo = new Float64Array(nt);
    this.spanHi = new Float64Array(nt);
    for (let d = 0; d < ndim; d++) {
      for (let k = 0; k < nt; k++) {
        const stride = strides[k][d];
        const rewind = stride * Math.max(sizes[d] - 1, 0);
        this.stepTable[d * nt + k] = stride;
        this.rewindTable[d * nt + k] = rewind;
        if (rewind < 0) this.spanLo[k] += rewind;
        else this.spanHi[k] += rewind;
      }
    }
  }

  /** Operands in the order the dim comparison asks them. */
  private priority(operandStrides: readonly (readonly number[])[]): (readonly number[])[] {
    if (!this.isReduction) return operandStrides.slice();
    return [...operandStrides.slice(this.numOutputs), ...operandStrides.slice(0, this.numOutputs)];
  }
}

function rowMajorPerm(ndim: number): number[] {
  const perm = new Array<number>(ndim);
  for (let i = 0; i < ndim; i++) perm[i] = ndim - 1 - i;
  return perm;
}

/** Merges neighbouring dims in place, per Note [TensorIterator geometry]. */
function coalesce(sizes: number[], strides: number[][]): void {
  const ndim = sizes.length;
  let prev = 0;
  for (let d = 1; d < ndim; d++) {
    if (canMerge(sizes, strides, prev, d)) {
      if (sizes[prev] === 1) for (const s of strides) s[prev] = s[d];
      sizes[prev] *= sizes[d];
    } else {
      prev++;
      if (prev !== d) {
        sizes[prev] = sizes[d];
        for (const s of strides) s[prev] = s[d];
      }
    }
  }
  sizes.length = prev + 1;
  for (const s of strides) s.length = prev + 1;
}

function canMerge(sizes: readonly number[], strides: readonly (readonly number[])[], d0: number, d1: number): boolean {
  if (sizes[d0] === 1 || sizes[d1] === 1) return true;
  for (const s of strides) if (sizes[d0] * s[d0] !== s[d1]) return false;
  return true;
}

/**
 * True when the iteration is one dim along which every operand has stride 1 (or which has
 * at most one element): a kernel may then index every operand with the same `i`.
 */
export function isContiguousIteration(it: TensorIterator): boolean {
  if (it.ndim !== 1) return false;
  if (it.shape[0] <= 1) return true;
  for (let k = 0; k < it.ntensors; k++) if (it.innerStrides[k] !== 1) return false;
  return true;
}

/** True when the iteration is one dim: one `forEachRow` call covers everything. */
export function isFlatIteration(it: TensorIterator): boolean {
  return it.ndim === 1;
}
