import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allOperators, KERNEL_OP_NAMES, UNARY_TABLE } from '../src/index';
import { opTableFiles } from '../scripts/op-table-files';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('the op table (Note [The op table])', () => {
  it('the files derived from it are current (run `pnpm gen:ops` after editing the table)', () => {
    for (const [path, text] of Object.entries(opTableFiles())) {
      expect(readFileSync(root + path, 'utf8'), path).toBe(text);
    }
  });

  it('each unary row is a functional, an in-place and an out= operator, and a kernel op', () => {
    const ops = new Map(allOperators().map((o) => [o.name, o]));
    for (const name of Object.keys(UNARY_TABLE)) {
      for (const op of [name, `${name}_`, `${name}.out`]) {
        expect(ops.get(op)?.schema.args.map((a) => a.name), op).toEqual(op.endsWith('.out') ? ['self', 'out'] : ['self']);
      }
      expect(KERNEL_OP_NAMES).toContain(name);
      expect(KERNEL_OP_NAMES).toContain(`${name}_`);
    }
  });
});
