/**
 * Golden inputs made into tensors on a device: contiguous, or as non-contiguous views that
 * hold the same logical values (a strided slice of a bigger tensor, or a transpose).
 */
import * as torch from '@torch-ts/torch';
import type { DeviceLike, DType, Tensor } from '@torch-ts/torch';
import { decodeScalar, decodeValues, isComplexType, isScalarInput, partsDtype, type GoldenCase, type GoldenTensor } from './goldens';
import type { OpInput } from './op-info/types';

/**
 * contiguous: as `tensor(values).reshape(shape)`;
 * strided: every other element of a `[...shape, 2]` tensor (`base.select(-1, 0)`), whose
 *   other elements hold a filler a stride-blind kernel would read;
 * transposed: `base.permute(n-1, ..., 0)` of a base laid out in reverse (2-D and up).
 */
export type Layout = 'contiguous' | 'strided' | 'transposed';

/** Whether `layout` turns at least one input of the case into a non-contiguous view. */
export function layoutApplies(c: GoldenCase, layout: Layout): boolean {
  if (layout === 'contiguous') return true;
  return c.inputs.some((x) => !isScalarInput(x) && appliesTo(x, layout));
}

function appliesTo(g: GoldenTensor, layout: Layout): boolean {
  const numel = g.shape.reduce((a, b) => a * b, 1);
  if (numel < 2) return false;
  // a transpose of a tensor with one non-trivial dim is still contiguous
  return layout === 'strided' || g.shape.filter((n) => n > 1).length >= 2;
}

/** The case's inputs on `device`; the caller disposes the tensors. */
export function makeInputs(c: GoldenCase, device: DeviceLike, layout: Layout = 'contiguous'): OpInput[] {
  return c.inputs.map((x) => {
    if (isScalarInput(x)) return decodeScalar(x);
    return makeTensor(x, device, appliesTo(x, layout) ? layout : 'contiguous');
  });
}

/** A complex element is its (re, im) pair. */
type Element = number | bigint | boolean | readonly [number, number];

/** The golden's elements: a complex tensor's values pair up (Note on GoldenValue). */
function elements(g: GoldenTensor): readonly Element[] {
  const flat = decodeValues(g);
  if (!isComplexType(g.dtype)) return flat;
  const nums = flat.map(Number);
  return Array.from({ length: nums.length / 2 }, (_, i): Element => [nums[2 * i], nums[2 * i + 1]]);
}

function makeTensor(g: GoldenTensor, device: DeviceLike, layout: Layout): Tensor {
  const values: readonly Element[] = elements(g);
  if (layout === 'contiguous') return build(values, g.dtype, device, g.shape);
  if (layout === 'strided') {
    const filler = fillerFor(g.dtype);
    const interleaved = values.flatMap((v) => [v, filler]);
    const base = build(interleaved, g.dtype, device, [...g.shape, 2]);
    const view = base.select(-1, 0);
    base.dispose(); // the view keeps the storage
    return view;
  }
  const n = g.shape.length;
  const reversed = [...g.shape].reverse();
  const strides = contiguousStrides(g.shape);
  const baseValues = new Array<Element>(values.length);
  forEachIndex(reversed, (j, flat) => {
    // base[j] holds view[reverse(j)]
    let src = 0;
    for (let k = 0; k < n; k++) src += j[n - 1 - k] * strides[k];
    baseValues[flat] = values[src];
  });
  const base = build(baseValues, g.dtype, device, reversed);
  const view = base.permute(...reversed.map((_, k) => n - 1 - k));
  base.dispose();
  return view;
}

function build(values: readonly Element[], dtype: DType, device: DeviceLike, shape: readonly number[]): Tensor {
  if (isComplexType(dtype)) {
    // the pairs as a real [...shape, 2] tensor, viewed as complex (the view keeps the storage)
    const parts = build(values.flatMap((v) => (Array.isArray(v) ? v : [Number(v), 0])), partsDtype(dtype), device, [...shape, 2]);
    const z = torch.viewAsComplex(parts);
    parts.dispose();
    return z;
  }
  const flat = torch.tensor(values as readonly (number | bigint | boolean)[], { dtype, device });
  const shaped = flat.reshape([...shape]);
  if (shaped !== flat) flat.dispose();
  return shaped;
}

/** A value no sample uses in that position, representable in every dtype. */
function fillerFor(dtype: DType): Element {
  if (dtype === 'bool') return true;
  if (isComplexType(dtype)) return [7, 7];
  if (dtype === 'int64') return 7n;
  return 7;
}

function contiguousStrides(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length);
  let acc = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    s[d] = acc;
    acc *= shape[d];
  }
  return s;
}

function forEachIndex(shape: readonly number[], fn: (idx: readonly number[], flat: number) => void): void {
  const total = shape.reduce((a, b) => a * b, 1);
  const idx = new Array<number>(shape.length).fill(0);
  for (let flat = 0; flat < total; flat++) {
    fn(idx, flat);
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

/** Disposes every tensor among `xs` (results, inputs; arrays of them). Idempotent. */
export function disposeAll(...xs: unknown[]): void {
  for (const x of xs) {
    if (x instanceof torch.Tensor) x.dispose();
    else if (Array.isArray(x)) disposeAll(...x);
  }
}
