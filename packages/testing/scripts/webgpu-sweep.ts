/**
 * The OpInfo table's forward, oracle and non-contiguous checks on WebGPU, outside vitest: for
 * a machine with a real GPU but no pnpm install (bundled by scripts/device-bundle.mjs). CI
 * runs the same checks under vitest on SwiftShader; this says what a real driver changes.
 *
 *   tsx packages/testing/scripts/webgpu-sweep.ts [--ops a,b] [--first REGEX] [--budget-s 300] [--out FILE]
 *
 * `--first` runs the ops whose names match first (the newest kernels, when the budget may
 * not reach the end of the table).
 *
 * Each check's outcome is compared with the strict xfails the vitest suite uses: a failure
 * that is not an xfail, and an xfail that passes, are listed (the latter says a deviation is
 * SwiftShader's, not WebGPU's). Exit status 1 when there are unexpected failures.
 */
import { writeFileSync } from 'node:fs';
import * as torch from '@torch-ts/torch';
import { REAL_DTYPES } from '@torch-ts/torch';
import { webgpuHarness, CPU_HARNESS } from '../src/devices';
import { caseId, loadOpGoldens } from '../src/goldens';
import { layoutApplies } from '../src/inputs';
import { OP_TABLE } from '../src/op-info';
import { checkForward, checkNoncontig, checkOracle, type CheckContext } from '../src/op-checks';
import { notOnWebgpu, webgpuXfails } from '../src/webgpu-xfails';
import { XfailBook, type TestTarget } from '../src/xfail';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const only = arg('ops')?.split(',');
const first = arg('first') ? new RegExp(arg('first')!) : null;
const budgetMs = Number(arg('budget-s') ?? 300) * 1000;
const outFile = arg('out');

if (!(await torch.webgpu.init())) {
  console.error('webgpu-sweep: no WebGPU adapter');
  process.exit(2);
}
const started = Date.now();
const notOn = notOnWebgpu(OP_TABLE);
const selected = OP_TABLE.filter((op) => !(op.name in notOn) && (!only || only.includes(op.name)));
const table = first ? [...selected.filter((op) => first.test(op.name)), ...selected.filter((op) => !first.test(op.name))] : selected;
const xfails = webgpuXfails(table, OP_TABLE);
const harness = webgpuHarness(xfails);
const goldens = loadOpGoldens();

const counts = { pass: 0, xfail: 0, unexpectedFail: 0, unexpectedPass: 0 };
const failures: string[] = [];
const passingXfails: string[] = [];
let opsDone = 0;

outer: for (const op of table) {
  const ctx: CheckContext = { op, harness, oracle: CPU_HARNESS };
  const book = new XfailBook(op.xfail, xfails[op.name]);
  for (const dtype of REAL_DTYPES) { // as ops-webgpu-suite.ts: complex rows are not run on WebGPU yet
    for (const c of (goldens.get(op.name) ?? []).filter((g) => g.dtype === dtype)) {
      if (Date.now() - started > budgetMs) break outer;
      const id = caseId(c);
      const checks: [TestTarget['check'], () => Promise<void>][] = [['forward', () => checkForward(ctx, c)]];
      if (!c.error) {
        checks.push(['oracle', () => checkOracle(ctx, c)]);
        if (layoutApplies(c, 'strided')) checks.push(['noncontig', () => checkNoncontig(ctx, c)]);
      }
      for (const [check, run] of checks) {
        const reason = book.reason({ check, dtype, sample: c.sample, caseId: id });
        let error: unknown = null;
        try {
          await run();
        } catch (e) {
          error = e;
        }
        const title = `${op.name} ${id} (${dtype}) ${check}`;
        if (error === null && reason === null) counts.pass++;
        else if (error !== null && reason !== null) counts.xfail++;
        else if (error === null) {
          counts.unexpectedPass++;
          passingXfails.push(`${title} [xfail: ${reason}]`);
        } else {
          counts.unexpectedFail++;
          failures.push(`${title}: ${String((error as Error).message ?? error).slice(0, 600)}`);
        }
      }
    }
  }
  await torch.webgpu.synchronize().catch(() => {});
  opsDone++;
}

const { source, adapter } = torch.webgpu.deviceInfo();
const summary = { source, adapter, ops: `${opsDone}/${table.length}`, seconds: (Date.now() - started) / 1000, counts, failures, passingXfails };
console.log(`webgpu-sweep on ${adapter} (${source}): ${summary.ops} ops in ${summary.seconds.toFixed(0)} s: ${JSON.stringify(counts)}`);
for (const f of failures.slice(0, 60)) console.log(`FAIL ${f}`);
for (const p of passingXfails.slice(0, 60)) console.log(`XPASS ${p}`);
if (outFile) writeFileSync(outFile, JSON.stringify(summary, null, 1));
process.exit(counts.unexpectedFail > 0 ? 1 : 0);
