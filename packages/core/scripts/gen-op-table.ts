/** Writes the files derived from the op table and the front ends (scripts/op-table-files.ts, scripts/front-files.ts). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontFiles } from './front-files';
import { opTableFiles } from './op-table-files';

const root = fileURLToPath(new URL('../../../', import.meta.url));
for (const [path, text] of Object.entries({ ...opTableFiles(), ...frontFiles() })) {
  const target = join(root, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${path}`);
}
