import { defineConfig } from 'tsup';
import { DTS_COMPILER_OPTIONS } from '../../tools/tsup/dts';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: { compilerOptions: DTS_COMPILER_OPTIONS },
  sourcemap: true,
  clean: true,
  target: 'es2022',
});
