import { defineConfig } from 'vitest/config';

// Tests run from src through the '@torch-ts/source' export condition: no build needed.
export default defineConfig({
  resolve: { conditions: ['@torch-ts/source'] },
  ssr: { resolve: { conditions: ['@torch-ts/source'] } },
  test: {
    pool: 'forks',
    include: ['test/**/*.test.ts'],
    // Only a hang guard: loading a peer library takes seconds on a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // tfjs-core's ES build (its gradients) has extensionless imports that Node's own ESM
    // loader does not resolve: vitest transforms it (test/webgpu.test.ts trains tfjs's MLP).
    server: { deps: { inline: [/@tensorflow[\\/]tfjs-core/] } },
  },
});
