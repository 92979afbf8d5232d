import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { HANG_TIMEOUTS, TEARDOWN_TIMEOUT } from '../../tools/vitest/timeouts';
import { workspaceDeps } from '../../tools/vitest/workspace-deps';

// Where the other torch-ts packages come from: Note [Tests import the other packages' builds]. Test
// files share worker processes (Note [Test files share worker processes] in
// tools/vitest/shared-worker-setup.ts).
const { resolve, ssr, external } = workspaceDeps(fileURLToPath(new URL('.', import.meta.url)));
export default defineConfig({
  resolve,
  ssr,
  // Two workers even on a 2-core machine: SwiftShader's waits (Note [Dawn's polling on a software
  // adapter]) leave a core idle that a second file can use.
  // Note [Timeouts only catch hangs].
  test: { ...HANG_TIMEOUTS, teardownTimeout: TEARDOWN_TIMEOUT, pool: 'forks', maxWorkers: 2, isolate: false, setupFiles: ['../../tools/vitest/shared-worker-setup.ts'], include: ['test/**/*.test.ts'], execArgv: ['--expose-gc'], server: { deps: { external } } },
});
