import { defineConfig } from 'vitest/config';

// Tests run from src through the '@torch-ts/source' export condition: no build needed.
export default defineConfig({
  resolve: { conditions: ['@torch-ts/source'] },
  ssr: { resolve: { conditions: ['@torch-ts/source'] } },
  // Kernels check their arguments against their schemas' types (core's Note [Checking kernel arguments]).
  test: { env: { TORCH_TS_CHECK_KERNEL_ARGS: '1' }, pool: 'forks', include: ['test/**/*.test.ts'] },
});
