/**
 * One formatter per printed tensor: it looks at every element that will be shown and picks
 * a notation and a column width shared by all of them (PyTorch's `_Formatter`).
 *
 * Note [How a float tensor chooses its notation]
 * Only the nonzero finite elements vote; zeros, nan and inf are printed in whatever mode
 * the others choose and never widen the column (so `tensor([1., inf])` is ragged).
 * - If every voter is integral ("int mode") the elements print as `3.` (no fraction), unless
 *   max/min > 1000 or max > 1e8, which switches to scientific.
 * - Otherwise fixed notation with `precision` digits, unless max/min > 1000, max > 1e8 or
 *   min < 1e-4 (all on absolute values), which switches to scientific.
 * - A forced `sciMode` option overrides that choice but not the width, which is measured in
 *   the notation chosen automatically. With no voters at all (all zero or non-finite) the
 *   option is ignored: `tensor([0., 0.])` prints the same with `sciMode: true`.
 * Integer and bool tensors print `String(value)` (`True`/`False`), right-aligned to the
 * widest element shown.
 */

import { formatExponential, formatFixed } from './decimal';

export type Element = number | bigint | boolean;

export interface ElementFormatter {
  /** Column width every element is padded to (elements may overflow it, as nan/inf can). */
  readonly width: number;
  format(value: Element): string;
}

export interface FormatterOptions {
  readonly precision: number;
  readonly sciMode: boolean | null;
}

/** Builds the formatter for an integer or bool tensor from the elements that will be shown. */
export function integerFormatter(shown: readonly Element[], isBool: boolean): ElementFormatter {
  const text = isBool ? (v: Element) => (v ? 'True' : 'False') : integerText;
  let width = 1;
  for (const v of shown) width = Math.max(width, text(v).length);
  return { width, format: (v) => text(v).padStart(width) };
}

function integerText(v: Element): string {
  if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v)) {
    // String(1e21) would switch to exponent form; an integral double is an exact BigInt.
    return BigInt(v).toString();
  }
  return typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
}

/** Builds the formatter for a floating tensor; see Note [How a float tensor chooses its notation]. */
export function floatFormatter(shown: readonly number[], opts: FormatterOptions): ElementFormatter {
  const { precision } = opts;
  const voters = shown.filter((v) => Number.isFinite(v) && v !== 0);
  let intMode = true;
  let sci = false;
  let width = 1;
  if (voters.length > 0) {
    let max = 0;
    let min = Infinity;
    for (const v of voters) {
      const a = Math.abs(v);
      if (a > max) max = a;
      if (a < min) min = a;
    }
    intMode = voters.every(Number.isInteger);
    const wide = max / min > 1000 || max > 1e8;
    sci = intMode ? wide : wide || min < 1e-4;
    for (const v of voters) {
      let len: number;
      if (sci) len = formatExponential(v, precision).length;
      else if (intMode) len = formatFixed(v, 0).length + 1;
      else len = formatFixed(v, precision).length;
      width = Math.max(width, len);
    }
    if (opts.sciMode !== null) sci = opts.sciMode;
  }
  const format = (value: Element): string => {
    const v = Number(value);
    let s: string;
    if (sci) s = formatExponential(v, precision);
    else if (intMode) s = Number.isFinite(v) ? `${formatFixed(v, 0)}.` : formatFixed(v, 0);
    else s = formatFixed(v, precision);
    return s.padStart(width);
  };
  return { width, format };
}
