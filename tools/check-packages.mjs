#!/usr/bin/env node
// The packages as a user gets them: packs every public package (after `pnpm build`), checks
// the packed manifests (publint, @arethetypeswrong/cli, no source condition, no workspace
// ranges, README and LICENSE shipped), installs the tarballs with npm into fresh consumer
// projects in a temp dir, and in each runs the README's quick start as ESM and as CommonJS,
// type-checks it strictly with skipLibCheck off under node16, nodenext and bundler resolution, and
// bundles it for the browser with esbuild. The CPU-only install must contain no WebGPU
// backend and no native addon, and torch.webgpu.init() must reject naming the package.
// Prints one vitest-style `Tests N passed | M failed (T)` line, which tools/test-summary.mjs
// counts, and exits 1 on any failure.
// Usage: node tools/check-packages.mjs [--keep]   (--keep leaves the temp dir for inspection)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'torch-ts-packages-'));
const tgzDir = join(work, 'tgz');
mkdirSync(tgzDir);

let passed = 0;
let failed = 0;
let skipped = 0;
const t0 = Date.now();

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

/** A check's fn returns `skip(reason)` when it cannot run here (and is not required to). */
const skip = (reason) => ({ skipped: reason });

function check(name, fn) {
  const start = Date.now();
  try {
    const r = fn();
    if (r?.skipped) {
      skipped++;
      console.log(`  - ${name}: SKIPPED, ${r.skipped}`);
      return;
    }
    passed++;
    console.log(`  ✓ ${name} (${Date.now() - start} ms)`);
  } catch (e) {
    failed++;
    const out = [e.stdout, e.stderr].filter(Boolean).join('\n').trim();
    console.log(`  × ${name}\n${String(out || e.message).replace(/^/gm, '      ')}`);
  }
}

function expect(cond, message) {
  if (!cond) throw new Error(message);
}

// ---- the public packages, packed ----
const packages = readdirSync(join(root, 'packages'))
  .map((dir) => ({ dir: join(root, 'packages', dir), pkg: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) }))
  .filter(({ pkg }) => !pkg.private);
const tarball = {};
console.log(`check-packages: packing ${packages.length} public packages into ${work}`);
for (const { dir, pkg } of packages) {
  expect(existsSync(join(dir, 'dist')), `${pkg.name}: no dist/ (run \`pnpm build\` first)`);
  run('pnpm', ['pack', '--pack-destination', tgzDir], { cwd: dir });
  tarball[pkg.name] = join(tgzDir, `${pkg.name.replace('@', '').replace('/', '-')}-${pkg.version}.tgz`);
  expect(existsSync(tarball[pkg.name]), `${pkg.name}: pnpm pack wrote no ${tarball[pkg.name]}`);
}

// ---- the packed manifests ----
function* targets(node) {
  if (typeof node === 'string') yield node;
  else if (node && typeof node === 'object') for (const v of Object.values(node)) yield* targets(v);
}

for (const { pkg } of packages) {
  const tgz = tarball[pkg.name];
  check(`${pkg.name}: packed manifest (no source condition, no workspace ranges, every export shipped, README and LICENSE)`, () => {
    const manifest = JSON.parse(run('tar', ['-xzOf', tgz, 'package/package.json']));
    const files = new Set(run('tar', ['-tzf', tgz]).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, '')));
    const entryPoints = JSON.stringify([manifest.exports, manifest.main, manifest.module, manifest.types]);
    expect(!entryPoints.includes('@torch-ts/source'), 'the packed exports name the @torch-ts/source condition');
    const ranges = JSON.stringify([manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies]);
    expect(!ranges.includes('workspace:'), 'a dependency range still says workspace:');
    for (const t of targets(manifest.exports)) {
      if (t.includes('*')) continue;
      expect(files.has(t.replace(/^\.\//, '')), `exports names ${t}, which is not in the tarball`);
    }
    for (const f of ['README.md', 'LICENSE']) expect(files.has(f), `${f} is not in the tarball`);
    expect(![...files].some((f) => f.startsWith('src/')), 'the tarball ships src/');
  });
  check(`${pkg.name}: publint --strict`, () => run(bin('publint'), ['run', tgz, '--strict', '--level', 'warning']));
  // node10 (`moduleResolution: node`) cannot see sub-path exports; the packages need Node 20.
  check(`${pkg.name}: are the types wrong (node16 from ESM and CJS, bundler)`, () => run(bin('attw'), [tgz, '--profile', 'node16', '--format', 'ascii']));
}

// ---- a consumer project: the README's quick start, every way a user loads it ----
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const quick = /<!-- quick-start[^>]*-->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1];
expect(quick, 'README.md has no quick-start block');
const IMPORT = "import * as torch from '@torch-ts/torch';";
expect(quick.includes(IMPORT), `the quick start does not start with ${IMPORT}`);
// Each `console.log(x); // expected` line must print what its comment says, as in
// packages/torch/test/readme.test.ts; console.log is wrapped to print arrays as the comments do.
const expected = quick.split('\n').map((l) => /^\s*console\.log\(.*\);\s*\/\/\s*(.+)$/.exec(l)?.[1].trim()).filter(Boolean);
const SHOW = `const show = (v) => Array.isArray(v) ? '[' + v.map(show).join(', ') + ']' : String(v);
const log = console.log;
console.log = (...a) => log(a.map(show).join(' ').replace(/\\s+/g, ' '));
`;
function checkPrinted(out) {
  const lines = out.trim().split('\n');
  expect(lines.length === expected.length, `printed ${lines.length} lines, the README expects ${expected.length}:\n${out}`);
  lines.forEach((got, i) => {
    const want = expected[i].replace(/\s+/g, ' ');
    expect(want.startsWith(got) || want.startsWith(`'${got}'`), `console.log #${i + 1} printed ${got}, the README says ${expected[i]}`);
  });
}

// `deps`: package names (their tarballs) or [name, spec] pairs. `offline: false` lets npm
// fetch third-party packages (the WebGPU backend's `webgpu`) from its cache or the registry.
function consumer(name, deps, { offline = true } = {}) {
  const dir = join(work, name);
  mkdirSync(dir);
  const spec = Object.fromEntries(deps.map((d) => (Array.isArray(d) ? d : [d, `file:${tarball[d]}`])));
  // overrides: the packages' dependencies on each other resolve to these tarballs, not the registry.
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module', dependencies: spec, overrides: spec }, null, 2));
  run('npm', ['install', offline ? '--offline' : '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, timeout: 600_000 });
  return dir;
}

const cpuDeps = ['@torch-ts/core', '@torch-ts/autograd', '@torch-ts/kernels-cpu', '@torch-ts/torch'];
let cpu = null;
check('CPU-only consumer: npm install of the tarballs, offline (no third-party dependency)', () => {
  cpu = consumer('cpu', cpuDeps);
});
if (cpu) {
  writeFileSync(join(cpu, 'quick-start.mjs'), SHOW + quick);
  writeFileSync(join(cpu, 'quick-start.cjs'), SHOW + quick.replace(IMPORT, "const torch = require('@torch-ts/torch');"));
  writeFileSync(join(cpu, 'quick-start.mts'), quick);
  writeFileSync(join(cpu, 'quick-start.cts'), quick.replace(IMPORT, "import torch = require('@torch-ts/torch');"));
  const subPaths = [
    "import * as torch from '@torch-ts/torch';",
    "import { Linear, functional as F } from '@torch-ts/torch/nn';",
    "import { SGD } from '@torch-ts/torch/optim';",
    'const lin: torch.nn.Linear = new Linear(2, 1);',
    'const opt = new SGD(lin.parameters(), { lr: 0.1 });',
    'const opts: F.AvgPool2dOptions = { stride: 1 };',
    'export const out: torch.Tensor = lin.forward(torch.ones([1, 2]));',
    'opt.step();',
    // Types reached through namespaces nested in namespaces (tools/fix-dts-namespaces.mjs).
    'export type Packed = torch.nn.utils.rnn.PackedSequence;',
    'export const spec: torch.utils.data.WorkerSpec = { module: "m.js", name: "D" };',
    'export type Normal = torch.distributions.constraints.Constraint;',
    'export { opts };',
    '',
  ].join('\n');
  writeFileSync(join(cpu, 'sub-paths.ts'), subPaths); // ESM: the consumer is `type: module`
  const tsc = (module, moduleResolution, files) => {
    const config = join(cpu, `tsconfig.${moduleResolution}.json`);
    // No @types/node: the declarations must type-check for a browser user too.
    const compilerOptions = { strict: true, skipLibCheck: false, noEmit: true, module, moduleResolution, target: 'es2022', lib: ['es2023', 'esnext.disposable', 'dom'], types: [] };
    writeFileSync(config, JSON.stringify({ compilerOptions, files }));
    run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], { cwd: cpu });
  };
  check('CPU-only consumer: no WebGPU backend and no native addon installed', () => {
    const mods = readdirSync(join(cpu, 'node_modules'));
    expect(!mods.includes('webgpu'), 'node_modules/webgpu was installed');
    expect(!readdirSync(join(cpu, 'node_modules', '@torch-ts')).includes('kernels-webgpu'), 'kernels-webgpu was installed');
    const addons = run('find', ['node_modules', '-name', '*.node'], { cwd: cpu }).trim();
    expect(!addons, `a native addon was installed: ${addons}`);
  });
  check('CPU-only consumer: the quick start as ESM (import)', () => checkPrinted(run(process.execPath, ['quick-start.mjs'], { cwd: cpu })));
  check('CPU-only consumer: the quick start as CommonJS (require)', () => checkPrinted(run(process.execPath, ['quick-start.cjs'], { cwd: cpu })));
  check('CPU-only consumer: tsc --strict, skipLibCheck false, moduleResolution node16 (ESM and CJS files)', () =>
    tsc('node16', 'node16', ['quick-start.mts', 'quick-start.cts']));
  check('CPU-only consumer: tsc --strict, skipLibCheck false, moduleResolution nodenext (ESM and CJS files, with the nn and optim sub-paths)', () =>
    tsc('nodenext', 'nodenext', ['quick-start.mts', 'quick-start.cts', 'sub-paths.ts']));
  check('CPU-only consumer: tsc --strict, skipLibCheck false, moduleResolution bundler (with the nn and optim sub-paths)', () =>
    tsc('esnext', 'bundler', ['quick-start.mts', 'sub-paths.ts']));
  check('CPU-only consumer: an esbuild browser bundle of the quick start', () =>
    run(bin('esbuild'), ['quick-start.mts', '--bundle', '--platform=browser', '--format=esm', '--outfile=bundle.js', '--log-level=warning'], { cwd: cpu }));
  const rejects = `.webgpu.init().then(() => { console.log('resolved'); process.exit(1); }, (e) => {
  if (!(e instanceof TorchError) || !e.message.includes('@torch-ts/kernels-webgpu')) { console.log('wrong error:', e); process.exit(1); }
});`;
  writeFileSync(join(cpu, 'no-webgpu.mjs'), `import * as torch from '@torch-ts/torch';\nconst { TorchError } = torch;\ntorch${rejects}\n`);
  writeFileSync(join(cpu, 'no-webgpu.cjs'), `const torch = require('@torch-ts/torch');\nconst { TorchError } = torch;\ntorch${rejects}\n`);
  check('CPU-only consumer: torch.webgpu.init() rejects with a TorchError naming @torch-ts/kernels-webgpu (ESM and CJS)', () => {
    run(process.execPath, ['no-webgpu.mjs'], { cwd: cpu });
    run(process.execPath, ['no-webgpu.cjs'], { cwd: cpu });
  });
  writeFileSync(join(cpu, 'core-only.mjs'), [
    "import { tensor } from '@torch-ts/core';",
    "import '@torch-ts/kernels-cpu';",
    'const y = tensor([[1, 2], [3, 4]]).add(1).sum(0);',
    "if (JSON.stringify(y.tolist()) !== '[6,8]') { console.log(y.tolist()); process.exit(1); }",
    '',
  ].join('\n'));
  check('core + kernels-cpu without the facade', () => run(process.execPath, ['core-only.mjs'], { cwd: cpu }));
  // The bundler must not rename classes: their names reach messages and reprs.
  const names = [
    'const t = torch.zeros([2]);',
    'let message = "";',
    "try { torch.pow('2', t); } catch (e) { message = e.message; }",
    'const got = [t.constructor.name, String(new torch.distributions.Normal(torch.tensor(0.5), torch.tensor(1.5))), new torch.nn.Linear(2, 3).constructor.name, message.split("\\n")[0]];',
    "const want = ['Tensor', 'Normal(loc: 0.5, scale: 1.5)', 'Linear', 'pow() received an invalid combination of arguments - got (string, Tensor), but expected one of:'];",
    'if (JSON.stringify(got) !== JSON.stringify(want)) { console.log(JSON.stringify(got)); process.exit(1); }',
    '',
  ].join('\n');
  writeFileSync(join(cpu, 'names.mjs'), `import * as torch from '@torch-ts/torch';\n${names}`);
  writeFileSync(join(cpu, 'names.cjs'), `const torch = require('@torch-ts/torch');\n${names}`);
  check('class names survive the build: Tensor, Normal, Linear in names, messages and reprs (ESM and CJS)', () => {
    run(process.execPath, ['names.mjs'], { cwd: cpu });
    run(process.execPath, ['names.cjs'], { cwd: cpu });
  });
}

// ---- a third-party backend, built against the packed core alone ----
// tools/fixtures/third-party-backend claims the PrivateUse1 device as 'foo' through core's
// public exports (Note [PrivateUse1]). Here it is compiled (strict, nodenext, skipLibCheck
// off) against the core tarball, packed, and used from a consumer with the facade.
const fixture = join(root, 'tools', 'fixtures', 'third-party-backend');
const fooDir = join(work, 'foo-backend');
let fooTgz = null;
check('third-party backend: builds against the packed @torch-ts/core alone (tsc strict, nodenext, skipLibCheck false) and packs', () => {
  mkdirSync(join(fooDir, 'src'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(fixture, 'package.json'), 'utf8'));
  expect(JSON.stringify(Object.keys(manifest.dependencies)) === '["@torch-ts/core"]', `the fixture depends on ${Object.keys(manifest.dependencies)}, not on @torch-ts/core alone`);
  manifest.dependencies = { '@torch-ts/core': `file:${tarball['@torch-ts/core']}` };
  delete manifest.scripts;
  delete manifest.private;
  writeFileSync(join(fooDir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(fooDir, 'src', 'index.ts'), readFileSync(join(fixture, 'src', 'index.ts')));
  const compilerOptions = { strict: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023', 'esnext.disposable'], types: [], declaration: true, rootDir: 'src', outDir: 'dist' };
  writeFileSync(join(fooDir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src'] }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: fooDir });
  run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: fooDir });
  run('npm', ['pack', '--pack-destination', tgzDir], { cwd: fooDir });
  fooTgz = join(tgzDir, `${manifest.name}-${manifest.version}.tgz`);
  expect(existsSync(fooTgz), `npm pack wrote no ${fooTgz}`);
});
if (fooTgz) {
  let foo = null;
  check('third-party backend: npm install with the facade tarballs, offline', () => {
    foo = consumer('third-party', [...cpuDeps, ['torch-ts-backend-foo', `file:${fooTgz}`]]);
  });
  if (foo) {
    // Plain JavaScript that also type-checks: `{ device: 'foo' }` is typed by the backend's declarations.
    const smoke = `import * as torch from '@torch-ts/torch';
import 'torch-ts-backend-foo';

const x = torch.ones([2, 3], { device: 'foo' });
const y = torch.arange(6, { dtype: 'float32' }).reshape(2, 3).to('foo');
const z = x.add(y).mul(y).sum(1);
const w = torch.tensor([0.5, -1.5], { device: 'foo', requiresGrad: true });
w.mul(w).sum().backward();
let error = '';
try {
  x.exp();
} catch (e) {
  error = (e as Error).message;
}
const got = {
  device: String(z.device),
  z: await z.tolistAsync(),
  back: (await y.toAsync('cpu')).tolist(),
  grad: await w.grad!.tolistAsync(),
  error,
};
console.log(JSON.stringify(got));
`;
    writeFileSync(join(foo, 'smoke.mts'), smoke);
    writeFileSync(join(foo, 'smoke.mjs'), smoke.replace(' as Error', '').replace('w.grad!', 'w.grad'));
    check("third-party backend: torch.ones({ device: 'foo' }), x.to('foo'), ops, autograd and toAsync('cpu') on its device", () => {
      const got = JSON.parse(run(process.execPath, ['smoke.mjs'], { cwd: foo }));
      const want = { device: 'foo:0', z: [8, 62], back: [[0, 1, 2], [3, 4, 5]], grad: [1, -3], error: 'exp: no kernel for aten::exp on foo (the foo backend does not implement exp)' };
      expect(JSON.stringify(got) === JSON.stringify(want), `got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    });
    check("third-party backend: the consumer type-checks (device: 'foo' from the backend's declarations; strict, nodenext)", () => {
      const compilerOptions = { strict: true, skipLibCheck: false, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023', 'esnext.disposable', 'dom'], types: [] };
      writeFileSync(join(foo, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['smoke.mts'] }));
      run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: foo });
    });
  }
}

// ---- the facade with the optional WebGPU backend, computing on the WebGPU device ----
// `webgpu` (Dawn, a native addon) comes from npm's cache or the registry as an ordinary
// dependency of the kernels-webgpu tarball. Without an adapter (no GPU, no SwiftShader)
// the computation is skipped and says why; TORCH_TS_REQUIRE_WEBGPU=1 (CI) makes that a failure.
let gpu = null;
check('WebGPU consumer: npm install of the facade, core, autograd, kernels-cpu and kernels-webgpu tarballs (webgpu from the registry)', () => {
  gpu = consumer('webgpu', [...cpuDeps, '@torch-ts/kernels-webgpu'], { offline: false });
});
if (gpu) {
  writeFileSync(join(gpu, 'webgpu-start.mjs'), `import * as torch from '@torch-ts/torch';
if (!(await torch.webgpu.init())) {
  console.log('no WebGPU adapter: ' + torch.webgpu.unavailableReason());
  process.exit(3);
}
const a = torch.tensor([[1, 2], [3, 4]], { dtype: 'float32', device: 'webgpu' });
const c = a.matmul(torch.ones([2, 2], { device: 'webgpu' })).add(1);
const w = torch.tensor([0.5, -1.5], { device: 'webgpu', requiresGrad: true });
w.mul(w).sum().backward();
const got = { device: String(c.device), c: await c.tolistAsync(), sum: await c.sum(1).tolistAsync(), grad: await w.grad.tolistAsync(), source: torch.webgpu.deviceInfo().source };
console.log(JSON.stringify(got));
const want = { device: 'webgpu:0', c: [[4, 4], [8, 8]], sum: [8, 16], grad: [1, -3] };
for (const k of Object.keys(want)) if (JSON.stringify(got[k]) !== JSON.stringify(want[k])) { console.log('wrong ' + k); process.exit(1); }
`);
  check('WebGPU consumer: await torch.webgpu.init() and a quick start on the WebGPU device (matmul, add, sum, autograd)', () => {
    let out;
    try {
      out = run(process.execPath, ['webgpu-start.mjs'], { cwd: gpu, timeout: 180_000 });
    } catch (e) {
      if (e.status !== 3 || process.env.TORCH_TS_REQUIRE_WEBGPU === '1') throw e;
      return skip(`${String(e.stdout).trim()} (in Node it needs a GPU, or SwiftShader through VK_ICD_FILENAMES; TORCH_TS_REQUIRE_WEBGPU=1 makes this a failure)`);
    }
    expect(out.includes('"device":"webgpu:0"'), out);
  });
}

const seconds = ((Date.now() - t0) / 1000).toFixed(1);
console.log(`\n check-packages (${seconds} s)\n      Tests  ${passed} passed${failed ? ` | ${failed} failed` : ''}${skipped ? ` | ${skipped} skipped` : ''} (${passed + failed + skipped})`);
if (!keep) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
process.exit(failed ? 1 : 0);
