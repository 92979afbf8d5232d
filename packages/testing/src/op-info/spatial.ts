import * as torch from '@torch-ts/torch';
import {
  DTypeError,
  ShapeError,
  TorchError,
  type DType,
  type DeviceLike,
  type Tensor,
} from '@torch-ts/torch';
import { ALL_DTYPES, FLOAT_ACC_2X, FLOAT_DTYPES, HALF_2X, tensorArg } from './common';
import { bool, check, either, intOrInts, ints, num, oneOf, options, required } from './kwargs';
import type { ErrorInput, Kwargs, OpInfo, OpInput } from './types';
import { untyped } from './untyped';

const F = torch.nn.functional;

/**
 * The spatial ops (convolution, pooling, interpolation, padding). Their options come from
 * the goldens as torch-ts spells them; the positional arguments that PyTorch also takes by
 * keyword (kernel_size, output_size, pad) travel in the same object and are passed
 * positionally here. Sample ids are written by scripts/goldens/ops_spatial.py.
 */

const CONV_KW = options({ stride: intOrInts, padding: either(intOrInts, oneOf('valid', 'same')), dilation: intOrInts, groups: num });
/**
 * A conv call by PyTorch's two overloads, which the compiler tells apart by `padding`'s type:
 * a list (or an int), or 'valid' / 'same'.
 */
function byPadding<R>(
  k: Kwargs,
  ints: (o: { stride?: number | number[]; padding?: number | number[]; dilation?: number | number[]; groups?: number }) => R,
  str: (o: { stride?: number | number[]; padding: 'valid' | 'same'; dilation?: number | number[]; groups?: number }) => R,
): R {
  const { padding, ...rest } = CONV_KW(k);
  return typeof padding === 'string' ? str({ ...rest, padding }) : ints({ ...rest, padding });
}
const CONV_T_KW = options({ stride: intOrInts, padding: intOrInts, outputPadding: intOrInts, groups: num, dilation: intOrInts });
const MAX_POOL_KW = options({ kernelSize: required(intOrInts), stride: intOrInts, padding: intOrInts, dilation: intOrInts, ceilMode: bool });
const AVG_POOL_KW = options({
  kernelSize: required(intOrInts), stride: intOrInts, padding: intOrInts, ceilMode: bool, countIncludePad: bool, divisorOverride: num,
});
/** adaptiveAvgPool2d's output size: an int, or one per spatial dim where null keeps the input's. */
const outputSize = either(
  num,
  check('a list of ints or nulls', (v): v is (number | null)[] => Array.isArray(v) && v.every((x: unknown) => x === null || typeof x === 'number')),
);
const ADAPTIVE_KW = options({ outputSize: required(outputSize) });
const INTERPOLATE_KW = options({ size: intOrInts, scaleFactor: intOrInts, mode: oneOf('nearest', 'linear', 'bilinear'), alignCorners: bool });
const PAD_KW = options({ pad: required(ints), mode: oneOf('constant', 'reflect', 'replicate', 'circular'), value: num });
const UNFOLD_KW = options({ kernelSize: required(intOrInts), dilation: intOrInts, padding: intOrInts, stride: intOrInts });
const FOLD_KW = options({ outputSize: required(intOrInts), kernelSize: required(intOrInts), dilation: intOrInts, padding: intOrInts, stride: intOrInts });

const bias = (i: readonly OpInput[], op: string): Tensor | null => (i.length > 2 ? tensorArg(i[2], op) : null);
const ones = (d: DeviceLike, shape: number[], dtype: DType = 'float32') => torch.ones(shape, { device: d, dtype });

const CONV_DTYPES: readonly DType[] = ALL_DTYPES.filter((d) => d !== 'bool');
const EMPTY_BOOL =
  "deviation (not a bug): PyTorch convolves an empty bool batch (its dtype check lives in the kernel, which an empty input skips); torch-ts rejects bool up front";

const CONV2D_SAMPLES = [
  'basic', 'stride-pad', 'stride-tuple', 'dilation', 'groups', 'depthwise', 'same-even', 'same-dilation', 'valid', 'pointwise',
  'pointwise-stride', 'unbatched', 'empty-batch', 'err-channels', 'err-kernel-too-big', 'err-groups', 'err-bias-size',
  'err-same-strided', 'err-2d-input',
];
const CONV1D_SAMPLES = ['basic', 'stride-pad-dilation', 'groups', 'same-even', 'valid', 'unbatched', 'err-channels'];
const CONV_T_SAMPLES = ['basic', 'stride-outpad', 'stride-tuple', 'groups', 'dilation', 'pointwise', 'unbatched', 'err-outpad', 'err-channels'];
const MAXPOOL_SAMPLES = ['basic', 'k3-s2-p1', 'dilation', 'ceil', 'rect', 'nan', 'err-pad', 'err-too-small', 'err-2d'];
const AVGPOOL_SAMPLES = ['basic', 'k3-s2-p1', 'no-count-pad', 'ceil', 'ceil-pad', 'divisor', 'unbatched', 'err-pad'];
const ADAPTIVE_SAMPLES = ['down', 'int', 'none', 'up', 'unbatched'];
const INTERP_SAMPLES = [
  'nearest-scale2', 'nearest-size', 'nearest-scale1.5', 'nearest-down', 'nearest-3d', 'bilinear-scale2', 'bilinear-size',
  'bilinear-align', 'bilinear-down', 'bilinear-scale-rect', 'linear-3d', 'linear-3d-align', 'err-bilinear-3d', 'err-both',
  'err-align-nearest',
];
const PAD_SAMPLES = [
  'constant-1d', 'constant-2d-value', 'constant-crop', 'constant-3dims', 'reflect-2d', 'reflect-1d', 'reflect-3d-input',
  'replicate-2d', 'replicate-1d', 'circular-2d', 'circular-1d', 'err-reflect-too-big', 'err-odd',
];
const UNFOLD_SAMPLES = ['basic', 'all-args', 'stride-k', 'unbatched', 'batch0', 'err-too-big', 'err-5d', 'err-empty', 'err-stride0', 'err-padding'];
const FOLD_SAMPLES = ['basic', 'all-args', 'stride-k', 'unbatched', 'batch0', 'err-blocks', 'err-channels', 'err-4d', 'err-kernel0'];

const CONV_BF16 = FLOAT_ACC_2X('BFloat16 convolutions (one float32 GEMM accumulation per output, as mkldnn / 2.x compute them)');

const dtypeMismatch = (name: string, fn: (d: DeviceLike) => unknown): ErrorInput => ({
  name: 'input and weight of different dtypes',
  make: fn,
  error: DTypeError,
  match: new RegExp(`${name}: Input type \\(Float\\) and weight type \\(Double\\) should be the same`),
});

export const SPATIAL_OPS: readonly OpInfo[] = [
  {
    name: 'conv2d',
    errorNames: ['conv2d', 'convolution', 'pad'],
    call: (i, k) => {
      const [x, w, b] = [tensorArg(i[0], 'conv2d'), tensorArg(i[1], 'conv2d'), bias(i, 'conv2d')];
      return byPadding(k, (o) => F.conv2d(x, w, b, o), (o) => F.conv2d(x, w, b, o));
    },
    variants: {},
    dtypes: CONV_DTYPES,
    samples: CONV2D_SAMPLES,
    tolerance: { float32: { rtol: 1e-5, atol: 1e-5 } },
    errorInputs: [
      dtypeMismatch('conv2d', (d) => F.conv2d(ones(d, [1, 1, 3, 3]), ones(d, [1, 1, 2, 2], 'float64'))),
      {
        name: 'a weight of the wrong rank',
        make: (d) => F.conv2d(ones(d, [1, 1, 3, 3]), ones(d, [1, 1, 2])),
        error: ShapeError,
        match: /conv2d: Expected 3-dimensional input for 3-dimensional weight \[1, 1, 2\], but got 4-dimensional input of size \[1, 1, 3, 3\] instead/,
      },
      {
        name: 'a non-positive stride',
        make: (d) => F.conv2d(ones(d, [1, 1, 3, 3]), ones(d, [1, 1, 2, 2]), { stride: 0 }),
        error: TorchError,
        match: /conv2d: non-positive stride is not supported/,
      },
      {
        name: 'an unknown padding string',
        make: (d) => untyped(F.conv2d)(ones(d, [1, 1, 3, 3]), ones(d, [1, 1, 2, 2]), { padding: 'full' }),
        error: TorchError,
        match: /conv2d: Invalid padding string: 'full'/,
      },
    ],
    xfail: { 'empty-batch/bool': EMPTY_BOOL },
    pytorch2x: { float16: HALF_2X('slow_conv2d_cpu'), bfloat16: CONV_BF16 },
  },
  {
    name: 'conv1d',
    errorNames: ['conv1d', 'convolution', 'pad'],
    call: (i, k) => {
      const [x, w, b] = [tensorArg(i[0], 'conv1d'), tensorArg(i[1], 'conv1d'), bias(i, 'conv1d')];
      return byPadding(k, (o) => F.conv1d(x, w, b, o), (o) => F.conv1d(x, w, b, o));
    },
    variants: {},
    dtypes: CONV_DTYPES,
    samples: CONV1D_SAMPLES,
    tolerance: { float32: { rtol: 1e-5, atol: 1e-5 } },
    errorInputs: [
      dtypeMismatch('conv1d', (d) => F.conv1d(ones(d, [1, 1, 3]), ones(d, [1, 1, 2], 'float64'))),
      {
        name: 'a 4-d input',
        make: (d) => F.conv1d(ones(d, [1, 1, 3, 3]), ones(d, [1, 1, 2])),
        error: ShapeError,
        match: /conv1d: Expected 2D \(unbatched\) or 3D \(batched\) input to conv1d, but got input of size: \[1, 1, 3, 3\]/,
      },
    ],
    pytorch2x: { float16: HALF_2X('slow_conv2d_cpu'), bfloat16: CONV_BF16 },
  },
  {
    name: 'convTranspose2d',
    errorNames: ['conv_transpose2d', 'convolution'],
    call: (i, k) => F.convTranspose2d(tensorArg(i[0], 'convTranspose2d'), tensorArg(i[1], 'convTranspose2d'), bias(i, 'convTranspose2d'), CONV_T_KW(k)),
    variants: {},
    dtypes: ['float32', 'float64', 'float16', 'bfloat16', 'int64'],
    samples: CONV_T_SAMPLES,
    tolerance: { float32: { rtol: 1e-5, atol: 1e-5 } },
    errorInputs: [
      dtypeMismatch('conv_transpose2d', (d) => F.convTranspose2d(ones(d, [1, 1, 3, 3]), ones(d, [1, 1, 2, 2], 'float64'))),
      {
        name: 'groups that do not divide the input channels',
        make: (d) => F.convTranspose2d(ones(d, [1, 3, 3, 3]), ones(d, [3, 1, 2, 2]), { groups: 2 }),
        error: ShapeError,
        match: /conv_transpose2d: Given groups=2, expected weight to be divisible by 2 at dimension 0/,
      },
    ],
    pytorch2x: { float16: HALF_2X('slow_conv_transpose2d_out_cpu'), bfloat16: HALF_2X('slow_conv_transpose2d_out_cpu').replace("'Half'", "'BFloat16'") },
  },
  {
    name: 'maxPool2d',
    errorNames: ['max_pool2d'],
    call: (i, k) => {
      const { kernelSize, ...o } = MAX_POOL_KW(k);
      return F.maxPool2d(tensorArg(i[0], 'maxPool2d'), kernelSize, o);
    },
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: MAXPOOL_SAMPLES,
    errorInputs: [
      {
        name: 'a zero kernel',
        make: (d) => F.maxPool2d(ones(d, [1, 1, 3, 3]), 0),
        error: TorchError,
        match: /max_pool2d: kernel size should be greater than zero, but got kH: 0 kW: 0/,
      },
      {
        name: 'three kernel sizes',
        make: (d) => F.maxPool2d(ones(d, [1, 1, 3, 3]), [1, 2, 3]),
        error: TorchError,
        match: /max_pool2d: kernel_size must either be a single int, or a tuple of two ints/,
      },
    ],
    pytorch2x: { float16: HALF_2X('max_pool2d') },
  },
  {
    name: 'maxPool2d.indices',
    methodName: 'maxPool2d',
    errorNames: ['max_pool2d'],
    call: (i, k) => {
      const { kernelSize, ...o } = MAX_POOL_KW(k);
      return F.maxPool2d(tensorArg(i[0], 'maxPool2d'), kernelSize, { ...o, returnIndices: true });
    },
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: MAXPOOL_SAMPLES,
    errorInputs: [],
    pytorch2x: { float16: HALF_2X('max_pool2d') },
  },
  {
    name: 'avgPool2d',
    errorNames: ['avg_pool2d'],
    call: (i, k) => {
      const { kernelSize, ...o } = AVG_POOL_KW(k);
      return F.avgPool2d(tensorArg(i[0], 'avgPool2d'), kernelSize, o);
    },
    variants: {},
    dtypes: ['float32', 'float64', 'float16', 'bfloat16', 'int64'],
    samples: AVGPOOL_SAMPLES,
    errorInputs: [
      {
        name: 'a zero divisor',
        make: (d) => F.avgPool2d(ones(d, [1, 1, 4, 4]), 2, { divisorOverride: 0 }),
        error: TorchError,
        match: /avg_pool2d: divisor must be not zero/,
      },
    ],
    pytorch2x: { float16: HALF_2X('avg_pool2d') },
  },
  {
    name: 'adaptiveAvgPool2d',
    errorNames: ['adaptive_avg_pool2d'],
    call: (i, k) => F.adaptiveAvgPool2d(tensorArg(i[0], 'adaptiveAvgPool2d'), ADAPTIVE_KW(k).outputSize),
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: ADAPTIVE_SAMPLES,
    errorInputs: [
      {
        name: 'a 2-d input',
        make: (d) => F.adaptiveAvgPool2d(ones(d, [4, 4]), 2),
        error: ShapeError,
        match: /adaptive_avg_pool2d\(\): Expected 3D or 4D tensor, but got \[4, 4\]/,
      },
      {
        name: 'a negative output size',
        make: (d) => F.adaptiveAvgPool2d(ones(d, [1, 4, 4]), [-1, 2]),
        error: TorchError,
        match: /adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0/,
      },
    ],
    pytorch2x: { float16: HALF_2X('adaptive_avg_pool2d') },
  },
  {
    name: 'interpolate',
    errorNames: ['interpolate', 'upsample_nearest2d', 'upsample_bilinear2d'],
    call: (i, k) => F.interpolate(tensorArg(i[0], 'interpolate'), INTERPOLATE_KW(k)),
    variants: {},
    dtypes: [...FLOAT_DTYPES, 'uint8'],
    samples: INTERP_SAMPLES,
    errorInputs: [
      {
        name: 'neither size nor scaleFactor',
        make: (d) => F.interpolate(ones(d, [1, 1, 2, 2])),
        error: TorchError,
        match: /interpolate: either size or scale_factor should be defined/,
      },
      {
        name: 'a size of the wrong length',
        make: (d) => F.interpolate(ones(d, [1, 1, 2, 2]), { size: [3] }),
        error: TorchError,
        match: /interpolate: Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of \[2, 2\] and output size of \[3\]/,
      },
      {
        name: 'a 2-d input',
        make: (d) => F.interpolate(ones(d, [2, 2]), { size: 3 }),
        error: TorchError,
        match: /interpolate: Input Error: Only 3D, 4D and 5D input Tensors supported \(got 2D\)/,
      },
    ],
    pytorch2x: {
      float16: HALF_2X('upsample_nearest2d_channels_last'),
      bfloat16: FLOAT_ACC_2X('BFloat16 interpolation weights and sums (1.13 computes its linear weights in BFloat16)'),
    },
  },
  {
    name: 'pad',
    errorNames: ['pad', 'constant_pad_nd', 'reflection_pad1d', 'reflection_pad2d', 'replication_pad1d', 'replication_pad2d', '_pad_circular1d', '_pad_circular2d'],
    call: (i, k) => {
      const { pad, ...o } = PAD_KW(k);
      return F.pad(tensorArg(i[0], 'pad'), pad, o);
    },
    variants: {},
    dtypes: ALL_DTYPES,
    samples: PAD_SAMPLES,
    errorInputs: [
      {
        name: 'a crop below zero',
        make: (d) => F.pad(ones(d, [2, 3]), [-2, -2]),
        error: ShapeError,
        match: /constant_pad_nd: The input size 3, plus negative padding -2 and -2 resulted in a negative output size, which is invalid. Check dimension 1 of your input./,
      },
      {
        name: 'a value with reflect',
        make: (d) => F.pad(ones(d, [1, 2, 3]), [1, 1], { mode: 'reflect', value: 2 }),
        error: TorchError,
        match: /pad: Padding mode "reflect" doesn't take in value argument/,
      },
      {
        name: 'circular padding larger than the input',
        make: (d) => F.pad(ones(d, [1, 2, 3]), [4, 0], { mode: 'circular' }),
        error: TorchError,
        match: /_pad_circular1d: Padding value causes wrapping around more than once./,
      },
      {
        name: 'more pads than dims',
        make: (d) => F.pad(ones(d, [3]), [1, 1, 1, 1]),
        error: TorchError,
        match: /pad: Padding length should be less than or equal to two times the input dimension but got padding length 4 and input of dimension 1/,
      },
    ],
    pytorch2x: {
      float16: HALF_2X('reflection_pad2d'),
      bfloat16: HALF_2X('reflection_pad2d').replace("'Half'", "'BFloat16'"),
    },
  },
  {
    // (the goldens' and core's name: F.unfold is PyTorch's im2col, core's `unfold` Tensor.unfold's
    // view; methodName is the binder's name, by which the arguments test finds F.unfold)
    name: 'im2col',
    methodName: 'unfold',
    errorNames: ['unfold'],
    call: (i, k) => {
      const { kernelSize, ...o } = UNFOLD_KW(k);
      return F.unfold(tensorArg(i[0], 'unfold'), kernelSize, o);
    },
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: UNFOLD_SAMPLES,
    errorInputs: [
      {
        name: 'three kernel sizes',
        make: (d) => F.unfold(ones(d, [1, 1, 3, 3]), [1, 2, 3]),
        error: TorchError,
        match: /unfold: It is expected kernel_size equals to 2, but got size 3/,
      },
      {
        name: 'a zero dilation',
        make: (d) => F.unfold(ones(d, [1, 1, 3, 3]), 2, { dilation: 0 }),
        error: ShapeError,
        match: /unfold: dilation should be greater than zero, but got dilation_height: 0 dilation_width: 0/,
      },
      {
        name: 'no block fits',
        make: (d) => F.unfold(ones(d, [2, 3, 5, 5]), 6),
        error: ShapeError,
        match: /unfold: Given input with spatial size \(5, 5\), kernel_size=\(6, 6\), dilation=\(1, 1\), padding=\(0, 0\), calculated shape of the array of sliding blocks as \(0, 0\), but its components must be at least one\./,
      },
    ],
  },
  {
    name: 'col2im',
    methodName: 'fold',
    errorNames: ['fold', 'index_add'],
    call: (i, k) => {
      const { outputSize, kernelSize, ...o } = FOLD_KW(k);
      return F.fold(tensorArg(i[0], 'fold'), outputSize, kernelSize, o);
    },
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: FOLD_SAMPLES,
    errorInputs: [
      {
        name: 'blocks that do not match the input',
        make: (d) => F.fold(ones(d, [2, 12, 15]), [5, 5], 2),
        error: ShapeError,
        match: /fold: Given output_size=\(5, 5\), kernel_size=\(2, 2\), dilation=\(1, 1\), padding=\(0, 0\), stride=\(1, 1\), expected size of input's dimension 2 to match the calculated number of sliding blocks 4 \* 4 = 16, but got input.size\(2\)=15\./,
      },
      {
        name: 'three output sizes',
        make: (d) => F.fold(ones(d, [2, 12, 16]), [5, 5, 1], 2),
        error: TorchError,
        match: /fold: It is expected output_size equals to 2, but got size 3/,
      },
      {
        name: 'an integer input',
        make: (d) => F.fold(ones(d, [2, 12, 16], 'int64'), [5, 5], 2),
        error: DTypeError,
        match: /fold: "col2im_out_cpu" not implemented for 'Long'/,
      },
    ],
  },
];
