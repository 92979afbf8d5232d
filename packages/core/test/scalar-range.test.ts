import { describe, expect, it } from 'vitest';
import { checkScalarFits, checkTensorValue, scalarFits } from '../src/dtype';
import { TorchError } from '../src/errors';
import { tensor } from '../src/ops/factories';

// Expected values are PyTorch's (1.13 on Python 3.10; 2.x does the same: c10's
// checked_convert for scalar arguments, python_scalars.h's store_scalar for tensor data).
describe('checked scalar arguments (c10 checked_convert)', () => {
  const cases: [number | bigint | boolean, string, boolean][] = [
    // torch.full([2], nan / inf, dtype=torch.int64) -> value cannot be converted to type int64_t without overflow
    [NaN, 'int64', false],
    [Infinity, 'int64', false],
    [-Infinity, 'int32', false],
    [NaN, 'int8', false],
    [1e20, 'int32', false],
    [2 ** 40, 'int32', false],
    [2 ** 63, 'int64', false],
    [-(2 ** 63), 'int64', true],
    [2n ** 63n, 'int64', false],
    [2n ** 63n - 1n, 'int64', true],
    [0.5, 'int32', true], // truncates
    // torch.full([1], -1, dtype=torch.uint8) -> 255; -256 and -1.0 overflow
    [-1, 'uint8', true],
    [-255, 'uint8', true],
    [-256, 'uint8', false],
    [-1.5, 'uint8', false],
    [255.5, 'uint8', false],
    [300, 'int8', false],
    [-128, 'int8', true],
    // float targets: NaN and inf pass, finite values beyond the largest finite one do not
    [1e39, 'float32', false],
    [Infinity, 'float32', true],
    [NaN, 'float16', true],
    [1e5, 'float16', false],
    [65504, 'float16', true],
    [1e300, 'float64', true],
    // anything converts to bool (torch.full([1], nan, dtype=torch.bool) -> True)
    [NaN, 'bool', true],
    [300, 'bool', true],
    [true, 'int8', true],
  ];
  it.each(cases)('%s -> %s fits: %s', (value, dtype, fits) => {
    expect(scalarFits(value, dtype as never)).toBe(fits);
  });

  it("raises c10's message with the C++ type name", () => {
    expect(() => checkScalarFits('full', NaN, 'int64')).toThrow(TorchError);
    expect(() => checkScalarFits('full', NaN, 'int64')).toThrow('full: value cannot be converted to type int64_t without overflow');
    expect(() => checkScalarFits('fill_', 300, 'int8')).toThrow('fill_: value cannot be converted to type int8_t without overflow');
    expect(() => checkScalarFits('full', 1e20, 'int32')).toThrow('full: value cannot be converted to type int without overflow');
  });

  it("tensor data: integer dtypes checked, named as PyTorch's tensor() names them; floats and bool cast", () => {
    expect(() => checkTensorValue('tensor()', 300, 'uint8')).toThrow('tensor(): value cannot be converted to type uint8 without overflow');
    expect(() => checkTensorValue('tensor()', NaN, 'int64')).toThrow('tensor(): value cannot be converted to type int64 without overflow');
    expect(() => checkTensorValue('tensor()', 1e39, 'float32')).not.toThrow(); // becomes inf
    expect(() => checkTensorValue('tensor()', 2, 'bool')).not.toThrow();
  });
});

describe('nested data is measured without recursion', () => {
  // These are refused while reading the sizes, before any memory is allocated.
  it('a 10,000-deep array is a TorchError, not a stack overflow', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(() => tensor(deep as never)).toThrow(TorchError);
    expect(() => tensor(deep as never)).toThrow('tensor(): too many dimensions: data nested deeper than 128 levels (or an array that contains itself)');
  });

  it('an array that contains itself is a TorchError', () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(() => tensor(cyclic as never)).toThrow(/too many dimensions/);
  });
});
