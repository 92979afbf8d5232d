#!/usr/bin/env node
// Counts the type assertions (`x as T`, `<T>x`) in the packages' and apps' sources, outside
// tests and generated files; `as const` is not a cast. Issue 15 tracks this number: each cast
// is a place where the compiler was told a type instead of checking it.
// Usage: node tools/count-casts.mjs [--by-file] [--by-type]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const root = new URL('..', import.meta.url).pathname;
const dirs = ['packages', 'apps'].flatMap((d) => readdirSync(join(root, d)).map((p) => join(root, d, p, 'src')));

function* files(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) {
      if (n !== 'generated' && n !== 'node_modules') yield* files(p);
    } else if (/\.tsx?$/.test(n) && !/\.(test|spec)\.tsx?$/.test(n) && !n.endsWith('.d.ts')) yield p;
  }
}

const byFile = new Map();
const byType = new Map();
let total = 0;
for (const dir of dirs) {
  for (const f of files(dir)) {
    const src = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
    let n = 0;
    const visit = (node) => {
      if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
        const t = node.type.getText(src);
        if (t !== 'const') {
          n++;
          byType.set(t, (byType.get(t) ?? 0) + 1);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
    if (n) byFile.set(relative(root, f), n);
    total += n;
  }
}
const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
if (process.argv.includes('--by-file')) for (const [f, n] of top(byFile, 1000)) console.log(String(n).padStart(5), f);
if (process.argv.includes('--by-type')) for (const [t, n] of top(byType, 40)) console.log(String(n).padStart(5), t);
const perPkg = new Map();
for (const [f, n] of byFile) {
  const k = f.split('/').slice(0, 2).join('/');
  perPkg.set(k, (perPkg.get(k) ?? 0) + n);
}
for (const [k, n] of top(perPkg, 20)) console.log(String(n).padStart(5), k);
console.log(`casts: ${total}`);
