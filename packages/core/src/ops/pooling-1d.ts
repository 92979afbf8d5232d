import { ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { makeBinder, type OptionalArgs } from './binder';
import { front, type OptionsOf } from './front';
import { unwrapTensor } from './call';
import { valuesIndices, type ValuesIndices } from './reduction';
import { adaptiveAvgPool2d, avgPool2d, maxPool2d } from './pooling';
import { squeeze, unsqueeze } from './views';

/**
 * Note [1-d pooling through the 2-d ops]
 * max_pool1d, avg_pool1d and adaptive_avg_pool1d run as their 2-d ops on the input with a
 * unit height inserted before the length (kernel [1, k], stride [1, s], padding [0, p]), as
 * PyTorch's own avg_pool1d / adaptive_avg_pool1d and its differentiable max_pool1d do. So
 * they need no kernels of their own and autograd differentiates them through the 2-d ops'
 * backward (MaxPool2DWithIndicesBackward0 under a SqueezeBackward, as in PyTorch). Their
 * arguments are checked here first, so errors name the 1-d op and its sizes as PyTorch's do.
 */

type Size1 = number | readonly number[];

/** An `int[1]` argument as its one value (an int, or a list of one int). */
function single(op: string, name: string, v: unknown, fallback?: number): number {
  if (v == null || (Array.isArray(v) && v.length === 0)) {
    if (fallback !== undefined) return fallback;
  } else if (typeof v === 'number' && Number.isInteger(v)) return v;
  else if (Array.isArray(v) && v.length === 1 && Number.isInteger(v[0])) return v[0] as number;
  throw new TorchError(`${op}() argument '${name}' should contain one int (got ${Array.isArray(v) ? v.length : String(v)})`);
}

/** PyTorch's pooling_output_shape for one dim. */
function poolOut(inSize: number, k: number, pad: number, stride: number, dilation: number, ceil: boolean): number {
  const num = inSize + 2 * pad - dilation * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  let out = Math.floor(num / stride) + 1;
  if (ceil && (out - 1) * stride >= inSize + pad) out--;
  return out;
}

/** Checks a 1-d pooling input: 2-d (unbatched) or 3-d with nonzero non-batch sizes. */
function checkInput1d(op: string, x: { dim: number; sizes: readonly number[] }, message: 'max' | 'avg'): void {
  const ok = (x.dim === 2 || x.dim === 3) && x.sizes.slice(x.dim - 2).every((s) => s > 0);
  if (ok) return;
  if (message === 'max') {
    throw new ShapeError(`${op}: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:${fmtShape(x.sizes)}`);
  }
  throw new ShapeError(`${op}: Expected 2 to 3 dimensions, but got ${x.dim}-dimensional tensor for argument #1 'self' (while checking arguments for ${op})`);
}

function tooSmall(op: string, x: { dim: number; sizes: readonly number[] }, out: number): never {
  const C = x.sizes[x.dim - 2];
  const L = x.sizes[x.dim - 1];
  throw new ShapeError(`${op}: Given input size: (${C}x1x${L}). Calculated output size: (${C}x1x${out}). Output size is too small`);
}

/** Runs a 2-d pooling `f` on `input` with a unit height inserted at dim -2 (Note [1-d pooling through the 2-d ops]). */
function viaPlanes(input: Tensor, f: (x: Tensor) => Tensor[]): Tensor[] {
  return tidy(() => f(unsqueeze(input, -2)).map((t) => squeeze(t, -2)));
}

export interface MaxPool1dOptions {
  stride?: Size1 | null;
  padding?: Size1;
  dilation?: Size1;
  ceilMode?: boolean;
  returnIndices?: boolean;
}

const maxPool1dArgs = makeBinder(
  'max_pool1d',
  'max_pool1d(Tensor input, int[1] kernel_size, int[1]? stride=None, int[1] padding=0, int[1] dilation=1, bool ceil_mode=False, bool return_indices=False) -> Tensor',
);
// (not a front end, as maxPool2d: its result is a Tensor or (values, indices) by `return_indices`)
/** F.max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False). */
export function maxPool1d(input: Tensor, kernelSize: Size1, options: MaxPool1dOptions & { returnIndices: true }): ValuesIndices;
export function maxPool1d(input: Tensor, kernelSize: Size1, stride: Size1 | null, padding: Size1, dilation: Size1, ceilMode: boolean, returnIndices: true): ValuesIndices;
export function maxPool1d(
  input: Tensor,
  kernelSize: Size1,
  ...rest: OptionalArgs<[stride: Size1, padding: Size1, dilation: Size1, ceilMode: boolean, returnIndices: false], MaxPool1dOptions & { returnIndices?: false }>
): Tensor;
export function maxPool1d(input: Tensor, kernelSize: Size1, ...rest: OptionalArgs<[stride: Size1, padding: Size1, dilation: Size1, ceilMode: boolean, returnIndices: boolean], MaxPool1dOptions>): Tensor | ValuesIndices;
export function maxPool1d(...a: unknown[]): Tensor | ValuesIndices {
  const op = 'max_pool1d';
  const [input, kernelSize, stride, padding, dilation, ceilMode, returnIndices] = maxPool1dArgs.bind(a);
  const x = unwrapTensor(op, 'input', input);
  checkInput1d(op, x, 'max');
  const k = single(op, 'kernel_size', kernelSize);
  const s = single(op, 'stride', stride, k);
  const p = single(op, 'padding', padding);
  const d = single(op, 'dilation', dilation);
  if (k <= 0) throw new TorchError(`${op}() kernel_size must be greater than zero, but got ${k}`);
  if (s <= 0) throw new TorchError(`${op}() stride must be greater than zero, but got ${s}`);
  if (p < 0) throw new TorchError(`${op}() padding must be non-negative, but got ${p}`);
  if (p > Math.floor(k / 2)) throw new TorchError(`${op}() padding should be at most half of kernel size, but got padding=${p} and kernel_size=${k}`);
  if (d <= 0) throw new TorchError(`${op}() dilation must be greater than zero, but got ${d}`);
  const out = poolOut(x.sizes[x.dim - 1], k, p, s, d, ceilMode);
  // (PyTorch's no-grad kernel returns an empty result here and its autograd path raises this; we always raise)
  if (out < 1) tooSmall(op, x, out);
  const pair = viaPlanes(input, (t) => {
    const r = maxPool2d(t, [1, k], { stride: [1, s], padding: [0, p], dilation: [1, d], ceilMode, returnIndices: true });
    return [r[0], r[1]];
  });
  if (returnIndices) return valuesIndices(pair);
  pair[1].dispose();
  return pair[0];
}

// (torch.avg_pool1d... and F.avg_pool1d...; no Tensor methods)
const POOL_NAMESPACES = { method: false, namespaces: ['torch', 'nn.functional'] } as const;

/** F.avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True). */
export const avgPool1d = front(
  'avg_pool1d(Tensor input, int[1] kernel_size, int[1]? stride=None, int[1] padding=0, bool ceil_mode=False, bool count_include_pad=True) -> Tensor',
  POOL_NAMESPACES,
).run(([input, kernelSize, stride, padding, ceilMode, countIncludePad]): Tensor => {
  const op = 'avg_pool1d';
  const x = unwrapTensor(op, 'input', input);
  checkInput1d(op, x, 'avg');
  const k = single(op, 'kernel_size', kernelSize);
  const s = single(op, 'stride', stride, k);
  const p = single(op, 'padding', padding);
  if (k <= 0) throw new TorchError(`${op}: kernel size should be greater than zero, but got kW: ${k}`);
  if (s <= 0) throw new TorchError(`${op}: stride should be greater than zero, but got dW: ${s}`);
  if (p < 0) throw new TorchError(`${op}: pad must be non-negative, but got padW: ${p}`);
  if (p > Math.floor(k / 2)) throw new TorchError(`${op}: pad should be at most half of kernel size, but got pad=${p} and kernel_size=${k}`);
  const out = poolOut(x.sizes[x.dim - 1], k, p, s, 1, ceilMode);
  if (out < 1) tooSmall(op, x, out);
  const [r] = viaPlanes(input, (t) => [avgPool2d(t, [1, k], { stride: [1, s], padding: [0, p], ceilMode, countIncludePad })]);
  return r;
});
export type AvgPool1dOptions = OptionsOf<typeof avgPool1d>;

/** F.adaptive_avg_pool1d(input, output_size): output_size an int or a list of one int. */
export const adaptiveAvgPool1d = front('adaptive_avg_pool1d(Tensor input, int[1] output_size) -> Tensor', POOL_NAMESPACES).run(([input, outputSize]): Tensor => {
  const op = 'adaptive_avg_pool1d';
  const x = unwrapTensor(op, 'input', input);
  checkInput1d(op, x, 'avg');
  const size = single(op, 'output_size', outputSize);
  if (size < 0) throw new TorchError(`${op}: elements of output_size must be greater than or equal to 0 but received {${size}}`);
  const [r] = viaPlanes(input, (t) => [adaptiveAvgPool2d(t, [1, size])]);
  return r;
});
