#!/usr/bin/env node
// Sums the vitest summaries in a `pnpm test` log (one per package, prefixed by turbo) into
// the one closing line CI reads: `tests: N passed, M failed`. Strict xfails that failed as
// expected count as passed: each is an assertion that held. Skipped tests count as failed:
// CI requires every suite to run (WebGPU ones too), and vitest skips the tests of a file whose
// setup hook failed, with only the file counted as failed.
// A failure outside any test (an install, a build or a typecheck that failed, or an error
// vitest caught outside every test, so no test counts it) still shows: given the run's exit
// status, a failed run whose summaries count no failure counts one.
// Before that line it repeats what failed (failed tests, vitest's unhandled errors, the turbo
// tasks that exited non-zero), because a CI record may keep only the end of a long log.
// Usage: node tools/test-summary.mjs <log> [exit-status]
import { readFileSync } from 'node:fs';

const MAX_REPORT_LINES = 80;
const text = readFileSync(process.argv[2], 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
// turbo prefixes each task's lines with `package:task: `.
const lines = text.split('\n').map((l) => l.replace(/^@?[\w./-]+:[\w:-]+: /, ''));

let passed = 0;
let failed = 0;
let suites = 0;
for (const line of lines) {
  const m = /\bTests\s+(.*)\(\d+\)\s*$/.exec(line);
  if (!m) continue;
  suites++;
  for (const [, n, kind] of m[1].matchAll(/(\d+) (passed|failed|expected fail|skipped|todo)/g)) {
    if (kind === 'passed' || kind === 'expected fail') passed += Number(n);
    else failed += Number(n);
  }
}

/** The lines that say what failed: FAIL lines, unhandled-error blocks, error counts, failed turbo tasks. */
function failureReport() {
  const out = [];
  let inBlock = 0;
  let afterFail = false;
  for (const line of lines) {
    // The error that follows a FAIL line says why (an assertion, a hook that timed out).
    if (afterFail && line.trim() !== '') {
      afterFail = false;
      if (/^\s*(\w*Error|AssertionError)\b/.test(line)) out.push(`    ${line.trim()}`);
    }
    if (/Unhandled (Error|Rejection)/.test(line)) inBlock = 25;
    if (inBlock > 0) {
      if (line.trim() !== '') out.push(line);
      inBlock--;
      if (/^This error originated in/.test(line.trim())) inBlock = 0;
      continue;
    }
    if (/^\s*FAIL\s/.test(line)) afterFail = true;
    if (/^\s*FAIL\s/.test(line) || /^\s*Errors\s+\d+ errors?/.test(line) || /ERROR\s+command .* exited/.test(line) || /^\s*Failed:\s/.test(line) || /\[vitest-(pool|worker|pool-runner)\]/.test(line)) out.push(line);
  }
  return [...new Set(out)].slice(0, MAX_REPORT_LINES);
}

const status = Number(process.argv[3] ?? 0);
if (status !== 0 || failed > 0 || suites === 0) {
  const report = failureReport();
  if (report.length) console.log(`test-summary: what failed\n${report.map((l) => `  ${l}`).join('\n')}`);
}
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
