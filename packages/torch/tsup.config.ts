import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'nn/index': 'src/nn/index.ts', 'optim/index': 'src/optim/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
});
