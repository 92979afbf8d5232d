import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type Tensor } from '@torch-ts/torch';
import { FLOAT_ACC_2X, HALF_2X, NO_BOOL, t, tensorArg } from './common';
import { outOnly } from './kwargs';
import type { ErrorInput, OpInfo } from './types';

type MatFn = (a: Tensor, b: Tensor, options?: { out?: Tensor }) => Tensor;

const mixedDtypes = (name: string, fn: MatFn, shapeA: number[], shapeB: number[]): ErrorInput => ({
  name: 'operands of different dtypes',
  make: (d) => fn(torch.ones(shapeA, { device: d }), torch.ones(shapeB, { device: d, dtype: 'float64' })),
  error: DTypeError,
  match: new RegExp(`${name}|same dtype|Float.*Double`),
});

/** The 1.13 kernel without a Half version behind each product (addmm's for mm and matmul). */
const HALF_KERNEL: Readonly<Record<string, string>> = { bmm: 'bmm', mv: 'addmv_impl_cpu', dot: 'dot' };

const EMPTY_BOOL =
  "deviation (not a bug): PyTorch multiplies empty bool matrices (its dtype check lives in the kernel, which empty inputs skip); torch-ts rejects bool up front";

function linalg(
  name: string,
  fn: MatFn,
  samples: string[],
  errorInputs: ErrorInput[],
  emptyBool: string[],
  errorNames?: string[],
): OpInfo {
  return {
    name,
    errorNames,
    call: (i, k) => {
      const { out } = outOnly(k);
      const [a, b] = [tensorArg(i[0], name), tensorArg(i[1], name)];
      return out ? fn(a, b, { out }) : fn(a, b);
    },
    variants: { method: true, out: true },
    dtypes: NO_BOOL,
    samples: [...samples, 'mixed-dtypes'],
    errorInputs,
    xfail: Object.fromEntries(emptyBool.map((sample) => [`${sample}/bool`, EMPTY_BOOL])),
    pytorch2x: {
      float16: HALF_2X(HALF_KERNEL[name] ?? 'addmm_impl_cpu_'),
      bfloat16: FLOAT_ACC_2X('BFloat16 products in every matmul path (1.13 rounds in its mv, dot and small bmm paths)'),
    },
  };
}

// Sample ids written by scripts/goldens/ops_linalg.py.
export const LINALG_OPS: readonly OpInfo[] = [
  linalg('mm', torch.mm, ['square', 'rect', 'outer', 'inner', 'k0', 'n0'], [
    {
      name: 'inner sizes that differ',
      make: (d) => torch.mm(torch.ones([2, 3], { device: d }), torch.ones([4, 5], { device: d })),
      error: ShapeError,
      match: /mm: shapes \[2, 3\] and \[4, 5\] cannot be multiplied \(3 != 4\)/,
    },
    {
      name: 'a 1-D operand',
      make: (d) => torch.mm(torch.ones([3], { device: d }), torch.ones([3, 2], { device: d })),
      error: ShapeError,
      match: /mm: self must be a matrix/,
    },
    mixedDtypes('mm', torch.mm, [2, 2], [2, 2]),
  ], ['k0', 'n0']),
  linalg('bmm', torch.bmm, ['basic', 'single', 'k0', 'batch0'], [
    {
      name: 'batch sizes that differ',
      make: (d) => torch.bmm(torch.ones([2, 2, 3], { device: d }), torch.ones([3, 3, 2], { device: d })),
      error: ShapeError,
      match: /bmm: .*\[2, 2, 3\].*\[3, 3, 2\]/,
    },
    {
      name: 'a 2-D operand',
      make: (d) => torch.bmm(torch.ones([2, 3], { device: d }), torch.ones([1, 3, 2], { device: d })),
      error: ShapeError,
      match: /bmm: batch1 must be a 3D tensor/,
    },
    mixedDtypes('bmm', torch.bmm, [1, 2, 2], [1, 2, 2]),
  ], ['k0', 'batch0']),
  linalg('mv', torch.mv, ['basic', 'tall', 'k0', 'n0'], [
    {
      name: 'sizes that differ',
      make: (d) => torch.mv(torch.ones([2, 3], { device: d }), torch.ones([4], { device: d })),
      error: ShapeError,
      match: /mv: shapes \[2, 3\] and \[4\] cannot be multiplied \(3 != 4\)/,
    },
    {
      name: 'a matrix as the vector',
      make: (d) => torch.mv(torch.ones([2, 3], { device: d }), torch.ones([3, 1], { device: d })),
      error: ShapeError,
      match: /mv: vector \+ matrix @ vector expected, got 2, 2/,
    },
    mixedDtypes('mv', torch.mv, [2, 2], [2]),
  ], ['k0', 'n0']),
  linalg('dot', torch.dot, ['basic', 'one', 'long', 'empty'], [
    {
      name: 'sizes that differ',
      make: (d) => torch.dot(torch.ones([3], { device: d }), torch.ones([4], { device: d })),
      error: ShapeError,
      match: /dot: inconsistent tensor size, expected tensor \[3\] and src \[4\]/,
    },
    {
      name: 'a 2-D operand',
      make: (d) => torch.dot(torch.ones([2, 2], { device: d }), torch.ones([4], { device: d })),
      error: ShapeError,
      match: /dot: 1D tensors expected, but got 2D and 1D tensors/,
    },
    mixedDtypes('dot', torch.dot, [2], [2]),
  ], []),
  linalg(
    'matmul',
    torch.matmul,
    [
      '1d-1d',
      '2d-1d',
      '1d-2d',
      '2d-2d',
      '3d-3d',
      '3d-2d',
      '2d-3d',
      '1d-3d',
      '3d-1d',
      'batch-broadcast',
      'batch-broadcast-1',
      'k0',
      '1d-1d-empty',
    ],
    [
      {
        name: 'a 0-D operand',
        make: (d) => torch.matmul(t(d, 2.5), torch.ones([2], { device: d })),
        error: TorchError,
        match: /matmul: both arguments to matmul need to be at least 1D, but they are 0D and 1D/,
      },
      {
        name: 'inner sizes that differ',
        make: (d) => torch.matmul(torch.ones([2, 2, 3], { device: d }), torch.ones([4, 2], { device: d })),
        error: ShapeError,
        match: /matmul: shapes \[2, 2, 3\] and \[4, 2\] cannot be multiplied \(3 != 4\)/,
      },
      {
        name: 'batch dims that do not broadcast',
        make: (d) => torch.matmul(torch.ones([2, 2, 3], { device: d }), torch.ones([3, 3, 2], { device: d })),
        error: ShapeError,
        match: /matmul/,
      },
      mixedDtypes('matmul', torch.matmul, [2, 2], [2, 2]),
    ],
    ['k0'],
    // matmul is composed of dot / mv / mm / bmm, as PyTorch's is: their checks speak for it.
    ['matmul', 'dot', 'mv', 'mm', 'bmm'],
  ),
];
