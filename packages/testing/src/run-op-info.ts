/**
 * `describeOpInfo(table, devices)`: the vitest suite of an OpInfo table on each device.
 *
 * For every device, op, dtype and golden case it declares
 *   forward    the function form against PyTorch's golden (or the error PyTorch raises);
 *   method     `x.op(...)` equal to the function form;
 *   inplace    `x.clone().op_(...)`: same object, version bumped, the function's values
 *              cast to x's dtype, or PyTorch's error with x left as it was;
 *   out        `op(..., { out })` into a contiguous and a transposed `out`;
 *   noncontig  strided and transposed views of the inputs give the same result;
 *   oracle     (devices with an oracle) the oracle device's result for the same inputs;
 * and per op: the table agrees with the goldens, each error input, and a leak check.
 * Known failures are strict xfails (Note [Strict xfails]).
 */
import { beforeAll, describe, it } from 'vitest';
import { DTYPES, type DType } from '@torch-ts/torch';
import { deviceHarness, type DeviceHarness } from './devices';
import { caseId, loadOpGoldens, type GoldenCase } from './goldens';
import { layoutApplies } from './inputs';
import { checkLeaks, tableProblems } from './op-audit';
import { outApplies } from './op-forms';
import { checkErrorInput, checkForward, checkInplace, checkMethod, checkNoncontig, checkOracle, checkOut, type CheckContext } from './op-checks';
import type { OpInfo } from './op-info/types';
import { XfailBook, type TestTarget } from './xfail';

export interface DescribeOpInfoOptions {
  /**
   * Fail when a golden op has no entry in `table` (default true). Off for a suite that runs
   * part of the table on purpose.
   */
  readonly requireEveryGoldenOp?: boolean;
  /** The dtypes whose cases run (default: all, complex included: Note [Complex OpInfo]). */
  readonly dtypes?: readonly DType[];
}

export function describeOpInfo(
  table: readonly OpInfo[],
  devices: readonly (string | DeviceHarness)[],
  options: DescribeOpInfoOptions = {},
): void {
  const goldens = loadOpGoldens();
  const requireAll = options.requireEveryGoldenOp ?? true;
  for (const device of devices) {
    const h = deviceHarness(device);
    const oracle = h.oracle ? deviceHarness(h.oracle) : null;
    const dtypes = options.dtypes ?? DTYPES;
    describe(`OpInfo on ${h.name}`, () => {
      if (h.setup || oracle?.setup) {
        beforeAll(async () => {
          await oracle?.setup?.();
          await h.setup?.();
        });
      }
      it('has one entry per golden op, each named once', () => {
        const names = table.map((op) => op.name);
        const dup = names.filter((n, i) => names.indexOf(n) !== i);
        const missing = requireAll ? [...goldens.keys()].filter((n) => !names.includes(n)) : [];
        if (dup.length || missing.length) {
          throw new Error(`duplicate entries: [${dup.join(', ')}]; golden ops without an entry: [${missing.join(', ')}]`);
        }
      });
      for (const op of table) describeOp({ op, harness: h, oracle }, goldens.get(op.name) ?? [], dtypes);
    });
  }
}

function describeOp(ctx: CheckContext, cases: readonly GoldenCase[], dtypes: readonly DType[]): void {
  const { op, harness: h } = ctx;
  describe(op.name, () => {
    const book = new XfailBook(xfailsOfRun(op, cases, dtypes), h.xfail?.[op.name]);
    const test = (target: TestTarget, title: string, fn: () => unknown) => {
      const reason = book.reason(target);
      if (reason) it.fails(`${title} [xfail: ${reason}]`, fn);
      else it(title, fn);
    };

    it('agrees with its goldens', () => {
      const p = tableProblems(op, cases);
      if (p.length) throw new Error(`${op.name}: the OpInfo entry and the goldens disagree:\n  ${p.join('\n  ')}`);
    });

    for (const dtype of dtypes) {
      const ofDtype = cases.filter((c) => c.dtype === dtype);
      if (ofDtype.length === 0) continue;
      describe(dtype, () => {
        for (const c of ofDtype) {
          const id = caseId(c);
          const at = (check: TestTarget['check']): TestTarget => ({ check, dtype, sample: c.sample, caseId: id });
          test(at('forward'), `${id}: forward`, () => checkForward(ctx, c));
          if (!c.error) {
            if (op.variants.method) test(at('method'), `${id}: method`, () => checkMethod(ctx, c));
            if (outApplies(op, c)) test(at('out'), `${id}: out=`, () => checkOut(ctx, c));
            if (layoutApplies(c, 'strided')) test(at('noncontig'), `${id}: non-contiguous inputs`, () => checkNoncontig(ctx, c));
            if (ctx.oracle) test(at('oracle'), `${id}: matches ${ctx.oracle.name}`, () => checkOracle(ctx, c));
          }
          if (op.variants.inplace && c.inplace !== undefined) test(at('inplace'), `${id}: in-place`, () => checkInplace(ctx, c));
        }
      });
    }

    for (const e of op.errorInputs) {
      test({ check: 'error-input', name: e.name }, `error input: ${e.name}`, () => checkErrorInput(ctx, e));
    }
    test({ check: 'leak', name: 'leak' }, 'leaks no tensors or storages', async () => {
      try {
        checkLeaks(ctx, cases);
      } finally {
        await h.settle?.();
      }
    });

    // Read when it runs: vitest collects the nested describes above only after this body
    // returns, so only then has every key had its chance to match.
    if (book.size > 0) {
      it('has no stale xfail keys', () => {
        const stale = [...book.malformed, ...book.unused().map((k) => `${k}: matches no test`)];
        if (stale.length) throw new Error(`${op.name}: xfail keys to fix or remove:\n  ${stale.join('\n  ')}`);
      });
    }
  });
}

/**
 * The op's xfail keys less those about samples that have cases only in dtypes this run leaves
 * out (a complex sample where `dtypes` has no complex dtype), which could match no test.
 */
function xfailsOfRun(op: OpInfo, cases: readonly GoldenCase[], dtypes: readonly DType[]): OpInfo['xfail'] {
  if (!op.xfail) return op.xfail;
  const running = new Set(cases.filter((c) => dtypes.includes(c.dtype)).map((c) => c.sample));
  const known = new Set(cases.map((c) => c.sample));
  const sampleOf = (key: string) => (key.includes('@') ? key.slice(key.indexOf('@') + 1) : key).split('/')[0].split(':')[0];
  return Object.fromEntries(Object.entries(op.xfail).filter(([k]) => !(known.has(sampleOf(k)) && !running.has(sampleOf(k)))));
}
