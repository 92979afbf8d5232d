import { describe, it, expect } from 'vitest';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as torch from '@torch-ts/torch';
import golden from './goldens/serialization.json';
import { thrown } from './helpers';

const { serialization, nn } = torch;

interface G {
  shape: number[];
  dtype: string;
  values: number[];
  stride?: number[];
  storageOffset?: number;
}

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const fromG = (g: G) => torch.tensor(g.values, { dtype: g.dtype as torch.DType }).reshape(g.shape);

function expectTensor(t: unknown, g: G): void {
  expect(t).toBeInstanceOf(torch.Tensor);
  const x = t as torch.Tensor;
  expect(x.dtype).toBe(g.dtype);
  expect(x.shape).toEqual(g.shape);
  const read = x.dtype === 'int64' ? Array.from(x.dataSync({ bigint: true }) as BigInt64Array, Number) : Array.from(x.dataSync() as Float64Array, Number);
  expect(read).toEqual(g.values.map(Number));
}

function expectTorchError(fn: () => unknown): TorchErrorLike {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(torch.TorchError);
  return e;
}
type TorchErrorLike = Error;

const STG = golden.safetensors as unknown as Record<string, { metadata: Record<string, string> | null; tensors: Record<string, G> }>;

describe('safetensors: byte-exact with the reference layout', () => {
  for (const [name, c] of Object.entries(STG)) {
    it(`serialize ${name} equals the reference bytes`, () => {
      const tensors = new Map(Object.entries(c.tensors).map(([k, g]) => [k, fromG(g)]));
      const bytes = serialization.serialize(tensors, c.metadata);
      expect(Buffer.from(bytes).equals(Buffer.from(fixture(`${name}.safetensors`)))).toBe(true);
    });
    it(`deserialize ${name} gives the tensors and metadata`, () => {
      const { tensors, metadata } = serialization.deserialize(fixture(`${name}.safetensors`));
      expect(metadata).toEqual(c.metadata);
      expect([...tensors.keys()].sort()).toEqual(Object.keys(c.tensors).sort());
      for (const [k, g] of Object.entries(c.tensors)) expectTensor(tensors.get(k), g);
    });
  }

  it('non-contiguous tensors are written in logical order; a plain object works as a dict', () => {
    const x = torch.arange(6).float().reshape(2, 3);
    const a = serialization.serialize({ t: x.t() });
    const b = serialization.serialize({ t: x.t().contiguous() });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(serialization.deserialize(a).tensors.get('t')!.tolist()).toEqual([[0, 3], [1, 4], [2, 5]]);
  });

  it('refuses what it cannot write', () => {
    expectTorchError(() => serialization.serialize({ a: 3 as never }));
    expectTorchError(() => serialization.serialize({ __metadata__: torch.zeros(1) }));
    expectTorchError(() => serialization.serialize({ a: torch.zeros(1) }, { k: 5 as never }));
  });
});

describe('safetensors: bad files are TorchErrors and load nothing', () => {
  const good = fixture('mixed.safetensors');
  const live = () => torch.memory.stats('cpu').liveTensors;
  const header = (json: string, data = new Uint8Array(0)) => {
    const h = new TextEncoder().encode(json);
    const out = new Uint8Array(8 + h.length + data.length);
    new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
    out.set(h, 8);
    out.set(data, 8 + h.length);
    return out;
  };
  it('truncated anywhere', () => {
    const before = live();
    for (const cut of [0, 4, 7, 8, 20, 100, good.length - 60, good.length - 1]) {
      expectTorchError(() => serialization.deserialize(good.subarray(0, cut)));
    }
    expect(live()).toBe(before);
  });
  it('trailing bytes, bad header length, bad JSON, bad UTF-8, not an object', () => {
    const extra = new Uint8Array(good.length + 1);
    extra.set(good);
    expectTorchError(() => serialization.deserialize(extra));
    const huge = good.slice();
    new DataView(huge.buffer).setBigUint64(0, 1n << 40n, true);
    expect(expectTorchError(() => serialization.deserialize(huge)).message).toContain('too large');
    expectTorchError(() => serialization.deserialize(header('{"a":')));
    const badUtf8 = header('{}      ');
    badUtf8[9] = 0xff;
    expectTorchError(() => serialization.deserialize(badUtf8));
    expectTorchError(() => serialization.deserialize(header('[1,2,3]')));
  });
  it('unknown dtype, bad shape, overlapping or short offsets', () => {
    expect(expectTorchError(() => serialization.deserialize(header('{"a":{"dtype":"F8_E4M3","shape":[1],"data_offsets":[0,1]}}', new Uint8Array(1)))).message).toContain(
      'unsupported dtype',
    );
    expectTorchError(() => serialization.deserialize(header('{"a":{"dtype":"X99","shape":[1],"data_offsets":[0,4]}}', new Uint8Array(4))));
    expectTorchError(() => serialization.deserialize(header('{"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}}', new Uint8Array(4))));
    expectTorchError(() => serialization.deserialize(header('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}', new Uint8Array(4))));
    expectTorchError(() =>
      serialization.deserialize(
        header('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[2,6]}}', new Uint8Array(6)),
      ),
    );
    expectTorchError(() => serialization.deserialize(header('{"__metadata__":{"a":1}}')));
  });
});

describe('torch.save / torch.load (files)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'torch-ts-ser-'));
  it('round-trips a module state dict through safetensors', () => {
    const m = new nn.Sequential(new nn.Linear(3, 4), new nn.ReLU(), new nn.Linear(4, 2), new nn.BatchNorm1d(2));
    const path = join(dir, 'model.safetensors');
    torch.save(m.stateDict(), path);
    const loaded = torch.load(path) as Map<string, torch.Tensor>;
    expect([...loaded.keys()].sort()).toEqual([...m.stateDict().keys()].sort());
    const m2 = new nn.Sequential(new nn.Linear(3, 4), new nn.ReLU(), new nn.Linear(4, 2), new nn.BatchNorm1d(2));
    m2.loadStateDict(loaded);
    for (const [k, t] of m.stateDict()) expect(m2.stateDict().get(k)!.tolist()).toEqual(t.tolist());
    expect(loaded.get('3.num_batches_tracked')!.dtype).toBe('int64');
    // The file is the reference layout: header length, JSON, padding.
    const bytes = new Uint8Array(readFileSync(path));
    const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
    expect(n % 8).toBe(0);
    expect(new TextDecoder().decode(bytes.subarray(8, 9))).toBe('{');
  });
  it('save accepts a module; metadata is written and read back', () => {
    const path = join(dir, 'meta.safetensors');
    torch.save(new nn.Linear(2, 2), path, { metadata: { format: 'pt' } });
    expect(torch.loadSafetensors(path).metadata).toEqual({ format: 'pt' });
  });
  it('saveAsync writes the same bytes as save', async () => {
    const sd = new nn.Linear(3, 2).stateDict();
    torch.save(sd, join(dir, 'a.safetensors'));
    await torch.saveAsync(sd, join(dir, 'b.safetensors'));
    expect(readFileSync(join(dir, 'a.safetensors')).equals(readFileSync(join(dir, 'b.safetensors')))).toBe(true);
  });

  it('a missing or corrupt file is one TorchError', () => {
    expectTorchError(() => torch.load(join(dir, 'nope.safetensors')));
    const p = join(dir, 'corrupt.safetensors');
    writeFileSync(p, fixture('mixed.safetensors').subarray(0, 200));
    expectTorchError(() => torch.load(p));
  });
});

describe('loading PyTorch .pt checkpoints (made by torch.save)', () => {
  const sdG = golden.stateDict as unknown as Record<string, G>;
  it('a state dict of every dtype, with strides, offsets and shared storages', () => {
    const sd = torch.load(new URL('./fixtures/state_dict.pt', import.meta.url).pathname) as Map<string, torch.Tensor>;
    expect(sd).toBeInstanceOf(Map);
    expect([...sd.keys()]).toEqual(Object.keys(sdG));
    for (const [k, g] of Object.entries(sdG)) {
      const t = sd.get(k)!;
      expectTensor(t, g);
      expect(t.stride()).toEqual(g.stride);
      expect(t.storageOffset()).toBe(g.storageOffset);
    }
    // 'base', 'transposed' and 'strided' share one storage, as in PyTorch
    const before = sd.get('transposed')!.tolist() as number[][];
    sd.get('base')!.add_(1);
    const after = sd.get('transposed')!.tolist() as number[][];
    after.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(before[i][j] + 1, 5)));
    expect((sd.get('strided')!.tolist() as number[][])[0][0]).toBe((sd.get('base')!.tolist() as number[][])[1][0]);
  });

  it('a nested checkpoint: dicts, numbers, strings, tuples, big ints, bytes, a Parameter', () => {
    const c = torch.load(new URL('./fixtures/checkpoint.pt', import.meta.url).pathname) as Map<string, unknown>;
    const g = golden.checkpoint;
    expect(c.get('epoch')).toBe(g.epoch);
    expect(c.get('lr')).toBe(g.lr);
    expect(c.get('name')).toBe(g.name);
    expect(c.get('shape')).toEqual(g.shape);
    expect(c.get('none')).toBeNull();
    expect(c.get('flag')).toBe(true);
    expect(c.get('big')).toBe(BigInt(g.big));
    expect(c.get('list')).toEqual(g.list);
    expect(Array.from(c.get('bytes') as Uint8Array)).toEqual([0, 255]);
    const w = (c.get('model') as Map<string, torch.Tensor>).get('weight')!;
    expect(w.tolist()).toEqual([[1, 1], [1, 1]]);
    expect(w.requiresGrad).toBe(true);
  });

  it('a model trained in PyTorch runs here with the same output', () => {
    const sd = torch.load(new URL('./fixtures/mlp.pt', import.meta.url).pathname) as Map<string, torch.Tensor>;
    expect([...sd.keys()]).toEqual(golden.mlp.keys);
    const m = new nn.Sequential(new nn.Linear(4, 8), new nn.ReLU(), new nn.Linear(8, 3));
    m.loadStateDict(sd);
    const y = m.call(fromG(golden.mlp.x as G)) as torch.Tensor;
    const want = (golden.mlp.y as G).values;
    Array.from(y.dataSync() as Float32Array).forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThanOrEqual(1e-5 * (1 + Math.abs(want[i]))));
  });

  it('a deflate-compressed archive (re-zipped by another tool) loads the same', () => {
    const a = torch.load(new URL('./fixtures/mlp.pt', import.meta.url).pathname) as Map<string, torch.Tensor>;
    const b = torch.load(new URL('./fixtures/mlp-deflate.pt', import.meta.url).pathname) as Map<string, torch.Tensor>;
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [k, t] of a) expect(b.get(k)!.tolist()).toEqual(t.tolist());
    // without an inflater (as in a browser) it is a clear error, not garbage
    expect(expectTorchError(() => serialization.loadPt(fixture('mlp-deflate.pt'))).message).toContain('deflate');
  });

  it('truncated or corrupted .pt files are TorchErrors and leak nothing', () => {
    const bytes = fixture('state_dict.pt');
    const live = () => torch.memory.stats('cpu').liveTensors;
    const before = live();
    for (const cut of [4, 30, 500, 2000, bytes.length - 30, bytes.length - 1]) {
      expectTorchError(() => serialization.loadPt(bytes.subarray(0, cut)));
    }
    // Corrupt the pickle's first opcode after PROTO (stored entries are raw bytes in the archive).
    const bad = bytes.slice();
    const name = Buffer.from(bad).indexOf(Buffer.from('state_dict/data.pkl'));
    const at = Buffer.from(bad).indexOf(Buffer.from([0x80, 0x02]), name); // PROTO 2: the pickle starts here
    expect(at).toBeGreaterThan(name);
    bad[at + 2] = 0xff;
    expectTorchError(() => serialization.loadPt(bad));
    // A storage shorter than its tensors need.
    expectTorchError(() => serialization.loadPt(fixture('mixed.safetensors')));
    expect(live()).toBe(before);
  });
});

describe('fuzzing: damaged files only ever raise TorchError', () => {
  // A fixed xorshift stream, so a failure reproduces.
  let state = 0x9e3779b9;
  const rnd = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const mutate = (src: Uint8Array): Uint8Array => {
    const b = src.slice();
    const flips = 1 + Math.floor(rnd() * 4);
    for (let i = 0; i < flips; i++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
    return rnd() < 0.3 ? b.subarray(0, Math.floor(rnd() * b.length)) : b;
  };
  const check = (load: (b: Uint8Array) => unknown, src: Uint8Array) => {
    const before = torch.memory.stats('cpu').liveTensors;
    for (let i = 0; i < 300; i++) {
      const b = mutate(src);
      let result: unknown;
      try {
        result = load(b);
      } catch (e) {
        if (!(e instanceof torch.TorchError)) throw new Error(`mutation ${i} raised ${(e as Error).name}: ${(e as Error).message}`);
        continue;
      }
      // A mutation that still parses (a changed tensor value) is fine; release what loaded.
      for (const t of serialization.reachableTensors(result)) t.dispose();
    }
    expect(torch.memory.stats('cpu').liveTensors).toBe(before);
  };
  it('safetensors', () => check((b) => serialization.deserialize(b).tensors, fixture('mixed.safetensors')));
  it('.pt (stored)', () => check((b) => serialization.loadPt(b), fixture('state_dict.pt')));
  it('.pt (nested checkpoint)', () => check((b) => serialization.loadPt(b), fixture('checkpoint.pt')));
});
