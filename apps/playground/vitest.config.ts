import { defineConfig } from 'vitest/config';
import { TEARDOWN_TIMEOUT } from '../../tools/vitest/timeouts';

// The test's Node side (the CPU reference) runs from source through the '@torch-ts/source'
// export condition, as the page's build does.
export default defineConfig({
  resolve: { conditions: ['@torch-ts/source'] },
  ssr: { resolve: { conditions: ['@torch-ts/source'] } },
  test: { pool: 'forks', include: ['test/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 300_000, teardownTimeout: TEARDOWN_TIMEOUT },
});
