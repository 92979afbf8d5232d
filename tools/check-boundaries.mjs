#!/usr/bin/env node
// The package boundaries of ARCHITECTURE.md, enforced: which @torch-ts package may import which.
// It reads every source file under packages/*/{src,test,scripts} and apps/*/src, and every
// package.json's dependencies, and exits 1 on a crossing.
// Usage: node tools/check-boundaries.mjs [repo-root]
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

// Who may import whom (ARCHITECTURE.md, "Packages and who may import whom").
export const ALLOWED = {
  core: [],
  'kernels-cpu': ['core'],
  'kernels-webgpu': ['core'],
  autograd: ['core'],
  torch: ['core', 'kernels-cpu', 'kernels-webgpu', 'autograd'],
  testing: ['core', 'kernels-cpu', 'kernels-webgpu', 'autograd', 'torch'],
};

const importRe =
  /(?:import|export)\s[^'"]*?from\s*['"](@torch-ts\/[^'"/]+)[^'"]*['"]|import\(\s*['"](@torch-ts\/[^'"/]+)[^'"]*['"]|require\(\s*['"](@torch-ts\/[^'"/]+)[^'"]*['"]|import\s*['"](@torch-ts\/[^'"/]+)[^'"]*['"]/g;
// A relative import that climbs out of its package into another package's folder.
const deepRe = /(?:from|import)\s*\(?\s*['"]((?:\.\.\/)+)(?:packages\/)?([a-z-]+)\/(src|dist|test)\b/g;
// A package import that names a path inside another package ('@torch-ts/core/src/x').
const subpathRe = /['"]@torch-ts\/([a-z-]+)\/(src|dist|internal)\b/g;

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
      problems.push(`packages/${pkg}: not a package of ARCHITECTURE.md`);
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
        for (const m of text.matchAll(importRe)) {
          const target = (m[1] ?? m[2] ?? m[3] ?? m[4]).slice('@torch-ts/'.length);
          if (!ok(target)) problems.push(`${where}: ${pkg} must not import @torch-ts/${target}`);
        }
        for (const m of text.matchAll(deepRe)) {
          if (m[2] !== pkg) problems.push(`${where}: reaches into ${m[2]}/${m[3]}; import the package instead`);
        }
        for (const m of text.matchAll(subpathRe)) {
          problems.push(`${where}: imports @torch-ts/${m[1]}/${m[2]}, a path inside a package; import the package itself`);
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
