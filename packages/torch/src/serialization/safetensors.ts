/**
 * The safetensors format, byte for byte as the reference (Rust) library writes it:
 *
 *   [u64 little-endian N][N bytes of JSON header, space-padded to a multiple of 8][data]
 *
 * The header is compact JSON: `__metadata__` first (if any, keys sorted), then one entry
 * per tensor, `{"dtype":"F32","shape":[2,3],"data_offsets":[begin,end]}`, in data order;
 * tensors are laid out by descending dtype (I64 F64 F32 I32 BF16 F16 I16 I8 U8 BOOL, the
 * reverse of the library's `Dtype` enum order) and then by name. Reading accepts any
 * order and checks everything (sizes, offsets covering the data exactly, known dtypes,
 * valid UTF-8 / JSON) before any tensor is made, so a bad file never loads in part.
 * Browser-safe: byte arrays in and out.
 */
import { Tensor, TorchError, type DType } from '@torch-ts/core';
import { tensorBytes, tensorFromBytes } from './bytes';
import { isCount, isObject } from './guards';

/** safetensors dtype name <-> torch-ts dtype, in the reference library's enum order. */
const ST_DTYPES: readonly [string, DType][] = [
  ['BOOL', 'bool'],
  ['U8', 'uint8'],
  ['I8', 'int8'],
  ['I16', 'int16'],
  ['F16', 'float16'],
  ['BF16', 'bfloat16'],
  ['I32', 'int32'],
  ['F32', 'float32'],
  ['F64', 'float64'],
  ['I64', 'int64'],
];
// Rank in the reference enum (which also has U16 U32 U64 and the F8 types between these).
const ENUM_RANK: Record<string, number> = { BOOL: 0, U8: 1, I8: 2, I16: 5, F16: 7, BF16: 8, I32: 9, F32: 11, F64: 12, I64: 13 };
const TO_ST = new Map<DType, string>(ST_DTYPES.map(([s, d]) => [d, s]));
const FROM_ST = new Map<string, DType>(ST_DTYPES.map(([s, d]) => [s, d]));
const ITEM: Record<string, number> = { BOOL: 1, U8: 1, I8: 1, I16: 2, F16: 2, BF16: 2, I32: 4, F32: 4, F64: 8, I64: 8 };

/** The reference reader's limit on the header size. */
const MAX_HEADER_SIZE = 100_000_000;

export type TensorMapLike = Map<string, Tensor> | Record<string, Tensor>;

function entriesOf(op: string, tensors: TensorMapLike): [string, Tensor][] {
  if (tensors === null || typeof tensors !== 'object') throw new TorchError(`${op}: expected a Map or an object of tensors`);
  const entries = tensors instanceof Map ? [...tensors] : Object.entries(tensors);
  for (const [k, v] of entries) {
    if (typeof k !== 'string') throw new TorchError(`${op}: keys must be strings, but got ${typeof k}`);
    if (k === '__metadata__') throw new TorchError(`${op}: "__metadata__" is reserved and cannot name a tensor`);
    if (!(v instanceof Tensor)) throw new TorchError(`${op}: the value of "${k}" is not a Tensor`);
    // (the safetensors format holds strided tensors only: safetensors' torch.py refuses a sparse one so)
    if (v.isSparse) {
      throw new TorchError(
        `${op}: You are trying to save a sparse tensor: \`${k}\` which this library does not support. You can make it a dense tensor before saving with \`.toDense()\` but be aware this might make a much larger file than needed.`,
      );
    }
  }
  return entries;
}

/** `safetensors.serialize`: the file's bytes for these tensors (CPU tensors; any strides). */
export function serialize(tensors: TensorMapLike, metadata?: Record<string, string> | null): Uint8Array {
  const op = 'safetensors.serialize';
  const entries = entriesOf(op, tensors).map(([name, t]) => {
    const dtype = TO_ST.get(t.dtype);
    if (!dtype) throw new TorchError(`${op}: dtype ${t.dtype} of "${name}" has no safetensors name`);
    return { name, t, dtype };
  });
  entries.sort((a, b) => ENUM_RANK[b.dtype] - ENUM_RANK[a.dtype] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const parts: string[] = [];
  if (metadata != null) {
    const keys = Object.keys(metadata).sort();
    for (const k of keys) {
      if (typeof metadata[k] !== 'string') throw new TorchError(`${op}: metadata values must be strings ("${k}" is ${typeof metadata[k]})`);
    }
    parts.push(`"__metadata__":{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(metadata[k])}`).join(',')}}`);
  }
  const blobs: Uint8Array[] = [];
  let offset = 0;
  for (const { name, t, dtype } of entries) {
    const bytes = tensorBytes(op, t);
    blobs.push(bytes);
    parts.push(`${JSON.stringify(name)}:{"dtype":"${dtype}","shape":[${t.shape.join(',')}],"data_offsets":[${offset},${offset + bytes.length}]}`);
    offset += bytes.length;
  }
  let json = new TextEncoder().encode(`{${parts.join(',')}}`);
  const pad = (8 - (json.length % 8)) % 8;
  if (pad) {
    const padded = new Uint8Array(json.length + pad).fill(0x20);
    padded.set(json);
    json = padded;
  }
  const out = new Uint8Array(8 + json.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  let pos = 8 + json.length;
  for (const b of blobs) {
    out.set(b, pos);
    pos += b.length;
  }
  return out;
}

/** `serialize` for tensors on any device: device tensors are first read back to the CPU. */
export async function serializeAsync(tensors: TensorMapLike, metadata?: Record<string, string> | null): Promise<Uint8Array> {
  const entries = entriesOf('safetensors.serializeAsync', tensors);
  const host = new Map<string, Tensor>();
  const copies: Tensor[] = [];
  try {
    for (const [k, t] of entries) {
      if (t.device.type === 'cpu') {
        host.set(k, t);
      } else {
        const c = await t.toAsync('cpu');
        copies.push(c);
        host.set(k, c);
      }
    }
    return serialize(host, metadata);
  } finally {
    for (const c of copies) c.dispose();
  }
}

export interface SafetensorsContents {
  tensors: Map<string, Tensor>;
  metadata: Record<string, string> | null;
}

interface Info {
  name: string;
  dtype: DType;
  st: string;
  shape: number[];
  begin: number;
  end: number;
}

const bad = (msg: string) => new TorchError(`safetensors: ${msg}`);

/** Parses and validates the header; nothing is allocated for tensors yet. */
export function readHeader(bytes: Uint8Array): { infos: Info[]; metadata: Record<string, string> | null; dataStart: number } {
  if (!(bytes instanceof Uint8Array)) throw bad('expected a Uint8Array');
  if (bytes.length < 8) throw bad(`the file is too small to hold a header (${bytes.length} bytes)`);
  const n = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  if (n > BigInt(MAX_HEADER_SIZE)) throw bad(`header length ${n} is too large`);
  const hlen = Number(n);
  if (8 + hlen > bytes.length) throw bad(`header length ${hlen} runs past the end of the file (${bytes.length} bytes)`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + hlen));
  } catch {
    throw bad('the header is not valid UTF-8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw bad('the header is not valid JSON');
  }
  if (!isObject(parsed) || Array.isArray(parsed)) throw bad('the header is not a JSON object');
  let metadata: Record<string, string> | null = null;
  const infos: Info[] = [];
  for (const [name, v] of Object.entries(parsed)) {
    if (name === '__metadata__') {
      if (!isObject(v) || Array.isArray(v)) throw bad('__metadata__ must map strings to strings');
      const strings: Record<string, string> = {};
      for (const [k, x] of Object.entries(v)) {
        if (typeof x !== 'string') throw bad('__metadata__ must map strings to strings');
        strings[k] = x;
      }
      metadata = strings;
      continue;
    }
    if (!isObject(v)) throw bad(`the entry of "${name}" is not an object`);
    const st = v.dtype;
    const dtype = typeof st === 'string' ? FROM_ST.get(st) : undefined;
    if (typeof st !== 'string' || !dtype) throw bad(`unsupported dtype ${JSON.stringify(st)} for "${name}"`);
    const shape = v.shape;
    if (!Array.isArray(shape) || !shape.every(isCount)) throw bad(`invalid shape for "${name}"`);
    const off = v.data_offsets;
    if (!Array.isArray(off) || off.length !== 2 || !off.every(isCount)) {
      throw bad(`invalid data_offsets for "${name}"`);
    }
    infos.push({ name, dtype, st, shape, begin: off[0], end: off[1] });
  }
  infos.sort((a, b) => a.begin - b.begin || a.end - b.end);
  let start = 0;
  for (const info of infos) {
    if (info.begin !== start || info.end < info.begin) throw bad(`invalid offsets for "${info.name}"`);
    const numel = info.shape.reduce((a, b) => a * b, 1);
    if (!Number.isSafeInteger(numel * ITEM[info.st])) throw bad(`the shape of "${info.name}" overflows`);
    if (info.end - info.begin !== numel * ITEM[info.st]) {
      throw bad(`"${info.name}" has ${info.end - info.begin} bytes, but ${info.st} [${info.shape.join(', ')}] needs ${numel * ITEM[info.st]}`);
    }
    start = info.end;
  }
  if (8 + hlen + start !== bytes.length) {
    throw bad(`the data section has ${bytes.length - 8 - hlen} bytes, but the header describes ${start} (truncated or corrupt file)`);
  }
  return { infos, metadata, dataStart: 8 + hlen };
}

/** `safetensors.deserialize`: the tensors (new CPU tensors, in file order) and the metadata. */
export function deserialize(bytes: Uint8Array): SafetensorsContents {
  const { infos, metadata, dataStart } = readHeader(bytes);
  const tensors = new Map<string, Tensor>();
  try {
    for (const i of infos) {
      tensors.set(i.name, tensorFromBytes('safetensors.deserialize', bytes.subarray(dataStart + i.begin, dataStart + i.end), i.dtype, i.shape));
    }
  } catch (e) {
    for (const t of tensors.values()) t.dispose();
    throw e;
  }
  return { tensors, metadata };
}
