import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs tool without type declarations
import { checkBoundaries } from '../../../tools/check-boundaries.mjs';

const check = checkBoundaries as (root: string) => string[];
let root = '';

function pkg(name: string, files: Record<string, string>, deps: Record<string, string> = {}): void {
  const dir = join(root, 'packages', name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `@torch-ts/${name}`, dependencies: deps }));
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, 'src', f), text);
}

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('the boundary lint', () => {
  it('passes the real repository', () => {
    expect(check(new URL('../../..', import.meta.url).pathname)).toEqual([]);
  });

  it('accepts allowed imports', () => {
    root = mkdtempSync(join(tmpdir(), 'bounds-'));
    pkg('core', { 'a.ts': "export const a = 1;\n" });
    pkg('kernels-cpu', { 'k.ts': "import { a } from '@torch-ts/core';\n" }, { '@torch-ts/core': 'workspace:^' });
    pkg('torch', { 't.ts': "import '@torch-ts/kernels-cpu';\nexport * from '@torch-ts/core';\n" });
    expect(check(root)).toEqual([]);
  });

  it('flags core importing upward, a backend importing another backend, and deep imports', () => {
    root = mkdtempSync(join(tmpdir(), 'bounds-'));
    pkg('core', { 'a.ts': "import { x } from '@torch-ts/torch';\n" });
    pkg('kernels-cpu', { 'k.ts': "import '@torch-ts/kernels-webgpu';\nimport { y } from '../../core/src/y';\n" });
    pkg('autograd', { 'g.ts': "const m = await import('@torch-ts/kernels-cpu');\nimport { z } from '@torch-ts/core/src/z';\n" }, {
      '@torch-ts/torch': 'workspace:^',
    });
    const problems = check(root);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/core\/src\/a\.ts: core must not import @torch-ts\/torch/),
        expect.stringMatching(/kernels-cpu\/src\/k\.ts: kernels-cpu must not import @torch-ts\/kernels-webgpu/),
        expect.stringMatching(/kernels-cpu\/src\/k\.ts: reaches into core\/src/),
        expect.stringMatching(/autograd\/src\/g\.ts: autograd must not import @torch-ts\/kernels-cpu/),
        expect.stringMatching(/autograd\/src\/g\.ts: imports @torch-ts\/core\/src/),
        expect.stringMatching(/autograd\/package\.json: dependencies names @torch-ts\/torch/),
      ]),
    );
    expect(problems).toHaveLength(6);
  });
});
