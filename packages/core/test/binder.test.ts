import { describe, expect, it } from 'vitest';
import { NotImplementedError, Tensor, TorchTypeError, empty, makeBinder } from '../src';

// The binder against PyTorch's python_arg_parser behaviour (Note [The argument binder]):
// positional in schema order, any argument by keyword in a trailing options object,
// defaults, None, `int[N]` expansion, and PyTorch's TypeError wording for what does not bind.
const leaky = makeBinder('leakyRelu', 'leaky_relu(Tensor self, Scalar negative_slope=0.01, bool inplace=False) -> Tensor');
const pool = makeBinder(
  'maxPool2d',
  'max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, *, bool return_indices=False) -> Tensor',
);
const x = empty([2], { device: 'meta' });

describe('the argument binder', () => {
  it('binds positional arguments in schema order and fills defaults', () => {
    const [input, slope, inplace] = leaky.bind([x, 0.2]);
    expect(input).toBe(x);
    expect(slope).toBe(0.2);
    expect(inplace).toBe(false);
    expect(leaky.bind([x])).toEqual([x, 0.01, false]);
  });

  it('binds any argument by keyword (camelCase; self is input), after any prefix of the positionals', () => {
    expect(leaky.bind([x, { negativeSlope: 0.3 }])).toEqual([x, 0.3, false]);
    expect(leaky.bind([x, 0.3, { inplace: true }])).toEqual([x, 0.3, true]);
    expect(leaky.bind([{ input: x, inplace: true }])).toEqual([x, 0.01, true]);
    expect(leaky.keywords).toEqual(['input', 'negativeSlope', 'inplace']);
  });

  it('takes undefined and null as None: the default, or None for an optional type', () => {
    expect(leaky.bind([x, undefined, { inplace: true }])).toEqual([x, 0.01, true]);
    expect(leaky.bind([x, null])).toEqual([x, 0.01, false]);
    expect(leaky.bind([x, { negativeSlope: undefined }])).toEqual([x, 0.01, false]);
    const clamp = makeBinder('clamp', 'clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor');
    expect(clamp.bind([x, { min: 0 }])).toEqual([x, 0, undefined]);
    expect(clamp.bind([x, null, 1])).toEqual([x, undefined, 1]);
  });

  it('expands one int given for int[N], and parses list defaults', () => {
    expect(pool.bind([x, 3, 2, 1])).toEqual([x, [3, 3], [2, 2], [1, 1], [1, 1], false, false]);
    expect(pool.bind([x, [3, 2], { padding: [1, 0], returnIndices: true }])).toEqual([x, [3, 2], [], [1, 0], [1, 1], false, true]);
  });

  it('refuses one positional argument too many, as PyTorch words it', () => {
    expect(() => leaky.bind([x, 0.1, true, 4])).toThrow(TorchTypeError);
    expect(() => leaky.bind([x, 0.1, true, 4])).toThrow('leakyRelu() takes from 1 to 3 positional arguments but 4 were given');
    // keyword-only arguments are not positional
    expect(() => pool.bind([x, 3, 2, 1, 1, false, true])).toThrow('maxPool2d() takes from 2 to 6 positional arguments but 7 were given');
  });

  it('refuses an unknown keyword and a keyword given twice', () => {
    expect(() => leaky.bind([x, { negativeSlop: 0.1 }])).toThrow("leakyRelu() got an unexpected keyword argument 'negativeSlop'");
    expect(() => leaky.bind([x, { negative_slope: 0.1 }])).toThrow("got an unexpected keyword argument 'negative_slope'");
    expect(() => leaky.bind([x, 0.1, { negativeSlope: 0.2 }])).toThrow("leakyRelu(): argument 'negativeSlope' given by name ('negativeSlope') and position (2)");
  });

  it('refuses missing required arguments and values of the wrong type', () => {
    expect(() => pool.bind([x])).toThrow('maxPool2d() missing 1 required positional argument: "kernelSize"');
    expect(() => leaky.bind([x, 'big'])).toThrow("leakyRelu(): argument 'negativeSlope' (position 2) must be Number, not string");
    expect(() => leaky.bind([x, { inplace: 1 }])).toThrow("leakyRelu(): argument 'inplace' must be bool, not number");
    expect(() => leaky.bind([[1, 2]])).toThrow("leakyRelu(): argument 'input' (position 1) must be Tensor, not Array");
    expect(() => leaky.bind([null])).toThrow("argument 'input' (position 1) must be Tensor, not null");
    expect(() => pool.bind([x, 2.5])).toThrow("maxPool2d(): argument 'kernelSize' (position 2) must be tuple of ints, not number");
    expect(() => pool.bind([x, [2, 'a']])).toThrow("maxPool2d(): argument 'kernelSize' must be tuple of ints, but found element of type string at pos 2");
  });

  it('raises NotImplementedError for a keyword torch-ts does not support yet, unless it is None', () => {
    const zeros = makeBinder('zeros', 'zeros(int[] size, *, Dimname[]? names=None, ScalarType? dtype=None) -> Tensor', { unsupported: ['names'] });
    expect(zeros.bind([[2], { names: null, dtype: 'float64' }])).toEqual([[2], undefined, 'float64']);
    expect(() => zeros.bind([[2], { names: ['N'] }])).toThrow(NotImplementedError);
    expect(() => zeros.bind([[2], { names: ['N'] }])).toThrow("zeros(): argument 'names' is not supported by torch-ts yet");
    expect(() => zeros.bind([[2], { dtype: 5 }])).toThrow("zeros(): argument 'dtype' must be dtype, not number");
  });

  it('does not take a tensor or an array as the options object', () => {
    const add = makeBinder('add', 'add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor');
    const y = empty([2], { device: 'meta' });
    const [a, b, alpha] = add.bind([x, y]);
    expect(a).toBeInstanceOf(Tensor);
    expect(b).toBe(y);
    expect(alpha).toBe(1);
  });

  it('takes the last positional int list as variadic ints with varargs (Note [Variadic int lists])', () => {
    const view = makeBinder('view', 'view(Tensor self, SymInt[] size) -> Tensor', { varargs: true });
    expect(view.bind([x, 2, 3])).toEqual([x, [2, 3]]);
    expect(view.bind([x, [2, 3]])).toEqual([x, [2, 3]]);
    expect(view.bind([x, -1])).toEqual([x, [-1]]);
    expect(view.bind([x, { size: [6] }])).toEqual([x, [6]]);
    expect(() => view.bind([x, 2, 'a'])).toThrow("view(): argument 'size' must be tuple of ints, but found element of type string at pos 2");
    expect(() => view.bind([x, [2], [3]])).toThrow('view() takes 2 positional arguments but 3 were given');
    const zeros = makeBinder('zeros', 'zeros(SymInt[] size, *, ScalarType? dtype=None) -> Tensor', { varargs: true });
    expect(zeros.bind([2, 3, { dtype: 'int64' }])).toEqual([[2, 3], 'int64']);
    expect(() => makeBinder('f', 'f(Tensor self, int dim) -> Tensor', { varargs: true })).toThrow('varargs needs an int or Tensor list');
    const einsum = makeBinder('einsum', 'einsum(str equation, Tensor[] tensors) -> Tensor', { varargs: true });
    expect(einsum.bind(['ii', x])).toEqual(['ii', [x]]);
    expect(einsum.bind(['i,i', x, x])).toEqual(['i,i', [x, x]]);
    expect(einsum.bind(['i,i', [x, x]])).toEqual(['i,i', [x, x]]);
    expect(() => einsum.bind(['i,i', x, 2])).toThrow('einsum(): expected Tensor as element 1 in argument 1, but got number');
  });

  it('takes a Tensor list as variadic Tensors with varargs, one Tensor or none included', () => {
    const y = empty([3], { device: 'meta' });
    const blockDiag = makeBinder('block_diag', 'block_diag(Tensor[] tensors) -> Tensor', { varargs: true });
    expect(blockDiag.bind([x, y])).toEqual([[x, y]]);
    expect(blockDiag.bind([x])).toEqual([[x]]);
    expect(blockDiag.bind([])).toEqual([[]]);
    expect(blockDiag.bind([[x, y]])).toEqual([[x, y]]);
    expect(blockDiag.bind([{ tensors: [y] }])).toEqual([[y]]);
    expect(() => blockDiag.bind([x, 2])).toThrow(/block_diag\(\): expected Tensor as element 1/);
  });

  it("counts Python's self for a method's __init__, takes Any as given, and None entries of int?[N]", () => {
    const linear = makeBinder('Linear.__init__', 'Linear(int in_features, int out_features, bool bias=True) -> ()', { countSelf: true });
    expect(() => linear.bind([1, 2, true, 4])).toThrow('Linear.__init__() takes from 3 to 4 positional arguments but 5 were given');
    const conv = makeBinder('Conv', "Conv(Any padding=0, str mode='zeros') -> ()");
    expect(conv.bind(['same'])).toEqual(['same', 'zeros']);
    expect(conv.bind([[1, 2]])).toEqual([[1, 2], 'zeros']);
    expect(conv.bind([])).toEqual([0, 'zeros']);
    const pool = makeBinder('pool', 'pool(Tensor input, int?[2] output_size) -> Tensor');
    expect(pool.bind([x, [null, 2]])).toEqual([x, [null, 2]]);
    expect(pool.bind([x, 3])).toEqual([x, [3, 3]]);
    expect(() => pool.bind([x, [null, 'a']])).toThrow("pool(): argument 'outputSize' must be tuple of ints, but found element of type string at pos 2");
  });
});
