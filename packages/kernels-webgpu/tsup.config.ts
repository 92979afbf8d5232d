import { defineConfig } from 'tsup';
import { DTS_COMPILER_OPTIONS } from '../../tools/tsup/dts';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // The public types mention GPUDevice/GPUBuffer: the d.ts references the WebGPU type package.
  dts: { banner: '/// <reference types="@webgpu/types" />', compilerOptions: DTS_COMPILER_OPTIONS },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // Dawn is a native addon: never bundled, loaded at init() time in Node only.
  external: ['webgpu'],
});
