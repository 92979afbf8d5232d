/**
 * The per-op checks that look at all of an op's cases at once: that the table and the
 * goldens tell the same story, and that running the op leaks nothing.
 */
import * as torch from '@torch-ts/torch';
import { REAL_DTYPES as DTYPES, type DeviceLike, type DType } from '@torch-ts/torch';
import { caseId, isComplexType, type GoldenCase } from './goldens';
import { disposeAll, makeInputs } from './inputs';
import type { CheckContext } from './op-checks';
import { inplaceForm, methodForm, outForm, resultList } from './op-forms';
import type { OpInfo, OpInput } from './op-info/types';

/**
 * What the table says that the goldens contradict: the sample ids differ, a dtype listed as
 * supported fails in PyTorch (or one not listed works), or a 2.x deviation is undocumented
 * or documented without a case. The first sample of `samples` decides dtype support.
 */
export function tableProblems(op: OpInfo, cases: readonly GoldenCase[]): string[] {
  if (cases.length === 0) return [`no golden cases for ${op.name}: regenerate goldens or fix the name`];
  const complexCases = cases.filter((c) => isComplexType(c.dtype));
  const problems = [...samplesProblems(op.samples, cases.filter((c) => !isComplexType(c.dtype)), '', op.dtypes, DTYPES)];
  if (op.complex || complexCases.length) {
    problems.push(...samplesProblems(op.complex?.samples ?? [], complexCases, 'complex.', op.complex?.dtypes ?? [], ['complex64', 'complex128']));
  }
  const upcast = new Set(cases.filter((c) => c.reference !== undefined).map((c) => c.dtype));
  for (const d of upcast) {
    if (!op.pytorch2x?.[d]) problems.push(`${d} goldens follow PyTorch 2.x (upcast or 2.x reference) but pytorch2x does not say why`);
  }
  for (const d of Object.keys(op.pytorch2x ?? {})) {
    if (![...upcast].some((u) => u === d)) problems.push(`pytorch2x names ${d} but no ${d} golden follows 2.x (upcast or 2.x reference)`);
  }
  return problems;
}

/** The sample ids of `cases` against `samples`, and the first sample's cases against the dtypes listed as supported. */
function samplesProblems(samples: readonly string[], cases: readonly GoldenCase[], field: string, supported: readonly DType[], dtypes: readonly DType[]): string[] {
  const problems: string[] = [];
  const golden = new Set(cases.map((c) => c.sample));
  const listed = new Set(samples);
  for (const s of golden) if (!listed.has(s)) problems.push(`golden sample '${s}' is missing from ${field}samples`);
  for (const s of listed) if (!golden.has(s)) problems.push(`sample '${s}' has no golden case`);
  const basic = samples[0];
  for (const d of dtypes) {
    const c = cases.find((x) => x.dtype === d && x.sample === basic && !x.variant);
    if (!c) {
      problems.push(`no '${basic}' case for ${d}`);
      continue;
    }
    const error = c.error;
    if ((error === undefined) !== supported.includes(d)) {
      problems.push(
        error === undefined
          ? `PyTorch supports ${d} (the '${basic}' case has values) but ${field}dtypes omits it`
          : `${field}dtypes lists ${d} but PyTorch raises on it: ${error.message}`,
      );
    }
  }
  return problems;
}

interface Counts {
  readonly tensors: number;
  readonly storages: number;
}

/**
 * Every case run twice, disposing by hand and inside `torch.tidy` (with the method,
 * in-place and out= forms too), must leave the device's live TensorImpl and storage counts
 * where they were, errors included ("bad input never leaks memory", docs/api.md).
 */
export function checkLeaks(ctx: CheckContext, cases: readonly GoldenCase[]): void {
  const { op, harness: h } = ctx;
  const leaks: string[] = [];
  const measure = (label: string, fn: () => void) => {
    const before = h.liveCounts();
    fn();
    const after = h.liveCounts();
    if (after.tensors !== before.tensors || after.storages !== before.storages) {
      leaks.push(`${label}: ${delta(before, after)}`);
    }
  };
  for (const c of cases) {
    const label = `${caseId(c)} (${c.dtype})`;
    measure(`${label} disposed by hand`, () => runDisposing(op, c, h.device));
    measure(`${label} in tidy`, () => torch.tidy(() => runAllForms(op, c, h.device)));
  }
  if (leaks.length) {
    const shown = leaks.slice(0, 12);
    const more = leaks.length > shown.length ? `\n  ... and ${leaks.length - shown.length} more` : '';
    throw new Error(`${op.name} on ${h.name} leaks:\n  ${shown.join('\n  ')}${more}`);
  }
}

function delta(before: Counts, after: Counts): string {
  const sign = (n: number) => (n > 0 ? `+${n}` : String(n));
  return `live tensors ${sign(after.tensors - before.tensors)}, live storages ${sign(after.storages - before.storages)}`;
}

function runDisposing(op: OpInfo, c: GoldenCase, device: DeviceLike): void {
  const inputs = makeInputs(c, device);
  let result: unknown = null;
  try {
    result = op.call(inputs, c.kwargs);
  } catch {
    // an error must not leak either; what it is, forward checks
  } finally {
    disposeAll(inputs, result);
  }
}

function runAllForms(op: OpInfo, c: GoldenCase, device: DeviceLike): void {
  const inputs = makeInputs(c, device);
  const tryForm = (fn: () => unknown) => {
    try {
      fn();
    } catch {
      // as above: only the counts matter here
    }
  };
  tryForm(() => op.call(inputs, c.kwargs));
  if (op.variants.method) tryForm(() => methodForm(op)(inputs, c.kwargs));
  if (op.variants.inplace && inputs[0] instanceof torch.Tensor) {
    const args: OpInput[] = [inputs[0].clone(), ...inputs.slice(1)];
    tryForm(() => inplaceForm(op)(args, c.kwargs));
  }
  if (op.variants.out && !c.error && !Array.isArray(c.expected)) {
    tryForm(() => {
      const first = resultList(op.call(inputs, c.kwargs))[0];
      outForm(op)(inputs, c.kwargs, torch.emptyLike(first));
    });
  }
}
