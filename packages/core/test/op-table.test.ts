import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allOperators, BINARY_TABLE, dispatcherName, KERNEL_OP_NAMES, logicalAnd, logicalAnd_, Tensor, UNARY_TABLE } from '../src/index';
import { opTableFiles } from '../scripts/op-table-files';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('the op table (Note [The op table])', () => {
  it('the files derived from it are current (run `pnpm gen:ops` after editing the table)', () => {
    for (const [path, text] of Object.entries(opTableFiles())) {
      expect(readFileSync(root + path, 'utf8'), path).toBe(text);
    }
  });

  it('each binary row is a functional, an out= and (where the row has it) an in-place operator, and a kernel op', () => {
    const ops = new Map(allOperators().map((o) => [o.name, o]));
    for (const [key, row] of Object.entries(BINARY_TABLE)) {
      const name = dispatcherName(key);
      const inplace = (row as { inplace?: boolean }).inplace !== false;
      expect(ops.get(name)?.schema.args.map((a) => a.name), name).toEqual(['self', 'other']);
      expect(ops.get(`${name}.out`)?.schema.args.map((a) => a.name), name).toEqual(['self', 'other', 'out']);
      expect(ops.has(`${name}_`), `${name}_`).toBe(inplace);
      expect(KERNEL_OP_NAMES.includes(`${name}_` as never), `${name}_`).toBe(inplace);
      expect(KERNEL_OP_NAMES).toContain(name);
    }
  });

  it('each unary row is a functional, an in-place and an out= operator, and a kernel op', () => {
    const ops = new Map(allOperators().map((o) => [o.name, o]));
    for (const name of Object.keys(UNARY_TABLE).map(dispatcherName)) {
      for (const op of [name, `${name}_`, `${name}.out`]) {
        expect(ops.get(op)?.schema.args.map((a) => a.name), op).toEqual(op.endsWith('.out') ? ['self', 'out'] : ['self']);
      }
      expect(KERNEL_OP_NAMES).toContain(name);
      expect(KERNEL_OP_NAMES).toContain(`${name}_`);
    }
  });

  it('names a row in the dispatcher as PyTorch does, and its front end, method and impl as torch-ts does', () => {
    expect(dispatcherName('logicalAnd')).toBe('logical_and');
    expect(dispatcherName('bitwiseNot')).toBe('bitwise_not');
    expect(dispatcherName('log1p')).toBe('log1p');
    const names = new Set(allOperators().map((o) => o.name));
    expect(['logical_and', 'logical_and_', 'logical_and.out'].filter((n) => !names.has(n))).toEqual([]);
    expect([logicalAnd, logicalAnd_, Tensor.prototype.logicalAnd, Tensor.prototype.logicalAnd_].map((f) => typeof f)).toEqual(['function', 'function', 'function', 'function']);
  });
});
