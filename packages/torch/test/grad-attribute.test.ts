/**
 * `x.grad` as an attribute (issue 15, core Note [Reading .grad]): PyTorch code assigns it
 * (`p.grad = None`, `p.grad = g`), with python_variable.cpp's checks and PyTorch 2.x's
 * messages; a read hands out one cached handle per gradient, so reading in a loop is cheap
 * and leaks nothing. Expected values from PyTorch 1.13 (the semantics are 2.x's as well).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { thrown } from './helpers';

const f32 = (data: number[], requiresGrad = false): Tensor => torch.tensor(data, { dtype: 'float32', requiresGrad });

function live(): { tensors: number; storages: number } {
  const s = torch.memory.stats('cpu');
  return { tensors: s.liveTensors, storages: s.liveStorages };
}

describe('assigning x.grad', () => {
  it('x.grad = t: the next backward accumulates into t in place; x.grad = null clears', () => {
    // x.grad = t; (x*3).sum().backward(): t == [13, 23], x.grad is t
    const x = f32([1, 1], true);
    const t = f32([10, 20]);
    x.grad = t;
    expect(x.grad).toBe(t);
    x.mul(3).sum().backward();
    expect(t.tolist()).toEqual([13, 23]);
    expect(x.grad).toBe(t);
    // g = x.grad; x.grad = None: g keeps its values, the next backward starts afresh
    const g = x.grad!;
    x.grad = null;
    expect(x.grad).toBeNull();
    x.mul(3).sum().backward();
    expect(x.grad!.tolist()).toEqual([3, 3]);
    expect(g.tolist()).toEqual([13, 23]);
    t.dispose();
  });

  it('any tensor may hold one: a non-leaf, one that does not require grad', () => {
    const y = f32([1, 2]);
    y.grad = f32([5, 6]);
    expect(y.grad!.tolist()).toEqual([5, 6]);
    const z = f32([1, 2], true).mul(2);
    z.grad = f32([7, 8]);
    expect(z.grad!.tolist()).toEqual([7, 8]);
    expect(() => (f32([1]).grad = null)).not.toThrow();
  });

  it("refuses what PyTorch 2.x refuses, with its messages", () => {
    const x = f32([1, 2], true);
    const bad = (v: unknown) => thrown(() => (x.grad = v as Tensor));
    let e = bad(3);
    expect(e).toBeInstanceOf(torch.TorchTypeError);
    expect(e.message).toBe('assigned grad expected to be a Tensor or None but got grad of type number');
    e = bad(x);
    expect(e.message).toBe("can't assign Variable as its own grad");
    e = bad(torch.zeros([2], { dtype: 'float64' }));
    expect(e.message).toBe(
      "attempting to assign a gradient with dtype 'float64' to a tensor with dtype 'float32'. Please ensure that the gradient and the tensor have the same dtype",
    );
    e = bad(torch.zeros([2], { device: 'meta' }));
    expect(e).toBeInstanceOf(torch.DeviceError);
    expect(e.message).toBe(
      "attempting to assign a gradient with device type 'meta' to a tensor with device type 'cpu'. Please ensure that the gradient and the tensor are on the same device",
    );
    e = bad(torch.zeros([3]));
    expect(e).toBeInstanceOf(torch.ShapeError);
    expect(e.message).toBe(
      "attempting to assign a gradient of size '[3]' to a tensor of size '[2]'. Please ensure that the gradient and the tensor are the same size",
    );
    expect(x.grad).toBeNull();
  });
});

describe('reading x.grad (Note [Reading .grad])', () => {
  it('hands out the same handle while the gradient is the same, which sees in-place accumulation', () => {
    const x = f32([1, 2], true);
    x.mul(2).sum().backward();
    const g = x.grad!;
    expect(x.grad).toBe(g);
    x.mul(2).sum().backward();
    expect(x.grad).toBe(g);
    expect(g.tolist()).toEqual([4, 4]);
  });

  it('disposing the handle frees only the handle: the next read makes a new one', () => {
    const x = f32([1, 2], true);
    x.mul(2).sum().backward();
    const g = x.grad!;
    g.dispose();
    const h = x.grad!;
    expect(h).not.toBe(g);
    expect(h.tolist()).toEqual([2, 2]);
  });

  it('a handle read before zeroGrad() stays valid afterwards, with the old values', () => {
    const p = new torch.nn.Parameter(f32([1, 2]));
    const opt = new torch.optim.SGD([p], { lr: 0.1 });
    p.mul(3).sum().backward();
    const g = p.grad!;
    opt.step();
    opt.zeroGrad();
    expect(p.grad).toBeNull();
    expect(g.tolist()).toEqual([3, 3]);
    expect((p.tolist() as number[]).map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0.7, 1.7]);
  });

  it('library code never disposes the handle a user holds (optimizer step, clipGradNorm_)', () => {
    const p = new torch.nn.Parameter(f32([3, 4]));
    p.mul(1).sum().backward();
    const g = p.grad!;
    torch.nn.utils.clipGradNorm_([p], 100);
    new torch.optim.Adam([p]).step();
    expect(g.isDisposed).toBe(false);
    expect(p.grad).toBe(g);
  });

  it('100,000 reads: no allocation, live tensors and storages flat', () => {
    const x = f32([1, 2, 3], true);
    x.mul(2).sum().backward();
    const first = x.grad;
    const before = live();
    let same = true;
    for (let i = 0; i < 100_000; i++) same &&= x.grad === first;
    expect(same).toBe(true);
    expect(live()).toEqual(before);
  });

  it('a training loop that reads .grad each step outside tidy keeps live counts flat', () => {
    const p = new torch.nn.Parameter(f32([1, 2, 3]));
    const opt = new torch.optim.SGD([p], { lr: 0.01 });
    const step = () => {
      opt.zeroGrad();
      const sq = p.mul(p);
      const l = sq.sum();
      l.backward();
      l.dispose();
      sq.dispose();
      const g = p.grad!;
      g.dispose(); // the reader's own: a handle read each step and disposed
      opt.step();
    };
    for (let i = 0; i < 10; i++) step();
    const before = live();
    for (let i = 0; i < 2000; i++) step();
    expect(live()).toEqual(before);
  });

  it('handles of replaced gradients that nobody disposed go back with the garbage collector', async () => {
    const gc = (globalThis as { gc?: () => void }).gc!;
    const p = new torch.nn.Parameter(f32([1, 2, 3]));
    const opt = new torch.optim.SGD([p], { lr: 0.01 });
    const norms: number[] = [];
    const step = () => {
      opt.zeroGrad();
      torch.tidy(() => p.mul(p).sum().backward());
      norms.push(p.grad!.abs().sum().item() as number); // the read handle is left to the GC
      opt.step();
    };
    const settle = async () => {
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 0));
        gc();
      }
      await new Promise((r) => setTimeout(r, 10));
    };
    for (let i = 0; i < 10; i++) step();
    await settle();
    const before = live();
    for (let i = 0; i < 500; i++) step();
    await settle();
    expect(live().tensors).toBeLessThanOrEqual(before.tensors);
    expect(norms.at(-1)).toBeLessThan(norms[0]);
  });
});
