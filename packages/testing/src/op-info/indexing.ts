import * as torch from '@torch-ts/torch';
import { DTypeError, IndexError, ShapeError, TorchError, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, FLOAT_ACC_2X, operand, t, tensorArg } from './common';
import { bool, check, num, numOrBool, oneOf, options, outOnly, required, tensor } from './kwargs';
import type { ErrorInput, Kwargs, OpInfo, OpInput } from './types';
import { untyped } from './untyped';

/**
 * The indexing family (goldens/ops_indexing.json, scripts/goldens/ops_indexing.py): index
 * tensors are int64 (or int32) golden inputs after `self`; `dim`, `reduce`, `includeSelf`,
 * `alpha`, `accumulate` and `asTuple` travel in kwargs; an `index`/`indexPut` case spells its
 * items in `kwargs.items` (`{ input: k }` names the k-th input, `{ slice: [a, b, c] }` a
 * slice). Gradcheck keeps the golden index values (GRADCHECK_DOMAINS 'golden').
 */

/** An index item as the goldens spell it: a JS item as is, an input by position, or a slice. */
type GoldenItem = string | number | boolean | null | { readonly input: number } | { readonly slice: readonly (number | null)[] };

const isNumberOrNull = (x: unknown): x is number | null => x === null || typeof x === 'number';

function isGoldenItem(v: unknown): v is GoldenItem {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return true;
  if (typeof v !== 'object') return false;
  if ('input' in v) return typeof v.input === 'number';
  return 'slice' in v && Array.isArray(v.slice) && v.slice.length <= 3 && v.slice.every(isNumberOrNull);
}

const goldenItems = check('a list of index items', (v): v is GoldenItem[] => Array.isArray(v) && v.every(isGoldenItem));

/** The items of `x.index(...)`: inputs by position, slices made. */
function items(list: readonly GoldenItem[], inputs: readonly OpInput[]): unknown[] {
  return list.map((it) => {
    if (it !== null && typeof it === 'object' && 'input' in it) return inputs[it.input];
    if (it !== null && typeof it === 'object') return torch.slice(it.slice[0], it.slice[1], it.slice[2]);
    return it;
  });
}

const INDEX_KW = options({ items: required(goldenItems) });
const INDEX_PUT_KW = options({ items: required(goldenItems), accumulate: bool });
const DIM_KW = options({ dim: required(num) });
const DIM_OUT_KW = options({ dim: required(num), out: tensor });
const SCATTER_KW = options({ dim: required(num), reduce: oneOf('add', 'multiply'), out: tensor });
const SCATTER_FORM_KW = options({ dim: required(num), reduce: oneOf('add', 'multiply') });
const REDUCTION = oneOf('sum', 'prod', 'mean', 'amax', 'amin');
const SCATTER_REDUCE_KW = options({ dim: required(num), reduce: required(REDUCTION), includeSelf: bool, out: tensor });
const SCATTER_REDUCE_FORM_KW = options({ dim: required(num), reduce: required(REDUCTION), includeSelf: bool });
const INDEX_ADD_KW = options({ dim: required(num), alpha: numOrBool, out: tensor });
const INDEX_ADD_FORM_KW = options({ dim: required(num), alpha: numOrBool });
const NONZERO_KW = options({ asTuple: bool, out: tensor });

const self = (i: readonly OpInput[], op: string): Tensor => tensorArg(i[0], op);
const ix = (i: readonly OpInput[], n: number, op: string): Tensor => tensorArg(i[n], op);

/** An out-of-range index: IndexError naming the op, the index and the size. */
function outOfRange(name: string, make: ErrorInput['make'], match: RegExp): ErrorInput {
  return { name: `an out-of-range index (${name})`, make, error: IndexError, match };
}

const notATensor = (op: string, make: ErrorInput['make']): ErrorInput => ({
  name: 'a JS array instead of an index tensor',
  make,
  error: TorchError,
  match: new RegExp(`${op}\\(\\): argument 'index' \\(position \\d\\) must be Tensor, not Array`),
});

const INDEX: OpInfo = {
  name: 'index',
  call: (i, k) => self(i, 'index').index(...items(INDEX_KW(k).items, i)),
  variants: {},
  // (a bool mask's result size depends on the data: the async form where reads are async only)
  forms: { async: (i, k) => self(i, 'index').indexAsync(...items(INDEX_KW(k).items, i)) },
  dtypes: ALL_DTYPES,
  samples: [
    'int', 'neg', '2d-index', 'adjacent', 'separated', 'slice-number', 'ellipsis', 'newaxis', 'mask', 'mask-2d', 'mask-inner',
    'mask-and-int', 'bool', 'bool-false', 'int32', 'empty-index', 'empty-self', '0dim-index', 'out-of-range', 'out-of-range-neg',
    'out-of-range-dim1',
  ],
  errorInputs: [
    outOfRange('dim 1', (d) => t(d, [[1, 2], [3, 4]]).index(':', t(d, [2])), /index: index 2 is out of bounds for dimension 1 with size 2/),
    outOfRange('negative', (d) => t(d, [1, 2, 3]).index(t(d, [-4])), /index: index -4 is out of bounds for dimension 0 with size 3/),
    {
      name: 'a float index tensor',
      make: (d) => t(d, [1, 2, 3]).index(t(d, [0.5])),
      error: IndexError,
      match: /index: tensors used as indices must be long, int, byte or bool tensors \(got Float\)/,
    },
    {
      name: 'a mask of the wrong shape',
      make: (d) => t(d, [[1, 2], [3, 4]]).index(t(d, [true, false, true])),
      error: IndexError,
      match: /index: The shape of the mask \[3\] at index 0 does not match the shape of the indexed tensor \[2, 2\] at index 0/,
    },
    {
      name: 'index tensors that do not broadcast',
      make: (d) => t(d, [[1, 2], [3, 4]]).index(t(d, [0, 1]), t(d, [0, 1, 0])),
      error: IndexError,
      match: /index: shape mismatch: indexing tensors could not be broadcast together with shapes \[2\], \[3\]/,
    },
  ],
};

const putArgs = (i: readonly OpInput[], k: Kwargs) => {
  const { items: list, ...opts } = INDEX_PUT_KW(k);
  return [items(list, i), operand(i[i.length - 1], 'indexPut'), opts] as const;
};

const INDEX_PUT: OpInfo = {
  name: 'indexPut',
  errorNames: ['index_put_', 'index_put', 'indexPut'],
  call: (i, k) => torch.indexPut(self(i, 'indexPut'), ...putArgs(i, k)),
  variants: { method: true, inplace: true },
  forms: {
    method: (i, k) => self(i, 'indexPut').indexPut(...putArgs(i, k)),
    inplace: (i, k) => self(i, 'indexPut').indexPut_(...putArgs(i, k)),
  },
  dtypes: ALL_DTYPES,
  samples: ['set', 'set-2idx', 'broadcast-values', '0dim-values', 'accumulate', 'accumulate-2idx', 'mask', 'mask-accumulate', 'neg', 'out-of-range', 'shape-mismatch', 'dtype-mismatch'],
  errorInputs: [
    outOfRange('accumulate', (d) => t(d, [1.5, 2.5]).indexPut_([t(d, [0, 2])], t(d, [1.5, 1.5]), { accumulate: true }), /index_put_: index 2 is out of bounds for dimension 0 with size 2/),
    {
      name: 'values that do not broadcast',
      make: (d) => t(d, [1.5, 2.5, 3.5]).indexPut_([t(d, [0, 1])], t(d, [1.5, 1.5, 1.5])),
      error: ShapeError,
      match: /index_put_: shape mismatch: value tensor of shape \[3\] cannot be broadcast to indexing result of shape \[2\]/,
    },
    {
      name: 'values of another dtype',
      make: (d) => t(d, [1.5, 2.5]).indexPut_([t(d, [0])], t(d, [1], 'float64')),
      error: DTypeError,
      match: /index_put_: Index put requires the source and destination dtypes match, got Float for the destination and Double for the source/,
    },
  ],
};

const GATHER: OpInfo = {
  name: 'gather',
  call: (i, k) => {
    const { dim, ...o } = DIM_OUT_KW(k);
    return torch.gather(self(i, 'gather'), dim, ix(i, 1, 'gather'), o);
  },
  variants: { method: true, out: true },
  forms: { method: (i, k) => self(i, 'gather').gather(DIM_KW(k).dim, ix(i, 1, 'gather')) },
  dtypes: ALL_DTYPES,
  samples: ['dim0', 'dim1', 'neg-dim', 'smaller', 'neg-index', '0dim', 'empty-index', 'out-of-range', 'bad-shape', 'int32-index'],
  errorInputs: [
    outOfRange('gather', (d) => torch.gather(t(d, [[1, 2], [3, 4]]), 0, t(d, [[0, 2]])), /gather: index 2 is out of bounds for dimension 0 with size 2/),
    outOfRange('negative', (d) => torch.gather(t(d, [1, 2]), 0, t(d, [-1])), /gather: index -1 is out of bounds for dimension 0 with size 2/),
    notATensor('gather', (d) => untyped(torch.gather)(t(d, [1, 2]), 0, [0])),
    {
      name: 'an index of another rank',
      make: (d) => torch.gather(t(d, [[1, 2], [3, 4]]), 0, t(d, [0])),
      error: ShapeError,
      match: /gather\(\): Index tensor must have the same number of dimensions as input tensor/,
    },
  ],
};

const SCATTER: OpInfo = {
  name: 'scatter',
  // (PyTorch's two overloads: a Tensor `src` or a Scalar `value`)
  call: (i, k) => {
    const { dim, ...o } = SCATTER_KW(k);
    const src = operand(i[2], 'scatter');
    return src instanceof torch.Tensor ? torch.scatter(self(i, 'scatter'), dim, ix(i, 1, 'scatter'), src, o) : torch.scatter(self(i, 'scatter'), dim, ix(i, 1, 'scatter'), src, o);
  },
  variants: { method: true, inplace: true, out: true },
  forms: {
    method: (i, k) => {
      const { dim, ...o } = SCATTER_FORM_KW(k);
      const src = operand(i[2], 'scatter');
      return src instanceof torch.Tensor ? self(i, 'scatter').scatter(dim, ix(i, 1, 'scatter'), src, o) : self(i, 'scatter').scatter(dim, ix(i, 1, 'scatter'), src, o);
    },
    inplace: (i, k) => {
      const { dim, ...o } = SCATTER_FORM_KW(k);
      const src = operand(i[2], 'scatter');
      return src instanceof torch.Tensor ? self(i, 'scatter').scatter_(dim, ix(i, 1, 'scatter'), src, o) : self(i, 'scatter').scatter_(dim, ix(i, 1, 'scatter'), src, o);
    },
  },
  dtypes: ALL_DTYPES,
  samples: ['dim0', 'dim1', 'neg-dim', '0dim', 'empty-index', 'out-of-range', 'bad-shape', 'value', 'reduce-add', 'reduce-multiply'],
  errorInputs: [
    outOfRange('scatter', (d) => torch.scatter(t(d, [1, 2]), 0, t(d, [2]), t(d, [5])), /scatter: index 2 is out of bounds for dimension 0 with size 2/),
    {
      name: 'a reduce that is not one',
      make: (d) => untyped(torch.scatter)(t(d, [1, 2]), 0, t(d, [1]), t(d, [5]), { reduce: 'max' }),
      error: TorchError,
      match: /scatter\(\): reduce argument must be either add or multiply\. Got max/,
    },
    {
      name: 'src of another dtype',
      make: (d) => torch.scatter(t(d, [1, 2]), 0, t(d, [1]), t(d, [5.5])),
      error: DTypeError,
      match: /scatter\(\): Expected self.dtype to be equal to src.dtype/,
    },
  ],
};

const SCATTER_ADD: OpInfo = {
  name: 'scatterAdd',
  errorNames: ['scatter_add', 'scatterAdd'],
  call: (i, k) => {
    const { dim, ...o } = DIM_OUT_KW(k);
    return torch.scatterAdd(self(i, 'scatterAdd'), dim, ix(i, 1, 'scatterAdd'), ix(i, 2, 'scatterAdd'), o);
  },
  variants: { method: true, inplace: true, out: true },
  forms: {
    method: (i, k) => self(i, 'scatterAdd').scatterAdd(DIM_KW(k).dim, ix(i, 1, 'scatterAdd'), ix(i, 2, 'scatterAdd')),
    inplace: (i, k) => self(i, 'scatterAdd').scatterAdd_(DIM_KW(k).dim, ix(i, 1, 'scatterAdd'), ix(i, 2, 'scatterAdd')),
  },
  dtypes: ALL_DTYPES,
  samples: ['dim0', 'dim1', 'neg-dim', '0dim', 'empty-index', 'dup-dim0', 'dup-dim1', 'out-of-range', 'bad-shape'],
  errorInputs: [
    outOfRange('scatter_add', (d) => torch.scatterAdd(t(d, [1, 2]), 0, t(d, [3]), t(d, [5])), /scatter_add: index 3 is out of bounds for dimension 0 with size 2/),
    {
      name: 'an int32 index',
      make: (d) => torch.scatterAdd(t(d, [1, 2]), 0, t(d, [1], 'int32'), t(d, [5])),
      error: DTypeError,
      match: /scatter_add\(\): Expected dtype int64 for index/,
    },
  ],
};

const REDUCE_SAMPLES = ['sum', 'prod', 'mean', 'amax', 'amin'].flatMap((r) =>
  ['dup-dim0', 'dup-dim1'].flatMap((s) => [`${r}-${s}`, `${r}-${s}-exclude`]),
);
const SCATTER_REDUCE: OpInfo = {
  name: 'scatterReduce',
  errorNames: ['scatter_reduce', 'scatterReduce'],
  call: (i, k) => {
    const { dim, reduce, ...o } = SCATTER_REDUCE_KW(k);
    return torch.scatterReduce(self(i, 'scatterReduce'), dim, ix(i, 1, 'scatterReduce'), ix(i, 2, 'scatterReduce'), reduce, o);
  },
  variants: { method: true, inplace: true, out: true },
  forms: {
    method: (i, k) => {
      const { dim, reduce, ...o } = SCATTER_REDUCE_FORM_KW(k);
      return self(i, 'scatterReduce').scatterReduce(dim, ix(i, 1, 'sr'), ix(i, 2, 'sr'), reduce, o);
    },
    inplace: (i, k) => {
      const { dim, reduce, ...o } = SCATTER_REDUCE_FORM_KW(k);
      return self(i, 'scatterReduce').scatterReduce_(dim, ix(i, 1, 'sr'), ix(i, 2, 'sr'), reduce, o);
    },
  },
  dtypes: ALL_DTYPES,
  samples: [...REDUCE_SAMPLES, 'out-of-range'],
  errorInputs: [
    {
      name: 'a reduce that is not one',
      make: (d) => untyped(torch.scatterReduce)(t(d, [1, 2]), 0, t(d, [1]), t(d, [5]), 'max'),
      error: TorchError,
      match: /scatter_reduce\(\): reduce argument must be either sum, prod, mean, amax or amin, got max/,
    },
    outOfRange('scatter_reduce', (d) => torch.scatterReduce(t(d, [1, 2]), 0, t(d, [-1]), t(d, [5]), 'amax'), /scatter_reduce: index -1 is out of bounds for dimension 0 with size 2/),
  ],
};

const INDEX_SELECT: OpInfo = {
  name: 'indexSelect',
  errorNames: ['index_select', 'indexSelect'],
  call: (i, k) => {
    const { dim, ...o } = DIM_OUT_KW(k);
    return torch.indexSelect(self(i, 'indexSelect'), dim, ix(i, 1, 'indexSelect'), o);
  },
  variants: { method: true, out: true },
  forms: { method: (i, k) => self(i, 'indexSelect').indexSelect(DIM_KW(k).dim, ix(i, 1, 'indexSelect')) },
  dtypes: ALL_DTYPES,
  samples: ['dim0', 'dim1', 'neg-dim', 'int32', '0dim-index', 'empty-index', 'out-of-range', '2d-index'],
  errorInputs: [
    outOfRange('index_select', (d) => torch.indexSelect(t(d, [[1, 2], [3, 4]]), 1, t(d, [0, 2])), /index_select: index 2 is out of bounds for dimension 1 with size 2/),
    {
      name: 'a float index',
      make: (d) => torch.indexSelect(t(d, [1, 2]), 0, t(d, [0.5])),
      error: DTypeError,
      match: /index_select\(\): Expected dtype int32 or int64 for index/,
    },
  ],
};

const INDEX_ADD: OpInfo = {
  name: 'indexAdd',
  errorNames: ['index_add_', 'index_add', 'indexAdd'],
  call: (i, k) => {
    const { dim, ...o } = INDEX_ADD_KW(k);
    return torch.indexAdd(self(i, 'indexAdd'), dim, ix(i, 1, 'indexAdd'), ix(i, 2, 'indexAdd'), o);
  },
  variants: { method: true, inplace: true, out: true },
  forms: {
    method: (i, k) => {
      const { dim, ...o } = INDEX_ADD_FORM_KW(k);
      return self(i, 'indexAdd').indexAdd(dim, ix(i, 1, 'indexAdd'), ix(i, 2, 'indexAdd'), o);
    },
    inplace: (i, k) => {
      const { dim, ...o } = INDEX_ADD_FORM_KW(k);
      return self(i, 'indexAdd').indexAdd_(dim, ix(i, 1, 'indexAdd'), ix(i, 2, 'indexAdd'), o);
    },
  },
  dtypes: ALL_DTYPES,
  samples: ['dim0', 'dim1', 'alpha', 'int32', 'empty-index', 'out-of-range', 'bad-source'],
  pytorch2x: { float16: FLOAT_ACC_2X('self + alpha * source'), bfloat16: FLOAT_ACC_2X('self + alpha * source') },
  errorInputs: [
    outOfRange('index_add_', (d) => torch.indexAdd(t(d, [1.5, 2.5]), 0, t(d, [5]), t(d, [1.5])), /index_add_: index 5 is out of bounds for dimension 0 with size 2/),
    {
      name: 'a float alpha for an integer self',
      make: (d) => torch.indexAdd(t(d, [1, 2]), 0, t(d, [0]), t(d, [1]), { alpha: 1.5 }),
      error: TorchError,
      match: /index_add_\(\): For integral input tensors, argument alpha must not be a floating point number/,
    },
  ],
};

const INDEX_FILL: OpInfo = {
  name: 'indexFill',
  errorNames: ['index_fill_', 'index_fill', 'indexFill'],
  // (PyTorch's two overloads: a Tensor or a Scalar `value`)
  call: (i, k) => {
    const v = operand(i[2], 'indexFill');
    const [s, d, index] = [self(i, 'indexFill'), DIM_KW(k).dim, ix(i, 1, 'indexFill')];
    return v instanceof torch.Tensor ? torch.indexFill(s, d, index, v) : torch.indexFill(s, d, index, v);
  },
  variants: { method: true, inplace: true },
  forms: {
    method: (i, k) => {
      const v = operand(i[2], 'indexFill');
      return v instanceof torch.Tensor ? self(i, 'indexFill').indexFill(DIM_KW(k).dim, ix(i, 1, 'indexFill'), v) : self(i, 'indexFill').indexFill(DIM_KW(k).dim, ix(i, 1, 'indexFill'), v);
    },
    inplace: (i, k) => {
      const v = operand(i[2], 'indexFill');
      return v instanceof torch.Tensor ? self(i, 'indexFill').indexFill_(DIM_KW(k).dim, ix(i, 1, 'indexFill'), v) : self(i, 'indexFill').indexFill_(DIM_KW(k).dim, ix(i, 1, 'indexFill'), v);
    },
  },
  dtypes: ALL_DTYPES,
  samples: ['dim0', 'dim1-dup', 'neg-index', '0dim-index', '0dim', 'empty-index', 'out-of-range', 'int32', 'tensor-value'],
  errorInputs: [
    outOfRange('index_fill_', (d) => torch.indexFill(t(d, [[1, 2], [3, 4]]), 1, t(d, [-3]), 0), /index_fill_: index -3 is out of bounds for dimension 1 with size 2/),
    {
      name: 'a value tensor with dims',
      make: (d) => torch.indexFill(t(d, [1, 2]), 0, t(d, [0]), t(d, [1])),
      error: ShapeError,
      match: /index_fill_: only supports a 0-dimensional value tensor, but got tensor with 1 dimension\(s\)/,
    },
  ],
};

const TAKE: OpInfo = {
  name: 'take',
  call: (i, k) => torch.take(self(i, 'take'), ix(i, 1, 'take'), outOnly(k)),
  variants: { method: true, out: true },
  dtypes: ALL_DTYPES,
  samples: ['basic', 'neg', '2d-index', '0dim', 'empty-index', 'out-of-range'],
  errorInputs: [
    outOfRange('take', (d) => torch.take(t(d, [[1, 2], [3, 4]]), t(d, [-5])), /take: out of range: tried to access index -5 on a tensor of 4 elements/),
    notATensor('take', (d) => untyped(torch.take)(t(d, [1, 2]), [0])),
  ],
};

const MASKED_FILL: OpInfo = {
  name: 'maskedFill',
  errorNames: ['masked_fill_', 'masked_fill', 'maskedFill'],
  // (PyTorch's two overloads: a Tensor or a Scalar `value`)
  call: (i) => {
    const v = operand(i[2], 'maskedFill');
    return v instanceof torch.Tensor ? torch.maskedFill(self(i, 'maskedFill'), ix(i, 1, 'maskedFill'), v) : torch.maskedFill(self(i, 'maskedFill'), ix(i, 1, 'maskedFill'), v);
  },
  variants: { method: true, inplace: true },
  dtypes: ALL_DTYPES,
  samples: ['scalar', 'broadcast-mask', 'broadcast-self', 'tensor-value', '0dim', 'empty'],
  errorInputs: [
    {
      name: 'a uint8 mask (PyTorch 2.x refuses it)',
      make: (d) => torch.maskedFill(t(d, [1, 2]), t(d, [1, 0], 'uint8'), 0),
      error: DTypeError,
      match: /masked_fill_: expected BoolTensor for mask, but got Byte/,
    },
    {
      name: 'a value tensor with dims',
      make: (d) => torch.maskedFill(t(d, [1, 2]), t(d, [true, false]), t(d, [1])),
      error: ShapeError,
      match: /masked_fill_: only supports a 0-dimensional value tensor, but got tensor with 1 dimension\(s\)/,
    },
  ],
};

const MASKED_SELECT: OpInfo = {
  name: 'maskedSelect',
  errorNames: ['masked_select', 'maskedSelect'],
  call: (i, k) => torch.maskedSelect(self(i, 'maskedSelect'), ix(i, 1, 'maskedSelect'), outOnly(k)),
  variants: { method: true, out: true },
  forms: {
    async: (i, k) => torch.maskedSelectAsync(self(i, 'maskedSelect'), ix(i, 1, 'maskedSelect'), outOnly(k)),
    asyncMethod: (i) => self(i, 'maskedSelect').maskedSelectAsync(ix(i, 1, 'maskedSelect')),
  },
  dtypes: ALL_DTYPES,
  samples: ['basic', 'broadcast-mask', 'broadcast-self', 'none', '0dim'],
  errorInputs: [
    {
      name: 'a mask that does not broadcast',
      make: (d) => torch.maskedSelect(t(d, [1, 2]), t(d, [true, false, true])),
      error: ShapeError,
      match: /masked_select: The size of tensor a \(2\) must match the size of tensor b \(3\)/,
    },
  ],
};

const MASKED_SCATTER: OpInfo = {
  name: 'maskedScatter',
  errorNames: ['masked_scatter_', 'masked_scatter', 'maskedScatter'],
  call: (i) => torch.maskedScatter(self(i, 'maskedScatter'), ix(i, 1, 'maskedScatter'), ix(i, 2, 'maskedScatter')),
  variants: { method: true, inplace: true },
  dtypes: ALL_DTYPES,
  samples: ['basic', 'broadcast-mask', 'longer-source', 'short-source'],
  errorInputs: [
    {
      name: 'too few source elements',
      make: (d) => torch.maskedScatter(t(d, [1, 2]), t(d, [true, true]), t(d, [1])),
      error: ShapeError,
      match: /masked_scatter_: Number of elements of source < number of ones in mask/,
    },
  ],
};

const NONZERO: OpInfo = {
  name: 'nonzero',
  call: (i, k) => torch.nonzero(self(i, 'nonzero'), NONZERO_KW(k)),
  variants: { method: true, out: 'single' },
  forms: {
    async: (i, k) => torch.nonzeroAsync(self(i, 'nonzero'), NONZERO_KW(k)),
    asyncMethod: (i, k) => self(i, 'nonzero').nonzeroAsync(NONZERO_KW(k)),
  },
  dtypes: ALL_DTYPES,
  samples: ['basic', 'as-tuple', 'edges', '3d', '0dim', 'empty'],
  errorInputs: [
    {
      name: 'asTuple with out=',
      make: (d) => torch.nonzero(t(d, [1, 0]), { asTuple: true, out: t(d, [0]) }),
      error: TorchError,
      match: /nonzero\(\): as_tuple=True does not support out=/,
    },
  ],
};

export const INDEXING_OPS: readonly OpInfo[] = [
  INDEX,
  INDEX_PUT,
  GATHER,
  SCATTER,
  SCATTER_ADD,
  SCATTER_REDUCE,
  INDEX_SELECT,
  INDEX_ADD,
  INDEX_FILL,
  TAKE,
  MASKED_FILL,
  MASKED_SELECT,
  MASKED_SCATTER,
  NONZERO,
];
