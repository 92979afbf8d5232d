import { defineConfig } from 'vitest/config';
import { HANG_TIMEOUTS, TEARDOWN_TIMEOUT } from '../../tools/vitest/timeouts';

// Tests run from src through the '@torch-ts/source' export condition: no build needed. Test
// files share worker processes (Note [Test files share worker processes] in
// tools/vitest/shared-worker-setup.ts).
export default defineConfig({
  resolve: { conditions: ['@torch-ts/source'] },
  ssr: { resolve: { conditions: ['@torch-ts/source'] } },
  // --expose-gc lets the FinalizationRegistry test collect a handle nobody disposed.
  // Kernels check their arguments against their schemas' types (core's Note [Checking kernel arguments]).
  // Note [Timeouts only catch hangs].
  test: { ...HANG_TIMEOUTS, teardownTimeout: TEARDOWN_TIMEOUT, env: { TORCH_TS_CHECK_KERNEL_ARGS: '1' }, pool: 'forks', isolate: false, setupFiles: ['../../tools/vitest/shared-worker-setup.ts'], include: ['test/**/*.test.ts'], execArgv: ['--expose-gc'] },
});
