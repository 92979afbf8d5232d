import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, FLOAT_ACC_2X, HALF_2X, NO_BOOL, tensorArg } from './common';
import { check, either, num, numOrBool, options, required, tensor } from './kwargs';
import type { OpInfo, OpInput } from './types';

/** The OpInfo entries of outer, addmm, baddbmm, einsum and tensordot; sample ids from scripts/goldens/ops_linalg_extra.py. */

const list = (i: readonly OpInput[], op: string): Tensor[] => i.map((x) => tensorArg(x, op));

const ADD_PRODUCT_KW = options({ beta: numOrBool, alpha: numOrBool, out: tensor });
const EINSUM_KW = options({ equation: required(check('a string', (v): v is string => typeof v === 'string')) });
/** tensordot's dims: a count, or the two lists of dims to contract. */
const dimLists = check(
  'a pair of int lists',
  (v): v is [number[], number[]] => Array.isArray(v) && v.length === 2 && v.every((d: unknown) => Array.isArray(d) && d.every((x: unknown) => typeof x === 'number')),
);
const TENSORDOT_KW = options({ dims: required(either(num, dimLists)) });

const EMPTY_BOOL =
  'deviation (not a bug): PyTorch multiplies empty bool matrices (its dtype check lives in the kernel, which empty inputs skip); torch-ts rejects bool up front';

function addProduct(name: 'addmm' | 'baddbmm', samples: string[]): OpInfo {
  const fn = name === 'addmm' ? torch.addmm : torch.baddbmm;
  return {
    name,
    errorNames: [name],
    call: (i, k) => fn(tensorArg(i[0], name), tensorArg(i[1], name), tensorArg(i[2], name), ADD_PRODUCT_KW(k)),
    variants: { method: true, inplace: true, out: true },
    dtypes: NO_BOOL,
    samples,
    xfail: name === 'baddbmm' ? { 'batch0/bool': EMPTY_BOOL } : undefined,
    pytorch2x: {
      float16: HALF_2X(name === 'addmm' ? 'addmm_impl_cpu_' : 'baddbmm'),
      bfloat16: FLOAT_ACC_2X('BFloat16 products'),
    },
    errorInputs: [
      {
        name: 'a float beta with integer tensors',
        make: (d) => {
          const x = torch.ones(name === 'addmm' ? [2, 2] : [1, 2, 2], { device: d, dtype: 'int64' });
          return fn(x, x, x, { beta: 0.5 });
        },
        error: DTypeError,
        match: new RegExp(`${name}: For integral input tensors, argument beta must not be a floating point number`),
      },
      {
        name: 'a self that does not broadcast',
        make: (d) => {
          const shape = name === 'addmm' ? [2, 2] : [1, 2, 2];
          return fn(torch.ones([3], { device: d }), torch.ones(shape, { device: d }), torch.ones(shape, { device: d }));
        },
        error: ShapeError,
        match: new RegExp(`${name}`),
      },
    ],
  };
}

export const LINALG_EXTRA_OPS: readonly OpInfo[] = [
  addProduct('addmm', ['basic', 'broadcast', 'scalar-self', 'beta-alpha', 'beta0', 'k0', 'mismatch', 'mixed-dtypes']),
  addProduct('baddbmm', ['basic', 'broadcast', 'beta-alpha', 'beta0', 'batch0', 'mismatch']),
  {
    name: 'outer',
    errorNames: ['outer', 'mul'],
    call: (i) => torch.outer(tensorArg(i[0], 'outer'), tensorArg(i[1], 'outer')),
    variants: { method: true },
    dtypes: ALL_DTYPES,
    samples: ['basic', 'empty', '2d', 'promote'],
    errorInputs: [
      {
        name: 'a 2-D vec2',
        make: (d) => torch.outer(torch.ones([2], { device: d }), torch.ones([2, 2], { device: d })),
        error: ShapeError,
        match: /outer: Expected 1-D argument vec2, but got 2-D/,
      },
    ],
  },
  {
    name: 'einsum',
    errorNames: ['einsum', 'bmm', 'mul', 'sum'],
    call: (i, k) => torch.einsum(EINSUM_KW(k).equation, list(i, 'einsum')),
    variants: {},
    dtypes: NO_BOOL,
    samples: [
      'mm', 'trace', 'diag', 'transpose', 'sum-all', 'outer', 'dot', 'batch', 'ellipsis', 'ellipsis-sum', 'implicit', 'three',
      'broadcast', 'hadamard', 'empty', 'bad-count', 'bad-ndim', 'bad-output', 'bad-size',
    ],
    pytorch2x: { float16: HALF_2X('bmm'), bfloat16: FLOAT_ACC_2X('BFloat16 products') },
    xfail: { 'empty/bool': EMPTY_BOOL },
    errorInputs: [
      {
        name: 'an invalid subscript',
        make: (d) => torch.einsum('i1->i', torch.ones([2, 2], { device: d })),
        error: TorchError,
        match: /einsum\(\): invalid subscript given at index 1/,
      },
      {
        name: 'a repeated output subscript',
        make: (d) => torch.einsum('ij->ii', torch.ones([2, 2], { device: d })),
        error: TorchError,
        match: /einsum\(\): output subscript i appears more than once in the output/,
      },
      {
        name: 'more operands than the equation names',
        make: (d) => torch.einsum('i->i', torch.ones([2], { device: d }), torch.ones([2], { device: d })),
        error: TorchError,
        match: /einsum\(\): more operands were provided than specified in the equation/,
      },
    ],
  },
  {
    name: 'tensordot',
    errorNames: ['tensordot', 'mm'],
    call: (i, k) => torch.tensordot(tensorArg(i[0], 'tensordot'), tensorArg(i[1], 'tensordot'), TENSORDOT_KW(k).dims),
    variants: {},
    dtypes: NO_BOOL,
    samples: ['count', 'count2', 'count0', 'lists', 'mismatch'],
    pytorch2x: { float16: HALF_2X('addmm_impl_cpu_'), bfloat16: FLOAT_ACC_2X('BFloat16 products') },
    errorInputs: [
      {
        name: 'dim lists of different lengths',
        make: (d) => torch.tensordot(torch.ones([2, 2], { device: d }), torch.ones([2, 2], { device: d }), [[0, 1], [0]]),
        error: ShapeError,
        match: /tensordot: both dimension lists should have same length/,
      },
      {
        name: 'a negative count',
        make: (d) => torch.tensordot(torch.ones([2, 2], { device: d }), torch.ones([2, 2], { device: d }), -1),
        error: TorchError,
        match: /tensordot: tensordot expects dims >= 0/,
      },
    ],
  },
];
