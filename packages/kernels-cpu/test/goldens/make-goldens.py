#!/usr/bin/env python3
"""Regenerates the PyTorch goldens of the CPU kernel tests.

Run with the interpreter that has PyTorch 1.13:
    /usr/bin/python3 packages/kernels-cpu/test/goldens/make-goldens.py
It writes cast.ts, pointwise.ts, reduce.ts and matmul.ts next to itself. They are committed,
so the tests need no Python. Values are TypeScript literals: NaN, Infinity, -0 and int64 as
bigint (`5n`); bool results as 0/1.
"""
import math
import pathlib

import torch

HERE = pathlib.Path(__file__).resolve().parent

DTYPES = {
    'float32': torch.float32,
    'float64': torch.float64,
    'float16': torch.float16,
    'bfloat16': torch.bfloat16,
    'int8': torch.int8,
    'uint8': torch.uint8,
    'int16': torch.int16,
    'int32': torch.int32,
    'int64': torch.int64,
    'bool': torch.bool,
}
FLOATS = ['float32', 'float64', 'float16', 'bfloat16']
INTS = ['int8', 'uint8', 'int16', 'int32', 'int64']


def lit(v, dtype):
    if dtype == 'int64':
        return f'{int(v)}n'
    if isinstance(v, bool):
        return '1' if v else '0'
    if isinstance(v, int):
        return str(v)
    if math.isnan(v):
        return 'NaN'
    if math.isinf(v):
        return 'Infinity' if v > 0 else '-Infinity'
    if v == 0 and math.copysign(1, v) < 0:
        return '-0'
    r = repr(float(v))
    return r[:-2] if r.endswith('.0') else r


def arr(values, dtype):
    return '[' + ', '.join(lit(v, dtype) for v in values) + ']'


def values_of(t):
    return t.flatten().tolist()


FLOAT_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 7.25, -7.25, 100.7, -300.7, 255.9, 40000.0, 65504.0,
               70000.0, 3e9, -3e9, 5000000007.0, -5000000007.0, 2.0**31, -2.0**31 - 1, 2.0**63, 1e20, 1e-8, 3.4e38,
               1.0000001, float('inf'), float('-inf'), float('nan')]
INT_EDGES = {
    'int8': [0, 1, -1, 2, -2, 7, -7, 100, 127, -128],
    'uint8': [0, 1, 2, 7, 100, 127, 128, 200, 255],
    'int16': [0, 1, -1, 2, -2, 7, -7, 300, 32767, -32768, 255, 256],
    'int32': [0, 1, -1, 2, -2, 7, -7, 300, 65537, 2**31 - 1, -2**31, 16777217],
    'int64': [0, 1, -1, 2, -2, 7, -7, 300, 2**31, 2**53 + 1, 2**60 + 2**36 + 1, -(2**60 + 2**36 + 1),
              2**63 - 1, -2**63, 4294967297, 65519, 65520],
    'bool': [False, True],
}


def cast_goldens():
    lines = ['/** PyTorch 1.13 casts: `CAST_CASES[src]` holds source values and, per destination, `src_t.to(dst)`. */',
             'export const CAST_CASES = {']
    for src, sdt in DTYPES.items():
        vals = FLOAT_EDGES if src in FLOATS else INT_EDGES[src]
        t = torch.tensor(vals, dtype=torch.float64 if src in FLOATS else sdt).to(sdt)
        lines.append(f'  {src}: {{')
        lines.append(f'    values: {arr(values_of(t), src)},')
        for dst, ddt in DTYPES.items():
            lines.append(f'    {dst}: {arr(values_of(t.to(ddt)), dst)},')
        lines.append('  },')
    lines.append('} as const;')
    return lines


# Binary ops: a [N] x b [M] -> table [N, M] of op(a_i, b_j), in the dtype itself.
BIN_FLOAT_A = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.0, -7.25, 0.1, 1e30, float('inf'), float('-inf'), float('nan')]
BIN_FLOAT_B = [0.0, -0.0, 1.0, -1.0, 2.0, -3.0, 0.5, 0.1, 3.5, float('inf'), float('-inf'), float('nan')]
BIN_INT = {
    'int8': ([0, 1, -1, 5, -5, 7, 100, 127, -128], [1, -1, 2, -2, 3, -7, 127, -128]),
    'uint8': ([0, 1, 5, 7, 100, 128, 255], [1, 2, 3, 7, 128, 255]),
    'int16': ([0, 1, -1, 5, -5, 300, 32767, -32768], [1, -1, 2, -3, 7, 300, -32768]),
    'int32': ([0, 1, -1, 5, -5, 65537, 2**31 - 1, -2**31], [1, -1, 2, -3, 7, 65536, 2**31 - 1]),
    'int64': ([0, 1, -1, 5, -5, 2**40 + 3, 2**62, 2**63 - 1, -2**63], [1, -1, 2, -3, 7, 2**32, -2**63]),
}
POW_EXP = {
    'int8': [0, 1, 2, 3, 7, -1, -2], 'uint8': [0, 1, 2, 3, 7, 9], 'int16': [0, 1, 2, 3, 7, -1, -2],
    'int32': [0, 1, 2, 3, 7, 31, -1, -2], 'int64': [0, 1, 2, 3, 7, 63, -1, -2],
}
POW_BASE = {
    'int8': [0, 1, -1, 2, -2, 3, -3, 127], 'uint8': [0, 1, 2, 3, 255], 'int16': [0, 1, -1, 2, -2, 3, 300],
    'int32': [0, 1, -1, 2, -2, 3, 7, 65537], 'int64': [0, 1, -1, 2, -2, 3, 7, 2**33 + 1],
}


def binary_cases():
    cases = []
    ops = {
        'add': lambda a, b: torch.add(a, b),
        'addAlpha': lambda a, b: torch.add(a, b, alpha=3),
        'sub': lambda a, b: torch.sub(a, b),
        'mul': torch.mul,
        'div': torch.div,
        'divTrunc': lambda a, b: torch.div(a, b, rounding_mode='trunc'),
        'divFloor': lambda a, b: torch.div(a, b, rounding_mode='floor'),
        'pow': torch.pow,
        'remainder': torch.remainder,
        'maximum': torch.maximum,
        'minimum': torch.minimum,
        'eq': torch.eq, 'ne': torch.ne, 'lt': torch.lt, 'le': torch.le, 'gt': torch.gt, 'ge': torch.ge,
    }
    for op, f in ops.items():
        for d in FLOATS + INTS + ['bool']:
            dt = DTYPES[d]
            if d in FLOATS:
                av, bv = BIN_FLOAT_A, BIN_FLOAT_B
            elif d == 'bool':
                if op not in ('add', 'mul', 'maximum', 'minimum', 'eq', 'ne', 'lt', 'le', 'gt', 'ge'):
                    continue
                av, bv = [False, True], [False, True]
            else:
                if op == 'div':
                    continue
                av, bv = BIN_INT[d]
                if op == 'pow':
                    av, bv = POW_BASE[d], POW_EXP[d]
                if op in ('divTrunc', 'divFloor', 'remainder') and d in ('int32', 'int64'):
                    bv = [v for v in bv if v != -1]  # INT_MIN / -1 traps (SIGFPE) in PyTorch
            a = torch.tensor(av, dtype=torch.float64 if d in FLOATS else dt).to(dt)
            b = torch.tensor(bv, dtype=torch.float64 if d in FLOATS else dt).to(dt)
            try:
                out = f(a[:, None], b[None, :])
            except RuntimeError:
                continue
            od = 'bool' if out.dtype == torch.bool else d
            impl = 'add' if op in ('addAlpha', 'sub') else op
            alpha = 3 if op == 'addAlpha' else (-1 if op == 'sub' else 1)
            cases.append(f"  {{ op: '{impl}', alpha: {alpha}, dtype: '{d}', a: {arr(values_of(a), d)}, b: {arr(values_of(b), d)}, "
                         f"out: {arr(values_of(out), od)} }},")
    return cases


UNARY_FLOAT = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -2.5, 3.0, 10.0, -10.0, 88.0, -100.0, 1e-30, 1e30, 1000.0,
               float('inf'), float('-inf'), float('nan')]


def unary_cases():
    cases = []
    ops = ['neg', 'abs', 'exp', 'log', 'sqrt', 'sin', 'cos', 'tanh', 'sigmoid', 'relu', 'floor', 'ceil']
    for op in ops:
        for d in FLOATS + INTS:
            dt = DTYPES[d]
            vals = UNARY_FLOAT if d in FLOATS else BIN_INT[d][0]
            t = torch.tensor(vals, dtype=torch.float64 if d in FLOATS else dt).to(dt)
            if d not in FLOATS and op not in ('neg', 'abs', 'relu', 'floor', 'ceil'):
                continue
            src = t.float() if d == 'float16' else t  # 1.13 has few float16 unary kernels on CPU
            try:
                out = getattr(torch, op)(src)
            except RuntimeError:
                continue
            if d == 'float16':
                out = out.half()
            cases.append(f"  {{ op: '{op}', dtype: '{d}', a: {arr(values_of(t), d)}, out: {arr(values_of(out), d)} }},")
    return cases


def pointwise_goldens():
    return (['/** PyTorch 1.13 binary ops: `out` is the [a.length, b.length] table of op(a[i], b[j]). */',
             'export const BINARY_CASES = ['] + binary_cases() + ['] as const;', '',
             '/** PyTorch 1.13 unary ops (float16 through float32, which 1.13 lacks kernels for, then rounded). */',
             'export const UNARY_CASES = ['] + unary_cases() + ['] as const;'])


def reduce_goldens():
    lines = ['/** PyTorch 1.13 reductions of `input` (row-major, shape [3, 4, 5]) over `dims`, keepdim. */',
             'export const REDUCE_CASES = [']
    g = torch.Generator().manual_seed(0)
    base = torch.randint(-4, 5, (3, 4, 5), generator=g).double() / 2  # exact in every float dtype
    dims_list = [[0], [1], [2], [0, 2], [1, 2], [0, 1, 2]]
    for d in FLOATS + INTS + ['bool']:
        dt = DTYPES[d]
        if d == 'bool':
            x = base > 0
        elif d in FLOATS:
            x = base.to(dt)
        else:
            x = (base * 2).to(dt)
        for op in ['sum', 'prod', 'amax', 'amin']:
            if d == 'bool' and op in ('sum', 'prod'):
                continue
            for dims in dims_list:
                src = x.float() if (d in ('float16', 'bfloat16') and op == 'prod') else x
                if op == 'sum':
                    out = torch.sum(src, dims, keepdim=True, dtype=src.dtype)
                elif op == 'prod':
                    out = src
                    for dd in dims:
                        out = torch.prod(out, dd, keepdim=True, dtype=src.dtype)
                else:
                    out = getattr(torch, op)(src, dims, keepdim=True)
                out = out.to(dt)
                lines.append(f"  {{ op: '{op}', dtype: '{d}', dims: {dims}, input: {arr(values_of(x), d)}, "
                             f"out: {arr(values_of(out), d)} }},")
    lines.append('] as const;')
    lines.append('')
    lines.append('/** PyTorch 1.13 max/min(dim) of `input` (shape [4, 5]): values and first indices. */')
    lines.append('export const ARG_CASES = [')
    nan = float('nan')
    fvals = [[1.0, 3.0, 3.0, -1.0, 0.0], [nan, 2.0, nan, 5.0, 5.0], [-0.0, 0.0, -1.0, -1.0, 7.0], [2.0, 2.0, 2.0, 2.0, 2.0]]
    for d in FLOATS + INTS + ['bool']:
        dt = DTYPES[d]
        if d in FLOATS:
            x = torch.tensor(fvals, dtype=torch.float64).to(dt)
        elif d == 'bool':
            x = torch.tensor([[0, 1, 1, 0, 0], [0, 0, 0, 0, 0], [1, 1, 1, 1, 1], [1, 0, 1, 0, 1]], dtype=dt)
        else:
            lo, hi = torch.iinfo(dt).min, torch.iinfo(dt).max
            x = torch.tensor([[1, 3, 3, -1 if lo < 0 else 0, 0], [lo, hi, hi, lo, 5], [0, 0, -1 if lo < 0 else 9, 7, 7], [2, 2, 2, 2, 2]], dtype=dt)
        for dim in [0, 1]:
            for op in ['max', 'min']:
                v, i = getattr(torch, op)(x, dim, keepdim=True)
                lines.append(f"  {{ op: '{op}', dtype: '{d}', dim: {dim}, input: {arr(values_of(x), d)}, "
                             f"values: {arr(values_of(v), d)}, indices: {arr(values_of(i), 'int64')} }},")
    lines.append('] as const;')
    return lines


def matmul_goldens():
    lines = ['/** PyTorch 1.13 mm of integer-valued a [3, 4] @ b [4, 5] (exact in every dtype that has mm). */',
             'export const MM_CASES = [']
    g = torch.Generator().manual_seed(1)
    a0 = torch.randint(-3, 4, (3, 4), generator=g)
    b0 = torch.randint(-3, 4, (4, 5), generator=g)
    for d in FLOATS + INTS:
        dt = DTYPES[d]
        a, b = a0.to(dt), b0.to(dt)
        if d == 'uint8':
            a, b = a0.abs().to(dt), b0.abs().to(dt)
        out = (a.float() @ b.float()).to(dt) if d == 'float16' else a @ b
        lines.append(f"  {{ dtype: '{d}', a: {arr(values_of(a), d)}, b: {arr(values_of(b), d)}, out: {arr(values_of(out), d)} }},")
    # wrap-around: the products overflow the type
    for d, av in [('int8', 100), ('uint8', 200), ('int16', 30000), ('int32', 2**30 + 7), ('int64', 2**62 + 7)]:
        dt = DTYPES[d]
        a = torch.full((2, 3), av, dtype=dt)
        b = torch.full((3, 2), 3, dtype=dt)
        out = a @ b
        lines.append(f"  {{ dtype: '{d}', a: {arr(values_of(a), d)}, b: {arr(values_of(b), d)}, out: {arr(values_of(out), d)}, "
                     f"shapes: [[2, 3], [3, 2]] }},")
    lines.append('] as const;')
    return lines


def write(name, lines):
    header = ['// Generated by make-goldens.py from PyTorch ' + torch.__version__ + '. Do not edit.', '']
    (HERE / name).write_text('\n'.join(header + lines) + '\n')


if __name__ == '__main__':
    write('cast.ts', cast_goldens())
    write('pointwise.ts', pointwise_goldens())
    write('reduce.ts', reduce_goldens())
    write('matmul.ts', matmul_goldens())
