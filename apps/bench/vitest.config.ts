import { defineConfig } from 'vitest/config';

// Tests run from src through the '@torch-ts/source' export condition: no build needed.
export default defineConfig({
  resolve: { conditions: ['@torch-ts/source'] },
  ssr: { resolve: { conditions: ['@torch-ts/source'] } },
  test: {
    pool: 'forks',
    include: ['test/**/*.test.ts'],
    // tfjs-core's ES build (its gradients) has extensionless imports that Node's own ESM
    // loader does not resolve: vitest transforms it (test/webgpu.test.ts trains tfjs's MLP).
    server: { deps: { inline: [/@tensorflow[\\/]tfjs-core/] } },
  },
});
