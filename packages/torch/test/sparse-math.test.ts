import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import { DTypeError, NotImplementedError, TorchError, type DType, type Tensor } from '@torch-ts/core';
import golden from './goldens/sparse_math.json';
import { thrown } from './helpers';

const I = [[2, 0, 2, 1], [0, 1, 0, 1]];
const V = [1.5, -2, 3, 4];
const CV = [[1.5, 1], [-2, 0], [3, -0.5], [0, 4]];

interface Members {
  indices: number[][];
  values: { shape: number[]; dtype: string; values: number[] };
  coalesced: boolean;
  dtype: string;
}

const long = (x: unknown): Tensor => torch.tensor(x as number[], { dtype: 'int64' });
const f32 = (x: unknown): Tensor => torch.tensor(x as number[], { dtype: 'float32' });
const rows = (x: Tensor): number[][] => (x.tolist() as bigint[][]).map((r) => r.map(Number));
/** Values as plain numbers: complex as (real, imag) pairs, 16-bit floats as float32 (as the goldens' `plain`). */
function plain(v: Tensor): { shape: number[]; dtype: string; values: number[] } {
  const r = v.dtype === 'complex64' || v.dtype === 'complex128' ? torch.viewAsReal(v) : v.dtype === 'float16' || v.dtype === 'bfloat16' ? v.to('float32') : v;
  return { shape: [...r.shape], dtype: r.dtype, values: (r.reshape([-1]).tolist() as (number | bigint | boolean)[]).map(Number) };
}
const members = (t: Tensor): Members => ({ indices: rows(t._indices()), values: plain(t._values()), coalesced: t.isCoalesced(), dtype: t.dtype });

/** A sparse tensor over `idx` with `vals` of `dtype` (complex values as (real, imag) pairs). */
function sp(vals: unknown[], dtype: DType = 'float32', size: number[] = [3, 2], idx: number[][] = I): Tensor {
  const v = dtype === 'complex64' || dtype === 'complex128' ? torch.viewAsComplex(torch.tensor(vals as number[][], { dtype: dtype === 'complex64' ? 'float32' : 'float64' })) : torch.tensor(vals as number[], { dtype });
  return torch.sparseCooTensor(long(idx), v, size);
}

function close(a: number, e: number, rtol: number): void {
  if (Math.abs(a - e) > rtol * Math.abs(e)) throw new Error(`${a} vs PyTorch's ${e}`);
}

describe('sparse COO norm, mul and div (PyTorch 1.13 goldens)', () => {
  it('norm: the p-norm of the coalesced values, full reductions only', () => {
    const N = golden.norm;
    const s = sp(V);
    const h = torch.sparseCooTensor(long([[1, 0, 1]]), torch.tensor([[1, -2], [0.5, 3], [-4, 2.5]], { dtype: 'float64' }), [3, 2]);
    const ps: Record<string, number> = { '2': 2, '1': 1, '1.5': 1.5, '0': 0, inf: Infinity, '-inf': -Infinity };
    for (const [name, p] of Object.entries(ps)) {
      const [e32, e64] = N.p[name as keyof typeof N.p];
      close(Number(s.norm(p).item()), e32, 1e-6);
      close(Number(h.norm(p).item()), e64, 1e-14);
    }
    close(Number(s.norm().item()), N.default, 1e-6);
    close(Number(s.norm('fro').item()), N.fro, 1e-6);
    close(Number(s.norm(2, [0, 1]).item()), N.dims_all, 1e-6);
    expect([s.norm().dtype, h.norm().dtype].map((d) => `torch.${d}`)).toEqual(N.dtype_of);
    expect(Number(sp([], 'float32', [3, 2], [[], []]).norm().item())).toBe(N.empty);
    const E = golden.norm_errors;
    for (const [f, m] of [
      [() => s.norm(2, [0]), E.dim],
      [() => s.norm(2, [0, 1], true), E.keepdim],
      [() => sp([1, 2, 3, 4], 'int64').norm(), E.int],
    ] as const) {
      const err = thrown(f);
      expect(err).toBeInstanceOf(TorchError);
      expect(err.message).toMatch(/^norm/);
      expect(err.message).toContain(m);
    }
  });

  it('mul and div by a number, a 0-d tensor and a dense tensor: values, dtypes, flags', () => {
    const M = golden.mul_div;
    const s = sp(V);
    const c = s.coalesce();
    const dense = f32([[1, 2], [3, 4], [5, 6]]);
    const got: Record<string, Members> = {
      mul_number: members(s.mul(2.5)),
      mul_number_c: members(c.mul(2.5)),
      mul_0d: members(c.mul(f32(2))),
      mul_dense: members(s.mul(dense)),
      mul_dense_row: members(c.mul(f32([2, 3]))),
      rmul_dense: members(dense.mul(c)),
      mul_int_by_float: members(sp([1, 2, 3, 4], 'int64').mul(2.5)),
      mul_int_by_int: members(sp([1, 2, 3, 4], 'int64').mul(3)),
      mul_int_by_0d_float: members(sp([1, 2, 3, 4], 'int32').mul(f32(2))),
      div_number: members(s.div(4)),
      div_0d: members(c.div(f32(4))),
      div_int: members(sp([1, 2, 3, 4], 'int64').div(2)),
      div_floor: members(s.div(2, { roundingMode: 'floor' })),
      div_trunc: members(sp([-3, 2, -1, 5]).div(2, { roundingMode: 'trunc' })),
    };
    for (const [k, m] of Object.entries(got)) expect([k, m]).toEqual([k, M[k as keyof typeof M]]);
    expect(num(sp([1, -1, 0, 2], 'float64').div(0)._values()).map(String)).toEqual(M.div_zero.map((x) => x.replace('inf', 'Infinity').replace('nan', 'NaN')));
    // in place: mul_ gives new members marked uncoalesced (an alias keeps the old ones), div_ writes the values
    const inPlace = (f: (y: Tensor) => void) => {
      const x = c.clone();
      const y = x.detach();
      f(y);
      return { self: members(y), alias: members(x) };
    };
    expect(inPlace((y) => y.mul_(2))).toEqual(M.mul_);
    expect(inPlace((y) => y.mul_(f32(0.5)))).toEqual(M.mul_0d_);
    expect(inPlace((y) => y.div_(f32(4)))).toEqual(M.div_);
    expect(inPlace((y) => y.div_(4))).toEqual(M.div_number_);
    const E = golden.mul_div_errors;
    for (const [f, m, cls] of [
      [() => s.div(f32([2, 3])), E.div_dense, TorchError],
      [() => sp([1, 2, 3, 4], 'int64').div_(2), E.div_int_, DTypeError],
      [() => sp([1, 2, 3, 4], 'int64').mul_(2.5), E.mul_int_, DTypeError],
    ] as const) {
      const err = thrown(f);
      expect(err).toBeInstanceOf(cls);
      expect(err.message).toMatch(/^(div_?|mul_): /);
      expect(err.message).toContain(m);
    }
    // (a sparse * sparse product and a dense that broadcasts to more dims are not done here)
    expect(thrown(() => s.mul(s))).toBeInstanceOf(NotImplementedError);
    expect(thrown(() => c.mul(torch.ones([1, 3, 2])))).toBeInstanceOf(NotImplementedError);
  });
});

const num = (x: Tensor): number[] => (x.reshape([-1]).tolist() as (number | bigint)[]).map(Number);

describe('nn.utils.clipGradNorm_ / clipGradValue_ with sparse gradients (PyTorch 1.13 goldens)', () => {
  it('counts the sparse gradient in the total norm, and scales as 1.13 does', () => {
    for (const [key, normType, maxNorm] of [['norm2', 2, 1], ['norm1', 1, 2], ['big', 2, 100]] as const) {
      const G = golden.clip[key];
      const w = new torch.nn.Parameter(torch.ones([3, 2]));
      w.grad = sp(V);
      const d = new torch.nn.Parameter(torch.ones([2]));
      d.grad = f32([1, -2]);
      const total = torch.nn.utils.clipGradNorm_([w, d], maxNorm, normType);
      close(Number(total.item()), G.total, 1e-6);
      expect(members(w.grad!)).toEqual(G.sparse_grad);
      num(d.grad!).forEach((v, k) => close(v, G.dense_grad.values[k], 1e-6));
    }
    const w = new torch.nn.Parameter(torch.ones([3, 2]));
    w.grad = sp(V);
    const E = golden.clip_errors;
    const head = (m: string) => m.slice(0, m.indexOf(' with arguments'));
    const inf = thrown(() => torch.nn.utils.clipGradNorm_([w], 1, Infinity));
    expect(inf).toBeInstanceOf(NotImplementedError);
    // (torch-ts reduces with amax where 1.13 calls max: the same refusal of the SparseCPU backend)
    expect(inf.message).toContain(head(E.inf).replace("'aten::max'", "'aten::amax'"));
    const value = thrown(() => torch.nn.utils.clipGradValue_([w], 1));
    expect(value).toBeInstanceOf(NotImplementedError);
    expect(value.message).toContain(head(E.value));
  });
});

describe('sparse COO values of int64, float16, bfloat16, complex and bool (PyTorch 1.13 goldens)', () => {
  it('builds, prints, coalesces, densifies, adds and scales in each dtype', () => {
    const D = golden.dtypes;
    const vals: Record<string, unknown[]> = { int64: [1, -2, 3, 4], float16: V, bfloat16: V, complex64: CV, complex128: CV, bool: [true, false, true, true] };
    for (const [name, e] of Object.entries(D)) {
      const dtype = name as DType;
      const t = sp(vals[name], dtype);
      expect([name, String(t)]).toEqual([name, e.repr]);
      expect([name, String(t.coalesce())]).toEqual([name, e.repr_coalesced]);
      // (bool values are JSON booleans in the goldens, numbers in `plain`)
      expect([name, members(t.coalesce())]).toEqual([name, { ...e.coalesced, values: { ...e.coalesced.values, values: e.coalesced.values.values.map(Number) } }]);
      expect([name, plain(t.toDense())]).toEqual([name, { ...e.dense, values: e.dense.values.map(Number) }]);
      if ('sum' in e) {
        expect([name, members(t.add(sp(vals[name], dtype, [3, 2], [[1, 2, 0, 2], [1, 0, 0, 1]])))]).toEqual([name, e.sum]);
        expect([name, members(t.mul(2))]).toEqual([name, e.scaled]);
      }
    }
    const H = golden.half_sums;
    for (const dtype of ['float16', 'bfloat16'] as const) {
      const h = torch.sparseCooTensor(long([[0, 0, 0, 1]]), torch.tensor([0.1, 0.2, 0.3, 0.7], { dtype }), [2]);
      expect(num(h.coalesce()._values().to('float32'))).toEqual(H[dtype]);
      if (dtype === 'float16') expect(num(h.toDense().to('float32'))).toEqual(H.float16_dense);
    }
    const E = golden.dtype_errors;
    for (const [f, m] of [
      [() => sp(V, 'float16').add(sp(V, 'float16')), E.half_add],
      [() => sp([true, false, true, true], 'bool').add(sp([true, false, true, true], 'bool')), E.bool_add],
    ] as const) {
      const err = thrown(f);
      expect(err).toBeInstanceOf(DTypeError);
      expect(err.message).toBe(`add: ${m}`);
    }
  });

  it('converts indices of another dtype to int64, as torch.sparse_coo_tensor does', () => {
    const X = golden.indices_dtypes;
    expect(members(torch.sparseCooTensor(torch.tensor(I, { dtype: 'int32' }), f32(V), [3, 2]))).toEqual(X.int32);
    expect(members(torch.sparseCooTensor(torch.tensor([[2.7, 0.2, 2, 1.9], [0, 1, 0, 1]]), f32(V), [3, 2]))).toEqual(X.float);
    expect(members(torch.sparseCooTensor(torch.tensor(I, { dtype: 'uint8' }), f32(V)))).toEqual(X.uint8);
  });
});
