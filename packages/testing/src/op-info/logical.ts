import * as torch from '@torch-ts/torch';
import { ShapeError, TorchError } from '@torch-ts/torch';
import { ALL_DTYPES, FLOAT_DTYPES, HALF_2X, operand, t, tensorArg } from './common';
import { num, options, outOnly, tensor } from './kwargs';
import type { OpInfo, OpInput } from './types';
import { untyped } from './untyped';

// Sample ids written by scripts/goldens/ops_logical.py.
const BINARY_SAMPLES = ['edge', 'broadcast', '0dim-tensor', 'empty', 'promote'];

/** logicalNot: bool result (or 0 / 1 in an in-place `self`'s or `out`'s dtype). */
const LOGICAL_NOT: OpInfo = {
  name: 'logicalNot',
  errorNames: ['logical_not'],
  call: (i, k) => torch.logicalNot(tensorArg(i[0], 'logicalNot'), outOnly(k)),
  variants: { method: true, inplace: true, out: true },
  dtypes: ALL_DTYPES,
  samples: ['edge', '0dim', 'empty'],
  errorInputs: [
    {
      name: 'a JS array instead of a tensor',
      make: () => untyped(torch.logicalNot)([1, 2]),
      error: TorchError,
      match: /logical_not\(\): argument 'input' \(position 1\) must be Tensor, not Array/,
    },
  ],
};

function logicalBinary(name: 'logicalAnd' | 'logicalOr' | 'logicalXor'): OpInfo {
  const fn = torch[name];
  return {
    name,
    errorNames: [name.replace(/[A-Z]/, (c) => `_${c.toLowerCase()}`)],
    call: (i: readonly OpInput[], k) => fn(tensorArg(i[0], name), tensorArg(i[1], name), outOnly(k)),
    variants: { method: true, inplace: true, out: true },
    dtypes: ALL_DTYPES,
    samples: BINARY_SAMPLES,
    errorInputs: [
      {
        name: 'shapes that do not broadcast',
        make: (d) => fn(t(d, [[1, 2, 3], [4, 5, 6]], 'float32'), t(d, [1, 2, 3, 4], 'float32')),
        error: ShapeError,
        match: /size of tensor a \(3\) must match the size of tensor b \(4\)|\[2, 3\].*\[4\]/,
      },
    ],
  };
}

export const LOGICAL_OPS: readonly OpInfo[] = [LOGICAL_NOT, logicalBinary('logicalAnd'), logicalBinary('logicalOr'), logicalBinary('logicalXor')];

// ---- bitwise ops: integral and bool only ----
const INTEGRAL_DTYPES = ALL_DTYPES.filter((d) => !FLOAT_DTYPES.includes(d));

const BITWISE_NOT: OpInfo = {
  name: 'bitwiseNot',
  errorNames: ['bitwise_not'],
  call: (i, k) => torch.bitwiseNot(tensorArg(i[0], 'bitwiseNot'), outOnly(k)),
  variants: { method: true, inplace: true, out: true },
  dtypes: INTEGRAL_DTYPES,
  samples: ['edge', '0dim', 'empty'],
  errorInputs: [
    {
      name: 'a JS array instead of a tensor',
      make: () => untyped(torch.bitwiseNot)([1, 2]),
      error: TorchError,
      match: /bitwise_not\(\): argument 'input' \(position 1\) must be Tensor, not Array/,
    },
  ],
};

function bitwiseBinary(name: 'bitwiseAnd' | 'bitwiseOr' | 'bitwiseXor'): OpInfo {
  const fn = torch[name];
  return {
    name,
    errorNames: [name.replace(/[A-Z]/, (c) => `_${c.toLowerCase()}`)],
    call: (i: readonly OpInput[], k) => fn(tensorArg(i[0], name), operand(i[1], name), outOnly(k)),
    variants: { method: true, inplace: true, out: true },
    dtypes: INTEGRAL_DTYPES,
    samples: [...BINARY_SAMPLES, 'scalar-int', 'scalar-negative-int'],
    errorInputs: [
      {
        name: 'shapes that do not broadcast',
        make: (d) => fn(t(d, [[1, 2, 3], [4, 5, 6]], 'int32'), t(d, [1, 2, 3, 4], 'int32')),
        error: ShapeError,
        match: /size of tensor a \(3\) must match the size of tensor b \(4\)|\[2, 3\].*\[4\]/,
      },
    ],
  };
}

export const BITWISE_OPS: readonly OpInfo[] = [BITWISE_NOT, bitwiseBinary('bitwiseAnd'), bitwiseBinary('bitwiseOr'), bitwiseBinary('bitwiseXor')];

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
