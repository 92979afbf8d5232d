#!/usr/bin/env node
// Sums the vitest summaries in a `pnpm test` log (one per package, prefixed by turbo) into
// the one closing line CI reads: `tests: N passed, M failed`. Strict xfails that failed as
// expected count as passed: each is an assertion that held.
// A failure outside any test (an install, a build or a typecheck that failed, so no vitest
// summary says so) still shows: given the run's exit status, a failed run whose summaries
// count no failure counts one.
// Usage: node tools/test-summary.mjs <log> [exit-status]
import { readFileSync } from 'node:fs';

const text = readFileSync(process.argv[2], 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
let passed = 0;
let failed = 0;
let suites = 0;
for (const line of text.split('\n')) {
  const m = /\bTests\s+(.*)\(\d+\)\s*$/.exec(line);
  if (!m) continue;
  suites++;
  for (const [, n, kind] of m[1].matchAll(/(\d+) (passed|failed|expected fail)/g)) {
    if (kind === 'failed') failed += Number(n);
    else passed += Number(n);
  }
}
const status = Number(process.argv[3] ?? 0);
if (suites === 0) {
  console.log(`tests: ${passed} passed, ${Math.max(failed, 1)} failed`);
  console.error('test-summary: no vitest summary found in the log');
  process.exit(1);
}
if (status !== 0 && failed === 0) {
  failed = 1;
  console.error(`test-summary: the run failed (exit status ${status}) outside the tests' own counts: see the log`);
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
