/**
 * Saving sparse COO tensors (PyTorch 1.13 goldens, scripts/goldens/sparse_save.py):
 *  - fixtures/sparse_pytorch.pt, written by PyTorch, loads here with the members PyTorch had;
 *  - fixtures/written/sparse.pt is what torch-ts writes for the same object (regenerate it with
 *    `UPDATE_PT_FIXTURES=1 npx vitest run test/sparse-save.test.ts`, then run the script): the
 *    test checks torch-ts still writes exactly those bytes, and the golden records what
 *    PyTorch's torch.load(weights_only=True) read from them;
 *  - safetensors refuses a sparse tensor, as safetensors' torch.py does.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import * as torch from '@torch-ts/torch';
import { TorchError, type Tensor } from '@torch-ts/core';
import golden from './goldens/sparse_save.json';
import { thrown } from './helpers';

const { serialization } = torch;
const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);
const long = (x: unknown): Tensor => torch.tensor(x as number[], { dtype: 'int64' });

/** The object sparse_save.py saves with PyTorch, built here the same way. */
function source(): Map<string, Tensor> {
  const s = torch.sparseCooTensor(long([[2, 0, 2, 1], [0, 1, 0, 1]]), torch.tensor([1.5, -2, 3, 4], { dtype: 'float32' }), [3, 2]);
  const h = torch.sparseCooTensor(long([[1, 0, 1]]), torch.tensor([[1, -2], [0.5, 3], [-4, 2.5]], { dtype: 'float64' }), [3, 2]).coalesce();
  const c = torch.sparseCooTensor(long([[0, 2]]), torch.viewAsComplex(torch.tensor([[1, 2], [-3, 0.5]], { dtype: 'float32' })), [4]);
  const e = torch.sparseCooTensor(torch.zeros([2, 0], { dtype: 'int64' }), torch.zeros([0], { dtype: 'float32' }), [2, 3]);
  const d = torch.tensor([1, 2, 3], { dtype: 'int64' });
  return new Map([['s', s], ['h', h], ['c', c], ['e', e], ['d', d]]);
}

interface Desc {
  layout: string;
  shape: number[];
  dtype: string;
  indices?: number[][];
  values?: number[];
  coalesced?: boolean;
}
const flat = (x: Tensor): number[] => {
  const r = x.dtype === 'complex64' || x.dtype === 'complex128' ? torch.viewAsReal(x) : x;
  return (r.reshape([-1]).tolist() as (number | bigint)[]).map(Number);
};
function describeT(t: Tensor): Desc {
  if (!t.isSparse) return { layout: 'strided', shape: [...t.shape], dtype: t.dtype, values: flat(t) };
  const i = t._indices();
  return { layout: 'sparse_coo', shape: [...t.shape], dtype: t.dtype, indices: (i.tolist() as bigint[][]).map((r) => r.map(Number)), values: flat(t._values()), coalesced: t.isCoalesced() };
}
const describeAll = (m: unknown) => Object.fromEntries([...(m as Map<string, Tensor>)].map(([k, v]) => [k, describeT(v)]));

describe('torch.save / torch.load of sparse COO tensors (PyTorch 1.13 goldens)', () => {
  it('loads a .pt PyTorch wrote, and writes one PyTorch loads (weights_only) with the same members', () => {
    const bytes = serialization.serializePt(source());
    if (process.env.UPDATE_PT_FIXTURES) writeFileSync(fixture('written/sparse.pt'), bytes);
    const fromPyTorch = serialization.loadPt(readFileSync(fixture('sparse_pytorch.pt')));
    // (loaded tensors are uncoalesced, as PyTorch's _rebuild_sparse_tensor makes them)
    expect(describeAll(fromPyTorch)).toEqual(golden.pytorch_loaded);
    expect(Buffer.from(bytes).equals(readFileSync(fixture('written/sparse.pt')))).toBe(true);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(golden.written.sha256);
    expect(golden.written.weights_only).toBe('ok');
    expect(golden.written.loaded).toEqual(golden.pytorch_loaded);
    // our loader reads our bytes as PyTorch read them
    expect(describeAll(serialization.loadPt(bytes))).toEqual(golden.written.loaded);
  });

  it('refuses malformed sparse entries, and safetensors refuses sparse tensors', () => {
    const s = torch.sparseCooTensor(long([[0, 1]]), torch.tensor([1, 2], { dtype: 'float32' }), [2]);
    const err = thrown(() => serialization.serialize({ w: s }));
    expect(err).toBeInstanceOf(TorchError);
    // (safetensors' torch.py words, with torch-ts's method name)
    expect(err.message).toBe(
      'safetensors.serialize: You are trying to save a sparse tensor: `w` which this library does not support. You can make it a dense tensor before saving with `.toDense()` but be aware this might make a much larger file than needed.',
    );
    const leaf = torch.sparseCooTensor(long([[0, 1]]), torch.tensor([1, 2], { dtype: 'float32' }), [2]);
    expect(describeT(serialization.loadPt(serialization.serializePt(leaf)) as Tensor)).toEqual({ layout: 'sparse_coo', shape: [2], dtype: 'float32', indices: [[0, 1]], values: [1, 2], coalesced: false });
  });
});
