import { defaultClientConditions, defineConfig } from 'vite';

// The page is built from the workspace packages' TypeScript sources (the '@torch-ts/source'
// export condition), so no package needs building first. `webgpu` (Dawn, a Node addon) is
// never bundled: kernels-webgpu imports it only by a computed specifier, in Node, when
// there is no navigator.gpu.
export default defineConfig({
  resolve: { conditions: ['@torch-ts/source', ...defaultClientConditions] },
  build: { target: 'es2022', reportCompressedSize: false, chunkSizeWarningLimit: 4096 },
  logLevel: 'warn',
});
