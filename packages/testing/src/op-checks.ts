/**
 * The checks the OpInfo runner makes for one golden case on one device. Each throws an
 * Error that says the op, the case, its inputs and every disagreement; each disposes what
 * it made, whatever happens.
 *
 * Forward compares with PyTorch's golden (dtype, shape, values within tolerance). The other
 * forms compare with the function form on the same device: a value bug then fails one
 * test (forward), while a form that diverges from its function fails its own.
 */
import * as torch from '@torch-ts/torch';
import { DTypeError, type DType, type Tensor } from '@torch-ts/torch';
import type { DeviceHarness } from './devices';
import { caseId, decodeScalar, decodeValues, expectedList, isScalarInput, type GoldenCase, type GoldenError } from './goldens';
import { disposeAll, layoutApplies, makeInputs, type Layout } from './inputs';
import { DEFAULT_TOLERANCE, tensorArg } from './op-info/common';
import { supportsDtype, type ErrorClass, type ErrorInput, type OpInfo, type OpInput, type OpResult, type Tolerance } from './op-info/types';
import { attempt, attemptForm, attemptOut, errorClassFor, errorProblems, inplaceForm, resultList } from './op-forms';
import { compareReadBacks, describeValues, fromGolden, type ReadBack } from './values';

export interface CheckContext {
  readonly op: OpInfo;
  readonly harness: DeviceHarness;
  /** The device whose results this one must match (CPU for WebGPU), or null. */
  readonly oracle: DeviceHarness | null;
}

/** The tolerance for results of `dtype`: the op's override, else assert_close's default; null is exact. */
export function toleranceFor(op: OpInfo, dtype: DType): Tolerance | null {
  return op.tolerance?.[dtype] ?? DEFAULT_TOLERANCE[dtype] ?? null;
}

function describeCase(op: OpInfo, c: GoldenCase, device: string): string {
  const inputs = c.inputs.map((x) =>
    isScalarInput(x) ? `scalar ${String(x.scalar)}` : describeValues(x.dtype, x.shape, decodeValues(x)),
  );
  const kw = Object.keys(c.kwargs).length ? ` kwargs ${JSON.stringify(c.kwargs)}` : '';
  return `${op.name} ${caseId(c)} (${c.dtype}) on ${device}: inputs ${inputs.join('; ')}${kw}`;
}

function fail(op: OpInfo, c: GoldenCase, h: DeviceHarness, problems: readonly string[]): never {
  throw new Error(`${describeCase(op, c, h.name)}\n  ${problems.join('\n  ')}`);
}

async function readAll(h: DeviceHarness, ts: readonly Tensor[]): Promise<ReadBack[]> {
  const out: ReadBack[] = [];
  for (const t of ts) out.push(await h.read(t));
  return out;
}

function compareLists(got: readonly ReadBack[], expected: readonly ReadBack[], tol: (d: DType) => Tolerance | null, exact: boolean): string[] {
  if (got.length !== expected.length) return [`got ${got.length} result tensors, expected ${expected.length}`];
  return got.flatMap((g, i) => {
    const p = compareReadBacks(g, expected[i], { tolerance: exact ? null : tol(expected[i].dtype) });
    return expected.length > 1 ? p.map((x) => `result ${i}: ${x}`) : p;
  });
}

/** Whether a result has the arity of the golden: a tensor for one, an array for a tuple. */
function arityProblems(r: OpResult, c: GoldenCase): string[] {
  const tuple = Array.isArray(c.expected);
  if (tuple && r instanceof torch.Tensor) return ['got one tensor, expected a tuple (an array)'];
  if (!tuple && !(r instanceof torch.Tensor)) return ['got an array, expected one tensor'];
  return [];
}

/**
 * Note [One function-form run per case]
 * The method, out=, non-contiguous and oracle checks of a case all compare with the function
 * form's results on contiguous inputs on the device under test, which forward has just
 * computed too. Those results are computed once per case and device and shared: the checks of
 * a case run one after another, so one entry (the last case) is kept. Each check still runs its
 * own form afresh, so a second call that differs from the first (a stale cache in a backend)
 * still fails the check that made it. On WebGPU this was four runs and reads of each case in
 * about nine.
 */
let lastFunctionRun: { readonly key: string; readonly results: Promise<ReadBack[]> } | null = null;

function runKey(ctx: CheckContext, c: GoldenCase): string {
  return [ctx.harness.name, ctx.op.name, c.dtype, caseId(c)].join('\u0000');
}

/** The function form's results on the device under test, contiguous inputs: see the Note. */
function sharedFunctionResults(ctx: CheckContext, c: GoldenCase): Promise<ReadBack[]> {
  const key = runKey(ctx, c);
  if (lastFunctionRun?.key !== key) lastFunctionRun = { key, results: functionResults(ctx, c) };
  return lastFunctionRun.results;
}

/** Runs the function form on fresh inputs of `layout` and reads the results. */
async function functionResults(ctx: CheckContext, c: GoldenCase, layout: Layout = 'contiguous', h = ctx.harness): Promise<ReadBack[]> {
  const inputs = makeInputs(c, h.device, layout);
  const r = await attemptForm(ctx.op, h.asyncForms, inputs, c.kwargs);
  try {
    if (!r.ok) fail(ctx.op, c, h, [`the function form threw ${String(r.error)}`]);
    return await readAll(h, resultList(r.value));
  } finally {
    disposeAll(inputs, r.ok ? r.value : null);
  }
}

/**
 * The error classes a case may throw. Where the dtype itself is unsupported, a DTypeError is
 * right whatever else is wrong: which of two checks runs first is not part of the contract
 * (PyTorch checks shapes first, as its dtype check lives in the kernel).
 */
function acceptedErrors(op: OpInfo, c: GoldenCase, e: GoldenError, h?: DeviceHarness): ErrorClass[] {
  const classes = [errorClassFor(e)];
  if (!supportsDtype(op, c.dtype) || (h?.supports && !h.supports(op.name, c))) classes.push(DTypeError);
  return classes;
}

/**
 * The call must throw PyTorch's error: synchronously, or, for an error that depends on the
 * data (an index out of range) on a device that finds it in a kernel, when its result is
 * read (docs/api.md: "on WebGPU they surface at the next read of the result at the latest").
 */
async function throwProblems(ctx: CheckContext, c: GoldenCase, run: () => Promise<{ ok: true; value: OpResult } | { ok: false; error: unknown }>, e: GoldenError): Promise<string[]> {
  const r = await run();
  let error: unknown = r.ok ? null : r.error;
  if (r.ok) {
    try {
      await readAll(ctx.harness, resultList(r.value));
    } catch (readError) {
      error = readError;
    } finally {
      disposeAll(r.value);
    }
    if (error === null) return [`did not throw; PyTorch raises ${e.type}: ${e.message}`];
  }
  return errorProblems(ctx.op, error, acceptedErrors(ctx.op, c, e, ctx.harness), null).map((p) => `${p} (PyTorch: ${e.type}: ${e.message})`);
}

/** The function form against PyTorch: the error it raises, or the result's dtype, shape and values. */
export async function checkForward(ctx: CheckContext, c: GoldenCase): Promise<void> {
  const { op, harness: h } = ctx;
  const inputs = makeInputs(c, h.device);
  try {
    if (c.error) {
      const p = await throwProblems(ctx, c, () => attemptForm(op, h.asyncForms, inputs, c.kwargs), c.error);
      if (p.length) fail(op, c, h, p);
      return;
    }
    const r = await attemptForm(op, h.asyncForms, inputs, c.kwargs);
    if (!r.ok) fail(op, c, h, [`threw ${String(r.error)}`]);
    try {
      const p = arityProblems(r.value, c);
      const golden = expectedList(c);
      if (!golden) fail(op, c, h, ['the golden case has neither expected values nor an error']);
      const expected = golden.map(fromGolden);
      const got = await readAll(h, resultList(r.value));
      lastFunctionRun = { key: runKey(ctx, c), results: Promise.resolve(got) };
      if (op.randomCheck && h.ownRandomValues) p.push(...(await randomDrawProblems(op, c, got, expected, h)));
      else p.push(...compareLists(got, expected, (d) => toleranceFor(op, d), false));
      if (p.length) fail(op, c, h, p);
    } finally {
      disposeAll(r.value);
    }
  } finally {
    disposeAll(inputs);
  }
}

/** `x.op(...)` gives exactly what `op(x, ...)` gives. */
export async function checkMethod(ctx: CheckContext, c: GoldenCase): Promise<void> {
  const { op, harness: h } = ctx;
  const expected = await sharedFunctionResults(ctx, c);
  const inputs = makeInputs(c, h.device);
  const r = await attemptForm(op, h.asyncForms, inputs, c.kwargs, 'method');
  try {
    if (!r.ok) fail(op, c, h, [`the method form threw ${String(r.error)}`]);
    const p = arityProblems(r.value, c);
    p.push(...compareLists(await readAll(h, resultList(r.value)), expected, () => null, true));
    if (p.length) fail(op, c, h, p.map((x) => `method vs function: ${x}`));
  } finally {
    disposeAll(inputs, r.ok ? r.value : null);
  }
}

/**
 * `x.clone().op_(...)`: throws where PyTorch's does (leaving `x` as it was), else returns
 * the same object, bumps its version and holds the function form's values in its dtype.
 */
export async function checkInplace(ctx: CheckContext, c: GoldenCase): Promise<void> {
  const { op, harness: h } = ctx;
  const inputs = makeInputs(c, h.device);
  const self = tensorArg(inputs[0], op.name).clone();
  const args: OpInput[] = [self, ...inputs.slice(1)];
  try {
    const before = await h.read(self);
    const version = self.version;
    let r: { ok: true; value: OpResult } | { ok: false; error: unknown } = attempt(() => inplaceForm(op)(args, c.kwargs));
    if (c.inplace && c.inplace !== 'ok') {
      // (a data-dependent error may surface only at the next read: Note in throwProblems)
      if (r.ok && c.error) {
        try {
          await h.read(self);
        } catch (error) {
          r = { ok: false, error };
        }
      }
      if (r.ok) fail(op, c, h, [`${op.name}_ did not throw; PyTorch raises ${c.inplace.type}: ${c.inplace.message}`]);
      const p = errorProblems(op, r.error, acceptedErrors(op, c, c.inplace, h), null);
      // A check that fails before computing (shapes, dtypes) must leave self alone; an error
      // found while computing (an integer division by zero) may come after some writes, as
      // in PyTorch.
      if (!c.error) {
        p.push(...compareReadBacks(await h.read(self), before, { tolerance: null }).map((x) => `self changed by a failed call: ${x}`));
      }
      if (p.length) fail(op, c, h, p.map((x) => `in-place: ${x}`));
      return;
    }
    if (!r.ok) fail(op, c, h, [`${op.name}_ threw ${String(r.error)}`]);
    const p: string[] = [];
    if (r.value !== self) p.push('did not return the tensor it was called on');
    if (!(self.version > version)) p.push(`did not bump the version (${version} -> ${self.version})`);
    const [expected] = await functionResultsAs(ctx, c, self.dtype);
    p.push(...compareReadBacks(await h.read(self), expected, { tolerance: null }));
    if (p.length) fail(op, c, h, p.map((x) => `in-place: ${x}`));
  } finally {
    disposeAll(inputs, self);
  }
}

/** The function form's single result, cast to `dtype` on the device (what an in-place write stores). */
async function functionResultsAs(ctx: CheckContext, c: GoldenCase, dtype: Tensor['dtype']): Promise<ReadBack[]> {
  // (no cast: the results the case's other checks share, Note [One function-form run per case])
  const shared = lastFunctionRun?.key === runKey(ctx, c) ? await lastFunctionRun.results : null;
  if (shared && shared.length === 1 && shared[0].dtype === dtype) return shared;
  const h = ctx.harness;
  const inputs = makeInputs(c, h.device);
  const r = await attemptForm(ctx.op, h.asyncForms, inputs, c.kwargs);
  try {
    if (!r.ok) fail(ctx.op, c, h, [`the function form threw ${String(r.error)}`]);
    const t = resultList(r.value)[0];
    const cast = t.dtype === dtype ? t : t.to(dtype);
    try {
      return [await h.read(cast)];
    } finally {
      if (cast !== t) cast.dispose();
    }
  } finally {
    disposeAll(inputs, r.ok ? r.value : null);
  }
}

/** `op(..., { out })` writes into `out` (contiguous, and transposed for 2-D and up), returns it and bumps its version. */
export async function checkOut(ctx: CheckContext, c: GoldenCase): Promise<void> {
  const { op, harness: h } = ctx;
  const expected = await sharedFunctionResults(ctx, c);
  const tuple = Array.isArray(c.expected);
  const empties = (transposed: boolean): Tensor[] =>
    expected.map(({ dtype, shape }) => {
      if (!transposed) return torch.empty([...shape], { dtype, device: h.device });
      const rev = [...shape].reverse();
      return torch.empty(rev, { dtype, device: h.device }).permute(...rev.map((_, k) => rev.length - 1 - k));
    });
  const outs: [string, () => Tensor[]][] = [['contiguous out', () => empties(false)]];
  if (expected.some(({ shape }) => shape.filter((n) => n > 1).length >= 2)) outs.push(['transposed out', () => empties(true)]);
  const p: string[] = [];
  for (const [label, make] of outs) {
    const inputs = makeInputs(c, h.device);
    const out = torch.tidy(make);
    try {
      const versions = out.map((t) => t.version);
      // A tuple result takes a tuple of outs (`{ out: [values, indices] }`), as PyTorch's.
      const r = await attemptOut(op, h.asyncForms, inputs, c.kwargs, tuple ? out : out[0]);
      if (!r.ok) {
        p.push(`${label}: threw ${String(r.error)}`);
        continue;
      }
      const got = resultList(r.value);
      if (got.length !== out.length || got.some((t, i) => t !== out[i])) p.push(`${label}: did not return the out tensor${tuple ? 's' : ''}`);
      disposeAll(got.filter((t) => !out.includes(t)));
      for (let i = 0; i < out.length; i++) {
        const which = tuple ? ` ${i}` : '';
        if (!(out[i].version > versions[i])) p.push(`${label}${which}: did not bump the version (${versions[i]} -> ${out[i].version})`);
        p.push(...compareReadBacks(await h.read(out[i]), expected[i], { tolerance: null }).map((x) => `${label}${which}: ${x}`));
      }
    } finally {
      disposeAll(inputs, out);
    }
  }
  if (p.length) fail(op, c, h, p);
}

/** Strided and transposed views of the same values give what contiguous inputs give. */
export async function checkNoncontig(ctx: CheckContext, c: GoldenCase): Promise<void> {
  const { op, harness: h } = ctx;
  const expected = await sharedFunctionResults(ctx, c);
  const p: string[] = [];
  for (const layout of ['strided', 'transposed'] as const) {
    if (!layoutApplies(c, layout)) continue;
    const inputs = makeInputs(c, h.device, layout);
    try {
      if (!inputs.some((x) => x instanceof torch.Tensor && !x.isContiguous())) {
        p.push(`${layout}: no input came out non-contiguous (the check would test nothing)`);
        continue;
      }
      const r = await attemptForm(op, h.asyncForms, inputs, c.kwargs);
      if (!r.ok) {
        p.push(`${layout}: threw ${String(r.error)}`);
        continue;
      }
      try {
        const got = await readAll(h, resultList(r.value));
        p.push(...compareLists(got, expected, (d) => toleranceFor(op, d), false).map((x) => `${layout} inputs: ${x}`));
      } finally {
        disposeAll(r.value);
      }
    } finally {
      disposeAll(inputs);
    }
  }
  if (p.length) fail(op, c, h, p);
}

/** The device agrees with its oracle device on the same inputs. */
export async function checkOracle(ctx: CheckContext, c: GoldenCase): Promise<void> {
  const oracle = ctx.oracle;
  if (!oracle) throw new Error(`${ctx.op.name}: the oracle check runs only on a device with an oracle`);
  const expected = await functionResults(ctx, c, 'contiguous', oracle);
  const got = await sharedFunctionResults(ctx, c);
  const p =
    ctx.op.randomCheck && ctx.harness.ownRandomValues
      ? await randomDrawProblems(ctx.op, c, got, expected, ctx.harness)
      : compareLists(got, expected, (d) => toleranceFor(ctx.op, d), false);
  if (p.length) fail(ctx.op, c, ctx.harness, p.map((x) => `vs ${oracle.name}: ${x}`));
}

/**
 * A random op on a device with its own random values (DeviceHarness.ownRandomValues): the
 * reference (golden or oracle) fixes the results' dtypes and shapes, and the op's
 * `randomCheck` says whether the values are a valid draw for the case's inputs (and checks
 * the op's frequencies on a large draw of its own on the device).
 */
async function randomDrawProblems(op: OpInfo, c: GoldenCase, got: readonly ReadBack[], expected: readonly ReadBack[], h: DeviceHarness): Promise<string[]> {
  if (got.length !== expected.length) return [`got ${got.length} result tensors, expected ${expected.length}`];
  const p = got.flatMap((g, i) =>
    g.dtype !== expected[i].dtype || g.shape.join() !== expected[i].shape.join()
      ? [`result ${i}: ${g.dtype} [${g.shape.join(', ')}], expected ${expected[i].dtype} [${expected[i].shape.join(', ')}]`]
      : [],
  );
  if (p.length) return p;
  if (!op.randomCheck) return [`${op.name} has no randomCheck`];
  const inputs = c.inputs.map((x) => (isScalarInput(x) ? decodeScalar(x) : fromGolden(x)));
  return (await op.randomCheck(got, inputs, c.kwargs, h.device)).map((x) => `random draw: ${x}`);
}

/** A hand-written bad call throws the declared TorchError subclass, naming the op. */
export async function checkErrorInput(ctx: CheckContext, e: ErrorInput): Promise<void> {
  const r = attempt(() => e.make(ctx.harness.device));
  let error: unknown = r.ok ? null : r.error;
  if (r.ok) {
    // (a data-dependent error may surface only when the result is read: Note in throwProblems)
    try {
      const v = r.value;
      await readAll(ctx.harness, v instanceof torch.Tensor ? [v] : Array.isArray(v) ? v.filter((t): t is Tensor => t instanceof torch.Tensor) : []);
    } catch (readError) {
      error = readError;
    } finally {
      disposeAll(r.value);
    }
    if (error === null) throw new Error(`${ctx.op.name}: error input '${e.name}' did not throw (expected ${e.error.name} matching ${e.match})`);
  }
  const p = errorProblems(ctx.op, error, [e.error], e.match);
  if (p.length) throw new Error(`${ctx.op.name}: error input '${e.name}' on ${ctx.harness.name}:\n  ${p.join('\n  ')}`);
}
