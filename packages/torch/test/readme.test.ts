import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import * as torch from '@torch-ts/torch';

/**
 * The README's quick start is executed as written: the code block between
 * `<!-- quick-start` and `<!-- /quick-start -->`, with its import line pointing at the facade
 * module this test already imported. Each `console.log(...); // expected` line must print what
 * its comment says (a multi-line tensor repr is compared with its line breaks folded, as the
 * comment writes it on one line; a quoted comment like `'float32'` matches the string).
 */
const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

function quickStartBlock(): string {
  const start = README.indexOf('<!-- quick-start');
  const end = README.indexOf('<!-- /quick-start -->');
  expect(start, 'README has a <!-- quick-start marker').toBeGreaterThanOrEqual(0);
  expect(end, 'README has a <!-- /quick-start --> marker').toBeGreaterThan(start);
  const section = README.slice(start, end);
  const m = /```ts\n([\s\S]*?)```/.exec(section);
  expect(m, 'the quick-start section holds a ```ts code block').not.toBeNull();
  return m![1];
}

const IMPORT_RE = /^import \* as torch from '@torch-ts\/torch';$/m;

/** How the captured console shows a value, close to Node's console.log for these types. */
function show(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`;
  if (typeof v === 'bigint') return `${v}n`;
  return String(v);
}

function fold(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function runQuickStart(): { printed: string[]; expected: string[] } {
  const code = quickStartBlock();
  expect(code).toMatch(IMPORT_RE);
  const body = code.replace(IMPORT_RE, '// (import rewritten by readme.test.ts)');
  const expected = code
    .split('\n')
    .map((line) => /^\s*console\.log\(.*\);\s*\/\/\s*(.+)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => m[1].trim());
  const printed: string[] = [];
  const fakeConsole = { log: (...args: unknown[]) => printed.push(args.map(show).join(' ')) };
  // The block is TypeScript written without type annotations, so it also runs as JavaScript.
  const run = new Function('torch', 'console', body) as (t: typeof torch, c: typeof fakeConsole) => void;
  run(torch, fakeConsole);
  return { printed, expected };
}

describe('README quick start', () => {
  it('runs, and every console.log prints what its comment says', () => {
    const { printed, expected } = runQuickStart();
    expect(expected.length).toBeGreaterThanOrEqual(5);
    expect(printed.length).toBe(expected.length);
    printed.forEach((out, i) => {
      const want = fold(expected[i]);
      const got = fold(out);
      const ok = want.startsWith(got) || want.startsWith(`'${got}'`);
      expect(ok, `console.log #${i + 1} printed ${JSON.stringify(out)}, its comment says ${JSON.stringify(expected[i])}`).toBe(true);
    });
    // the first line is the exact PyTorch repr of c, in PyTorch's (multi-line) layout
    expect(printed[0]).toBe('tensor([[4., 4.],\n        [8., 8.]])');
  });
});
