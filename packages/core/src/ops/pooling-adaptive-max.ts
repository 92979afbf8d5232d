import { ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import type { TensorImpl } from '../tensor/tensor-impl';
import { makeBinder, type OptionalArgs } from './binder';
import { unwrapTensor } from './call';
import { valuesIndices, type ValuesIndices } from './reduction';
import { squeeze, unsqueeze } from './views';
import { adaptiveWindows, windowMax } from './pooling-windows';
import { adaptiveSizes, checkFloating } from './pooling-3d';
import { contiguous } from './copy';
import { formatOf } from './output-format';

/**
 * adaptive_max_pool1d / 2d / 3d, composites over adaptive window tables (Note [Pooling as
 * window tables]): each output position's window is [floor(o n / out), ceil((o + 1) n / out)),
 * the indices flat positions in the spatial dims, as PyTorch's `return_indices` gives them.
 */

type SizeN = number | readonly (number | null)[];

function checkInput(op: string, x: TensorImpl, sp: number): void {
  if (sp === 1) {
    if (x.dim !== 2 && x.dim !== 3) {
      throw new ShapeError(`${op}: Expected 2 to 3 dimensions, but got ${x.dim}-dimensional tensor for argument #1 'self' (while checking arguments for ${op})`);
    }
  } else if (x.dim !== sp + 1 && x.dim !== sp + 2) {
    throw new ShapeError(`${op}(): Expected ${sp + 1}D or ${sp + 2}D tensor, but got: ${fmtShape(x.sizes)}`);
  }
  for (let i = 1; i < x.dim; i++) {
    if (x.sizes[i] === 0) {
      throw new ShapeError(`${op}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ${fmtShape(x.sizes)} with dimension ${i} being empty`);
    }
  }
}

function adaptiveMax(op: string, sp: number, input: Tensor, outputSize: unknown, returnIndices: boolean): Tensor | ValuesIndices {
  const x = unwrapTensor(op, 'input', input);
  let req: (number | null)[];
  if (typeof outputSize === 'number') req = Array<number>(sp).fill(outputSize);
  else if (Array.isArray(outputSize)) req = sp === 1 || outputSize.length !== 1 ? [...(outputSize as (number | null)[])] : Array<number | null>(sp).fill(outputSize[0] as number | null);
  else throw new TorchError(`${op}(): argument 'output_size' must be an int or a tuple of ${sp} ints, but got ${String(outputSize)}`);
  if (sp === 1 && req.length !== 1) throw new TorchError(`${op}() argument 'output_size' should contain one int (got ${req.length})`);
  checkInput(op, x, sp);
  const size = adaptiveSizes(op, x, req, sp);
  checkFloating(op, `adaptive_max_pool${sp}d_cpu`, x);
  const tables = x.sizes.slice(x.dim - sp).map((n, i) => adaptiveWindows(n, size[i]));
  const format = formatOf(x);
  // a channels-last 4-d input's gradient is channels-last (Note [Channels-last gradient of the window max])
  let pair: Tensor[] = x.dim === sp + 2 ? windowMax(input, tables, format === 'channels_last' && sp === 2) : tidy(() => windowMax(unsqueeze(input, 0), tables).map((t) => squeeze(t, 0)));
  // PyTorch's kernel writes values and indices in the input's memory format (Note [Outputs in
  // the input's memory format]); the composite's are contiguous, so they are relaid once.
  // PyTorch 1.13's adaptive_max_pool3d has no channels_last_3d kernel: its outputs stay contiguous.
  if (format === 'channels_last' && x.dim === sp + 2) {
    const laid = pair.map((t) => contiguous(t, { memoryFormat: format }));
    pair.forEach((t, i) => t !== laid[i] && t.dispose());
    pair = laid;
  }
  if (returnIndices) return valuesIndices([pair[0], pair[1]]);
  pair[1].dispose();
  return pair[0];
}

export interface AdaptiveMaxPoolOptions {
  returnIndices?: boolean;
}

const binders = {
  1: makeBinder('adaptive_max_pool1d', 'adaptive_max_pool1d(Tensor input, int[1] output_size, bool return_indices=False) -> Tensor'),
  2: makeBinder('adaptive_max_pool2d', 'adaptive_max_pool2d(Tensor input, int?[2] output_size, bool return_indices=False) -> Tensor'),
  3: makeBinder('adaptive_max_pool3d', 'adaptive_max_pool3d(Tensor input, int?[3] output_size, bool return_indices=False) -> Tensor'),
};

// (not front ends, as maxPool2d: the result is a Tensor or (values, indices) by `return_indices`)
/** F.adaptive_max_pool1d(input, output_size, return_indices=False). */
export function adaptiveMaxPool1d(input: Tensor, outputSize: SizeN, options: AdaptiveMaxPoolOptions & { returnIndices: true }): ValuesIndices;
export function adaptiveMaxPool1d(input: Tensor, outputSize: SizeN, returnIndices: true): ValuesIndices;
export function adaptiveMaxPool1d(input: Tensor, outputSize: SizeN, ...rest: OptionalArgs<[returnIndices: false], AdaptiveMaxPoolOptions & { returnIndices?: false }>): Tensor;
export function adaptiveMaxPool1d(input: Tensor, outputSize: SizeN, ...rest: OptionalArgs<[returnIndices: boolean], AdaptiveMaxPoolOptions>): Tensor | ValuesIndices;
export function adaptiveMaxPool1d(...a: unknown[]): Tensor | ValuesIndices {
  const [input, outputSize, returnIndices] = binders[1].bind(a);
  return adaptiveMax('adaptive_max_pool1d', 1, input, outputSize, returnIndices);
}

/** F.adaptive_max_pool2d(input, output_size, return_indices=False): output_size an int or [h, w], null keeping the input's size. */
export function adaptiveMaxPool2d(input: Tensor, outputSize: SizeN, options: AdaptiveMaxPoolOptions & { returnIndices: true }): ValuesIndices;
export function adaptiveMaxPool2d(input: Tensor, outputSize: SizeN, returnIndices: true): ValuesIndices;
export function adaptiveMaxPool2d(input: Tensor, outputSize: SizeN, ...rest: OptionalArgs<[returnIndices: false], AdaptiveMaxPoolOptions & { returnIndices?: false }>): Tensor;
export function adaptiveMaxPool2d(input: Tensor, outputSize: SizeN, ...rest: OptionalArgs<[returnIndices: boolean], AdaptiveMaxPoolOptions>): Tensor | ValuesIndices;
export function adaptiveMaxPool2d(...a: unknown[]): Tensor | ValuesIndices {
  const [input, outputSize, returnIndices] = binders[2].bind(a);
  return adaptiveMax('adaptive_max_pool2d', 2, input, outputSize, returnIndices);
}

/** F.adaptive_max_pool3d(input, output_size, return_indices=False): output_size an int or [d, h, w], null keeping the input's size. */
export function adaptiveMaxPool3d(input: Tensor, outputSize: SizeN, options: AdaptiveMaxPoolOptions & { returnIndices: true }): ValuesIndices;
export function adaptiveMaxPool3d(input: Tensor, outputSize: SizeN, returnIndices: true): ValuesIndices;
export function adaptiveMaxPool3d(input: Tensor, outputSize: SizeN, ...rest: OptionalArgs<[returnIndices: false], AdaptiveMaxPoolOptions & { returnIndices?: false }>): Tensor;
export function adaptiveMaxPool3d(input: Tensor, outputSize: SizeN, ...rest: OptionalArgs<[returnIndices: boolean], AdaptiveMaxPoolOptions>): Tensor | ValuesIndices;
export function adaptiveMaxPool3d(...a: unknown[]): Tensor | ValuesIndices {
  const [input, outputSize, returnIndices] = binders[3].bind(a);
  return adaptiveMax('adaptive_max_pool3d', 3, input, outputSize, returnIndices);
}
