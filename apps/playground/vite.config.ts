import { defaultClientConditions, defineConfig } from 'vite';

// The page is built from the workspace packages' TypeScript sources (the '@torch-ts/source'
// export condition), so no package needs building first. `webgpu` (Dawn, a Node addon) is
// never bundled: kernels-webgpu imports it only by a computed specifier, in Node, when
// there is no navigator.gpu.
export const CROSS_ORIGIN_ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  resolve: { conditions: ['@torch-ts/source', ...defaultClientConditions] },
  build: { target: 'es2022', reportCompressedSize: false, chunkSizeWarningLimit: 4096 },
  // Cross-origin isolation, so that the CPU backend's memory is a SharedArrayBuffer and its
  // thread pool runs (kernels-cpu Note [CPU thread pool]); a deployment sends the same headers.
  server: { headers: CROSS_ORIGIN_ISOLATION },
  preview: { headers: CROSS_ORIGIN_ISOLATION },
  logLevel: 'warn',
});
