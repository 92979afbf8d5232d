import { DTYPES, type DType } from '../dtype';
import { separableResize } from './interpolate-separable';
import { adaptiveAvgPool1d } from './pooling-1d';
import { adaptiveAvgPool3d } from './pooling-3d';
import { indexedPad3d } from './pad-3d';
import { ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { TensorImpl } from '../tensor/tensor-impl';
import { isOptionsObject, makeBinder, type OptionalArgs } from './binder';
import { front, type OptionsOf } from './front';
import { callFunctional, unwrapTensor } from './call';
import { releaseAll, type Scalar } from './meta-utils';
import { adaptiveAvgPool2d, checkDtype, planeOutput, planes } from './pooling';
import { defineStructured, implOf } from './registry';
import { formatOf, inFormat } from './output-format';
import { formatStrides } from '../tensor/memory-format';
import type { PadMode, Pads2d } from './spatial-impls';
import { squeeze, unsqueeze } from './views';
import { channelsLastOutput, hasHook, nhwcInput, tryChannelsLast } from './pool-channels-last';
import type { Backend } from './registry';
import type { BackendImpls } from './backend-impls';

/**
 * Padding (constant_pad_nd, reflection / replication pads, circular) and interpolation
 * (upsample_nearest2d, upsample_bilinear2d). A 1-d pad or a 3-d interpolate runs on a
 * [P, 1, L] view of the input (Note [Spatial impls]); constant_pad_nd is fill + copy on
 * views and needs no kernel of its own.
 */

// ---- constant_pad_nd ----
function padOutputSizes(op: string, sizes: readonly number[], pad: readonly number[]): number[] {
  if (pad.length % 2 !== 0) throw new TorchError(`${op}: Length of pad must be even but instead it equals ${pad.length}`);
  if (pad.length / 2 > sizes.length) {
    throw new TorchError(
      `${op}: Length of pad should be no more than twice the number of dimensions of the input. Pad length is ${pad.length} while the input has ${sizes.length} dimensions.`,
    );
  }
  const out = [...sizes];
  for (let i = 0; i < pad.length / 2; i++) {
    const d = sizes.length - 1 - i;
    const n = sizes[d] + pad[2 * i] + pad[2 * i + 1];
    if (n < 0) {
      throw new ShapeError(
        `${op}: The input size ${sizes[d]}, plus negative padding ${pad[2 * i]} and ${pad[2 * i + 1]} resulted in a negative output size, which is invalid. Check dimension ${d} of your input.`,
      );
    }
    out[d] = n;
  }
  return out;
}

export const CONSTANT_PAD_ND = defineStructured('constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor', (args, b) => {
  const op = 'constant_pad_nd';
  const self = args[0];
  const pad = args[1].map(Number);
  const value = (args[2] ?? 0);
  const sizes = padOutputSizes(op, self.sizes, pad);
  // (in the input's memory format, as PyTorch's: Note [Outputs in the input's memory format];
  // the body works on any strides, so the output is allocated so directly)
  const format = formatOf(self);
  const out = format === 'contiguous' ? TensorImpl.empty(op, sizes, self.dtype, self.device) : TensorImpl.emptyStrided(op, sizes, formatStrides(op, sizes, format), self.dtype, self.device);
  // the region both share: in out from max(before, 0), in self from max(-before, 0)
  let so = self.storageOffset;
  let oo = 0;
  const n = [...self.sizes];
  for (let i = 0; i < pad.length / 2; i++) {
    const d = self.sizes.length - 1 - i;
    const before = pad[2 * i];
    const after = pad[2 * i + 1];
    n[d] = self.sizes[d] + Math.min(before, 0) + Math.min(after, 0);
    if (before > 0) oo += before * out.strides[d];
    else so += -before * self.strides[d];
  }
  const views: TensorImpl[] = [];
  try {
    if (out.numel > 0) {
      if (n.some((s) => s <= 0) || sizes.some((s, d) => s !== n[d])) implOf(b, 'fill', op)(out, value);
      if (n.every((s) => s > 0)) {
        const dst = out.view(n, out.strides, oo);
        views.push(dst);
        const src = self.view(n, self.strides, so);
        views.push(src);
        implOf(b, 'copy', op)(dst, src);
      }
    }
  } catch (e) {
    out.release();
    throw e;
  } finally {
    releaseAll(views);
  }
  return out;
});

export function constantPadNd(self: Tensor, pad: readonly number[], value: Scalar = 0): Tensor {
  return callFunctional(CONSTANT_PAD_ND, [unwrapTensor('constant_pad_nd', 'self', self), [...pad], value]);
}

// ---- reflection / replication / circular ----
const PAD_FLOATS: readonly DType[] = ['float32', 'float64', 'float16', 'bfloat16'];
const KERNEL_NAMES: Record<PadMode, string> = { reflect: 'reflection_pad', replicate: 'replication_pad', circular: '_pad_circular' };

function pads2d(pad: readonly number[]): Pads2d {
  return pad.length === 2 ? [pad[0], pad[1], 0, 0] : [pad[0], pad[1], pad[2], pad[3]];
}

function checkIndexedPad(op: string, self: TensorImpl, pad: readonly number[], mode: PadMode, sp: number): number[] {
  if (pad.length !== 2 * sp) throw new TorchError(`${op}: padding size is expected to be ${2 * sp}, but got: ${pad.length}`);
  if (self.dim !== sp + 1 && self.dim !== sp + 2) {
    throw new ShapeError(
      `${op}: Expected ${sp + 1}D or ${sp + 2}D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ${fmtShape(self.sizes)}`,
    );
  }
  const out = [...self.sizes];
  for (let i = 0; i < sp; i++) {
    const d = self.dim - 1 - i;
    const n = self.sizes[d];
    const [l, r] = [pad[2 * i], pad[2 * i + 1]];
    if (n === 0 && self.dim - d <= sp) {
      throw new ShapeError(`${op}: Expected ${sp + 1}D or ${sp + 2}D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ${fmtShape(self.sizes)}`);
    }
    if (mode === 'reflect' && (l >= n || r >= n)) {
      throw new TorchError(
        `${op}: Argument #${sp + 2}: Padding size should be less than the corresponding input dimension, but got: padding (${l}, ${r}) at dimension ${d} of input ${fmtShape(self.sizes)}`,
      );
    }
    if (mode === 'circular' && (l > n || r > n)) throw new TorchError(`${op}: Padding value causes wrapping around more than once.`);
    if (mode !== 'circular' && (l < 0 || r < 0) && n + l + r < 1) {
      throw new ShapeError(`${op}: input (${self.sizes.slice(-sp).join(', ')}) is too small. Calculated output (${n + l + r}) is too small`);
    }
    out[d] = n + l + r;
    if (out[d] < 0) throw new ShapeError(`${op}: Negative output size ${out[d]} at dimension ${d}`);
  }
  return out;
}

function defineIndexedPad(mode: PadMode, sp: 1 | 2) {
  const name = `${KERNEL_NAMES[mode]}${sp}d`;
  const kernel = mode === 'replicate' ? `${name}_cpu` : name;
  const dtypes = mode === 'circular' ? DTYPES : PAD_FLOATS;
  const forward = defineStructured(`${name}(Tensor self, SymInt[${2 * sp}] padding) -> Tensor`, (args, b) => {
    const self = args[0];
    const pad = args[1].map(Number);
    const sizes = checkIndexedPad(name, self, pad, mode, sp);
    checkDtype(name, kernel, self, dtypes);
    return runPlanes(b, name, self, sizes, sp, (o, x) => implOf(b, 'padIndexed', name)(o, x, pads2d(pad), mode));
  });
  const bname = `${name}_backward`;
  const backward = defineStructured(`${bname}(Tensor grad_output, Tensor self, SymInt[${2 * sp}] padding) -> Tensor`, (args, b) => {
    const [go, self] = args;
    const pad = args[2].map(Number);
    const sizes = checkIndexedPad(bname, self, pad, mode, sp);
    checkDtype(bname, bname, self, PAD_FLOATS);
    if (go.dtype !== self.dtype || go.sizes.length !== sizes.length || go.sizes.some((s, i) => s !== sizes[i])) {
      throw new ShapeError(`${bname}: expected grad_output of size ${fmtShape(sizes)}, but got ${fmtShape(go.sizes)}`);
    }
    return runPlanes(b, bname, go, self.sizes, sp, (gi, g) => implOf(b, 'padIndexedBackward', bname)(gi, g, pads2d(pad), mode));
  });
  return { forward, backward };
}

/** Runs `f(out planes, input planes)` with a 1-d pad's tensors viewed as [P, 1, L]. */
function runPlanes(
  b: Parameters<typeof planes>[0],
  op: string,
  self: TensorImpl,
  outSizes: readonly number[],
  sp: 1 | 2,
  f: (o: TensorImpl, x: TensorImpl) => void,
): TensorImpl {
  const lift = (s: readonly number[]) => (sp === 1 ? [...s.slice(0, -1), 1, s[s.length - 1]] : [...s]);
  const [out, o3] = planeOutput(op, lift(outSizes), self.dtype, self);
  const x4 = sp === 1 ? self.view(lift(self.sizes), [...self.strides.slice(0, -1), 0, self.strides[self.dim - 1]], self.storageOffset) : self.retain();
  const x = planes(b, op, x4);
  try {
    if (out.numel > 0) f(o3, x);
  } catch (e) {
    out.release();
    throw e;
  } finally {
    releaseAll([o3, x, x4]);
  }
  if (sp === 2) return out;
  const r = out.regeometried([...outSizes], contiguousOf(outSizes), 0);
  out.release();
  return r;
}

function contiguousOf(sizes: readonly number[]): number[] {
  const s = new Array<number>(sizes.length);
  let acc = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    s[d] = acc;
    acc *= sizes[d];
  }
  return s;
}

export const REFLECTION_PAD1D = defineIndexedPad('reflect', 1);
export const REFLECTION_PAD2D = defineIndexedPad('reflect', 2);
export const REPLICATION_PAD1D = defineIndexedPad('replicate', 1);
export const REPLICATION_PAD2D = defineIndexedPad('replicate', 2);
export const PAD_CIRCULAR1D = defineIndexedPad('circular', 1);
export const PAD_CIRCULAR2D = defineIndexedPad('circular', 2);

const INDEXED_PADS = {
  reflect: [REFLECTION_PAD1D, REFLECTION_PAD2D],
  replicate: [REPLICATION_PAD1D, REPLICATION_PAD2D],
  circular: [PAD_CIRCULAR1D, PAD_CIRCULAR2D],
} as const;

/** The forward op of an indexed pad (Tensor level, for the derivatives). */
export function indexedPad(self: Tensor, pad: readonly number[], mode: PadMode): Tensor {
  return callFunctional(INDEXED_PADS[mode][pad.length === 2 ? 0 : 1].forward, [self.impl, [...pad]]);
}

export function indexedPadBackward(gradOutput: Tensor, self: Tensor, pad: readonly number[], mode: PadMode): Tensor {
  return callFunctional(INDEXED_PADS[mode][pad.length === 2 ? 0 : 1].backward, [gradOutput.impl, self.impl, [...pad]]);
}

/** F.pad: `pad` lists (before, after) pairs from the last dim backwards, as PyTorch's. */
export const pad = front("pad(Tensor input, int[] pad, str mode='constant', float? value=None) -> Tensor", {
  method: false,
  namespaces: ['nn.functional'],
  choices: { mode: ['constant', 'reflect', 'replicate', 'circular'] },
}).run(([input, pad, m, value]): Tensor => {
  const op = 'pad';
  const x = unwrapTensor(op, 'input', input);
  if (!Array.isArray(pad) || !pad.every((p) => Number.isInteger(p))) throw new TorchError(`${op}(): argument 'pad' must be a list of ints`);
  if (pad.length % 2 !== 0) throw new TorchError(`${op}: Padding length must be divisible by 2`);
  if (pad.length / 2 > x.dim) {
    throw new TorchError(`${op}: Padding length should be less than or equal to two times the input dimension but got padding length ${pad.length} and input of dimension ${x.dim}`);
  }
  if (m === 'constant') return constantPadNd(input, pad, value ?? 0);
  if (m !== 'reflect' && m !== 'replicate' && m !== 'circular') throw new TorchError(`${op}: Unrecognised padding mode ${String(m)}`);
  if (value != null && value !== 0) throw new TorchError(`${op}: Padding mode "${m}" doesn't take in value argument`);
  const sp = pad.length / 2;
  if (sp === 3 && (x.dim === 4 || x.dim === 5)) return indexedPad3d(input, pad, m);
  if ((sp !== 1 && sp !== 2) || (x.dim !== sp + 1 && x.dim !== sp + 2)) {
    throw new TorchError(`${op}: Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now (got a padding of length ${pad.length} for an input of size ${fmtShape(x.sizes)} in mode ${m})`);
  }
  return indexedPad(input, pad, m);
});
export type PadOptions = OptionsOf<typeof pad>;

// ---- interpolate ----
const INTERP_FLOATS: readonly DType[] = ['float32', 'float64', 'float16', 'bfloat16'];

function checkResample(op: string, self: TensorImpl, size: readonly number[]): void {
  if (self.dim !== 4) throw new ShapeError(`${op}: Expected a 4D input, but got ${fmtShape(self.sizes)}`);
  const [H, W] = self.sizes.slice(2);
  if (!(H > 0 && W > 0 && size[0] > 0 && size[1] > 0)) {
    throw new ShapeError(`${op}: Input and output sizes should be greater than 0, but got input (H: ${H}, W: ${W}) output (H: ${size[0]}, W: ${size[1]})`);
  }
  if (self.sizes[1] === 0) throw new ShapeError(`${op}: Non-empty 4D data tensor expected but got a tensor with sizes ${fmtShape(self.sizes)}`);
}

const optScale = (v: unknown): number | null => (v == null ? null : Number(v));

export const UPSAMPLE_NEAREST2D = defineStructured(
  'upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor',
  (args, b) => {
    const op = 'upsample_nearest2d';
    const self = args[0];
    const size = args[1];
    checkResample(op, self, size);
    checkDtype(op, 'upsample_nearest2d_channels_last', self, [...INTERP_FLOATS, 'uint8']);
    const sizes = [...self.sizes.slice(0, 2), size[0], size[1]];
    const direct = nhwcForward(b, op, 'upsampleNearest2dChannelsLast', self, sizes, (f, o) => f(o, self, optScale(args[2]), optScale(args[3])));
    if (direct) return direct;
    const out = runPlanes(b, op, self, [...self.sizes.slice(0, 2), size[0], size[1]], 2, (o, x) =>
      implOf(b, 'upsampleNearest2d', op)(o, x, optScale(args[2]), optScale(args[3])),
    );
    return inFormat(b, op, out, formatOf(self));
  },
);

export const UPSAMPLE_NEAREST2D_BACKWARD = defineStructured(
  'upsample_nearest2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, float? scales_h=None, float? scales_w=None) -> Tensor',
  (args, b) => {
    const op = 'upsample_nearest2d_backward';
    const go = args[0];
    const size = args[1];
    const inSize = args[2];
    checkResampleGrad(op, go, size, inSize);
    checkDtype(op, op, go, INTERP_FLOATS);
    const direct = nhwcBackward(b, op, 'upsampleNearest2dBackwardChannelsLast', go, inSize, (f, gi) => f(gi, go, optScale(args[3]), optScale(args[4])));
    if (direct) return direct;
    return runBackward(b, op, go, inSize, (gi, g) => implOf(b, 'upsampleNearest2dBackward', op)(gi, g, optScale(args[3]), optScale(args[4])));
  },
);

export const UPSAMPLE_BILINEAR2D = defineStructured(
  'upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor',
  (args, b) => {
    const op = 'upsample_bilinear2d';
    const self = args[0];
    const size = args[1];
    checkResample(op, self, size);
    checkDtype(op, 'upsample_bilinear2d_channels_last', self, INTERP_FLOATS);
    const sizes = [...self.sizes.slice(0, 2), size[0], size[1]];
    const direct = nhwcForward(b, op, 'upsampleBilinear2dChannelsLast', self, sizes, (f, o) => f(o, self, args[2] === true, optScale(args[3]), optScale(args[4])));
    if (direct) return direct;
    const out = runPlanes(b, op, self, [...self.sizes.slice(0, 2), size[0], size[1]], 2, (o, x) =>
      implOf(b, 'upsampleBilinear2d', op)(o, x, args[2] === true, optScale(args[3]), optScale(args[4])),
    );
    return inFormat(b, op, out, formatOf(self));
  },
);

export const UPSAMPLE_BILINEAR2D_BACKWARD = defineStructured(
  'upsample_bilinear2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor',
  (args, b) => {
    const op = 'upsample_bilinear2d_backward';
    const go = args[0];
    const size = args[1];
    const inSize = args[2];
    checkResampleGrad(op, go, size, inSize);
    checkDtype(op, op, go, INTERP_FLOATS);
    const direct = nhwcBackward(b, op, 'upsampleBilinear2dBackwardChannelsLast', go, inSize, (f, gi) => f(gi, go, args[3] === true, optScale(args[4]), optScale(args[5])));
    if (direct) return direct;
    return runBackward(b, op, go, inSize, (gi, g) =>
      implOf(b, 'upsampleBilinear2dBackward', op)(gi, g, args[3] === true, optScale(args[4]), optScale(args[5])),
    );
  },
);

/**
 * Note [Channels-last upsampling]
 * PyTorch 1.13 has channels-last CPU kernels for upsample_nearest2d and upsample_bilinear2d
 * (forward and backward). Computed on NCHW planes, a channels-last input costs two layout
 * copies (`planes`, then `inFormat` back); a backend with NHWC kernels registers the optional
 * hooks `upsample{Nearest,Bilinear}2d[Backward]ChannelsLast` (OptionalImplName), which core
 * takes, as for pooling (Note [Channels-last pooling impls]), when the forward's input is 4-d,
 * dense channels-last and suggests channels-last (its result is channels-last), or when the
 * backward's grad_output is so (its grad_input takes grad_output's format, as 1.13's). The
 * hooks compute each element with the NCHW kernels' source indices and arithmetic, and a
 * backward adds an input element's terms in the same (output-row-major) order, so values
 * equal the NCHW path's. A decline (false, before writing anything: dtypes without such a
 * kernel) takes the NCHW path.
 */
type UpsampleHook = 'upsampleNearest2dChannelsLast' | 'upsampleBilinear2dChannelsLast';
type UpsampleBackwardHook = 'upsampleNearest2dBackwardChannelsLast' | 'upsampleBilinear2dBackwardChannelsLast';

function nhwcForward<K extends UpsampleHook>(
  b: Backend,
  op: string,
  name: K,
  self: TensorImpl,
  sizes: number[],
  f: (impl: BackendImpls[K], out: TensorImpl) => boolean | void,
): TensorImpl | null {
  if (!nhwcInput(self, formatOf(self)) || !hasHook(b, name)) return null;
  const out = channelsLastOutput(op, sizes, self.dtype, self);
  return tryChannelsLast(b, name, [out], (impl) => f(impl, out))?.[0] ?? null;
}

function nhwcBackward<K extends UpsampleBackwardHook>(
  b: Backend,
  op: string,
  name: K,
  go: TensorImpl,
  inSize: readonly number[],
  f: (impl: BackendImpls[K], gi: TensorImpl) => boolean | void,
): TensorImpl | null {
  if (!nhwcInput(go, formatOf(go)) || !hasHook(b, name)) return null;
  const gi = channelsLastOutput(op, inSize, go.dtype, go);
  return tryChannelsLast(b, name, [gi], (impl) => f(impl, gi))?.[0] ?? null;
}

function checkResampleGrad(op: string, go: TensorImpl, size: readonly number[], inSize: readonly number[]): void {
  const expected = [inSize[0], inSize[1], size[0], size[1]];
  if (inSize.length !== 4 || go.sizes.length !== 4 || go.sizes.some((s, i) => s !== expected[i])) {
    throw new ShapeError(`${op}: expected grad_output of size ${fmtShape(expected)}, but got ${fmtShape(go.sizes)}`);
  }
}

function runBackward(b: Parameters<typeof planes>[0], op: string, go: TensorImpl, inSize: readonly number[], f: (gi: TensorImpl, g: TensorImpl) => void): TensorImpl {
  const [gi, gi3] = planeOutput(op, inSize, go.dtype, go);
  const g3 = planes(b, op, go);
  try {
    if (gi.numel > 0) f(gi3, g3);
  } catch (e) {
    gi.release();
    throw e;
  } finally {
    releaseAll([gi3, g3]);
  }
  // (upsampling's grad_input takes grad_output's memory format, as PyTorch 1.13's)
  return inFormat(b, op, gi, formatOf(go));
}

export function upsampleNearest2d(self: Tensor, outputSize: readonly number[], scalesH: number | null, scalesW: number | null): Tensor {
  return callFunctional(UPSAMPLE_NEAREST2D, [self.impl, [...outputSize], scalesH, scalesW]);
}
export function upsampleNearest2dBackward(
  gradOutput: Tensor,
  outputSize: readonly number[],
  inputSize: readonly number[],
  scalesH: number | null,
  scalesW: number | null,
): Tensor {
  return callFunctional(UPSAMPLE_NEAREST2D_BACKWARD, [gradOutput.impl, [...outputSize], [...inputSize], scalesH, scalesW]);
}
export function upsampleBilinear2d(self: Tensor, outputSize: readonly number[], alignCorners: boolean, scalesH: number | null, scalesW: number | null): Tensor {
  return callFunctional(UPSAMPLE_BILINEAR2D, [self.impl, [...outputSize], alignCorners, scalesH, scalesW]);
}
export function upsampleBilinear2dBackward(
  gradOutput: Tensor,
  outputSize: readonly number[],
  inputSize: readonly number[],
  alignCorners: boolean,
  scalesH: number | null,
  scalesW: number | null,
): Tensor {
  return callFunctional(UPSAMPLE_BILINEAR2D_BACKWARD, [gradOutput.impl, [...outputSize], [...inputSize], alignCorners, scalesH, scalesW]);
}

export interface InterpolateOptions {
  size?: number | readonly number[] | null;
  scaleFactor?: number | readonly number[] | null;
  mode?: 'nearest' | 'linear' | 'bilinear' | 'bicubic' | 'trilinear' | 'area' | 'nearest-exact';
  alignCorners?: boolean | null;
  recomputeScaleFactor?: boolean | null;
  /** Not supported yet: `true` raises NotImplementedError. */
  antialias?: boolean;
}

const interpolateArgs = makeBinder(
  'interpolate',
  "interpolate(Tensor input, int[]? size=None, float[]? scale_factor=None, str mode='nearest', bool? align_corners=None, bool? recompute_scale_factor=None, bool antialias=False) -> Tensor",
  { unsupported: ['antialias'] },
);

// (not a front end: it reads the raw arguments, a number for `size` applying to every spatial
// dim where a one-element list must match them, and a front end's body sees only bound values)
/**
 * F.interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
 * recompute_scale_factor=None) for 'nearest' and 'nearest-exact' (3-d, 4-d and 5-d), 'linear'
 * (3-d), 'bilinear' and 'bicubic' (4-d), 'trilinear' (5-d) and 'area' (any) inputs. One size or factor (a number) applies to every spatial dim.
 */
export function interpolate(
  input: Tensor,
  ...rest: OptionalArgs<[size: number | readonly number[], scaleFactor: number | readonly number[], mode: InterpolateOptions['mode'], alignCorners: boolean, recomputeScaleFactor: boolean], InterpolateOptions>
): Tensor;
export function interpolate(...args: unknown[]): Tensor {
  const op = 'interpolate';
  const [input, size, scaleFactor, mode, alignCorners, recomputeScaleFactor] = interpolateArgs.bind(args);
  const x = unwrapTensor(op, 'input', input);
  // A number applies to every spatial dim; a list must name each (PyTorch raises for [3] on 4-d input).
  const last = args[args.length - 1];
  const options = isOptionsObject(last) ? last : {};
  const given = (i: number, key: 'size' | 'scaleFactor') => (args.length > i && !isOptionsObject(args[i]) ? args[i] : options[key]);
  const oneFor = (v: unknown) => typeof v === 'number' || typeof v === 'bigint';
  const MODES = ['nearest', 'linear', 'bilinear', 'bicubic', 'trilinear', 'area', 'nearest-exact'];
  if (!MODES.includes(mode)) {
    throw new TorchError(`${op}: Input Error: unsupported mode '${String(mode)}' (torch-ts has nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact)`);
  }
  const linear = mode === 'linear' || mode === 'bilinear';
  const interpolating = linear || mode === 'bicubic' || mode === 'trilinear';
  if (!interpolating && alignCorners != null) {
    throw new TorchError(`${op}: align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear`);
  }
  const sp = x.dim - 2;
  if (sp < 1 || sp > 3) {
    throw new TorchError(
      `${op}: Input Error: Only 3D, 4D and 5D input Tensors supported (got ${x.dim}D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got ${mode})`,
    );
  }
  // (PyTorch names the needed rank for linear, bilinear and trilinear; bicubic on other ranks gets its generic message)
  const needs: Record<string, number> = { linear: 1, bilinear: 2, bicubic: 2, trilinear: 3 };
  if (mode in needs && sp !== needs[mode]) {
    if (mode === 'bicubic') {
      throw new TorchError(
        `${op}: Input Error: Only 3D, 4D and 5D input Tensors supported (got ${x.dim}D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got ${mode})`,
      );
    }
    throw new TorchError(`${op}: Got ${x.dim}D input, but ${mode} mode needs ${needs[mode] + 2}D input`);
  }
  if (size != null && scaleFactor != null) throw new TorchError(`${op}: only one of size or scale_factor should be defined`);
  const spatial = x.sizes.slice(2);
  let outSize: number[];
  let scales: (number | null)[] = [null, null, null];
  if (size != null) {
    const s = oneFor(given(1, 'size')) ? Array<number>(sp).fill(size[0]) : size;
    if (s.length !== sp) {
      throw new TorchError(
        `${op}: Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of ${fmtShape(spatial)} and output size of ${fmtShape(s)}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.`,
      );
    }
    outSize = s;
  } else if (scaleFactor != null) {
    const f = oneFor(given(2, 'scaleFactor')) ? Array<number>(sp).fill(scaleFactor[0]) : scaleFactor;
    if (f.length !== sp) {
      throw new TorchError(
        `${op}: Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions of ${fmtShape(spatial)} and scale_factor of shape ${fmtShape(f)}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.`,
      );
    }
    outSize = spatial.map((n, i) => Math.floor(n * f[i]));
    scales = recomputeScaleFactor ? [null, null, null] : f;
  } else throw new TorchError(`${op}: either size or scale_factor should be defined`);
  const align = alignCorners ?? false;
  // area is adaptive average pooling; trilinear, bicubic and 5-d nearest are separable (Note [Separable interpolation])
  if (mode === 'area') return [adaptiveAvgPool1d, adaptiveAvgPool2d, adaptiveAvgPool3d][sp - 1](input, outSize);
  if (mode === 'bicubic' || mode === 'trilinear' || mode === 'nearest-exact' || sp === 3) {
    const kind = mode === 'bicubic' ? 'cubic' : mode === 'trilinear' ? 'linear' : mode === 'nearest-exact' ? 'nearest-exact' : 'nearest';
    return separableResize(op, input, kind, outSize, align, scales);
  }
  if (sp === 1) {
    // 3-d: the 2-d op on a height-1 view
    return tidy(() => {
      const x4 = unsqueeze(input, 2);
      const r = linear
        ? upsampleBilinear2d(x4, [1, outSize[0]], align, null, scales[0])
        : upsampleNearest2d(x4, [1, outSize[0]], null, scales[0]);
      return squeeze(r, 2);
    });
  }
  return linear ? upsampleBilinear2d(input, outSize, align, scales[0], scales[1]) : upsampleNearest2d(input, outSize, scales[0], scales[1]);
}
