import { describe, it, expect, afterEach } from 'vitest';
import * as torch from '@torch-ts/torch';

// Every expected value below was printed by real PyTorch (1.13) for the same call, e.g.
// `torch.arange(0, 1, 0.1).tolist()`; float32 values are the exact doubles of the float32s.

afterEach(() => torch.setDefaultDtype('float32'));

const LINSPACE_M1_1_7 = [-1, -0.6666666269302368, -0.3333333134651184, -2.9802322387695312e-8, 0.3333333134651184, 0.6666666269302368, 1];
const LINSPACE_0_1_10 = [
  0, 0.1111111119389534, 0.2222222238779068, 0.3333333432674408, 0.4444444477558136, 0.5555555820465088, 0.6666666865348816,
  0.7777777910232544, 0.8888888955116272, 1,
];

describe('dtype inference (docs/api.md)', () => {
  it('all-integer JS numbers give int64, any fraction the default float, booleans bool', () => {
    expect(torch.tensor([1, 2, 3]).dtype).toBe('int64');
    expect(torch.tensor([[1, 2], [3, 4]]).dtype).toBe('int64');
    expect(torch.tensor(7).dtype).toBe('int64');
    expect(torch.tensor([1, 2.5]).dtype).toBe('float32');
    expect(torch.tensor([1, NaN]).dtype).toBe('float32');
    expect(torch.tensor([Infinity, 1]).dtype).toBe('float32');
    expect(torch.tensor([true, false]).dtype).toBe('bool');
    expect(torch.tensor([1, true]).dtype).toBe('int64'); // torch.tensor([1, True]) -> int64
    expect(torch.tensor([1, true]).tolist()).toEqual([1, 1]);
    expect(torch.tensor([2n, 3n]).dtype).toBe('int64');
  });

  it('setDefaultDtype changes the inferred float dtype and the float factories', () => {
    torch.setDefaultDtype('float64');
    expect(torch.getDefaultDtype()).toBe('float64');
    expect(torch.tensor([0.5]).dtype).toBe('float64');
    expect(torch.tensor([1, 2]).dtype).toBe('int64');
    expect(torch.zeros(2).dtype).toBe('float64');
    expect(torch.full([1], 0.5).dtype).toBe('float64');
    expect(torch.linspace(0, 1, 3).dtype).toBe('float64');
    expect(torch.arange(0, 1, 0.5).dtype).toBe('float64');
    expect(torch.tensor([0.1]).tolist()).toEqual([0.1]);
    torch.setDefaultDtype('float32');
    expect(torch.tensor([0.5]).dtype).toBe('float32');
    expect(() => torch.setDefaultDtype('int32')).toThrow(torch.DTypeError);
    expect(torch.getDefaultDtype()).toBe('float32');
  });

  it('integer-valued numbers of magnitude >= 2^63 count as floats, as scalarDType says', () => {
    const t = torch.tensor([2 ** 63, 1]);
    expect(t.dtype).toBe('float32');
    expect(t.tolist()).toEqual([2 ** 63, 1]);
    expect(torch.resultType(2 ** 63)).toBe('float32');
  });

  it('a bigint beyond the int64 range is a TorchError, not a wrapped value', () => {
    expect(() => torch.tensor([2n ** 70n])).toThrow(torch.TorchError);
    expect(() => torch.tensor([2n ** 63n])).toThrow(torch.TorchError);
  });

  it('the int64 extremes are exact', () => {
    const t = torch.tensor([-(2n ** 63n), 2n ** 63n - 1n]);
    expect(t.tolist({ bigint: true })).toEqual([-(2n ** 63n), 2n ** 63n - 1n]);
  });

  it('typed arrays keep their dtype', () => {
    const cases: [ArrayBufferView, string][] = [
      [new Float32Array([1.5, 2]), 'float32'],
      [new Float64Array([1.5, 2]), 'float64'],
      [new Int8Array([-1, 2]), 'int8'],
      [new Uint8Array([1, 255]), 'uint8'],
      [new Int16Array([-300, 2]), 'int16'],
      [new Int32Array([-70000, 2]), 'int32'],
      [new BigInt64Array([-5n, 2n]), 'int64'],
    ];
    for (const [data, dtype] of cases) {
      const t = torch.tensor(data as Float32Array);
      expect(t.dtype, dtype).toBe(dtype);
      expect(t.shape).toEqual([2]);
    }
    expect(torch.tensor(new Int32Array([-70000, 2])).tolist()).toEqual([-70000, 2]);
    expect(torch.tensor(new Uint8Array([1, 255])).tolist()).toEqual([1, 255]);
    expect(torch.tensor(new BigInt64Array([-5n, 2n])).tolist()).toEqual([-5, 2]);
  });

  it('full infers from its fill value: int -> int64, float -> default float, bool -> bool', () => {
    expect([torch.full([2, 2], 7).dtype, torch.full([2, 2], 7).tolist()]).toEqual(['int64', [[7, 7], [7, 7]]]);
    expect([torch.full([2], 7.5).dtype, torch.full([2], 7.5).tolist()]).toEqual(['float32', [7.5, 7.5]]);
    expect([torch.full([2], true).dtype, torch.full([2], true).tolist()]).toEqual(['bool', [true, true]]);
    expect(torch.full([3], -1.5, { dtype: 'float64' }).tolist()).toEqual([-1.5, -1.5, -1.5]);
  });

  it('an explicit dtype converts as a cast does', () => {
    expect(torch.tensor([1.7, -1.7], { dtype: 'int32' }).tolist()).toEqual([1, -1]);
    expect(torch.tensor([0, 2], { dtype: 'bool' }).tolist()).toEqual([false, true]);
    expect(torch.tensor([0.1, 0.2]).tolist()).toEqual([0.10000000149011612, 0.20000000298023224]);
    expect(torch.tensor([0.1], { dtype: 'float64' }).tolist()).toEqual([0.1]);
    expect(torch.tensor([0.1, 1.5, 65504, 70000], { dtype: 'float16' }).tolist()).toEqual([0.0999755859375, 1.5, 65504, Infinity]);
    expect(torch.tensor([0.1, 3.14159], { dtype: 'bfloat16' }).tolist()).toEqual([0.10009765625, 3.140625]);
    expect(torch.tensor([300, -1]).to('uint8').tolist()).toEqual([44, 255]);
  });

  it('dtype constants are the dtype names', () => {
    expect(torch.float32).toBe('float32');
    expect(torch.long).toBe('int64');
    expect(torch.zeros([1], { dtype: torch.int16 }).dtype).toBe('int16');
    expect(torch.ones([1], { dtype: 'double' }).dtype).toBe('float64');
  });
});

describe('factory values match PyTorch', () => {
  const cases: [string, () => torch.Tensor, string, number[], unknown][] = [
    ['arange(5)', () => torch.arange(5), 'int64', [5], [0, 1, 2, 3, 4]],
    ['arange(2, 11, 3)', () => torch.arange(2, 11, 3), 'int64', [3], [2, 5, 8]],
    ['arange(10, 0, -3)', () => torch.arange(10, 0, -3), 'int64', [4], [10, 7, 4, 1]],
    ['arange(1, 2.5, 0.5)', () => torch.arange(1, 2.5, 0.5), 'float32', [3], [1, 1.5, 2]],
    ['arange(5, 0, -1.5)', () => torch.arange(5, 0, -1.5), 'float32', [4], [5, 3.5, 2, 0.5]],
    [
      'arange(0, 1, 0.1)',
      () => torch.arange(0, 1, 0.1),
      'float32',
      [10],
      [0, 0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.4000000059604645, 0.5, 0.6000000238418579, 0.699999988079071, 0.800000011920929, 0.8999999761581421],
    ],
    [
      'arange(0, 1, 0.1, dtype=float64)',
      () => torch.arange(0, 1, 0.1, { dtype: 'float64' }),
      'float64',
      [10],
      [0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0.7000000000000001, 0.8, 0.9],
    ],
    ['linspace(0, 1, 5)', () => torch.linspace(0, 1, 5), 'float32', [5], [0, 0.25, 0.5, 0.75, 1]],
    ['linspace(0, 10, 4, dtype=float64)', () => torch.linspace(0, 10, 4, { dtype: 'float64' }), 'float64', [4], [0, 3.3333333333333335, 6.666666666666666, 10]],
    ['linspace(3, 3, 1)', () => torch.linspace(3, 3, 1), 'float32', [1], [3]],
    ['linspace(0, 1, 0)', () => torch.linspace(0, 1, 0), 'float32', [0], []],
    ['eye(3)', () => torch.eye(3), 'float32', [3, 3], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]],
    ['eye(2, 3)', () => torch.eye(2, 3), 'float32', [2, 3], [[1, 0, 0], [0, 1, 0]]],
    ['eye(3, 2, dtype=int64)', () => torch.eye(3, 2, { dtype: 'int64' }), 'int64', [3, 2], [[1, 0], [0, 1], [0, 0]]],
    ['zeros(2, 3)', () => torch.zeros(2, 3), 'float32', [2, 3], [[0, 0, 0], [0, 0, 0]]],
    ['zeros([2, 3])', () => torch.zeros([2, 3]), 'float32', [2, 3], [[0, 0, 0], [0, 0, 0]]],
    ['ones(2, dtype=int32)', () => torch.ones([2], { dtype: 'int32' }), 'int32', [2], [1, 1]],
    ['ones(2, 1, dtype=bool)', () => torch.ones(2, 1, { dtype: 'bool' }), 'bool', [2, 1], [[true], [true]]],
    ['zeros_like(i)', () => torch.zerosLike(torch.tensor([[1, 2, 3]])), 'int64', [1, 3], [[0, 0, 0]]],
    ['ones_like(i, dtype=float32)', () => torch.onesLike(torch.tensor([[1, 2, 3]]), { dtype: 'float32' }), 'float32', [1, 3], [[1, 1, 1]]],
    ['full_like(i, 2.5)', () => torch.fullLike(torch.tensor([[1, 2, 3]]), 2.5), 'int64', [1, 3], [[2, 2, 2]]],
    ['full_like(zeros(2), 2.5)', () => torch.fullLike(torch.zeros(2), 2.5), 'float32', [2], [2.5, 2.5]],
    ['empty(0)', () => torch.empty(0), 'float32', [0], []],
  ];
  for (const [name, make, dtype, shape, values] of cases) {
    it(`torch.${name}`, () => {
      const t = make();
      expect(t.dtype).toBe(dtype);
      expect(t.shape).toEqual(shape);
      expect(t.tolist()).toEqual(values);
    });
  }

  it('linspace(-1, 1, 7) and linspace(0, 1, 10) are within one float32 ulp of PyTorch', () => {
    const close = (got: number[], want: number[]) => {
      expect(got.length).toBe(want.length);
      got.forEach((g, i) => expect(Math.abs(g - want[i]), `element ${i}`).toBeLessThanOrEqual(6e-8));
    };
    close(torch.linspace(-1, 1, 7).tolist() as number[], LINSPACE_M1_1_7);
    close(torch.linspace(0, 1, 10).tolist() as number[], LINSPACE_0_1_10);
  });

  it('linspace float32 values are bit-identical to PyTorch', () => {
    expect(torch.linspace(-1, 1, 7).tolist()).toEqual(LINSPACE_M1_1_7);
    expect(torch.linspace(0, 1, 10).tolist()).toEqual(LINSPACE_0_1_10);
  });

  it('empty and emptyLike have the requested shape and dtype', () => {
    const e = torch.empty(2, 3, { dtype: 'int16' });
    expect([e.shape, e.dtype, e.stride()]).toEqual([[2, 3], 'int16', [3, 1]]);
    const l = torch.emptyLike(e);
    expect([l.shape, l.dtype]).toEqual([[2, 3], 'int16']);
  });

  it('bad sizes and bad ranges are TorchErrors', () => {
    expect(() => torch.zeros(-1)).toThrow(torch.TorchError);
    expect(() => torch.zeros(1.5)).toThrow(torch.TorchError);
    expect(() => torch.arange(0, 1, 0)).toThrow(/^arange: step must be nonzero/);
    expect(() => torch.arange(0, 5, -1)).toThrow(torch.TorchError);
    expect(() => torch.linspace(0, 1, -1)).toThrow(torch.TorchError);
    expect(() => torch.eye(-1)).toThrow(torch.TorchError);
  });
});

describe('factories on the meta device', () => {
  it('empty/zeros/ones/full on meta have shape and dtype and no memory', () => {
    const bytes = torch.memory.stats('cpu').liveBytes;
    const z = torch.zeros([2, 3], { device: 'meta' });
    const f = torch.full([4], 7, { device: 'meta' });
    expect([z.shape, z.dtype, String(z.device)]).toEqual([[2, 3], 'float32', 'meta']);
    expect(String(f)).toBe("tensor(..., device='meta', size=(4,), dtype=torch.int64)");
    expect(torch.memory.stats('cpu').liveBytes).toBe(bytes);
  });

  it('tensor(data, { device: "meta" }) and x.to("meta") make meta tensors', () => {
    const t = torch.tensor([1, 2], { device: 'meta' });
    expect(String(t)).toBe("tensor(..., device='meta', size=(2,), dtype=torch.int64)");
    const m = torch.ones(2).to('meta');
    expect([m.shape, String(m.device)]).toEqual([[2], 'meta']);
  });
});

describe('reading values', () => {
  it('int64 reads as numbers when exact, BigInts on request, and throws beyond 2^53 without bigint', () => {
    const small = torch.tensor([-(2 ** 53) + 1, 0, 2 ** 53 - 1]);
    expect(small.tolist()).toEqual([-(2 ** 53) + 1, 0, 2 ** 53 - 1]);
    const big = torch.tensor([2n ** 60n, -(2n ** 53n) - 1n, 5n]);
    expect(big.dtype).toBe('int64');
    expect(big.tolist({ bigint: true })).toEqual([2n ** 60n, -(2n ** 53n) - 1n, 5n]);
    expect(() => big.tolist()).toThrow(torch.TorchError);
    expect(() => big.tolist()).toThrow(/^tolist: int64 value 1152921504606846976 cannot be represented exactly.*bigint: true/);
    expect(() => big.dataSync()).toThrow(/^dataSync: /);
    expect(Array.from(big.dataSync({ bigint: true }) as BigInt64Array)).toEqual([2n ** 60n, -(2n ** 53n) - 1n, 5n]);
    expect(() => big.index(0).item()).toThrow(/^item: /);
    expect(big.index(0).item({ bigint: true })).toBe(2n ** 60n);
    expect(big.index(2).item()).toBe(5);
    expect(small.tolist({ bigint: true })).toEqual([-(2n ** 53n) + 1n, 0n, 2n ** 53n - 1n]);
  });

  it('item() of a one-element tensor of every kind; more elements is a TorchError', () => {
    expect(torch.tensor(3.5).item()).toBe(3.5);
    expect(torch.tensor([[7]]).item()).toBe(7);
    expect(torch.tensor(true).item()).toBe(true);
    expect(torch.tensor(0.1).item()).toBe(0.10000000149011612);
    expect(torch.tensor(0.1, { dtype: 'float64' }).item()).toBe(0.1);
    expect(torch.tensor([1, 2]).sum().item()).toBe(3);
    expect(() => torch.tensor([1, 2]).item()).toThrow(torch.TorchError);
    expect(() => torch.tensor([1, 2]).item()).toThrow('a Tensor with 2 elements cannot be converted to Scalar');
  });

  it('dataSync gives the logical elements row-major as a typed array of the dtype', () => {
    const x = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float32' }).t();
    const d = x.dataSync();
    expect(d).toBeInstanceOf(Float32Array);
    expect(Array.from(d as Float32Array)).toEqual([1, 4, 2, 5, 3, 6]);
    expect(torch.tensor([1, 2], { dtype: 'int32' }).dataSync()).toBeInstanceOf(Int32Array);
  });
});

describe('printing matches PyTorch repr', () => {
  const cases: [string, () => torch.Tensor, string][] = [
    ['tensor([[1., 2.], [3., 4.]])', () => torch.tensor([[1, 2], [3, 4]], { dtype: 'float32' }), 'tensor([[1., 2.],\n        [3., 4.]])'],
    ['tensor([1, 2, 3])', () => torch.tensor([1, 2, 3]), 'tensor([1, 2, 3])'],
    ['tensor([True, False])', () => torch.tensor([true, false]), 'tensor([ True, False])'],
    ['tensor([[True, False], [False, True]])', () => torch.tensor([[true, false], [false, true]]), 'tensor([[ True, False],\n        [False,  True]])'],
    ['tensor([1.5, 2], dtype=float64)', () => torch.tensor([1.5, 2], { dtype: 'float64' }), 'tensor([1.5000, 2.0000], dtype=torch.float64)'],
    ['tensor(3.5)', () => torch.tensor(3.5), 'tensor(3.5000)'],
    ['tensor(7)', () => torch.tensor(7), 'tensor(7)'],
    ['tensor([1e-5, 1.])', () => torch.tensor([1e-5, 1]), 'tensor([1.0000e-05, 1.0000e+00])'],
    ['tensor([1e10, 1.])', () => torch.tensor([1e10, 1], { dtype: 'float32' }), 'tensor([1.0000e+10, 1.0000e+00])'],
    ['tensor([10000000000, 1])', () => torch.tensor([1e10, 1]), 'tensor([10000000000,           1])'],
    ['tensor([1, 2], dtype=int32)', () => torch.tensor([1, 2], { dtype: 'int32' }), 'tensor([1, 2], dtype=torch.int32)'],
    ['zeros(0)', () => torch.zeros(0), 'tensor([])'],
    ['zeros(2, 0)', () => torch.zeros(2, 0), 'tensor([], size=(2, 0))'],
    ['arange(12.).view(3, 4)', () => torch.arange(12, { dtype: 'float32' }).view(3, 4), 'tensor([[ 0.,  1.,  2.,  3.],\n        [ 4.,  5.,  6.,  7.],\n        [ 8.,  9., 10., 11.]])'],
    ['tensor([0.1, -2.25, 100.])', () => torch.tensor([0.1, -2.25, 100]), 'tensor([  0.1000,  -2.2500, 100.0000])'],
    ['tensor([[1, -20], [300, 4]])', () => torch.tensor([[1, -20], [300, 4]]), 'tensor([[  1, -20],\n        [300,   4]])'],
    ['eye(2, dtype=int64)', () => torch.eye(2, { dtype: 'int64' }), 'tensor([[1, 0],\n        [0, 1]])'],
    ['linspace(0, 1, 5)', () => torch.linspace(0, 1, 5), 'tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])'],
    ['tensor([nan, inf, -1.])', () => torch.tensor([NaN, Infinity, -1]), 'tensor([nan, inf, -1.])'],
    ['tensor([1., 2.], dtype=float16)', () => torch.tensor([1, 2], { dtype: 'float16' }), 'tensor([1., 2.], dtype=torch.float16)'],
    ['tensor(2**60)', () => torch.tensor(2n ** 60n), 'tensor(1152921504606846976)'],
    ['tensor([-(2**60), 5])', () => torch.tensor([-(2n ** 60n), 5n]), 'tensor([-1152921504606846976,                    5])'],
    ['arange(2000)', () => torch.arange(2000), 'tensor([   0,    1,    2,  ..., 1997, 1998, 1999])'],
    ['arange(2000.)', () => torch.arange(2000, { dtype: 'float32' }), 'tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n        1.9990e+03])'],
  ];
  for (const [py, make, repr] of cases) {
    it(`String(${py})`, () => {
      const t = make();
      expect(String(t)).toBe(repr);
      expect(t.toString()).toBe(repr);
    });
  }
});
