/**
 * `torch.save(stateDict, path)` and `torch.load(path)` (Node only: node:fs, node:zlib).
 * `save` writes safetensors; `load` reads safetensors or a PyTorch `.pt` zip checkpoint,
 * told apart by their first bytes.
 */
import { Tensor, TorchError } from '@torch-ts/core';
import { deserialize, serialize, serializeAsync, type TensorMapLike } from './safetensors';
import { errorMessage } from './guards';
import { isLegacyPt, isZip, loadPt, type LoadPtOptions } from './pt';

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
  /** safetensors `__metadata__` (string to string). */
  metadata?: Record<string, string> | null;
}

type Savable = TensorMapLike | { stateDict(): Map<string, Tensor> };

function hasStateDict(x: Savable): x is { stateDict(): Map<string, Tensor> } {
  return 'stateDict' in x && typeof x.stateDict === 'function';
}

function tensorsOf(x: Savable): TensorMapLike {
  return hasStateDict(x) ? x.stateDict() : x;
}

/** Writes `tensors` (CPU tensors, or a module's state dict) to `path` as safetensors (atomically: a temp file, then a rename). */
export function save(tensors: Savable, path: string, options: SaveOptions = {}): void {
  writeAtomically(path, serialize(tensorsOf(tensors), options.metadata));
}

/** `save` for tensors on any device (WebGPU tensors are read back first). */
export async function saveAsync(tensors: Savable, path: string, options: SaveOptions = {}): Promise<void> {
  writeAtomically(path, await serializeAsync(tensorsOf(tensors), options.metadata));
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
