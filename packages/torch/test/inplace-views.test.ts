/**
 * The in-place view ops (issue 15): `x.t_()`, `x.transpose_()`, `x.swapaxes_()`,
 * `x.swapdims_()`, `x.squeeze_()`, `x.unsqueeze_()`, `x.asStrided_()`, `torch.asStrided_()`
 * change the geometry of the tensor they are called on (core and autograd Note [In-place view
 * ops]). Against PyTorch 1.13 (test/goldens/inplace_views.json, scripts/goldens/inplace_views.py):
 * the geometry and values afterwards, the version bump, the gradient through
 * `y = views(a.clone()); y.op_(); (y * w).sum().backward()` and the Nodes it records, on CPU
 * and WebGPU; the errors; autograd's refusals; and no leak.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

type View = ['rows', number, number] | ['transpose', number, number] | ['t'] | ['select', number, number];
type Op = [string, ...unknown[]];
interface Geometry {
  shape: number[];
  stride: number[];
  offset: number;
  contiguous: boolean;
  values: number[];
}
interface GoldenError {
  type: string;
  message: string;
}
interface Golden {
  cases: {
    id: string;
    shape: number[];
    views: View[];
    ops: Op[];
    result: Geometry & { versionBump: number };
    grad: { values: number[]; gradFn: string; below: string; isLeaf: boolean };
  }[];
  errors: { id: string; shape: number[]; ops: Op[]; error: GoldenError; shapeAfter: number[]; version: number }[];
  leaf: GoldenError;
  viewOfLeaf: GoldenError;
  savedTensor: GoldenError;
  noGradLeaf: { shape: number[]; isLeaf: boolean; requiresGrad: boolean; grad: Geometry };
  baseWithView: { baseShape: number[]; baseGradFn: string; viewBaseIsBase: boolean; grad: number[] };
  detached: { detachedShape: number[]; originalShape: number[]; originalVersion: number };
}

const G = JSON.parse(readFileSync(new URL('./goldens/inplace_views.json', import.meta.url), 'utf8')) as Golden;

const ready = await torch.webgpu.init();
if (!ready) console.warn('[inplace-views] WebGPU SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');
const devices = ready ? (['cpu', 'webgpu'] as const) : (['cpu'] as const);
type DeviceName = (typeof devices)[number];

/** `as_strided_` -> `asStrided_`. */
const jsName = (n: string) => n.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The golden script's x: arange(n) * 0.5 - 1 of `shape`, a contiguous tensor of its own. */
function start(shape: number[], device: DeviceName = 'cpu'): Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  return torch.tidy(() => torch.arange(n, { dtype: 'float32', device }).mul(0.5).sub(1).reshape(shape).clone());
}

function takeViews(x: Tensor, views: View[]): Tensor {
  let t = x;
  for (const v of views) {
    if (v[0] === 'rows') t = t.index(`${v[1]}:${v[2]}`);
    else if (v[0] === 'transpose') t = t.transpose(v[1], v[2]);
    else if (v[0] === 't') t = t.t();
    else t = t.select(v[1], v[2]);
  }
  return t;
}

function runOps(y: Tensor, ops: Op[]): void {
  for (const [name, ...args] of ops) {
    const method = (y as unknown as Record<string, (...a: unknown[]) => unknown>)[jsName(name)];
    expect(method.call(y, ...args), `${name} returns the tensor it was called on`).toBe(y);
  }
}

/** A float tensor's elements, row-major. */
const valuesOf = async (t: Tensor): Promise<number[]> => Array.from(await t.data(), Number);

async function geometry(t: Tensor): Promise<Geometry> {
  return { shape: [...t.shape], stride: t.stride(), offset: t.storageOffset(), contiguous: t.isContiguous(), values: await valuesOf(t) };
}

describe('in-place view ops against PyTorch 1.13', () => {
  for (const device of devices) {
    for (const c of G.cases) {
      it(`${c.id}: geometry, values and version on ${device}`, async () => {
        const made: Tensor[] = [];
        try {
          const x = start(c.shape, device);
          made.push(x);
          const y = takeViews(x, c.views);
          made.push(y);
          const v0 = y.version;
          runOps(y, c.ops);
          const { versionBump, ...expected } = c.result;
          expect(await geometry(y)).toEqual(expected);
          expect(y.version - v0).toBe(versionBump);
          // one version counter for the storage: x sees the same bumps
          expect(x.version).toBe(y.version);
        } finally {
          for (const t of made) t.dispose();
        }
      });

      it(`${c.id}: gradient and Nodes on ${device}`, async () => {
        const [grad, fn, below, isLeaf] = torch.tidy(() => {
          const a = start(c.shape, device).requiresGrad_();
          const y = takeViews(a.clone(), c.views);
          runOps(y, c.ops);
          const w = torch.arange(y.numel(), { dtype: 'float32', device }).reshape([...y.shape]).mul(0.25).add(1);
          const fn = y.gradFn?.name() ?? null;
          const below = y.gradFn?.nextFunctions[0]?.[0].name() ?? null;
          const isLeaf = y.isLeaf;
          y.mul(w).sum().backward();
          return [a.grad!.reshape(-1), fn, below, isLeaf] as const;
        });
        try {
          expect(await valuesOf(grad)).toEqual(c.grad.values);
          expect([fn, below, isLeaf]).toEqual([c.grad.gradFn, c.grad.below, c.grad.isLeaf]);
        } finally {
          grad.dispose();
        }
      });
    }
  }

  it('torch.asStrided_ is the method', () => {
    const x = start([2, 3]);
    expect(torch.asStrided_(x, [3, 2], [1, 3])).toBe(x);
    expect([x.shape, x.stride(), x.tolist()]).toEqual([[3, 2], [1, 3], [[-1, 0.5], [-0.5, 1], [0, 1.5]]]);
    expect(torch.asStrided_(x, { size: [2], stride: [2], storageOffset: 1 }).tolist()).toEqual([-0.5, 0.5]);
    x.dispose();
  });

  it('keep the storage: writes through the new layout reach the old views, and back', () => {
    const x = start([2, 3]);
    const flat = x.view(-1);
    x.t_();
    x.index(0).fill_(100); // row 0 of the transpose: column 0 of the original
    expect(flat.tolist()).toEqual([100, -0.5, 0, 100, 1, 1.5]);
    flat.index(1).fill_(7);
    expect(x.tolist()).toEqual([[100, 100], [7, 1], [0, 1.5]]);
    expect(flat.version).toBe(x.version);
    x.dispose();
    flat.dispose();
  });

  it('every holder of the tensor sees the new layout: the .grad handle', () => {
    const p = start([2, 3]).requiresGrad_();
    p.mul(2).sum().backward();
    const g = p.grad!;
    g.t_();
    expect(p.grad).toBe(g);
    expect(p.grad!.shape).toEqual([3, 2]);
    p.dispose();
  });

  // (WebGPU reads land later than they are asked for: they keep the layout of the call)
  if (ready) {
    it('reads asked for before a t_ get the layout they were asked in, on webgpu', async () => {
      const x = start([2, 3], 'webgpu');
      x.t_();
      const values = x.data();
      const list = x.tolistAsync();
      const host = x.toAsync('cpu');
      x.t_();
      const transposed = [[-1, 0.5], [-0.5, 1], [0, 1.5]];
      expect(Array.from(await values, Number)).toEqual(transposed.flat());
      expect(await list).toEqual(transposed);
      const h = await host;
      expect([h.shape, h.tolist()]).toEqual([[3, 2], transposed]);
      h.dispose();
      x.dispose();
    });
  }

  for (const e of G.errors) {
    it(`${e.id}: ${e.error.type} as PyTorch, the tensor left as it was`, () => {
      const x = start(e.shape);
      const cls = e.error.type === 'IndexError' ? torch.IndexError : torch.TorchError;
      // (torch-ts starts a message with the op's name, so PyTorch's own `as_strided: ` prefix goes;
      // its out-of-bounds message counts elements where PyTorch's setStorage counts bytes)
      const message = e.error.message.replace(/^as_strided: /, '').replace(/^setStorage: .*are out of bounds for storage of size \d+$/, 'out of bounds for storage of size');
      expect(() => runOps(x, e.ops)).toThrow(cls);
      expect(() => runOps(x, e.ops)).toThrow(message);
      expect([[...x.shape], x.version]).toEqual([e.shapeAfter, e.version]);
      x.dispose();
    });
  }

  it('refuses a leaf that requires grad, and a view of one, as PyTorch', () => {
    const a = start([2, 3]).requiresGrad_();
    expect(() => a.t_()).toThrow(torch.AutogradError);
    expect(() => a.t_()).toThrow(G.leaf.message);
    expect(() => a.index('0:2').transpose_(0, 1)).toThrow(G.viewOfLeaf.message);
    // the refusal comes before any change
    expect([[...a.shape], a.version]).toEqual([[2, 3], 0]);
    a.dispose();
  });

  it('bumps the version that earlier Nodes saved', () => {
    torch.tidy(() => {
      const a = start([2, 3]).requiresGrad_();
      const y = a.clone();
      const z = y.mul(y);
      y.t_();
      // (torch-ts's message names the tensor as `float32 [3, 2]` and gives its own hint)
      const [head] = G.savedTensor.message.split(': [');
      const versions = /is at version \d+; expected version \d+ instead\./.exec(G.savedTensor.message)![0];
      expect(() => z.sum().backward()).toThrow(head);
      expect(() => z.sum().backward()).toThrow(versions);
      expect(() => z.sum().backward()).toThrow('[3, 2]');
    });
  });

  it('changes a leaf under noGrad; its gradient then has the new shape', () => {
    const [shape, isLeaf, requiresGrad, grad] = torch.tidy(() => {
      const a = start([2, 3]).requiresGrad_();
      torch.noGrad(() => a.t_());
      a.mul(torch.arange(6, { dtype: 'float32' }).reshape(3, 2)).sum().backward();
      return [[...a.shape], a.isLeaf, a.requiresGrad, a.grad!.clone()] as const;
    });
    const ng = G.noGradLeaf;
    expect([shape, isLeaf, requiresGrad]).toEqual([ng.shape, ng.isLeaf, ng.requiresGrad]);
    expect([[...grad.shape], Array.from(grad.dataSync(), Number)]).toEqual([ng.grad.shape, ng.grad.values]);
    grad.dispose();
  });

  it("t_ of a base leaves its live view's values and gradient", () => {
    const [baseShape, baseGradFn, grad] = torch.tidy(() => {
      const a = start([2, 3]).requiresGrad_();
      const b = a.clone();
      const v = b.index(0);
      b.t_();
      v.mul(torch.tensor([1, 2, 3])).sum().backward();
      return [[...b.shape], b.gradFn?.name(), a.grad!.reshape(-1).clone()] as const;
    });
    expect([baseShape, baseGradFn, Array.from(grad.dataSync(), Number)]).toEqual([G.baseWithView.baseShape, G.baseWithView.baseGradFn, G.baseWithView.grad]);
    grad.dispose();
  });

  it('a detached tensor shares the data and the version, not the geometry', () => {
    const a = start([2, 3]).requiresGrad_();
    const c = a.detach();
    c.t_();
    expect([[...c.shape], [...a.shape], a.version]).toEqual([G.detached.detachedShape, G.detached.originalShape, G.detached.originalVersion]);
    a.dispose();
    c.dispose();
  });
});

describe('in-place view ops leak nothing', () => {
  const counts = (device: DeviceName) => {
    const s = torch.memory.stats(device);
    return { liveTensors: s.liveTensors, liveStorages: s.liveStorages };
  };

  for (const device of devices) {
    it(`allocate nothing and keep no tensor alive, with and without autograd, on ${device}`, async () => {
      const loop = (i: number) =>
        torch.tidy(() => {
          const a = start([2, 3], device).requiresGrad_(i % 2 === 0);
          const y = a.clone();
          const before = counts(device);
          y.t_().unsqueeze_(0).squeeze_(0).transpose_(0, 1).swapaxes_(0, 1).swapdims_(1, 0).asStrided_([6], [1], 0).asStrided_([2, 3], [3, 1]);
          // the ops make no TensorImpl and no storage (their autograd Nodes are not tensors)
          expect(counts(device)).toEqual(before);
          const w = torch.arange(6, { dtype: 'float32', device }).reshape(2, 3);
          if (a.requiresGrad) y.mul(w).sum().backward();
          return a.requiresGrad ? a.grad!.sum() : y.sum();
        });
      // (warm up caches the backends fill once)
      for (const i of [0, 1]) {
        const s = loop(i);
        await s.data();
        s.dispose();
      }
      const before = counts(device);
      for (let i = 0; i < 200; i++) {
        const s = loop(i);
        if (i % 50 === 0) expect((await s.data())[0]).toBe(i % 2 === 0 ? 15 : 1.5);
        s.dispose();
      }
      expect(counts(device)).toEqual(before);
    });
  }
});
