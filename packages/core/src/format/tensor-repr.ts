/**
 * `repr` of a tensor, character for character as PyTorch prints it:
 * `tensor([1.5000, 2.0000], dtype=torch.float64, requires_grad=True)`.
 *
 * The caller hands over plain host data (see `ReprInput`), so this module knows nothing of
 * storage, strides or devices; reading device memory is the caller's job.
 */

import { type DType, isComplexType, isFloatingType } from '../dtype/scalar-type';
import { TorchError, fmtShape } from '../errors';
import {
  type Element,
  type ElementFormatter,
  floatFormatter,
  integerFormatter,
} from './element-formatter';
import { type PrintOptions, getPrintOptions } from './print-options';

export interface ReprInput {
  readonly shape: readonly number[];
  readonly dtype: DType;
  /**
   * The logical elements in row-major order; float16/bfloat16 already decoded to numbers,
   * int64 as bigint or number, a complex element as two numbers (real, imag). Ignored (may
   * be empty) on the meta device.
   */
  readonly values: ArrayLike<number | bigint | boolean>;
  /** `'cpu'`, `'webgpu:0'`, `'meta'`: printed as `device='...'` unless on the CPU. */
  readonly device: string;
  /** The default float dtype in force (`float32` unless `setDefaultDtype` changed it). */
  readonly defaultDtype: DType;
  readonly requiresGrad?: boolean;
  /** `AddBackward0` for a non-leaf; takes precedence over `requiresGrad`. */
  readonly gradFnName?: string | null;
}

const PREFIX = 'tensor(';

/** PyTorch's `repr(tensor)` for the tensor described by `t`, under the current print options. */
export function formatTensor(t: ReprInput): string {
  const opts = getPrintOptions();
  const indent = PREFIX.length;
  const numel = t.shape.reduce((a, b) => a * b, 1);
  const suffixes: string[] = [];
  if (deviceType(t.device) !== 'cpu') suffixes.push(`device='${t.device}'`);

  // Note [Which tensors print their dtype]
  // A tensor with data omits its dtype when the dtype is what PyTorch would infer from the
  // printed literal: the default float dtype, int64 or bool. Meta and empty tensors show no
  // literal to infer from, so there only the default float dtype goes unprinted (an empty
  // int64 tensor prints `dtype=torch.int64`).
  // (complex tensors: the complex dtype of the default float dtype goes unprinted too)
  const defaultDtype = isComplexType(t.dtype) ? (t.defaultDtype === 'float64' ? 'complex128' : 'complex64') : t.defaultDtype;
  let body: string;
  if (deviceType(t.device) === 'meta') {
    suffixes.push(`size=${pythonTuple(t.shape)}`);
    if (t.dtype !== defaultDtype) suffixes.push(`dtype=torch.${t.dtype}`);
    body = '...';
  } else if (numel === 0) {
    // Like NumPy, a shape other than (0,) is spelled out.
    if (t.shape.length !== 1) suffixes.push(`size=${pythonTuple(t.shape)}`);
    if (t.dtype !== t.defaultDtype) suffixes.push(`dtype=torch.${t.dtype}`);
    body = '[]';
  } else {
    if (t.values.length < (isComplexType(t.dtype) ? 2 * numel : numel)) {
      throw new TorchError(
        `formatTensor: shape ${fmtShape(t.shape)} needs ${numel} values, got ${t.values.length}`,
      );
    }
    if (t.dtype !== defaultDtype && t.dtype !== 'int64' && t.dtype !== 'bool') {
      suffixes.push(`dtype=torch.${t.dtype}`);
    }
    body = formatData(t, indent, opts);
  }

  if (t.gradFnName != null) suffixes.push(`grad_fn=<${t.gradFnName}>`);
  else if (t.requiresGrad === true) suffixes.push('requires_grad=True');
  return appendSuffixes(PREFIX + body, suffixes, indent, opts.linewidth);
}

function deviceType(device: string): string {
  const colon = device.indexOf(':');
  return colon < 0 ? device : device.slice(0, colon);
}

/** Python's `str(tuple(shape))`: `()`, `(5,)`, `(2, 3)`. */
function pythonTuple(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
}

/**
 * Suffixes follow the data on its last line, separated by `, `, until one would pass the
 * line width; that one starts a new line indented under the opening parenthesis.
 */
function appendSuffixes(
  text: string,
  suffixes: readonly string[],
  indent: number,
  linewidth: number,
): string {
  const out = [text];
  // PyTorch counts two more characters than the last line holds (room for `, `); we follow
  // its arithmetic exactly since the wrapping point is observable.
  let lastLineLength = text.length - text.lastIndexOf('\n') + 1;
  for (const suffix of suffixes) {
    if (lastLineLength + suffix.length + 2 > linewidth) {
      out.push(`,\n${' '.repeat(indent)}${suffix}`);
      lastLineLength = indent + suffix.length;
    } else {
      out.push(`, ${suffix}`);
      lastLineLength += suffix.length + 2;
    }
  }
  out.push(')');
  return out.join('');
}

/**
 * Note [Summarised tensors]
 * A tensor with more than `threshold` elements keeps only `edgeitems` entries at each end of
 * every dimension longer than `2 * edgeitems`, with `...` in between. The formatter sees only
 * the kept elements, so hidden ones never widen the columns or change the notation.
 */
function formatData(t: ReprInput, indent: number, opts: PrintOptions): string {
  const { shape } = t;
  const ndim = shape.length;
  const strides = rowMajorStrides(shape);
  const floating = isFloatingType(t.dtype);
  const complex = isComplexType(t.dtype);
  const read = elementReader(t);
  const summarize = shape.reduce((a, b) => a * b, 1) > opts.threshold;

  /** Indices kept along a dimension of `size`; `null` marks the ellipsis. */
  const kept = (size: number): (number | null)[] => {
    const edge = opts.edgeitems;
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
    if (!summarize || size <= 2 * edge) return range(0, size);
    return [...range(0, edge), null, ...range(size - edge, size)];
  };

  const shown: number[] = [];
  const collect = (dim: number, offset: number): void => {
    if (dim === ndim) {
      shown.push(offset);
      return;
    }
    for (const i of kept(shape[dim])) if (i !== null) collect(dim + 1, offset + i * strides[dim]);
  };
  collect(0, 0);
  const cell = complex ? complexCell(t, shown, opts) : realCell(shown.map(read), floating, t.dtype === 'bool', opts, read);

  if (ndim === 0) return cell.format(0);

  const row = (offset: number, rowIndent: number): string => {
    const items = kept(shape[ndim - 1]).map((i) =>
      i === null ? ' ...' : cell.format(offset + i * strides[ndim - 1]),
    );
    return wrapRow(items, cell.width, rowIndent, opts.linewidth);
  };
  const block = (dim: number, offset: number, blockIndent: number): string => {
    if (dim === ndim - 1) return row(offset, blockIndent);
    const parts = kept(shape[dim]).map((i) =>
      i === null ? '...' : block(dim + 1, offset + i * strides[dim], blockIndent + 1),
    );
    // Sub-blocks of a k-dim block are separated by k - 1 newlines (blank lines between
    // matrices of a 3-d tensor) and aligned one column right of this block's bracket.
    const separator = `,${'\n'.repeat(ndim - dim - 1)}${' '.repeat(blockIndent + 1)}`;
    return `[${parts.join(separator)}]`;
  };
  return block(0, 0, indent);
}

/**
 * Innermost rows hold as many `width + 2` (element plus `, `) cells as fit in the line width
 * after the indent, at least one; continuation lines align under the first element.
 */
function wrapRow(
  items: readonly string[],
  width: number,
  indent: number,
  linewidth: number,
): string {
  const perLine = Math.max(1, Math.floor((linewidth - indent) / (width + 2)));
  const lines: string[] = [];
  for (let i = 0; i < items.length; i += perLine) lines.push(items.slice(i, i + perLine).join(', '));
  return `[${lines.join(`,\n${' '.repeat(indent + 1)}`)}]`;
}

/** How one element prints, by its row-major index, and the width of its column. */
interface Cell {
  readonly width: number;
  format(flat: number): string;
}

function realCell(shown: Element[], floating: boolean, bool: boolean, opts: PrintOptions, read: (flat: number) => Element): Cell {
  const f: ElementFormatter = floating ? floatFormatter(shown as number[], opts) : integerFormatter(shown, bool);
  return { width: f.width, format: (i) => f.format(read(i)) };
}

/**
 * A complex element prints as PyTorch's `_val_formatter`: the real parts and the imaginary
 * parts each get their own float formatter (from the shown elements' parts), and the
 * imaginary part follows with its sign (`+` added where the formatter gave none) and `j`.
 */
function complexCell(t: ReprInput, shown: readonly number[], opts: PrintOptions): Cell {
  const part = (i: number, k: number): number => (t.dtype === 'complex64' ? Math.fround(Number(t.values[2 * i + k])) : Number(t.values[2 * i + k]));
  const re = floatFormatter(shown.map((i) => part(i, 0)), opts);
  const im = floatFormatter(shown.map((i) => part(i, 1)), opts);
  return {
    width: re.width + im.width + 1,
    format: (i) => {
      const imag = `${im.format(part(i, 1))}j`.trimStart();
      return re.format(part(i, 0)) + (imag[0] === '+' || imag[0] === '-' ? imag : `+${imag}`);
    },
  };
}

function rowMajorStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let step = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = step;
    step *= shape[d];
  }
  return strides;
}

/**
 * Normalises an element to what PyTorch's formatter sees: float32/float16/bfloat16 values
 * are float32 numbers (PyTorch widens half types to float32 before formatting, and rounding
 * through `Math.fround` makes a caller's float64 input print as the float32 tensor would),
 * bool is a boolean, integers stay number or bigint.
 */
function elementReader(t: ReprInput): (flat: number) => Element {
  const { values } = t;
  switch (t.dtype) {
    case 'float64':
      return (i) => Number(values[i]);
    case 'float32':
    case 'float16':
    case 'bfloat16':
      return (i) => Math.fround(Number(values[i]));
    case 'bool':
      return (i) => Boolean(values[i]);
    default:
      return (i) => {
        const v = values[i];
        return typeof v === 'boolean' ? Number(v) : v;
      };
  }
}

/** What `formatSparseCoo` prints: the sparse tensor's own fields and its two members' host data. */
export interface SparseReprInput {
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly nnz: number;
  readonly device: string;
  readonly defaultDtype: DType;
  /** `indices`, int64 [sparseDim, nnz], and `values`, [nnz, ...dense sizes], as ReprInput values. */
  readonly indices: { readonly shape: readonly number[]; readonly values: ArrayLike<number | bigint> };
  readonly values: { readonly shape: readonly number[]; readonly values: ArrayLike<number | bigint | boolean> };
  readonly requiresGrad?: boolean;
  readonly gradFnName?: string | null;
}

/**
 * PyTorch's repr of a sparse COO tensor (`_tensor_str`'s sparse branch): the members printed
 * as tensors indented under `indices=tensor(` / `values=tensor(`, then `size=`, `nnz=`, the
 * dtype where it is not a default one, `layout=torch.sparse_coo`, the first suffix always on
 * a new line (`force_newline`).
 */
export function formatSparseCoo(t: SparseReprInput): string {
  const opts = getPrintOptions();
  const indent = PREFIX.length;
  const member = (prefix: string, shape: readonly number[], dtype: DType, values: ArrayLike<number | bigint | boolean>): string => {
    const numel = shape.reduce((a, b) => a * b, 1);
    if (numel === 0) return `${prefix}[], size=${pythonTuple(shape)})`;
    return `${prefix}${formatData({ shape, dtype, values, device: t.device, defaultDtype: t.defaultDtype }, indent + prefix.length, opts)})`;
  };
  const body = `${member('indices=tensor(', t.indices.shape, 'int64', t.indices.values)},\n${' '.repeat(indent)}${member('values=tensor(', t.values.shape, t.dtype, t.values.values)}`;
  const suffixes: string[] = [];
  if (deviceType(t.device) !== 'cpu') suffixes.push(`device='${t.device}'`);
  suffixes.push(`size=${pythonTuple(t.shape)}`, `nnz=${t.nnz}`);
  const defaultDtype = isComplexType(t.dtype) ? (t.defaultDtype === 'float64' ? 'complex128' : 'complex64') : t.defaultDtype;
  if (t.dtype !== defaultDtype && t.dtype !== 'int64' && t.dtype !== 'bool') suffixes.push(`dtype=torch.${t.dtype}`);
  suffixes.push('layout=torch.sparse_coo');
  if (t.gradFnName != null) suffixes.push(`grad_fn=<${t.gradFnName}>`);
  else if (t.requiresGrad === true) suffixes.push('requires_grad=True');
  // (PyTorch's force_newline: the first suffix starts a line of its own, and the line is then
  // `indent + len(suffix)` long, one less than appendSuffixes counts for a text's last line)
  const out = [`${PREFIX}${body}`];
  let last = 0;
  suffixes.forEach((suffix, i) => {
    if (i === 0 || last + suffix.length + 2 > opts.linewidth) {
      out.push(`,\n${' '.repeat(indent)}${suffix}`);
      last = indent + suffix.length;
    } else {
      out.push(`, ${suffix}`);
      last += suffix.length + 2;
    }
  });
  return `${out.join('')})`;
}
