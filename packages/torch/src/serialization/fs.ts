/**
 * `torch.save(obj, path)` and `torch.load(path)` (Node only: node:fs, node:zlib).
 * `save` writes a PyTorch `.pt` checkpoint (zip + pickle, as PyTorch's `torch.save`) or
 * safetensors, by the file's extension (Note [Which format save writes]); `load` reads
 * either, told apart by their first bytes.
 *
 * Note [Which format save writes]
 * `.safetensors` -> safetensors; any other name (`.pt`, `.pth`, `.bin`, none) -> a PyTorch
 * zip checkpoint, as PyTorch's own `torch.save` writes whatever the name. `options.format`
 * overrides the extension. safetensors holds only a flat map of tensors (and string
 * metadata), so `metadata` asks for it: with `metadata` and no `.safetensors` name or
 * format, the call is an error rather than a file whose format surprises.
 */
import { Tensor, TorchError } from '@torch-ts/core';
import { deserialize, serialize, serializeAsync, type TensorMapLike } from './safetensors';
import { errorMessage } from './guards';
import { isLegacyPt, isZip, loadPt, type LoadPtOptions } from './pt';
import { ptBytes, ptBytesAsync } from './pt-writer';

type NodeFs = typeof import('node:fs');
type NodeZlib = typeof import('node:zlib');

/**
 * Node's modules, fetched at call time (`process.getBuiltinModule`, Node >= 20.16) rather
 * than imported, so that bundling `@torch-ts/torch` for a browser does not pull in
 * `node:fs`; there, `save` / `load` throw and the byte-level functions remain.
 */
function nodeModule(op: string, name: 'node:fs'): NodeFs;
function nodeModule(op: string, name: 'node:zlib'): NodeZlib;
function nodeModule(op: string, name: 'node:fs' | 'node:zlib'): NodeFs | NodeZlib {
  // (`process` and `getBuiltinModule` are typed as always there; in a browser and before
  // Node 20.16 they are not)
  const mod: NodeFs | NodeZlib | undefined = globalThis.process?.getBuiltinModule?.(name);
  if (!mod) throw new TorchError(`${op}: needs Node.js >= 20.16 (${name}); in a browser use torch.serialization.serialize / deserialize on bytes`);
  return mod;
}

export interface SaveOptions {
  /** 'pt' (PyTorch's zip + pickle) or 'safetensors'; by default chosen from the path's extension. */
  format?: 'pt' | 'safetensors';
  /** safetensors `__metadata__` (string to string); safetensors only. */
  metadata?: Record<string, string> | null;
}

type StateDictHolder = { stateDict(): unknown };

function hasStateDict(x: unknown): x is StateDictHolder {
  return (typeof x === 'object' || typeof x === 'function') && x !== null && 'stateDict' in x && typeof x.stateDict === 'function';
}

function formatOf(op: string, path: string, options: SaveOptions): 'pt' | 'safetensors' {
  if (typeof path !== 'string') throw new TorchError(`${op}: expected a path string, but got ${typeof path}`);
  const { format, metadata } = options;
  if (format !== undefined && format !== 'pt' && format !== 'safetensors') {
    throw new TorchError(`${op}: format must be 'pt' or 'safetensors', but got ${JSON.stringify(format)}`);
  }
  const chosen = format ?? (path.toLowerCase().endsWith('.safetensors') ? 'safetensors' : 'pt');
  if (chosen === 'pt' && metadata != null) {
    throw new TorchError(`${op}: metadata is written only to safetensors files, and ${path} is saved as a PyTorch .pt checkpoint (name it .safetensors or pass format: 'safetensors')`);
  }
  return chosen;
}

function tensorsOf(op: string, x: unknown): TensorMapLike {
  const t = hasStateDict(x) ? x.stateDict() : x;
  if (t === null || typeof t !== 'object') throw new TorchError(`${op}: safetensors holds a Map or an object of tensors, but got ${t === null ? 'null' : typeof t}`);
  return t as TensorMapLike;
}

/**
 * Writes `obj` to `path` (atomically: a temp file, then a rename) as a PyTorch `.pt`
 * checkpoint or safetensors (Note [Which format save writes]). A `.pt` file holds
 * tensors (CPU: see `saveAsync`), state dicts, Maps, plain objects, arrays, numbers,
 * strings, booleans and null (see `serializePt`); safetensors a map of tensors.
 */
export function save(obj: unknown, path: string, options: SaveOptions = {}): void {
  const format = formatOf('torch.save', path, options);
  writeAtomically(path, format === 'pt' ? ptBytes('torch.save', obj) : serialize(tensorsOf('torch.save', obj), options.metadata));
}

/** `save` for tensors on any device (WebGPU tensors are read back first). */
export async function saveAsync(obj: unknown, path: string, options: SaveOptions = {}): Promise<void> {
  const format = formatOf('torch.saveAsync', path, options);
  writeAtomically(path, format === 'pt' ? await ptBytesAsync('torch.saveAsync', obj) : await serializeAsync(tensorsOf('torch.saveAsync', obj), options.metadata));
}

function writeAtomically(path: string, bytes: Uint8Array): void {
  const { writeFileSync, renameSync, unlinkSync } = nodeModule('torch.save', 'node:fs');
  const tmp = `${path}.tmp-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* nothing to clean */
    }
    throw new TorchError(`torch.save: cannot write ${path} (${errorMessage(e)})`);
  }
}

function readBytes(op: string, path: string): Uint8Array {
  const { readFileSync } = nodeModule(op, 'node:fs');
  try {
    const b = readFileSync(path);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch (e) {
    throw new TorchError(`${op}: cannot read ${path} (${errorMessage(e)})`);
  }
}

export interface LoadOptions extends Omit<LoadPtOptions, 'inflateRaw'> {}

/**
 * A safetensors file as `Map<string, Tensor>`, or whatever a PyTorch `.pt` checkpoint
 * holds (read as `torch.load(weights_only=True)` does: see `loadPt`).
 */
export function load(path: string, options: LoadOptions = {}): Map<string, Tensor> | unknown {
  const bytes = readBytes('torch.load', path);
  if (isZip(bytes) || isLegacyPt(bytes)) {
    const { inflateRawSync } = nodeModule('torch.load', 'node:zlib');
    // zlib stops at maxOutputLength (Note [Hostile archives]); it must be at least 1.
    const inflateRaw = (d: Uint8Array, max: number) => {
      const out = inflateRawSync(d, { maxOutputLength: Math.max(1, max) });
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    };
    return loadPt(bytes, { ...options, inflateRaw });
  }
  return deserialize(bytes).tensors;
}

/** The `__metadata__` and tensors of a safetensors file. */
export function loadSafetensors(path: string): ReturnType<typeof deserialize> {
  return deserialize(readBytes('loadSafetensors', path));
}
