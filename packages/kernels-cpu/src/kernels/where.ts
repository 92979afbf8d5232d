import type { TensorImpl } from '@torch-ts/core';
import { itemWidth } from '../loops/arrays';
import { forEachRowOf } from '../loops/iterate';
import { rawSelectRow } from '../loops/raw';
import { whereWasm } from './pointwise-wasm';

/**
 * out = cond ? self : other, element by element. Core hands over self and other already in
 * out's dtype and everything broadcast to out's shape, so this only selects raw elements:
 * one loop per element width serves every dtype, and values are never converted.
 */
export function where(out: TensorImpl, cond: TensorImpl, a: TensorImpl, b: TensorImpl): void {
  if (whereWasm(out, cond, a, b)) return;
  forEachRowOf([out, cond, a, b], rawSelectRow(itemWidth(out), out, cond, a, b));
}
