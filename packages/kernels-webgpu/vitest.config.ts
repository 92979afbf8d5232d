import { defineConfig } from 'vitest/config';

// Tests run from src through the '@torch-ts/source' export condition: no build needed. Test
// files share worker processes (Note [Test files share worker processes] in
// tools/vitest/shared-worker-setup.ts).
export default defineConfig({
  resolve: { conditions: ['@torch-ts/source'] },
  ssr: { resolve: { conditions: ['@torch-ts/source'] } },
  // A timeout only catches a hang: tests assert values, never speed, and must pass on a loaded machine.
  test: { testTimeout: 60_000, pool: 'forks', isolate: false, setupFiles: ['../../tools/vitest/shared-worker-setup.ts'], include: ['test/**/*.test.ts'], execArgv: ['--expose-gc'] },
});
