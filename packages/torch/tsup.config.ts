import { defineConfig } from 'tsup';
import { DTS_COMPILER_OPTIONS } from '../../tools/tsup/dts';

export default defineConfig({
  entry: { index: 'src/index.ts', 'nn/index': 'src/nn/index.ts', 'optim/index': 'src/optim/index.ts' },
  format: ['esm', 'cjs'],
  // One copy of nn and optim for the root and the sub-path entries, in CJS as in ESM: two
  // copies would make two nn.Module classes and instanceof would fail across them.
  splitting: true,
  dts: { compilerOptions: DTS_COMPILER_OPTIONS },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  // Class and function names survive bundling: esbuild gives some classes an inner name of its
  // own (`var Tensor = class _Tensor`), which `.name` reports, and messages and reprs print.
  keepNames: true,
  // Note [WebGPU as an optional package]: the CommonJS build loads the backend with require.
  esbuildOptions(options, { format }) {
    options.define = { ...options.define, __TORCH_TS_CJS__: format === 'cjs' ? 'true' : 'false' };
  },
});
