/**
 * Packs the bench for a machine that has a GPU but no pnpm install and no registry (the GPU
 * machines a session is lent now and then): one folder with the bench bundled by esbuild
 * (main.mjs forks child.mjs; the workspace packages from source), py/bench_torch.py, and the
 * `webgpu` package's Linux x64 addon beside it, which the bundle imports at run time. It also
 * packs the testing package's OpInfo sweep (sweep.mjs, with the goldens it reads from
 * ../goldens), which runs the table's checks on that machine's GPU.
 *
 *   node apps/bench/scripts/device-bundle.mjs <folder>
 *   node --experimental-wasm-relaxed-simd <folder>/src/main.mjs --device webgpu ...
 *   node <folder>/src/sweep.mjs [--ops a,b] [--budget-s 300] [--out FILE]
 *
 * Node itself is not packed: bring a node binary if the machine has none.
 */
import { build } from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const bench = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const testing = resolve(bench, '../../packages/testing');
const out = resolve(process.argv[2] ?? join(bench, 'device-bundle'));
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'src'), { recursive: true });

await build({
  entryPoints: {
    main: join(bench, 'src/main.ts'),
    child: join(bench, 'src/child.ts'),
    sweep: join(testing, 'scripts/webgpu-sweep.ts'),
  },
  outdir: join(out, 'src'),
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['@torch-ts/source'],
  // Native addons and wasm files stay outside; only `webgpu` is packed (the GPU columns).
  external: ['webgpu', 'onnxruntime-node', '@tensorflow/tfjs-backend-wasm'],
  // Bundled CommonJS (tfjs) calls require(); an ESM bundle needs one made for it.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
cpSync(join(bench, 'py'), join(out, 'py'), { recursive: true });
cpSync(join(testing, 'goldens'), join(out, 'goldens'), { recursive: true });

const webgpu = dirname(createRequire(join(bench, 'package.json')).resolve('webgpu/package.json'));
const to = join(out, 'src', 'node_modules', 'webgpu');
for (const f of ['index.js', 'package.json', 'LICENSE.md', 'dist/linux-x64']) cpSync(join(webgpu, f), join(to, f), { recursive: true });
console.log(`bench bundle in ${out}`);
