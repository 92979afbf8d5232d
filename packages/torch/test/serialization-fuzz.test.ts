/**
 * Seeded fuzzing of every loader (issue 14): random garbage, random pickle opcode streams,
 * and mutations of small valid files go to safetensors `deserialize`, `loadPt`, `unpickle`,
 * `ZipReader` and `torch.load`. Each case must load or raise a TorchError (no other error,
 * no crash), finish far inside the 1 s budget, and leave no tensor alive. The seed is
 * fixed so a failure reproduces; TORCH_TS_FUZZ_SEED=<n> runs another stream, and a
 * failure names the seed and the case.
 */
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as torch from '@torch-ts/torch';
import { cpuMs } from './helpers';

const { serialization } = torch;
const SEED = Number(process.env.TORCH_TS_FUZZ_SEED || 0x2545f491) >>> 0 || 1;
const CASE_BUDGET_MS = 1000;

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const { inflateRawSync } = process.getBuiltinModule('node:zlib');
const inflateRaw = (d: Uint8Array, max: number) => new Uint8Array(inflateRawSync(d, { maxOutputLength: Math.max(1, max) }));

/** xorshift32: small, fast, and the same on every machine. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => int(256));
  return { next, int, bytes, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)] };
}

/** Runs `cases` inputs through `load`; every failure must be a TorchError, every case quick, nothing leaked. */
function fuzz(label: string, seed: number, cases: number, make: (r: ReturnType<typeof rng>) => Uint8Array, load: (b: Uint8Array) => unknown): { loaded: number } {
  const r = rng(seed);
  const before = torch.memory.stats('cpu').liveTensors;
  let slowest = 0;
  let loaded = 0;
  for (let i = 0; i < cases; i++) {
    const input = make(r);
    const t0 = cpuMs(); // (CPU time: load on the machine does not count against the budget)
    let result: unknown;
    try {
      result = load(input);
      loaded++;
    } catch (e) {
      if (!(e instanceof torch.TorchError)) {
        const head = Buffer.from(input.subarray(0, 64)).toString('hex');
        throw new Error(`${label}: seed ${seed}, case ${i} raised ${(e as Error).name}: ${(e as Error).message} (input ${input.length} bytes: ${head}...)`);
      }
    }
    for (const t of serialization.reachableTensors(result)) t.dispose();
    slowest = Math.max(slowest, cpuMs() - t0);
  }
  expect(slowest, `${label}: the slowest case (seed ${seed})`).toBeLessThan(CASE_BUDGET_MS);
  expect(torch.memory.stats('cpu').liveTensors).toBe(before);
  return { loaded };
}

const garbage = (r: ReturnType<typeof rng>) => r.bytes(r.int(r.next() < 0.5 ? 64 : 2048));

/** Garbage that starts like the format, so it gets past the first check. */
const zipish = (r: ReturnType<typeof rng>) => {
  const b = garbage(r);
  if (b.length >= 4) b.set([0x50, 0x4b, 0x03, 0x04]);
  if (b.length >= 26 && r.next() < 0.5) b.set([0x50, 0x4b, 0x05, 0x06], b.length - 22);
  return b;
};

/** The opcodes the weights_only reader accepts, with plausible arguments, and a few it refuses. */
const OPS: ((r: ReturnType<typeof rng>) => number[])[] = [
  ...[0x28, 0x29, 0x5d, 0x7d, 0x8f, 0x4e, 0x88, 0x89, 0x74, 0x85, 0x86, 0x87, 0x61, 0x65, 0x73, 0x75, 0x52, 0x81, 0x62, 0x51].map((op) => () => [op]),
  (r) => [0x4b, r.int(256)],
  (r) => [0x4d, r.int(256), r.int(256)],
  (r) => [0x4a, ...r.bytes(4)],
  (r) => [0x47, ...r.bytes(8)],
  (r) => [0x8a, 9, ...r.bytes(9)],
  (r) => [0x8a, 255, ...r.bytes(r.int(260))],
  () => [0x58, 3, 0, 0, 0, 0x61, 0x62, 0x63],
  (r) => [0x58, ...r.bytes(4)],
  () => [0x55, 1, 0x78],
  (r) => [0x71, r.int(4)],
  (r) => [0x68, r.int(4)],
  (r) => [0x72, r.int(4), 0, 0, 0],
  (r) => [0x6a, r.int(4), 0, 0, 0],
  (r) => [0x63, ...Buffer.from(r.pick(['collections\nOrderedDict\n', 'my.Thing\n', 'posix\nsystem\n', '__builtin__\nset\n', 'torch\nSize\n']))],
  (r) => [r.pick([0x8b, 0x95, 0x93, 0x94, 0x8c, 0x42, 0x49, 0x30, 0x32, 0x00, 0xff])],
];

/** A random opcode stream: PROTO 2, some ops, STOP (sometimes missing). */
const opStream = (r: ReturnType<typeof rng>) => {
  const out = [0x80, 0x02];
  const n = 1 + r.int(40);
  for (let i = 0; i < n; i++) out.push(...r.pick(OPS)(r));
  if (r.next() < 0.9) out.push(0x2e);
  return Uint8Array.from(out);
};

/** A few byte changes, and sometimes a cut, of a valid file. */
const mutant = (src: Uint8Array) => (r: ReturnType<typeof rng>) => {
  const b = src.slice();
  const n = 1 + r.int(4);
  for (let i = 0; i < n; i++) {
    const at = r.int(b.length);
    if (r.next() < 0.5) b[at] = r.int(256);
    else b[at] = r.pick([0x00, 0xff, 0x7f, 0x80, b[at] + 1, b[at] - 1]) & 0xff;
  }
  return r.next() < 0.2 ? b.subarray(0, r.int(b.length)) : b;
};

const findClass = (module: string, name: string): unknown => {
  if (module === 'collections' && name === 'OrderedDict') return { call: () => new Map() };
  if (module === 'my' && name === 'Thing') return { call: (a: unknown[]) => new serialization.PyObject('my.Thing', a), newobj: true, build: () => {} };
  return undefined;
};

describe(`fuzzing every loader (seed ${SEED}; TORCH_TS_FUZZ_SEED overrides)`, () => {
  const small = fixture('hostile/small-valid.pt');
  const st = fixture('mixed.safetensors');
  it('safetensors deserialize: garbage and mutations', () => {
    fuzz('deserialize/garbage', SEED + 1, 600, garbage, (b) => serialization.deserialize(b).tensors);
    fuzz('deserialize/mutant', SEED + 2, 400, mutant(st), (b) => serialization.deserialize(b).tensors);
  });
  it('loadPt: garbage, zip-shaped garbage, and mutations of a small state dict', () => {
    fuzz('loadPt/garbage', SEED + 3, 400, garbage, (b) => serialization.loadPt(b, { inflateRaw }));
    fuzz('loadPt/zipish', SEED + 4, 400, zipish, (b) => serialization.loadPt(b, { inflateRaw }));
    // Some mutations only change tensor values: the fuzzer reaches past the checks.
    expect(fuzz('loadPt/mutant', SEED + 5, 800, mutant(small), (b) => serialization.loadPt(b, { inflateRaw })).loaded).toBeGreaterThan(0);
  });
  it('ZipReader: garbage and zip-shaped garbage', () => {
    fuzz('zip/garbage', SEED + 6, 300, garbage, (b) => new serialization.ZipReader(b, inflateRaw));
    fuzz('zip/zipish', SEED + 7, 300, zipish, (b) => {
      const z = new serialization.ZipReader(b, inflateRaw);
      for (const n of z.names) z.read(n);
      return null;
    });
  });
  it('unpickle: garbage and random opcode streams', () => {
    fuzz('unpickle/garbage', SEED + 8, 400, garbage, (b) => serialization.unpickle(b, { findClass, persistentLoad: () => null }));
    expect(fuzz('unpickle/ops', SEED + 9, 1500, opStream, (b) => serialization.unpickle(b, { findClass, persistentLoad: () => null })).loaded).toBeGreaterThan(0);
  });
  it('torch.load on files: garbage and mutations', () => {
    const dir = mkdtempSync(join(tmpdir(), 'torch-ts-fuzz-'));
    let k = 0;
    const viaFile = (b: Uint8Array) => {
      const p = join(dir, `case-${k++ % 4}.bin`);
      writeFileSync(p, b);
      return torch.load(p);
    };
    fuzz('torch.load/garbage', SEED + 10, 100, garbage, viaFile);
    fuzz('torch.load/mutant', SEED + 11, 100, mutant(small), viaFile);
  });
});
