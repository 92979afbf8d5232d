/**
 * `torch.supports(op, dtype, device)` (core Note [Dtype support is data]) against what the
 * backends do. Without a device: its answers are well-formed for every OpInfo op, the CPU
 * computes in every dtype PyTorch's CPU accepts, and the WebGPU xfails derive from it. On
 * WebGPU (test/supports-webgpu.test.ts) an unsupported dtype must raise the DTypeError.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { OP_KERNELS, supports, type DType } from '@torch-ts/core';
import { cpuImpls } from '@torch-ts/kernels-cpu';
import { webgpuDtypeVariants, webgpuDtypes } from '@torch-ts/kernels-webgpu';
import { OP_TABLE } from '../src/op-info';
import { expectedList, isScalarInput, loadOpGoldens, type GoldenCase, type GoldenTensor } from '../src/goldens';
import { kernelOp, notOnWebgpu } from '../src/webgpu-xfails';

describe('supports()', () => {
  it('answers for every OpInfo op, overloads included, and names only impls that exist', () => {
    const impls = new Set(Object.keys(cpuImpls));
    for (const [op, needs] of Object.entries(OP_KERNELS)) {
      for (const alt of needs.flatMap((n) => n.split('|'))) {
        if (alt === 'host') continue;
        const [ref, mode] = alt.split('@');
        expect(impls.has(ref.split('.')[0]), `${op}: ${alt}`).toBe(true);
        expect([undefined, 'opmath', 'bool'], `${op}: ${alt}`).toContain(mode);
      }
    }
    for (const op of OP_TABLE) for (const d of torch.DTYPES) expect(typeof torch.supports(op.name, d, 'cpu')).toBe('boolean');
    expect(Object.keys(webgpuDtypeVariants).every((k) => k.split('.')[0] in webgpuDtypes)).toBe(true);
  });

  it('raises a TorchError for an unknown op or dtype', () => {
    expect(() => supports('noSuchOp', 'float32', 'cpu')).toThrow(/supports: unknown op 'noSuchOp'/);
    expect(() => supports('add', 'complex32' as DType, 'cpu')).toThrow(torch.TorchError);
  });

  // (`dtype` is the op's compute dtype: cases whose result is in another one, softmax of int8
  // with { dtype: float32 }, ask about that one)
  it('on CPU, says no only where PyTorch rejects the dtype (every golden case computing in it is an error)', () => {
    const goldens = loadOpGoldens();
    const wrong: string[] = [];
    for (const op of OP_TABLE) {
      for (const d of torch.DTYPES) {
        const cases = (goldens.get(op.name) ?? []).filter((c) => c.dtype === d);
        // (a case whose tensor inputs are all empty, or whose result is, computes in no dtype:
        // PyTorch's factorizations and solves return before dispatching on it, and so do torch-ts's)
        const first = (c: GoldenCase): GoldenTensor | undefined => expectedList(c)?.[0];
        const computes = (c: GoldenCase) => c.inputs.some((x) => isScalarInput(x) || x.shape.every((n) => n > 0)) && first(c)?.shape.every((n) => n > 0);
        const runs = cases.filter((c) => !c.error && computes(c) && first(c)?.dtype === d);
        if (runs.length === 0) continue;
        for (const c of runs) if (!supports(kernelOp(op.name, c), d, 'cpu')) wrong.push(`${kernelOp(op.name, c)}/${d}`);
      }
    }
    expect([...new Set(wrong)]).toEqual([]);
  });

  it('answers the documented examples', () => {
    expect(torch.supports('add', 'int64', 'webgpu')).toBe(true);
    expect(torch.supports('add', 'float64', 'webgpu')).toBe(false);
    expect(torch.supports('sort', 'float16', 'webgpu')).toBe(true);
    expect(torch.supports('sort', 'bfloat16', 'webgpu')).toBe(false);
    expect(torch.supports('softmax', 'bfloat16', 'webgpu')).toBe(true);
    expect(torch.supports('scatterAdd', 'int64', 'webgpu')).toBe(true);
    expect(torch.supports('scatterReduce.amax', 'int64', 'webgpu')).toBe(false);
    expect(torch.supports('flip', 'float64', 'webgpu')).toBe(true);
    expect(torch.supports('softmax', 'float64', 'cpu')).toBe(true);
    expect(torch.supports('bernoulli', 'float64', 'cpu')).toBe(true);
    expect(torch.supportedDtypes('mm', 'webgpu')).toEqual(['float32', 'float16', 'bfloat16', 'int8', 'uint8', 'int16', 'int32', 'bool', 'complex64']);
  });

  it('leaves no OpInfo op without a WebGPU dtype', () => {
    expect(notOnWebgpu(OP_TABLE)).toEqual({});
  });
});
