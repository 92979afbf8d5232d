import { defineConfig } from 'vitest/config';
import { HANG_TIMEOUTS, TEARDOWN_TIMEOUT } from '../../tools/vitest/timeouts';

// Tests run from src through the '@torch-ts/source' export condition: no build needed.
// The suite runs three times: once per build of the WebAssembly kernels (Note [Two builds of
// the kernels]; Node 20 validates relaxed SIMD only behind a flag) and once on the JS loops.
const resolve = { conditions: ['@torch-ts/source'] };
const ssr = { resolve: { conditions: ['@torch-ts/source'] } };
// Test files share worker processes (Note [Test files share worker processes] in
// tools/vitest/shared-worker-setup.ts).
const shared = { isolate: false, setupFiles: ['../../tools/vitest/shared-worker-setup.ts'] };
export default defineConfig({
  resolve,
  ssr,
  test: {
    teardownTimeout: TEARDOWN_TIMEOUT,
    projects: [
      { resolve, ssr, test: { name: 'simd', ...HANG_TIMEOUTS, ...shared, execArgv: ['--expose-gc'], pool: 'forks', include: ['test/**/*.test.ts'], env: { TORCH_TS_WASM: 'simd' } } },
      // The JS loops that run where WebAssembly SIMD is missing (no thread pool, no wasm kernels to check).
      { resolve, ssr, test: { name: 'js', ...HANG_TIMEOUTS, ...shared, execArgv: ['--expose-gc'], pool: 'forks', include: ['test/**/*.test.ts'], exclude: ['test/threads.test.ts', 'test/pointwise-wasm.test.ts', 'test/copy-wasm.test.ts', 'test/softmax-wasm.test.ts', 'test/sum-wasm.test.ts', 'test/conv2d.test.ts', 'test/conv2d-nhwc.test.ts', 'test/conv2d-nhwc-grad.test.ts'], env: { TORCH_TS_WASM: 'off' } } },
      {
        resolve,
        ssr,
        test: {
          name: 'relaxed-simd',
          ...HANG_TIMEOUTS,
          ...shared,
          pool: 'forks',
          include: ['test/**/*.test.ts'],
          execArgv: ['--experimental-wasm-relaxed-simd', '--expose-gc'],
          env: { TORCH_TS_WASM: 'relaxed-simd' },
        },
      },
    ],
  },
});
