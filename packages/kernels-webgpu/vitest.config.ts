import { defineConfig } from 'vitest/config';
import { HANG_TIMEOUTS, TEARDOWN_TIMEOUT } from '../../tools/vitest/timeouts';

// Tests run from src through the '@torch-ts/source' export condition: no build needed. Test
// files share worker processes (Note [Test files share worker processes] in
// tools/vitest/shared-worker-setup.ts).
export default defineConfig({
  resolve: { conditions: ['@torch-ts/source'] },
  ssr: { resolve: { conditions: ['@torch-ts/source'] } },
  // Two workers even on a 2-core machine: SwiftShader's waits (Note [Dawn's polling on a software
  // adapter]) leave a core idle that a second file can use.
  // Note [Timeouts only catch hangs].
  test: { ...HANG_TIMEOUTS, teardownTimeout: TEARDOWN_TIMEOUT, pool: 'forks', maxWorkers: 2, isolate: false, setupFiles: ['../../tools/vitest/shared-worker-setup.ts'], include: ['test/**/*.test.ts'], execArgv: ['--expose-gc'] },
});
