/**
 * torch.save / serializePt write PyTorch's .pt format (issue 18). The objects of
 * fixtures/pt-written.ts are written and must give exactly the committed bytes of
 * fixtures/written/*.pt, which real PyTorch loaded (scripts/goldens/serialization_write.py,
 * goldens/serialization_write.json): so what PyTorch read is what CI writes. Our own loader
 * must read back what PyTorch read (values, dtypes, strides, offsets, which tensors share a
 * storage, which objects are the same object), and so must the source objects describe;
 * and PyTorch's own torch.save of what it loaded wrote the same bytes again.
 * Regenerate the fixtures with UPDATE_PT_FIXTURES=1, then run the Python script.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as torch from '@torch-ts/torch';
import golden from './goldens/serialization_write.json';
import { CASES } from './fixtures/pt-written';
import { thrown } from './helpers';

const { serialization, nn } = torch;
const G = golden as unknown as Record<string, { sha256: string; size: number; weightsOnly: string; pytorchResave: string; object: unknown }>;
const fixtureUrl = (name: string) => new URL(`./fixtures/written/${name}.pt`, import.meta.url);

/** An object as the Python script records it, with Python's container types and tensor classes folded (torch-ts loads dicts as Maps). */
function describeJs(x: unknown, path: string, seen: Map<object, string>, storages: Map<unknown, number>, withStorage: boolean): unknown {
  if (x instanceof torch.Tensor || x instanceof Map || Array.isArray(x) || (typeof x === 'object' && x !== null)) {
    const first = seen.get(x as object);
    if (first !== undefined) return { ref: first };
    seen.set(x as object, path);
  }
  if (x instanceof torch.Tensor) {
    const st = x.impl.storage;
    if (!storages.has(st)) storages.set(st, storages.size);
    const flat = x.resolveConj().flatten();
    let values: unknown[];
    if (x.isComplex()) values = flat.tolist() as unknown[];
    else if (x.dtype === 'int64') values = Array.from(flat.dataSync({ bigint: true }) as BigInt64Array, String);
    else values = Array.from(flat.dataSync() as Float64Array, Number);
    return {
      tensor: {
        dtype: x.dtype,
        shape: x.shape,
        stride: x.stride(),
        storageOffset: x.storageOffset(),
        requiresGrad: x.requiresGrad,
        ...(withStorage ? { storage: storages.get(st) } : {}),
        values,
      },
    };
  }
  const sub = (v: unknown, p: string) => describeJs(v, p, seen, storages, withStorage);
  if (x instanceof Map) return { dict: [...x].map(([k, v]) => [sub(k, `${path}[k]`), sub(v, `${path}[${pyRepr(k)}]`)]) };
  if (Array.isArray(x)) return { list: x.map((v, i) => sub(v, `${path}[${i}]`)) };
  if (x === null) return { none: null };
  if (typeof x === 'boolean') return { bool: x };
  if (typeof x === 'bigint') return { int: String(x) };
  if (typeof x === 'number') {
    if (Number.isSafeInteger(x) && !Object.is(x, -0)) return { int: String(x) };
    return { float: Object.is(x, -0) ? '-0' : Number.isFinite(x) ? x : x > 0 ? 'inf' : '-inf' };
  }
  if (typeof x === 'string') return { str: x };
  if (typeof x === 'object') return { dict: Object.entries(x).map(([k, v]) => [{ str: k }, sub(v, `${path}[${pyRepr(k)}]`)]) };
  throw new Error(`unexpected ${typeof x} at ${path}`);
}

const pyRepr = (k: unknown) => (typeof k === 'string' ? `'${k}'` : String(k));

/** The Python record with OrderedDict folded into dict and the tensor class dropped (requires_grad says what matters); optionally without storage numbers. */
function fold(x: unknown, withStorage: boolean): unknown {
  if (Array.isArray(x)) return x.map((v) => fold(v, withStorage));
  if (x === null || typeof x !== 'object') return x;
  const o = x as Record<string, unknown>;
  if ('OrderedDict' in o) return { dict: fold(o.OrderedDict, withStorage) };
  if ('tensor' in o) {
    const { class: _cls, storage, ...rest } = o.tensor as Record<string, unknown>;
    return { tensor: { ...rest, ...(withStorage ? { storage } : {}) } };
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fold(v, withStorage)]));
}

/** The source object as it is written: modules and optimizers as their state dicts. */
function asWritten(x: unknown): unknown {
  if (x instanceof nn.Module || x instanceof torch.optim.Optimizer) return x.stateDict();
  if (x instanceof Map) return new Map([...x].map(([k, v]) => [k, asWritten(v)]));
  if (x !== null && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype) {
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, asWritten(v)]));
  }
  return x;
}

describe('serializePt: the committed fixtures, which PyTorch loaded', () => {
  for (const name of Object.keys(CASES)) {
    it(`${name}: the same bytes; PyTorch, our loader and the source agree`, () => {
      const src = CASES[name]();
      const bytes = serialization.serializePt(src);
      if (process.env.UPDATE_PT_FIXTURES) writeFileSync(fixtureUrl(name), bytes);
      const committed = new Uint8Array(readFileSync(fixtureUrl(name)));
      expect(Buffer.from(bytes).equals(Buffer.from(committed))).toBe(true);
      // The golden was made from exactly these bytes.
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(G[name].sha256);
      expect(G[name].weightsOnly === 'ok' || G[name].weightsOnly.includes('BINFLOAT')).toBe(true);
      // PyTorch's torch.save of what it loaded wrote these very bytes.
      expect(G[name].pytorchResave).toBe('identical');
      const loaded = serialization.loadPt(bytes);
      expect(describeJs(loaded, 'obj', new Map(), new Map(), true)).toEqual(fold(G[name].object, true));
      // The source (its storages aside: a conjugate view is written as a storage of its own).
      expect(describeJs(asWritten(src), 'obj', new Map(), new Map(), false)).toEqual(fold(G[name].object, false));
    });
  }

  it('PyTorch read the types torch-ts means: OrderedDict for Maps, dict for objects, Parameter, shared storages', () => {
    const sd = G.state_dict.object as { OrderedDict: [{ str: string }, { tensor: { storage: number; class: string } }][] };
    const st = (k: string) => sd.OrderedDict.find(([key]) => key.str === k)![1].tensor.storage;
    expect(st('transposed')).toBe(st('base'));
    expect(st('strided')).toBe(st('base'));
    expect(st('row')).toBe(st('base'));
    expect(st('c_t')).toBe(st('c64'));
    expect(st('f32')).not.toBe(st('base'));
    expect(G.state_dict.weightsOnly).toBe('ok');
    expect(G.many.weightsOnly).toBe('ok');
    const ck = G.checkpoint.object as { dict: [{ str: string }, Record<string, unknown>][] };
    const entry = (k: string) => ck.dict.find(([key]) => key.str === k)![1];
    expect(Object.keys(entry('model'))).toEqual(['OrderedDict']);
    expect((entry('param').tensor as { class: string }).class).toBe('Parameter');
    expect(entry('nested')).toMatchObject({ dict: [[{ str: 'list' }, {}], [{ str: 'shared' }, { ref: "obj['nested']['list'][3][0]" }]] });
  });

  it('the layout is PyTorch\'s: data.pkl, storages sorted by key as strings, version; data at multiples of 64', () => {
    const bytes = serialization.serializePt(CASES.many());
    const zip = new serialization.ZipReader(bytes);
    expect(zip.names.slice(0, 4)).toEqual(['archive/data.pkl', 'archive/data/0', 'archive/data/1', 'archive/data/10']);
    expect(zip.names.at(-1)).toBe('archive/version');
    expect(new TextDecoder().decode(zip.read('archive/version'))).toBe('3\n');
    for (const e of zip.entries.values()) expect(e.dataOffset % 64).toBe(0);
  });
});

describe('torch.save / saveAsync pick the format by name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'torch-ts-ptsave-'));
  const isZip = (p: string) => serialization.isZip(new Uint8Array(readFileSync(p)));
  it('.pt/.pth/.bin/other names write a zip checkpoint, .safetensors safetensors; format overrides; round trip into a module', async () => {
    const m = new nn.Sequential(new nn.Linear(3, 4), new nn.ReLU(), new nn.Linear(4, 2), new nn.BatchNorm1d(2));
    for (const name of ['m.pt', 'm.pth', 'm.bin', 'm', 'm.ckpt']) {
      torch.save(m, join(dir, name));
      expect(isZip(join(dir, name))).toBe(true);
    }
    torch.save(m, join(dir, 'm.safetensors'));
    expect(isZip(join(dir, 'm.safetensors'))).toBe(false);
    torch.save(m, join(dir, 'forced.pt'), { format: 'safetensors' });
    expect(isZip(join(dir, 'forced.pt'))).toBe(false);
    torch.save(m.stateDict(), join(dir, 'forced.safetensors'), { format: 'pt' });
    expect(isZip(join(dir, 'forced.safetensors'))).toBe(true);

    const loaded = torch.load(join(dir, 'm.pt')) as Map<string, torch.Tensor>;
    expect([...loaded.keys()]).toEqual([...m.stateDict().keys()]);
    expect(loaded.get('3.num_batches_tracked')!.dtype).toBe('int64');
    const m2 = new nn.Sequential(new nn.Linear(3, 4), new nn.ReLU(), new nn.Linear(4, 2), new nn.BatchNorm1d(2));
    m2.loadStateDict(loaded);
    for (const [k, t] of m.stateDict()) expect(m2.stateDict().get(k)!.tolist()).toEqual(t.tolist());

    await torch.saveAsync(m, join(dir, 'async.pt'));
    expect(readFileSync(join(dir, 'async.pt')).equals(readFileSync(join(dir, 'm.pt')))).toBe(true);
    expect(Buffer.from(await serialization.serializePtAsync(CASES.state_dict())).equals(readFileSync(fixtureUrl('state_dict')))).toBe(true);
  });

  it('metadata is for safetensors; a bad format is refused', () => {
    const e = thrown(() => torch.save({ a: torch.zeros(1) }, join(dir, 'x.pt'), { metadata: { k: 'v' } }));
    expect(e).toBeInstanceOf(torch.TorchError);
    expect(e.message).toMatch(/^torch\.save: metadata is written only to safetensors files/);
    const f = thrown(() => torch.save({ a: torch.zeros(1) }, join(dir, 'x.pt'), { format: 'npz' as never }));
    expect(f.message).toBe(`torch.save: format must be 'pt' or 'safetensors', but got "npz"`);
  });
});

describe('a training checkpoint round-trips through a .pt file', () => {
  it('model and Adam state saved, loaded into fresh ones, and the next step is the same', () => {
    const make = () => {
      const m = new nn.Linear(3, 2);
      torch.noGrad(() => {
        m.weight.copy_(torch.tensor([[0.5, -1, 2], [1.5, 0.25, -0.75]]));
        m.bias!.copy_(torch.tensor([0.1, -0.2]));
      });
      return [m, new torch.optim.Adam(m.parameters(), { lr: 0.01 })] as const;
    };
    const x = torch.tensor([[1, 2, 3], [-1, 0.5, 2]]);
    const step = (m: torch.nn.Linear, o: torch.optim.Optimizer) => {
      o.zeroGrad();
      m.forward(x).pow(2).sum().backward();
      o.step();
    };
    const [m1, o1] = make();
    step(m1, o1);
    step(m1, o1);
    const back = serialization.loadPt(serialization.serializePt({ model: m1, optimizer: o1, epoch: 2 })) as Map<string, unknown>;
    expect(back.get('epoch')).toBe(2);
    const [m2, o2] = make();
    m2.loadStateDict(back.get('model') as Map<string, torch.Tensor>);
    o2.loadStateDict(back.get('optimizer') as Map<unknown, unknown>);
    step(m1, o1);
    step(m2, o2);
    expect(m2.weight.tolist()).toEqual(m1.weight.tolist());
    expect(m2.bias!.tolist()).toEqual(m1.bias!.tolist());
  });
});

describe('serializePt refuses what a .pt file cannot hold, naming where it is', () => {
  it('functions, symbols, undefined, class instances, Sets, bytes, cycles, mixed-dtype views, meta tensors', () => {
    const msg = (obj: unknown) => {
      const e = thrown(() => serialization.serializePt(obj));
      expect(e).toBeInstanceOf(torch.TorchError);
      return e.message;
    };
    expect(msg({ model: { fn: function step() {} } })).toMatch(/^serializePt: cannot save a function \(step\) at obj\["model"\]\["fn"\] \(a \.pt file holds/);
    expect(msg(new Map([['s', [1, Symbol('x')]]]))).toMatch(/^serializePt: cannot save a symbol \(Symbol\(x\)\) at obj\["s"\]\[1\]/);
    expect(msg({ a: undefined })).toMatch(/^serializePt: cannot save undefined at obj\["a"\]/);
    expect(msg([new Date(0)])).toMatch(/^serializePt: cannot save an object of class Date at obj\[0\]/);
    expect(msg({ s: new Set([1]) })).toMatch(/^serializePt: cannot save an object of class Set at obj\["s"\]/);
    expect(msg({ b: new Uint8Array(2) })).toMatch(/^serializePt: cannot save an object of class Uint8Array at obj\["b"\]/);
    expect(msg(new Map([[{}, 1]]))).toMatch(/^serializePt: cannot save a Map key that is an object of class Object \(keys are strings/);
    const cyc: Record<string, unknown> = { x: 1 };
    cyc.self = { again: cyc };
    expect(msg(cyc)).toMatch(/^serializePt: cannot save a circular reference at obj\["self"\]\["again"\]/);
    const c = torch.complex(torch.tensor([1.5]), torch.tensor([2.5]));
    expect(msg({ c, re: c.real })).toBe(
      'serializePt: cannot save tensors that view the same storage as different dtypes (complex64 and float32, at obj["re"]); save a .clone() of one of them',
    );
    expect(msg({ m: torch.empty([2], { device: 'meta' }) })).toMatch(/^serializePt: cannot save a tensor on the meta device \(it has no data\) at obj\["m"\]/);
    // An object used twice (not a cycle) is written once and loads as one object.
    const shared = [torch.ones(2)];
    const back = serialization.loadPt(serialization.serializePt({ a: shared, b: shared })) as Map<string, unknown>;
    expect(back.get('a')).toBe(back.get('b'));
  });
});
