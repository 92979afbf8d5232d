#!/usr/bin/env node
// The package boundaries of docs/architecture.md, enforced: which @torch-ts package may import which.
// It reads every source file under packages/*/{src,test,scripts} and apps/*/src, and every
// package.json's dependencies, and exits 1 on a crossing.
// Usage: node tools/check-boundaries.mjs [repo-root]
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

// Who may import whom (docs/architecture.md, "Packages and who may import whom").
export const ALLOWED = {
  core: [],
  'kernels-cpu': ['core'],
  'kernels-webgpu': ['core'],
  autograd: ['core'],
  torch: ['core', 'kernels-cpu', 'kernels-webgpu', 'autograd'],
  testing: ['core', 'kernels-cpu', 'kernels-webgpu', 'autograd', 'torch'],
};

// Module specifiers of static imports/exports (which start a line), dynamic imports and requires.
const specifierRes = [
  /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
];

function* specifiers(text) {
  for (const re of specifierRes) for (const m of text.matchAll(re)) yield m[1];
}

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sourceFiles(p);
    else if (/\.(m?ts|m?js|tsx|cts|cjs)$/.test(name) && !name.endsWith('.d.ts')) yield p;
  }
}

export function checkBoundaries(root) {
  const problems = [];
  const pkgsDir = join(root, 'packages');
  if (!existsSync(pkgsDir)) return problems;
  for (const pkg of readdirSync(pkgsDir)) {
    const pkgDir = join(pkgsDir, pkg);
    if (!statSync(pkgDir).isDirectory()) continue;
    if (!(pkg in ALLOWED)) {
      problems.push(`packages/${pkg}: not a package of docs/architecture.md`);
      continue;
    }
    const ok = (target) => target === pkg || ALLOWED[pkg].includes(target);
    const pjPath = join(pkgDir, 'package.json');
    if (existsSync(pjPath)) {
      const pj = JSON.parse(readFileSync(pjPath, 'utf8'));
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
        for (const dep of Object.keys(pj[field] ?? {})) {
          if (dep.startsWith('@torch-ts/') && !ok(dep.slice(10))) {
            problems.push(`packages/${pkg}/package.json: ${field} names ${dep}, which ${pkg} must not depend on`);
          }
        }
      }
    }
    for (const sub of ['src', 'test', 'scripts']) {
      const dir = join(pkgDir, sub);
      if (!existsSync(dir)) continue;
      for (const f of sourceFiles(dir)) {
        const text = readFileSync(f, 'utf8');
        const where = relative(root, f);
        for (const spec of specifiers(text)) {
          const pkgImport = /^@torch-ts\/([^/]+)(?:\/(.*))?$/.exec(spec);
          if (pkgImport) {
            const [, target, sub] = pkgImport;
            if (!ok(target)) problems.push(`${where}: ${pkg} must not import @torch-ts/${target}`);
            if (sub && /^(src|dist|internal)\b/.test(sub)) {
              problems.push(`${where}: imports @torch-ts/${target}/${sub}, a path inside a package; import the package itself`);
            }
            continue;
          }
          // A relative import that climbs out of this package into another package's folder.
          const deep = /^(?:\.\.\/)+(?:packages\/)?([a-z-]+)\/(src|dist|test)\b/.exec(spec);
          if (deep && deep[1] !== pkg && spec.startsWith('../../')) {
            problems.push(`${where}: reaches into ${deep[1]}/${deep[2]}; import the package instead`);
          }
        }
      }
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] ?? process.cwd();
  const problems = checkBoundaries(root);
  for (const p of problems) console.log(p);
  console.log(problems.length ? `check-boundaries: ${problems.length} crossing(s)` : 'check-boundaries: all package boundaries hold');
  process.exit(problems.length ? 1 : 0);
}
