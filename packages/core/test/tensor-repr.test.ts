import { afterEach, describe, expect, it } from 'vitest';
import { type ReprInput, formatTensor, getPrintOptions, setPrintOptions } from '../src/format';
import { formatExponential, formatFixed } from '../src/format/decimal';

/** A CPU tensor under the float32 default, with the fields a test leaves out. */
function repr(t: Partial<ReprInput> & Pick<ReprInput, 'shape' | 'values'>): string {
  return formatTensor({ dtype: 'float32', device: 'cpu', defaultDtype: 'float32', ...t });
}

afterEach(() => setPrintOptions({ profile: 'default' }));

describe('decimal rendering', () => {
  it('rounds the exact binary value half to even, like Python', () => {
    expect(formatFixed(0.03125, 4)).toBe('0.0312');
    expect(formatFixed(0.09375, 4)).toBe('0.0938');
    expect(formatFixed(2.5, 0)).toBe('2');
    expect(formatFixed(-0, 4)).toBe('-0.0000');
    expect(formatFixed(1e22, 1)).toBe('10000000000000000000000.0');
    expect(formatExponential(1.03125, 4)).toBe('1.0312e+00');
    expect(formatExponential(9.99996e-5, 4)).toBe('1.0000e-04');
    expect(formatExponential(1e300, 2)).toBe('1.00e+300');
    expect(formatExponential(5e-324, 4)).toBe('4.9407e-324');
    expect(formatExponential(0, 4)).toBe('0.0000e+00');
  });
});

describe('formatTensor', () => {
  it('prints integral floats without a fraction and aligns columns', () => {
    expect(repr({ shape: [3], values: [1, -20, 3] })).toBe('tensor([  1., -20.,   3.])');
  });

  it('switches to scientific notation for wide magnitudes', () => {
    expect(repr({ shape: [3], values: [1e-5, 1, 1000] })).toBe(
      'tensor([1.0000e-05, 1.0000e+00, 1.0000e+03])',
    );
  });

  it('leaves nan and inf out of the width computation', () => {
    expect(repr({ shape: [3], values: [NaN, 1.5, -Infinity] })).toBe('tensor([   nan, 1.5000,   -inf])');
  });

  it('prints 0-dim, empty and bool tensors', () => {
    expect(repr({ shape: [], values: [3] })).toBe('tensor(3.)');
    expect(repr({ shape: [0], values: [] })).toBe('tensor([])');
    expect(repr({ shape: [0, 3], values: [], dtype: 'int64' })).toBe('tensor([], size=(0, 3), dtype=torch.int64)');
    expect(repr({ shape: [2], values: [true, false], dtype: 'bool' })).toBe('tensor([ True, False])');
  });

  it('nests brackets with blank lines between matrices', () => {
    const values = Array.from({ length: 8 }, (_, i) => i);
    expect(repr({ shape: [2, 2, 2], values, dtype: 'int32' })).toBe(
      'tensor([[[0, 1],\n         [2, 3]],\n\n        [[4, 5],\n         [6, 7]]], dtype=torch.int32)',
    );
  });

  it('summarises past the threshold in every dimension', () => {
    const values = Array.from({ length: 2000 }, (_, i) => BigInt(i));
    expect(repr({ shape: [2000], values, dtype: 'int64' })).toBe('tensor([   0,    1,    2,  ..., 1997, 1998, 1999])');
  });

  it('prints the device, meta size and autograd suffixes', () => {
    expect(repr({ shape: [2], values: [1, 2], device: 'webgpu:0', requiresGrad: true })).toBe(
      "tensor([1., 2.], device='webgpu:0', requires_grad=True)",
    );
    expect(repr({ shape: [2, 3], values: [], device: 'meta', dtype: 'float64' })).toBe(
      "tensor(..., device='meta', size=(2, 3), dtype=torch.float64)",
    );
    expect(repr({ shape: [], values: [7], gradFnName: 'MulBackward0' })).toBe('tensor(7., grad_fn=<MulBackward0>)');
  });

  it('rounds float32 input through Math.fround so it prints as the float32 tensor would', () => {
    expect(repr({ shape: [1], values: [1e-40] })).toBe('tensor([9.9999e-41])');
    setPrintOptions({ precision: 10 });
    expect(repr({ shape: [1], values: [0.1] })).toBe('tensor([0.1000000015])');
    expect(repr({ shape: [1], values: [0.1], dtype: 'float64' })).toBe(
      'tensor([0.1000000000], dtype=torch.float64)',
    );
  });

  it('reports too few values with the shape', () => {
    expect(() => repr({ shape: [2, 3], values: [1, 2] })).toThrow('formatTensor: shape [2, 3] needs 6 values, got 2');
  });
});

describe('print options', () => {
  it('starts at the PyTorch defaults', () => {
    expect(getPrintOptions()).toEqual({ precision: 4, threshold: 1000, edgeitems: 3, linewidth: 80, sciMode: null });
  });

  it('applies a profile, then the explicit fields', () => {
    setPrintOptions({ profile: 'full', precision: 6 });
    expect(getPrintOptions()).toEqual({ precision: 6, threshold: Infinity, edgeitems: 3, linewidth: 80, sciMode: null });
  });

  it('resets sciMode whenever it is left out, as PyTorch does', () => {
    setPrintOptions({ sciMode: true });
    expect(repr({ shape: [2], values: [1.5, 2] })).toBe('tensor([1.5000e+00, 2.0000e+00])');
    setPrintOptions({ precision: 2 });
    expect(getPrintOptions().sciMode).toBeNull();
    expect(repr({ shape: [2], values: [1.5, 2] })).toBe('tensor([1.50, 2.00])');
  });

  it('rejects malformed values', () => {
    expect(() => setPrintOptions({ precision: -1 })).toThrow('setPrintOptions: precision');
    expect(() => setPrintOptions({ linewidth: Infinity })).toThrow('setPrintOptions: linewidth');
  });
});
