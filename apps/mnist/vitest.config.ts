import { defineConfig } from 'vitest/config';
import { TEARDOWN_TIMEOUT } from '../../tools/vitest/timeouts';

export default defineConfig({
  resolve: { conditions: ['@torch-ts/source'] },
  ssr: { resolve: { conditions: ['@torch-ts/source'] } },
  test: { pool: 'forks', include: ['test/**/*.test.ts'], testTimeout: 600_000, hookTimeout: 600_000, teardownTimeout: TEARDOWN_TIMEOUT },
});
