/**
 * complex64 and complex128 against PyTorch 1.13 (goldens/complex.json, written by
 * scripts/goldens/complex.py): type promotion, repr, op values, gradients in PyTorch's
 * convention (Note [Complex gradients] in core), and the errors. Complex values travel as
 * view_as_real pairs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import * as torch from '../src';
import type { DType, Tensor } from '../src';

interface Values {
  shape: number[];
  dtype: DType;
  values: (number | string | boolean)[];
}
interface Golden {
  promote: [DType, DType, DType | 'error', boolean][];
  result_type: [DType, number[], DType, number[], DType | 'error' | 'complex32'][];
  repr: [string, Values, string][];
  ops: Record<string, Values>;
  grads: [string, Values[], Values[]][];
  errors: ([string, null] | [string, string, string])[];
  finfo: Record<string, { eps: number; max: number; dtype: DType }>;
  conj_bits: Record<string, boolean>;
  conj_values: Record<string, Values>;
  pt: Record<string, Values & { stride: number[]; storageOffset: number }>;
}

const G: Golden = JSON.parse(readFileSync(new URL('./goldens/complex.json', import.meta.url), 'utf8'));

const num = (v: number | string | boolean): number => (typeof v === 'number' ? v : v === 'nan' ? Number.NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : Number(v));
const isComplex = (d: DType) => d === 'complex64' || d === 'complex128';
const partsDtype = (d: DType): DType => (d === 'complex64' ? 'float32' : d === 'complex128' ? 'float64' : d);

/** A golden tensor: a complex one from its view_as_real pairs. */
function make(v: Values): Tensor {
  const flat = v.values.map(num);
  if (!isComplex(v.dtype)) return torch.tensor(flat, { dtype: v.dtype }).reshape(v.shape);
  return torch.viewAsComplex(torch.tensor(flat, { dtype: partsDtype(v.dtype) }).reshape([...v.shape, 2]));
}

/** dtype, shape and values (complex as pairs) within `tol` relative and absolute. */
function expectClose(got: Tensor, want: Values, tol = want.dtype === 'complex128' || want.dtype === 'float64' ? 1e-12 : 1e-6): void {
  expect(got.dtype).toBe(want.dtype);
  expect(got.shape).toEqual(want.shape);
  const flat = (isComplex(got.dtype) ? torch.viewAsReal(got.resolveConj()) : got).contiguous().reshape(-1);
  const vals = got.dtype === 'bool' ? (flat.tolist() as boolean[]).map(Number) : (flat.tolist() as number[]);
  const exp = want.values.map(num);
  vals.forEach((g, i) => {
    const e = exp[i];
    if (Number.isNaN(e)) expect(g, `element ${i}`).toBeNaN();
    else if (!Number.isFinite(e)) expect(g, `element ${i}`).toBe(e);
    else expect(Math.abs(g - e), `element ${i}: ${g} vs ${e}`).toBeLessThanOrEqual(tol + tol * Math.abs(e));
  });
}

describe('complex dtypes: type promotion', () => {
  it('promoteTypes and canCast give PyTorch\'s table for every pair with a complex dtype', () => {
    for (const [a, b, r, cast] of G.promote) {
      if (r === 'error') expect(() => torch.promoteTypes(a, b)).toThrow();
      else expect(torch.promoteTypes(a, b), `${a} + ${b}`).toBe(r);
      expect(torch.canCast(a, b), `canCast(${a}, ${b})`).toBe(cast);
    }
  });

  it('resultType: a 0-dim complex tensor keeps a float tensor\'s precision', () => {
    for (const [a, sa, b, sb, r] of G.result_type) {
      const x = torch.zeros(sa, { dtype: a });
      const y = torch.zeros(sb, { dtype: b });
      // (float16 with a complex 0-dim tensor is complex32 in PyTorch, which torch-ts does not have)
      if (r === 'error' || r === 'complex32') expect(() => torch.resultType(x, y)).toThrow(torch.DTypeError);
      else expect(torch.resultType(x, y), `${a}${JSON.stringify(sa)} with ${b}${JSON.stringify(sb)}`).toBe(r);
    }
  });

  it('finfo of a complex dtype is its parts\'', () => {
    for (const [d, f] of Object.entries(G.finfo)) {
      const got = torch.finfo(d as DType);
      expect([got.eps, got.max, got.dtype]).toEqual([f.eps, f.max, f.dtype]);
    }
  });
});

describe('complex dtypes: repr', () => {
  for (const [label, v, repr] of G.repr) {
    it(`prints ${label} as PyTorch does`, () => {
      const t = make(v);
      if (label === 'grad') t.requiresGrad_();
      expect(String(t)).toBe(repr);
    });
  }
});

describe('complex dtypes: op values', () => {
  const c = (re: number[], im: number[]) => torch.complex(torch.tensor(re, { dtype: 'float32' }), torch.tensor(im, { dtype: 'float32' }));
  const z1 = c([1, -2, 3.5, 0], [2, 0.5, -1, -0]);
  const z2 = c([0.5, 4, -1.5, 2], [-3, 1, 2.5, 0.25]);
  const zd = z1.to('complex128').mul(1.25);
  const m1 = c([1, 2, 3, 4.5], [0, 1, -1, 0.5]).reshape([2, 2]);
  const m2 = c([0.5, -1, 2, 1], [1.5, 0, 0.25, -2]).reshape([2, 2]);
  const r1 = torch.tensor([2, -1, 0.5, 3], { dtype: 'float32' });
  const results: Record<string, () => Tensor> = {
    add: () => z1.add(z2), sub: () => z1.sub(z2), mul: () => z1.mul(z2), div: () => z1.div(z2),
    add_alpha: () => torch.add(z1, z2, { alpha: 2 }), add_scalar: () => z1.add(1.5), mul_scalar: () => z1.mul(2.5),
    div_scalar: () => z1.div(4), add_real: () => z1.add(r1), mul_real: () => z1.mul(r1), div_real: () => z1.div(r1),
    real_div_complex: () => r1.div(z2), add_mixed: () => z1.add(zd), neg: () => z1.neg(), abs: () => z1.abs(),
    angle: () => torch.angle(z1), angle_real: () => torch.angle(torch.tensor([-2, 0, 3, Number.NaN], { dtype: 'float32' })),
    conj: () => z1.conj(), exp: () => z1.exp(), sum: () => z1.sum(), mean: () => z1.mean(),
    sum_dim: () => m1.sum(1), mean_dim_keep: () => m1.mean(0, true), mm: () => m1.matmul(m2),
    matmul_vec: () => m1.matmul(z1.index('0:2')), bmm: () => torch.stack([m1, m2]).matmul(torch.stack([m2, m1])),
    dot: () => torch.dot(z1, z2), eq: () => z1.eq(c([1, 0, 3.5, 0], [2, 0.5, -1, 1])), ne: () => z1.ne(z1.conj()),
    where: () => torch.where(torch.tensor([true, false, true, false]), z1, z2), cat: () => torch.cat([z1, z2]),
    stack: () => torch.stack([z1, z2], 1), real: () => z1.real, imag: () => z1.imag, view_as_real: () => torch.viewAsReal(z1),
    view_as_complex: () => torch.viewAsComplex(torch.tensor([[1, 2], [3, -4]], { dtype: 'float32' })),
    polar: () => torch.polar(torch.tensor([1, 2], { dtype: 'float32' }), torch.tensor([0.5, -2], { dtype: 'float32' })),
    to_complex: () => r1.to('complex128'), int_to_complex: () => torch.tensor([1, -2]).to('complex64'), transpose_H: () => m1.mH,
    div_by_zero: () => z1.index('0:2').div(c([0, 0], [0, 0])), mul_inplace: () => z1.clone().mul_(z2), add_inplace_real: () => z1.clone().add_(r1),
    fill: () => torch.empty([3], { dtype: 'complex64' }).fill_(2.5), zeros: () => torch.zeros([2], { dtype: 'complex128' }),
    ones: () => torch.ones([2], { dtype: 'complex64' }), full: () => torch.full([2], 3, { dtype: 'complex64' }),
    huge_div: () => c([3e38], [3e38]).div(c([3e38], [-3e38])),
    log: () => z2.log(), sqrt: () => torch.cat([z1, z2, c([-4, -4, 0], [0, -0, 0])]).sqrt(), reciprocal: () => z2.reciprocal(),
    sin: () => z1.sin(), cos: () => z1.cos(), cumsum: () => m1.cumsum(1),
    isnan: () => c([1, NaN, 0], [NaN, 0, 1]).isnan(), isinf: () => c([1, Infinity, 0], [-Infinity, 0, NaN]).isinf(),
    isfinite: () => c([1, Infinity, 0], [2, 0, NaN]).isfinite(),
  };
  it('has a case for every golden op', () => expect(Object.keys(results).sort()).toEqual(Object.keys(G.ops).sort()));
  for (const [name, want] of Object.entries(G.ops)) {
    it(name, () => {
      const f = results[name];
      if (!f) throw new Error(`no case for ${name}`);
      // (division by complex zero: PyTorch's vectorised kernel gives nan where c10's scalar one gives inf)
      if (name === 'div_by_zero') {
        const got = f();
        expect(got.dtype).toBe('complex64');
        for (const v of (torch.viewAsReal(got).reshape(-1).tolist() as number[])) expect(Number.isFinite(v)).toBe(false);
        return;
      }
      expectClose(f(), want);
    });
  }
  it('sums and means a 0-d complex tensor over its implicit dim (dims [], [0], [-1], keepdim) to itself', () => {
    const z = torch.complex(torch.tensor(1.5, { dtype: 'float64' }), torch.tensor(-2.25, { dtype: 'float64' }));
    for (const r of [z.sum(), z.sum([]), z.sum(0), z.sum(-1, true), z.mean(), z.mean(0, true), torch.sum(z, [-1])]) {
      expect(r.shape).toEqual([]);
      expect(r.dtype).toBe('complex128');
      expect(torch.viewAsReal(r).tolist()).toEqual([1.5, -2.25]);
    }
    expect(() => z.sum(1)).toThrow(/^Dimension out of range \(expected to be in range of \[-1, 0\], but got 1\)/);
  });
});

describe('complex dtypes: gradients (PyTorch\'s conjugate Wirtinger convention)', () => {
  const losses: Record<string, (...xs: Tensor[]) => Tensor> = {
    abs_sum: (z) => z.abs().sum(),
    mul_abs2: (a, b) => a.mul(b).abs().pow(2).sum(),
    div_real_part: (a, b) => a.div(b).real.sum(),
    exp_imag: (z) => z.exp().imag.sum(),
    mm_angle: (a, b) => torch.angle(a.matmul(b)).sum(),
    sum_real_imag: (z) => z.sum().mul(z.index(0)).imag,
    complex_from_parts: (r, i) => torch.complex(r, i).abs().sum(),
    conj_mul: (z) => z.mul(z.conj()).real.sum(),
    log_sqrt: (z) => z.log().add(z.sqrt().mul(z.reciprocal())).abs().sum(),
    sin_cos_cumsum: (z) => z.sin().mul(z.cos()).cumsum(0).real.sum(),
    // in-place ops through views and the conjugate bit (autograd's Note [Stale view histories])
    conj_inplace: (a, b) => {
      const z = a.mul(1);
      z.conj().mul_(b);
      return z.abs().sum();
    },
    conj_inplace_view_used: (a, b) => {
      const z = a.mul(1);
      const y = z.conj();
      y.mul_(b);
      return y.mul(b).real.sum();
    },
    inplace_then_view: (a, b) => {
      const z = a.mul(1);
      const v = z.index('0:2');
      z.mul_(b);
      return v.abs().sum();
    },
    real_view_inplace: (a) => {
      const z = a.mul(1);
      z.real.mul_(3);
      return z.abs().sum();
    },
  };
  for (const [label, inputs, grads] of G.grads) {
    it(label, () => {
      const xs = inputs.map((v) => make(v).detach().requiresGrad_());
      losses[label](...xs).backward();
      xs.forEach((x, i) => expectClose(x.grad!, grads[i], 1e-5));
    });
  }
});

describe('complex dtypes: errors', () => {
  const z = torch.complex(torch.tensor([1, 2], { dtype: 'float32' }), torch.tensor([0.5, -1], { dtype: 'float32' }));
  const calls: Record<string, () => unknown> = {
    view_as_real_float: () => torch.viewAsReal(torch.zeros([2])),
    view_as_real_conj: () => torch.viewAsReal(z.conj()),
    view_as_complex_last_dim: () => torch.viewAsComplex(torch.zeros([2, 3])),
    view_as_complex_stride: () => torch.viewAsComplex(torch.zeros([2, 2]).t()),
    view_as_complex_0d: () => torch.viewAsComplex(torch.tensor(1.5)),
    complex_mixed: () => torch.complex(torch.zeros([2]), torch.zeros([2], { dtype: 'float64' })),
    imag_real: () => torch.zeros([2]).imag,
    add_inplace_real_self: () => torch.zeros([2]).add_(z),
    mm_mixed: () => torch.mm(z.reshape([1, 2]), torch.zeros([2, 2])),
    div_floor: () => torch.div(z, z, { roundingMode: 'floor' }),
  };
  for (const e of G.errors) {
    const [label] = e;
    if (!(label in calls)) continue;
    it(label, () => {
      expect(e[1]).not.toBeNull();
      expect(calls[label]).toThrow(torch.TorchError);
      expect(calls[label]).toThrow(e[2]!);
    });
  }

  it('refuses what torch-ts has no complex kernel for, naming the op and dtype', () => {
    expect(() => torch.erf(z)).toThrow(`"erf" not implemented for 'ComplexFloat'`);
    expect(() => torch.erf(z.to('complex128'))).toThrow(`"erf" not implemented for 'ComplexDouble'`);
  });

  it('views of a half tensor as complex are refused (PyTorch 1.13 has complex32; torch-ts does not)', () => {
    expect(() => torch.viewAsComplex(torch.zeros([2, 2], { dtype: 'float16' }))).toThrow(/view_as_complex is only supported for float and double tensors/);
  });

  it('item() of a complex tensor says how to read it', () => {
    expect(() => z.index(0).item()).toThrow(/x\.real\.item\(\)/);
    expect(z.tolist()).toEqual([[1, 0.5], [2, -1]]);
  });
});

describe('the conjugate bit (a lazy view, as PyTorch\'s)', () => {
  const c = (r: number[], i: number[]) => torch.complex(torch.tensor(r, { dtype: 'float32' }), torch.tensor(i, { dtype: 'float32' }));
  const z1 = c([1, -2, 3.5, 0], [2, 0.5, -1, -0]);
  const z2 = c([0.5, 4, -1.5, 2], [-3, 1, 2.5, 0.25]);
  const m1 = c([1, 2, 3, 4.5], [0, 1, -1, 0.5]).reshape([2, 2]);
  const m2 = c([0.5, -1, 2, 1], [1.5, 0, 0.25, -2]).reshape([2, 2]);
  const bits: Record<string, () => boolean> = {
    conj: () => z1.conj().isConj(), conj_conj: () => z1.conj().conj().isConj(), slice: () => z1.conj().index('1:').isConj(),
    reshape: () => z1.conj().reshape([2, 2]).isConj(), clone: () => z1.conj().clone().isConj(), add: () => z1.conj().add(0).isConj(),
    resolve: () => z1.conj().resolveConj().isConj(), real_tensor: () => torch.tensor([1]).conj().isConj(),
    detach: () => z1.conj().detach().isConj(), mH: () => m1.mH.isConj(), to_cdouble: () => z1.conj().to('complex128').isConj(),
    conj_physical: () => z1.conjPhysical().isConj(), shares_storage: () => z1.conj().impl.storage === z1.impl.storage,
  };
  it('has a case for every golden', () => {
    expect(Object.keys(bits).sort()).toEqual(Object.keys(G.conj_bits).sort());
    expect(Object.keys(values).sort()).toEqual(Object.keys(G.conj_values).sort());
  });
  for (const [name, want] of Object.entries(G.conj_bits)) it(`isConj: ${name}`, () => expect(bits[name]()).toBe(want));

  /** z1's values after `f` wrote through its conjugate. */
  const through = (f: (y: Tensor) => unknown) => () => {
    const z = z1.clone();
    f(z.conj());
    return z;
  };
  const values: Record<string, () => Tensor> = {
    imag: () => z1.conj().imag, real: () => z1.conj().real, sum: () => z1.conj().sum(), abs: () => z1.conj().abs(),
    mm: () => m1.conj().matmul(m2), mH_mm: () => m1.mH.matmul(m2), cat: () => torch.cat([z1.conj(), z2]), to_cdouble: () => z1.conj().to('complex128'),
    mul_: through((y) => y.mul_(z2)), add_real_: through((y) => y.add_(torch.tensor([1, 2, 3, 4], { dtype: 'float32' }))),
    fill_: through((y) => y.index('1:3').fill_(2.5)), copy_: through((y) => y.copy_(z2)), conj_physical_: through((y) => y.conjPhysical_()),
    copy_from_conj: () => torch.zeros([4], { dtype: 'complex64' }).copy_(z2.conj()),
    conj_conj: () => z1.conj().conj(), slice_conj: () => z1.conj().index('1:3'), exp: () => z1.conj().exp(),
  };
  for (const [name, want] of Object.entries(G.conj_values)) it(`values: ${name}`, () => expectClose(values[name](), want));

  it('reads conjugated values on the host: tolist, printing, data', async () => {
    const y = z1.conj();
    expect(y.tolist()).toEqual([[1, -2], [-2, -0.5], [3.5, 1], [0, 0]]);
    expect(String(y)).toBe(String(z1.conjPhysical()));
    expect(Array.from((await y.data()) as Float32Array)).toEqual([1, -2, -2, -0.5, 3.5, 1, 0, 0]);
  });

  it('writes through the conjugate into the tensor it views, bumping the shared version', () => {
    const z = z1.clone();
    const y = z.conj();
    const v0 = z.version;
    y.index('0:1').fill_(5);
    expect((z.tolist() as number[][])[0]).toEqual([5, -0]);
    expect(z.version).toBeGreaterThan(v0);
  });

  it('leaves no tensors behind when in-place ops with gradients go through it', () => {
    const a = z1.clone().requiresGrad_();
    const b = z2.clone().requiresGrad_();
    let before = 0;
    for (let i = 0; i < 20; i++) {
      if (i === 1) before = torch.memory.stats('cpu').liveTensors;
      torch.tidy(() => {
        const z = a.mul(1);
        z.conj().mul_(b);
        z.index('0:2').add_(1);
        z.abs().sum().backward();
      });
      a.grad!.zero_();
      b.grad!.zero_();
    }
    expect(torch.memory.stats('cpu').liveTensors).toBe(before);
  });
});

describe('complex dtypes: saving and loading', () => {
  it('loads PyTorch\'s .pt with complex storages (a transposed view included)', () => {
    const sd = torch.load(new URL('./fixtures/complex.pt', import.meta.url).pathname) as Map<string, Tensor>;
    for (const [k, want] of Object.entries(G.pt)) {
      const t = sd.get(k)!;
      expectClose(t, want);
      expect([t.stride(), t.storageOffset()]).toEqual([want.stride, want.storageOffset]);
    }
  });

  it('refuses safetensors, whose format has no complex dtype, naming it', () => {
    const z = torch.complex(torch.tensor([1.5, -2]), torch.tensor([0.25, 3]));
    expect(() => torch.serialization.serialize({ z })).toThrow(/complex64/);
  });
});

describe('complex dtypes: views share storage', () => {
  it('writing through .real and viewAsReal writes the complex tensor, and the version counter is shared', () => {
    const z = torch.zeros([3], { dtype: 'complex64' });
    const v0 = z.version;
    z.real.fill_(2);
    torch.viewAsReal(z).select(1, 1).copy_(torch.tensor([1, -1, 0.5], { dtype: 'float32' }));
    expect(z.tolist()).toEqual([[2, 1], [2, -1], [2, 0.5]]);
    expect(z.version).toBeGreaterThan(v0);
  });

  it('leaves no tensors behind in a loop of complex arithmetic with gradients', () => {
    const z = torch.complex(torch.tensor([1.5, -2]), torch.tensor([0.5, 3])).requiresGrad_();
    let before = 0;
    for (let i = 0; i < 50; i++) {
      if (i === 1) before = torch.memory.stats('cpu').liveTensors; // (after the first step made z.grad)
      torch.tidy(() => {
        const l = z.mul(z).add(1).div(z.add(2)).abs().sum();
        l.backward();
      });
      z.grad!.zero_();
    }
    expect(torch.memory.stats('cpu').liveTensors).toBe(before);
  });
});

const gpuReady = await torch.webgpu.init();

describe.skipIf(!gpuReady)('complex64 on WebGPU (two float32 lanes: the real kernels on the parts)', () => {
  it('moves both ways, computes as the CPU, and gives the same gradients', async () => {
    const onBoth = (device: 'cpu' | 'webgpu') => {
      const a = torch.complex(torch.tensor([1.5, -2, 0.25], { device }), torch.tensor([0.5, 3, -1], { device })).requiresGrad_();
      const b = torch.complex(torch.tensor([2, 0.5, -1.5], { device }), torch.tensor([-1, 1, 2.5], { device }));
      const y = a.mul(b).div(a.add(1)).exp().sub(b.conj());
      const l = y.abs().sum().add(torch.angle(a.matmul(b)));
      l.backward();
      return { y, l, g: a.grad! };
    };
    const cpu = onBoth('cpu');
    const gpu = onBoth('webgpu');
    expect(gpu.y.device.type).toBe('webgpu');
    expect(gpu.y.dtype).toBe('complex64');
    const close = async (g: Tensor, c: Tensor) => {
      const got = (await g.tolistAsync()) as number[][];
      const want = c.tolist() as number[][];
      got.flat().forEach((v, i) => expect(Math.abs(v - want.flat()[i])).toBeLessThan(1e-4 * (1 + Math.abs(want.flat()[i]))));
    };
    await close(gpu.y, cpu.y);
    await close(gpu.g, cpu.g);
    expect(Math.abs((await gpu.l.itemAsync()) as number - (cpu.l.item() as number))).toBeLessThan(1e-4);
    const back = await gpu.y.toAsync('cpu');
    expect(back.dtype).toBe('complex64');
    const up = cpu.y.detach().to('webgpu');
    expect(await up.tolistAsync()).toEqual(cpu.y.tolist());
  });

  it('complex128 is refused as float64 is (its parts have no WGSL type): at its first kernel', () => {
    const z = torch.zeros([2], { dtype: 'complex128', device: 'webgpu' });
    expect(() => z.add(1)).toThrow(torch.DTypeError);
    expect(() => z.add(1)).toThrow(/float64/);
  });
});
