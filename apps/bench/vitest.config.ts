import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { HANG_TIMEOUTS, TEARDOWN_TIMEOUT } from '../../tools/vitest/timeouts';
import { workspaceDeps } from '../../tools/vitest/workspace-deps';

// Where torch-ts comes from: Note [Tests import the other packages' builds].
const { resolve, ssr, external } = workspaceDeps(fileURLToPath(new URL('.', import.meta.url)));
export default defineConfig({
  resolve,
  ssr,
  test: {
    pool: 'forks',
    include: ['test/**/*.test.ts'],
    // Loading a peer library takes seconds on a loaded 2-core machine (Note [Timeouts only catch hangs]).
    ...HANG_TIMEOUTS,
    teardownTimeout: TEARDOWN_TIMEOUT,
    // tfjs-core's ES build (its gradients) has extensionless imports that Node's own ESM
    // loader does not resolve: vitest transforms it (test/webgpu.test.ts trains tfjs's MLP).
    server: { deps: { inline: [/@tensorflow[\\/]tfjs-core/], external } },
  },
});
