#!/usr/bin/env node
// Repairs nested namespaces in the .d.ts files tsup bundles (rollup-plugin-dts): for
// `export * as inner from './inner'` inside a module that is itself re-exported as a namespace,
// the bundler writes `declare const outer_inner: typeof inner;`, a value whose type has the
// namespace's values only, so `torch.utils.data.WorkerSpec` or `torch.nn.utils.rnn.PackedSequence`
// used as a type fails to resolve. An import alias (`import outer_inner = inner;`) carries every
// meaning of the namespace: values, types and nested namespaces.
// Usage: node tools/fix-dts-namespaces.mjs <dist-dir>   (after tsup, in each package's build)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: fix-dts-namespaces.mjs <dist-dir>');
  process.exit(2);
}
let fixed = 0;
for (const name of readdirSync(dir, { recursive: true })) {
  if (!/\.d\.(c|m)?ts$/.test(name)) continue;
  const file = join(dir, name);
  const text = readFileSync(file, 'utf8');
  const namespaces = new Set([...text.matchAll(/^declare namespace ([\w$]+) \{/gm)].map((m) => m[1]));
  const out = text.replace(/^declare const ([\w$]+): typeof ([\w$]+);$/gm, (line, alias, target) => {
    if (!namespaces.has(target)) return line;
    fixed++;
    return `import ${alias} = ${target};`;
  });
  if (out !== text) writeFileSync(file, out);
}
console.log(`fix-dts-namespaces: ${fixed} nested namespace${fixed === 1 ? '' : 's'} made type-complete in ${dir}`);
