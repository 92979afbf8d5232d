import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';

type Case = ({ op: 'linspace'; args: [number, number, number] } | { op: 'arange'; args: [number] | [number, number] | [number, number, number] }) & {
  dtype: torch.DType;
  values: number[];
};
const { cases } = JSON.parse(readFileSync(new URL('../goldens/factories.json', import.meta.url), 'utf8')) as { cases: Case[] };

describe('factories against PyTorch, bit for bit', () => {
  for (const c of cases) {
    it(`${c.op}(${c.args.join(', ')}) ${c.dtype}`, () => {
      const t =
        c.op === 'linspace'
          ? torch.linspace(...c.args, { dtype: c.dtype })
          : torch.arange(...c.args);
      expect(t.dtype).toBe(c.dtype);
      expect(t.tolist()).toEqual(c.values);
      t.dispose();
    });
  }
});
