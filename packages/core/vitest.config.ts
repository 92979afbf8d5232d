import { defineConfig } from 'vitest/config';
import { HANG_TIMEOUTS, TEARDOWN_TIMEOUT } from '../../tools/vitest/timeouts';

// Tests run from src through the '@torch-ts/source' export condition: no build needed.
const resolve = { conditions: ['@torch-ts/source'] };
const ssr = { resolve };
// The dispatcher's tests register operators of their own (dsp_*) in the process-wide registry,
// which the op table's tests compare with the generated files: they get a process of their
// own. The rest share worker processes (Note [Test files share worker processes] in
// tools/vitest/shared-worker-setup.ts).
const FRESH = ['test/dispatcher.test.ts'];
const test = {
  // Note [Timeouts only catch hangs].
  ...HANG_TIMEOUTS,
  // Kernels check their arguments against their schemas' types (core's Note [Checking kernel arguments]).
  env: { TORCH_TS_CHECK_KERNEL_ARGS: '1' },
  pool: 'forks' as const,
  // --expose-gc lets the FinalizationRegistry test collect a handle nobody disposed.
  execArgv: ['--expose-gc'],
};
export default defineConfig({
  resolve,
  ssr,
  test: {
    teardownTimeout: TEARDOWN_TIMEOUT,
    projects: [
      { resolve, ssr, test: { ...test, name: 'shared', isolate: false, include: ['test/**/*.test.ts'], exclude: FRESH, setupFiles: ['../../tools/vitest/shared-worker-setup.ts'] } },
      { resolve, ssr, test: { ...test, name: 'fresh', include: FRESH } },
    ],
  },
});
