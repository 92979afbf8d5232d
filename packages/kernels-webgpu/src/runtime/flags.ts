/**
 * WebGPU's usage and map flags as numbers (their values are fixed by the spec): in Node the
 * `GPUBufferUsage` / `GPUMapMode` globals exist only after Dawn is loaded, and a device may
 * also be handed to `init({ device })`, so the backend never depends on the globals.
 */
export const BufferUsage = {
  MAP_READ: 0x0001,
  MAP_WRITE: 0x0002,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
} as const;

export const MapMode = { READ: 0x0001, WRITE: 0x0002 } as const;
