/**
 * The generated argument test (issue 15). Every OpInfo entry is called as its table calls it,
 * for one golden case of each sample; core's binder (Note [The argument binder]) records the
 * entry point's schema and the arguments it was given (`traceBinds`). The same call is then
 * made in the other ways PyTorch's calling convention allows, each of which must give the
 * same result:
 *  - every argument by keyword, in one options object (`self` as `input`);
 *  - every argument that is not keyword-only positionally, in schema order;
 * and an unknown keyword and one positional argument too many must raise TypeError with
 * PyTorch's wording. The first call is checked against PyTorch's golden here too; the method,
 * in-place and out= forms are checked against the same goldens by the OpInfo suite
 * (test/ops.test.ts). Entries whose entry point (the bound call named as the entry, its method
 * or its error names) does not bind its arguments yet are listed
 * in NOT_BOUND, strictly: one that binds must leave the list.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { camelName, isOptionsObject, traceBinds, TorchTypeError, type Binder, type BoundCall } from '@torch-ts/core';
import { expectedList, loadOpGoldens, type GoldenCase } from '../src/goldens';
import { disposeAll, makeInputs } from '../src/inputs';
import { OP_TABLE } from '../src/op-info';
import type { OpInfo, OpResult } from '../src/op-info/types';
import { toleranceFor } from '../src/op-checks';
import { compareReadBacks, fromGolden, readBackSync } from '../src/values';

type Fn = (...args: unknown[]) => unknown;

/**
 * OpInfo entries whose entry point binds no schema, by name: only `x.index(...)`, Python's
 * `x[...]`, which PyTorch does not bind with its argument parser either (each item of an
 * indexing expression is checked by applyBasicIndexing, as THPVariable_getitem checks it).
 */
const NOT_BOUND: ReadonlySet<string> = new Set(['index']);

function oneCasePerSample(op: OpInfo): GoldenCase[] {
  const cases = (loadOpGoldens().get(op.name) ?? []).filter(
    (c) => !c.error && expectedList(c) !== null && op.dtypes.includes(c.dtype) && !(`forward@${c.sample}/${c.dtype}` in (op.xfail ?? {})),
  );
  const out: GoldenCase[] = [];
  for (const c of cases) {
    if (out.some((d) => d.sample === c.sample)) continue;
    out.push(cases.find((d) => d.sample === c.sample && d.dtype === 'float32') ?? c);
  }
  return out;
}

const resultsOf = (r: unknown): torch.Tensor[] => (Array.isArray(r) ? (r as torch.Tensor[]) : r instanceof torch.Tensor ? [r] : []);

/** Problems of `got` against `expected` (tolerance null: exactly). */
function compare(got: unknown, expected: readonly ReturnType<typeof fromGolden>[], tolerance: ReturnType<typeof toleranceFor>): string[] {
  const ts = resultsOf(got);
  if (ts.length !== expected.length) return [`${ts.length} results, expected ${expected.length}`];
  return ts.flatMap((t, i) => compareReadBacks(readBackSync(t), expected[i], { tolerance }));
}

/** The public function whose call binds `call.binder` first (torch.*, torch.nn.functional.*, torch.special.*, torch.linalg.* or torch.fft.*: `linalg_lu_factor` is `torch.linalg.luFactor`, `fft_fftshift` `torch.fft.fftshift`). */
function entryPoint(call: BoundCall): Fn | null {
  const name = camelName(call.binder.name);
  // (torch.special's functions are named without the operator's `special_`: special_log_ndtr is torch.special.logNdtr)
  const special = camelName(call.binder.name.replace(/^special_/, ''));
  const candidates = [
    (torch as unknown as Record<string, unknown>)[name],
    (torch.nn.functional as unknown as Record<string, unknown>)[name],
    (torch.special as unknown as Record<string, unknown>)[special],
    (torch.linalg as unknown as Record<string, unknown>)[camelName(call.binder.name.replace(/^linalg_/, ''))],
    (torch.fft as unknown as Record<string, unknown>)[camelName(call.binder.name.replace(/^fft_/, ''))],
  ];
  for (const f of candidates) {
    if (typeof f !== 'function') continue;
    try {
      const { value, calls } = traceBinds(() => (f as Fn)(...call.args));
      disposeAll(value);
      if (calls[0]?.binder === call.binder) return f as Fn;
    } catch {
      // not this one
    }
  }
  return null;
}

/**
 * The arguments of a call as the caller gave them, in schema order (undefined: not given):
 * not the bound values, which normalise (`scale_factor=2` is not `scale_factor=[2]`).
 */
function rawValues(b: Binder, args: readonly unknown[]): unknown[] {
  const out = new Array<unknown>(b.schema.args.length).fill(undefined);
  let n = args.length;
  while (n > 0 && args[n - 1] === undefined) n--;
  if (n > 0 && isOptionsObject(args[n - 1])) {
    for (const [k, v] of Object.entries(args[n - 1] as Record<string, unknown>)) out[b.keywords.indexOf(k)] = v;
    n--;
  }
  for (let i = 0; i < n; i++) out[i] = args[i];
  return out;
}

/** The most positional arguments any overload of `b` takes. */
const mostPositional = (b: Binder) => Math.max(...(b.overloads ?? [b]).map((o) => o.schema.args.filter((a) => !a.kwargOnly).length));

const bound = new Set<string>();

describe('every argument of every op, positionally and by keyword (generated from the OpInfo table)', () => {
  for (const op of OP_TABLE.filter((o) => !o.randomCheck)) {
    describe(op.name, () => {
      for (const c of oneCasePerSample(op)) {
        it(`${c.sample}/${c.dtype}`, () => {
          const inputs = makeInputs(c, 'cpu');
          const results: unknown[] = [];
          const run = (f: () => unknown): unknown => {
            const r = f();
            results.push(r);
            return r;
          };
          try {
            const first = traceBinds(() => run(() => op.call(inputs, c.kwargs) as OpResult));
            const expected = expectedList(c)!.map(fromGolden);
            expect(compare(first.value, expected, toleranceFor(op, c.dtype)), 'as the OpInfo table calls it').toEqual([]);
            // (the entry point's own call: ops that are composites bind the ops they call too)
            const names = new Set([op.name.split('.')[0], op.methodName]);
            const call = first.calls.find((x) => names.has(camelName(x.binder.name)));
            if (call === undefined) {
              expect(NOT_BOUND.has(op.name), `${op.name}'s entry point binds no schema: bind it, or list it in NOT_BOUND`).toBe(true);
              return;
            }
            bound.add(op.name);
            const b = call.binder;
            const fn = entryPoint(call);
            expect(fn, `the public function of ${b.name}()`).not.toBeNull();
            // the entry point called again as the table called it: the other forms must give its values exactly
            const firstValues = resultsOf(run(() => fn!(...call.args))).map(readBackSync);
            const values = rawValues(b, call.args);
            const params = b.schema.args;

            const byKeyword: Record<string, unknown> = {};
            values.forEach((v, i) => {
              if (v !== undefined) byKeyword[b.keywords[i]] = v;
            });
            expect(compare(run(() => fn!(byKeyword)), firstValues, null), `${b.name}(${Object.keys(byKeyword).join(', ')}) by keyword`).toEqual([]);

            const positional: unknown[] = [];
            const keywordOnly: Record<string, unknown> = {};
            values.forEach((v, i) => {
              if (params[i].kwargOnly) {
                if (v !== undefined) keywordOnly[b.keywords[i]] = v;
              } else positional[i] = v;
            });
            while (positional.length > 0 && positional[positional.length - 1] === undefined) positional.pop();
            const posArgs = Object.keys(keywordOnly).length > 0 ? [...positional, keywordOnly] : positional;
            expect(compare(run(() => fn!(...posArgs)), firstValues, null), `${b.name} positionally`).toEqual([]);

            expect(() => fn!({ ...byKeyword, dtpye: 1 })).toThrow(TorchTypeError);
            expect(() => fn!({ ...byKeyword, dtpye: 1 })).toThrow(/unexpected keyword argument 'dtpye'|invalid combination of arguments/);
            const tooMany = Array.from({ length: mostPositional(b) + 1 }, (_, i) => values[i] ?? values[0]);
            expect(() => fn!(...tooMany)).toThrow(/positional arguments? but \d+ were given|invalid combination of arguments/);
          } finally {
            disposeAll(inputs, ...results);
          }
        });
      }
    });
  }

  it('lists in NOT_BOUND only entries that exist and do not bind', () => {
    for (const name of NOT_BOUND) {
      expect(OP_TABLE.some((op) => op.name === name), `${name} is no OpInfo entry`).toBe(true);
      expect(bound.has(name), `${name} binds its arguments now: remove it from NOT_BOUND`).toBe(false);
    }
  });
});
