import { ShapeError, fmtShape } from '../errors';

/**
 * Note [Broadcasting]
 * Shapes are aligned at their last dim; missing leading dims count as size 1. In each dim
 * the sizes must be equal or one of them 1, and a 1 takes the other size, even 0 (so
 * [0] and [1] broadcast to [0], while [0] and [2] do not). Shapes fold pairwise from the
 * left, as PyTorch's `infer_size` does inside TensorIterator: for three or more shapes,
 * "tensor a" in the error message is the broadcast of the shapes before "tensor b", and the
 * reported dim is the first mismatch counted from the right, numbered in the result.
 */
export function broadcastShapes(op: string, ...shapes: (readonly number[])[]): number[] {
  let result: number[] = [];
  for (let s = 0; s < shapes.length; s++) {
    const shape = shapes[s];
    for (let i = 0; i < shape.length; i++) {
      const size = shape[i];
      if (!Number.isInteger(size) || size < 0) {
        throw new ShapeError(
          `${op}: Trying to create tensor with negative dimension (${size}): ${fmtShape(shape)}`,
        );
      }
    }
    result = s === 0 ? shape.slice() : broadcastPair(op, result, shape, shapes);
  }
  return result;
}

function broadcastPair(
  op: string,
  a: readonly number[],
  b: readonly number[],
  all: readonly (readonly number[])[],
): number[] {
  const ndim = Math.max(a.length, b.length);
  const out = new Array<number>(ndim);
  for (let i = ndim - 1; i >= 0; i--) {
    const dimA = a.length - ndim + i;
    const dimB = b.length - ndim + i;
    const sizeA = dimA >= 0 ? a[dimA] : 1;
    const sizeB = dimB >= 0 ? b[dimB] : 1;
    if (sizeA !== sizeB && sizeA !== 1 && sizeB !== 1) {
      throw new ShapeError(
        `${op}: The size of tensor a (${sizeA}) must match the size of tensor b (${sizeB}) ` +
          `at non-singleton dimension ${i} (shapes ${fmtShapeList(all)})`,
      );
    }
    out[i] = sizeA === 1 ? sizeB : sizeA;
  }
  return out;
}

function fmtShapeList(shapes: readonly (readonly number[])[]): string {
  const parts = shapes.map(fmtShape);
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * The strides of `sizes`/`strides` expanded to `toShape` (PyTorch's `expand`): leading new
 * dims and broadcast size-1 dims get stride 0; a dim whose size already matches keeps its
 * stride, even a size-1 dim whose stride is arbitrary.
 */
export function broadcastStrides(
  sizes: readonly number[],
  strides: readonly number[],
  toShape: readonly number[],
  op = 'expand',
): number[] {
  const ndim = toShape.length;
  const offset = ndim - sizes.length;
  if (offset < 0) {
    throw new ShapeError(
      `${op}: the number of sizes provided (${ndim}) must be greater or equal to the number ` +
        `of dimensions in the tensor (${sizes.length}) (shapes ${fmtShape(sizes)} to ${fmtShape(toShape)})`,
    );
  }
  const out = new Array<number>(ndim).fill(0);
  for (let i = 0; i < sizes.length; i++) {
    const size = sizes[i];
    const target = toShape[offset + i];
    if (size === target) {
      out[offset + i] = strides[i];
    } else if (size !== 1) {
      throw new ShapeError(
        `${op}: The expanded size of the tensor (${target}) must match the existing size ` +
          `(${size}) at non-singleton dimension ${offset + i}.  Target sizes: ${fmtShape(toShape)}.  ` +
          `Tensor sizes: ${fmtShape(sizes)}`,
      );
    }
  }
  return out;
}
