import { defineConfig } from 'vitest/config';

// Tests run from src through the '@torch-ts/source' export condition: no build needed.
// The suite runs twice, once per build of the WebAssembly kernels (Note [Two builds of the
// kernels]): Node 20 validates relaxed SIMD only behind a flag.
const resolve = { conditions: ['@torch-ts/source'] };
const ssr = { resolve: { conditions: ['@torch-ts/source'] } };
export default defineConfig({
  resolve,
  ssr,
  test: {
    projects: [
      { resolve, ssr, test: { name: 'simd', pool: 'forks', include: ['test/**/*.test.ts'], env: { TORCH_TS_WASM: 'simd' } } },
      {
        resolve,
        ssr,
        test: {
          name: 'relaxed-simd',
          pool: 'forks',
          include: ['test/**/*.test.ts'],
          execArgv: ['--experimental-wasm-relaxed-simd'],
          env: { TORCH_TS_WASM: 'relaxed-simd' },
        },
      },
    ],
  },
});
