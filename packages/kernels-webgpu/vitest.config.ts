import { defineConfig } from 'vitest/config';

// Tests run from src through the '@torch-ts/source' export condition: no build needed. Test
// files share worker processes (Note [Test files share worker processes] in
// tools/vitest/shared-worker-setup.ts).
export default defineConfig({
  resolve: { conditions: ['@torch-ts/source'] },
  ssr: { resolve: { conditions: ['@torch-ts/source'] } },
  // Two workers even on a 2-core machine: SwiftShader's waits (Note [Dawn's polling on a software
  // adapter]) leave a core idle that a second file can use.
  // A timeout only catches a hang: tests assert values, never speed, and must pass on a loaded machine.
  test: { testTimeout: 60_000, pool: 'forks', maxWorkers: 2, isolate: false, setupFiles: ['../../tools/vitest/shared-worker-setup.ts'], include: ['test/**/*.test.ts'], execArgv: ['--expose-gc'] },
});
