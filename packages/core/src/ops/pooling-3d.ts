import { isFloatingType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import type { TensorImpl } from '../tensor/tensor-impl';
import { makeBinder, type OptionalArgs } from './binder';
import { front, type OptionsOf } from './front';
import { unwrapTensor } from './call';
import { torchTypeName } from './meta-utils';
import { valuesIndices, type ValuesIndices } from './reduction';
import { squeeze, unsqueeze } from './views';
import { adaptiveWindows, poolOutputSize, slidingWindows, windowAverage, windowMax, type Windows } from './pooling-windows';

/**
 * max_pool3d, avg_pool3d and adaptive_avg_pool3d, composites over window tables (Note
 * [Pooling as window tables]); their arguments are checked here first, with PyTorch's messages.
 */

type Size3 = number | readonly number[];

/** A kernel / stride / padding / dilation argument as three ints (an int or a list of one repeats). */
function triple(op: string, name: string, v: unknown, fallback?: readonly number[]): number[] {
  if (v == null || (Array.isArray(v) && v.length === 0)) {
    if (fallback) return [...fallback];
  } else if (typeof v === 'number' && Number.isInteger(v)) return [v, v, v];
  else if (Array.isArray(v) && (v.length === 1 || v.length === 3) && v.every((e) => Number.isInteger(e))) return v.length === 1 ? [v[0], v[0], v[0]] : [...v];
  throw new TorchError(`${op}: ${name} must either be a single int, or a tuple of three ints`);
}

/** Runs `f` on a 5-d input, adding and removing a batch dim around a 4-d (unbatched) one. */
function batched5d(input: Tensor, f: (x: Tensor) => Tensor[]): Tensor[] {
  if (input.dim() === 5) return f(input);
  return tidy(() => f(unsqueeze(input, 0)).map((t) => squeeze(t, 0)));
}

function checkInput3d(op: string, x: TensorImpl): void {
  if (!((x.dim === 4 || x.dim === 5) && x.sizes.slice(x.dim - 4).every((s) => s > 0))) {
    throw new ShapeError(`${op}: non-empty 4D or 5D (batch mode) tensor expected for input, but got input of size ${fmtShape(x.sizes)}`);
  }
}

export function checkFloating(op: string, kernel: string, x: TensorImpl): void {
  if (!isFloatingType(x.dtype)) throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(x.dtype)}'`);
}

interface Pool3dArgs {
  k: number[];
  s: number[];
  p: number[];
  d: number[];
  out: number[];
}

function poolArgs(op: string, x: TensorImpl, kernelSize: unknown, stride: unknown, padding: unknown, dilation: unknown, ceil: boolean, avg: boolean): Pool3dArgs {
  const k = triple(op, 'kernel_size', kernelSize);
  const s = triple(op, 'stride', stride, k);
  const p = triple(op, 'padding', padding);
  const d = triple(op, 'dilation', dilation);
  if (k.some((v) => v <= 0)) throw new TorchError(`${op}: kernel size should be greater than zero, but got kT: ${k[0]} kH: ${k[1]} kW: ${k[2]}`);
  if (s.some((v) => v <= 0)) throw new TorchError(`${op}: stride should not be zero`);
  if (d.some((v) => v <= 0)) throw new TorchError(`${op}: dilation should be greater than zero, but got dilationT: ${d[0]} dilationH: ${d[1]} dilationW: ${d[2]}`);
  if (p.some((v) => v < 0)) throw new TorchError(`${op}: pad must be non-negative, but got padT: ${p[0]} padH: ${p[1]} padW: ${p[2]}`);
  for (let i = 0; i < 3; i++) {
    if (p[i] > Math.floor(k[i] / 2)) throw new TorchError(`${op}: pad should be at most half of kernel size, but got pad=${p[i]} and kernel_size=${k[i]}`);
  }
  checkInput3d(op, x);
  const spatial = x.sizes.slice(x.dim - 3);
  if (avg && spatial.some((n, i) => n < k[i])) {
    throw new ShapeError(`${op}: input image (T: ${spatial[0]} H: ${spatial[1]} W: ${spatial[2]}) smaller than kernel size (kT: ${k[0]} kH: ${k[1]} kW: ${k[2]})`);
  }
  const out = spatial.map((n, i) => poolOutputSize(n, k[i], p[i], s[i], d[i], ceil));
  if (out.some((o) => o < 1)) {
    const C = x.sizes[x.dim - 4];
    throw new ShapeError(`${op}: Given input size: (${C}x${spatial.join('x')}). Calculated output size: (${C}x${out.join('x')}). Output size is too small`);
  }
  return { k, s, p, d, out };
}

export interface MaxPool3dOptions {
  stride?: Size3 | null;
  padding?: Size3;
  dilation?: Size3;
  ceilMode?: boolean;
  returnIndices?: boolean;
}

const maxPool3dArgs = makeBinder(
  'max_pool3d',
  'max_pool3d(Tensor input, int[3] kernel_size, int[3]? stride=None, int[3] padding=0, int[3] dilation=1, bool ceil_mode=False, bool return_indices=False) -> Tensor',
);
// (not a front end, as maxPool2d: its result is a Tensor or (values, indices) by `return_indices`)
/** F.max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False). */
export function maxPool3d(input: Tensor, kernelSize: Size3, options: MaxPool3dOptions & { returnIndices: true }): ValuesIndices;
export function maxPool3d(input: Tensor, kernelSize: Size3, stride: Size3 | null, padding: Size3, dilation: Size3, ceilMode: boolean, returnIndices: true): ValuesIndices;
export function maxPool3d(
  input: Tensor,
  kernelSize: Size3,
  ...rest: OptionalArgs<[stride: Size3, padding: Size3, dilation: Size3, ceilMode: boolean, returnIndices: false], MaxPool3dOptions & { returnIndices?: false }>
): Tensor;
export function maxPool3d(input: Tensor, kernelSize: Size3, ...rest: OptionalArgs<[stride: Size3, padding: Size3, dilation: Size3, ceilMode: boolean, returnIndices: boolean], MaxPool3dOptions>): Tensor | ValuesIndices;
export function maxPool3d(...a: unknown[]): Tensor | ValuesIndices {
  const op = 'max_pool3d';
  const [input, kernelSize, stride, padding, dilation, ceilMode, returnIndices] = maxPool3dArgs.bind(a);
  const x = unwrapTensor(op, 'input', input);
  const { k, s, p, d, out } = poolArgs(op, x, kernelSize, stride, padding, dilation, ceilMode, false);
  checkFloating(op, 'max_pool3d_with_indices_cpu', x);
  const spatial = x.sizes.slice(x.dim - 3);
  const tables = spatial.map((n, i) => slidingWindows(n, k[i], s[i], p[i], d[i], out[i]));
  const pair = batched5d(input, (t) => windowMax(t, tables));
  if (returnIndices) return valuesIndices([pair[0], pair[1]]);
  pair[1].dispose();
  return pair[0];
}

const POOL_NAMESPACES = { method: false, namespaces: ['torch', 'nn.functional'] } as const;

/** PyTorch's avg_pool divisor along one dim: the window clipped to the padded input (count_include_pad) or to the input. */
function avgCounts(n: number, k: number, s: number, p: number, outSize: number, includePad: boolean): number[] {
  const counts: number[] = [];
  for (let o = 0; o < outSize; o++) {
    const start = o * s - p;
    const end = Math.min(start + k, n + p);
    counts.push(includePad ? end - start : Math.min(end, n) - Math.max(start, 0));
  }
  return counts;
}

/** F.avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None). */
export const avgPool3d = front(
  'avg_pool3d(Tensor input, int[3] kernel_size, int[3]? stride=None, int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor',
  { method: false, namespaces: ['nn.functional'] },
).run(([input, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride]): Tensor => {
  const op = 'avg_pool3d';
  const x = unwrapTensor(op, 'input', input);
  const { k, s, p, out } = poolArgs(op, x, kernelSize, stride, padding, 1, ceilMode, true);
  if (divisorOverride === 0) throw new TorchError(`${op}: divisor must be not zero`);
  if (x.dtype === 'bool') throw new DTypeError(`${op}: "avg_pool3d_out_frame" not implemented for 'Bool'`);
  const spatial = x.sizes.slice(x.dim - 3);
  const tables: Windows[] = spatial.map((n, i) => slidingWindows(n, k[i], s[i], p[i], 1, out[i]));
  const divisor = divisorOverride ?? spatial.map((n, i) => avgCounts(n, k[i], s[i], p[i], out[i], countIncludePad));
  const [r] = batched5d(input, (t) => [windowAverage(t, tables, divisor)]);
  return r;
});
export type AvgPool3dOptions = OptionsOf<typeof avgPool3d>;

/** The requested adaptive output sizes: `sp` ints, null keeping the input's size. */
export function adaptiveSizes(op: string, x: TensorImpl, req: readonly (number | null | undefined)[], sp: number): number[] {
  if (req.length !== sp) throw new TorchError(`${op}: output_size must be ${sp}`);
  const size = req.map((s, i) => (s == null ? x.sizes[x.dim - sp + i] : s));
  if (size.some((s) => s < 0)) throw new TorchError(`${op}: elements of output_size must be greater than or equal to 0 but received {${size.join(', ')}}`);
  return size;
}

/** F.adaptive_avg_pool3d(input, output_size): output_size an int or [d, h, w], null keeping the input's size. */
export const adaptiveAvgPool3d = front('adaptive_avg_pool3d(Tensor input, int?[3] output_size) -> Tensor', POOL_NAMESPACES).run(([input, req]): Tensor => {
  const op = 'adaptive_avg_pool3d';
  const x = unwrapTensor(op, 'input', input);
  const size = adaptiveSizes(op, x, req, 3);
  if (x.dim !== 4 && x.dim !== 5) throw new ShapeError(`${op}(): Expected 4D or 5D tensor, but got ${fmtShape(x.sizes)}`);
  for (let i = 1; i < x.dim; i++) {
    if (x.sizes[i] === 0) {
      throw new ShapeError(`${op}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ${fmtShape(x.sizes)} with dimension ${i} being empty`);
    }
  }
  checkFloating(op, 'adaptive_avg_pool3d_cpu', x);
  const spatial = x.sizes.slice(x.dim - 3);
  const tables = spatial.map((n, i) => adaptiveWindows(n, size[i]));
  const counts = tables.map((w) => w.pos.map((row) => row.filter((i) => i >= 0).length));
  const [r] = batched5d(input, (t) => [windowAverage(t, tables, counts)]);
  return r;
});
