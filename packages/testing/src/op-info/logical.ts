import * as torch from '@torch-ts/torch';
import { DTypeError, TorchError } from '@torch-ts/torch';
import { ALL_DTYPES, HALF_2X, operand, t, tensorArg } from './common';
import { bool, num, options, outOnly, tensor } from './kwargs';
import type { OpInfo, OpInput } from './types';

// The logical and bitwise ops are rows of core's op table: their entries are derived (binary.ts, pointwise.ts).

// ---- clip: clamp's alias, with clamp's samples and messages ----
const clipBound = (x: OpInput | undefined) => operand(x, 'clip');
const clipSelf = (i: readonly OpInput[]) => tensorArg(i[0], 'clip');

export const CLIP: OpInfo = {
  name: 'clip',
  errorNames: ['clamp', 'clip'],
  call: (i, k) => torch.clip(clipSelf(i), clipBound(i[1]), clipBound(i[2]), outOnly(k)),
  variants: { method: true, inplace: true, out: true },
  forms: {
    method: (i) => clipSelf(i).clip(clipBound(i[1]), clipBound(i[2])),
    inplace: (i) => clipSelf(i).clip_(clipBound(i[1]), clipBound(i[2])),
  },
  dtypes: ALL_DTYPES.filter((d) => d !== 'bool'),
  samples: ['scalar', 'scalar-float', 'tensor', 'tensor-0dim', 'empty', 'scalar-nan', 'tensor-nan', 'promote', 'min-gt-max'],
  errorInputs: [
    {
      name: 'neither bound',
      make: (d) => torch.clip(t(d, [1.5, 2]), null, null),
      error: TorchError,
      match: /clamp: At least one of 'min' or 'max' must not be None/,
    },
  ],
  pytorch2x: { float16: HALF_2X('clamp_scalar_cpu') },
  xfail: {
    'forward@promote:int8+float16':
      'deviation (not a bug): torch-ts computes clamp in float16 as PyTorch 2.x does; the golden is 1.13\'s "clamp_cpu" not implemented for \'Half\'',
  },
};

// ---- nanToNum: floats replace NaN / ±inf; integral and bool inputs are copied ----
const NAN_TO_NUM_KW = options({ nan: num, posinf: num, neginf: num, out: tensor });
export const NAN_TO_NUM: OpInfo = {
  name: 'nanToNum',
  errorNames: ['nan_to_num'],
  call: (i, k) => torch.nanToNum(tensorArg(i[0], 'nanToNum'), NAN_TO_NUM_KW(k)),
  variants: { method: true, inplace: true, out: true },
  dtypes: ALL_DTYPES,
  samples: ['edge', 'values', 'posinf-only', 'huge-replacement', '0dim', 'empty'],
  errorInputs: [
    {
      name: 'an out= of another dtype',
      make: (d) => torch.nanToNum(t(d, [1, 2], 'float32'), { out: t(d, [1, 2], 'float64') }),
      error: TorchError,
      match: /nan_to_num: dtype of out: Double should be same as input: Float/,
    },
  ],
};

// ---- isclose: a composite (Note [isclose, allclose and equal are composites] in core's closeness.ts) ----
const ISCLOSE_KW = options({ rtol: num, atol: num, equalNan: bool });
const closeArgs = (i: readonly OpInput[]) => [tensorArg(i[0], 'isclose'), tensorArg(i[1], 'isclose')] as const;
export const ISCLOSE: OpInfo = {
  name: 'isclose',
  call: (i, k) => torch.isclose(...closeArgs(i), ISCLOSE_KW(k)),
  variants: { method: true },
  forms: { method: (i, k) => closeArgs(i)[0].isclose(closeArgs(i)[1], ISCLOSE_KW(k)) },
  dtypes: ALL_DTYPES,
  samples: ['edge', 'edge-self', 'equal-nan', 'equal-nan-self', 'exact', 'near', 'near-tol', 'near-atol', 'near-rtol', 'broadcast', '0dim', 'empty', 'broadcast-error'],
  errorInputs: [
    {
      name: 'operands of different dtypes',
      make: (d) => torch.isclose(t(d, [1, 2], 'float32'), t(d, [1, 2], 'float64')),
      error: DTypeError,
      match: /^isclose: Float did not match Double$/,
    },
    {
      name: 'a negative rtol',
      make: (d) => torch.isclose(t(d, [1, 2]), t(d, [1, 2]), { rtol: -1 }),
      error: TorchError,
      match: /^isclose: rtol must be greater than or equal to zero, but got -1$/,
    },
    {
      name: 'a negative atol',
      make: (d) => torch.isclose(t(d, [1, 2]), t(d, [1, 2]), { atol: -0.5 }),
      error: TorchError,
      match: /^isclose: atol must be greater than or equal to zero, but got -0.5$/,
    },
  ],
};
