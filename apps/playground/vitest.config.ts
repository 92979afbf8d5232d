import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { HANG_TIMEOUTS, TEARDOWN_TIMEOUT } from '../../tools/vitest/timeouts';
import { workspaceDeps } from '../../tools/vitest/workspace-deps';

// The test's Node side (the CPU reference) takes torch-ts as Note [Tests import the other
// packages' builds] says; the page's build takes it from source (vite.config.ts).
const { resolve, ssr, external } = workspaceDeps(fileURLToPath(new URL('.', import.meta.url)));
export default defineConfig({
  resolve,
  ssr,
  test: { pool: 'forks', include: ['test/**/*.test.ts'], ...HANG_TIMEOUTS, teardownTimeout: TEARDOWN_TIMEOUT, server: { deps: { external } } },
});
