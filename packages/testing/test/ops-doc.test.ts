/**
 * docs/ops.md is generated from the OpInfo table; it must be what the table renders today,
 * and every op of docs/api.md must be either in the table or listed in API_GAPS with a reason.
 * docs/api.md's operator lists must be API_OPS's, so the guide says what the tests check.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_GAPS, API_OPS } from '../src/api-ops';
import { OP_TABLE } from '../src/op-info';
import { renderOpsDoc } from '../src/ops-doc';

const inTable = (api: string) => OP_TABLE.some((op) => op.name.split('.')[0] === api);

describe('docs/ops.md', () => {
  it('is up to date (regenerate with `pnpm docs:ops`)', () => {
    const committed = readFileSync(new URL('../../../docs/ops.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderOpsDoc(OP_TABLE));
  });

  it('gives a written reason for every docs/api.md op the table lacks', () => {
    const unexplained = Object.values(API_OPS).flat().filter((op) => !inTable(op) && !(op in API_GAPS));
    expect(unexplained).toEqual([]);
  });

  it('lists no gap that the table has since filled', () => {
    expect(Object.keys(API_GAPS).filter(inTable)).toEqual([]);
  });
});

describe('docs/api.md', () => {
  it("lists every operator of the contract under its family, as API_OPS has them", () => {
    const guide = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
    for (const [family, ops] of Object.entries(API_OPS)) {
      const line = guide.split('\n').find((l) => l.startsWith(`- **${family}**: `));
      expect(line, `docs/api.md has no "- **${family}**:" line`).toBeDefined();
      const listed = [...line!.matchAll(/`(\w+)`/g)].map((m) => m[1]);
      expect(listed, family).toEqual([...ops]);
    }
  });
});
