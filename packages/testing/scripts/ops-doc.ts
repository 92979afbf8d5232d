/**
 * Writes docs/ops.md from the OpInfo table (see src/ops-doc.ts). Run `pnpm docs:ops` at the
 * repository root after changing the table or the goldens.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OP_TABLE } from '../src/op-info';
import { renderOpsDoc } from '../src/ops-doc';

const target = fileURLToPath(new URL('../../../docs/ops.md', import.meta.url));
writeFileSync(target, renderOpsDoc(OP_TABLE));
console.log(`wrote ${target}`);
