import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // The public types mention GPUDevice/GPUBuffer: the d.ts references the WebGPU type package.
  dts: { banner: '/// <reference types="@webgpu/types" />' },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // Dawn is a native addon: never bundled, loaded at init() time in Node only.
  external: ['webgpu'],
});
