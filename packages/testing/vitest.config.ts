import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { HANG_TIMEOUTS, TEARDOWN_TIMEOUT } from '../../tools/vitest/timeouts';

/** Starts the WebGPU table first (Note [One process for the WebGPU table] in test/webgpu-table.test.ts). */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (f: TestSpecification) => f.moduleId.endsWith('/test/webgpu-table.test.ts');
    return [...sorted.filter(first), ...sorted.filter((f) => !first(f))];
  }
}

// Tests run from src through the '@torch-ts/source' export condition: no build needed. Test
// files share worker processes (Note [Test files share worker processes] in
// tools/vitest/shared-worker-setup.ts).
export default defineConfig({
  resolve: { conditions: ['@torch-ts/source'] },
  ssr: { resolve: { conditions: ['@torch-ts/source'] } },
  // Kernels check their arguments against their schemas' types (core's Note [Checking kernel arguments]).
  // Two workers even on a 2-core machine (vitest's default there is one): the WebGPU table and
  // the CPU files then run side by side, and the suite's tail does not leave a core idle.
  // Note [Timeouts only catch hangs].
  test: {
    ...HANG_TIMEOUTS,
    teardownTimeout: TEARDOWN_TIMEOUT,
    env: { TORCH_TS_CHECK_KERNEL_ARGS: '1' },
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
    sequence: { sequencer: LongestFirst },
    setupFiles: ['../../tools/vitest/shared-worker-setup.ts'],
    include: ['test/**/*.test.ts'],
    execArgv: ['--expose-gc'],
  },
});
