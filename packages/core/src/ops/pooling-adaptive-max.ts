import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import type { TensorImpl } from '../tensor/tensor-impl';
import { makeBinder, type OptionalArgs } from './binder';
import { callFunctional, callMulti, unwrapTensor } from './call';
import { valuesIndices, type ValuesIndices } from './reduction';
import { squeeze, unsqueeze } from './views';
import { adaptiveWindows, windowMax } from './pooling-windows';
import { adaptiveSizes, checkFloating } from './pooling-3d';
import { contiguous } from './copy';
import { formatOf } from './output-format';
import { DispatchKeySet } from '../dispatch/dispatch-key-set';
import { composite } from './composite';
import { scatterAdd } from './gather-scatter';
import { zeros } from './factories';
import { releaseAll, torchTypeName } from './meta-utils';
import { defineStructured } from './registry';
import { movedim, reshape } from './shape-ops';
import { channelsLastOperand, channelsLastOutput, deviceHasHook, hasHook, nhwcInput, tryChannelsLast } from './pool-channels-last';

/**
 * adaptive_max_pool1d / 2d / 3d, composites over adaptive window tables (Note [Pooling as
 * window tables]): each output position's window is [floor(o n / out), ceil((o + 1) n / out)),
 * the indices flat positions in the spatial dims, as PyTorch's `return_indices` gives them.
 * A dense channels-last 4-d input takes the kernel ops below where the backend has the hook
 * (Note [Channels-last pooling impls]).
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
  // Note [Channels-last pooling impls]: a dense channels-last 4-d input on a backend with the
  // hook takes the kernel op (values, indices and gradient channels-last, no layout copies)
  if (sp === 2 && x.dim === 4 && size[0] > 0 && size[1] > 0 && nhwcInput(x, format) && deviceHasHook(x.device, 'adaptiveMaxPool2dChannelsLast')) {
    const [values, indices] = callMulti(ADAPTIVE_MAX_POOL2D, [x, [size[0], size[1]]]);
    if (returnIndices) return valuesIndices([values, indices]);
    indices.dispose();
    return values;
  }
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

/** The composite's (values, indices) of a 4-d `input` laid out in its memory format (PyTorch's kernel writes them so). */
function windowMax2d(input: Tensor, outputSize: readonly number[]): Tensor[] {
  const tables = input.shape.slice(2).map((n, i) => adaptiveWindows(n, outputSize[i]));
  const format = formatOf(input.impl);
  const pair = windowMax(input, tables, format === 'channels_last');
  if (format !== 'channels_last') return pair;
  return tidy(() => pair.map((t) => contiguous(t, { memoryFormat: format })));
}

/**
 * `adaptive_max_pool2d` (AdaptiveMaxPool2DBackward0), the kernel op a dense channels-last
 * 4-d input takes where the backend has `adaptiveMaxPool2dChannelsLast` (the front end above
 * checked the arguments). A call the hook declines runs the composite here (Note
 * [Channels-last pooling impls]).
 */
export const ADAPTIVE_MAX_POOL2D = defineStructured('adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)', (args, b) => {
  const op = 'adaptive_max_pool2d';
  const [self, size] = args;
  if (self.dim !== 4 || size.length !== 2 || size.some((s) => !Number.isInteger(s) || s <= 0)) {
    throw new ShapeError(`${op}(): expected a 4-d input and two positive output sizes, but got input ${fmtShape(self.sizes)} and output_size ${fmtShape(size)}`);
  }
  const sizes = [self.sizes[0], self.sizes[1], size[0], size[1]];
  if (nhwcInput(self, formatOf(self))) {
    const outs = [channelsLastOutput(op, sizes, self.dtype, self), channelsLastOutput(op, sizes, 'int64', self)];
    const r = tryChannelsLast(b, 'adaptiveMaxPool2dChannelsLast', outs, (f) => f(outs[0], outs[1], self));
    if (r) return r;
  }
  return composite(([x, s]) => windowMax2d(x as Tensor, s as number[]))(DispatchKeySet.EMPTY, [self, size]);
});

/**
 * `adaptive_max_pool2d_backward` (AdaptiveMaxPool2DBackwardBackward0): the gradient added at
 * the indices, channels-last as the input (PyTorch 1.13's), by the backend's hook or, where it
 * declines, a scatter-add over [N, H W, C].
 */
export const ADAPTIVE_MAX_POOL2D_BACKWARD = defineStructured(
  'adaptive_max_pool2d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor',
  (args, b) => {
    const op = 'adaptive_max_pool2d_backward';
    const [go, self, indices] = args;
    if (self.dim !== 4 || go.dim !== 4 || go.sizes.slice(0, 2).some((s, i) => s !== self.sizes[i])) {
      throw new ShapeError(`${op}: expected grad_output of size ${fmtShape([...self.sizes.slice(0, 2), go.sizes[2], go.sizes[3]])}, but got ${fmtShape(go.sizes)}`);
    }
    if (go.dtype !== self.dtype) throw new DTypeError(`${op}: expected grad_output of dtype ${torchTypeName(self.dtype)}, but got ${torchTypeName(go.dtype)}`);
    if (indices.dtype !== 'int64' || indices.sizes.length !== 4 || indices.sizes.some((s, i) => s !== go.sizes[i])) {
      throw new ShapeError(`${op}: expected indices of dtype Long and size ${fmtShape(go.sizes)}, but got ${torchTypeName(indices.dtype)} ${fmtShape(indices.sizes)}`);
    }
    if (nhwcInput(self, formatOf(self)) && hasHook(b, 'adaptiveMaxPool2dBackwardChannelsLast')) {
      const held = [channelsLastOperand(b, op, go), channelsLastOperand(b, op, indices)];
      const outs = [channelsLastOutput(op, self.sizes, self.dtype, self)];
      try {
        const r = tryChannelsLast(b, 'adaptiveMaxPool2dBackwardChannelsLast', outs, (f) => f(outs[0], held[0], held[1]));
        if (r) return r[0];
      } finally {
        releaseAll(held);
      }
    }
    return composite(([g, x, ix]) => {
      const [N, C, H, W] = (x as Tensor).shape;
      const rows = (t: Tensor) => reshape(movedim(t, 1, -1), [N, -1, C]);
      const gi = scatterAdd(zeros([N, H * W, C], { dtype: (x as Tensor).dtype, device: (x as Tensor).device }), 1, rows(ix as Tensor), rows(g as Tensor));
      return movedim(reshape(gi, [N, H, W, C]), -1, 1);
    })(DispatchKeySet.EMPTY, [go, self, indices]);
  },
);

/** adaptive_max_pool2d_backward (the derivative table's entry point). */
export function adaptiveMaxPool2dBackward(gradOutput: Tensor, self: Tensor, indices: Tensor): Tensor {
  return callFunctional(ADAPTIVE_MAX_POOL2D_BACKWARD, [gradOutput.impl, self.impl, indices.impl]);
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
