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
  // Class and function names survive bundling: esbuild gives some classes an inner name of its
  // own (`var Tensor = class _Tensor`), which `.name` reports, and messages and reprs print.
  keepNames: true,
  // Dawn is a native addon: never bundled, loaded at init() time in Node only.
  external: ['webgpu'],
});
