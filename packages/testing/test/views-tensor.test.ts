import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

/**
 * The view goldens (goldens/views.json, made from PyTorch) run through the Tensor methods
 * users call, checking sizes, strides, storage offset, contiguity and whether the result
 * shares the input's storage (advanced indexing: a contiguous copy that does not). test/view-geometry.test.ts runs the same cases against the
 * pure geometry functions.
 */
interface Geometry {
  sizes: number[];
  strides: number[];
  offset: number;
  contiguous: boolean;
  aliases: boolean;
}
interface Case {
  name: string;
  base: { shape: number[]; steps: { op: string; args: unknown[] }[] };
  op: string;
  args: unknown[];
  expected?: Geometry | Geometry[];
  error?: { type: string; match: string };
}

const { cases } = JSON.parse(readFileSync(new URL('../goldens/views.json', import.meta.url), 'utf8')) as { cases: Case[] };

function item(a: unknown): unknown {
  if (a !== null && typeof a === 'object' && 'slice' in a) {
    const [s, e, st] = (a as { slice: (number | null)[] }).slice;
    return torch.slice(s, e, st);
  }
  if (a !== null && typeof a === 'object' && 'tensor' in a) {
    const t = a as { tensor: torch.TensorData; dtype: torch.DType };
    return torch.tensor(t.tensor, { dtype: t.dtype });
  }
  return a;
}

function apply(x: Tensor, op: string, args: unknown[]): Tensor | Tensor[] {
  if (op === 'mT') return x.mT;
  const method = (x as unknown as Record<string, (...a: unknown[]) => Tensor | Tensor[]>)[op];
  if (typeof method !== 'function') throw new Error(`no method ${op}`);
  return method.apply(x, op === 'index' ? args.map(item) : args);
}

function build(c: Case): Tensor {
  const n = c.base.shape.reduce((a, b) => a * b, 1);
  let x = torch.arange(n, { dtype: 'float32' }).view(c.base.shape);
  for (const s of c.base.steps) x = apply(x, s.op, s.op === 'index' ? s.args : s.args) as Tensor;
  return x;
}

function positions(sizes: number[], strides: number[], offset: number): number[] {
  const out: number[] = [];
  const walk = (d: number, at: number) => {
    if (d === sizes.length) out.push(at);
    else for (let i = 0; i < sizes[d]; i++) walk(d + 1, at + i * strides[d]);
  };
  walk(0, offset);
  return out;
}

function geometry(t: Tensor, base: Tensor): Geometry {
  return {
    sizes: t.size(),
    strides: t.stride(),
    offset: t.storageOffset(),
    contiguous: t.isContiguous(),
    aliases: t.impl.storage === base.impl.storage,
  };
}

describe('view goldens through Tensor methods', () => {
  it('covers at least 60 cases with strides and offsets', () => {
    const plain = cases.filter((c) => c.expected && !c.args.some((a) => typeof a === 'object' && a !== null && 'tensor' in a));
    expect(plain.length).toBeGreaterThanOrEqual(60);
  });

  for (const c of cases) {
    it(`${c.op}: ${c.name}`, () => {
      torch.tidy(() => {
        // Index tensors and booleans go through advanced indexing: a copy, checked here for
        // its geometry (the OpInfo 'index' goldens check its values).
        const x = build(c);
        if (c.error) {
          const Err = (torch as unknown as Record<string, new () => Error>)[c.error.type];
          let thrown: unknown = null;
          try {
            apply(x, c.op, c.args);
          } catch (e) {
            thrown = e;
          }
          expect(thrown).toBeInstanceOf(Err);
          expect((thrown as Error).message).toContain(c.error.match);
          return;
        }
        const r = apply(x, c.op, c.args);
        const got = Array.isArray(r) ? r.map((t) => geometry(t, x)) : geometry(r, x);
        expect(got).toEqual(c.expected);
        // The base is arange, so every storage element equals its position: an element read
        // through a view that aliases it must equal offset + sum(index * stride).
        for (const v of Array.isArray(r) ? r : [r]) {
          if (v.impl.storage !== x.impl.storage) continue;
          expect(Array.from(v.dataSync() as Float32Array)).toEqual(positions(v.size(), v.stride(), v.storageOffset()));
        }
      });
    });
  }
});
