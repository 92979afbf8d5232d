import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@torch-ts/source'] },
  ssr: { resolve: { conditions: ['@torch-ts/source'] } },
  test: { pool: 'forks', include: ['test/**/*.test.ts'], testTimeout: 600_000 },
});
