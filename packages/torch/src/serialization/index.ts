/**
 * Saving and loading, byte-level (browser-safe) parts: safetensors `serialize` /
 * `deserialize`, and reading and writing PyTorch's `.pt` checkpoints as bytes. The file-system
 * functions `save` / `load` live in ./fs.ts (Node only).
 */
export { serialize, serializeAsync, deserialize, type SafetensorsContents, type TensorMapLike } from './safetensors';
export { serializePt, serializePtAsync } from './pt-writer';
export { loadPt, isZip, isLegacyPt, PyObject, reachableTensors, type LoadPtOptions } from './pt';
export { unpickle, UnpicklingError, type UnpicklerOptions, type PyCallable } from './pickle';
export { addSafeGlobals, getSafeGlobals, clearSafeGlobals, safeGlobals, type SafeGlobal } from './safe-globals';
export { ZipReader, type InflateRaw } from './zip';
